//! The chains of stones: connection-kit's union-find forest over the per-cell arrays, and
//! the chain queries built on it.

use connection_kit::Groups;
use havannah_board::{Cell, CellSet};

use super::cells::{ChainWords, PerCell};
use super::{EMPTY, Position};

/// The forest: parents and, at each root, the chain's 12-bit corner/side mask and its
/// number of stones.
pub(super) type Chains = Groups<PerCell<u16>, ChainWords>;

impl Position {
    /// Joins the new stone `i` and the chains of the roots `roots` (repeats and `i` allowed)
    /// into one chain with corner/side mask `mask`, under the largest root (union by size),
    /// without a branch ([`Groups::join`]).
    #[inline(always)]
    pub(super) fn merge(&mut self, i: usize, roots: [usize; 3], mask: u16) -> usize {
        self.chains.join(i, roots, u32::from(mask))
    }

    /// The root of a cell's chain, halving the path on the way.
    #[inline(always)]
    pub(super) fn find(&mut self, i: usize) -> usize {
        self.chains.find(i)
    }

    /// The root of a cell's chain without changing the forest.
    #[inline(always)]
    pub(super) fn find_const(&self, i: usize) -> usize {
        self.chains.root(i)
    }

    /// The OR of the masks at three roots (an empty cell, a root of its own, adds nothing).
    #[inline(always)]
    pub(super) fn chain_masks(&self, roots: [usize; 3]) -> u16 {
        let [r0, r1, r2] = roots;
        (self.chains.mask_at(r0) | self.chains.mask_at(r1) | self.chains.mask_at(r2)) as u16
    }

    /// The mask at a root.
    #[inline(always)]
    pub(super) fn root_mask(&self, root: usize) -> u16 {
        self.chains.mask_at(root) as u16
    }

    /// The number of stones of the chain at a root.
    #[inline(always)]
    pub(super) fn root_len(&self, root: usize) -> usize {
        self.chains.stones_at(root)
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
            self.root_mask(self.find_const(cell.index()))
        }
    }

    /// The number of stones in the chain of the stone on `cell` (0 if empty).
    #[must_use]
    pub fn chain_len(&self, cell: Cell) -> usize {
        if self.is_empty(cell) {
            0
        } else {
            self.root_len(self.find_const(cell.index()))
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
