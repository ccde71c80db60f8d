//! A board table of the IR (`distance`, `toward`, `has_tag`, a board's neighbours…: a value under a board and up
//! to three spaces, tags or directions) laid out as an array: each part of a key is a text id that indexes the
//! places of that part's keys, and the cell is found by arithmetic, not by hashing and comparing keys. Numbers and
//! texts take 4 bytes a cell, so even a large board's table of distances stays in the cache. A table whose keys
//! would fill too little of such an array is hashed instead.

use crate::game::FxMap;
use crate::value::V;

/// A table's key: the board, then its spaces, tags or directions; `NO_PART` past the table's arity.
pub type Key = [u32; 4];

/// A key's part that is not there (a table of fewer than three arguments).
pub const NO_PART: u32 = u32::MAX;

/// The most cells an array may have, and the most places one part of its keys may span: past them the table is
/// hashed.
const MOST_CELLS: usize = 1 << 24;

#[derive(Debug)]
pub struct Table(Layout);

#[derive(Debug)]
enum Layout {
    Dense(Array),
    Hashed(FxMap<Key, V>),
}

#[derive(Debug)]
struct Array {
    /// Per part of the key: `places[i][id - first[i]]` is the place of text `id` among the part's keys
    /// (`NO_PLACE` where it is none of them). A part no key has has one place, 0, for `NO_PART` (its `first`) and a
    /// stride of 0: every part is read alike, in four steps without a branch on the table's arity.
    places: [Box<[u32]>; 4],
    first: [u32; 4],
    strides: [usize; 4],
    cells: Cells,
}

const NO_PLACE: u32 = u32::MAX;

/// The cells of an array, in the narrowest kind that holds every entry; the mark of a cell with no entry is a
/// value no entry has (`NO_INT`, `NO_PART`, `V::Unset`).
#[derive(Debug)]
enum Cells {
    Ints(Box<[i32]>),
    Texts(Box<[u32]>),
    Values(Box<[V]>),
}

const NO_INT: i32 = i32::MIN;

impl Table {
    /// The table of `entries` (no key twice).
    pub fn new(entries: Vec<(Key, V)>) -> Table {
        match Table::dense(&entries) {
            Some(layout) => Table(layout),
            None => Table(Layout::Hashed(entries.into_iter().collect())),
        }
    }

    /// The array of `entries`, if it is dense enough, every part of their keys is there in all or in none, and
    /// no value is `V::Unset`.
    fn dense(entries: &[(Key, V)]) -> Option<Layout> {
        let mut places: [Box<[u32]>; 4] = Default::default();
        let mut first = [0u32; 4];
        let mut strides = [0usize; 4];
        let mut size = 1usize;
        for i in (0..4).rev() {
            let mut ids: Vec<u32> = entries.iter().map(|(k, _)| k[i]).collect();
            ids.sort_unstable();
            ids.dedup();
            let (Some(&lo), Some(&hi)) = (ids.first(), ids.last()) else {
                return None; // no entries
            };
            if hi == NO_PART {
                if lo == NO_PART {
                    places[i] = Box::new([0]); // a part no key has
                    first[i] = NO_PART;
                    continue;
                }
                return None;
            }
            let span = (hi - lo) as usize + 1;
            if span > MOST_CELLS {
                return None;
            }
            let mut part = vec![NO_PLACE; span];
            for (place, &id) in ids.iter().enumerate() {
                part[(id - lo) as usize] = place as u32;
            }
            places[i] = part.into_boxed_slice();
            first[i] = lo;
            strides[i] = size;
            size = size.checked_mul(ids.len()).filter(|&s| s <= MOST_CELLS)?;
        }
        let spans: usize = places.iter().map(|p| p.len()).sum();
        if size > 4 * entries.len() + 4096 || spans > 4 * size + 4096 {
            return None;
        }
        let at = |key: &Key| -> usize {
            (0..4)
                .map(|i| places[i][key[i].wrapping_sub(first[i]) as usize] as usize * strides[i])
                .sum()
        };
        let cells = if entries
            .iter()
            .all(|(_, v)| matches!(v, V::Int(x) if i32::try_from(*x).is_ok_and(|x| x != NO_INT)))
        {
            let mut cells = vec![NO_INT; size];
            for (k, v) in entries {
                if let V::Int(x) = v {
                    cells[at(k)] = *x as i32;
                }
            }
            Cells::Ints(cells.into_boxed_slice())
        } else if entries.iter().all(|(_, v)| matches!(v, V::Str(s) if *s != NO_PART)) {
            let mut cells = vec![NO_PART; size];
            for (k, v) in entries {
                if let V::Str(s) = v {
                    cells[at(k)] = *s;
                }
            }
            Cells::Texts(cells.into_boxed_slice())
        } else if entries.iter().all(|(_, v)| !matches!(v, V::Unset)) {
            let mut cells = vec![V::Unset; size];
            for (k, v) in entries {
                cells[at(k)] = v.clone();
            }
            Cells::Values(cells.into_boxed_slice())
        } else {
            return None;
        };
        Some(Layout::Dense(Array {
            places,
            first,
            strides,
            cells,
        }))
    }

