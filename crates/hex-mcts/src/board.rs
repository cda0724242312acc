//! Hex geometry and notation: the n x n rhombus, cell indices, neighbour tables with edge
//! sentinels, moves written as `c4` or `swap-pieces`, and the error type of the crate.
//!
//! Cells are numbered `row * size + col`. Column `a` is the left edge, row `1` the top edge;
//! `a1` is an acute corner (two neighbours), as HexGui and the Hex literature draw the board.
//! Rows shift right as they go down, so the six neighbours of `(col, row)` are, in circular
//! order, `(col+1, row)`, `(col+1, row-1)`, `(col, row-1)`, `(col-1, row)`, `(col-1, row+1)`,
//! `(col, row+1)`. Two neighbours that follow each other in this order are neighbours too, which
//! the bridge pattern of the playout relies on.

use std::fmt;
use std::sync::OnceLock;

use connection_kit::bridge::Ring;

/// The largest board (19 x 19: columns `a` to `s`).
pub const MAX_SIZE: usize = 19;

/// Everything that can go wrong with outside input (command line, GTP).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HexError {
    /// A board size outside 1 to 19.
    #[error("board size {0} is not supported: sizes are 1 to {MAX_SIZE}")]
    BadSize(String),
    /// A move that is neither a cell nor `swap-pieces`.
    #[error(
        "cannot read move `{0}`: write a column letter and a row number (e.g. c4) or swap-pieces"
    )]
    BadMove(String),
    /// A cell outside the board.
    #[error("cell {mv} is off the {size}x{size} board")]
    OffBoard {
        /// The move as written.
        mv: String,
        /// The board size.
        size: usize,
    },
    /// A cell that already holds a stone.
    #[error("cell {0} is occupied")]
    Occupied(String),
    /// `swap-pieces` where the rules do not allow it.
    #[error("swap-pieces is not allowed: {0}")]
    SwapNotAllowed(&'static str),
    /// A move after the end of the game.
    #[error("the game is over ({0} has won)")]
    GameOver(Colour),
}

/// A player's colour. Black moves first and connects the top and bottom rows; White connects
/// the left and right columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The first player (rave-mcts player 0).
    Black,
    /// The second player (rave-mcts player 1).
    White,
}

impl Colour {
    /// The rave-mcts player number: 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// The stone value on the board: 1 for Black, 2 for White.
    #[inline]
    pub const fn stone(self) -> u8 {
        match self {
            Colour::Black => BLACK,
            Colour::White => WHITE,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Black => "black",
            Colour::White => "white",
        })
    }
}

/// An empty cell.
pub const EMPTY: u8 = 0;
/// A Black stone.
pub const BLACK: u8 = 1;
/// A White stone.
pub const WHITE: u8 = 2;

/// Neighbour slots at or above this value are off the board: `OFF + edge`.
pub const OFF: u16 = 0xfff0;
/// Edge code of the top row (Black's).
pub const TOP: u16 = 0;
/// Edge code of the bottom row (Black's).
pub const BOTTOM: u16 = 1;
/// Edge code of the left column (White's).
pub const LEFT: u16 = 2;
/// Edge code of the right column (White's).
pub const RIGHT: u16 = 3;
/// Code of an off-board slot beyond two edges at once (outside an obtuse corner).
pub const CORNER: u16 = 4;

/// Whether an off-board neighbour code (`OFF + edge`) is an edge of `colour`.
#[inline]
pub fn edge_of(code: u16, colour: u8) -> bool {
    let edge = code.wrapping_sub(OFF);
    match colour {
        BLACK => edge == TOP || edge == BOTTOM,
        WHITE => edge == LEFT || edge == RIGHT,
        _ => false,
    }
}

/// The ring of a cell's six `neighbours` (in the table's circular order) on `stones`, as the
/// player with `stone` sees it: its stones, its own edges beyond the board, the empty cells.
#[inline]
pub fn ring_of(stones: &[u8], neighbours: &[u16; 6], stone: u8) -> Ring {
    let mut ring = Ring::default();
    for (d, &s) in neighbours.iter().enumerate() {
        if s >= OFF {
            ring.edges |= u8::from(edge_of(s, stone)) << d;
        } else if stones[usize::from(s)] == stone {
            ring.mine |= 1 << d;
        } else if stones[usize::from(s)] == EMPTY {
            ring.empty |= 1 << d;
        }
    }
    ring
}

/// A move: a cell (column, row from 0) or the swap.
///
/// Two bytes, so a rave-mcts tree node stays at 32 bytes. Written `c4` or `swap-pieces`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct HexMove {
    col: u8,
    row: u8,
}

