//! Whole games recorded as the playtest lab records them (engine/lab/games.py `record_game`), without a Python
//! call per decision: the decisions, turns and rounds by the rules' `turn:`, each choice with the cards it
//! offered, the points at each turn, the outcome and the rules' `stats:` counters — for the same seed, the
//! same record as Python's.

use crate::game::{Body, Game};
use crate::playout::{decide, make_bots, message, playout_state};
use crate::rng::Seed;
use crate::state::{Diag, Error, State, F};
use crate::value::V;
use serde_json::Value as J;
use std::collections::HashSet;
use std::rc::Rc;

/// Where an expression is in the rules: (file, line, column).
pub type Place = (String, u32, u32);

/// What the lab reads of a game (the IR's `lab`: functions lowered after the rules' own, each with its place).
#[derive(Default)]
pub struct Lab {
    /// The function of the rules' `turn:` (whose value changes when a new turn begins), if they say.
    pub turn: Option<(usize, Place)>,
    /// (id, evaluated for each seat `p`, function, place) of each `stats:` counter.
    pub stats: Vec<(String, bool, usize, Place)>,
}

fn place(w: Option<&J>) -> Result<Place, String> {
    let w = w.and_then(J::as_array).map(Vec::as_slice).unwrap_or_default();
    match w {
        [path, line, col] => match (path.as_str(), line.as_u64(), col.as_u64()) {
            (Some(p), Some(l), Some(c)) => Ok((p.to_string(), l as u32, c as u32)),
            _ => Err(format!("the lab's place {w:?} is not [file, line, column]")),
        },
        _ => Err(format!("the lab's place {w:?} is not [file, line, column]")),
    }
}

impl Lab {
    /// The lab's part of an IR; an IR without one records turns as runs of one seat's decisions and no counters.
    pub fn from_ir(ir: &[u8]) -> Result<Lab, String> {
        let j: J = serde_json::from_slice(ir).map_err(|e| format!("not an IR: {e}"))?;
        let Some(lab) = j.get("lab") else {
            return Ok(Lab::default());
        };
        let nfuncs = j.get("functions").and_then(J::as_array).map_or(0, Vec::len);
        let function = |f: &J| match f.as_u64() {
            Some(i) if (i as usize) < nfuncs => Ok(i as usize),
            _ => Err(format!("the lab's function {f} is not one of the IR's")),
        };
        let turn = match lab.get("turn") {
            None | Some(J::Null) => None,
            Some(t) => Some((function(t.get(0).unwrap_or(&J::Null))?, place(t.get(1))?)),
        };
        let mut stats = vec![];
        for s in lab.get("stats").and_then(J::as_array).into_iter().flatten() {
            let (Some(id), Some(per_seat), Some(f)) =
                (s.get(0).and_then(J::as_str), s.get(1).and_then(J::as_bool), s.get(2))
            else {
                return Err(format!("a lab counter {s} is not [id, per seat, function, place]"));
            };
            stats.push((id.to_string(), per_seat, function(f)?, place(s.get(3))?));
        }
        Ok(Lab { turn, stats })
    }
}

/// One decision: the seat, the action it took, the cards its options named (sorted), the kind of decision.
pub struct Choice {
    pub seat: u32,
    pub action: Rc<str>,
    pub offered: Vec<Rc<str>>,
    pub kind: Rc<str>,
}

/// A counter's value at the end: one number, or one per seat.
pub enum Stat {
    One(i64),
    Each(Vec<i64>),
}

/// How a finished game ended.
pub struct End {
    pub results: Vec<&'static str>,
    pub reason: Rc<str>,
    pub scores: Vec<i64>,
    /// Each seat's side's points.
    pub sides: Vec<i64>,
    pub stats: Vec<(String, Stat)>,
}

/// One game as the lab keeps it; `error`: the one line of a failure, the record holding what came before it.
#[derive(Default)]
pub struct Record {
    pub seed: Seed,
    pub error: Option<String>,
    pub cut_off: bool,
    pub decisions: u64,
    pub turns: u64,
    pub rounds: u64,
    /// The number of options at each decision.
    pub legal: Vec<usize>,
    pub choices: Vec<Choice>,
    /// Each seat's side's points as each turn began.
    pub trace: Vec<Vec<i64>>,
    pub end: Option<End>,
}

/// Play and record the game of `seed` between bots of `kinds` (one per seat), at most `limit` decisions;
/// `explore`: how often greedy choices are random.
pub fn record_game(game: &Rc<Game>, lab: &Lab, kinds: &[String], seed: Seed, limit: u64, explore: f64) -> Record {
    let mut rec = Record {
        seed,
        ..Record::default()
    };
    if let Err(e) = play(game, lab, kinds, limit, explore, &mut rec) {
        rec.error = Some(message(&e));
    }
    rec
}

