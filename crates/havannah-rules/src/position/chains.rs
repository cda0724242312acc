//! The disjoint-set forest over stones: joining chains (union by size), finding a chain's root
//! (with or without path halving), and the chain queries built on them.

use havannah_board::{Cell, CellSet};

use super::{EMPTY, Position, select};

impl Position {
    /// Joins the new stone `i` (a root of size 0) and the chains of the roots `roots`
    /// (repeats and `i` allowed) into one chain with corner/side mask `mask`, under the
    /// largest root (union by size). The writes do not depend on how many different chains
    /// there are: pointing a root at the new root is harmless.
    #[inline(always)]
    pub(super) fn merge(&mut self, i: usize, roots: [usize; 3], mask: u16) -> usize {
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

    /// The root of a cell's chain, halving the path on the way. Two steps up are taken
    /// without a test (a root is its own parent): union by size and path halving keep the
    /// trees shallow, so the loop seldom runs and its branch is predictable.
    #[inline(always)]
    pub(super) fn find(&mut self, i: usize) -> usize {
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
    pub(super) fn find_const(&self, i: usize) -> usize {
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
}
