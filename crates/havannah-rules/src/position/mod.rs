//! The hot-path game state: stones in flat arrays and a disjoint-set forest for bridges and
//! forks, with the incremental ring finder.
//!
//! The parts: [`cells`] (the per-cell arrays and stone codes), [`tables`] (the precomputed
//! lookup tables), [`chains`] (the disjoint-set forest and chain queries) and [`threats`] (the
//! winning-move queries); this module holds [`Position`] itself and [`Position::place`].

mod cells;
mod chains;
mod tables;
mod threats;

use connection_kit::Groups;
use havannah_board::{Board, Cell};

use self::cells::ChainWords;
pub(crate) use self::cells::{BORDER, EMPTY, code};
use self::cells::{CAP, PerCell};
use self::chains::Chains;
pub use self::tables::figures_of_mask;
use self::tables::{MIDDLES, RUN_DIRS};
use crate::types::{Colour, Kinds};

/// `if take { a } else { b }` as a select, not a branch (the choice is random in playouts).
#[inline(always)]
fn select<T>(take: bool, a: T, b: T) -> T {
    std::hint::select_unpredictable(take, a, b)
}

/// When a [`Position`] looks for rings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RingDetection {
    /// The incremental finder runs on every move (a local pattern test first).
    #[default]
    Online,
    /// No ring check during play: bridges and forks only. Use
    /// [`RingFinder`](crate::RingFinder) once at the end, as the paper's playouts do.
    Offline,
}

/// A win found during play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Win {
    /// The colour of the winning stones.
    pub winner: Colour,
    /// The figures the winning move completed.
    pub kinds: Kinds,
    /// The 1-based number of the winning move (`swap` counts as a move).
    pub ply: u16,
    /// The cell of the winning stone.
    pub cell: Cell,
}

/// A Havannah position built for speed: stones in a flat array, a disjoint-set forest over
/// cells whose roots carry the 12-bit corner/side mask, and the incremental ring finder.
///
/// Moves are not checked here (that is [`GameState`](crate::GameState)'s job): `place` on an occupied
/// cell or after a win is a logic error, caught by debug assertions only. Cloning into an
/// existing position with [`Clone::clone_from`] reuses its memory, so a playout can start from
/// a copy of the tree's position without allocating.
///
/// ```
/// use havannah_board::Board;
/// use havannah_rules::{Colour, Kinds, Position, RingDetection};
///
/// let board = Board::new(4)?;
/// let mut pos = Position::new(board, RingDetection::Online);
/// // White joins the corners a1 and d1 along the side; Black plays elsewhere.
/// for (white, black) in [("a1", "d7"), ("b1", "e7"), ("c1", "f7")] {
///     assert!(pos.place(board.parse_cell(white)?).is_empty());
///     assert!(pos.place(board.parse_cell(black)?).is_empty());
/// }
/// assert_eq!(pos.place(board.parse_cell("d1")?), Kinds::BRIDGE);
/// assert_eq!(pos.win().map(|w| w.winner), Some(Colour::White));
/// # Ok::<(), havannah_rules::RulesError>(())
/// ```
#[derive(Debug)]
pub struct Position {
    board: &'static Board,
    /// Stone code per cell, plus the sentinel (always [`BORDER`]).
    stones: PerCell<u8>,
    /// The chains: a disjoint-set forest whose roots hold each chain's corner/side mask and
    /// number of stones.
    chains: Chains,
    /// The 1-based move number at which each stone was placed (0 for empty cells).
    placed: PerCell<u16>,
    /// Per cell, the directions of its neighbours that hold a stone (see
    /// [`Position::colour_pattern`]): bit d for a White neighbour d, bit 8 + d for a Black
    /// one. Kept up to date by `place` (six writes), so that a cell's same-coloured
    /// neighbours are one load instead of six.
    around: PerCell<u16>,
    plies: u16,
    stones_placed: u16,
    rings: RingDetection,
    win: Option<Win>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            board: self.board,
            stones: self.stones.clone(),
            chains: self.chains.clone(),
            placed: self.placed.clone(),
            around: self.around.clone(),
            plies: self.plies,
            stones_placed: self.stones_placed,
            rings: self.rings,
            win: self.win,
        }
    }

    /// Copies the cells and the sentinel only: entries past the sentinel are never read. When
    /// `self` was on a larger board, its extra cells are overwritten too, so that a later
    /// copy onto that larger board does not need them.
    fn clone_from(&mut self, source: &Position) {
        let len = self.board.num_cells().max(source.board.num_cells()) + 1;
        self.board = source.board;
        self.stones.copy_prefix_from(&source.stones, len);
        self.chains.copy_prefix_from(&source.chains, len);
        self.placed.copy_prefix_from(&source.placed, len);
        self.around.copy_prefix_from(&source.around, len);
        self.plies = source.plies;
        self.stones_placed = source.stones_placed;
        self.rings = source.rings;
        self.win = source.win;
    }
}

