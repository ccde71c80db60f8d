//! A running game: zones, variables, frames suspended at decisions, who knows which card; and the loop that
//! runs the IR's instructions until a decision is pending or the game ends (State._run of the reference).

use crate::det::Reads;
use crate::game::{FxMap, FxSet, Game, Ins, Label, Readers, Store, Variable};
use crate::rng::{self, Seed};
use crate::shared::Shared;
use crate::value::{Exact, ExactKey, Journal, V};
use std::borrow::Cow;
use std::rc::Rc;

pub const MAX_SIZE: usize = 100_000;

/// Why a rule program stopped.
#[derive(Debug)]
pub enum F {
    /// A rule asked for something impossible in the language's own words (E701).
    Rule(String),
    /// A rule applied an operation to values it does not take (E702).
    Failed(String),
    /// A function written as statements ran out of steps (E703 at the calling instruction).
    Overrun,
    /// The VM itself is wrong (never the rules).
    Bug(String),
    /// The scoring, read by `score`, failed at its own line: its diagnostic goes through unchanged.
    Scoring(Box<Diag>),
}

/// A fault as the evaluator passes it up: boxed, so that a result is small (a yes/no and its fault come back
/// in two registers, a value and its fault in a value's space).
pub type Fault = Box<F>;

pub type Res<T> = Result<T, Fault>;

const _: () = assert!(std::mem::size_of::<Res<V>>() == 16);

pub fn rule<T>(m: impl Into<String>) -> Res<T> {
    Err(Box::new(F::Rule(m.into())))
}

pub fn failed<T>(m: impl Into<String>) -> Res<T> {
    Err(Box::new(F::Failed(m.into())))
}

/// A located diagnostic, as the reference's `Diagnostic` (path, line, col, code, message).
#[derive(Debug, Clone)]
pub struct Diag {
    pub path: String,
    pub line: u32,
    pub col: u32,
    pub code: &'static str,
    pub message: String,
}

/// Why a call into the VM failed.
#[derive(Debug)]
pub enum Error {
    Rule(Diag),
    Illegal(String),
    Stopped(String),
    Bug(String),
    State(String),
}

#[derive(Debug)]
pub struct Frame {
    pub proc: u16,
    pub pc: u32,
    pub env: Vec<V>,
}

impl Clone for Frame {
    fn clone(&self) -> Frame {
        Frame {
            proc: self.proc,
            pc: self.pc,
            env: self.env.clone(),
        }
    }

    /// The copy made in this frame's array of locals (a state copied into another's arrays: `State::clone_from`).
    fn clone_from(&mut self, source: &Frame) {
        self.proc = source.proc;
        self.pc = source.pc;
        self.env.clone_from(&source.env);
    }
}

#[derive(Clone, Debug)]
pub struct Together {
    pub seats: Vec<u32>,
    pub ids: Vec<Rc<[Rc<str>]>>,
    pub values: Vec<Shared<V>>,
    pub chosen: Vec<Option<u32>>,
}

#[derive(Clone, Debug)]
pub struct Pending {
    pub player: u32,
    pub ids: Rc<[Rc<str>]>,
    pub values: Shared<V>,
    pub secret: bool,
    pub kind: Rc<str>,
    pub together: Option<Together>,
    /// What working out the options read of what a deal may change, where noted (`det::Reads`).
    pub reads: Option<Rc<Reads>>,
}

impl Pending {
    pub fn to_act(&self) -> Vec<u32> {
        match &self.together {
            None => vec![self.player],
            Some(t) => {
                let mut seats: Vec<u32> = t
                    .seats
                    .iter()
                    .zip(&t.chosen)
                    .filter(|(_, c)| c.is_none())
                    .map(|(s, _)| *s)
                    .collect();
                seats.sort_unstable();
                seats
            }
        }
    }

    /// This decision asking `player` (default: the lowest seat still to act), with that seat's options.
    pub fn asked(&self, player: Option<u32>) -> Pending {
        let t = self.together.as_ref().expect("asked of a simultaneous decision");
        let player = player.unwrap_or_else(|| self.to_act().into_iter().min().unwrap_or(self.player));
        let i = t.seats.iter().position(|&s| s == player).unwrap_or(0);
        Pending {
            player,
            ids: t.ids[i].clone(),
            values: t.values[i].clone(),
            ..self.clone()
        }
    }
}

#[derive(Clone, Debug)]
pub enum Hist {
    Act {
        seat: u32,
        /// None: a secret choice masked for the seat a copy was made for.
        action: Option<Rc<str>>,
        secret: Option<Rc<str>>,
        /// Chosen at a simultaneous decision: shown to every seat once all have chosen.
        together: bool,
    },
    Shuffle(u32),
    Random {
        of: u64,
        index: u64,
    },
    /// A die rolled (dice.rs): its face's index, None for a seat that did not see the roll; `seen`: the
    /// seats that saw it, None when all did.
    Roll {
        die: u32,
        of: u64,
        index: Option<u64>,
        seen: Option<Rc<[u32]>>,
    },
}

#[derive(Clone, Debug)]
pub struct LogLine {
    pub audience: Option<i64>,
    text: Line,
}

/// A log line's text, written out only where it is read: most lines of a game are never read (a tool's loop,
/// a search's copies), and the values a line prints never change once made, nor do the words the game gives
/// them, so the text is the same whenever it is written.
#[derive(Clone, Debug)]
enum Line {
    /// Read back from a save.
    Made(Rc<str>),
    /// The values a `log` statement printed, in order: the statement at `pc` of procedure `proc`.
    Said { proc: u16, pc: u32, values: Box<[V]> },
    /// A seat's choice (`what`: the action's id, or the decision's kind where the action is hidden).
    Chose { seat: u32, what: Rc<str>, hidden: bool },
}

impl LogLine {
    pub fn made(audience: Option<i64>, text: Rc<str>) -> LogLine {
        LogLine {
            audience,
            text: Line::Made(text),
        }
    }

    /// The line's words, as `st`'s game prints them.
    pub fn text(&self, st: &State) -> Cow<'_, str> {
        let mut text = String::new();
        match &self.text {
            Line::Made(made) => return Cow::Borrowed(made),
            Line::Said { proc, pc, values } => {
                // a line is made only by the statement it names, in the game of the state it is in
                if let Some(Ins::Log(parts, _)) = st.game.procs[*proc as usize].code.get(*pc as usize) {
                    let mut values = values.iter();
                    for part in parts {
                        match part {
                            crate::game::LogPart::Text(t) => text.push_str(t),
                            crate::game::LogPart::Value(_, label) => {
                                if let Some(v) = values.next() {
                                    st.label(v, label, &mut text);
                                }
                            }
                        }
                    }
                }
            }
            Line::Chose { seat, what, hidden } => {
                st.write_seat_name((*seat).into(), &mut text);
                text.push_str(": ");
                text.push_str(what);
                if *hidden {
                    text.push_str(" …");
                }
            }
        }
        Cow::Owned(text)
    }
}

