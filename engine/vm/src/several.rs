//! Choosing several things at once (engine/runtime/subsets.py): the options are every list of LOW to HIGH
//! of the items, each item at most once, members in the order of their ids, one option per id.

use crate::eval::{grouped, int};
use crate::game::{Choose, Game};
use crate::shared::Shared;
use crate::state::{rule, Res, State};
use crate::value::V;
use std::collections::HashSet;
use std::rc::Rc;

/// Ways to choose that one decision may weigh (subsets.py's `MAX_WAYS`).
const MAX_WAYS: u128 = 10_000;

impl State {
    /// The options of `c` from its `items`: the items themselves, or for choosing several their lists.
    pub(crate) fn several(&mut self, g: &Game, c: &Choose, items: Shared<V>, env: &mut [V]) -> Res<Shared<V>> {
        let Some(s) = &c.several else {
            return Ok(items);
        };
        let n = items.len() as i64;
        let low = match s.low {
            Some(e) => int(&self.value_of(g, e, env)?, "the least to choose")?.max(0),
            None => 0,
        };
        let high = match s.high {
            Some(e) => int(&self.value_of(g, e, env)?, "the most to choose")?.min(n),
            None => n,
        };
        let ways = (low..=high).fold(0u128, |sum, k| sum.saturating_add(comb(n as u128, k as u128)));
        if ways > MAX_WAYS {
            return rule(format!(
                "choosing {low} to {high} of {n} items makes {} options, more than {}",
                grouped(ways),
                grouped(MAX_WAYS)
            ));
        }
        let labels: Vec<Rc<str>> = items
            .iter()
            .map(|x| {
                let mut out = String::new();
                self.label(x, &s.label, &mut out);
                out.into()
            })
            .collect();
        let (mut out, mut seen) = (vec![], HashSet::new());
        for k in low..=high {
            let mut combo: Vec<usize> = (0..k as usize).collect();
            loop {
                let mut members = combo.clone();
                members.sort_by(|a, b| labels[*a].cmp(&labels[*b]));
                let key: Vec<Rc<str>> = members.iter().map(|i| labels[*i].clone()).collect();
                if seen.insert(key) {
                    out.push(V::list(members.iter().map(|i| items[*i].clone()).collect()));
                }
                if !next_combination(&mut combo, items.len()) {
                    break;
                }
            }
        }
        Ok(out.into())
    }
}

/// Steps `combo` (indices, increasing) to the next combination of its size out of `n` in Python's
/// `itertools.combinations` order; false after the last.
fn next_combination(combo: &mut [usize], n: usize) -> bool {
    let k = combo.len();
    let Some(i) = (0..k).rev().find(|&i| combo[i] != i + n - k) else {
        return false;
    };
    combo[i] += 1;
    for j in i + 1..k {
        combo[j] = combo[j - 1] + 1;
    }
    true
}

/// n choose k, as large as it gets (a sum beyond the limit only needs to be beyond it).
fn comb(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = match c.checked_mul(n - i) {
            Some(x) => x / (i + 1),
            None => return u128::MAX,
        };
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_come_in_pythons_order() {
        let mut combo = vec![0, 1];
        let mut seen = vec![combo.clone()];
        while next_combination(&mut combo, 4) {
            seen.push(combo.clone());
        }
        assert_eq!(
            seen,
            vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]
        );
        assert!(!next_combination(&mut [], 3));
    }

    #[test]
    fn counts_print_grouped_and_never_overflow() {
        assert_eq!(grouped(8_192), "8,192");
        assert_eq!(grouped(1_048_576), "1,048,576");
        assert_eq!(comb(5, 2), 10);
        assert_eq!(comb(3, 5), 0);
        assert_eq!(comb(1_000, 500), u128::MAX);
    }
}
