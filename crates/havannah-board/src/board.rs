//! The per-size geometry tables.

use std::fmt;
use std::sync::OnceLock;

use crate::symmetry::{self, Symmetry};
use crate::{BoardError, Cell, CellKind, CellName, MAX_SIZE, MIN_SIZE};

/// The six neighbour directions `(dx, dy)` in the order of the slots of
/// [`Board::neighbours6`]: right, down-right, down-left, left, up-left, up-right as drawn by
/// [`Board::render`]. Consecutive directions (cyclically) point to cells that are neighbours
/// of each other, so the six slots go once around the cell.
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// Marks an off-board position in the coordinate grid.
const NO_CELL: u16 = u16::MAX;

/// The geometry of one board size: every table a game needs, built once per size and shared
/// as `&'static Board` (see [`Board::new`]).
pub struct Board {
    size: u8,
    num_cells: usize,
    /// `(x, y)` per cell.
    xy: Vec<(u8, u8)>,
    /// Cell index per `(x, y)`, row-major with stride `2s - 1`; `NO_CELL` off the board.
    grid: Vec<u16>,
    /// Padded neighbours per cell in [`DIRECTIONS`] order; `num_cells + 1` rows, the last
    /// (the sentinel's) all sentinel.
    neighbours6: Vec<[Cell; 6]>,
    /// On-board neighbours first, in [`DIRECTIONS`] order; `degree` says how many.
    compact: Vec<[Cell; 6]>,
    degree: Vec<u8>,
    kind: Vec<CellKind>,
    /// `num_cells + 1` entries; the sentinel's mask is 0.
    edge_mask: Vec<u16>,
    /// The off-board directions of each cell (bit d: direction d); `num_cells + 1` entries,
    /// the sentinel's all six.
    off_board: Vec<u8>,
    corners: [Cell; 6],
    centre: Cell,
    symmetries: [Symmetry; 12],
}

static BOARDS: [OnceLock<Board>; (MAX_SIZE - MIN_SIZE + 1) as usize] =
    [const { OnceLock::new() }; (MAX_SIZE - MIN_SIZE + 1) as usize];