pub struct State {
    pub game: Rc<Game>,
    pub n: usize,
    pub seed: Seed,
    pub rng: u64,
    /// Each zone's cards, bottom first.
    pub zones: crate::zones::Zones,
    pub loc: Vec<u32>,
    pub vars: Vec<V>,
    pub pvars: Vec<Vec<V>>,
    pub stack: Vec<Frame>,
    pub pending: Option<Rc<Pending>>,
    pub log: Journal<LogLine>,
    /// Whether the log and the history are kept (a search's copies read neither; `turns` counts on).
    pub keep_log: bool,
    pub history: Journal<Hist>,
    /// How many entries the history has or would have (a `show`'s turn).
    pub turns: usize,
    /// What each seat was shown, a list per seat (shared by copies, as the log is).
    pub seen: Vec<Journal<serde_json::Value>>,
    pub reason: Option<Rc<str>>,
    pub know: Vec<u32>,
    pub pinned: Vec<u32>,
    pub settled: Vec<u32>,
    pub fault: Option<Diag>,
    pub fsteps: u64,
    /// Each seat's points while nothing they may read (zones, variables) has changed.
    pub points: Vec<Option<i64>>,
    /// The true scores and results of a finished game, kept by its determinized copies (the end is public).
    pub fin: Option<Rc<(Vec<i64>, Vec<&'static str>)>>,
    /// Arrays of locals for function calls, reused.
    pub pool: Pool,
    /// The face each die shows (none for other cards); empty in a game without dice.
    pub faces: Rc<Vec<V>>,
    /// Explicit chance: the outcomes the rules' draws take while one call runs (chance.rs), else none.
    pub draws: Option<Box<crate::chance::Draws>>,
    /// While a bot rates its options on this very state instead of on its copy (det.rs `Watch`): what no
    /// read may touch. Never kept by a copy.
    pub watch: Option<Box<crate::det::Watch>>,
    /// Whether a decision notes what its options read (`det::Reads`): set on the state a playout's greedy bots
    /// rate on in place of their copies. Never kept by a copy.
    pub note_reads: bool,
    /// The values of repeated expressions kept while a bot rates the options of one decision.
    pub memo: Memo,
}

/// The values of the repeated expressions (`Expr::Memo`) worked out while a bot rates the options of one decision,
/// each by the node and the values of the locals it reads: nothing changes the state while its options are rated
/// (an expression changes nothing, and none that draws at random is kept), so one option's repeat of another's
/// has that one's value. Off, and empty, at any other time; never kept by a copy.
#[derive(Default)]
pub struct Memo {
    pub on: bool,
    pub kept: FxMap<crate::compile::MemoKey, V>,
}

impl Memo {
    /// The rating done: off, and nothing kept (its room is, for the next).
    pub fn end(&mut self) {
        self.on = false;
        self.kept.clear();
    }
}

impl Clone for State {
    /// A copy that shares what it can with this state (journals, the game) and starts its own pool.
    fn clone(&self) -> State {
        State {
            game: self.game.clone(),
            n: self.n,
            seed: self.seed,
            rng: self.rng,
            zones: self.zones.clone(),
            loc: self.loc.clone(),
            vars: self.vars.clone(),
            pvars: self.pvars.clone(),
            stack: self.stack.clone(),
            pending: self.pending.clone(),
            log: self.log.clone(),
            keep_log: self.keep_log,
            history: self.history.clone(),
            turns: self.turns,
            seen: self.seen.clone(),
            reason: self.reason.clone(),
            know: self.know.clone(),
            pinned: self.pinned.clone(),
            settled: self.settled.clone(),
            fault: self.fault.clone(),
            fsteps: self.fsteps,
            points: self.points.clone(),
            fin: self.fin.clone(),
            faces: self.faces.clone(),
            draws: self.draws.clone(),
            pool: Pool::default(),
            watch: None,
            note_reads: false,
            memo: Memo::default(),
        }
    }

    /// The copy made in this state's own arrays, its pool of locals kept: a bot or a search that copies states
    /// again and again allocates for them once.
    fn clone_from(&mut self, source: &State) {
        let State {
            game,
            n,
            seed,
            rng,
            zones,
            loc,
            vars,
            pvars,
            stack,
            pending,
            log,
            keep_log,
            history,
            turns,
            seen,
            reason,
            know,
            pinned,
            settled,
            fault,
            fsteps,
            points,
            fin,
            faces,
            draws,
            pool: _,
            watch: _,
            note_reads: _,
            memo: _,
        } = source;
        self.game.clone_from(game);
        self.n = *n;
        self.seed = *seed;
        self.rng = *rng;
        self.zones.clone_from(zones);
        self.loc.clone_from(loc);
        self.vars.clone_from(vars);
        self.pvars.clone_from(pvars);
        self.stack.clone_from(stack);
        self.pending.clone_from(pending);
        self.log.clone_from(log);
        self.keep_log = *keep_log;
        self.history.clone_from(history);
        self.turns = *turns;
        self.seen.clone_from(seen);
        self.reason.clone_from(reason);
        self.know.clone_from(know);
        self.pinned.clone_from(pinned);
        self.settled.clone_from(settled);
        self.fault.clone_from(fault);
        self.fsteps = *fsteps;
        self.points.clone_from(points);
        self.fin.clone_from(fin);
        self.faces.clone_from(faces);
        self.draws.clone_from(draws);
        self.watch = None;
        self.note_reads = false;
    }
}

/// Calls (of functions, and of the scoring through `score`) nested deeper than this fail as the reference
/// fails at Python's recursion limit (some 300 calls there), long before the native stack could run out.
const MAX_NESTED: u32 = 256;

/// What calls use: arrays of locals kept for reuse, and how deep the calls running now are nested. A new copy of
/// a state starts without any, a copy made into another state's arrays keeps that state's (they hold nothing of
/// the game, and no call runs while a state is copied).
#[derive(Default)]
pub struct Pool {
    arrays: Vec<Vec<V>>,
    depth: u32,
    /// Buffers that lists are made in before they are shared, reused.
    lists: Vec<Vec<V>>,
}

/// The largest buffer kept for making lists in (a longer list's buffer is given back to the allocator).
const KEPT_LIST: usize = 1024;

impl Pool {
    /// An array of `n` locals (at least one): the first, `me`, set; the others with no value yet.
    pub fn take(&mut self, me: V, n: usize) -> Vec<V> {
        let mut env = self.arrays.pop().unwrap_or_default();
        env.push(me);
        env.resize_with(n.max(1), V::default);
        env
    }

    /// Give an array back, emptied.
    pub fn give(&mut self, mut env: Vec<V>) {
        env.clear();
        self.arrays.push(env);
    }

    /// An empty buffer to make a list in (`made` shares it).
    pub fn list(&mut self) -> Vec<V> {
        self.lists.pop().unwrap_or_default()
    }

    /// The items of `buffer` as a list, moved into one allocation of their own; the buffer is kept for reuse
    /// (a list made from a `Vec` itself would be allocated, copied and the `Vec` freed).
    pub fn made(&mut self, mut buffer: Vec<V>) -> Shared<V> {
        let list: Shared<V> = buffer.drain(..).collect();
        if buffer.capacity() <= KEPT_LIST {
            self.lists.push(buffer);
        }
        list
    }

    /// A buffer given back without making a list of it (its items dropped).
    pub fn unused(&mut self, mut buffer: Vec<V>) {
        buffer.clear();
        if buffer.capacity() <= KEPT_LIST {
            self.lists.push(buffer);
        }
    }

    /// One call more, nested in those running (each `enter` that succeeds is followed by a `leave`).
    pub fn enter(&mut self) -> Res<()> {
        if self.depth >= MAX_NESTED {
            return failed("calls nested too deeply: does a function call itself without end?");
        }
        self.depth += 1;
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }
}

enum Step {
    Go(u32),
    Entered,
    Left,
    Suspended,
}

/// A game's seed and a copy's are kept as 64-bit numbers (in saves too): a wider one is refused.
pub fn within_64_bits(seed: Seed) -> Result<(), Error> {
    if seed < Seed::from(i64::MIN) || seed > Seed::from(u64::MAX) {
        return Err(Error::State(format!(
            "seed {seed} is not a whole number of at most 64 bits"
        )));
    }
    Ok(())
}

impl State {
    pub fn new(game: Rc<Game>, n: usize, seed: Seed) -> Result<State, Error> {
        let mut st = State::unstarted(game, n, seed)?;
        st.start()?;
        Ok(st)
    }

    /// A new game before its cards are placed and its programs run (`start`).
    pub fn unstarted(game: Rc<Game>, n: usize, seed: Seed) -> Result<State, Error> {
        within_64_bits(seed)?;
        let seats = match game.seats.get(n).and_then(Option::as_ref) {
            Some(s) => s,
            None => {
                return Err(Error::State(format!(
                    "{} is for {}–{} players, not {n}",
                    game.id, game.min_players, game.max_players
                )))
            }
        };
        let ncards = game.cards.len();
        let mut loc = vec![0u32; ncards];
        for (z, cards) in seats.start.iter().enumerate() {
            for &c in cards {
                loc[c as usize] = z as u32;
            }
        }
        let play = game.proc_index["play"];
        let mut stack = vec![frame(&game, play, 0)];
        if let Some(&setup) = game.proc_index.get("setup") {
            stack.push(frame(&game, setup, 0));
        }
        Ok(State {
            n,
            seed,
            rng: rng::seed_state(seed),
            zones: crate::zones::Zones::of(&seats.start),
            loc,
            vars: game.vars.iter().map(|v| v.initial.clone()).collect(),
            pvars: (0..n)
                .map(|_| game.pvars.iter().map(|v| v.initial.clone()).collect())
                .collect(),
            stack,
            pending: None,
            log: Journal::default(),
            keep_log: true,
            history: Journal::default(),
            turns: 0,
            seen: vec![Journal::default(); n],
            reason: None,
            know: seats.know.clone(),
            pinned: seats.know.clone(),
            settled: vec![0; seats.zones.len()],
            fault: None,
            fsteps: 0,
            points: vec![None; n],
            fin: None,
            pool: Pool::default(),
            faces: crate::dice::initial_faces(&game),
            draws: None,
            watch: None,
            note_reads: false,
            memo: Memo::default(),
            game,
        })
    }

    /// The cards placed where their starts put them, and the programs run to the first decision.
    pub fn start(&mut self) -> Result<(), Error> {
        self.place_starts(&self.game.clone())?;
        self.run()
    }

