//! The twelve symmetries of the hexagonal board.

use std::fmt;

use crate::{Board, Cell, CellSet};

/// One of the twelve symmetries of the board (6 rotations, each with or without a reflection),
/// stored as a permutation of the cells.
///
/// In cube coordinates `(q, r, t)` the reflection is `(q, r, t) -> (-q, -t, -r)`, which is
/// `(x, y) -> (y, x)` on the board (it fixes a1 and the centre and maps `Corner(i)` to
/// `Corner((6 - i) % 6)` and `Side(i)` to `Side(5 - i)`); the sixth-turn rotation is
/// `(q, r, t) -> (-r, -t, -q)`, which maps `Corner(i)` to `Corner((i + 1) % 6)` and
/// `Side(i)` to `Side((i + 1) % 6)`. Symmetry `6 * m + k` reflects `m` times, then rotates
/// `k` times.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Symmetry {
    index: u8,
    perm: Box<[Cell]>,
}

impl Symmetry {
    pub(crate) fn placeholder() -> Symmetry {
        Symmetry {
            index: 0,
            perm: Box::new([]),
        }
    }

    /// The image of `cell`.
    ///
    /// # Panics
    ///
    /// If `cell` is not a cell of the board this symmetry belongs to.
    #[inline]
    #[must_use]
    pub fn apply(&self, cell: Cell) -> Cell {
        self.perm[cell.index()]
    }

    /// The permutation: entry `i` is the image of the cell with index `i`.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Cell] {
        &self.perm
    }

    /// The image of a whole set of cells.
    #[must_use]
    pub fn apply_set(&self, set: &CellSet) -> CellSet {
        set.iter().map(|c| self.apply(c)).collect()
    }

    /// Position in [`Board::symmetries`]: `6 * reflections + rotation`.
    #[inline]
    #[must_use]
    pub fn index(&self) -> usize {
        usize::from(self.index)
    }

    /// Number of sixth-turns of the rotation, `0..6`.
    #[inline]
    #[must_use]
    pub fn rotation(&self) -> u8 {
        self.index % 6
    }

    /// Whether the symmetry includes the reflection.
    #[inline]
    #[must_use]
    pub fn is_reflection(&self) -> bool {
        self.index >= 6
    }

    /// Whether this is the identity.
    #[inline]
    #[must_use]
    pub fn is_identity(&self) -> bool {
        self.index == 0
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Symmetry")
            .field("rotation", &self.rotation())
            .field("reflection", &self.is_reflection())
            .finish_non_exhaustive()
    }
}

fn reflect((q, r, t): (i8, i8, i8)) -> (i8, i8, i8) {
    (-q, -t, -r)
}

fn rotate((q, r, t): (i8, i8, i8)) -> (i8, i8, i8) {
    (-r, -t, -q)
}

/// Builds the twelve permutations of a board whose other tables are complete.
pub(crate) fn build_all(board: &Board) -> [Symmetry; 12] {
    std::array::from_fn(|index| {
        let perm = board
            .cells()
            .map(|c| {
                let mut v = board.cube(c);
                if index >= 6 {
                    v = reflect(v);
                }
                for _ in 0..index % 6 {
                    v = rotate(v);
                }
                board
                    .from_cube(v.0, v.1, v.2)
                    .expect("the hexagon is closed under its symmetries")
            })
            .collect();
        Symmetry {
            index: index as u8,
            perm,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CellKind;

    #[test]
    fn identity_first() {
        let b = Board::new(6).unwrap();
        let id = &b.symmetries()[0];
        assert!(id.is_identity());
        assert!(b.cells().all(|c| id.apply(c) == c));
    }

    #[test]
    fn rotation_moves_corners_and_sides_forward() {
        let b = Board::new(5).unwrap();
        let rot = b.symmetry(1, false);
        assert_eq!(rot.index(), 1);
        for c in b.cells() {
            let expect = match b.kind(c) {
                CellKind::Corner(i) => CellKind::Corner((i + 1) % 6),
                CellKind::Side(i) => CellKind::Side((i + 1) % 6),
                CellKind::Inner => CellKind::Inner,
            };
            assert_eq!(b.kind(rot.apply(c)), expect);
        }
    }

    #[test]
    fn reflection_swaps_x_and_y() {
        let b = Board::new(5).unwrap();
        let refl = b.symmetry(0, true);
        assert!(refl.is_reflection() && refl.rotation() == 0);
        for c in b.cells() {
            let (x, y) = b.xy(c);
            assert_eq!(b.xy(refl.apply(c)), (y, x));
            let expect = match b.kind(c) {
                CellKind::Corner(i) => CellKind::Corner((6 - i) % 6),
                CellKind::Side(i) => CellKind::Side(5 - i),
                CellKind::Inner => CellKind::Inner,
            };
            assert_eq!(b.kind(refl.apply(c)), expect);
        }
    }

    #[test]
    fn apply_set_maps_every_member() {
        let b = Board::new(4).unwrap();
        let rot = b.symmetry(2, false);
        let set: CellSet = b.corners().into_iter().take(2).collect();
        let image = rot.apply_set(&set);
        let expect: CellSet = [b.corners()[2], b.corners()[3]].into_iter().collect();
        assert_eq!(image, expect);
    }
}
