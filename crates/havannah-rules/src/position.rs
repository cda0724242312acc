//! The hot-path game state: stones in flat arrays and a disjoint-set forest for bridges and
//! forks, with the incremental ring finder.

use havannah_board::{Board, Cell, CellSet};

use crate::types::{Colour, Kinds};

/// The capacity of the per-cell arrays: a power of two above the largest board (469 cells)
/// plus its sentinel, so that masking an index with `CAP - 1` proves it in bounds and the
/// compiler drops the bounds checks of the hot path.
const CAP: usize = 512;

/// A fixed-capacity per-cell array indexed by cell index (masked with `CAP - 1`).
#[derive(Clone, PartialEq, Eq)]
struct PerCell<T: Copy>([T; CAP]);

impl<T: Copy> PerCell<T> {
    fn filled(value: T) -> PerCell<T> {
        PerCell([value; CAP])
    }

    /// Copies the first `len` entries (the rest are never read, see [`Position::clone_from`]).
    fn copy_prefix_from(&mut self, other: &PerCell<T>, len: usize) {
        let len = len.min(CAP);
        self.0[..len].copy_from_slice(&other.0[..len]);
    }

    fn as_slice(&self, len: usize) -> &[T] {
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

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for PerCell<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[..]")
    }
}

/// `if take { a } else { b }` as a select, not a branch (the choice is random in playouts).
#[inline(always)]
fn select<T>(take: bool, a: T, b: T) -> T {
    std::hint::select_unpredictable(take, a, b)
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

/// Whether a 12-bit corner/side mask holds a bridge (two corners) or a fork (three sides).
const fn figure_of_mask(mask: u16) -> u8 {
    let corners = (mask & 0x3f).count_ones();
    let sides = ((mask >> 6) & 0x3f).count_ones();
    let mut kinds = 0;
    if corners >= 2 {
        kinds |= Kinds::BRIDGE.bits();
    }
    if sides >= 3 {
        kinds |= Kinds::FORK.bits();
    }
    kinds
}

/// The 4096-entry table from a chain's corner/side mask to the figures it forms
/// (paper, section 7).
static FIGURES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut mask = 0;
    while mask < 4096 {
        table[mask] = figure_of_mask(mask as u16);
        mask += 1;
    }
    table
};

/// The figures (bridge, fork) formed by a chain with this 12-bit corner/side mask.
#[inline]
#[must_use]
pub fn figures_of_mask(mask: u16) -> Kinds {
    Kinds::from_bits(FIGURES[(mask & 0xfff) as usize])
}

/// For a 6-bit pattern of same-colour neighbours (bit d = direction d, directions in cyclic
/// order), the bits where a run of set bits starts.
static RUN_STARTS: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let mut starts = 0u8;
        let mut d = 0;
        while d < 6 {
            let prev = (d + 5) % 6;
            if p & (1 << d) != 0 && p & (1 << prev) == 0 {
                starts |= 1 << d;
            }
            d += 1;
        }
        table[p] = starts;
        p += 1;
    }
    table
};

/// For a 6-bit pattern, the directions d whose both cyclic neighbours d-1 and d+1 are set as
/// well: the neighbours that the new stone may have closed in completely.
static MIDDLES: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let mut mids = 0u8;
        let mut d = 0;
        while d < 6 {
            let prev = (d + 5) % 6;
            let next = (d + 1) % 6;
            if p & (1 << d) != 0 && p & (1 << prev) != 0 && p & (1 << next) != 0 {
                mids |= 1 << d;
            }
            d += 1;
        }
        table[p] = mids;
        p += 1;
    }
    table
};

/// For a 6-bit pattern of same-colour neighbours, the directions of the first stones of its
/// (at most three) runs, padded with 6, which stands for the new stone itself; six set bits
/// are one run. A fixed-length list lets `place` look up all runs without a loop whose length
/// depends on the (random) colours around the cell.
static RUN_DIRS: [[u8; 3]; 64] = {
    let mut table = [[6u8; 3]; 64];
    let mut p = 0;
    while p < 64 {
        let starts = if p == 63 { 1 } else { RUN_STARTS[p] };
        let mut k = 0;
        let mut d = 0;
        while d < 6 {
            if starts & (1 << d) != 0 {
                table[p][k] = d as u8;
                k += 1;
            }
            d += 1;
        }
        p += 1;
    }
    table
};