impl HexMove {
    /// The swap move (`swap-pieces`).
    pub const SWAP: HexMove = HexMove {
        col: u8::MAX,
        row: u8::MAX,
    };

    /// The cell at column `col` and row `row` (both from 0); not checked against a board.
    #[inline]
    pub const fn cell(col: u8, row: u8) -> HexMove {
        HexMove { col, row }
    }

    /// Whether this is the swap move.
    #[inline]
    pub const fn is_swap(self) -> bool {
        self.col == u8::MAX
    }

    /// Column and row (from 0), or `None` for the swap.
    #[inline]
    pub const fn coords(self) -> Option<(u8, u8)> {
        if self.is_swap() {
            None
        } else {
            Some((self.col, self.row))
        }
    }

    /// The cell reflected across the long diagonal (a1 to the opposite corner): column and row
    /// exchanged. The swap stays the swap.
    #[inline]
    pub const fn mirrored(self) -> HexMove {
        if self.is_swap() {
            self
        } else {
            HexMove {
                col: self.row,
                row: self.col,
            }
        }
    }

    /// Reads a move: a column letter (`a` to `s`, any case) and a row number from 1, or
    /// `swap-pieces` (also `swap`). The board size is checked by [`Geometry::index`].
    pub fn parse(text: &str) -> Result<HexMove, HexError> {
        let t = text.trim().to_ascii_lowercase();
        if t == "swap-pieces" || t == "swap" {
            return Ok(HexMove::SWAP);
        }
        let bad = || HexError::BadMove(text.to_string());
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(bad)?;
        if !letter.is_ascii_lowercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: usize = digits.parse().map_err(|_| bad())?;
        if row == 0 {
            return Err(bad());
        }
        let col = usize::from(letter as u8 - b'a');
        let row = row - 1;
        if col >= MAX_SIZE || row >= MAX_SIZE {
            return Err(HexError::OffBoard {
                mv: text.to_string(),
                size: MAX_SIZE,
            });
        }
        Ok(HexMove::cell(col as u8, row as u8))
    }
}

impl fmt::Display for HexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.coords() {
            None => f.write_str("swap-pieces"),
            Some((c, r)) => write!(f, "{}{}", char::from(b'a' + c), u32::from(r) + 1),
        }
    }
}

impl fmt::Debug for HexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The tables of one board size, built once and shared (`&'static`).
#[derive(Debug)]
pub struct Geometry {
    size: usize,
    /// Neighbours of each cell in circular order; off-board slots hold `OFF + edge`.
    neighbours: Vec<[u16; 6]>,
    /// The move of each cell index.
    moves: Vec<HexMove>,
}

/// Neighbour offsets `(dcol, drow)` in circular order.
const OFFSETS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Geometry {
    fn build(size: usize) -> Geometry {
        let n = size as i32;
        let mut neighbours = Vec::with_capacity(size * size);
        let mut moves = Vec::with_capacity(size * size);
        for row in 0..n {
            for col in 0..n {
                moves.push(HexMove::cell(col as u8, row as u8));
                let mut slots = [0u16; 6];
                for (slot, (dc, dr)) in slots.iter_mut().zip(OFFSETS) {
                    let (c, r) = (col + dc, row + dr);
                    let col_out = !(0..n).contains(&c);
                    let row_out = !(0..n).contains(&r);
                    *slot = match (col_out, row_out) {
                        (false, false) => (r * n + c) as u16,
                        (true, true) => OFF + CORNER,
                        (false, true) => OFF + if r < 0 { TOP } else { BOTTOM },
                        (true, false) => OFF + if c < 0 { LEFT } else { RIGHT },
                    };
                }
                neighbours.push(slots);
            }
        }
        Geometry {
            size,
            neighbours,
            moves,
        }
    }

    /// The board size (cells per side).
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of cells, `size * size`.
    #[inline]
    pub fn cells(&self) -> usize {
        self.neighbours.len()
    }

    /// The six neighbour slots of a cell, in circular order (`OFF + edge` off the board).
    #[inline]
    pub fn neighbours(&self, cell: usize) -> &[u16; 6] {
        &self.neighbours[cell]
    }

    /// The move that plays on a cell index.
    #[inline]
    pub fn move_of(&self, cell: usize) -> HexMove {
        self.moves[cell]
    }

    /// The cell index of a move, or an error naming the move if it is off this board (or the
    /// swap).
    pub fn index(&self, mv: HexMove) -> Result<usize, HexError> {
        match mv.coords() {
            Some((c, r)) if usize::from(c) < self.size && usize::from(r) < self.size => {
                Ok(usize::from(r) * self.size + usize::from(c))
            }
            _ => Err(HexError::OffBoard {
                mv: mv.to_string(),
                size: self.size,
            }),
        }
    }

    /// The cell index of a cell move known to be on the board (no check beyond debug builds).
    #[inline]
    pub fn index_unchecked(&self, mv: HexMove) -> usize {
        debug_assert!(!mv.is_swap());
        usize::from(mv.row) * self.size + usize::from(mv.col)
    }
}

