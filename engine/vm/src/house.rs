//! A house (the rules' `house:`): a seat run by the rules' procedure, never asked, which every seat plays
//! against — each seat's result is its points set against the house's (state.py `outcome`, `Outcome.returns`).

use crate::game::Scorer;
use crate::state::{Error, State};

impl State {
    /// Each seat's result against the house: a win above its points, a draw level with them, else a loss.
    pub fn against_house(&mut self, house: &Scorer) -> Result<Vec<&'static str>, Error> {
        let sign = self.game.signs.first().copied().unwrap_or(1);
        let bar = self.evaluate(house, 0)? * sign;
        (0..self.n)
            .map(|p| {
                let key = self.score_of(p)? * sign;
                Ok(if key > bar {
                    "win"
                } else if key == bar {
                    "draw"
                } else {
                    "loss"
                })
            })
            .collect()
    }
}

/// Per-seat returns against a house: each seat on its own, +1 for a win, −1 for a loss, 0 for a draw.
pub fn returns(results: &[&str]) -> Vec<f64> {
    results
        .iter()
        .map(|r| match *r {
            "win" => 1.0,
            "loss" => -1.0,
            _ => 0.0,
        })
        .collect()
}
