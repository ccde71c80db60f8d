//! A state to and from the reference's saved-state JSON (State.to_data, format 2), field for field.

use crate::game::Game;
use crate::rng::Seed;
use crate::shared::Shared;
use crate::state::{frame, Error, Hist, LogLine, Pending, State, Together};
use crate::value::{Journal, V};
use serde_json::{json, Map, Value as J};
use std::rc::Rc;

pub const FORMAT: i64 = 2;

fn refuse<T>(why: impl Into<String>) -> Result<T, Error> {
    Err(Error::State(format!("not a saved state: {}", why.into())))
}

impl State {
    pub fn to_json(&self, v: &V) -> J {
        value_json(&self.game, v)
    }

    /// The reference's saved-state data (`State.to_data`), field for field.
    pub fn to_data(&self) -> J {
        let g = &self.game;
        let seats = self.seats();
        let mut zones = Map::new();
        for (i, &z) in seats.zones.iter().enumerate() {
            zones.insert(g.text(z).to_string(), json!(&self.zones[i]));
        }
        let log: Vec<J> = self.log.iter().map(|l| json!([l.audience, &*l.text(self)])).collect();
        let history: Vec<J> = self.history.iter().map(|h| self.hist_json(h)).collect();
        let mut data = json!({
            "format": FORMAT,
            "game": g.id,
            "variant": g.variant,
            "rules": g.rules,
            "players": self.n,
            "seed": seed_json(self.seed),
            "rng": self.rng,
            "zones": zones,
            "variables": self.vars_json(),
            "player_variables": self.pvars_json(),
            "stack": self.stack_json(),
            "pending": self.pending_json(),
            "log": log,
            "history": history,
            "seen": self.seen.iter().map(Journal::as_slice).collect::<Vec<_>>(),
            "reason": self.reason.as_deref(),
            "know": self.know,
            "pinned": self.pinned,
        });
        if !g.dice.is_empty() {
            data["faces"] = self.faces_json();
        }
        data
    }

    /// The game variables as a saved state has them, in the game's order.
    fn vars_json(&self) -> J {
        let g = &self.game;
        J::Object(
            g.vars
                .iter()
                .zip(&self.vars)
                .map(|(v, x)| (v.name.to_string(), value_json(g, x)))
                .collect(),
        )
    }

    /// Each seat's player variables as a saved state has them.
    fn pvars_json(&self) -> J {
        let g = &self.game;
        self.pvars
            .iter()
            .map(|p| {
                J::Object(
                    g.pvars
                        .iter()
                        .zip(p)
                        .map(|(v, x)| (v.name.to_string(), value_json(g, x)))
                        .collect(),
                )
            })
            .collect()
    }

    /// The program frames `[procedure, pc, locals]`, the locals set so far only.
    fn stack_json(&self) -> J {
        let g = &self.game;
        self.stack
            .iter()
            .map(|f| {
                let p = &g.procs[f.proc as usize];
                let env: Map<String, J> = p
                    .locals
                    .iter()
                    .zip(&f.env)
                    .filter(|(_, v)| !matches!(v, V::Unset))
                    .map(|(n, v)| (n.to_string(), value_json(g, v)))
                    .collect();
                json!([&*p.name, f.pc, env])
            })
            .collect()
    }

    /// The decision asked, or null once the game is over.
    fn pending_json(&self) -> J {
        self.pending.as_ref().map_or(J::Null, |p| pending_json(&self.game, p))
    }

    /// The face each die shows (null for the other cards).
    fn faces_json(&self) -> J {
        J::Array(self.faces.iter().map(|f| value_json(&self.game, f)).collect())
    }

    /// One entry of the history: a decision taken (a secret one with its kind) or a chance event.
    pub fn hist_json(&self, h: &Hist) -> J {
        let mut entry = Map::new();
        let made: Result<(), std::convert::Infallible> = hist_fields(h, |key, field| {
            let value = match field {
                Field::Number(n) => json!(n),
                Field::Name(id) => json!(self.game.text(id)),
                Field::Text(t) => json!(t),
                Field::Truth => json!(true),
                Field::Null => J::Null,
                Field::Seats(seats) => json!(seats),
            };
            entry.insert(key.name().into(), value);
            Ok(())
        });
        let Ok(()) = made;
        J::Object(entry)
    }

