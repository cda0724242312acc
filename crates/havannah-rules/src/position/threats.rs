//! Winning-move queries: the figures a stone would complete on an empty cell, and the scan for
//! an empty neighbour of a stone where its colour would win at once.

use havannah_board::Cell;

use super::tables::{FIGURES, MIDDLES, RUN_DIRS, SCAN_TEST};
use super::{EMPTY, Position, code, figures_of_mask};
use crate::types::{Colour, Kinds};

impl Position {
    /// The figures a stone of `colour` on the empty `cell` would complete, without playing it.
    ///
    /// This is the test behind decisive and anti-decisive moves in playouts. Rings are
    /// included whatever the position's [`RingDetection`].
    ///
    /// [`RingDetection`]: super::RingDetection
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
        mask |= self.chain_masks([r0, r1, r2]);
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
    ///
    /// [`Board::neighbours`]: havannah_board::Board::neighbours
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
        let chain_mask = self.root_mask(root);
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
    pub(super) fn scan_sets(
        &self,
        nbs: &[Cell; 6],
        patterns: &[usize; 6],
        chain: (usize, u16),
    ) -> (u8, u8) {
        let (root, mask) = chain;
        let loose = (self.root_len(root) >= 5) | (mask != 0) | self.win.is_some();
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
    pub(super) fn first_win(
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
}
