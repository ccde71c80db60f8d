//! Dice (a component kind with `faces:`), with the reference's meaning (ops.py `roll`, `face`, `faces`,
//! `showing`; sight.py `Sight.rolled`, `_reroll`): each roll a chance event drawn from the state's generator
//! as the reference draws it, seen by the seats that see where the die lies; a determinized copy rolls again
//! the dice whose faces its seat does not know.

use crate::game::Game;
use crate::json::json_value;
use crate::shared::Shared;
use crate::state::{rule, Error, Hist, Res, State};
use crate::value::V;
use serde_json::Value as J;
use std::rc::Rc;

/// What each card shows at the start: a die its first face, any other card none; empty in a game
/// without dice.
pub fn initial_faces(game: &Game) -> Rc<Vec<V>> {
    Rc::new(
        game.dice
            .iter()
            .map(|f| f.as_ref().map_or(V::None, |f| f[0].clone()))
            .collect(),
    )
}

impl State {
    /// Whether card `c` is a die.
    pub fn is_die(&self, c: usize) -> bool {
        self.game.dice.get(c).is_some_and(Option::is_some)
    }

    /// The die `v` and its faces, or the reference's fault for none or a card that is no die.
    fn die(&self, v: &V) -> Res<(usize, Shared<V>)> {
        let what = if v.is_none() {
            "no die given".to_string()
        } else {
            let c = self.card(v, "a die")?;
            match self.game.dice.get(c).and_then(Option::as_ref) {
                Some(faces) => return Ok((c, faces.clone())),
                None => format!("'{}' is not a die", self.game.text(self.game.cards[c])),
            }
        };
        rule(format!(
            "{what}: only a component kind with faces: is rolled and shows a face"
        ))
    }

    /// Roll each of `dice` in order: one of its faces at random, seen by those who see where it lies.
    pub fn roll(&mut self, dice: &[V]) -> Res<()> {
        for v in dice {
            let (die, faces) = self.die(v)?;
            let of = faces.len() as u64;
            let index = self.draw("random", of)?;
            Rc::make_mut(&mut self.faces)[die] = faces[index as usize].clone();
            let seeing = self.rolled(die);
            let seen =
                (seeing != self.everyone()).then(|| (0..self.n as u32).filter(|p| seeing >> p & 1 != 0).collect());
            self.happened(Hist::Roll {
                die: die as u32,
                of,
                index: Some(index),
                seen,
            });
            self.changed();
        }
        Ok(())
    }

    /// `die` was rolled where it lies: those who see its zone (all, on top of a `top` zone) know its new
    /// face, and nobody else; their bit mask.
    fn rolled(&mut self, die: usize) -> u32 {
        let zone = self.loc[die] as usize;
        let everyone = self.everyone();
        let seats = self.seats();
        let seeing = if seats.tops[zone] && self.zones[zone].last() == Some(&(die as u32)) {
            everyone
        } else {
            seats.masks[zone]
        };
        self.know[die] = seeing;
        self.pinned[die] = seeing;
        seeing
    }

    pub fn face(&self, die: &V) -> Res<V> {
        let (die, _) = self.die(die)?;
        Ok(self.faces[die].clone())
    }

    pub fn faces_of(&self, dice: &[V]) -> Res<V> {
        Ok(V::list(dice.iter().map(|d| self.face(d)).collect::<Res<_>>()?))
    }

    /// The dice of `dice` that show `face`.
    pub fn showing(&self, dice: &[V], face: &V) -> Res<V> {
        let mut out = vec![];
        for d in dice {
            if self.face(d)?.same(face) {
                out.push(d.clone());
            }
        }
        Ok(V::list(out))
    }

    /// In a copy for `seat`: the dice whose faces it does not know rolled again, each face as likely.
    pub fn reroll(&mut self, seat: u32, shuffler: &mut crate::rng::Deal) {
        let game = self.game.clone();
        for (die, options) in game.dice.iter().enumerate() {
            if let Some(options) = options {
                if self.know[die] & (1 << seat) == 0 {
                    Rc::make_mut(&mut self.faces)[die] = options[shuffler.pick(options.len() as u64) as usize].clone();
                }
            }
        }
    }
}

fn refused<T>(why: &str) -> Result<T, Error> {
    Err(Error::State(format!("not a saved state: {why}")))
}

/// A roll in a saved history: {chance: "roll", die, of, index, seen?} (the index left out where a copy's
/// seat did not see it).
pub fn roll_entry(h: &J, ncards: usize) -> Result<Hist, Error> {
    let (Some(die), Some(of)) = (h.get("die").and_then(J::as_u64), h.get("of").and_then(J::as_u64)) else {
        return refused("a roll of no die");
    };
    if die as usize >= ncards {
        return refused("a roll of no die");
    }
    let seen = match h.get("seen") {
        None => None,
        Some(s) => Some(
            s.as_array()
                .and_then(|s| {
                    s.iter()
                        .map(|p| p.as_u64().map(|p| p as u32))
                        .collect::<Option<Rc<[u32]>>>()
                })
                .ok_or_else(|| Error::State("not a saved state: who saw a roll".into()))?,
        ),
    };
    Ok(Hist::Roll {
        die: die as u32,
        of,
        index: h.get("index").and_then(J::as_u64),
        seen,
    })
}

/// The faces of a saved state's dice (its `faces`): one per card, each die's one of its own faces.
pub fn faces_from(game: &Game, faces: Option<&J>) -> Result<Rc<Vec<V>>, Error> {
    if game.dice.is_empty() {
        return Ok(Rc::new(vec![]));
    }
    let Some(faces) = faces.and_then(J::as_array).filter(|f| f.len() == game.dice.len()) else {
        return refused("bad faces of the dice");
    };
    let mut out = Vec::with_capacity(faces.len());
    for (f, options) in faces.iter().zip(&game.dice) {
        let face = json_value(game, f)?;
        let fits = match options {
            None => face.is_none(),
            Some(options) => options.iter().any(|o| o.same(&face)),
        };
        if !fits {
            return refused("bad faces of the dice");
        }
        out.push(face);
    }
    Ok(Rc::new(out))
}
