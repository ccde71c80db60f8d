//! `Shared<T>`: an immutable, reference-counted slice behind one thin pointer — `Rc<[T]>` in half its size.
//!
//! `Rc<[T]>` is a pointer and a length: 16 bytes, which made a value (`V`) 24 bytes, so a value and its fault
//! came back from every form through memory, written in pieces and read back whole (a stall of the store buffer at
//! each). Here the count and the length sit in front of the items, in the same allocation: the pointer is 8 bytes,
//! a value 16, and a form's result comes back in two registers.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::NonNull;

/// What precedes the items: how many `Shared` point here, and how many items follow.
struct Header {
    count: Cell<usize>,
    len: usize,
}

pub struct Shared<T> {
    head: NonNull<Header>,
    /// It owns its items (for drop checking); like `Rc`, it is neither `Send` nor `Sync` (`NonNull` is neither).
    items: PhantomData<T>,
}

impl<T> Shared<T> {
    /// The allocation of `len` items, and where in it the first item lies.
    fn layout(len: usize) -> (Layout, usize) {
        let items = Layout::array::<T>(len).unwrap_or_else(|_| capacity_overflow());
        let (layout, offset) = Layout::new::<Header>()
            .extend(items)
            .unwrap_or_else(|_| capacity_overflow());
        (layout.pad_to_align(), offset)
    }

    fn header(&self) -> &Header {
        // SAFETY: `head` points to the header written in `exactly`, alive while any `Shared` of it is (the count
        // is above zero until the last is dropped); only the count is ever changed, through a `Cell`.
        unsafe { self.head.as_ref() }
    }

    fn first(&self) -> *mut T {
        let (_, offset) = Self::layout(0);
        // SAFETY: the items start `offset` bytes into the allocation (`layout`), within it or at its end when there
        // are none; the offset of the first item does not depend on their number.
        unsafe { self.head.as_ptr().cast::<u8>().add(offset).cast::<T>() }
    }

    /// Whether `a` and `b` are the very same items (not a copy of them).
    pub fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        a.head == b.head
    }

    /// Where the items lie: the same for all copies, another list's only once they are gone.
    pub fn address(&self) -> usize {
        self.head.as_ptr() as usize
    }
}

#[cold]
fn capacity_overflow() -> ! {
    panic!("a list too large to allocate")
}

impl<T> From<Vec<T>> for Shared<T> {
    fn from(items: Vec<T>) -> Shared<T> {
        let len = items.len();
        Shared::exactly(len, &mut items.into_iter())
    }
}

impl<T: Clone> From<&[T]> for Shared<T> {
    fn from(items: &[T]) -> Shared<T> {
        items.iter().cloned().collect()
    }
}

impl<T> FromIterator<T> for Shared<T> {
    /// Items whose number is known (a slice's, a drained buffer's, a map of them) go straight into the allocation;
    /// others are gathered in a `Vec` first.
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Shared<T> {
        let mut items = items.into_iter();
        match items.size_hint() {
            (low, Some(high)) if low == high => Shared::exactly(low, &mut items),
            _ => items.collect::<Vec<T>>().into(),
        }
    }
}

/// A `Shared` being filled: on a panic of the iterator filling it, its items so far are dropped and its memory given
/// back.
struct Filling<T> {
    head: NonNull<Header>,
    first: *mut T,
    written: usize,
    layout: Layout,
}

impl<T> Drop for Filling<T> {
    fn drop(&mut self) {
        // SAFETY: the first `written` items were written and are owned by nothing else; the allocation is `layout`'s.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(self.first, self.written));
            dealloc(self.head.as_ptr().cast::<u8>(), self.layout);
        }
    }
}