    /// A state read back from the reference's JSON; anything that does not fit this game is refused in one line.
    pub fn from_data(game: Rc<Game>, text: &str) -> Result<State, Error> {
        let d: J = match serde_json::from_str(text) {
            Ok(d) => d,
            Err(e) => return refuse(e.to_string().chars().take(80).collect::<String>()),
        };
        let get = |k: &str| {
            d.get(k)
                .ok_or_else(|| Error::State(format!("not a saved state: '{k}' is missing")))
        };
        if get("format")?.as_i64() != Some(FORMAT) {
            return refuse("it is of another format");
        }
        if get("game")?.as_str() != Some(&game.id) || get("rules")?.as_str() != Some(&game.rules) {
            return refuse("it is of other rules");
        }
        let n = get("players")?.as_u64().unwrap_or(0) as usize;
        let Some(seats) = game.seats.get(n).and_then(Option::as_ref) else {
            return refuse("its number of players does not fit the game");
        };
        let seed = get("seed")?;
        let seed = (seed.as_i64().map(Seed::from))
            .or_else(|| seed.as_u64().map(Seed::from))
            .ok_or_else(|| Error::State("not a saved state: its seed".into()))?;
        let rng = get("rng")?
            .as_u64()
            .ok_or_else(|| Error::State("not a saved state: its generator".into()))?;
        let ncards = game.cards.len();
        let zj = get("zones")?
            .as_object()
            .ok_or_else(|| Error::State("not a saved state: zones".into()))?;
        let mut zones = vec![];
        let mut loc = vec![u32::MAX; ncards];
        if zj.len() != seats.zones.len() {
            return refuse("its zones are not the game's");
        }
        for (i, &z) in seats.zones.iter().enumerate() {
            let Some(cards) = zj.get(game.text(z)).and_then(J::as_array) else {
                return refuse(format!("zone '{}' is missing", game.text(z)));
            };
            let mut out = vec![];
            for c in cards {
                match c.as_u64() {
                    Some(c) if (c as usize) < ncards && loc[c as usize] == u32::MAX => {
                        loc[c as usize] = i as u32;
                        out.push(c as u32);
                    }
                    _ => return refuse("a card is in two places or is not a card"),
                }
            }
            zones.push(out);
        }
        if loc.contains(&u32::MAX) {
            return refuse("a card is nowhere");
        }
        let vars_j = get("variables")?;
        let mut vars = vec![];
        for v in &game.vars {
            let Some(x) = vars_j.get(&*v.name) else {
                return refuse(format!("variable '{}' is missing", v.name));
            };
            vars.push(json_value(&game, x)?);
        }
        let mut pvars = vec![];
        let pj = get("player_variables")?
            .as_array()
            .ok_or_else(|| Error::State("not a saved state: player variables".into()))?;
        if pj.len() != n {
            return refuse("player variables are not one per seat");
        }
        for p in pj {
            let mut row = vec![];
            for v in &game.pvars {
                let Some(x) = p.get(&*v.name) else {
                    return refuse(format!("player variable '{}' is missing", v.name));
                };
                row.push(json_value(&game, x)?);
            }
            pvars.push(row);
        }
        let mut stack = vec![];
        for f in get("stack")?
            .as_array()
            .ok_or_else(|| Error::State("not a saved state: its stack".into()))?
        {
            let (Some(name), Some(pc), Some(env)) = (
                f.get(0).and_then(J::as_str),
                f.get(1).and_then(J::as_u64),
                f.get(2).and_then(J::as_object),
            ) else {
                return refuse("a frame is not [procedure, pc, locals]");
            };
            let Some(&proc) = game.proc_index.get(name) else {
                return refuse(format!("no procedure '{name}'"));
            };
            let p = &game.procs[proc as usize];
            if pc as usize >= p.code.len() {
                return refuse(format!("pc {pc} is outside '{name}'"));
            }
            let mut fr = frame(&game, proc, pc as u32);
            fr.env[0] = V::Unset;
            for (k, v) in env {
                let Some(&slot) = p.local_index.get(k.as_str()) else {
                    return refuse(format!("'{name}' has no local '{k}'"));
                };
                let mut x = json_value(&game, v)?;
                if k.starts_with('$') && k.contains('@') && !k.starts_with("$repeat@") && !k.starts_with("$window@") {
                    x = match x {
                        V::List(l) if l.len() == 2 => match (&l[0], &l[1]) {
                            (V::Int(i), V::List(items)) if *i >= 0 => V::Iter(*i as u32, items.clone()),
                            _ => return refuse(format!("loop state '{k}' is not [index, items]")),
                        },
                        _ => return refuse(format!("loop state '{k}' is not [index, items]")),
                    };
                }
                fr.env[slot as usize] = x;
            }
            stack.push(fr);
        }
        let pending = match get("pending")? {
            J::Null => None,
            p => Some(Rc::new(pending_value(&game, p, n)?)),
        };
        // a decision is asked at a choice (its seat was checked with it: `pending_value`)
        let at_choice = stack.last().is_some_and(|f| {
            matches!(
                game.procs[f.proc as usize].code.get(f.pc as usize),
                Some(crate::game::Ins::Choose(_))
            )
        });
        if pending.is_some() && !at_choice {
            return refuse("its decision does not fit its program");
        }
        let mut log = vec![];
        for l in get("log")?
            .as_array()
            .ok_or_else(|| Error::State("not a saved state: its log".into()))?
        {
            let (Some(aud), Some(text)) = (l.get(0), l.get(1).and_then(J::as_str)) else {
                return refuse("a log line");
            };
            log.push(LogLine::made(aud.as_i64(), text.into()));
        }
        let mut history = vec![];
        for h in get("history")?
            .as_array()
            .ok_or_else(|| Error::State("not a saved state: its history".into()))?
        {
            // A secret choice a copy's seat may not see has no action, only its seat and kind.
            history.push(if h.get("seat").is_some() {
                let action = h.get("action").and_then(J::as_str);
                let seat = h.get("seat").and_then(J::as_u64).unwrap_or(0) as u32;
                let secret = h.get("kind").and_then(J::as_str).map(Rc::from);
                let together = h.get("together").and_then(J::as_bool).unwrap_or(false);
                Hist::Act {
                    seat,
                    action: action.map(Rc::from),
                    secret,
                    together,
                }
            } else if h.get("chance").and_then(J::as_str) == Some("shuffle") {
                let z = h
                    .get("zone")
                    .and_then(J::as_str)
                    .and_then(|z| game.string_ids.get(z))
                    .copied();
                Hist::Shuffle(z.ok_or_else(|| Error::State("not a saved state: a shuffle of no zone".into()))?)
            } else if h.get("chance").and_then(J::as_str) == Some("roll") {
                crate::dice::roll_entry(h, ncards)?
            } else {
                let of = h.get("of").and_then(J::as_u64).unwrap_or(0);
                Hist::Random {
                    of,
                    index: h.get("index").and_then(J::as_u64).unwrap_or(0),
                }
            });
        }
        let seen: Vec<Journal<J>> = match get("seen")?.as_array() {
            Some(s) if s.len() == n => s
                .iter()
                .map(|x| x.as_array().cloned().unwrap_or_default().into())
                .collect(),
            _ => return refuse("what each seat was shown"),
        };
        let masks = |k: &str| -> Result<Vec<u32>, Error> {
            let a = get(k)?
                .as_array()
                .ok_or_else(|| Error::State(format!("not a saved state: {k}")))?;
            if a.len() != ncards {
                return refuse(format!("{k} is not one per card"));
            }
            a.iter()
                .map(|m| {
                    m.as_u64()
                        .map(|m| m as u32)
                        .ok_or_else(|| Error::State(format!("not a saved state: {k}")))
                })
                .collect()
        };
        let (know, pinned) = (masks("know")?, masks("pinned")?);
        let reason = get("reason")?.as_str().map(Rc::from);
        let faces = crate::dice::faces_from(&game, d.get("faces"))?;
        Ok(State {
            n,
            seed,
            rng,
            zones: crate::zones::Zones::of(&zones),
            loc,
            vars,
            pvars,
            stack,
            pending,
            log: log.into(),
            keep_log: true,
            turns: history.len(),
            history: history.into(),
            seen,
            reason,
            know,
            pinned,
            settled: vec![0; seats.zones.len()],
            fault: None,
            fsteps: 0,
            points: vec![None; n],
            fin: None,
            pool: crate::state::Pool::default(),
            draws: None,
            watch: None,
            note_reads: false,
            memo: crate::state::Memo::default(),
            faces,
            game,
        })
    }
}

