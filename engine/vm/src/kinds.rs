//! Copies of a card as one kind (ops.py `kinds`, `card_of`): a choice among identical copies offers one
//! option per kind, and one card of the chosen kind comes back.

use crate::state::{Res, State};
use crate::value::V;

impl State {
    /// The ids of `cards` without repeats, first occurrences kept; none items are skipped.
    pub fn kinds(&self, cards: &[V]) -> Res<V> {
        let mut out: Vec<V> = vec![];
        for c in cards.iter().filter(|c| !c.is_none()) {
            let id = V::Str(self.game.cards[self.card(c, "kinds")?]);
            if !out.iter().any(|o| o.same(&id)) {
                out.push(id);
            }
        }
        Ok(V::list(out))
    }

    /// The first of `cards` whose id is `id`, none if there is none.
    pub fn card_of(&self, cards: &[V], id: &V) -> Res<V> {
        for c in cards.iter().filter(|c| !c.is_none()) {
            if V::Str(self.game.cards[self.card(c, "card_of")?]).same(id) {
                return Ok(c.clone());
            }
        }
        Ok(V::None)
    }
}