    pub(crate) fn everyone(&self) -> u32 {
        ((1u64 << self.n) - 1) as u32
    }

    pub fn seats(&self) -> &crate::game::Seats {
        self.game.seats[self.n].as_ref().expect("a state's size has its tables")
    }

    pub fn zone_index(&self, v: &V) -> Res<usize> {
        match v {
            V::Str(s) => {
                let slot = self.seats().slot.get(*s as usize).copied().unwrap_or(u32::MAX);
                if slot == u32::MAX {
                    rule(format!("there is no zone '{}'", self.game.text(*s)))
                } else {
                    Ok(slot as usize)
                }
            }
            V::None | V::Unset => rule("there is no zone 'None'"), // the reference looks none up by name
            V::Text(t) => rule(format!("there is no zone '{t}'")),
            other => failed(format!("{} is no zone", other.kind())),
        }
    }

    pub fn card(&self, v: &V, what: &str) -> Res<usize> {
        match v {
            V::Int(c) if *c >= 0 && (*c as usize) < self.loc.len() => Ok(*c as usize),
            V::None | V::Unset => rule(format!("{what}: no card given")),
            other => failed(format!("{what}: {} is no card", other.kind())),
        }
    }

    pub fn seat(&self, v: &V) -> Res<usize> {
        match v {
            V::Int(p) if *p >= 0 && (*p as usize) < self.n => Ok(*p as usize),
            V::None | V::Unset => failed("none is no player"),
            V::Int(p) => failed(format!("{p} is no seat")),
            other => failed(format!("{} is no player", other.kind())),
        }
    }

    // ------------------------------------------------------------ running
    fn locate(&self, proc: u16, pc: u32, code: &'static str, message: String) -> Diag {
        let p = &self.game.procs[proc as usize];
        let (line, col) = p.place.get(pc as usize).copied().unwrap_or((1, 1));
        Diag {
            path: p.path.to_string(),
            line,
            col,
            code,
            message,
        }
    }

    fn fail(&mut self, proc: u16, pc: u32, f: F) -> Error {
        let name = self.game.procs[proc as usize].name.clone();
        let budget = self.game.step_budget;
        let d = match f {
            F::Rule(m) => self.locate(proc, pc, "E701", format!("{m} (in '{name}')")),
            F::Failed(m) => self.locate(proc, pc, "E702", format!("rule failed in '{name}': {m}")),
            F::Overrun => self.locate(
                proc,
                pc,
                "E703",
                format!("step budget of {budget} exhausted in '{name}': does a loop never end?"),
            ),
            F::Bug(m) => return Error::Bug(format!("engine bug in the VM at instruction {pc} of '{name}': {m}")),
            F::Scoring(d) => *d,
        };
        self.fault = Some(d.clone());
        Error::Rule(d)
    }

    /// Run the programs until a decision is pending or the game ends.
    pub fn run(&mut self) -> Result<(), Error> {
        let game = self.game.clone();
        let budget = game.step_budget;
        let mut steps = 0u64;
        while let Some(fi) = self.stack.len().checked_sub(1) {
            let proc = self.stack[fi].proc;
            let mut pc = self.stack[fi].pc;
            let mut env = std::mem::take(&mut self.stack[fi].env);
            let code = &game.procs[proc as usize].code;
            let outcome = loop {
                steps += 1;
                if steps > budget {
                    break Err(Box::new(F::Overrun));
                }
                let Some(ins) = code.get(pc as usize) else {
                    break Err(Box::new(F::Bug(format!("pc {pc} is past the end"))));
                };
                #[cfg(feature = "profile")]
                let since = crate::profile::nodes();
                let step = self.exec(&game, ins, pc, &mut env);
                #[cfg(feature = "profile")]
                crate::profile::statement(proc, pc, since);
                match step {
                    Ok(Step::Go(next)) => pc = next,
                    Ok(other) => break Ok(other),
                    Err(f) => break Err(f),
                }
            };
            match outcome {
                Ok(Step::Left) => self.pool.give(env),
                Ok(_) => {
                    if let Some(f) = self.stack.get_mut(fi) {
                        f.env = env;
                    }
                    if self.pending.is_some() || self.stack.is_empty() {
                        return Ok(());
                    }
                }
                Err(f) => {
                    if let Some(fr) = self.stack.get_mut(fi) {
                        fr.env = env;
                    }
                    return Err(self.fail(proc, pc, *f));
                }
            }
        }
        Ok(())
    }

    /// `call PROC(args)`: a frame for the procedure, its parameters set, entered after this instruction.
    #[inline(never)]
    fn enter(&mut self, g: &Game, target: u16, args: &[crate::game::Node], next: u32, env: &mut [V]) -> Res<Step> {
        let mut f = self.frame(g, target, env[0].clone());
        let params = &g.procs[target as usize].params;
        for (p, a) in params.iter().zip(args) {
            f.env[*p as usize] = self.value_of(g, *a, env)?;
        }
        self.stack.last_mut().expect("a running frame").pc = next;
        self.stack.push(f);
        Ok(Step::Entered)
    }

    /// `log "…"` (to a seat, or to all): the line written where the log is kept; its values read anyway (reading
    /// one can fail).
    #[inline(never)]
    fn write_log(
        &mut self,
        g: &Game,
        parts: &[crate::game::LogPart],
        pc: u32,
        to: Option<crate::game::Node>,
        env: &mut [V],
    ) -> Res<()> {
        let audience = match to {
            None => None,
            Some(e) => match self.value_of(g, e, env)? {
                V::None | V::Unset => return Ok(()),
                V::Int(p) => Some(p),
                other => return failed(format!("a log line to {}", other.kind())),
            },
        };
        if self.keep_log {
            let mut values = Vec::with_capacity(parts.len());
            for part in parts.iter() {
                if let crate::game::LogPart::Value(e, _) = part {
                    values.push(self.value_of(g, *e, env)?);
                }
            }
            self.log.push(LogLine {
                audience,
                text: Line::Said {
                    proc: self.stack.last().map_or(0, |f| f.proc),
                    pc,
                    values: values.into_boxed_slice(),
                },
            });
        } else {
            for part in parts.iter() {
                if let crate::game::LogPart::Value(e, _) = part {
                    self.value_of(g, *e, env)?;
                }
            }
        }
        Ok(())
    }

