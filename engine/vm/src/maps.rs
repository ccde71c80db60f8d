//! Maps (`map[T]`): text keys in the order first set, as the reference's dicts (ops.py's `get`, `with_key`,
//! `without_key`, `keys`, `values`, and `key in MAP`). A map is a `V::Rec`: a key of the game's table is
//! its id; a key made while playing ("a" + b), which the table does not hold, is the entry
//! (`MADE`, [the key, the value]), so that a map holds any text the rules can make and prints, saves and
//! compares as the reference's dict.

use crate::eval::py_kind;
use crate::game::{Game, Node, Op};
use crate::shared::Shared;
use crate::state::{failed, rule, Res, State, MAX_SIZE};
use crate::value::V;

/// The key id of an entry whose key was made while playing (no text of a game's table has this id).
pub const MADE: u32 = u32::MAX;

/// The key of an entry and its value.
pub fn entry(k: u32, x: &V) -> (V, &V) {
    match (k, x) {
        (MADE, V::List(pair)) if pair.len() == 2 => (pair[0].clone(), &pair[1]),
        _ => (V::Str(k), x),
    }
}

/// The entry for `key` (a text of the table or one made while playing) holding `value`.
fn make(key: &V, value: V) -> (u32, V) {
    match key {
        V::Str(k) => (*k, value),
        other => (MADE, V::list(vec![other.clone(), value])),
    }
}

/// Whether the entry `(k, x)` has the key `key`.
fn is_key(k: u32, x: &V, key: &V) -> bool {
    match key {
        V::Str(s) => k == *s,
        V::Text(t) => matches!((k, x), (MADE, V::List(pair)) if matches!(pair.first(), Some(V::Text(m)) if m == t)),
        _ => false,
    }
}

/// A key `with_key` sets: a text (an enum member, a space, a direction), or none (then it fails).
fn key_arg(key: V) -> Res<V> {
    match key {
        V::Str(_) | V::Text(_) | V::None => Ok(key),
        V::Unset => Ok(V::None),
        other => rule(format!("with_key: a key is text, not {}", py_kind(&other))),
    }
}

/// The entries of a map; none fails as the reference's dict methods fail on Python's None (`method`).
fn entries<'a>(map: &'a V, method: &str) -> Res<&'a Shared<(u32, V)>> {
    match map {
        V::Rec(r) => Ok(r),
        V::None | V::Unset if method == "in" => failed("none is not a list"),
        V::None | V::Unset => failed(format!("AttributeError: 'NoneType' object has no attribute '{method}'")),
        other => failed(format!("{} is not a map", other.kind())),
    }
}

/// `key in map`.
pub fn has(key: &V, map: &V) -> Res<bool> {
    Ok(entries(map, "in")?.iter().any(|(k, x)| is_key(*k, x, key)))
}

impl State {
    /// `get`, `with_key`, `without_key`, `keys` or `values`.
    pub(crate) fn map_op(&mut self, g: &Game, op: Op, args: &[Node], env: &mut [V]) -> Res<V> {
        let values = self.all_values(g, args, env)?;
        let map = values.first().cloned().unwrap_or(V::None);
        Ok(match op {
            Op::Get => {
                let r = entries(&map, "get")?;
                let key = values.get(1).unwrap_or(&V::None); // a key of no text is no key of the map
                r.iter()
                    .find(|(k, x)| is_key(*k, x, key))
                    .map_or(V::None, |(k, x)| entry(*k, x).1.clone())
            }
            Op::WithKey => {
                let key = key_arg(values.get(1).cloned().unwrap_or(V::None))?;
                if key.is_none() {
                    return rule("with_key: no key given");
                }
                let r = entries(&map, "in")?;
                let value = values.get(2).cloned().unwrap_or(V::None);
                let mut out: Vec<(u32, V)> = r.to_vec();
                match out.iter().position(|(k, x)| is_key(*k, x, &key)) {
                    Some(i) => out[i] = make(&key, value),
                    None if out.len() >= MAX_SIZE => {
                        return rule(format!(
                            "a map of more than {} keys is over the size budget: does a loop make it grow?",
                            crate::eval::grouped(MAX_SIZE)
                        ))
                    }
                    None => out.push(make(&key, value)),
                }
                V::Rec(out.into())
            }
            Op::WithoutKey => {
                let r = entries(&map, "items")?;
                let key = values.get(1).unwrap_or(&V::None);
                V::Rec(r.iter().filter(|(k, x)| !is_key(*k, x, key)).cloned().collect())
            }
            Op::Keys => match map {
                V::None | V::Unset => return failed("none is not a list"),
                _ => V::list(entries(&map, "keys")?.iter().map(|(k, x)| entry(*k, x).0).collect()),
            },
            _ => V::list(
                entries(&map, "values")?
                    .iter()
                    .map(|(k, x)| entry(*k, x).1.clone())
                    .collect(),
            ),
        })
    }
}