fn play(game: &Rc<Game>, lab: &Lab, kinds: &[String], limit: u64, explore: f64, rec: &mut Record) -> Result<(), Error> {
    let mut bots = make_bots(kinds, rec.seed, explore).map_err(Error::State)?;
    let mut st = playout_state(game, &bots, rec.seed)?;
    let cards: HashSet<&str> = game.cards.iter().map(|&c| game.text(c)).collect();
    let mut last: Option<V> = None;
    let mut in_round: Vec<u32> = vec![];
    let mut spare = None;
    while let Some(p) = st.pending.clone() {
        if rec.decisions >= limit {
            rec.cut_off = true;
            break;
        }
        let seat = p.player;
        let mark = match &lab.turn {
            Some((f, at)) => function(&mut st, *f, "turn:", at, &[V::Int(i64::from(seat))])?,
            None => V::Int(i64::from(seat)),
        };
        if !last.as_ref().is_some_and(|l| l.same(&mark)) {
            rec.turns += 1;
            if in_round.is_empty() || in_round.contains(&seat) {
                rec.rounds += 1;
                in_round.clear();
            }
            in_round.push(seat);
            rec.trace.push(sides(&mut st)?);
            last = Some(mark);
        }
        rec.legal.push(p.ids.len());
        let action = decide(
            &mut st,
            &mut bots[seat as usize],
            seat,
            &p.ids,
            rec.decisions,
            &mut spare,
        )?;
        let mut offered: Vec<Rc<str>> = vec![];
        for id in p.ids.iter() {
            for word in id.split_whitespace().filter(|w| cards.contains(w)) {
                if !offered.iter().any(|o| &**o == word) {
                    offered.push(word.into());
                }
            }
        }
        offered.sort();
        rec.choices.push(Choice {
            seat,
            action: action.clone(),
            offered,
            kind: p.kind.clone(),
        });
        st.apply(&action, None)?;
        rec.decisions += 1;
    }
    if !rec.cut_off {
        let results = st.outcome()?.unwrap_or_default();
        let mut stats = vec![];
        for (id, per_seat, f, at) in &lab.stats {
            let value = if *per_seat {
                let mut each = vec![];
                for p in 0..st.n {
                    let p = V::Int(p as i64);
                    each.push(number(function(&mut st, *f, id, at, &[p.clone(), p])?, id)?);
                }
                Stat::Each(each)
            } else {
                Stat::One(number(function(&mut st, *f, id, at, &[V::Int(0)])?, id)?)
            };
            stats.push((id.clone(), value));
        }
        rec.end = Some(End {
            results,
            reason: st.reason_text(),
            scores: st.scores()?,
            sides: sides(&mut st)?,
            stats,
        });
    }
    Ok(())
}

/// Each seat's side's points (a team's sum; a seat alone its own).
fn sides(st: &mut State) -> Result<Vec<i64>, Error> {
    let scores = st.scores()?;
    Ok(st
        .seats()
        .teams
        .iter()
        .map(|team| team.iter().map(|&m| scores[m as usize]).sum())
        .collect())
}

/// The value of the lab's function `f` with its parameters `args`; a fault is located at its place `at`
/// (`what` names it).
fn function(st: &mut State, f: usize, what: &str, at: &Place, args: &[V]) -> Result<V, Error> {
    let game = st.game.clone();
    let func = &game.funcs[f];
    let Body::Expr(expr) = func.body else {
        return Err(Error::Bug(format!("the lab's '{what}' is not an expression")));
    };
    let mut env = st.pool.take(V::Unset, func.nlocals);
    for (&slot, a) in func.params.iter().zip(args) {
        env[usize::from(slot)] = a.clone();
    }
    let fail = |m: String| {
        Error::Rule(Diag {
            path: at.0.clone(),
            line: at.1,
            col: at.2,
            code: "E701",
            message: format!("'{what}' failed: {m}"),
        })
    };
    let value = st.eval(&game, expr, &mut env);
    st.pool.give(env);
    match value {
        Ok(v) => Ok(v),
        Err(F::Rule(m) | F::Failed(m)) => Err(fail(m)),
        Err(F::Overrun) => Err(fail("calls ran out of steps".into())),
        Err(F::Bug(m)) => Err(Error::Bug(format!("engine bug in the VM's '{what}': {m}"))),
        Err(F::Scoring(d)) => Err(Error::Rule(*d)),
    }
}

/// A counter's value as a number (yes/no as 1 or 0).
fn number(v: V, id: &str) -> Result<i64, Error> {
    match v {
        V::Int(i) => Ok(i),
        V::Bool(b) => Ok(i64::from(b)),
        other => Err(Error::Bug(format!(
            "the counter '{id}' gave {}, not a number",
            other.kind()
        ))),
    }
}