impl Position {
    /// The empty position on `board`.
    #[must_use]
    pub fn new(board: &'static Board, rings: RingDetection) -> Position {
        let n = board.num_cells();
        debug_assert!(n < CAP);
        let mut stones = PerCell::filled(BORDER);
        for i in 0..n {
            stones[i] = EMPTY;
        }
        Position {
            board,
            stones,
            chains: Groups::new(PerCell::filled(0), ChainWords::new()),
            placed: PerCell::filled(0),
            around: PerCell::filled(0),
            plies: 0,
            stones_placed: 0,
            rings,
            win: None,
        }
    }

    /// The board geometry.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// How rings are looked for.
    #[inline]
    #[must_use]
    pub fn ring_detection(&self) -> RingDetection {
        self.rings
    }

    /// Changes how rings are looked for from now on (moves already played are not looked at
    /// again). A playout can copy the tree's position, switch to
    /// [`RingDetection::Offline`] and run a [`RingFinder`](crate::RingFinder) at the end.
    #[inline]
    pub fn set_ring_detection(&mut self, rings: RingDetection) {
        self.rings = rings;
    }

    /// The stone on a cell, if any.
    #[inline]
    #[must_use]
    pub fn stone(&self, cell: Cell) -> Option<Colour> {
        match self.stones[cell.index()] {
            1 => Some(Colour::White),
            2 => Some(Colour::Black),
            _ => None,
        }
    }

