//! A fixed-capacity set of cells.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Sub, SubAssign};

use crate::Cell;

const WORDS: usize = 8;

/// A set of cells as a fixed 512-bit bitset: `Copy`, no heap, room for every cell of the
/// largest board (469 cells at size 13) and its sentinel.
///
/// ```
/// use havannah_board::{Board, CellSet};
/// let board = Board::new(4)?;
/// let corners: CellSet = board.corners().into_iter().collect();
/// let mut near = CellSet::new();
/// near.extend(board.neighbours(board.centre()).iter().copied());
/// near.insert(board.corners()[0]);
/// assert_eq!((corners & near).len(), 1);
/// assert_eq!((corners | near).len(), 6 + 6);
/// # Ok::<(), havannah_board::BoardError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    /// How many distinct cell indices fit: indices `0..CAPACITY`.
    pub const CAPACITY: usize = WORDS * 64;

    /// The empty set.
    #[must_use]
    pub const fn new() -> CellSet {
        CellSet { words: [0; WORDS] }
    }

    /// The empty set (same as [`CellSet::new`]).
    #[must_use]
    pub const fn empty() -> CellSet {
        CellSet::new()
    }

    #[inline]
    fn split(cell: Cell) -> (usize, u64) {
        let i = cell.index();
        (i / 64, 1u64 << (i % 64))
    }

    /// Adds `cell`; returns whether it was new.
    ///
    /// # Panics
    ///
    /// If `cell.index() >= CellSet::CAPACITY` (never for cells of a board, sentinel included).
    #[inline]
    pub fn insert(&mut self, cell: Cell) -> bool {
        let (w, bit) = Self::split(cell);
        let was = self.words[w] & bit != 0;
        self.words[w] |= bit;
        !was
    }

    /// Removes `cell`; returns whether it was present.
    #[inline]
    pub fn remove(&mut self, cell: Cell) -> bool {
        let (w, bit) = Self::split(cell);
        match self.words.get_mut(w) {
            Some(word) => {
                let was = *word & bit != 0;
                *word &= !bit;
                was
            }
            None => false,
        }
    }

    /// Whether `cell` is in the set.
    #[inline]
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        let (w, bit) = Self::split(cell);
        self.words.get(w).is_some_and(|word| word & bit != 0)
    }

    /// Number of cells in the set.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Removes every cell.
    pub fn clear(&mut self) {
        self.words = [0; WORDS];
    }

    /// The smallest cell, if any.
    #[must_use]
    pub fn first(&self) -> Option<Cell> {
        self.iter().next()
    }

    /// The cells in ascending index order.
    #[must_use]
    pub fn iter(&self) -> Iter {
        Iter {
            words: self.words,
            word: 0,
            left: self.len(),
        }
    }

    fn zip(&self, other: &CellSet, f: impl Fn(u64, u64) -> u64) -> CellSet {
        CellSet {
            words: std::array::from_fn(|i| f(self.words[i], other.words[i])),
        }
    }

    /// Cells in either set.
    #[must_use]
    pub fn union(&self, other: &CellSet) -> CellSet {
        self.zip(other, |a, b| a | b)
    }

    /// Cells in both sets.
    #[must_use]
    pub fn intersection(&self, other: &CellSet) -> CellSet {
        self.zip(other, |a, b| a & b)
    }

    /// Cells in `self` but not in `other`.
    #[must_use]
    pub fn difference(&self, other: &CellSet) -> CellSet {
        self.zip(other, |a, b| a & !b)
    }

    /// Cells in exactly one of the sets.
    #[must_use]
    pub fn symmetric_difference(&self, other: &CellSet) -> CellSet {
        self.zip(other, |a, b| a ^ b)
    }

    /// Whether every cell of `self` is in `other`.
    #[must_use]
    pub fn is_subset(&self, other: &CellSet) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .all(|(a, b)| a & !b == 0)
    }

    /// Whether the sets share no cell.
    #[must_use]
    pub fn is_disjoint(&self, other: &CellSet) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & b == 0)
    }
}

/// Iterator over a [`CellSet`] in ascending order (a copy of the set is taken).
#[derive(Clone, Debug)]
pub struct Iter {
    words: [u64; WORDS],
    word: usize,
    left: usize,
}

impl Iterator for Iter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                self.left -= 1;
                return Some(Cell::from_index(
                    self.word * 64 + w.trailing_zeros() as usize,
                ));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter {}
impl std::iter::FusedIterator for Iter {}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl IntoIterator for &CellSet {
    type Item = Cell;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::new();
        set.extend(iter);
        set
    }
}

impl Extend<Cell> for CellSet {
    fn extend<I: IntoIterator<Item = Cell>>(&mut self, iter: I) {
        for c in iter {
            self.insert(c);
        }
    }
}