    fn exec(&mut self, g: &Game, ins: &Ins, pc: u32, env: &mut [V]) -> Res<Step> {
        let next = pc + 1;
        match ins {
            Ins::Assign(store, e) => {
                let v = self.value_of(g, *e, env)?;
                self.store(g, store, v, env)?;
            }
            Ins::Do(e) => {
                self.value_of(g, *e, env)?;
            }
            Ins::Call(target, args) => return self.enter(g, *target, args, next, env),
            Ins::Perform(e) => {
                let v = self.value_of(g, *e, env)?;
                let c = self.card(&v, "perform")?;
                let Some(target) = self.game.effects[c] else {
                    return Ok(Step::Go(next));
                };
                let mut f = self.frame(g, target, env[0].clone());
                if let Some(&this) = self.game.procs[target as usize].params.first() {
                    f.env[this as usize] = V::Int(c as i64);
                }
                self.stack.last_mut().expect("a running frame").pc = next;
                self.stack.push(f);
                return Ok(Step::Entered);
            }
            Ins::Log(parts, to) => self.write_log(g, parts, pc, *to, env)?,
            Ins::End(reason) => {
                self.stack.clear();
                self.reason = Some(reason.clone());
                return Ok(Step::Suspended);
            }
            Ins::Jump(to) => return Ok(Step::Go(*to)),
            Ins::Return => {
                self.stack.pop();
                return Ok(Step::Left);
            }
            Ins::Give(e, in_function) => {
                let v = self.value_of(g, *e, env)?;
                if *in_function {
                    return Err(Box::new(F::Bug("a function's return outside a function".into())));
                }
                self.stack.pop();
                if let Some(caller) = self.stack.last_mut() {
                    let slot = g.procs[caller.proc as usize].result;
                    caller.env[slot as usize] = v;
                }
                return Ok(Step::Left);
            }
            Ins::If(cond, skip) => {
                return Ok(Step::Go(if self.truth(g, *cond, env)? { next } else { *skip }));
            }
            Ins::ForStart(key, source) => {
                let items = self.items(g, *source, env)?;
                env[*key as usize] = V::Iter(0, items);
            }
            Ins::ForStep(key, var, done) => {
                let (i, items) = match &env[*key as usize] {
                    V::Iter(i, items) => (*i, items.clone()),
                    V::List(l) if l.len() == 2 => match (&l[0], &l[1]) {
                        (V::Int(i), V::List(items)) => (*i as u32, items.clone()),
                        _ => return Err(Box::new(F::Bug("a loop's state is not [index, items]".into()))),
                    },
                    _ => return Err(Box::new(F::Bug("a loop's state is missing".into()))),
                };
                if (i as usize) < items.len() {
                    env[*var as usize] = items[i as usize].clone();
                    env[*key as usize] = V::Iter(i + 1, items);
                    return Ok(Step::Go(next));
                }
                env[*key as usize] = V::Unset;
                return Ok(Step::Go(*done));
            }
            Ins::RepeatStart(key, count) => {
                env[*key as usize] = self.value_of(g, *count, env)?;
            }
            Ins::RepeatStep(key, done) => {
                let left = match &env[*key as usize] {
                    V::Int(i) => *i,
                    V::Bool(b) => i64::from(*b),
                    other => return failed(format!("repeat {} times", other.kind())),
                };
                if left > 0 {
                    env[*key as usize] = V::Int(left - 1);
                    return Ok(Step::Go(next));
                }
                env[*key as usize] = V::Unset;
                return Ok(Step::Go(*done));
            }
            Ins::WindowStart(key, var, start) => {
                env[*var as usize] = self.value_of(g, *start, env)?;
                env[*key as usize] = V::Int(0);
            }
            Ins::WindowAsk(key, done) => {
                let asked = match &env[*key as usize] {
                    V::Int(i) => *i,
                    _ => return Err(Box::new(F::Bug("a window's count is missing".into()))),
                };
                if asked >= self.n as i64 {
                    env[*key as usize] = V::Unset;
                    return Ok(Step::Go(*done));
                }
            }
            Ins::WindowNext(key, var, top) => {
                let V::Int(asked) = env[*key as usize] else {
                    return Err(Box::new(F::Bug("a window's count is missing".into())));
                };
                let p = crate::eval::ints("+", &env[*var as usize], &V::Int(1))?.0; // the reference's `seat + 1`
                env[*key as usize] = V::Int(asked + 1);
                env[*var as usize] = V::Int((p + 1).rem_euclid(self.n as i64));
                return Ok(Step::Go(*top));
            }
            Ins::Reopen(key) => env[*key as usize] = V::Int(-1),
            Ins::Close(key, done) => {
                env[*key as usize] = V::Unset;
                return Ok(Step::Go(*done));
            }
            Ins::Choose(c) => {
                self.choose(g, c, pc, env)?;
                return Ok(Step::Suspended);
            }
        }
        Ok(Step::Go(next))
    }

    /// A frame entering `proc`, its locals an array taken from the pool (given back when it leaves).
    fn frame(&mut self, g: &Game, proc: u16, me: V) -> Frame {
        let env = self.pool.take(me, g.procs[proc as usize].locals.len());
        Frame { proc, pc: 0, env }
    }

    pub fn store(&mut self, g: &Game, store: &Store, v: V, env: &mut [V]) -> Res<()> {
        match store {
            Store::Local(slot) => env[*slot as usize] = v,
            Store::Var(i) => {
                let var = &self.game.vars[*i as usize];
                self.declared_check(var, &v, "variable")?;
                self.vars[*i as usize] = v;
                if g.scored_vars[*i as usize] {
                    self.changed();
                }
            }
            Store::PVar(obj, i) => {
                let game = g;
                let var = &game.pvars[*i as usize];
                self.declared_check(var, &v, "player variable")?;
                let p = self.value_of(g, *obj, env)?;
                if p.is_none() {
                    return rule(format!("no player to set '{}' of", var.name));
                }
                let p = self.seat(&p)?;
                self.pvars[p][*i as usize] = v;
                match g.scored_pvars[*i as usize] {
                    Readers::Nobody => {}
                    Readers::Owner => self.forget(1 << p),
                    Readers::Everyone => self.changed(),
                }
            }
        }
        Ok(())
    }

    /// A value stored in a variable is one of its enum's members, or between its min: and max:.
    fn declared_check(&self, var: &Variable, v: &V, kind: &str) -> Res<()> {
        if let (Some((least, most)), V::Int(i)) = (var.bounds, v) {
            if !(least..=most).contains(i) {
                return rule(format!(
                    "{kind} '{}' may hold {least} to {most} (its min: and max:), not {i}",
                    var.name
                ));
            }
        }
        self.enum_check(var, v, kind)
    }

    fn enum_check(&self, var: &Variable, v: &V, kind: &str) -> Res<()> {
        let Some(members) = &var.members else {
            return Ok(());
        };
        let ok = match v {
            V::None | V::Unset => true,
            V::Str(s) => members.contains(s),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            let shown: String = self.plain(v).chars().take(60).collect();
            rule(format!(
                "{kind} '{}' holds one of the {}, not {}",
                var.name,
                var.enum_name,
                py_repr(&shown)
            ))
        }
    }

    // ------------------------------------------------------------ decisions
    fn choose(&mut self, g: &Game, c: &crate::game::Choose, pc: u32, env: &mut [V]) -> Res<()> {
        if let Some(each) = c.each {
            let seats = match c.by {
                Some(by) => self.value_of(g, by, env)?,
                None => return Err(Box::new(F::Bug("a simultaneous choice without seats".into()))),
            };
            let V::List(seats) = seats else {
                return failed("the seats to choose are not a list");
            };
            let saved = env[each as usize].clone();
            let mut asked = vec![];
            for seat in seats.iter() {
                env[each as usize] = seat.clone();
                let options = self.options(g, c, env);
                match options {
                    Ok(o) => asked.push((seat.clone(), o)),
                    Err(f) => {
                        env[each as usize] = saved;
                        return Err(f);
                    }
                }
            }
            env[each as usize] = saved;
            if asked.is_empty() {
                return rule(format!("nobody is to choose \"{}\"", c.what));
            }
            let mut t = Together {
                seats: vec![],
                ids: vec![],
                values: vec![],
                chosen: vec![],
            };
            let mut last = None;
            for (seat, items) in asked {
                let p = self.ask(c, items, &seat, None)?;
                t.seats.push(p.player);
                t.ids.push(p.ids.clone());
                t.values.push(p.values.clone());
                t.chosen.push(None);
                last = Some(p);
            }
            let mut sorted = t.seats.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != t.seats.len() {
                return rule(format!(
                    "a player is asked twice to choose \"{}\" at the same time",
                    c.what
                ));
            }
            let mut p = last.expect("some seat was asked");
            p.together = Some(t);
            self.pending = Some(Rc::new(p.asked(None)));
        } else {
            let noting = self.start_noting();
            let asked = self.options_and_chooser(g, c, env);
            let reads = if noting { self.noted() } else { None };
            let (items, player) = asked?;
            let p = self.ask(c, items, &player, reads)?;
            self.pending = Some(Rc::new(p));
        }
        self.stack.last_mut().expect("a running frame").pc = pc;
        Ok(())
    }

    pub(crate) fn options(&mut self, g: &Game, c: &crate::game::Choose, env: &mut [V]) -> Res<Shared<V>> {
        let items = self.items(g, c.source, env)?;
        let Some((cond, it)) = c.filter else {
            return self.several(g, c, items, env);
        };
        let saved = env[it as usize].clone();
        let mut kept = Vec::with_capacity(items.len());
        for x in items.iter() {
            env[it as usize] = x.clone();
            match self.truth(g, cond, env) {
                Ok(true) => kept.push(x.clone()),
                Ok(false) => {}
                Err(f) => {
                    env[it as usize] = saved;
                    return Err(f);
                }
            }
        }
        env[it as usize] = saved;
        self.several(g, c, kept.into(), env)
    }

    /// The options of choice `c` and the seat that chooses them, worked out where the frame stands at it.
    #[inline(always)]
    pub(crate) fn options_and_chooser(
        &mut self,
        g: &Game,
        c: &crate::game::Choose,
        env: &mut [V],
    ) -> Res<(Shared<V>, V)> {
        let items = self.options(g, c, env)?;
        let player = match c.by {
            Some(by) => self.value_of(g, by, env)?,
            None => env[0].clone(),
        };
        Ok((items, player))
    }

    /// The decision asking `player` to choose among `items`, with the `reads` noted while they were worked out
    /// (kept where no two options print alike).
    fn ask(&self, c: &crate::game::Choose, items: Shared<V>, player: &V, reads: Option<Reads>) -> Res<Pending> {
        let (made, duplicates) = self.option_ids(c, &items, player);
        let (ids, values) = match (duplicates, &c.decline) {
            (false, None) => (made, items),
            (duplicates, decline) => {
                let (ids, values) = self.ask_more(c, &items, &made, duplicates, decline)?;
                (ids.into(), values.into())
            }
        };
        if ids.is_empty() {
            return rule(format!("nothing to choose from for \"{}\"", c.what));
        }
        let player = match player {
            V::Int(p) if *p >= 0 && (*p as usize) < self.n => *p as u32,
            other => {
                return rule(format!(
                    "\"{}\" is to be chosen by {}, which is no player",
                    c.what,
                    self.repr(other)
                ))
            }
        };
        Ok(Pending {
            player,
            ids,
            values,
            secret: c.secret,
            kind: c.kind.clone(),
            together: None,
            reads: reads.filter(|_| !duplicates).map(Rc::new),
        })
    }

