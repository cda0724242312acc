//! The per-cell storage of a [`Position`](super::Position): fixed-capacity arrays indexed by
//! cell index, and the stone codes they hold.

use connection_kit::{Parents, Words};

use crate::types::Colour;

/// The capacity of the per-cell arrays: a power of two above the largest board (469 cells)
/// plus its sentinel, so that masking an index with `CAP - 1` proves it in bounds and the
/// compiler drops the bounds checks of the hot path.
pub(super) const CAP: usize = 512;

/// A fixed-capacity per-cell array indexed by cell index (masked with `CAP - 1`).
#[derive(Clone, PartialEq, Eq)]
pub(super) struct PerCell<T: Copy>([T; CAP]);

impl<T: Copy> PerCell<T> {
    pub(super) fn filled(value: T) -> PerCell<T> {
        PerCell([value; CAP])
    }

    /// Copies the first `len` entries (the rest are never read, see
    /// [`Position::clone_from`](super::Position::clone_from)).
    pub(super) fn copy_prefix_from(&mut self, other: &PerCell<T>, len: usize) {
        let len = len.min(CAP);
        self.0[..len].copy_from_slice(&other.0[..len]);
    }

    pub(super) fn as_slice(&self, len: usize) -> &[T] {
        &self.0[..len.min(CAP)]
    }
}

impl<T: Copy> std::ops::Index<usize> for PerCell<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (CAP - 1)]
    }
}

impl<T: Copy> std::ops::IndexMut<usize> for PerCell<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (CAP - 1)]
    }
}

impl<T: Copy> AsRef<[T]> for PerCell<T> {
    fn as_ref(&self) -> &[T] {
        &self.0
    }
}

impl<T: Copy> AsMut<[T]> for PerCell<T> {
    fn as_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

/// The chains' parents, indexed as every per-cell array here (masked, no bounds check).
impl Parents for PerCell<u16> {
    type Node = u16;

    #[inline(always)]
    fn parent(&self, cell: usize) -> usize {
        usize::from(self[cell])
    }

    #[inline(always)]
    fn set_parent(&mut self, cell: usize, parent: usize) {
        self[cell] = parent as u16;
    }
}

/// The chains' sizes and corner/side masks, valid at roots: two arrays indexed as the
/// parents, so that a size or a mask is one 16-bit load.
#[derive(Clone, Debug)]
pub(super) struct ChainWords {
    size: PerCell<u16>,
    mask: PerCell<u16>,
}

impl ChainWords {
    pub(super) fn new() -> ChainWords {
        ChainWords {
            size: PerCell::filled(0),
            mask: PerCell::filled(0),
        }
    }
}

impl Words for ChainWords {
    fn len(&self) -> usize {
        CAP
    }

    #[inline(always)]
    fn mask(&self, cell: usize) -> u32 {
        u32::from(self.mask[cell])
    }

    #[inline(always)]
    fn stones(&self, cell: usize) -> usize {
        usize::from(self.size[cell])
    }

    #[inline(always)]
    fn set(&mut self, cell: usize, stones: usize, mask: u32) {
        self.size[cell] = stones as u16;
        self.mask[cell] = mask as u16;
    }

    fn clear(&mut self) {
        *self = ChainWords::new();
    }

    #[inline]
    fn copy_prefix_from(&mut self, source: &ChainWords, len: usize) {
        self.size.copy_prefix_from(&source.size, len);
        self.mask.copy_prefix_from(&source.mask, len);
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for PerCell<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[..]")
    }
}

/// The stone code of an empty cell.
pub(crate) const EMPTY: u8 = 0;
/// The stone code of the sentinel cell beyond the board: never equal to a colour's code.
pub(crate) const BORDER: u8 = 3;

/// The stone code of a colour: 1 for White, 2 for Black.
#[inline]
pub(crate) const fn code(colour: Colour) -> u8 {
    colour as u8 + 1
}