fn ids_json(ids: &[Rc<str>]) -> J {
    J::Array(ids.iter().map(|i| J::String(i.to_string())).collect())
}

fn values_json(g: &Game, values: &[V]) -> J {
    J::Array(values.iter().map(|v| value_json(g, v)).collect())
}

fn pending_json(g: &Game, p: &Pending) -> J {
    let mut out = json!({
        "player": p.player,
        "ids": ids_json(&p.ids),
        "values": values_json(g, &p.values),
        "secret": p.secret,
        "kind": &*p.kind,
    });
    if let Some(t) = &p.together {
        out["together"] = json!({
            "seats": t.seats,
            "ids": t.ids.iter().map(|i| ids_json(i)).collect::<Vec<_>>(),
            "values": t.values.iter().map(|v| values_json(g, v)).collect::<Vec<_>>(),
            "chosen": t.chosen,
        });
    }
    out
}

fn strs(j: Option<&J>) -> Result<Rc<[Rc<str>]>, Error> {
    let Some(a) = j.and_then(J::as_array) else {
        return refuse("a decision's ids");
    };
    a.iter()
        .map(|x| {
            x.as_str()
                .map(Rc::from)
                .ok_or_else(|| Error::State("not a saved state: an id".into()))
        })
        .collect()
}

fn vals(g: &Game, j: Option<&J>) -> Result<Shared<V>, Error> {
    let Some(a) = j.and_then(J::as_array) else {
        return refuse("a decision's values");
    };
    a.iter().map(|x| json_value(g, x)).collect()
}

