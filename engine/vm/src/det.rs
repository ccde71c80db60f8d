//! `determinized`: a copy of a state that agrees with all one seat knows and holds nothing more — deal for
//! deal the copy of the reference (engine/runtime/sight.py `determinize`), its shuffler an `rng::Deal`.

use crate::game::{Ins, Shape};
use crate::rng;
use crate::rng::Seed;
use crate::shared::Shared;
use crate::state::{Error, Fault, Hist, Pending, Res, State, F};
use crate::value::{Journal, V};
use std::cell::Cell;
use std::rc::Rc;

/// Deals drawn until the copy offers the seat its own options; then one more keeping the programs' cards.
pub const DEAL_TRIES: usize = 16;

/// The pending decision as a seat may know it (sight.decision_for): a copy must ask it alike.
#[derive(PartialEq, Debug)]
pub struct Told {
    player: u32,
    kind: Rc<str>,
    secret: bool,
    to_act: Option<Vec<u32>>,
    seats: Option<Vec<u32>>,
    chosen: Option<Rc<str>>,
    actions: Option<Rc<[Rc<str>]>>,
}

/// A hidden place a deal fills anew: its zone, its index there, the card there, the back that card shows,
/// and whether the seat knows the card is in that zone (then it is dealt back into the zone).
#[derive(Clone, Copy)]
struct Slot {
    zone: u32,
    place: u32,
    card: u32,
    look: u32,
    kept: bool,
}

/// What every deal for one seat fills (sight._hidden): the hidden places not pinned, back by back in the
/// order the backs first show (the order they are dealt in), each back's zone by zone as the zones lie.
pub struct Hidden {
    seat: u32,
    slots: Vec<Slot>,
}

/// The runs of `slots` that `same` joins, each with the index of its first slot.
fn runs(slots: &[Slot], same: fn(&Slot, &Slot) -> bool) -> impl Iterator<Item = (usize, &[Slot])> {
    slots.chunk_by(same).scan(0, |at, run| {
        *at += run.len();
        Some((*at - run.len(), run))
    })
}

impl Hidden {
    pub fn seat(&self) -> u32 {
        self.seat
    }

    /// A random relabelling of the hidden cards that keeps all the seat knows of them: per slot, the card
    /// dealt there. Per back, the cards not kept in a zone are shuffled, then each zone (in order) takes its
    /// share of them and shuffles them with its kept ones, if it has any.
    fn deal(&self, shuffler: &mut rng::Deal) -> Vec<u32> {
        let mut dealt: Vec<u32> = self.slots.iter().map(|s| s.card).collect();
        let (mut pool, mut here) = (vec![], vec![]);
        for (start, back) in runs(&self.slots, |a, b| a.look == b.look) {
            let out = &mut dealt[start..start + back.len()];
            if back.iter().all(|s| !s.kept) {
                // the zones take their shares of the shuffled cards in order, as they lie: a shuffle in place
                shuffler.shuffle(out);
                continue;
            }
            pool.clear();
            pool.extend(back.iter().filter(|s| !s.kept).map(|s| s.card));
            shuffler.shuffle(&mut pool);
            let mut taken = 0;
            for (at, zone) in runs(back, |a, b| a.zone == b.zone) {
                here.clear();
                here.extend(zone.iter().filter(|s| s.kept).map(|s| s.card));
                let kept = here.len();
                let take = zone.len() - kept;
                here.extend_from_slice(&pool[taken..taken + take]);
                taken += take;
                if kept > 0 {
                    shuffler.shuffle(&mut here); // the pool's share alone is in a random order already
                }
                out[at..at + zone.len()].copy_from_slice(&here);
            }
        }
        dealt
    }
}

/// What a seat's copy may hold otherwise than the true state, watched while a bot rates its options on the
/// true state itself (`State::rated_in_sight`): the zones a deal fills and the places of the cards it moves.
/// Reads of these, draws of chance, dice's faces (rolled again in a copy) and scores (kept from reads of the
/// whole state) fail under the watch; every other read gives what it gives in every copy. Nothing a rating runs
/// changes the game (an expression holds no change: the checker's E505).
pub struct Held {
    zones: Vec<bool>,
    cards: Vec<bool>,
}