impl<T> Shared<T> {
    /// The items of an iterator that says it gives `len` of them; one that gives another number is gathered again.
    fn exactly(len: usize, items: &mut impl Iterator<Item = T>) -> Shared<T> {
        let (layout, offset) = Shared::<T>::layout(len);
        // SAFETY: `layout` has a size (the header's at least), as `alloc` requires.
        let raw = unsafe { alloc(layout) };
        let Some(head) = NonNull::new(raw.cast::<Header>()) else {
            handle_alloc_error(layout)
        };
        // SAFETY: the items lie `offset` bytes into the fresh allocation, room for `len` of them (`layout`).
        let first = unsafe { raw.add(offset).cast::<T>() };
        let mut filling = Filling {
            head,
            first,
            written: 0,
            layout,
        };
        while filling.written < len {
            let Some(item) = items.next() else { break };
            // SAFETY: slot `written` < `len` is within the allocation and not yet written.
            unsafe { first.add(filling.written).write(item) };
            filling.written += 1;
        }
        let more = if filling.written < len { None } else { items.next() };
        if filling.written < len || more.is_some() {
            // fewer or more than it said: move what came into a `Vec` with the rest
            let mut gathered = Vec::with_capacity(filling.written + 1);
            // SAFETY: the `written` items are moved out once; `written = 0` keeps `filling` from dropping them.
            unsafe {
                gathered.extend((0..filling.written).map(|i| first.add(i).read()));
            }
            filling.written = 0;
            drop(filling);
            gathered.extend(more);
            gathered.extend(items);
            return gathered.into();
        }
        std::mem::forget(filling);
        // SAFETY: the header goes at the start of the allocation (aligned for it: `layout` extends the header's).
        unsafe {
            head.as_ptr().write(Header {
                count: Cell::new(1),
                len,
            })
        };
        Shared {
            head,
            items: PhantomData,
        }
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Shared<T> {
        Vec::new().into()
    }
}

impl<T> Deref for Shared<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` items were written at `first()` and stay there, unchanged, until the last `Shared` drops.
        unsafe { std::slice::from_raw_parts(self.first(), self.header().len) }
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        let count = &self.header().count;
        // as `Rc`: a count that would wrap aborts (it cannot be reached without leaking clones)
        count.set(count.get().checked_add(1).unwrap_or_else(|| std::process::abort()));
        Shared {
            head: self.head,
            items: PhantomData,
        }
    }
}

impl<T> Shared<T> {
    /// Drops the items and gives the memory back: out of line, so that `drop` is a count lowered and a test, and
    /// the drop of a value that owns nothing a look at its tag (with the freeing inline, `V`'s drop saved four
    /// registers and set up a loop before it even looked).
    ///
    /// # Safety
    /// Only once the count has reached zero (in `drop`): no other `Shared` of the allocation is left.
    #[inline(never)]
    unsafe fn free(&mut self) {
        let len = self.header().len;
        // SAFETY: no one reads the items again (the caller's promise). They are dropped once, in place, and the
        // memory is given back with the layout it was allocated with (`exactly`).
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(self.first(), len));
            dealloc(self.head.as_ptr().cast::<u8>(), Shared::<T>::layout(len).0);
        }
    }
}

impl<T> Drop for Shared<T> {
    #[inline(always)]
    fn drop(&mut self) {
        let header = self.header();
        let count = header.count.get() - 1;
        header.count.set(count);
        if count == 0 {
            // SAFETY: this was the last `Shared` of the allocation, and it is being dropped.
            unsafe { self.free() }
        }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A text behind one thin pointer: the bytes of a `str`, shared as `Shared` shares them.
#[derive(Clone, Default)]
pub struct SharedStr(Shared<u8>);

impl SharedStr {
    /// Where its bytes lie: the same for its copies, another text's only once it is gone.
    pub fn address(&self) -> usize {
        self.0.address()
    }
}

impl From<&str> for SharedStr {
    fn from(text: &str) -> SharedStr {
        SharedStr(text.as_bytes().into())
    }
}

impl From<String> for SharedStr {
    fn from(text: String) -> SharedStr {
        SharedStr(text.into_bytes().into())
    }
}

impl Deref for SharedStr {
    type Target = str;

    fn deref(&self) -> &str {
        // SAFETY: the bytes are those of a `str` (the only ways to make one are from a `str` or a `String`), and
        // shared bytes are never changed.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

impl PartialEq for SharedStr {
    fn eq(&self, other: &SharedStr) -> bool {
        **self == **other
    }
}

impl Eq for SharedStr {}

impl std::fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl std::fmt::Display for SharedStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;
    use std::rc::Rc;

    #[test]
    fn a_shared_slice_is_one_word_and_keeps_its_items() {
        assert_eq!(std::mem::size_of::<Shared<u64>>(), 8);
        let a: Shared<String> = vec!["x".to_string(), "yz".to_string()].into();
        let b = a.clone();
        assert!(Shared::ptr_eq(&a, &b));
        assert_eq!(&*b, &["x".to_string(), "yz".to_string()]);
        let c: Shared<String> = a.iter().cloned().collect();
        assert!(!Shared::ptr_eq(&a, &c));
        assert_eq!(&*a, &*c);
        let empty: Shared<String> = Shared::default();
        assert!(empty.is_empty());
    }

    #[test]
    fn its_items_are_dropped_once_with_the_last_copy() {
        let item = Rc::new(7u8);
        let a: Shared<Rc<u8>> = vec![item.clone(), item.clone(), item.clone()].into();
        assert_eq!(Rc::strong_count(&item), 4);
        let b = a.clone();
        drop(a);
        assert_eq!(Rc::strong_count(&item), 4);
        drop(b);
        assert_eq!(Rc::strong_count(&item), 1);
    }

    /// An iterator that says it gives `said` items and gives `gives`.
    struct Lying {
        said: usize,
        gives: usize,
    }

    impl Iterator for Lying {
        type Item = Rc<usize>;
        fn next(&mut self) -> Option<Rc<usize>> {
            (self.gives > 0).then(|| {
                self.gives -= 1;
                Rc::new(self.gives)
            })
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.said, Some(self.said))
        }
    }

    #[test]
    fn items_are_all_kept_whatever_their_iterator_said_of_their_number() {
        for (said, gives) in [(3, 3), (3, 1), (1, 3), (0, 2), (2, 0)] {
            let a: Shared<Rc<usize>> = Lying { said, gives }.collect();
            let kept: Vec<usize> = a.iter().map(|x| **x).collect();
            assert_eq!(kept, (0..gives).rev().collect::<Vec<_>>(), "said {said}, gave {gives}");
        }
    }

    #[test]
    fn items_of_any_alignment_lie_where_they_are_read() {
        #[derive(Clone, Debug, PartialEq)]
        #[repr(align(32))]
        struct Wide(u8);
        let a: Shared<Wide> = (0..5).map(Wide).collect();
        assert_eq!(a.as_ptr() as usize % 32, 0);
        assert_eq!(a[4], Wide(4));
        let bytes: Shared<u8> = b"abc".as_slice().into();
        assert_eq!(&*bytes, b"abc");
        let text = super::SharedStr::from("é, ü".to_string());
        assert_eq!(&*text, "é, ü");
        assert_eq!(text, super::SharedStr::from("é, ü"));
    }
}