impl Board {
    /// The board of `size` cells per side, built on first use and shared afterwards.
    ///
    /// # Errors
    ///
    /// [`BoardError::InvalidSize`] unless `MIN_SIZE <= size <= MAX_SIZE`.
    ///
    /// ```
    /// use havannah_board::Board;
    /// let board = Board::new(8)?;
    /// assert_eq!(board.num_cells(), 169);
    /// assert!(std::ptr::eq(board, Board::new(8)?));
    /// assert!(Board::new(14).is_err());
    /// # Ok::<(), havannah_board::BoardError>(())
    /// ```
    pub fn new(size: u8) -> Result<&'static Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::InvalidSize { size });
        }
        Ok(BOARDS[usize::from(size - MIN_SIZE)].get_or_init(|| Board::build(size)))
    }

    fn build(size: u8) -> Board {
        let s = i32::from(size);
        let w = 2 * s - 1;
        let mut grid = vec![NO_CELL; (w * w) as usize];
        let mut xy = Vec::with_capacity((3 * s * (s - 1) + 1) as usize);
        for y in 0..w {
            for x in 0..w {
                if (x - y).abs() < s {
                    grid[(y * w + x) as usize] = xy.len() as u16;
                    xy.push((x as u8, y as u8));
                }
            }
        }
        let num_cells = xy.len();
        let sentinel = Cell::from_index(num_cells);
        let at = |x: i32, y: i32| -> Option<Cell> {
            if x < 0 || y < 0 || x >= w || y >= w {
                return None;
            }
            match grid[(y * w + x) as usize] {
                NO_CELL => None,
                raw => Some(Cell::from_raw(raw)),
            }
        };

        let mut neighbours6 = Vec::with_capacity(num_cells + 1);
        let mut compact = Vec::with_capacity(num_cells);
        let mut degree = Vec::with_capacity(num_cells);
        let mut kind = Vec::with_capacity(num_cells);
        let mut edge_mask = Vec::with_capacity(num_cells + 1);
        let mut off_board = Vec::with_capacity(num_cells + 1);
        for &(x, y) in &xy {
            let (x, y) = (i32::from(x), i32::from(y));
            let mut padded = [sentinel; 6];
            let mut packed = [sentinel; 6];
            let mut n = 0;
            let mut off = 0u8;
            for (slot, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                if let Some(c) = at(x + i32::from(dx), y + i32::from(dy)) {
                    padded[slot] = c;
                    packed[n] = c;
                    n += 1;
                } else {
                    off |= 1 << slot;
                }
            }
            off_board.push(off);
            neighbours6.push(padded);
            compact.push(packed);
            degree.push(n as u8);
            let k = kind_of(s, x, y);
            kind.push(k);
            edge_mask.push(k.edge_mask());
        }
        neighbours6.push([sentinel; 6]);
        edge_mask.push(0);
        off_board.push(63);

        let h = s - 1;
        let m = 2 * s - 2;
        let corner_xy = [(0, 0), (h, 0), (m, h), (m, m), (h, m), (0, h)];
        let corners = corner_xy.map(|(x, y)| at(x, y).expect("corners lie on the board"));
        let centre = at(h, h).expect("the centre lies on the board");

        let mut board = Board {
            size,
            num_cells,
            xy,
            grid,
            neighbours6,
            compact,
            degree,
            kind,
            edge_mask,
            off_board,
            corners,
            centre,
            symmetries: std::array::from_fn(|_| Symmetry::placeholder()),
        };
        board.symmetries = symmetry::build_all(&board);
        board
    }

    /// Cells per side.
    #[inline]
    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Number of cells, `3s(s-1) + 1`.
    #[inline]
    #[must_use]
    pub fn num_cells(&self) -> usize {
        self.num_cells
    }

    /// Width of the coordinate square, `2s - 1`: `x` and `y` run over `0..width`.
    #[inline]
    #[must_use]
    pub fn width(&self) -> u8 {
        2 * self.size - 1
    }

    /// The sentinel "cell", `Cell::from_index(num_cells)`, which fills the missing slots of
    /// [`Board::neighbours6`]. It is not a cell of the board: give per-cell arrays
    /// `num_cells + 1` entries and keep the last one neutral (say, "off board").
    #[inline]
    #[must_use]
    pub fn sentinel(&self) -> Cell {
        Cell::from_index(self.num_cells)
    }

    /// Whether `cell` is a cell of this board (index below `num_cells`; the sentinel is not).
    #[inline]
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.index() < self.num_cells
    }

    /// All cells in index order.
    pub fn cells(
        &self,
    ) -> impl ExactSizeIterator<Item = Cell> + DoubleEndedIterator + Clone + 'static {
        (0..self.num_cells).map(Cell::from_index)
    }

    /// The cell with dense index `index`, checked.
    ///
    /// # Errors
    ///
    /// [`BoardError::IndexOutOfRange`] unless `index < num_cells`.
    pub fn cell_from_index(&self, index: usize) -> Result<Cell, BoardError> {
        if index < self.num_cells {
            Ok(Cell::from_index(index))
        } else {
            Err(BoardError::IndexOutOfRange {
                index,
                size: self.size,
                num_cells: self.num_cells,
            })
        }
    }

    /// The cell at column `x`, row `y`, or `None` off the board.
    #[inline]
    #[must_use]
    pub fn cell(&self, x: u8, y: u8) -> Option<Cell> {
        let w = usize::from(self.width());
        let (x, y) = (usize::from(x), usize::from(y));
        if x >= w || y >= w {
            return None;
        }
        match self.grid[y * w + x] {
            NO_CELL => None,
            raw => Some(Cell::from_raw(raw)),
        }
    }

    /// The cell at column `x`, row `y`.
    ///
    /// # Errors
    ///
    /// [`BoardError::OffBoard`], naming the coordinates, when they are off the board.
    pub fn try_cell(&self, x: u8, y: u8) -> Result<Cell, BoardError> {
        self.cell(x, y).ok_or(BoardError::OffBoard {
            x: i32::from(x),
            y: i32::from(y),
            size: self.size,
        })
    }

    /// Column and row `(x, y)` of a cell.
    ///
    /// # Panics
    ///
    /// If `cell` is not a cell of this board (this holds for every method taking a `Cell`).
    #[inline]
    #[must_use]
    pub fn xy(&self, cell: Cell) -> (u8, u8) {
        self.xy[cell.index()]
    }

    /// Axial coordinates `(q, r)` = `(x - y, y - (s - 1))`; the centre is `(0, 0)`.
    #[inline]
    #[must_use]
    pub fn axial(&self, cell: Cell) -> (i8, i8) {
        let (x, y) = self.xy(cell);
        (x as i8 - y as i8, y as i8 - (self.size as i8 - 1))
    }

    /// The cell with axial coordinates `(q, r)`, or `None` off the board.
    #[must_use]
    pub fn from_axial(&self, q: i8, r: i8) -> Option<Cell> {
        let y = i32::from(r) + i32::from(self.size) - 1;
        let x = i32::from(q) + y;
        let w = i32::from(self.width());
        if (0..w).contains(&x) && (0..w).contains(&y) {
            self.cell(x as u8, y as u8)
        } else {
            None
        }
    }

    /// Cube coordinates `(q, r, -q - r)` (axial plus the third coordinate; they sum to 0).
    #[inline]
    #[must_use]
    pub fn cube(&self, cell: Cell) -> (i8, i8, i8) {
        let (q, r) = self.axial(cell);
        (q, r, -q - r)
    }

    /// The cell with cube coordinates `(q, r, t)`, or `None` if they do not sum to 0 or lie
    /// off the board.
    #[must_use]
    pub fn from_cube(&self, q: i8, r: i8, t: i8) -> Option<Cell> {
        if i32::from(q) + i32::from(r) + i32::from(t) != 0 {
            return None;
        }
        self.from_axial(q, r)
    }

    /// Hex distance: the number of steps between two cells.
    #[inline]
    #[must_use]
    pub fn distance(&self, a: Cell, b: Cell) -> u8 {
        let (aq, ar, at) = self.cube(a);
        let (bq, br, bt) = self.cube(b);
        (aq - bq)
            .unsigned_abs()
            .max((ar - br).unsigned_abs())
            .max((at - bt).unsigned_abs())
    }

    /// The centre cell, `(s - 1, s - 1)`: h8 on size 8.
    #[inline]
    #[must_use]
    pub fn centre(&self) -> Cell {
        self.centre
    }

    /// The corners in `Corner(0..6)` order: a1, (s-1, 0), (2s-2, s-1), (2s-2, 2s-2),
    /// (s-1, 2s-2), (0, s-1); on size 8 a1, h1, o8, o15, h15, a8.
    #[inline]
    #[must_use]
    pub fn corners(&self) -> [Cell; 6] {
        self.corners
    }

    /// Corner, side or inner.
    #[inline]
    #[must_use]
    pub fn kind(&self, cell: Cell) -> CellKind {
        self.kind[cell.index()]
    }

    /// The 12-bit edge mask: bit `i` (`0..6`) for `Corner(i)`, bit `6 + i` for `Side(i)`,
    /// 0 for inner cells and for the [sentinel](Board::sentinel). At most one bit is set.
    #[inline]
    #[must_use]
    pub fn edge_mask(&self, cell: Cell) -> u16 {
        self.edge_mask[cell.index()]
    }

    /// The directions in which `cell` has no neighbour on the board, as a 6-bit set (bit d:
    /// [`DIRECTIONS`]`[d]`, the slots of [`Board::neighbours6`] that hold the sentinel); all
    /// six for the sentinel itself.
    ///
    /// ```
    /// use havannah_board::Board;
    /// let board = Board::new(4).unwrap();
    /// assert_eq!(board.off_board(board.centre()), 0);
    /// assert_eq!(board.off_board(board.corners()[0]).count_ones(), 3);
    /// assert_eq!(board.off_board(board.sentinel()), 63);
    /// ```
    #[inline]
    #[must_use]
    pub fn off_board(&self, cell: Cell) -> u8 {
        self.off_board[cell.index()]
    }

    /// Exactly the on-board neighbours (3 at a corner, 4 on a side, 6 inside), in
    /// [`DIRECTIONS`] order.
    #[inline]
    #[must_use]
    pub fn neighbours(&self, cell: Cell) -> &[Cell] {
        let i = cell.index();
        &self.compact[i][..usize::from(self.degree[i])]
    }

    /// The padded neighbour row: slot `d` holds the neighbour in direction
    /// [`DIRECTIONS`]`[d]`, or the [sentinel](Board::sentinel) where that neighbour is off the
    /// board. The sentinel's own row is all sentinel. Loop over all six entries with no
    /// branch; see the crate docs.
    #[inline]
    #[must_use]
    pub fn neighbours6(&self, cell: Cell) -> &[Cell; 6] {
        &self.neighbours6[cell.index()]
    }

    /// The neighbour in direction `dir` (an index into [`DIRECTIONS`], taken modulo 6), or
    /// `None` off the board.
    #[inline]
    #[must_use]
    pub fn neighbour(&self, cell: Cell, dir: usize) -> Option<Cell> {
        let c = self.neighbours6[cell.index()][dir % 6];
        (c.index() < self.num_cells).then_some(c)
    }

    /// Whether `a` and `b` are neighbours.
    #[must_use]
    pub fn adjacent(&self, a: Cell, b: Cell) -> bool {
        self.neighbours(a).contains(&b)
    }

    /// The twelve symmetries of the hexagon as cell permutations: index `6 * m + k` is
    /// rotation by `k` sixth-turns after `m` reflections (`m` in `0..2`); index 0 is the
    /// identity. See [`Symmetry`].
    #[inline]
    #[must_use]
    pub fn symmetries(&self) -> &[Symmetry; 12] {
        &self.symmetries
    }

    /// The symmetry that reflects `reflect` times and then rotates by `rotation` sixth-turns
    /// (taken modulo 6).
    #[must_use]
    pub fn symmetry(&self, rotation: u8, reflect: bool) -> &Symmetry {
        &self.symmetries[usize::from(reflect) * 6 + usize::from(rotation % 6)]
    }

    /// The printable name of a cell, e.g. `h8`.
    #[inline]
    #[must_use]
    pub fn cell_name(&self, cell: Cell) -> CellName {
        let (x, y) = self.xy(cell);
        CellName::new(x, y)
    }
}

