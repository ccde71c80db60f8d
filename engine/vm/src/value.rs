//! Values of the rule language: 16 bytes, cheap to copy (lists, records and texts made while playing are shared:
//! `Shared`), texts of the table interned.

use crate::shared::{Shared, SharedStr};
use std::rc::Rc;

/// A value of a rule program. Cards and seats are numbers (as in the reference's state JSON); zones,
/// spaces, enum members and other texts are ids into the game's string table.
///
/// The tag takes 4 bytes, a text id or a loop's index the 4 beside it, so a value is copied in whole words. With the
/// default 1-byte tag (a yes/no at byte 1, a text id at byte 4) its first 8 bytes were copied in overlapping pieces,
/// and reading them back waited on the store buffer at every value passed: a fifth of the games' time.
/// Lists, records and texts made while playing are behind one thin pointer (`Shared`), so a value is 16 bytes and a
/// form's result (`Res<V>`) comes back in two registers, not through memory.
#[derive(Debug, Default)]
#[repr(u32)]
pub enum V {
    /// A local with no value yet (never seen by rules: reading it is a fault).
    #[default]
    Unset,
    None,
    Bool(bool),
    Int(i64),
    Str(u32),
    /// A text made while playing that the game's table does not hold (never equal to a `Str`).
    Text(SharedStr),
    List(Shared<V>),
    /// A record or a map: (field name id, value) in the order written.
    Rec(Shared<(u32, V)>),
    /// A running `for`: the next index and the items (JSON `[i, items]`).
    Iter(u32, Shared<V>),
}

const _: () = assert!(std::mem::size_of::<V>() == 16);

impl Clone for V {
    /// A copy made whole, in two words: the derived clone built it field by field in memory and read it back as
    /// one, which waited on the store buffer at every argument passed.
    #[inline(always)]
    fn clone(&self) -> V {
        match self {
            V::Text(t) => std::mem::forget(t.clone()),
            V::List(items) | V::Iter(_, items) => std::mem::forget(items.clone()),
            V::Rec(fields) => std::mem::forget(fields.clone()),
            V::Unset | V::None | V::Bool(_) | V::Int(_) | V::Str(_) => {}
        }
        // SAFETY: a value of the plain variants owns nothing; one holding a shared text, list or record has just had
        // its count raised by the clone forgotten above, which the copy now owns. The copy is of a live, aligned `V`.
        unsafe { std::ptr::read(self) }
    }
}

impl V {
    /// Drops the value after a look at its tag: one of the plain variants owns nothing, so its drop (a call) is
    /// skipped. The variants are matched whole, as in `clone`, so that one added is sorted here too.
    #[inline(always)]
    pub fn discard(self) {
        match self {
            V::Text(_) | V::List(_) | V::Rec(_) | V::Iter(..) => drop(self),
            V::Unset | V::None | V::Bool(_) | V::Int(_) | V::Str(_) => std::mem::forget(self),
        }
    }

    pub fn list(items: Vec<V>) -> V {
        V::List(items.into())
    }

    pub fn is_none(&self) -> bool {
        matches!(self, V::None | V::Unset)
    }

    /// Python's truth value of the value (`empty` says whether a text id is the empty text).
    pub fn truthy(&self, empty: impl Fn(u32) -> bool) -> bool {
        match self {
            V::Unset | V::None => false,
            V::Bool(b) => *b,
            V::Int(i) => *i != 0,
            V::Str(s) => !empty(*s),
            V::Text(t) => !t.is_empty(),
            V::List(l) | V::Iter(_, l) => !l.is_empty(),
            V::Rec(r) => !r.is_empty(),
        }
    }