    /// The options of a choice whose ids collide (merged or made long) or that may be declined.
    fn ask_more(
        &self,
        c: &crate::game::Choose,
        items: &[V],
        made: &[Rc<str>],
        duplicates: bool,
        decline: &Option<Rc<str>>,
    ) -> Res<(Vec<Rc<str>>, Vec<V>)> {
        let (mut ids, mut values) = if duplicates {
            self.distinct(c, items, made)?
        } else {
            // room for the decline, pushed below without growing the lists
            let (mut ids, mut values) = (Vec::with_capacity(made.len() + 1), Vec::with_capacity(items.len() + 1));
            ids.extend_from_slice(made);
            values.extend_from_slice(items);
            (ids, values)
        };
        if let Some(decline) = decline {
            if ids.iter().any(|i| i == decline) {
                return rule(format!(
                    "an option of \"{}\" prints as \"{decline}\", the id of declining: name the decline (optional \"decline\")",
                    c.what
                ));
            }
            ids.push(decline.clone());
            values.push(V::None);
        }
        Ok((ids, values))
    }

    /// The ids of `items`, options of choice `c` asked of `player`, and whether two are alike: an option at the
    /// place of one equal to it among the options last asked of the seat has that one's id; others are looked
    /// up, or made once.
    pub(crate) fn option_ids(&self, c: &crate::game::Choose, items: &Shared<V>, player: &V) -> (Rc<[Rc<str>]>, bool) {
        let mut choices = self.game.ids.borrow_mut();
        let c_id = c.id as usize;
        if choices.len() <= c_id {
            choices.resize_with(c_id + 1, Default::default);
        }
        let ids = &mut choices[c_id];
        if ids.known.len() >= 65_536 {
            *ids = Default::default(); // a bound on what is kept; every id is made again alike
        }
        let named = c.prefix.is_empty() && matches!(c.label, Label::Card | Label::Plain); // ids read, not made
        let seat = match player {
            V::Int(p) if *p >= 0 && (*p as usize) < self.n && !named => *p as usize,
            _ => {
                let (known, texts) = (&mut ids.known, &mut ids.texts);
                let made: Rc<[Rc<str>]> = items.iter().map(|x| self.option_id(c, x, known, texts)).collect();
                let duplicates = one_twice(&made);
                return (made, duplicates);
            }
        };
        if ids.last.len() <= seat {
            ids.last.resize_with(seat + 1, Default::default);
        }
        let last = &ids.last[seat];
        let same = Shared::ptr_eq(&last.items, items)
            || last.items.len() == items.len() && last.items.iter().zip(items.iter()).all(|(a, b)| a.exact(b));
        if same {
            return (last.ids.clone(), last.duplicates);
        }
        let (last, known, texts) = (&ids.last[seat], &mut ids.known, &mut ids.texts);
        let made: Rc<[Rc<str>]> = items
            .iter()
            .enumerate()
            .map(|(i, x)| match last.items.get(i) {
                Some(y) if y.exact(x) => last.ids[i].clone(),
                _ => self.option_id(c, x, known, texts),
            })
            .collect();
        let duplicates = one_twice(&made);
        ids.last[seat] = crate::game::Asked {
            items: items.clone(),
            ids: made.clone(),
            duplicates,
        };
        (made, duplicates)
    }

    /// An option's id, made once per choice and value (an id depends on nothing else); a card's or a text's
    /// own name is read, not looked up. Each text has one id (`OptionIds::texts`).
    fn option_id(
        &self,
        c: &crate::game::Choose,
        x: &V,
        known: &mut FxMap<Exact, Rc<str>>,
        texts: &mut FxSet<Rc<str>>,
    ) -> Rc<str> {
        if let Some(id) = self.own_name(c, x) {
            return id;
        }
        if let Some(id) = known.get(x as &dyn ExactKey) {
            return id.clone();
        }
        let made = self.make_id(c, x);
        let id = if let Some(&s) = self.game.string_ids.get(&*made) {
            self.game.strings[s as usize].clone()
        } else if let Some(id) = texts.get(&*made) {
            id.clone()
        } else {
            texts.insert(made.clone());
            made
        };
        known.insert(Exact(x.clone()), id.clone());
        id
    }

    /// The id of an option that is its card's or text's own name, without a prefix.
    fn own_name(&self, c: &crate::game::Choose, x: &V) -> Option<Rc<str>> {
        if !c.prefix.is_empty() {
            return None;
        }
        match (&c.label, x) {
            (Label::Card, V::Int(i)) if (*i as usize) < self.game.cards.len() && *i >= 0 => {
                Some(self.game.strings[self.game.cards[*i as usize] as usize].clone())
            }
            (Label::Plain, V::Str(s)) => Some(self.game.strings[*s as usize].clone()),
            _ => None,
        }
    }

    fn make_id(&self, c: &crate::game::Choose, x: &V) -> Rc<str> {
        let mut out = c.prefix.to_string();
        self.label(x, &c.label, &mut out);
        out.into()
    }

    /// Options whose ids collide: copies of a card in one zone merge, others get long ids (Choice.distinct).
    fn distinct(&self, c: &crate::game::Choose, items: &[V], ids: &[Rc<str>]) -> Res<(Vec<Rc<str>>, Vec<V>)> {
        let (mut out_ids, mut out_values) = (vec![], vec![]);
        for (i, (x, id)) in items.iter().zip(ids).enumerate() {
            let mut alike = (0..ids.len()).filter(|&j| j != i && ids[j] == *id);
            let Some(first) = alike.next() else {
                out_ids.push(id.clone());
                out_values.push(x.clone());
                continue;
            };
            if (0..i).any(|j| ids[j] == *id && self.same_choice(&items[j], x, &c.label)) {
                continue; // a copy of an option already offered
            }
            let kinds = std::iter::once(first)
                .chain(alike)
                .any(|j| !self.same_choice(&items[j], x, &c.label));
            out_ids.push(if kinds { self.long_id(c, x)? } else { id.clone() });
            out_values.push(x.clone());
        }
        if has_duplicates(&out_ids) {
            return rule(format!(
                "two different options of \"{}\" print alike: '{}'…",
                c.what, out_ids[0]
            ));
        }
        Ok((out_ids, out_values))
    }

    /// Whether two options are the same choice: copies of a card (same name) in one zone are; 1, "1" and yes
    /// are not.
    fn same_choice(&self, a: &V, b: &V, label: &Label) -> bool {
        let card = |v: &V| match v {
            V::Int(c) if *c >= 0 && (*c as usize) < self.loc.len() => Some(*c as usize),
            _ => None,
        };
        match label {
            Label::Card => match (card(a), card(b)) {
                (Some(x), Some(y)) => self.game.cards[x] == self.game.cards[y] && self.loc[x] == self.loc[y],
                (None, None) => a.exact(b),
                _ => false,
            },
            Label::List(inner) => match (a, b) {
                (V::List(x), V::List(y)) => {
                    x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| self.same_choice(p, q, inner))
                }
                (V::List(_), _) | (_, V::List(_)) => false,
                _ => a.exact(b),
            },
            Label::Record(fields) => match (a, b) {
                (V::Rec(_), V::Rec(_)) => fields.iter().all(|(name, l)| {
                    let none = &self.game.none;
                    self.same_choice(a.field(*name).unwrap_or(none), b.field(*name).unwrap_or(none), l)
                }),
                (V::Rec(_), _) | (_, V::Rec(_)) => false,
                _ => a.exact(b),
            },
            _ => a.exact(b),
        }
    }

    fn long_id(&self, c: &crate::game::Choose, x: &V) -> Res<Rc<str>> {
        let mut out = c.prefix.to_string();
        self.long(x, &c.label, &mut out)?;
        Ok(out.into())
    }

