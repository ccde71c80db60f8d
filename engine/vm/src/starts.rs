//! Cards placed as each game begins by starts that draw at random (or may fail): each card's start, a function
//! of the card (`it`), run card after card with the game's generator before the programs run, as
//! state.py `_place_starts` runs them; who knows each card is then what its zone shows (`Sight.placed`).
//! A game whose starts never draw has its places as tables of the IR (`Seats::start`) and no deal.

use crate::game::{Body, Game};
use crate::state::{Diag, Error, State, F};
use crate::value::V;
use serde_json::Value as J;
use std::rc::Rc;

/// The starts run as a game begins: per card, the function that says its zone; the file a failing start
/// is reported in.
#[derive(Debug)]
pub struct Deal {
    pub cards: Vec<u16>,
    pub path: Rc<str>,
}

/// The IR's `deal` (null: the places are in the tables), its functions checked to be expressions of the game.
pub fn read(j: &J, game_funcs: &[crate::game::Func], ncards: usize) -> Result<Option<Deal>, String> {
    let Some(deal) = j.get("deal").filter(|d| !d.is_null()) else {
        return Ok(None);
    };
    let cards = deal
        .get("cards")
        .and_then(J::as_array)
        .ok_or("the deal's cards are not a list")?;
    if cards.len() != ncards {
        return Err(format!("the deal has {} starts for {ncards} cards", cards.len()));
    }
    let start = |f: &J| {
        let i = usize::try_from(f.as_u64()?).ok()?;
        let func = game_funcs.get(i)?;
        let of_a_card = matches!(func.body, Body::Expr(_)) && func.params.len() == 2;
        u16::try_from(i).ok().filter(|_| of_a_card)
    };
    let cards = cards
        .iter()
        .map(|f| start(f).ok_or_else(|| "a start of the deal is no function of a card".to_string()))
        .collect::<Result<Vec<u16>, String>>()?;
    let path = deal
        .get("where")
        .and_then(J::as_str)
        .ok_or("the deal's file is not a text")?;
    Ok(Some(Deal {
        cards,
        path: path.into(),
    }))
}

/// Whether the IR places the cards in its tables (then every card must be placed there).
pub fn fixed(j: &J) -> bool {
    j.get("deal").is_none_or(J::is_null)
}

impl State {
    /// Every card where its start puts it, drawn with the game's generator (the draws in the history), then
    /// known as its zone shows it; a start that fails is the reference's located fault.
    pub(crate) fn place_starts(&mut self, game: &Game) -> Result<(), Error> {
        let Some(deal) = &game.deal else {
            return Ok(());
        };
        for (card, &f) in deal.cards.iter().enumerate() {
            let func = &game.funcs[usize::from(f)];
            let Body::Expr(expr) = func.body else {
                return Err(Error::Bug("a start is not an expression".into()));
            };
            let mut env = self.pool.take(V::Unset, func.nlocals);
            env[usize::from(func.params[0])] = V::Int(0);
            env[usize::from(func.params[1])] = V::Int(card as i64);
            let zone = self.value_of(game, expr, &mut env).and_then(|z| self.zone_index(&z));
            self.pool.give(env);
            let zone = zone.map_err(|f| match *f {
                F::Rule(m) | F::Failed(m) => self.unplaced(game, card, m),
                F::Overrun => self.unplaced(game, card, "calls ran out of steps".into()),
                F::Bug(m) => Error::Bug(format!("engine bug in the start of card {card}: {m}")),
                F::Scoring(d) => Error::Rule(*d),
            })?;
            self.zones.push(zone, card as u32);
            self.loc[card] = zone as u32;
        }
        let seats = self.seats();
        let everyone = self.everyone();
        let mut know = vec![0; self.loc.len()];
        for (z, cards) in self.zones.iter().enumerate() {
            for &c in cards.iter() {
                know[c as usize] = seats.masks[z];
            }
            if let (true, Some(&top)) = (seats.tops[z], cards.last()) {
                know[top as usize] = everyone;
            }
        }
        self.pinned = know.clone();
        self.know = know;
        Ok(())
    }

    fn unplaced(&self, game: &Game, card: usize, message: String) -> Error {
        let id = game.text(game.cards[card]);
        Error::Rule(Diag {
            path: game.deal.as_ref().map_or_else(String::new, |d| d.path.to_string()),
            line: 1,
            col: 1,
            code: "E701",
            message: format!("cannot place '{id}' at the start: {message}"),
        })
    }
}
