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

/// The bots of a game from their specs, each seeded `derive(seed, "bot", seat)`; an error names a spec the VM
/// does not play.
pub fn make_bots(kinds: &[String], seed: Seed, explore: f64) -> Result<Vec<Bot>, String> {
    let mut games = make_bots_of_games(kinds, &[seed], explore)?;
    Ok(games.pop().unwrap_or_default())
}

/// `make_bots` for each game of `seeds`. The generators of the bots that draw from one (`Bot::draws`: random
/// and greedy) are made side by side, all the games' together: up to four take the time of one
/// (`games_made_together` says how many games make four).
pub fn make_bots_of_games(kinds: &[String], seeds: &[Seed], explore: f64) -> Result<Vec<Vec<Bot>>, String> {
    let bot_seeds: Vec<Vec<Seed>> = seeds
        .iter()
        .map(|&seed| {
            (0..kinds.len())
                .map(|s| derive(seed, &[Label::Text("bot"), Label::Int(s as i64)]))
                .collect()
        })
        .collect();
    let drawing: Vec<Seed> = bot_seeds
        .iter()
        .flat_map(|game| game.iter().zip(kinds).filter(|(_, k)| Bot::draws(k)).map(|(s, _)| *s))
        .collect();
    let mut generators = PyRandom::new_many(&drawing).into_iter();
    bot_seeds
        .iter()
        .map(|game| {
            kinds
                .iter()
                .zip(game)
                .map(|(k, &s)| {
                    let made = if Bot::draws(k) { generators.next() } else { None };
                    let mut bot = Bot::parse(k, s, made).ok_or_else(|| {
                        format!("the VM plays random, greedy and mcts[:BUDGET[/ROLLOUT]] bots, not '{k}'")
                    })?;
                    bot.set_explore(explore);
                    Ok(bot)
                })
                .collect()
        })
        .collect()
}

/// How many games' bots `make_bots_of_games` best makes in one call: enough for four generators side by side.
pub fn games_made_together(kinds: &[String]) -> usize {
    let drawing = kinds.iter().filter(|k| Bot::draws(k)).count();
    (4 / drawing.max(1)).max(1)
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

/// Play the game of `seed` between `bots` (one per seat, made for that seed: `make_bots`), at most `limit`
/// decisions.
pub fn play_game(game: &Rc<Game>, mut bots: Vec<Bot>, seed: Seed, limit: u64) -> Result<Played, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A bot's first picks among many actions, drawn from its generator (no state given: greedy picks at random).
    fn picks(bot: &mut Bot) -> Vec<Rc<str>> {
        let actions: Vec<Rc<str>> = (0..1000).map(|i| Rc::from(i.to_string())).collect();
        (0..5).map(|_| bot.act(&actions, 0, None).expect("an action")).collect()
    }

    #[test]
    fn bots_made_for_many_games_at_once_are_each_games_own() {
        for kinds in [vec!["random"; 2], vec!["greedy", "random", "greedy"], vec!["random"]] {
            let kinds: Vec<String> = kinds.into_iter().map(String::from).collect();
            let seeds: Vec<Seed> = (0..7).map(|s| s * 1_000_003 - 5).collect();
            let together = make_bots_of_games(&kinds, &seeds, 0.0).expect("bots");
            assert_eq!(together.len(), seeds.len());
            for (mut game, &seed) in together.into_iter().zip(&seeds) {
                let mut alone = make_bots(&kinds, seed, 0.0).expect("bots");
                assert_eq!(game.len(), kinds.len());
                for (a, b) in game.iter_mut().zip(alone.iter_mut()) {
                    assert_eq!(picks(a), picks(b), "seed {seed}, {kinds:?}");
                }
            }
        }
    }

    #[test]
    fn enough_games_are_made_together_for_four_generators() {
        let kinds = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(games_made_together(&kinds(&["random", "random"])), 2);
        assert_eq!(games_made_together(&kinds(&["greedy"; 3])), 1);
        assert_eq!(games_made_together(&kinds(&["random"])), 4);
        assert_eq!(games_made_together(&kinds(&["mcts", "mcts"])), 4);
    }
}