    /// The unambiguous label of options whose short ones collide (Labeller.long_for_type).
    fn long(&self, x: &V, label: &Label, out: &mut String) -> Res<()> {
        use std::fmt::Write;
        match (label, x) {
            (Label::Card, V::None | V::Unset) => out.push_str("nothing"),
            (Label::Card, _) => {
                let i = self.card(x, "an option")?;
                let zone = self.seats().zones[self.loc[i] as usize];
                let _ = write!(out, "{} ({})", self.game.text(self.game.cards[i]), self.game.text(zone));
            }
            (Label::Player | Label::Zone, V::None | V::Unset) => out.push_str("none"),
            (Label::Player, V::Int(p)) => {
                let _ = write!(out, "seat {p}");
            }
            (Label::Zone, V::Str(s)) => out.push_str(self.game.text(*s)),
            (Label::List(inner), V::List(items)) => {
                out.push('[');
                for (k, i) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    self.long(i, inner, out)?;
                }
                out.push(']');
            }
            (Label::Record(fields), V::Rec(r)) => {
                let start = out.len();
                for (name, v) in r.iter() {
                    if v.is_none() {
                        continue;
                    }
                    if out.len() > start {
                        out.push(' ');
                    }
                    let _ = write!(out, "{}=", self.game.text(*name));
                    match fields.iter().find(|(n, _)| n == name) {
                        Some((_, l)) => self.long(v, l, out)?,
                        None => self.long(v, &Label::Plain, out)?,
                    }
                }
                if out.len() == start {
                    out.push_str("nothing");
                }
            }
            (_, other) => out.push_str(&sorted_json(&self.to_json(other))),
        }
        Ok(())
    }

    // ------------------------------------------------------------ labels
    pub fn plain(&self, v: &V) -> String {
        let mut out = String::new();
        self.label(v, &Label::Plain, &mut out);
        out
    }

    /// Python's repr of a value, for messages (the reference's values are Python's: cards are numbers,
    /// records dicts).
    pub fn repr(&self, v: &V) -> String {
        match v {
            V::None | V::Unset => "None".into(),
            V::Bool(b) => if *b { "True" } else { "False" }.into(),
            V::Str(_) | V::Text(_) => py_repr(self.text_of(v)),
            V::List(l) => format!("[{}]", l.iter().map(|x| self.repr(x)).collect::<Vec<_>>().join(", ")),
            V::Rec(r) => {
                let fields: Vec<String> = r
                    .iter()
                    .map(|(k, x)| {
                        let (key, x) = crate::maps::entry(*k, x);
                        format!("{}: {}", py_repr(self.text_of(&key)), self.repr(x))
                    })
                    .collect();
                format!("{{{}}}", fields.join(", "))
            }
            other => serde_json::to_string(&self.to_json(other)).unwrap_or_default(),
        }
    }

    /// A seat as a log line names it (Labeller.seat_name), written at the end of `out`.
    pub fn write_seat_name(&self, p: i64, out: &mut String) {
        match usize::try_from(p).ok().and_then(|i| self.game.seat_names.get(i)) {
            Some(name) => out.push_str(name),
            None => {
                use std::fmt::Write;
                let _ = write!(out, "seat {p}");
            }
        }
    }

    pub fn label(&self, v: &V, label: &Label, out: &mut String) {
        use std::fmt::Write;
        match (label, v) {
            (Label::Card | Label::CardName, V::None | V::Unset) => out.push_str("nothing"),
            (Label::CardName, V::Int(c)) if *c >= 0 && (*c as usize) < self.game.card_names.len() => {
                out.push_str(&self.game.card_names[*c as usize])
            }
            (Label::Card, V::Int(c)) if *c >= 0 && (*c as usize) < self.game.cards.len() => {
                out.push_str(self.game.text(self.game.cards[*c as usize]))
            }
            (Label::Player | Label::Seat, V::None | V::Unset) => out.push_str("nobody"),
            (Label::Player, V::Int(p)) => {
                let _ = write!(out, "seat {p}");
            }
            (Label::Seat, V::Int(p)) => self.write_seat_name(*p, out),
            (Label::Zone, V::None | V::Unset) => out.push_str("nowhere"),
            (Label::Zone, V::Str(_) | V::Text(_)) => {
                // a zone of a family by its key; the name of no zone (a key made while playing) alike
                let t = self.text_of(v);
                out.push_str(t.split_once(':').map_or(t, |(_, k)| k));
            }
            (Label::List(inner), V::List(items)) => {
                let start = out.len();
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.label(x, inner, out);
                }
                if out.len() == start {
                    out.push_str("nothing"); // no item, or items that print as nothing at all
                }
            }
            (Label::Record(fields), V::Rec(r)) => {
                let start = out.len();
                let mut first = true;
                for (name, x) in r.iter() {
                    if x.is_none() {
                        continue;
                    }
                    if !first {
                        out.push(' ');
                    }
                    first = false;
                    match fields.iter().find(|(n, _)| n == name) {
                        Some((_, l)) => self.label(x, l, out),
                        None => self.label(x, &Label::Plain, out),
                    }
                }
                if out.len() == start {
                    out.push_str("nothing");
                }
            }
            (Label::List(_) | Label::Record(_), V::None | V::Unset) => out.push_str("nothing"),
            (_, V::None | V::Unset) => out.push_str("none"),
            (_, V::Str(s)) => out.push_str(self.game.text(*s)),
            (_, V::Text(t)) => out.push_str(t),
            (_, V::Bool(b)) => out.push_str(if *b { "yes" } else { "no" }),
            (_, V::Int(i)) => {
                let _ = write!(out, "{i}");
            }
            (_, V::List(_) | V::Rec(_)) => out.push_str(&self.repr(v)),
            (_, other) => out.push_str(&serde_json::to_string(&self.to_json(other)).unwrap_or_default()),
        }
    }

    // ------------------------------------------------------------ play
    pub fn apply(&mut self, action: &str, seat: Option<u32>) -> Result<(), Error> {
        if let Some(d) = &self.fault {
            return Err(Error::Stopped(format!(
                "this game stopped on a rule error: {}:{}:{}: {} {}",
                d.path, d.line, d.col, d.code, d.message
            )));
        }
        let Some(pending) = self.pending.clone() else {
            return Err(Error::Illegal("the game is over; no action is legal".into()));
        };
        let (player, value) = if let Some(t) = &pending.together {
            let waiting = pending.to_act();
            let seat = match seat {
                Some(s) => s,
                None => {
                    let offering: Vec<u32> = waiting
                        .iter()
                        .copied()
                        .filter(|s| {
                            let i = t.seats.iter().position(|x| x == s).unwrap_or(0);
                            t.ids[i].iter().any(|a| &**a == action)
                        })
                        .collect();
                    match offering[..] {
                        [one] => one,
                        _ => pending.player,
                    }
                }
            };
            if !waiting.contains(&seat) {
                let who: Vec<String> = waiting.iter().map(u32::to_string).collect();
                let done = if t.seats.contains(&seat) {
                    "has chosen already"
                } else {
                    "cannot act now"
                };
                let s = if waiting.len() > 1 { "s" } else { "" };
                return Err(Error::Illegal(format!(
                    "seat {seat} {done}: seat{s} {} still deciding",
                    who.join(", ")
                )));
            }
            let i = t
                .seats
                .iter()
                .position(|&x| x == seat)
                .expect("a waiting seat is asked");
            let Some(k) = t.ids[i].iter().position(|a| &**a == action) else {
                return Err(Error::Illegal(not_legal(action, seat, &t.ids[i])));
            };
            let mut after = (*pending).clone();
            let at = after.together.as_mut().expect("simultaneous");
            at.chosen[i] = Some(k as u32);
            if !after.to_act().is_empty() {
                let next = after.asked(None);
                self.pending = Some(Rc::new(next));
                self.record(&pending, seat, t.ids[i][k].clone());
                return Ok(());
            }
            let at = after.together.as_ref().expect("simultaneous");
            let chosen: Vec<V> = at
                .values
                .iter()
                .zip(&at.chosen)
                .map(|(v, c)| v[c.unwrap_or(0) as usize].clone())
                .collect();
            (seat, V::list(chosen))
        } else {
            if let Some(s) = seat {
                if s != pending.player {
                    return Err(Error::Illegal(format!(
                        "seat {s} cannot act now: seat {} is deciding",
                        pending.player
                    )));
                }
            }
            let Some(i) = pending.ids.iter().position(|a| &**a == action) else {
                return Err(Error::Illegal(not_legal(action, pending.player, &pending.ids)));
            };
            let value = pending.values[i].clone();
            return self.choose_value(pending.player, value, pending.ids[i].clone(), &pending);
        };
        let action = pending
            .ids
            .iter()
            .find(|a| &***a == action)
            .cloned()
            .unwrap_or_else(|| action.into());
        self.choose_value(player, value, action, &pending)
    }

    /// Apply the option at `index` of the asked seat's list (the playouts' and bots' path: no text compared).
    pub fn apply_index(&mut self, index: usize) -> Result<(), Error> {
        let Some(pending) = self.pending.clone() else {
            return Err(Error::Illegal("the game is over; no action is legal".into()));
        };
        let Some(action) = pending.ids.get(index).cloned() else {
            return Err(Error::Illegal(format!("no option {index}")));
        };
        if pending.together.is_some() {
            return self.apply(&action, Some(pending.player));
        }
        let value = pending.values[index].clone();
        self.choose_value(pending.player, value, action, &pending)
    }

    /// `apply(action, None)` for an id taken from the pending decision's own list (a bot's pick): found by
    /// its address, not its text.
    pub fn apply_chosen(&mut self, action: &Rc<str>) -> Result<(), Error> {
        let found = match &self.pending {
            Some(p) if p.together.is_none() && self.fault.is_none() => p.ids.iter().position(|a| Rc::ptr_eq(a, action)),
            _ => None,
        };
        match found {
            Some(i) => self.apply_index(i),
            None => self.apply(action, None),
        }
    }

    fn choose_value(&mut self, player: u32, value: V, action: Rc<str>, pending: &Pending) -> Result<(), Error> {
        let game = self.game.clone();
        let Some(fi) = self.stack.len().checked_sub(1) else {
            return Err(Error::Bug("engine bug: a decision with no program waiting".into()));
        };
        let (proc, pc) = (self.stack[fi].proc, self.stack[fi].pc);
        let Some(Ins::Choose(c)) = game.procs[proc as usize].code.get(pc as usize) else {
            return Err(Error::State("the state's program is not at a choice".into()));
        };
        let mut env = std::mem::take(&mut self.stack[fi].env);
        let stored = self.store(&game, &c.store, value, &mut env);
        self.stack[fi].env = env;
        if let Err(f) = stored {
            return Err(self.fail(proc, pc, *f));
        }
        self.stack[fi].pc += 1;
        self.pending = None;
        self.record(pending, player, action);
        self.run()
    }

    fn record(&mut self, pending: &Pending, player: u32, action: Rc<str>) {
        if pending.secret {
            self.happened(Hist::Act {
                seat: player,
                action: Some(action.clone()),
                secret: Some(pending.kind.clone()),
                together: pending.together.is_some(),
            });
            if self.keep_log {
                // The masked line is for every seat but the chooser (`!seat`), who reads its own in full.
                self.log.push(LogLine {
                    audience: Some(!i64::from(player)),
                    text: Line::Chose {
                        seat: player,
                        what: pending.kind.clone(),
                        hidden: true,
                    },
                });
                self.log.push(LogLine {
                    audience: Some(i64::from(player)),
                    text: Line::Chose {
                        seat: player,
                        what: action,
                        hidden: false,
                    },
                });
            }
        } else {
            self.happened(Hist::Act {
                seat: player,
                action: Some(action.clone()),
                secret: None,
                together: false,
            });
            if self.keep_log {
                self.log.push(LogLine {
                    audience: None,
                    text: Line::Chose {
                        seat: player,
                        what: action,
                        hidden: false,
                    },
                });
            }
        }
    }

    /// What a clone allocates, in bytes: the state and the arrays it copies (what copies share — the log, the
    /// history, lists and records, the pending decision — is not copied).
    pub fn clone_bytes(&self) -> usize {
        use std::mem::size_of;
        let values = |v: &[V]| size_of::<Vec<V>>() + std::mem::size_of_val(v);
        size_of::<State>()
            + self.zones.bytes()
            + (self.loc.len() + self.know.len() + self.pinned.len() + self.settled.len()) * 4
            + values(&self.vars)
            + self.pvars.iter().map(|p| values(p)).sum::<usize>()
            + self
                .stack
                .iter()
                .map(|f| size_of::<Frame>() + values(&f.env))
                .sum::<usize>()
            + self
                .seen
                .iter()
                .map(|s| size_of::<Vec<serde_json::Value>>() + s.len() * 64)
                .sum::<usize>()
            + self.points.len() * size_of::<Option<i64>>()
    }

    /// A decision taken or a chance event: one more turn, in the history if it is kept.
    pub fn happened(&mut self, h: Hist) {
        self.turns += 1;
        if self.keep_log {
            self.history.push(h);
        }
    }

    /// The pending decision as it is put to `seat` (None if `seat` is not to act): `State.asked`.
    pub fn asked(&self, seat: u32) -> Option<Pending> {
        let p = self.pending.as_ref()?;
        if !p.to_act().contains(&seat) {
            return None;
        }
        Some(if p.together.is_some() && seat != p.player {
            p.asked(Some(seat))
        } else {
            (**p).clone()
        })
    }

    /// Per-seat results as numbers summing to zero (k winners of n: n/k − 1 each, the others −1; a draw 0),
    /// or each seat's own against a house; all zero until the end.
    pub fn returns(&mut self) -> Result<Vec<f64>, Error> {
        let n = self.n;
        let Some(results) = self.outcome()? else {
            return Ok(vec![0.0; n]);
        };
        if self.game.house.is_some() {
            return Ok(crate::house::returns(&results));
        }
        let k = results.iter().filter(|r| **r == "win").count();
        if k == 0 {
            return Ok(vec![0.0; n]);
        }
        Ok(results
            .iter()
            .map(|r| if *r == "win" { n as f64 / k as f64 - 1.0 } else { -1.0 })
            .collect())
    }

    pub fn to_act(&self) -> Vec<u32> {
        self.pending.as_ref().map(|p| p.to_act()).unwrap_or_default()
    }

    pub fn legal(&self, seat: Option<u32>) -> Vec<Rc<str>> {
        let Some(p) = &self.pending else {
            return vec![];
        };
        match seat {
            None => p.ids.to_vec(),
            Some(s) if s == p.player => p.ids.to_vec(),
            Some(s) => match &p.together {
                Some(_) if p.to_act().contains(&s) => p.asked(Some(s)).ids.to_vec(),
                _ => vec![],
            },
        }
    }

    // ------------------------------------------------------------ scores
    pub(crate) fn evaluate(&mut self, scorer: &crate::game::Scorer, p: usize) -> Result<i64, Error> {
        self.evaluate_for(scorer, V::Int(p as i64))
    }

    /// A scoring term for `who` (a seat, or none: the reference works out the points of nobody too).
    fn evaluate_for(&mut self, scorer: &crate::game::Scorer, who: V) -> Result<i64, Error> {
        let seat = match who {
            V::Int(i) => Some(i),
            _ => None,
        };
        let mut env = self.pool.take(who.clone(), scorer.nlocals);
        env[1] = who;
        let fail = |m: String| scorer_fault(scorer, seat, m);
        let game = self.game.clone();
        let value = self.eval(&game, scorer.expr, &mut env);
        self.pool.give(env);
        match value {
            Ok(V::Int(i)) => Ok(i),
            Ok(V::Bool(b)) => Ok(i64::from(b)),
            Ok(other) => Err(fail(format!("{} is no number", other.kind()))),
            Err(F::Rule(m) | F::Failed(m)) => Err(fail(m)),
            Err(F::Overrun) => Err(fail("calls ran out of steps".into())),
            Err(F::Bug(m)) => Err(Error::Bug(format!("engine bug in the VM scoring '{}': {m}", scorer.id))),
            Err(F::Scoring(d)) => Err(Error::Rule(*d)),
        }
    }

    /// The cards of zone `z` changed: forget the points of the seats whose scoring reads them.
    pub fn zone_changed(&mut self, z: usize) {
        let readers = self.seats().scored[z];
        if readers != 0 {
            self.forget(readers);
        }
    }

    /// The points may have changed: forget the ones kept.
    pub fn changed(&mut self) {
        self.forget(u32::MAX);
    }

    /// The points of the seats in `seats` (a bit each) may have changed: forget them.
    fn forget(&mut self, seats: u32) {
        for (q, p) in self.points.iter_mut().enumerate() {
            if seats & (1 << q) != 0 {
                *p = None;
            }
        }
    }

    pub fn score_of(&mut self, p: usize) -> Result<i64, Error> {
        if let Some(Some(points)) = self.points.get(p) {
            return Ok(*points);
        }
        let game = self.game.clone();
        let mut total = 0;
        for s in &game.scoring {
            total = add_points(total, self.evaluate(s, p)?, s, Some(p as i64))?;
        }
        if let Some(kept) = self.points.get_mut(p) {
            *kept = Some(total);
        }
        Ok(total)
    }

    /// The points of nobody (a seat that is none), never kept.
    pub fn score_of_nobody(&mut self) -> Result<i64, Error> {
        let game = self.game.clone();
        let mut total = 0;
        for s in &game.scoring {
            total = add_points(total, self.evaluate_for(s, V::None)?, s, None)?;
        }
        Ok(total)
    }

    pub fn scores(&mut self) -> Result<Vec<i64>, Error> {
        if let Some(fin) = &self.fin {
            return Ok(fin.0.clone());
        }
        (0..self.n).map(|p| self.score_of(p)).collect()
    }

    /// Each seat's result ("win", "loss", "draw"); None until the game is over.
    pub fn outcome(&mut self) -> Result<Option<Vec<&'static str>>, Error> {
        if self.pending.is_some() {
            return Ok(None);
        }
        if let Some(fin) = &self.fin {
            return Ok(Some(fin.1.clone()));
        }
        let game = self.game.clone();
        if let Some(house) = &game.house {
            return self.against_house(house).map(Some);
        }
        let mut per_seat = vec![];
        for p in 0..self.n {
            let mut key = vec![self.score_of(p)?];
            for t in &game.tiebreakers {
                key.push(self.evaluate(t, p)?);
            }
            per_seat.push(key);
        }
        let teams = &self.seats().teams;
        // A team's points are ranked as the reference ranks them, exactly: 128 bits hold any team's sum.
        let keys: Vec<Vec<i128>> = (0..self.n)
            .map(|p| {
                let mut k = vec![0; per_seat[p].len()];
                for &m in &teams[p] {
                    for (a, b) in k.iter_mut().zip(&per_seat[m as usize]) {
                        *a += i128::from(*b);
                    }
                }
                for (a, sign) in k.iter_mut().zip(&game.signs) {
                    *a *= i128::from(*sign);
                }
                k
            })
            .collect();
        let best = keys.iter().max().cloned().unwrap_or_default();
        // a tie: a seat of another team than the first top seat's holds the best key too
        let mut top_teams = (0..self.n).filter(|&p| keys[p] == best).map(|p| &teams[p]);
        let first = top_teams.next();
        if top_teams.any(|t| Some(t) != first) && game.ties_draw {
            return Ok(Some(vec!["draw"; self.n]));
        }
        Ok(Some(
            keys.iter().map(|k| if *k == best { "win" } else { "loss" }).collect(),
        ))
    }

    pub fn reason_text(&self) -> Rc<str> {
        self.reason.clone().unwrap_or_else(|| self.game.default_end.clone())
    }

    // ------------------------------------------------------------ knowledge
    pub fn move_card(&mut self, card: usize, to: usize, on_top: bool) -> Res<()> {
        self.zone_changed(self.loc[card] as usize);
        self.zone_changed(to);
        let source = self.loc[card] as usize;
        let cards = &self.zones[source];
        let place = if on_top && cards.last() == Some(&(card as u32)) {
            cards.len() - 1
        } else if let Some(i) = cards.iter().position(|&c| c as usize == card) {
            i
        } else {
            return Err(Box::new(F::Bug("a card is not where its place says".into())));
        };
        let to_place = match (on_top, source == to) {
            (false, _) => 0,
            (true, false) => self.zones[to].len(),
            (true, true) => self.zones[to].len() - 1,
        };
        self.zones.move_card(source, place, to, to_place);
        self.loc[card] = to as u32;
        let everyone = self.everyone();
        let seats = self.game.seats[self.n].as_ref().expect("tables");
        let (masks, tops) = (&seats.masks, &seats.tops);
        let seen_by_all = tops[to] && (on_top || self.zones[to].len() == 1);
        let known = if seen_by_all {
            everyone
        } else {
            self.pinned[card] | masks[to]
        };
        let unsure = everyone & !known & !masks[source];
        if unsure != 0 {
            let done = self.settled[source];
            if unsure & !done != 0 {
                for &c in self.zones[source].iter() {
                    let c = c as usize;
                    if self.know[c] & unsure != 0 {
                        self.know[c] &= !unsure | self.pinned[c];
                    }
                }
                self.settled[source] = done | unsure;
            }
        }
        self.know[card] = known;
        self.pinned[card] = known;
        if tops[source] {
            if let Some(&top) = self.zones[source].last() {
                self.know[top as usize] = everyone;
                self.pinned[top as usize] = everyone;
            }
        }
        Ok(())
    }

    pub fn move_all(&mut self, source: usize, to: usize) {
        self.zone_changed(source);
        self.zone_changed(to);
        if source == to {
            return;
        }
        let seats = self.game.seats[self.n].as_ref().expect("tables");
        let seeing = seats.masks[to];
        let moved = self.zones[source].len();
        for &c in &self.zones[source] {
            self.loc[c as usize] = to as u32;
            self.know[c as usize] |= seeing;
            self.pinned[c as usize] |= seeing;
        }
        self.zones.move_all(source, to);
        self.settled[to] = 0;
        if seats.tops[to] && moved > 0 {
            let everyone = self.everyone();
            if let Some(&top) = self.zones[to].last() {
                self.know[top as usize] = everyone;
                self.pinned[top as usize] = everyone;
            }
        }
    }

    pub fn reordered(&mut self, zone: usize) {
        let seats = self.game.seats[self.n].as_ref().expect("tables");
        let seeing = seats.masks[zone];
        for &c in self.zones[zone].iter() {
            self.pinned[c as usize] = seeing;
        }
        self.settled[zone] &= seeing;
        if seats.tops[zone] {
            let everyone = self.everyone();
            if let Some(&top) = self.zones[zone].last() {
                self.know[top as usize] = everyone;
                self.pinned[top as usize] = everyone;
            }
        }
    }

    pub fn shown(&mut self, cards: &[usize], seat: usize) {
        let bit = 1u32 << seat;
        for &c in cards {
            self.know[c] |= bit;
            self.pinned[c] |= bit;
        }
    }

    pub fn truthy(&self, v: &V) -> bool {
        let empty = self.game.empty_string;
        v.truthy(|s| s == empty)
    }
}