/// What the reads a watch looks at do while it is on: fail where they touch what it holds, or be noted.
pub enum Watch {
    Held(Held),
    Noting(Reads),
}

/// The reads a watch looks at, noted while a decision's options and chooser are worked out (where
/// `State::note_reads` says): the zones read, the cards whose places were read, and whether chance, a die's face
/// or a score was. A rating in place of a seat's copies may then check these against its `Held` instead of
/// working the options out again under it: the state stands still while it is asked.
#[derive(Debug)]
pub struct Reads {
    zones: Marks,
    cards: Marks,
    chance: Cell<bool>,
}

impl Reads {
    fn meet(&self, held: &Held) -> bool {
        self.chance.get() || self.zones.any(&held.zones) || self.cards.any(&held.cards)
    }
}

/// Places marked among `0..n`, a bit each.
#[derive(Debug)]
struct Marks(Box<[Cell<u64>]>);

impl Marks {
    fn new(n: usize) -> Marks {
        Marks((0..n.div_ceil(64)).map(|_| Cell::new(0)).collect())
    }

    #[inline(always)]
    fn mark(&self, i: usize) {
        let word = &self.0[i / 64];
        word.set(word.get() | 1 << (i % 64));
    }

    /// Whether a place marked is one where `held` is true.
    fn any(&self, held: &[bool]) -> bool {
        self.0.iter().enumerate().any(|(w, word)| {
            let mut bits = word.get();
            while bits != 0 {
                if held[w * 64 + bits.trailing_zeros() as usize] {
                    return true;
                }
                bits &= bits - 1;
            }
            false
        })
    }
}

#[cold]
fn unseen() -> Fault {
    Box::new(F::Bug(
        "a read that a seat's copy may answer otherwise, made while a bot rated its options on the true state".into(),
    ))
}

fn lost() -> Error {
    Error::Bug("a determinized copy was made and lost".into())
}

fn hears(audience: Option<i64>, seat: u32) -> bool {
    match audience {
        None => true,
        Some(a) if a < 0 => a != !i64::from(seat),
        Some(a) => a == i64::from(seat),
    }
}

impl State {
    pub fn decision_for(&self, seat: u32) -> Option<Told> {
        let p = self.pending.as_ref()?;
        let mut told = Told {
            player: p.player,
            kind: p.kind.clone(),
            secret: p.secret,
            to_act: None,
            seats: None,
            chosen: None,
            actions: None,
        };
        let mut ids = p.ids.clone();
        if let Some(t) = &p.together {
            let waiting = p.to_act();
            if waiting.contains(&seat) {
                told.player = seat;
                ids = p.asked(Some(seat)).ids;
            } else if let Some(i) = t.seats.iter().position(|&s| s == seat) {
                told.chosen = t.chosen[i].map(|c| t.ids[i][c as usize].clone());
            }
            told.to_act = Some(waiting);
            told.seats = Some(t.seats.clone());
        }
        if told.player == seat {
            told.actions = Some(ids);
        }
        Some(told)
    }

    /// A copy consistent with all `seat` knows (see the module); an error if no deal agrees with it.
    pub fn determinized(&self, seat: u32, seed: Seed) -> Result<State, Error> {
        self.determinized_from(&self.hidden(seat)?, seed)
    }

    /// `determinized` for the seat of `hidden`, the places its deals fill found on this very state: a search
    /// that copies one state many times finds them once.
    pub fn determinized_from(&self, hidden: &Hidden, seed: Seed) -> Result<State, Error> {
        let mut spare = None;
        self.determinized_in(hidden, seed, &mut spare)?;
        spare.ok_or_else(lost)
    }