impl<'a> Extend<&'a Cell> for CellSet {
    fn extend<I: IntoIterator<Item = &'a Cell>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

macro_rules! set_op {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $method:ident) => {
        impl $Op for CellSet {
            type Output = CellSet;
            fn $op(self, rhs: CellSet) -> CellSet {
                self.$method(&rhs)
            }
        }
        impl $OpAssign for CellSet {
            fn $op_assign(&mut self, rhs: CellSet) {
                *self = self.$method(&rhs);
            }
        }
    };
}

set_op!(BitOr, bitor, BitOrAssign, bitor_assign, union);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, intersection);
set_op!(
    BitXor,
    bitxor,
    BitXorAssign,
    bitxor_assign,
    symmetric_difference
);
set_op!(Sub, sub, SubAssign, sub_assign, difference);

/// Lists the cell indices.
impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Cell::index)).finish()
    }
}

/// Serialized as the ascending list of cell indices.
#[cfg(feature = "serde")]
impl serde::Serialize for CellSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(Cell::raw))
    }
}

/// Accepts a list of cell indices below [`CellSet::CAPACITY`] (duplicates are merged).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for CellSet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<CellSet, D::Error> {
        let raw = <Vec<u16> as serde::Deserialize>::deserialize(deserializer)?;
        let mut set = CellSet::new();
        for r in raw {
            if usize::from(r) >= CellSet::CAPACITY {
                return Err(serde::de::Error::custom(format_args!(
                    "cell index {r} does not fit in a CellSet (capacity {})",
                    CellSet::CAPACITY
                )));
            }
            set.insert(Cell::from_raw(r));
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ix: &[usize]) -> CellSet {
        ix.iter().map(|&i| Cell::from_index(i)).collect()
    }

    fn indices(s: &CellSet) -> Vec<usize> {
        s.iter().map(Cell::index).collect()
    }

    #[test]
    fn insert_remove_contains() {
        let mut s = CellSet::new();
        assert!(s.is_empty() && s.first().is_none());
        assert_eq!(s.len(), 0);
        assert!(s.insert(Cell::from_index(469)));
        assert!(!s.insert(Cell::from_index(469)));
        assert!(s.insert(Cell::from_index(0)));
        assert!(s.insert(Cell::from_index(64)));
        assert!(s.insert(Cell::from_index(511)));
        assert_eq!(s.len(), 4);
        assert!(s.contains(Cell::from_index(64)));
        assert!(!s.contains(Cell::from_index(63)));
        assert!(!s.contains(Cell::from_index(5000)));
        assert!(!s.remove(Cell::from_index(5000)));
        assert_eq!(indices(&s), [0, 64, 469, 511]);
        assert_eq!(s.first(), Some(Cell::from_index(0)));
        assert!(s.remove(Cell::from_index(0)));
        assert!(!s.remove(Cell::from_index(0)));
        assert_eq!(indices(&s), [64, 469, 511]);
        assert_eq!(s.iter().len(), 3);
        s.clear();
        assert!(s.is_empty());
        assert_eq!(CellSet::empty(), CellSet::new());
    }

    #[test]
    #[should_panic]
    fn insert_beyond_capacity_panics() {
        CellSet::new().insert(Cell::from_index(CellSet::CAPACITY));
    }

    #[test]
    fn set_algebra() {
        let a = set(&[1, 2, 3, 100, 300]);
        let b = set(&[3, 4, 100, 400]);
        assert_eq!(indices(&(a | b)), [1, 2, 3, 4, 100, 300, 400]);
        assert_eq!(indices(&(a & b)), [3, 100]);
        assert_eq!(indices(&(a - b)), [1, 2, 300]);
        assert_eq!(indices(&(a ^ b)), [1, 2, 4, 300, 400]);
        assert_eq!(a.union(&b), a | b);
        assert_eq!(a.intersection(&b), a & b);
        let mut c = a;
        c |= b;
        c &= set(&[1, 4, 7]);
        assert_eq!(indices(&c), [1, 4]);
        c ^= set(&[4, 5]);
        assert_eq!(indices(&c), [1, 5]);
        c -= set(&[5]);
        assert_eq!(indices(&c), [1]);
        assert!(c.is_subset(&a) && !a.is_subset(&c));
        assert!(set(&[7]).is_disjoint(&a) && !a.is_disjoint(&b));
    }

    #[test]
    fn extend_and_debug() {
        let mut s = CellSet::new();
        s.extend([Cell::from_index(9), Cell::from_index(2)]);
        s.extend(&[Cell::from_index(2), Cell::from_index(70)]);
        assert_eq!(format!("{s:?}"), "{2, 9, 70}");
        let collected: Vec<Cell> = s.into_iter().collect();
        assert_eq!(collected.len(), 3);
        let mut n = 0;
        for c in &s {
            assert!(s.contains(c));
            n += 1;
        }
        assert_eq!(n, 3);
    }
}
