//! Where the cards lie: every zone's cards in one array, zone after zone, each zone bottom first.
//!
//! A copy of a state copies two small arrays (a game has some dozens of cards and zones), where a zone each in an
//! allocation of its own had every copy raise a count in each zone's allocation and every drop lower it: with a
//! board of a hundred spaces, two hundred scattered writes a copy, most of a determinized copy's time. A card moved
//! shifts the cards and the zone starts between its two places by one.

use std::ops::Index;

#[derive(Clone, Debug, Default)]
pub struct Zones {
    cards: Vec<u32>,
    /// Zone `z`'s cards are `cards[starts[z]..starts[z + 1]]`; one start more than there are zones.
    starts: Vec<u32>,
}

impl Zones {
    /// The zones of `lists`, one a list, each bottom first.
    pub fn of(lists: &[Vec<u32>]) -> Zones {
        let mut starts = Vec::with_capacity(lists.len() + 1);
        starts.push(0);
        let mut cards = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        for list in lists {
            cards.extend_from_slice(list);
            starts.push(cards.len() as u32);
        }
        Zones { cards, starts }
    }

    /// How many zones there are.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What its two arrays take, in bytes (a copy allocates them).
    pub fn bytes(&self) -> usize {
        (self.cards.len() + self.starts.len()) * std::mem::size_of::<u32>()
    }

    /// Each zone's cards, zone by zone.
    pub fn iter(&self) -> impl Iterator<Item = &[u32]> {
        self.starts
            .windows(2)
            .map(|w| &self.cards[w[0] as usize..w[1] as usize])
    }

    /// Zone `z`'s cards to change in place (reordered or relabelled: as many as before).
    pub fn get_mut(&mut self, z: usize) -> &mut [u32] {
        let (from, to) = (self.starts[z] as usize, self.starts[z + 1] as usize);
        &mut self.cards[from..to]
    }

    /// `card` put on top of zone `z`.
    pub fn push(&mut self, z: usize, card: u32) {
        self.cards.insert(self.starts[z + 1] as usize, card);
        for s in &mut self.starts[z + 1..] {
            *s += 1;
        }
    }

    /// The card at `place` of zone `source` moved into zone `to` at `to_place` (counted once it has left): only
    /// the cards and the zone starts between the two places shift.
    pub fn move_card(&mut self, source: usize, place: usize, to: usize, to_place: usize) {
        let from = self.starts[source] as usize + place;
        if source < to {
            let at = self.starts[to] as usize - 1 + to_place;
            self.cards[from..=at].rotate_left(1);
            for s in &mut self.starts[source + 1..=to] {
                *s -= 1;
            }
        } else {
            let at = self.starts[to] as usize + to_place;
            if at <= from {
                self.cards[at..=from].rotate_right(1);
            } else {
                self.cards[from..=at].rotate_left(1);
            }
            for s in &mut self.starts[to + 1..=source] {
                *s += 1;
            }
        }
    }

    /// All the cards of zone `source` put on top of zone `to`, in their order.
    pub fn move_all(&mut self, source: usize, to: usize) {
        let (from, end) = (self.starts[source] as usize, self.starts[source + 1] as usize);
        let k = (end - from) as u32;
        if k == 0 || source == to {
            return;
        }
        let top = self.starts[to + 1] as usize;
        if source < to {
            // the run moves up past the zones between: they slide down by its length
            self.cards[from..top].rotate_left(k as usize);
            for s in &mut self.starts[source + 1..=to] {
                *s -= k;
            }
        } else {
            self.cards[top..end].rotate_right(k as usize);
            for s in &mut self.starts[to + 1..=source] {
                *s += k;
            }
        }
    }
}

impl Index<usize> for Zones {
    type Output = [u32];

    /// Zone `z`'s cards, bottom first.
    #[inline]
    fn index(&self, z: usize) -> &[u32] {
        &self.cards[self.starts[z] as usize..self.starts[z + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The zones as separate lists, as a state held them before.
    fn lists(z: &Zones) -> Vec<Vec<u32>> {
        z.iter().map(<[u32]>::to_vec).collect()
    }

    #[test]
    fn cards_put_on_top_and_moved_keep_every_other_zone_as_it_was() {
        let mut model: Vec<Vec<u32>> = vec![(0..10).collect(), vec![], (10..30).collect(), (30..35).collect()];
        let mut z = Zones::of(&model);
        let (mut moved, mut next) = (0, 35);
        // a seeded walk of every change, checked against plain lists after each step
        let mut state = 7u64;
        for _ in 0..2000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let r = (state >> 33) as usize;
            let (a, b) = (r % 4, (r / 4) % 4);
            match (r / 16) % 4 {
                0 | 1 if !model[a].is_empty() => {
                    let place = (r / 80) % model[a].len();
                    let card = model[a].remove(place);
                    let to_place = (r / 7) % (model[b].len() + 1);
                    model[b].insert(to_place, card);
                    z.move_card(a, place, b, to_place);
                    moved += 1;
                }
                2 => {
                    z.move_all(a, b);
                    if a != b {
                        let cards = std::mem::take(&mut model[a]);
                        model[b].extend(cards);
                    }
                }
                _ => {
                    z.get_mut(a).reverse();
                    model[a].reverse();
                    z.push(b, next);
                    model[b].push(next);
                    next += 1;
                }
            }
            assert_eq!(lists(&z), model);
            assert_eq!(z.len(), 4);
        }
        assert!(moved > 500, "the walk moved cards one by one");
    }
}