/// Whether `colour` connects its two edges on `stones` (a flood fill from its first edge; the
/// playout uses it when stopped early, the tests as a check independent of the union-find).
pub fn connects(stones: &[u8], geo: &Geometry, colour: Colour) -> bool {
    let stone = colour.stone();
    let (start, goal) = match colour {
        Colour::Black => (OFF + TOP, OFF + BOTTOM),
        Colour::White => (OFF + LEFT, OFF + RIGHT),
    };
    let mut seen = vec![false; stones.len()];
    let mut stack: Vec<usize> = (0..stones.len())
        .filter(|&c| stones[c] == stone && geo.neighbours(c).contains(&start))
        .collect();
    for &c in &stack {
        seen[c] = true;
    }
    while let Some(c) = stack.pop() {
        for &nb in geo.neighbours(c) {
            if nb == goal {
                return true;
            }
            if nb < OFF && stones[usize::from(nb)] == stone && !seen[usize::from(nb)] {
                seen[usize::from(nb)] = true;
                stack.push(usize::from(nb));
            }
        }
    }
    false
}

/// The shared tables of a board size (1 to 19).
pub fn geometry(size: usize) -> Result<&'static Geometry, HexError> {
    static TABLES: [OnceLock<Geometry>; MAX_SIZE] = [const { OnceLock::new() }; MAX_SIZE];
    if !(1..=MAX_SIZE).contains(&size) {
        return Err(HexError::BadSize(size.to_string()));
    }
    Ok(TABLES[size - 1].get_or_init(|| Geometry::build(size)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_rejects_garbage() {
        for text in ["a1", "k11", "s19", "c4", "swap-pieces"] {
            assert_eq!(HexMove::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(HexMove::parse("C4").unwrap(), HexMove::cell(2, 3));
        assert_eq!(HexMove::parse("swap").unwrap(), HexMove::SWAP);
        for bad in [
            "",
            "a",
            "1a",
            "a0",
            "a-1",
            "aa1",
            "a1x",
            "é1",
            "a99999999999999",
        ] {
            assert!(
                matches!(HexMove::parse(bad), Err(HexError::BadMove(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            HexMove::parse("t1"),
            Err(HexError::OffBoard { .. })
        ));
        let g = geometry(5).unwrap();
        assert_eq!(g.index(HexMove::parse("e5").unwrap()), Ok(24));
        assert!(g.index(HexMove::parse("f1").unwrap()).is_err());
        assert!(g.index(HexMove::SWAP).is_err());
    }

    #[test]
    fn sizes_outside_1_to_19_are_refused() {
        assert!(geometry(0).is_err());
        assert!(geometry(20).is_err());
        assert_eq!(geometry(19).unwrap().cells(), 361);
        assert_eq!(geometry(1).unwrap().cells(), 1);
    }

    #[test]
    fn acute_corners_have_two_neighbours_obtuse_three() {
        let g = geometry(4).unwrap();
        let on_board = |cell: usize| g.neighbours(cell).iter().filter(|&&s| s < OFF).count();
        assert_eq!(on_board(0), 2); // a1
        assert_eq!(on_board(15), 2); // d4
        assert_eq!(on_board(3), 3); // d1
        assert_eq!(on_board(12), 3); // a4
        assert_eq!(on_board(5), 6); // b2
        // a1 touches Black's top and White's left edge.
        let a1 = g.neighbours(0);
        assert!(a1.contains(&(OFF + TOP)) && a1.contains(&(OFF + LEFT)));
        // Consecutive neighbours are neighbours of each other (the ring is circular).
        let cell = 5;
        let ring = g.neighbours(cell);
        for i in 0..6 {
            let (a, b) = (ring[i], ring[(i + 1) % 6]);
            if a < OFF && b < OFF {
                assert!(g.neighbours(usize::from(a)).contains(&b));
            }
        }
    }

    #[test]
    fn mirror_swaps_column_and_row() {
        assert_eq!(HexMove::parse("c1").unwrap().mirrored().to_string(), "a3");
        assert_eq!(HexMove::SWAP.mirrored(), HexMove::SWAP);
    }

    #[test]
    fn colours_alternate_and_name_themselves() {
        assert_eq!(Colour::Black.other(), Colour::White);
        assert_eq!((Colour::Black.index(), Colour::White.stone()), (0, WHITE));
        assert_eq!(Colour::White.to_string(), "white");
    }
}
