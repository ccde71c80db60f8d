//! The allocator: mimalloc, asked for a plain block wherever a plain block is aligned enough.
//!
//! The `mimalloc` crate asks `mi_malloc_aligned` for every block, which checks the alignment of the block it
//! finds before it hands it out; a plain `mi_malloc` does not. The VM makes about 15 blocks a decision.

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// C's `alignof(max_align_t)` on the targets the crate builds for, mimalloc's `MI_MAX_ALIGN_SIZE`.
const MALLOC_ALIGN: usize = 16;

pub struct Mimalloc;

/// Whether a plain block of `layout.size()` bytes is aligned for `layout`: `malloc`, which `mi_malloc` stands in
/// for, aligns a block for any object of its size with a fundamental alignment (at most `MALLOC_ALIGN`); an
/// object can need no more alignment than its size. The test Rust's own `System` allocator makes of `malloc`.
fn plain(layout: &Layout) -> bool {
    layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size()
}

// SAFETY: each method hands its arguments to the mimalloc call that allocates, frees or resizes alike: a plain
// call only where `plain` holds, so the block is aligned as `layout` asks (see `plain`), an `_aligned` call with
// `layout.align()` otherwise. `mi_free` frees a block of any of them; `mi_realloc` keeps the plain alignment of
// a plain block and `mi_realloc_aligned` the alignment asked. A null pointer is returned as the failure it is.
unsafe impl GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(&layout) {
            mi_malloc(layout.size()).cast()
        } else {
            mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(&layout) {
            mi_zalloc(layout.size()).cast()
        } else {
            mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi_free(ptr.cast::<c_void>());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        if plain(&new) {
            mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_is_aligned_as_its_layout_asks_when_made_grown_and_shrunk() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (1..=300).chain([1000, 4096, 70_000]) {
                let layout = Layout::from_size_align(size, align).expect("a layout");
                // SAFETY: each block is made with `layout`, written within its size, resized and freed with the
                // layout it has then, once.
                unsafe {
                    let p = a.alloc(layout);
                    let z = a.alloc_zeroed(layout);
                    assert!(!p.is_null() && !z.is_null());
                    assert_eq!(
                        (p as usize % align, z as usize % align),
                        (0, 0),
                        "size {size} align {align}"
                    );
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    p.write_bytes(7, size);
                    let grown = a.realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "grown: size {size} align {align}");
                    assert!((0..size).all(|i| *grown.add(i) == 7));
                    let big = Layout::from_size_align(size * 3, align).expect("a layout");
                    let shrunk = a.realloc(grown, big, size.div_ceil(2));
                    assert_eq!(shrunk as usize % align, 0, "shrunk: size {size} align {align}");
                    a.dealloc(
                        shrunk,
                        Layout::from_size_align(size.div_ceil(2), align).expect("a layout"),
                    );
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