    /// `determinized_from`, the copy left in `spare`, made in the arrays of the state it holds if it holds one: a
    /// bot or a search that copies again and again allocates for its copies once.
    pub fn determinized_in<'s>(
        &self,
        hidden: &Hidden,
        seed: Seed,
        spare: &'s mut Option<State>,
    ) -> Result<&'s mut State, Error> {
        crate::state::within_64_bits(seed)?;
        let seat = hidden.seat;
        let mut shuffler = rng::Deal::new(seed);
        let told = self.decision_for(seat);
        for attempt in 0..=DEAL_TRIES {
            let dealt = hidden.deal(&mut shuffler);
            let copy = match spare {
                Some(copy) => {
                    copy.clone_from(self);
                    copy
                }
                None => spare.insert(self.clone()),
            };
            if self.dealt(copy, hidden, &dealt, seed, attempt == DEAL_TRIES, &mut shuffler)?
                && (told.is_none() || copy.decision_for(seat) == told)
            {
                return spare.as_mut().ok_or_else(lost);
            }
        }
        Err(Error::State(format!(
            "no deal of the cards hidden from seat {seat} agrees with what it knows (tried {}): the rules reveal \
             the hidden cards by whom they ask",
            DEAL_TRIES + 1
        )))
    }

    /// What `rate` gives on a determinized copy for `seat`, worked out on this state itself where it reads
    /// nothing a deal could change (`Watch`), so that every copy gives it alike and none need be made; None
    /// where it may read such a thing (or fails), and the caller rates on a copy. The state is left as it was.
    pub fn rated_in_sight<T>(&mut self, seat: u32, rate: impl FnOnce(&mut State) -> Result<T, Error>) -> Option<T> {
        let held = self.sight(seat)?;
        self.watch = Some(Box::new(Watch::Held(held)));
        let rated = rate(self).ok();
        self.watch = None;
        rated
    }

    /// Whether every copy for `seat` is asked the pending decision as this state is: then a copy can be made (its
    /// first deal agrees) and need not be, to know that.
    pub fn asked_alike(&mut self, seat: u32) -> bool {
        self.sight(seat).is_some()
    }

    /// The watch under which a read on this state gives what it gives on every copy for `seat`, where every copy
    /// is asked the pending decision alike (its options' reads, noted or worked out again, touch nothing the
    /// watch holds); else None.
    fn sight(&mut self, seat: u32) -> Option<Held> {
        let held = self.watch_for(seat)?;
        if let Some(reads) = self.pending.as_ref()?.reads.clone() {
            return (!reads.meet(&held)).then_some(held);
        }
        self.watch = Some(Box::new(Watch::Held(held)));
        let asked = self.asked_as_copies_ask();
        match self.watch.take().map(|w| *w) {
            Some(Watch::Held(held)) if asked.is_ok() => Some(held),
            _ => None,
        }
    }

    /// Start noting the reads a watch looks at, if this state notes what its decisions' options read and no
    /// watch is on; whether it started.
    pub(crate) fn start_noting(&mut self) -> bool {
        if !self.note_reads || self.watch.is_some() {
            return false;
        }
        self.watch = Some(Box::new(Watch::Noting(Reads {
            zones: Marks::new(self.seats().zones.len()),
            cards: Marks::new(self.loc.len()),
            chance: Cell::new(false),
        })));
        true
    }

    /// The reads noted since `start_noting` started; the watch is off.
    pub(crate) fn noted(&mut self) -> Option<Reads> {
        match *self.watch.take()? {
            Watch::Noting(reads) => Some(reads),
            Watch::Held(_) => None,
        }
    }

    /// The watch for a rating on this state in place of `seat`'s copies, or None where a copy differs from
    /// this state beyond it (`dealt`): a simultaneous decision, a variable, player variable or local holding a
    /// card a deal moves (relabelled in a copy), another seat's private variable not at its start (reset).
    fn watch_for(&self, seat: u32) -> Option<Held> {
        let p = self.pending.as_ref()?;
        if p.together.is_some() {
            return None;
        }
        let mut watch = Held {
            zones: vec![false; self.seats().zones.len()],
            cards: vec![false; self.loc.len()],
        };
        self.dealt_places(seat, |z, _, card| {
            watch.zones[z] = true;
            watch.cards[card as usize] = true;
        });
        let holds = |v: &V, shape: &Shape| holds_marked(v, shape, &watch.cards);
        let det = &self.game.det;
        if det.vars.iter().any(|(i, shape)| holds(&self.vars[*i as usize], shape))
            || self
                .pvars
                .iter()
                .any(|row| det.pvars.iter().any(|(i, shape)| holds(&row[*i as usize], shape)))
            || self.stack.iter().any(|f| {
                det.locals[f.proc as usize]
                    .iter()
                    .any(|(slot, shape)| holds(&f.env[*slot as usize], shape))
            })
        {
            return None;
        }
        let started = |i: u16| &self.game.pvars[i as usize].initial;
        for (p, row) in self.pvars.iter().enumerate() {
            if p != seat as usize && det.private.iter().any(|&i| !row[i as usize].exact(started(i))) {
                return None;
            }
        }
        Some(watch)
    }

    /// The pending decision's options and chooser worked out again, as a copy's `run` works them out before a
    /// bot rates on it: under the watch, they are the copies' own. Options that print alike (told apart by
    /// where their cards lie) are not worked out here.
    fn asked_as_copies_ask(&mut self) -> Res<()> {
        let game = self.game.clone();
        let Some(f) = self.stack.last() else {
            return Err(unseen());
        };
        let Some(Ins::Choose(c)) = game.procs[f.proc as usize].code.get(f.pc as usize) else {
            return Err(unseen());
        };
        if c.each.is_some() {
            return Err(unseen());
        }
        let mut env = f.env.clone();
        let (items, player) = self.options_and_chooser(&game, c, &mut env)?;
        if self.option_ids(c, &items, &player).1 {
            return Err(unseen());
        }
        Ok(())
    }

    /// Fails under a watch that holds zone `z`: a read of its cards.
    #[inline(always)]
    pub(crate) fn unseen_zone(&self, z: usize) -> Res<()> {
        self.read_under_watch(z, |w| &w.zones, |r| &r.zones)
    }

    /// Fails under a watch that holds card `c`: a read of where it lies.
    #[inline(always)]
    pub(crate) fn unseen_place(&self, c: usize) -> Res<()> {
        self.read_under_watch(c, |w| &w.cards, |r| &r.cards)
    }

    /// A read of place `i` among the zones or the cards' places (`held` and `noted` pick which): it fails under a
    /// watch that holds the place, and is noted where reads are.
    #[inline(always)]
    fn read_under_watch(&self, i: usize, held: fn(&Held) -> &[bool], noted: fn(&Reads) -> &Marks) -> Res<()> {
        match self.watch.as_deref() {
            None => Ok(()),
            Some(Watch::Held(w)) if held(w)[i] => Err(unseen()),
            Some(Watch::Held(_)) => Ok(()),
            Some(Watch::Noting(r)) => {
                noted(r).mark(i);
                Ok(())
            }
        }
    }

    /// Fails under any watch: a draw of chance, a die's face or a score.
    #[inline(always)]
    pub(crate) fn unwatched(&self) -> Res<()> {
        match self.watch.as_deref() {
            None => Ok(()),
            Some(Watch::Held(_)) => Err(unseen()),
            Some(Watch::Noting(r)) => {
                r.chance.set(true);
                Ok(())
            }
        }
    }

    /// `each` place a deal for `seat` fills, zone by zone as the zones it does not see lie: the zone, the
    /// index there and the card. Not a card the seat knows the place of, nor a die (known where it lies; its
    /// face is rolled again).
    #[inline(always)]
    fn dealt_places(&self, seat: u32, mut each: impl FnMut(usize, usize, u32)) {
        let bit = 1u32 << seat;
        let seats = self.seats();
        for &z in &seats.unseen[seat as usize] {
            let (z, cards) = (z as usize, &self.zones[z as usize]);
            if cards.is_empty() {
                continue;
            }
            let upto = cards.len() - usize::from(seats.tops[z]);
            for (i, &card) in cards[..upto].iter().enumerate() {
                let c = card as usize;
                if self.pinned[c] & bit == 0 && !self.is_die(c) {
                    each(z, i, card);
                }
            }
        }
    }

    /// The places deals for `seat` fill (see `Hidden`).
    pub fn hidden(&self, seat: u32) -> Result<Hidden, Error> {
        if seat as usize >= self.n {
            return Err(Error::State(format!("no seat {seat}: seats are 0…{}", self.n - 1)));
        }
        let bit = 1u32 << seat;
        let det = &self.game.det;
        let mut slots = Vec::with_capacity(self.loc.len());
        // per back, its place in the order the backs first show (u32::MAX: not shown yet); per place, its slots
        let (mut rank, mut counts) = (vec![u32::MAX; det.backs], Vec::<u32>::new());
        self.dealt_places(seat, |z, i, card| {
            let c = card as usize;
            let look = det.looks[c];
            let r = &mut rank[look as usize];
            if *r == u32::MAX {
                *r = counts.len() as u32;
                counts.push(0);
            }
            counts[*r as usize] += 1;
            slots.push(Slot {
                zone: z as u32,
                place: i as u32,
                card,
                look,
                kept: self.know[c] & bit != 0,
            });
        });
        if counts.len() > 1 {
            // back by back, each in the order found: each back's run starts after the runs of the backs before
            let mut start = 0;
            for n in &mut counts {
                (*n, start) = (start, start + *n);
            }
            let mut sorted = slots.clone();
            for s in &slots {
                let at = &mut counts[rank[s.look as usize] as usize];
                sorted[*at as usize] = *s;
                *at += 1;
            }
            slots = sorted;
        }
        Ok(Hidden { seat, slots })
    }

    /// Make `copy`, a copy of this state, the one with a deal (per slot of `hidden`, the card `dealt` there)
    /// applied and all the seat of `hidden` may not know left out; false if the rules could not have asked the
    /// pending decision of these cards.
    fn dealt(
        &self,
        copy: &mut State,
        hidden: &Hidden,
        dealt: &[u32],
        seed: Seed,
        hold: bool,
        shuffler: &mut rng::Deal,
    ) -> Result<bool, Error> {
        let seat = hidden.seat;
        copy.relabel(self, hidden, dealt, seat, hold);
        copy.reroll(seat, shuffler);
        let game = self.game.clone();
        for (p, row) in copy.pvars.iter_mut().enumerate() {
            if p != seat as usize {
                for &i in &game.det.private {
                    row[i as usize] = game.pvars[i as usize].initial.clone();
                }
            }
        }
        for (p, s) in copy.seen.iter_mut().enumerate() {
            if p != seat as usize && !s.is_empty() {
                *s = Journal::default();
            }
        }
        if self.keep_log {
            // The copy shares the log and the history (a clone does) unless a line or an entry is hidden from `seat`.
            if !self.log.iter().all(|l| hears(l.audience, seat)) {
                let lines: Vec<_> = self.log.iter().filter(|l| hears(l.audience, seat)).cloned().collect();
                copy.log = lines.into();
            }
            let chosen = self
                .pending
                .as_ref()
                .and_then(|p| p.together.as_ref())
                .map_or(0, |t| t.chosen.iter().filter(|c| c.is_some()).count());
            let cut = self.history.len() - chosen;
            let hidden = |i: usize, h: &Hist| as_seen(h, seat, i < cut);
            if self.history.iter().enumerate().any(|(i, h)| hidden(i, h).is_some()) {
                let seen: Vec<Hist> = self
                    .history
                    .iter()
                    .enumerate()
                    .map(|(i, h)| hidden(i, h).unwrap_or_else(|| h.clone()))
                    .collect();
                copy.history = seen.into();
            }
        } else {
            if !copy.log.is_empty() {
                copy.log = Journal::default();
            }
            if !copy.history.is_empty() {
                copy.history = Journal::default();
            }
        }
        copy.seed = seed;
        copy.rng = rng::seed_state(seed);
        copy.changed();
        let Some(saved) = copy.pending.take() else {
            let mut truth = self.clone();
            let scores = truth.scores()?;
            let results = truth.outcome()?.unwrap_or_default();
            copy.fin = Some(Rc::new((scores, results)));
            return Ok(true);
        };
        if copy.run().is_err() {
            return Ok(false);
        }
        if let Some(t) = &saved.together {
            copy.chosen_again(t, seat, shuffler);
        }
        Ok(true)
    }

    /// A simultaneous decision asked again in a copy: the seats that chose have chosen (`seat` its own
    /// option, another seat one of its options at random).
    fn chosen_again(&mut self, saved: &crate::state::Together, seat: u32, shuffler: &mut rng::Deal) {
        let Some(asked) = self.pending.clone() else { return };
        let mut pending: Pending = (*asked).clone();
        for ((&s, chosen), ids) in saved.seats.iter().zip(&saved.chosen).zip(&saved.ids) {
            let Some(chosen) = chosen else { continue };
            let Some(t) = pending.together.as_mut() else { return };
            let Some(i) = t.seats.iter().position(|&x| x == s) else {
                continue;
            };
            let options = &t.ids[i];
            let own = &ids[*chosen as usize];
            let index = match options.iter().position(|o| o == own) {
                Some(k) if s == seat => k,
                _ => shuffler.pick(options.len() as u64) as usize,
            };
            t.chosen[i] = Some(index as u32);
            if !pending.to_act().is_empty() {
                pending = pending.asked(None);
            }
        }
        self.pending = Some(Rc::new(pending));
    }

    /// Apply a deal for `seat` to this copy of `truth`: to the zones and, unless `hold`, to every card
    /// variables and frames hold. A card takes the place of the one it replaces and what the other seats
    /// knew of that place; what `seat` knows stays with the card (sight._relabel).
    fn relabel(&mut self, truth: &State, hidden: &Hidden, dealt: &[u32], seat: u32, hold: bool) {
        let own = 1u32 << seat;
        let mut moved = false;
        for (at, zone) in runs(&hidden.slots, |a, b| a.zone == b.zone) {
            let dealt = &dealt[at..at + zone.len()];
            if zone.iter().zip(dealt).all(|(slot, &new)| slot.card == new) {
                continue; // the zone is dealt as it lies
            }
            moved = true;
            let cards = self.zones.get_mut(zone[0].zone as usize);
            for (slot, &new) in zone.iter().zip(dealt) {
                let (old, new) = (slot.card as usize, new as usize);
                cards[slot.place as usize] = new as u32;
                self.loc[new] = truth.loc[old];
                self.know[new] = truth.know[old] & !own | truth.know[new] & own;
                self.pinned[new] = truth.pinned[old] & !own | truth.pinned[new] & own;
            }
        }
        if hold || !moved {
            return;
        }
        let game = self.game.clone();
        let det = &game.det;
        let mut map: Vec<u32> = (0..self.loc.len() as u32).collect();
        for (slot, &new) in hidden.slots.iter().zip(dealt) {
            map[slot.card as usize] = new;
        }
        for (i, shape) in &det.vars {
            if let Some(new) = remap(&self.vars[*i as usize], shape, &map) {
                self.vars[*i as usize] = new;
            }
        }
        for row in self.pvars.iter_mut() {
            for (i, shape) in &det.pvars {
                if let Some(new) = remap(&row[*i as usize], shape, &map) {
                    row[*i as usize] = new;
                }
            }
        }
        for f in self.stack.iter_mut() {
            for (slot, shape) in &det.locals[f.proc as usize] {
                if let Some(new) = remap(&f.env[*slot as usize], shape, &map) {
                    f.env[*slot as usize] = new;
                }
            }
        }
    }
}

