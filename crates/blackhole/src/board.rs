//! The Blackhole board: 36 hexagonal cells in a triangle of 8 rows, their names and neighbours.
//!
//! Row `l` (letters A..H, `l = 0..8`) holds the cells `1..=8-l`. The neighbours of (row `l`,
//! number `n`) are (l±1, n), (l, n±1), (l-1, n+1) and (l+1, n-1) where they exist.

use std::fmt;

use crate::error::BlackholeError;

/// Number of cells on the board.
pub const CELLS: usize = 36;
/// Number of rows (A..H).
pub const ROWS: usize = 8;

/// A cell: its dense index `0..36`, row by row (A1..A8 are 0..8, B1 is 8, ..., H1 is 35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

/// Index of the first cell of each row.
const ROW_START: [u8; ROWS + 1] = {
    let mut starts = [0u8; ROWS + 1];
    let mut l = 0;
    while l < ROWS {
        starts[l + 1] = starts[l] + (ROWS - l) as u8;
        l += 1;
    }
    starts
};

const fn index(l: i32, n: i32) -> Option<u8> {
    if l < 0 || l >= ROWS as i32 || n < 1 || n > ROWS as i32 - l {
        None
    } else {
        Some(ROW_START[l as usize] + (n - 1) as u8)
    }
}

/// Neighbour bit masks (bit `i` = cell `i`), one per cell.
pub const NEIGHBOURS: [u64; CELLS] = {
    let mut masks = [0u64; CELLS];
    let mut l = 0;
    while l < ROWS as i32 {
        let mut n = 1;
        while n <= ROWS as i32 - l {
            let me = match index(l, n) {
                Some(i) => i as usize,
                None => unreachable!(),
            };
            let deltas = [(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1)];
            let mut k = 0;
            while k < deltas.len() {
                if let Some(j) = index(l + deltas[k].0, n + deltas[k].1) {
                    masks[me] |= 1u64 << j;
                }
                k += 1;
            }
            n += 1;
        }
        l += 1;
    }
    masks
};

/// The mask of all 36 cells.
pub const ALL_CELLS: u64 = (1u64 << CELLS) - 1;

impl Cell {
    /// The cell in row `row` (0 = A) with number `number` (from 1), if it exists.
    pub fn new(row: usize, number: usize) -> Option<Cell> {
        index(i32::try_from(row).ok()?, i32::try_from(number).ok()?).map(Cell)
    }

    /// The dense index `0..36`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The row (0 = A) and number (from 1).
    pub fn row_number(self) -> (usize, usize) {
        let i = self.0;
        let l = (0..ROWS).rev().find(|&l| ROW_START[l] <= i).unwrap_or(0);
        (l, usize::from(i - ROW_START[l]) + 1)
    }

    /// The neighbour mask of this cell.
    #[cfg(test)]
    pub fn neighbours(self) -> u64 {
        NEIGHBOURS[self.index()]
    }

    /// Parses a cell name such as `B4` (the letter may be lower case).
    ///
    /// # Errors
    /// [`BlackholeError::UnknownCell`] if the text names no cell.
    pub fn parse(text: &str) -> Result<Cell, BlackholeError> {
        let bad = || BlackholeError::UnknownCell(text.to_string());
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 1 {
            return Err(bad());
        }
        let number: usize = digits.parse().map_err(|_| bad())?;
        let row = usize::from(letter as u8 - b'A');
        Cell::new(row, number).ok_or_else(bad)
    }

    /// All cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (l, n) = self.row_number();
        write!(f, "{}{}", char::from(b'A' + l as u8), n)
    }
}

/// The cells of a mask, in index order.
pub fn cells_of(mut mask: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros();
            mask &= mask - 1;
            Some(Cell(i as u8))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_rows_have_the_right_lengths() {
        let names: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
        assert_eq!(names.len(), 36);
        assert_eq!(names[0], "A1");
        assert_eq!(names[7], "A8");
        assert_eq!(names[8], "B1");
        assert_eq!(names[14], "B7");
        assert_eq!(names[35], "H1");
        for c in Cell::all() {
            assert_eq!(Cell::parse(&c.to_string()), Ok(c));
        }
        assert_eq!(Cell::parse("b4"), Cell::parse("B4"));
        for bad in [
            "", "A", "A0", "A9", "B8", "H2", "I1", "11", "A1x", "A01", "-1", "AA",
        ] {
            assert!(Cell::parse(bad).is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn adjacency_counts_match_the_rules() {
        // A1, A8 and H1 have 2 neighbours, the 18 other edge cells 4, the 15 interior cells 6.
        let mut histogram = [0usize; 7];
        for c in Cell::all() {
            histogram[c.neighbours().count_ones() as usize] += 1;
        }
        assert_eq!(histogram, [0, 0, 3, 0, 18, 0, 15]);
        for name in ["A1", "A8", "H1"] {
            assert_eq!(Cell::parse(name).unwrap().neighbours().count_ones(), 2);
        }
        let names = |c: &str| {
            let mut v: Vec<String> = cells_of(Cell::parse(c).unwrap().neighbours())
                .map(|n| n.to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names("A1"), ["A2", "B1"]);
        assert_eq!(names("H1"), ["G1", "G2"]);
        assert_eq!(names("C3"), ["B3", "B4", "C2", "C4", "D2", "D3"]);
        // Symmetric relation, no self loops.
        for a in Cell::all() {
            assert_eq!(a.neighbours() & (1 << a.index()), 0);
            for b in cells_of(a.neighbours()) {
                assert_ne!(b.neighbours() & (1 << a.index()), 0);
            }
        }
    }
}