    /// Python's `==`: numbers and yes/no compare as numbers, records as dicts (order aside).
    pub fn same(&self, other: &V) -> bool {
        match (self, other) {
            (V::Int(a), V::Int(b)) => a == b,
            (V::Str(a), V::Str(b)) => a == b,
            (V::Text(a), V::Text(b)) => a == b,
            (V::None | V::Unset, V::None | V::Unset) => true,
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::Int(a), V::Bool(b)) | (V::Bool(b), V::Int(a)) => *a == i64::from(*b),
            (V::List(a), V::List(b)) => a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.same(y)),
            (V::Rec(a), V::Rec(b)) => {
                a.len() == b.len() && a.iter().all(|(k, x)| b.iter().any(|(k2, y)| k == k2 && x.same(y)))
            }
            (V::Iter(i, a), V::Iter(j, b)) => i == j && V::List(a.clone()).same(&V::List(b.clone())),
            _ => false,
        }
    }

    /// Equal in kind and content, fields in their order (`1` is not `yes`, a text of the table is not one made
    /// while playing): what makes two values print alike wherever they are printed.
    pub fn exact(&self, other: &V) -> bool {
        match (self, other) {
            (V::Unset, V::Unset) | (V::None, V::None) => true,
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::Int(a), V::Int(b)) => a == b,
            (V::Str(a), V::Str(b)) => a == b,
            (V::Text(a), V::Text(b)) => a == b,
            (V::List(a), V::List(b)) => exact_items(a, b),
            (V::Iter(i, a), V::Iter(j, b)) => i == j && exact_items(a, b),
            (V::Rec(a), V::Rec(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|((k, x), (j, y))| k == j && exact_item(x, y))
            }
            _ => false,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            V::Unset | V::None => "none",
            V::Bool(_) => "yes/no",
            V::Int(_) => "a number",
            V::Str(_) | V::Text(_) => "text",
            V::List(_) | V::Iter(..) => "a list",
            V::Rec(_) => "a record",
        }
    }

    pub fn field(&self, name: u32) -> Option<&V> {
        match self {
            V::Rec(r) => r.iter().find(|(k, _)| *k == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// An append-only list shared between copies of a state (the log, the history, what each seat was shown): a clone
/// shares it, and the first push after a clone copies it (copy-on-write), so copying a long game's state costs no
/// copy of its past.
#[derive(Clone, Debug)]
pub struct Journal<T: Clone>(Rc<Vec<T>>);

impl<T: Clone> Default for Journal<T> {
    fn default() -> Self {
        Journal(Rc::new(Vec::new()))
    }
}

impl<T: Clone> Journal<T> {
    pub fn push(&mut self, item: T) {
        Rc::make_mut(&mut self.0).push(item);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
}

impl<T: Clone> From<Vec<T>> for Journal<T> {
    fn from(items: Vec<T>) -> Self {
        Journal(Rc::new(items))
    }
}

fn exact_items(a: &[V], b: &[V]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| exact_item(x, y))
}

/// `x.exact(y)` for an item of a list or record: numbers and texts of the table, most items, compared here.
#[inline(always)]
fn exact_item(x: &V, y: &V) -> bool {
    match (x, y) {
        (V::Int(a), V::Int(b)) => a == b,
        (V::Str(a), V::Str(b)) => a == b,
        _ => x.exact(y),
    }
}

/// A value as a key of a map, equal by `V::exact`.
#[derive(Clone, Debug)]
pub struct Exact(pub V);

impl PartialEq for Exact {
    fn eq(&self, other: &Exact) -> bool {
        self.0.exact(&other.0)
    }
}

impl Eq for Exact {}

/// A value looked up among keys that are `Exact` without a copy of it made for the key (`map.get(v as &dyn
/// ExactKey)`): it hashes and compares as `Exact` does.
pub trait ExactKey {
    fn value(&self) -> &V;
}

impl ExactKey for V {
    fn value(&self) -> &V {
        self
    }
}

impl ExactKey for Exact {
    fn value(&self) -> &V {
        &self.0
    }
}

impl<'a> std::borrow::Borrow<dyn ExactKey + 'a> for Exact {
    fn borrow(&self) -> &(dyn ExactKey + 'a) {
        self
    }
}

impl PartialEq for dyn ExactKey + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.value().exact(other.value())
    }
}

impl Eq for dyn ExactKey + '_ {}

impl std::hash::Hash for dyn ExactKey + '_ {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        Exact::hash_value(self.value(), h);
    }
}

impl std::hash::Hash for Exact {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        Exact::hash_value(&self.0, h);
    }
}

impl Exact {
    /// What `Exact(v)` hashes to (`dyn ExactKey` hashes alike).
    fn hash_value<H: std::hash::Hasher>(v: &V, h: &mut H) {
        #[inline(always)]
        fn item<H: std::hash::Hasher>(v: &V, h: &mut H) {
            match v {
                V::Int(i) => h.write_u64(*i as u64 ^ (4 << 60)),
                V::Str(s) => h.write_u64(u64::from(*s) ^ (5 << 60)),
                other => walk(other, h),
            }
        }
        fn walk<H: std::hash::Hasher>(v: &V, h: &mut H) {
            match v {
                V::Unset => h.write_u8(0),
                V::None => h.write_u8(1),
                V::Bool(b) => h.write_u8(2 + u8::from(*b)),
                V::Int(i) => h.write_u64(*i as u64 ^ (4 << 60)),
                V::Str(s) => h.write_u64(u64::from(*s) ^ (5 << 60)),
                V::Text(t) => h.write(t.as_bytes()),
                V::List(l) | V::Iter(_, l) => {
                    h.write_usize(l.len());
                    l.iter().for_each(|x| item(x, h));
                }
                V::Rec(r) => {
                    h.write_usize(r.len() ^ (6 << 60));
                    for (k, x) in r.iter() {
                        h.write_u32(*k);
                        item(x, h);
                    }
                }
            }
        }
        walk(v, h);
    }
}