fn pending_value(g: &Game, p: &J, n: usize) -> Result<Pending, Error> {
    let ids = strs(p.get("ids"))?;
    let values = vals(g, p.get("values"))?;
    if ids.len() != values.len() || ids.is_empty() {
        return refuse("a decision's ids and values differ");
    }
    let together = match p.get("together") {
        None | Some(J::Null) => None,
        Some(t) => {
            let seats: Vec<u32> = t
                .get("seats")
                .and_then(J::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(J::as_u64)
                        .filter(|&s| (s as usize) < n)
                        .map(|s| s as u32)
                        .collect()
                })
                .unwrap_or_default();
            let ids: Vec<Rc<[Rc<str>]>> = match t.get("ids").and_then(J::as_array) {
                Some(a) => a.iter().map(|x| strs(Some(x))).collect::<Result<_, _>>()?,
                None => return refuse("a simultaneous decision's ids"),
            };
            let values: Vec<Shared<V>> = match t.get("values").and_then(J::as_array) {
                Some(a) => a.iter().map(|x| vals(g, Some(x))).collect::<Result<_, _>>()?,
                None => return refuse("a simultaneous decision's values"),
            };
            let chosen: Vec<Option<u32>> = match t.get("chosen").and_then(J::as_array) {
                Some(a) => a.iter().map(|c| c.as_u64().map(|c| c as u32)).collect(),
                None => return refuse("a simultaneous decision's choices"),
            };
            let fits = seats.len() == ids.len()
                && seats.len() == values.len()
                && seats.len() == chosen.len()
                && ids
                    .iter()
                    .zip(&values)
                    .zip(&chosen)
                    .all(|((i, v), c)| i.len() == v.len() && c.is_none_or(|c| (c as usize) < i.len()));
            if !fits || seats.is_empty() {
                return refuse("a simultaneous decision does not add up");
            }
            Some(Together {
                seats,
                ids,
                values,
                chosen,
            })
        }
    };
    let player = p.get("player").and_then(J::as_u64).unwrap_or(u64::MAX);
    if player as usize >= n {
        return refuse("a decision of no seat");
    }
    Ok(Pending {
        player: player as u32,
        ids,
        values,
        secret: p.get("secret").and_then(J::as_bool).unwrap_or(false),
        kind: p.get("kind").and_then(J::as_str).unwrap_or("").into(),
        together,
        reads: None,
    })
}

/// A seed as JSON: a whole number (a state's seed fits in 64 bits, see `State::new`).
fn seed_json(seed: Seed) -> J {
    match i64::try_from(seed) {
        Ok(s) => json!(s),
        Err(_) => json!(seed as u64),
    }
}

pub fn value_json(g: &Game, v: &V) -> J {
    match v {
        V::Unset | V::None => J::Null,
        V::Bool(b) => J::Bool(*b),
        V::Int(i) => json!(i),
        V::Str(s) => J::String(g.text(*s).to_string()),
        V::Text(t) => J::String(t.to_string()),
        V::List(l) => J::Array(l.iter().map(|x| value_json(g, x)).collect()),
        V::Rec(r) => J::Object(
            r.iter()
                .map(|(k, x)| match crate::maps::entry(*k, x) {
                    (V::Text(t), x) => (t.to_string(), value_json(g, x)),
                    (_, x) => (g.text(*k).to_string(), value_json(g, x)),
                })
                .collect(),
        ),
        V::Iter(i, l) => json!([i, J::Array(l.iter().map(|x| value_json(g, x)).collect())]),
    }
}