    /// Whether a cell is empty.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.stones[cell.index()] == EMPTY
    }

    /// The colour of the next stone. `swap` does not change it: after `swap` Black moves again.
    #[inline]
    #[must_use]
    pub fn to_move(&self) -> Colour {
        if self.stones_placed & 1 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The number of moves played, `swap` included.
    #[inline]
    #[must_use]
    pub fn plies(&self) -> usize {
        usize::from(self.plies)
    }

    /// The number of stones on the board.
    #[inline]
    #[must_use]
    pub fn num_stones(&self) -> usize {
        usize::from(self.stones_placed)
    }

    /// Whether every cell holds a stone.
    #[inline]
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.num_stones() == self.board.num_cells()
    }

    /// The 1-based move number at which the stone on `cell` was placed.
    #[inline]
    #[must_use]
    pub fn placed_at(&self, cell: Cell) -> Option<u16> {
        match self.placed[cell.index()] {
            0 => None,
            ply => Some(ply),
        }
    }

    /// The first win found during play, if any (rings only with [`RingDetection::Online`]).
    #[inline]
    #[must_use]
    pub fn win(&self) -> Option<Win> {
        self.win
    }

    /// The neighbours of `cell` that hold a stone of `colour` (`None`: that are empty), as a
    /// 6-bit set in [`Board::neighbours6`] order (bit d: neighbour d); off-board neighbours
    /// are never in it. Found without a branch per neighbour.
    ///
    /// ```
    /// use havannah_board::Board;
    /// use havannah_rules::{Colour, Position, RingDetection};
    ///
    /// let board = Board::new(4).unwrap();
    /// let mut pos = Position::new(board, RingDetection::Online);
    /// let centre = board.centre();
    /// let first = board.neighbours6(centre)[0];
    /// pos.place(first); // White
    /// assert_eq!(pos.neighbour_set(centre, Some(Colour::White)), 0b000001);
    /// assert_eq!(pos.neighbour_set(centre, None), 0b111110);
    /// ```
    #[inline]
    #[must_use]
    pub fn neighbour_set(&self, cell: Cell, colour: Option<Colour>) -> u8 {
        // From the neighbour table: one load, and for empty neighbours the off-board ones
        // taken out. The sentinel (whose table entry is meaningless) has none.
        let n = self.board.num_cells();
        let i = cell.index();
        let set = match colour {
            Some(colour) => self.colour_pattern(i, code(colour)) as u8,
            None => {
                let around = self.around[i];
                let occupied = (around | (around >> 8)) as u8;
                !(occupied | self.board.off_board(cell)) & 63
            }
        };
        let set = select(i < n, set, 0);
        debug_assert_eq!(
            set,
            self.pattern(self.board.neighbours6(cell), colour.map_or(EMPTY, code)) as u8
        );
        set
    }

    /// Records `swap`: a move that places no stone (Black moves again).
    pub fn swap(&mut self) {
        self.plies += 1;
    }

    /// Places a stone of the colour to move on an empty cell and returns the figures it
    /// completed (empty if none). The first win is remembered ([`Position::win`]).
    ///
    /// Bridges and forks are found by union-find: each chain's root carries the OR of its
    /// cells' corner/side masks, and a 4096-entry table reads the figures off the mask. Rings
    /// are found by the incremental finder unless [`RingDetection::Offline`] was chosen.
    #[inline(always)]
    pub fn place(&mut self, cell: Cell) -> Kinds {
        self.place_impl::<false>(cell).0
    }

    /// [`Position::place`], and then [`Position::win_next_to`] on the new stone: the first
    /// empty neighbour of `cell` (in [`Board::neighbours`] order) where the mover's colour
    /// would now win at once. The same answers as those two calls, but the scan reads what
    /// `place` has at hand (the new stone's neighbours, their colour patterns, the new
    /// chain's mask) instead of loading it again.
    ///
    /// This is the anti-decisive scan of the knowledge playouts, done as the stone is placed.
    ///
    /// ```
    /// use havannah_board::Board;
    /// use havannah_rules::{Position, RingDetection};
    ///
    /// let board = Board::new(4).unwrap();
    /// let mut pos = Position::new(board, RingDetection::Online);
    /// for name in ["a1", "g7", "b1", "g5"] {
    ///     pos.place(board.parse_cell(name).unwrap());
    /// }
    /// // White c1 joins a1 b1 c1: d1 now completes a bridge (corners a1 and d1).
    /// let (kinds, win) = pos.place_and_scan(board.parse_cell("c1").unwrap());
    /// assert!(kinds.is_empty());
    /// assert_eq!(win, Some(board.parse_cell("d1").unwrap()));
    /// ```
    #[inline(always)]
    pub fn place_and_scan(&mut self, cell: Cell) -> (Kinds, Option<Cell>) {
        self.place_impl::<true>(cell)
    }

    /// [`Position::place`], with [`Position::place_and_scan`]'s scan when `SCAN`.
    #[inline(always)]
    fn place_impl<const SCAN: bool>(&mut self, cell: Cell) -> (Kinds, Option<Cell>) {
        // The code of the colour to move: 1 (White) after an even number of stones.
        let c = (self.stones_placed & 1) as u8 + 1;
        debug_assert_eq!(c, code(self.to_move()));
        let i = cell.index();
        debug_assert_eq!(self.stones[i], EMPTY, "place on an occupied cell");
        self.stones[i] = c;
        self.plies += 1;
        self.stones_placed += 1;
        self.placed[i] = self.plies;
        // The new stone is still, as every empty cell, a chain of its own with no stone and
        // mask 0: a missing run below stands for it and adds nothing.

        let nbs = self.board.neighbours6(cell);
        let pattern = self.colour_pattern(i, c);
        debug_assert_eq!(pattern, self.pattern(nbs, c));
        // The new stone is a neighbour of each of its neighbours, in the opposite direction
        // (the sentinel's entry takes the writes of off-board neighbours and is never read).
        let shift = 8 * u32::from(c - 1);
        let bit = 1u16 << shift;
        let mut patterns = [0usize; 6];
        for (d, nb) in nbs.iter().enumerate() {
            let new = self.around[nb.index()] | (bit << ((d + 3) % 6));
            self.around[nb.index()] = new;
            patterns[d] = usize::from((new >> shift) & 63);
        }
        // One stone per run of same-coloured neighbours stands for the run: neighbours in one
        // run are adjacent, so they are in one chain already. Six neighbours are one run.
        let dirs = RUN_DIRS[pattern];
        let eight = [nbs[0], nbs[1], nbs[2], nbs[3], nbs[4], nbs[5], cell, cell];
        let [r0, r1, r2] = dirs.map(|d| self.find(eight[usize::from(d & 7)].index()));
        let mask = self.board.edge_mask(cell) | self.chain_masks([r0, r1, r2]);
        let mut kinds = figures_of_mask(mask);
        if self.rings == RingDetection::Online {
            // Two runs in one chain: the new stone closes a loop around the cells between.
            let loop_closed = ((r1 == r0) & (r1 != i)) | (((r2 == r0) | (r2 == r1)) & (r2 != i));
            if loop_closed | (pattern == 63) || self.closes_in(nbs, pattern, c) {
                kinds |= Kinds::RING;
            }
        }
        let root = self.merge(i, [r0, r1, r2], mask);
        // After the first win (full playouts go on) the first test alone decides.
        if self.win.is_none() && !kinds.is_empty() {
            self.record_win(cell, kinds);
        }
        if !SCAN {
            return (kinds, None);
        }
        // The scan of `win_next_to_code` with what is at hand: the new chain's mask, the
        // neighbours' patterns just written, and which neighbours are empty (from the new
        // stone's own table entry, less the off-board directions).
        let own = self.around[i];
        let empty = !((own | (own >> 8)) as u8 | self.board.off_board(cell)) & 63;
        let (sure, test) = self.scan_sets(nbs, &patterns, (root, mask));
        debug_assert_eq!(empty, self.pattern(nbs, EMPTY) as u8);
        let win = self.first_win(nbs, c, &patterns, sure & empty, test & empty);
        debug_assert_eq!(win, self.win_next_to(cell));
        (kinds, win)
    }

    /// The neighbours of cell `i` that hold a stone of code `c` (1 or 2) as a 6-bit pattern
    /// (bit d: neighbour d), read from the table `place` keeps: the same as
    /// [`Position::pattern`] for a colour, in one load. For the sentinel it is meaningless.
    #[inline(always)]
    fn colour_pattern(&self, i: usize, c: u8) -> usize {
        usize::from((self.around[i] >> (8 * u32::from(c.wrapping_sub(1) & 1))) & 63)
    }

    /// The same-colour neighbours of a cell as a 6-bit pattern (bit d: neighbour d has stone
    /// code `c`), without a branch per neighbour: the colours around a cell are random in
    /// playouts, and such branches mispredict.
    #[inline(always)]
    fn pattern(&self, nbs: &[Cell; 6], c: u8) -> usize {
        let mut pattern = 0usize;
        for (d, nb) in nbs.iter().enumerate() {
            pattern |= usize::from(self.stones[nb.index()] == c) << d;
        }
        pattern
    }

    fn record_win(&mut self, cell: Cell, kinds: Kinds) {
        if self.win.is_none() {
            self.win = Some(Win {
                winner: self.stone(cell).unwrap_or(Colour::White),
                kinds,
                ply: self.plies,
                cell,
            });
        }
    }

    /// Case (b) of the incremental ring test for a stone of code `c` just put down: whether a
    /// neighbour in the middle of a run of three same-coloured neighbours now has six
    /// same-coloured neighbours. `pattern` has bit d set when neighbour d (cyclic order) has
    /// colour `c`.
    ///
    /// The whole test: a new ring appears exactly when (a) two separate runs of same-colour
    /// neighbours belong to one chain (the new stone closes a loop around the cells between
    /// the runs), or (b) the new stone or one of its neighbours now has six same-colour
    /// neighbours (a ring around an own stone, as the seven-stone flower).
    ///
    /// Before a colour has any ring, (a) and (b) are exactly the ways a move can enclose a
    /// cell, so the first ring is never missed nor invented (the tests check this against the
    /// reference on random games). After a first ring, which ends a game, a move that only
    /// cuts an own stone off behind that old ring is not reported.
    #[inline]
    fn closes_in(&self, nbs: &[Cell; 6], pattern: usize, c: u8) -> bool {
        let mut mids = MIDDLES[pattern];
        while mids != 0 {
            let d = mids.trailing_zeros() as usize;
            mids &= mids - 1;
            let surrounded = self.colour_pattern(nbs[d].index(), c) == 63;
            debug_assert_eq!(
                surrounded,
                self.board
                    .neighbours6(nbs[d])
                    .iter()
                    .all(|nb| self.stones[nb.index()] == c)
            );
            if surrounded {
                return true;
            }
        }
        false
    }

    /// The stone codes per cell (1 White, 2 Black, 0 empty), for the off-line ring finder.
    #[inline]
    pub(crate) fn stone_codes(&self) -> &[u8] {
        self.stones.as_slice(self.board.num_cells() + 1)
    }

    /// The placement move numbers per cell (0 for empty cells).
    #[inline]
    pub(crate) fn placements(&self) -> &[u16] {
        self.placed.as_slice(self.board.num_cells() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_from_a_smaller_board_leaves_no_trace() {
        // A full size-6 game, then a copy of an empty size-4 position into the same memory:
        // the copy must play exactly as a fresh size-4 position, and a copy back onto size 6
        // as a fresh size-6 one.
        let (small, large) = (Board::new(4).unwrap(), Board::new(6).unwrap());
        let mut pos = Position::new(large, RingDetection::Online);
        for cell in large.cells() {
            pos.place(cell);
        }
        for board in [small, large] {
            let fresh = Position::new(board, RingDetection::Online);
            pos.clone_from(&fresh);
            let mut want = fresh.clone();
            for cell in board.cells().rev() {
                assert_eq!(pos.place(cell), want.place(cell));
                assert_eq!(pos.chain_len(cell), want.chain_len(cell));
                assert_eq!(pos.chain_mask(cell), want.chain_mask(cell));
            }
            assert_eq!(pos.win(), want.win());
            assert!(pos.is_full());
        }
    }
}
