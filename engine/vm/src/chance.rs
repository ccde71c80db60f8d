//! Explicit chance (state.py `randbelow`, `shuffle` and `_drawn` with `draws`): a call given the outcomes of
//! the rules' draws takes them in order instead of the generator's, so that a tool (OpenSpiel's chance nodes)
//! chooses what chance does. When they run out, the call stops with the draw it came to (its kind and number of
//! outcomes, the reference's `ChanceEvent`); the caller works on a copy and keeps the state as it was.

use crate::rng;
use crate::state::{Error, Res, State, F};

/// The outcomes given to one call, the next one to take, and why the call stopped if a draw stopped it.
#[derive(Clone, Debug, Default)]
pub struct Draws {
    outcomes: Vec<i64>,
    next: usize,
    stop: Option<Stop>,
}

/// Why a draw stopped the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The outcomes ran out at a draw of this kind ("random" or "shuffle") and number of outcomes.
    Needed(&'static str, u64),
    /// An outcome that is none of the draw's, in the reference's words.
    Refused(String),
}

/// How a call with explicit chance failed.
#[derive(Debug)]
pub enum Drawn {
    Stopped(Stop),
    Failed(Error),
}

impl Draws {
    /// The next outcome for a draw of `kind` among `of`; once they are used up (or one was refused) the run is
    /// cut short as an engine fault cuts it (nothing catches one), and the caller reads why from `stop`.
    fn take(&mut self, kind: &'static str, of: u64) -> Res<u64> {
        if self.stop.is_none() {
            match self.outcomes.get(self.next) {
                None => self.stop = Some(Stop::Needed(kind, of)),
                Some(&o) if o >= 0 && (o as u64) < of => {
                    self.next += 1;
                    return Ok(o as u64);
                }
                Some(o) => self.stop = Some(Stop::Refused(format!("no outcome {o} of a draw of {of} ({kind})"))),
            }
        }
        Err(Box::new(F::Bug("a draw past the outcomes given".into())))
    }
}

impl State {
    /// A draw of `kind` among `of` outcomes (`of` > 0): the next outcome given, or else the generator's.
    #[inline]
    pub fn draw(&mut self, kind: &'static str, of: u64) -> Res<u64> {
        match &mut self.draws {
            None => Ok(rng::below(&mut self.rng, of)),
            Some(d) => d.take(kind, of),
        }
    }

    /// Zone `z` shuffled: Fisher–Yates, one draw of "shuffle" per place from the whole down (`rng::shuffle`
    /// where no outcomes are given).
    #[inline]
    pub fn shuffle_zone(&mut self, z: usize) -> Res<()> {
        let cards = self.zones.get_mut(z);
        match &mut self.draws {
            None => rng::shuffle(&mut self.rng, cards),
            Some(d) => {
                for n in (2..=cards.len()).rev() {
                    let j = d.take("shuffle", n as u64)?;
                    cards.swap(n - 1, j as usize);
                }
            }
        }
        Ok(())
    }
}

/// Run `call` on `st` with the rules' draws taking `outcomes` in order: each must be drawn, and none is left
/// over (the reference's `_all_drawn`). `st` is the caller's copy: after a failure it is to be dropped.
pub fn drawn(
    st: &mut State,
    outcomes: Vec<i64>,
    call: impl FnOnce(&mut State) -> Result<(), Error>,
) -> Result<(), Drawn> {
    st.draws = Some(Box::new(Draws {
        outcomes,
        ..Draws::default()
    }));
    let done = call(st);
    let d = st.draws.take().expect("the draws stay set while the call runs");
    if let Some(stop) = d.stop {
        return Err(Drawn::Stopped(stop));
    }
    done.map_err(Drawn::Failed)?;
    let left = d.outcomes.len() - d.next;
    if left > 0 {
        return Err(Drawn::Failed(Error::State(format!(
            "{left} outcome(s) given but not drawn: the rules drew fewer times"
        ))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(outcomes: &[i64]) -> Draws {
        Draws {
            outcomes: outcomes.to_vec(),
            ..Draws::default()
        }
    }

    #[test]
    fn outcomes_are_taken_in_order_then_the_next_draw_is_asked_for() {
        let mut d = draws(&[2, 0]);
        assert_eq!(d.take("random", 3).ok(), Some(2));
        assert_eq!(d.take("shuffle", 5).ok(), Some(0));
        assert!(d.take("shuffle", 4).is_err());
        assert_eq!(d.stop, Some(Stop::Needed("shuffle", 4)));
        assert!(d.take("random", 9).is_err(), "a stopped call draws nothing more");
        assert_eq!(d.stop, Some(Stop::Needed("shuffle", 4)));
    }

    #[test]
    fn an_outcome_out_of_range_is_refused_in_the_references_words() {
        for (o, of) in [(3, 3), (-1, 2)] {
            let mut d = draws(&[o]);
            assert!(d.take("random", of).is_err());
            let want = format!("no outcome {o} of a draw of {of} (random)");
            assert_eq!(d.stop, Some(Stop::Refused(want)));
        }
    }
}