pub fn json_value(g: &Game, j: &J) -> Result<V, Error> {
    json_depth(g, j, 0)
}

fn json_depth(g: &Game, j: &J, depth: usize) -> Result<V, Error> {
    if depth > 64 {
        return refuse("a value is nested too deeply");
    }
    Ok(match j {
        J::Null => V::None,
        J::Bool(b) => V::Bool(*b),
        J::Number(n) => V::Int(
            n.as_i64()
                .ok_or_else(|| Error::State("not a saved state: a number out of range".into()))?,
        ),
        J::String(t) => match g.string_ids.get(t.as_str()) {
            Some(&s) => V::Str(s),
            // a text the rules built while playing ("ok" + "left"), within the size a rule may build
            None if t.chars().count() <= crate::state::MAX_SIZE => V::Text(t.as_str().into()),
            None => return refuse("a text is over the size budget of 100,000 characters"),
        },
        J::Array(a) => V::list(
            a.iter()
                .map(|x| json_depth(g, x, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        J::Object(o) => {
            let mut fields = vec![];
            for (k, x) in o {
                let x = json_depth(g, x, depth + 1)?;
                fields.push(match g.string_ids.get(k.as_str()) {
                    Some(&key) => (key, x),
                    // a map's key made while playing
                    None => (crate::maps::MADE, V::list(vec![V::Text(k.as_str().into()), x])),
                });
            }
            V::Rec(fields.into())
        }
    })
}

/// The name of a history entry's field (`hist_fields`).
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Seat,
    Action,
    Kind,
    Secret,
    Together,
    Chance,
    Zone,
    Of,
    Index,
    Die,
    Seen,
}

impl Key {
    /// How many keys there are (the last one's number and one).
    pub const ALL: usize = Key::Seen as usize + 1;

    pub fn name(self) -> &'static str {
        match self {
            Key::Seat => "seat",
            Key::Action => "action",
            Key::Kind => "kind",
            Key::Secret => "secret",
            Key::Together => "together",
            Key::Chance => "chance",
            Key::Zone => "zone",
            Key::Of => "of",
            Key::Index => "index",
            Key::Die => "die",
            Key::Seen => "seen",
        }
    }
}

/// A value of a history entry's field (`hist_fields`).
pub enum Field<'a> {
    Number(u64),
    /// A text of the game's table (a zone's name).
    Name(u32),
    Text(&'a str),
    Truth,
    Null,
    Seats(&'a [u32]),
}

/// The fields of one entry of the history, in the reference's order of keys (a masked copy leaves out what its
/// seat did not see): a decision taken (a secret one with its kind) or a chance event. The one definition of an
/// entry, which the saved JSON and a look's Python dicts are both made from.
pub fn hist_fields<'a, E>(h: &'a Hist, mut field: impl FnMut(Key, Field<'a>) -> Result<(), E>) -> Result<(), E> {
    match h {
        Hist::Act {
            seat,
            action,
            secret,
            together,
        } => {
            field(Key::Seat, Field::Number(u64::from(*seat)))?;
            match (action, secret) {
                (Some(action), _) => field(Key::Action, Field::Text(action))?,
                (None, None) => field(Key::Action, Field::Null)?,
                (None, Some(_)) => {}
            }
            if let Some(kind) = secret {
                field(Key::Kind, Field::Text(kind))?;
                field(Key::Secret, Field::Truth)?;
                if *together {
                    field(Key::Together, Field::Truth)?;
                }
            }
        }
        Hist::Shuffle(z) => {
            field(Key::Chance, Field::Text("shuffle"))?;
            field(Key::Zone, Field::Name(*z))?;
        }
        Hist::Random { of, index } => {
            field(Key::Chance, Field::Text("random"))?;
            field(Key::Of, Field::Number(*of))?;
            field(Key::Index, Field::Number(*index))?;
        }
        Hist::Roll { die, of, index, seen } => {
            field(Key::Chance, Field::Text("roll"))?;
            field(Key::Die, Field::Number(u64::from(*die)))?;
            field(Key::Of, Field::Number(*of))?;
            if let Some(index) = index {
                field(Key::Index, Field::Number(*index))?;
            }
            if let Some(seen) = seen {
                field(Key::Seen, Field::Seats(seen))?;
            }
        }
    }
    Ok(())
}