/// JSON text with the keys of every object sorted (Python's `json.dumps(v, sort_keys=True)` with its spaces).
fn sorted_json(j: &serde_json::Value) -> String {
    match j {
        serde_json::Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{}: {}", serde_json::Value::String((*k).clone()), sorted_json(&o[*k])))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        serde_json::Value::Array(a) => format!("[{}]", a.iter().map(sorted_json).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// Whether one of `ids`, each the one id of its text (`OptionIds::texts`), is there twice: one address twice.
fn one_twice(ids: &[Rc<str>]) -> bool {
    any_twice(ids, |a| Rc::as_ptr(a).cast::<u8>())
}

fn has_duplicates(ids: &[Rc<str>]) -> bool {
    any_twice(ids, |a| &**a)
}

/// Whether two of `ids` have one key: pair by pair for a few, by a set for more.
fn any_twice<'a, K: Eq + std::hash::Hash>(ids: &'a [Rc<str>], key: impl Fn(&'a Rc<str>) -> K) -> bool {
    if ids.len() < 24 {
        return ids
            .iter()
            .enumerate()
            .any(|(i, a)| ids[..i].iter().any(|b| key(a) == key(b)));
    }
    let mut seen = FxSet::with_capacity_and_hasher(ids.len(), Default::default());
    !ids.iter().all(|a| seen.insert(key(a)))
}

fn not_legal(action: &str, seat: u32, legal: &[Rc<str>]) -> String {
    let shown: String = action.chars().take(60).collect();
    let legal: Vec<&str> = legal.iter().map(|a| &**a).collect();
    format!(
        "'{shown}' is not a legal action for seat {seat} now; legal: {}",
        legal.join(", ")
    )
}

pub fn frame(game: &Game, proc: u16, pc: u32) -> Frame {
    let p = &game.procs[proc as usize];
    let mut env = vec![V::Unset; p.locals.len()];
    env[0] = V::Int(0);
    Frame { proc, pc, env }
}

/// Python's repr of a text, as the reference quotes a value in a message: in single quotes unless it holds
/// one and no double quote, with backslashes and line ends escaped.
pub fn py_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A scoring term or tie-breaker that failed for `seat` (none: nobody), located at the term.
fn scorer_fault(scorer: &crate::game::Scorer, seat: Option<i64>, m: String) -> Error {
    let (path, line, col) = &scorer.place;
    let who = seat.map_or_else(|| "None".to_string(), |i| i.to_string());
    Error::Rule(Diag {
        path: path.to_string(),
        line: *line,
        col: *col,
        code: "E701",
        message: format!("'{}' failed for seat {who}: {m}", scorer.id),
    })
}

/// Points added up term by term as `+` adds: past 64 bits is the fault of the term that went past.
fn add_points(total: i64, term: i64, scorer: &crate::game::Scorer, seat: Option<i64>) -> Result<i64, Error> {
    match total.checked_add(term) {
        Some(t) if t != i64::MIN => Ok(t),
        _ => Err(scorer_fault(scorer, seat, crate::eval::PAST.to_string())),
    }
}
