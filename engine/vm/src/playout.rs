//! Whole games between bots in one call, game for game those `tabletop simulate` plays in Python
//! (engine/lab/simulate.py `play_out`): the same bots from the same derived seeds, the same copies.

use crate::bots::Bot;
use crate::derive::{derive, Label};
use crate::game::Game;
use crate::pyrand::PyRandom;
use crate::rng::Seed;
use crate::state::{Error, State};
use std::rc::Rc;

/// How one game ended (or why it did not).
pub struct Played {
    pub seed: Seed,
    pub scores: Vec<i64>,
    pub results: Vec<&'static str>,
    pub reason: Rc<str>,
    pub decisions: u64,
    /// Stopped at the decision limit, unfinished.
    pub cut_off: bool,
}

/// A failure as the Python driver prints it (a rule's located diagnostic on one line).
pub fn message(e: &Error) -> String {
    match e {
        Error::Rule(d) => format!(
            "{}:{}:{}: {} {}",
            d.path,
            d.line,
            d.col,
            d.code,
            d.message.split_whitespace().collect::<Vec<_>>().join(" ")
        ),
        Error::Illegal(m) | Error::Stopped(m) | Error::Bug(m) | Error::State(m) => m.clone(),
    }
}

/// The bots of a game from their specs, each seeded `derive(seed, "bot", seat)`; None names a spec the VM
/// does not play. The random bots' generators (`random.Random` of their seeds, as `Bot::parse` makes them)
/// are made side by side: a game's set-up of its bots costs about one generator's.
pub fn make_bots(kinds: &[String], seed: Seed, explore: f64) -> Result<Vec<Bot>, String> {
    let seeds: Vec<Seed> = (0..kinds.len())
        .map(|s| derive(seed, &[Label::Text("bot"), Label::Int(s as i64)]))
        .collect();
    let random: Vec<Seed> = seeds
        .iter()
        .zip(kinds)
        .filter(|(_, k)| *k == "random")
        .map(|(s, _)| *s)
        .collect();
    let mut generators = PyRandom::new_many(&random).into_iter();
    kinds
        .iter()
        .zip(&seeds)
        .map(|(k, &s)| {
            let made = if k == "random" {
                generators.next().map(Bot::Random)
            } else {
                None
            };
            let mut bot = match made {
                Some(bot) => bot,
                None => Bot::parse(k, s).ok_or_else(|| {
                    format!("the VM plays random, greedy and mcts[:BUDGET[/ROLLOUT]] bots, not '{k}'")
                })?,
            };
            bot.set_explore(explore);
            Ok(bot)
        })
        .collect()
}

/// What `bot` chooses for `seat` among `ids` at the game's `decisions`-th decision: a bot that searches gets the
/// seat's determinized copy, dealt from a seed of its own for that seat and decision (the Python bots' seed), and
/// made in `spare` (the last decision's copy, if any). A greedy bot that plays at random this time gets none, nor
/// one whose values read nothing the deal changes (`Greedy::best_in_sight`): the copy's deal draws nothing from
/// the bot's generator, so its games are those the bot makes with one. A copy is still dealt for a random pick
/// where its seat's copies may be asked otherwise (`State::asked_alike`): where no deal agrees, the game stops
/// as Python's does, which deals a copy before its bot decides.
pub fn decide(
    st: &mut State,
    bot: &mut Bot,
    seat: u32,
    ids: &[Rc<str>],
    decisions: u64,
    spare: &mut Option<State>,
) -> Result<Rc<str>, Error> {
    if !bot.needs_state() {
        return bot.act(ids, seat, None);
    }
    let legal = st.legal(Some(seat));
    let copy_seed = |st: &State| {
        derive(
            st.seed,
            &[
                Label::Text("copy"),
                Label::Int(i64::from(seat)),
                Label::Int(decisions as i64),
            ],
        )
    };
    if let Bot::Greedy(g) = bot {
        if let Some(a) = g.explored(&st.game, &legal)? {
            if !st.asked_alike(seat) {
                st.determinized_in(&st.hidden(seat)?, copy_seed(st), spare)?; // where no deal agrees, the game stops
            }
            return Ok(a);
        }
        if let Some(chosen) = g.best_in_sight(&legal, seat, st) {
            return chosen;
        }
    }
    let det = st.determinized_in(&st.hidden(seat)?, copy_seed(st), spare)?;
    match bot {
        Bot::Greedy(g) => g.best(&legal, seat, det),
        _ => bot.act(&legal, seat, Some(det)),
    }
}

/// A new game of `seed` for `bots` to play out, one seat each: its log not kept, and what its decisions'
/// options read noted where a greedy bot may rate them on the state itself (`Greedy::best_in_sight`).
pub fn playout_state(game: &Rc<Game>, bots: &[Bot], seed: Seed) -> Result<State, Error> {
    let mut st = State::unstarted(game.clone(), bots.len(), seed)?;
    st.note_reads = !game.greedy.is_empty() && bots.iter().any(|b| matches!(b, Bot::Greedy(_)));
    st.start()?;
    st.keep_log = false;
    Ok(st)
}

/// Play the game of `seed` between bots of `kinds` (one per seat), at most `limit` decisions; `explore`: how
/// often greedy choices are random.
pub fn play_game(game: &Rc<Game>, kinds: &[String], seed: Seed, limit: u64, explore: f64) -> Result<Played, Error> {
    let mut bots = make_bots(kinds, seed, explore).map_err(Error::State)?;
    let mut st = playout_state(game, &bots, seed)?;
    let mut decisions = 0u64;
    let mut cut_off = false;
    let mut spare = None;
    while let Some(p) = st.pending.clone() {
        if decisions >= limit {
            cut_off = true;
            break;
        }
        let seat = p.player;
        let action = decide(&mut st, &mut bots[seat as usize], seat, &p.ids, decisions, &mut spare)?;
        st.apply_chosen(&action)?;
        decisions += 1;
    }
    let (scores, results) = if cut_off {
        (vec![], vec![])
    } else {
        (st.scores()?, st.outcome()?.unwrap_or_default())
    };
    Ok(Played {
        seed,
        scores,
        results,
        reason: st.reason_text(),
        decisions,
        cut_off,
    })
}