/// Corner/side/inner classification of an on-board `(x, y)`.
fn kind_of(s: i32, x: i32, y: i32) -> CellKind {
    let h = s - 1;
    let m = 2 * s - 2;
    let corners = [(0, 0), (h, 0), (m, h), (m, m), (h, m), (0, h)];
    if let Some(i) = corners.iter().position(|&c| c == (x, y)) {
        return CellKind::Corner(i as u8);
    }
    let sides = [y == 0, x - y == h, x == m, y == m, y - x == h, x == 0];
    match sides.iter().position(|&on| on) {
        Some(i) => CellKind::Side(i as u8),
        None => CellKind::Inner,
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("size", &self.size)
            .field("num_cells", &self.num_cells)
            .finish_non_exhaustive()
    }
}

/// Boards are compared by size (there is one board per size).
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
    }
}

impl Eq for Board {}

/// Draws the empty board with [`Board::render`].
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(|_| '.'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(board: &Board, c: Cell) -> String {
        board.cell_name(c).to_string()
    }

    #[test]
    fn sizes_and_counts() {
        for size in MIN_SIZE..=MAX_SIZE {
            let b = Board::new(size).unwrap();
            let s = usize::from(size);
            assert_eq!(b.size(), size);
            assert_eq!(b.num_cells(), 3 * s * (s - 1) + 1);
            assert_eq!(b.cells().len(), b.num_cells());
            assert_eq!(b.sentinel().index(), b.num_cells());
        }
        for size in [0u8, 1, 14, 255] {
            let err = Board::new(size).unwrap_err();
            assert_eq!(err, BoardError::InvalidSize { size });
        }
    }

    #[test]
    fn coordinates_round_trip() {
        for size in MIN_SIZE..=MAX_SIZE {
            let b = Board::new(size).unwrap();
            for c in b.cells() {
                let (x, y) = b.xy(c);
                assert_eq!(b.cell(x, y), Some(c));
                let (q, r) = b.axial(c);
                assert_eq!(b.from_axial(q, r), Some(c));
                let (q2, r2, t) = b.cube(c);
                assert_eq!((q2, r2), (q, r));
                assert_eq!(i32::from(q) + i32::from(r) + i32::from(t), 0);
                assert_eq!(b.from_cube(q, r, t), Some(c));
                assert_eq!(b.from_cube(q, r, t.wrapping_add(1)), None);
            }
            let w = b.width();
            assert_eq!(b.cell(w, 0), None);
            assert_eq!(b.cell(0, w), None);
            assert_eq!(b.cell(w - 1, 0), None);
            assert_eq!(b.from_axial(size as i8, 0), None);
            assert_eq!(b.from_axial(i8::MIN, i8::MAX), None);
        }
    }

    #[test]
    fn size_8_landmarks() {
        let b = Board::new(8).unwrap();
        let names: Vec<String> = b.corners().iter().map(|&c| name(b, c)).collect();
        assert_eq!(names, ["a1", "h1", "o8", "o15", "h15", "a8"]);
        assert_eq!(name(b, b.centre()), "h8");
        assert_eq!(b.axial(b.centre()), (0, 0));
        for (i, &c) in b.corners().iter().enumerate() {
            assert_eq!(b.kind(c), CellKind::Corner(i as u8));
            assert_eq!(b.edge_mask(c), 1 << i);
            assert_eq!(b.distance(c, b.centre()), 7);
        }
        assert_eq!(b.edge_mask(b.sentinel()), 0);
        assert_eq!(b.edge_mask(b.centre()), 0);
    }

    #[test]
    fn neighbours6_matches_directions() {
        let b = Board::new(5).unwrap();
        for c in b.cells() {
            let (x, y) = b.xy(c);
            for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                let expect = b.cell(
                    (i16::from(x) + i16::from(dx)).clamp(0, 255) as u8,
                    (i16::from(y) + i16::from(dy)).clamp(0, 255) as u8,
                );
                let on_board =
                    i16::from(x) + i16::from(dx) >= 0 && i16::from(y) + i16::from(dy) >= 0;
                let expect = if on_board { expect } else { None };
                assert_eq!(b.neighbour(c, d), expect);
                assert_eq!(b.neighbours6(c)[d], expect.unwrap_or(b.sentinel()));
                assert_eq!(b.off_board(c) & (1 << d) != 0, expect.is_none());
            }
        }
        assert_eq!(b.neighbours6(b.sentinel()), &[b.sentinel(); 6]);
    }

    #[test]
    fn consecutive_directions_are_adjacent() {
        let b = Board::new(4).unwrap();
        let c = b.centre();
        let row = b.neighbours6(c);
        for d in 0..6 {
            assert!(b.adjacent(row[d], row[(d + 1) % 6]));
        }
    }

    #[test]
    fn checked_index() {
        let b = Board::new(3).unwrap();
        assert_eq!(b.cell_from_index(18), Ok(Cell::from_index(18)));
        let err = b.cell_from_index(19).unwrap_err();
        assert!(err.to_string().contains("19"), "{err}");
        assert!(b.contains(Cell::from_index(18)));
        assert!(!b.contains(b.sentinel()));
        let err = b.try_cell(4, 0).unwrap_err();
        assert_eq!(
            err,
            BoardError::OffBoard {
                x: 4,
                y: 0,
                size: 3
            }
        );
        assert!(err.to_string().contains("x 4, y 0"), "{err}");
    }

    #[test]
    fn debug_is_short() {
        let b = Board::new(13).unwrap();
        let s = format!("{b:?}");
        assert!(s.contains("size: 13") && s.len() < 60, "{s}");
    }
}
