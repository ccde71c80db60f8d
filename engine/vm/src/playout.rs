//! Whole games between random bots in one call: no Python between steps.

use crate::game::Game;
use crate::rng;
use crate::state::{Error, State};
use std::rc::Rc;

/// How one game ended.
pub struct Played {
    pub seed: i64,
    pub scores: Vec<i64>,
    pub results: Vec<&'static str>,
    pub reason: Rc<str>,
    pub decisions: u64,
}

/// Play a game from `seed` to its end, every seat choosing uniformly at random with its own stream.
pub fn random_game(game: &Rc<Game>, players: usize, seed: i64) -> Result<Played, Error> {
    let mut st = State::new(game.clone(), players, seed)?;
    st.keep_log = false;
    let mut bot = rng::seed_state(seed ^ 0x5EED_B075);
    let mut decisions = 0u64;
    while let Some(p) = st.pending.clone() {
        let i = rng::below(&mut bot, p.ids.len() as u64) as usize;
        st.apply_index(i)?;
        decisions += 1;
    }
    let scores = st.scores()?;
    let results = st.outcome()?.unwrap_or_default();
    Ok(Played {
        seed,
        scores,
        results,
        reason: st.reason_text(),
        decisions,
    })
}