/// A history entry as `seat` may see it, None when it sees all of it: another seat's secret choice without
/// its action, unless it was made together with others and is `revealed`.
fn as_seen(h: &Hist, seat: u32, revealed: bool) -> Option<Hist> {
    match h {
        Hist::Act {
            seat: s,
            secret: Some(kind),
            together,
            ..
        } if *s != seat && !(revealed && *together) => Some(Hist::Act {
            seat: *s,
            action: None,
            secret: Some(kind.clone()),
            together: *together,
        }),
        Hist::Roll {
            die,
            of,
            seen: Some(seen),
            ..
        } if !seen.contains(&seat) => Some(Hist::Roll {
            die: *die,
            of: *of,
            index: None,
            seen: Some(seen.clone()),
        }),
        _ => None,
    }
}

/// `v` with every card it holds where `shape` says relabelled by `map`, or None when no card it holds moves
/// (the copy then shares the value: most values hold only cards the seat sees, which keep their names).
fn remap(v: &V, shape: &Shape, map: &[u32]) -> Option<V> {
    match (shape, v) {
        (Shape::Card, V::Int(c)) if *c >= 0 && (*c as usize) < map.len() && i64::from(map[*c as usize]) != *c => {
            Some(V::Int(i64::from(map[*c as usize])))
        }
        (Shape::List(inner), V::List(items)) => remap_each(items, |x| remap(x, inner, map)).map(V::List),
        (Shape::Loop(list), V::Iter(i, items)) => match remap(&V::List(items.clone()), list, map)? {
            V::List(items) => Some(V::Iter(*i, items)),
            _ => None,
        },
        (Shape::Record(fields), V::Rec(r)) => remap_each(r, |(k, x)| {
            let (_, s) = fields.iter().find(|(name, _)| name == k)?;
            remap(x, s, map).map(|x| (*k, x))
        })
        .map(V::Rec),
        _ => None,
    }
}