/// For a 6-bit pattern of same-coloured neighbours around an empty cell next to a stone of
/// that colour, when [`Position::win_next_to`] must test the cell: bit 0, always (three
/// runs, all six, or a run with a middle stone, around which a ring may close; pattern 0
/// too, the safe answer for a pattern that cannot occur here); bit 1, when the chain of the
/// stone may form a figure or a loop with one other chain (two runs: see
/// [`Position::scan_sets`]); 0, never (a single run without a middle stone joins nothing
/// new).
static SCAN_TEST: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let runs = if p == 63 {
            1
        } else {
            RUN_STARTS[p].count_ones()
        };
        table[p] = if p == 63 || p == 0 || runs >= 3 || MIDDLES[p] != 0 {
            1
        } else if runs == 2 {
            2
        } else {
            0
        };
        p += 1;
    }
    table
};

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
/// Moves are not checked here (that is [`Game`](crate::Game)'s job): `place` on an occupied
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
    /// Disjoint-set parent per cell.
    parent: PerCell<u16>,
    /// Chain size, valid at roots.
    size: PerCell<u16>,
    /// Corner/side mask, valid at roots.
    mask: PerCell<u16>,
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
            parent: self.parent.clone(),
            size: self.size.clone(),
            mask: self.mask.clone(),
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
        self.parent.copy_prefix_from(&source.parent, len);
        self.size.copy_prefix_from(&source.size, len);
        self.mask.copy_prefix_from(&source.mask, len);
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
        let mut parent = PerCell::filled(0u16);
        for i in 0..CAP {
            parent[i] = i as u16;
        }
        Position {
            board,
            stones,
            parent,
            size: PerCell::filled(1),
            mask: PerCell::filled(0),
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
        // The new stone starts as a chain of its own of size 0 and (as every empty cell: masks
        // are written at roots only) mask 0: a missing run below stands for it and adds
        // nothing.
        self.parent[i] = i as u16;
        self.size[i] = 0;

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
        let mask = self.board.edge_mask(cell) | self.mask[r0] | self.mask[r1] | self.mask[r2];
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

    /// Joins the new stone `i` (a root of size 0) and the chains of the roots `roots`
    /// (repeats and `i` allowed) into one chain with corner/side mask `mask`, under the
    /// largest root (union by size). The writes do not depend on how many different chains
    /// there are: pointing a root at the new root is harmless.
    #[inline(always)]
    fn merge(&mut self, i: usize, roots: [usize; 3], mask: u16) -> usize {
        let [r0, r1, r2] = roots;
        let (s0, s1, s2) = (self.size[r0], self.size[r1], self.size[r2]);
        let distinct1 = r1 != r0;
        let distinct2 = (r2 != r0) & (r2 != r1);
        let size = 1 + s0 + select(distinct1, s1, 0) + select(distinct2, s2, 0);
        let big01 = select(s1 > s0, r1, r0);
        let big = select(s2 > self.size[big01], r2, big01);
        let to = big as u16;
        self.parent[r0] = to;
        self.parent[r1] = to;
        self.parent[r2] = to;
        self.parent[i] = to;
        self.size[big] = size;
        self.mask[big] = mask;
        big
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

    /// The root of a cell's chain, halving the path on the way. Two steps up are taken
    /// without a test (a root is its own parent): union by size and path halving keep the
    /// trees shallow, so the loop seldom runs and its branch is predictable.
    #[inline(always)]
    fn find(&mut self, i: usize) -> usize {
        let mut i = usize::from(self.parent[usize::from(self.parent[i])]);
        while self.parent[i] as usize != i {
            let grand = self.parent[self.parent[i] as usize];
            self.parent[i] = grand;
            i = grand as usize;
        }
        i
    }

    /// The root of a cell's chain without changing the forest (two steps without a test, as
    /// in [`Position::find`]).
    #[inline(always)]
    fn find_const(&self, i: usize) -> usize {
        let mut i = usize::from(self.parent[usize::from(self.parent[i])]);
        while self.parent[i] as usize != i {
            i = self.parent[i] as usize;
        }
        i
    }

    /// Whether two stones belong to one chain (false if either cell is empty).
    #[must_use]
    pub fn same_chain(&self, a: Cell, b: Cell) -> bool {
        let (sa, sb) = (self.stones[a.index()], self.stones[b.index()]);
        sa != EMPTY && sa == sb && self.find_const(a.index()) == self.find_const(b.index())
    }

    /// The 12-bit corner/side mask of the chain of the stone on `cell` (0 if empty).
    #[must_use]
    pub fn chain_mask(&self, cell: Cell) -> u16 {
        if self.is_empty(cell) {
            0
        } else {
            self.mask[self.find_const(cell.index())]
        }
    }

    /// The number of stones in the chain of the stone on `cell` (0 if empty).
    #[must_use]
    pub fn chain_len(&self, cell: Cell) -> usize {
        if self.is_empty(cell) {
            0
        } else {
            usize::from(self.size[self.find_const(cell.index())])
        }
    }

    /// The chain (connected stones of one colour) through `cell`; empty if the cell is empty.
    #[must_use]
    pub fn chain(&self, cell: Cell) -> CellSet {
        let mut set = CellSet::new();
        let c = self.stones[cell.index()];
        if c == EMPTY {
            return set;
        }
        let mut stack = vec![cell];
        set.insert(cell);
        while let Some(x) = stack.pop() {
            for &nb in self.board.neighbours(x) {
                if self.stones[nb.index()] == c && !set.contains(nb) {
                    set.insert(nb);
                    stack.push(nb);
                }
            }
        }
        set
    }

    /// The figures a stone of `colour` on the empty `cell` would complete, without playing it.
    ///
    /// This is the test behind decisive and anti-decisive moves in playouts. Rings are
    /// included whatever the position's [`RingDetection`].
    #[must_use]
    pub fn winning_kinds(&self, cell: Cell, colour: Colour) -> Kinds {
        let c = code(colour);
        let nbs = self.board.neighbours6(cell);
        let pattern = self.colour_pattern(cell.index(), c);
        debug_assert_eq!(pattern, self.pattern(nbs, c));
        self.kinds_with_pattern(cell, nbs, pattern, c)
    }

    /// [`Position::winning_kinds`] for a stone of code `c` on `cell`, with neighbours `nbs`
    /// and same-coloured neighbour pattern `pattern` already known.
    #[inline]
    fn kinds_with_pattern(&self, cell: Cell, nbs: &[Cell; 6], pattern: usize, c: u8) -> Kinds {
        let mut mask = self.board.edge_mask(cell);
        if pattern == 0 {
            return figures_of_mask(mask);
        }
        // One root per run of same-coloured neighbours (a run is one chain already); two runs
        // in one chain close a loop through the cell, as in `place`. A missing run stands for
        // the empty cell itself, whose mask is 0.
        let eight = [nbs[0], nbs[1], nbs[2], nbs[3], nbs[4], nbs[5], cell, cell];
        let [r0, r1, r2] =
            RUN_DIRS[pattern].map(|d| self.find_const(eight[usize::from(d & 7)].index()));
        let i = cell.index();
        mask |= self.mask[r0] | self.mask[r1] | self.mask[r2];
        let loop_closed = ((r1 == r0) & (r1 != i)) | (((r2 == r0) | (r2 == r1)) & (r2 != i));
        let mut kinds = figures_of_mask(mask);
        if loop_closed | (pattern == 63) || self.encloses_neighbour(cell, nbs, pattern, c) {
            kinds |= Kinds::RING;
        }
        kinds
    }

    /// The first empty neighbour of the stone on `around` (in [`Board::neighbours`] order)
    /// where a stone of the same colour would complete a figure, if any; `None` if `around`
    /// is empty. The same answer as testing [`Position::winning_kinds`] on each empty
    /// neighbour, but cheaper: every such cell touches the chain of `around`, whose root is
    /// found once, and a cell whose same-coloured neighbours form a single run touches that
    /// chain only, so its figures are read off the chain's mask without any search.
    ///
    /// This is the decisive-move test of playouts: only the stone just placed can have given
    /// its owner a new win at once, and (almost always) next to itself.
    ///
    /// ```
    /// use havannah_rules::{Position, RingDetection};
    /// use havannah_board::Board;
    ///
    /// let board = Board::new(4).unwrap();
    /// let mut pos = Position::new(board, RingDetection::Online);
    /// // White a1 b1 c1, Black far away: White's d1 joins corners a1 and d1.
    /// for name in ["a1", "g7", "b1", "g5", "c1", "e7"] {
    ///     pos.place(board.parse_cell(name).unwrap());
    /// }
    /// let c1 = board.parse_cell("c1").unwrap();
    /// assert_eq!(pos.win_next_to(c1), Some(board.parse_cell("d1").unwrap()));
    /// ```
    #[must_use]
    pub fn win_next_to(&self, around: Cell) -> Option<Cell> {
        let c = self.stones[around.index()];
        if c != code(Colour::White) && c != code(Colour::Black) {
            return None;
        }
        self.win_next_to_code(around, c)
    }

    /// [`Position::win_next_to`] for `colour`: `None` unless `around` holds a stone of
    /// `colour`. (One comparison of stone codes, where a test of [`Position::stone`] against
    /// the colour, which alternates from move to move, costs a mispredicted branch.)
    #[inline]
    #[must_use]
    pub fn win_next_to_of(&self, around: Cell, colour: Colour) -> Option<Cell> {
        let c = code(colour);
        if self.stones[around.index()] != c {
            return None;
        }
        self.win_next_to_code(around, c)
    }

    /// [`Position::win_next_to`] for a stone of code `c` (1 or 2) on `around`.
    fn win_next_to_code(&self, around: Cell, c: u8) -> Option<Cell> {
        let root = self.find_const(around.index());
        let chain_mask = self.mask[root];
        // First, without a branch per neighbour, the empty neighbours that may win (see
        // `scan_sets`), then the exact test on those only, in neighbour order. (The sentinel
        // is never empty.)
        let nbs = self.board.neighbours6(around);
        let mut patterns = [0usize; 6];
        let mut empty = 0u8;
        for (d, &cell) in nbs.iter().enumerate() {
            patterns[d] = self.colour_pattern(cell.index(), c);
            empty |= u8::from(self.stones[cell.index()] == EMPTY) << d;
        }
        let (sure, test) = self.scan_sets(nbs, &patterns, (root, chain_mask));
        self.first_win(nbs, c, &patterns, sure & empty, test & empty)
    }

    /// The two sets of directions of [`Position::win_next_to`]'s scan around a stone with
    /// neighbours `nbs` (whose same-coloured patterns are `patterns`) and chain `chain` (root
    /// and mask): `sure`, where the chain with the neighbour's own edges makes a figure
    /// (joining more chains only adds to it), and `test`, where the whole test must decide
    /// (see [`SCAN_TEST`]). Both before the empty neighbours are picked out.
    ///
    /// A neighbour with two runs of the colour around it (the stone's and one other, of a
    /// chain B) wins only by a loop (B is the stone's chain) or a figure of the two chains
    /// and the cell's edges. A loop through the cell encloses a cell, so it is at least six
    /// stones long: the stone's chain has five or more. And as long as nobody has won, B has
    /// no figure of its own, so the figure needs the stone's chain or the cell to touch an
    /// edge. Otherwise the cell is not tested.
    #[inline(always)]
    fn scan_sets(&self, nbs: &[Cell; 6], patterns: &[usize; 6], chain: (usize, u16)) -> (u8, u8) {
        let (root, mask) = chain;
        let loose = (self.size[root] >= 5) | (mask != 0) | self.win.is_some();
        let (mut sure, mut test) = (0u8, 0u8);
        for (d, nb) in nbs.iter().enumerate() {
            let edge = self.board.edge_mask(*nb);
            let figure = FIGURES[usize::from((mask | edge) & 0xfff)];
            sure |= u8::from(figure != 0) << d;
            let kind = SCAN_TEST[patterns[d]];
            let two_runs = u8::from(loose | (edge != 0)) & (kind >> 1);
            test |= ((kind & 1) | two_runs) << d;
        }
        (sure, test)
    }

    /// The end of [`Position::win_next_to`]'s scan: the first direction (of the neighbours
    /// `nbs`, empty ones only, with same-coloured patterns `patterns`) where a stone of code
    /// `c` wins: in `sure` at once, in `test` by the whole test.
    #[inline(always)]
    fn first_win(
        &self,
        nbs: &[Cell; 6],
        c: u8,
        patterns: &[usize; 6],
        sure: u8,
        test: u8,
    ) -> Option<Cell> {
        let mut candidates = sure | test;
        while candidates != 0 {
            let d = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let cell = nbs[d];
            // The whole test, also for a single run with a middle stone (a branch between the
            // two kinds would mispredict): it finds the chain of `around` and adds nothing.
            if (sure >> d) & 1 != 0
                || !self
                    .kinds_with_pattern(cell, self.board.neighbours6(cell), patterns[d], c)
                    .is_empty()
            {
                return Some(cell);
            }
        }
        None
    }

    /// Whether a stone of code `c` on the empty `cell` would leave a neighbour in the middle
    /// of a run of three same-coloured neighbours with six same-coloured neighbours (ring
    /// case (b) of [`Position::closes_in`], before the stone is placed).
    #[inline]
    fn encloses_neighbour(&self, cell: Cell, nbs: &[Cell; 6], pattern: usize, c: u8) -> bool {
        let mut mids = MIDDLES[pattern];
        while mids != 0 {
            let d = mids.trailing_zeros() as usize;
            mids &= mids - 1;
            // `cell` is neighbour d + 3 of neighbour d.
            let surrounded = self.colour_pattern(nbs[d].index(), c) | (1 << ((d + 3) % 6)) == 63;
            debug_assert_eq!(
                surrounded,
                self.board
                    .neighbours6(nbs[d])
                    .iter()
                    .all(|nb| *nb == cell || self.stones[nb.index()] == c)
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
    fn mask_table_counts_corners_and_sides() {
        assert_eq!(figures_of_mask(0b11), Kinds::BRIDGE);
        assert_eq!(figures_of_mask(0b1), Kinds::NONE);
        assert_eq!(figures_of_mask(0b111 << 6), Kinds::FORK);
        assert_eq!(figures_of_mask(0b11 << 6 | 1), Kinds::NONE);
        assert_eq!(figures_of_mask(0xfff), Kinds::BRIDGE | Kinds::FORK);
    }

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

    #[test]
    fn run_tables() {
        assert_eq!(RUN_STARTS[0b000000], 0);
        assert_eq!(RUN_STARTS[0b111111], 0);
        assert_eq!(RUN_STARTS[0b100001], 0b000001 << 5);
        assert_eq!(RUN_STARTS[0b010101].count_ones(), 3);
        assert_eq!(MIDDLES[0b000111], 0b000010);
        assert_eq!(MIDDLES[0b100011], 0b000001);
        assert_eq!(MIDDLES[0b111111], 0b111111);
        assert_eq!(RUN_DIRS[0b000000], [6, 6, 6]);
        assert_eq!(RUN_DIRS[0b111111], [0, 6, 6]);
        assert_eq!(RUN_DIRS[0b100001], [5, 6, 6]);
        assert_eq!(RUN_DIRS[0b010101], [0, 2, 4]);
        assert_eq!(RUN_DIRS[0b011010], [1, 3, 6]);
    }
}
