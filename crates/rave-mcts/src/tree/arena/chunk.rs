//! The memory of the arena's chunks: chunks of zeroed items (nodes or kept scores, types
//! for which all zeroes is a valid value), allocated as the operating system hands out
//! zeroed pages, and grown in place of shorter ones.

use std::sync::OnceLock;

use crate::tree::{KeptScore, Node};

/// Grows the chunk in `slot` to `wanted` items if it is allocated and shorter.
pub(super) fn grow_short<T: Zeroed>(slot: &mut OnceLock<Box<[T]>>, wanted: usize) {
    if slot.get().is_some_and(|c| c.len() < wanted)
        && let Some(old) = slot.take()
    {
        *slot = OnceLock::from(grown(Some(old), wanted));
    }
}

/// A zeroed chunk of `len` items holding the items of `old` (if any) at its start.
pub(super) fn grown<T: Zeroed>(old: Option<Box<[T]>>, len: usize) -> Box<[T]> {
    let mut new = zeroed_chunk::<T>(len);
    if let Some(mut old) = old {
        for (d, s) in new.iter_mut().zip(old.iter_mut()) {
            std::mem::swap(d, s);
        }
    }
    new
}

/// The items of the arena's chunks: types for which all zeroes is a valid value.
///
/// # Safety
/// All zeroes must be a valid value of the type.
pub(super) unsafe trait Zeroed {}

// SAFETY: all zeroes is a valid `Node<M>`: its atomics hold 0 (and `false`), and the move is
// a `MaybeUninit`, valid with any bytes (it is written by `init` before it is read).
unsafe impl<M> Zeroed for Node<M> {}
// SAFETY: a kept score is two atomic integers, valid at 0.
unsafe impl Zeroed for KeptScore {}

/// The items held by the allocated chunks of `chunks`.
pub(super) fn allocated<T>(chunks: &[OnceLock<Box<[T]>>]) -> usize {
    chunks.iter().filter_map(|c| c.get()).map(|c| c.len()).sum()
}

#[cold]
#[inline(never)]
pub(super) fn unallocated() -> ! {
    panic!("a node in a chunk that was never allocated")
}

/// A chunk of `len` zeroed items (the operating system hands out zeroed pages as they are
/// first touched, so a chunk costs only what is used of it).
pub(super) fn zeroed_chunk<T: Zeroed>(len: usize) -> Box<[T]> {
    if len == 0 {
        return Box::default();
    }
    let layout = std::alloc::Layout::array::<T>(len).expect("a chunk's size fits");
    // SAFETY: the layout has a non-zero size (`len > 0`, and nodes and kept scores hold
    // atomics). All zeroes is a valid `T` (`Zeroed`). So the zeroed allocation is `len` valid
    // items, allocated by the global allocator with the layout of `[T; len]`, which is what
    // `Box<[T]>` frees it with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<T>();
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len))
    }
}