/// Whether `v` holds a card `marked` marks where `shape` says it holds cards: whether `remap` relabels it by a
/// map that moves those cards.
fn holds_marked(v: &V, shape: &Shape, marked: &[bool]) -> bool {
    let each = |items: &[V], inner: &Shape| items.iter().any(|x| holds_marked(x, inner, marked));
    match (shape, v) {
        (Shape::Card, V::Int(c)) => usize::try_from(*c).is_ok_and(|c| marked.get(c) == Some(&true)),
        (Shape::List(inner), V::List(items)) => each(items, inner),
        (Shape::Loop(list), V::Iter(_, items)) => matches!(&**list, Shape::List(inner) if each(items, inner)),
        (Shape::Record(fields), V::Rec(r)) => r.iter().any(|(k, x)| {
            // a text, a yes/no or none holds no card: its field's shape is not looked for
            matches!(x, V::Int(_) | V::List(_) | V::Iter(..) | V::Rec(_))
                && fields
                    .iter()
                    .find(|(name, _)| name == k)
                    .is_some_and(|(_, s)| holds_marked(x, s, marked))
        }),
        _ => false,
    }
}

/// `items` with `f` applied where it gives a new item, or None when it gives none (made in one allocation: the
/// items are counted before they are made).
fn remap_each<T: Clone>(items: &[T], f: impl Fn(&T) -> Option<T>) -> Option<Shared<T>> {
    let (k, first) = items.iter().enumerate().find_map(|(k, x)| f(x).map(|new| (k, new)))?;
    let mut first = Some(first);
    let out = items.iter().enumerate().map(|(i, x)| match i.cmp(&k) {
        std::cmp::Ordering::Less => x.clone(),
        std::cmp::Ordering::Equal => first.take().unwrap_or_else(|| x.clone()),
        std::cmp::Ordering::Greater => f(x).unwrap_or_else(|| x.clone()),
    });
    Some(out.collect())
}