    /// The entry under `key`, if the table has one.
    #[inline]
    pub fn get(&self, key: Key) -> Option<V> {
        match &self.0 {
            Layout::Dense(array) => {
                let at = array.cell(key)?;
                match &array.cells {
                    Cells::Ints(c) => Some(c[at]).filter(|&x| x != NO_INT).map(|x| V::Int(i64::from(x))),
                    Cells::Texts(c) => Some(c[at]).filter(|&s| s != NO_PART).map(V::Str),
                    Cells::Values(c) => Some(&c[at]).filter(|v| !matches!(v, V::Unset)).cloned(),
                }
            }
            Layout::Hashed(map) => map.get(&key).cloned(),
        }
    }

    /// Whether the table has an entry under `key`.
    pub fn contains(&self, key: Key) -> bool {
        self.get(key).is_some()
    }
}

impl Array {
    /// The cell of `key`: None if a part of it is none of the table's.
    #[inline(always)]
    fn cell(&self, key: Key) -> Option<usize> {
        let mut at = 0;
        for (((&k, part), &first), &stride) in key.iter().zip(&self.places).zip(&self.first).zip(&self.strides) {
            let place = *part.get(k.wrapping_sub(first) as usize)?;
            if place == NO_PLACE {
                return None;
            }
            at += place as usize * stride;
        }
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(parts: &[u32]) -> Key {
        let mut k = [NO_PART; 4];
        k[..parts.len()].copy_from_slice(parts);
        k
    }

    fn is_dense(t: &Table) -> bool {
        matches!(t.0, Layout::Dense(_))
    }

    #[test]
    fn a_full_table_of_numbers_is_an_array_that_answers_as_its_entries() {
        let mut entries = vec![];
        for a in 10..20 {
            for b in 30..40 {
                entries.push((key(&[7, a, b]), V::Int(i64::from(a * b) - 500)));
            }
        }
        let t = Table::new(entries.clone());
        assert!(is_dense(&t));
        for (k, v) in &entries {
            assert!(t.get(*k).is_some_and(|x| x.exact(v)));
            assert!(t.contains(*k));
        }
        for missing in [
            key(&[7, 9, 30]),
            key(&[7, 20, 30]),
            key(&[8, 10, 30]),
            key(&[7, 10]),
            key(&[7, 10, 30, 1]),
        ] {
            assert!(t.get(missing).is_none(), "{missing:?}");
            assert!(!t.contains(missing));
        }
    }

    #[test]
    fn holes_in_the_array_are_no_entries_and_each_kind_of_value_keeps_its_kind() {
        let texts = vec![(key(&[1, 5]), V::Str(3)), (key(&[1, 7]), V::Str(0))];
        let t = Table::new(texts);
        assert!(is_dense(&t));
        assert!(t.get(key(&[1, 5])).is_some_and(|v| v.exact(&V::Str(3))));
        assert!(t.get(key(&[1, 6])).is_none(), "6 lies between the keys but is none");
        let mixed = vec![
            (key(&[1, 5]), V::Bool(true)),
            (key(&[1, 6]), V::list(vec![V::Int(1)])),
            (key(&[1, 7]), V::None),
        ];
        let t = Table::new(mixed.clone());
        assert!(is_dense(&t));
        for (k, v) in &mixed {
            assert!(t.get(*k).is_some_and(|x| x.exact(v)));
        }
        let big = vec![
            (key(&[1, 5]), V::Int(i64::from(i32::MAX) + 1)),
            (key(&[1, 6]), V::Int(i64::from(NO_INT))),
        ];
        let t = Table::new(big.clone());
        for (k, v) in &big {
            assert!(
                t.get(*k).is_some_and(|x| x.exact(v)),
                "numbers past 32 bits are kept whole"
            );
        }
    }

    #[test]
    fn sparse_keys_or_keys_of_mixed_arity_are_hashed_and_answer_alike() {
        let sparse: Vec<(Key, V)> = (0..50u32)
            .map(|i| (key(&[i * 1000, i * 7919, i]), V::Int(i64::from(i))))
            .collect();
        let mixed = vec![(key(&[1, 5]), V::Int(1)), (key(&[1, 5, 6]), V::Int(2))];
        for entries in [sparse, mixed] {
            let t = Table::new(entries.clone());
            assert!(!is_dense(&t));
            for (k, v) in &entries {
                assert!(t.get(*k).is_some_and(|x| x.exact(v)));
            }
            assert!(t.get(key(&[1, 2, 3])).is_none());
        }
        assert!(Table::new(vec![]).get(key(&[1])).is_none());
    }
}
