//! Cells, their names and their kinds.

use std::fmt;

/// A cell of a board, as a dense index `0..board.num_cells()`.
///
/// Cells are numbered row by row (`y` ascending, then `x` ascending), so index order is the
/// order of [`Board::cells`](crate::Board::cells). The index `num_cells` itself is the
/// board's [sentinel](crate::Board::sentinel), which stands for "no cell" in the padded
/// neighbour table. A `Cell` does not know its board: use it with the board it came from.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Cell(u16);

impl Cell {
    /// The cell with dense index `index`, unchecked against any board (use
    /// [`Board::cell_from_index`](crate::Board::cell_from_index) for a checked conversion).
    ///
    /// # Panics
    ///
    /// If `index` does not fit in a `u16` (no board comes near that).
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Cell {
        assert!(index <= u16::MAX as usize, "cell index does not fit in u16");
        Cell(index as u16)
    }

    /// The dense index of the cell, for indexing per-cell arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell with raw index `raw` (unchecked, like [`Cell::from_index`]).
    #[inline]
    #[must_use]
    pub const fn from_raw(raw: u16) -> Cell {
        Cell(raw)
    }

    /// The raw `u16` index.
    #[inline]
    #[must_use]
    pub const fn raw(self) -> u16 {
        self.0
    }
}

impl From<Cell> for usize {
    #[inline]
    fn from(cell: Cell) -> usize {
        cell.index()
    }
}

/// The printable name of a cell, such as `h8`: the column letter `'a' + x` followed by the row
/// number `y + 1`. Made by [`Board::cell_name`](crate::Board::cell_name); small and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct CellName {
    x: u8,
    y: u8,
}

impl CellName {
    pub(crate) const fn new(x: u8, y: u8) -> CellName {
        CellName { x, y }
    }

    /// The column letter, `'a'` for column 0.
    #[must_use]
    pub const fn letter(self) -> char {
        (b'a' + self.x) as char
    }

    /// The row number as written, starting at 1.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.y + 1
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Pad as a whole so `{:>4}` works on names.
        let mut buf = [0u8; 3];
        buf[0] = b'a' + self.x;
        let n = self.number();
        let len = if n >= 10 {
            buf[1] = b'0' + n / 10;
            buf[2] = b'0' + n % 10;
            3
        } else {
            buf[1] = b'0' + n;
            2
        };
        // The buffer holds ASCII only.
        f.pad(std::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

/// Where a cell lies on the board: one of the six corners, on one of the six sides (corners
/// excluded), or inside.
///
/// Corners are numbered as in the crate docs: `Corner(0)` = a1 = (0, 0),
/// `Corner(1)` = (s-1, 0), `Corner(2)` = (2s-2, s-1), `Corner(3)` = (2s-2, 2s-2),
/// `Corner(4)` = (s-1, 2s-2), `Corner(5)` = (0, s-1). `Side(i)` lies between `Corner(i)` and
/// `Corner((i + 1) % 6)`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CellKind {
    /// Corner `i`, `i` in `0..6`.
    Corner(u8),
    /// A cell of side `i` (not a corner), `i` in `0..6`.
    Side(u8),
    /// Any other cell.
    Inner,
}

impl CellKind {
    /// Whether this is a corner.
    #[must_use]
    pub const fn is_corner(self) -> bool {
        matches!(self, CellKind::Corner(_))
    }

    /// Whether this is a side cell (corners are not side cells).
    #[must_use]
    pub const fn is_side(self) -> bool {
        matches!(self, CellKind::Side(_))
    }

    /// The 12-bit edge mask of this kind: bit `i` for `Corner(i)`, bit `6 + i` for `Side(i)`,
    /// 0 for inner cells.
    #[must_use]
    pub const fn edge_mask(self) -> u16 {
        match self {
            CellKind::Corner(i) => 1 << i,
            CellKind::Side(i) => 1 << (6 + i),
            CellKind::Inner => 0,
        }
    }
}

impl fmt::Display for CellKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellKind::Corner(i) => write!(f, "corner {i}"),
            CellKind::Side(i) => write!(f, "side {i}"),
            CellKind::Inner => f.write_str("inner"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip() {
        for i in [0usize, 1, 168, 469, 65535] {
            assert_eq!(Cell::from_index(i).index(), i);
        }
        assert_eq!(Cell::from_raw(7), Cell::from_index(7));
        assert_eq!(usize::from(Cell::from_raw(9)), 9);
    }

    #[test]
    #[should_panic(expected = "u16")]
    fn from_index_too_large_panics() {
        let _ = Cell::from_index(70_000);
    }

    #[test]
    fn names_print() {
        assert_eq!(CellName::new(7, 7).to_string(), "h8");
        assert_eq!(CellName::new(0, 0).to_string(), "a1");
        assert_eq!(CellName::new(24, 24).to_string(), "y25");
        assert_eq!(CellName::new(14, 14).to_string(), "o15");
        assert_eq!(format!("{:>4}|", CellName::new(0, 0)), "  a1|");
        assert_eq!(CellName::new(2, 9).letter(), 'c');
        assert_eq!(CellName::new(2, 9).number(), 10);
    }

    #[test]
    fn kind_masks() {
        assert_eq!(CellKind::Corner(0).edge_mask(), 1);
        assert_eq!(CellKind::Corner(5).edge_mask(), 32);
        assert_eq!(CellKind::Side(0).edge_mask(), 64);
        assert_eq!(CellKind::Side(5).edge_mask(), 2048);
        assert_eq!(CellKind::Inner.edge_mask(), 0);
        assert!(CellKind::Corner(3).is_corner() && !CellKind::Corner(3).is_side());
        assert!(CellKind::Side(3).is_side() && !CellKind::Inner.is_side());
        assert_eq!(CellKind::Side(2).to_string(), "side 2");
    }
}
