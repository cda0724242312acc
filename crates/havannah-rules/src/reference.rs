//! A slow, literal transcription of the formal rules, for tests and for checking.
//!
//! Nothing here is incremental or clever: every question is answered by a breadth-first
//! search over the whole board. Use it to check the fast code, never in a playout.
//!
//! The rules, for a colour C and the set of cells holding C stones:
//! - a *chain* is a maximal set of C stones connected through neighbouring cells;
//! - a *bridge* is a chain containing two (or more) corner cells;
//! - a *fork* is a chain containing cells of three (or more) different sides; corner cells
//!   belong to no side;
//! - a *ring* is a chain that surrounds at least one cell: removing the chain's stones from
//!   the board, some cell (whatever it holds) can no longer reach the edge of the board
//!   without crossing a C stone. Cells of the edge (corners and sides) can never be
//!   surrounded. Stated cell by cell: a cell x is enclosed by C when every path from x to an
//!   edge cell, x itself excluded, passes through a C stone; C has a ring exactly when some
//!   cell is enclosed.

use std::collections::VecDeque;

use havannah_board::{Board, Cell, CellKind};

use crate::types::{Colour, Kinds};

/// The chains (maximal connected sets of stones) of `colour`, as lists of cells.
///
/// `stones` holds one entry per cell, indexed by [`Cell::index`].
#[must_use]
pub fn chains(board: &Board, stones: &[Option<Colour>], colour: Colour) -> Vec<Vec<Cell>> {
    let mut seen = vec![false; board.num_cells()];
    let mut out = Vec::new();
    for start in board.cells() {
        if seen[start.index()] || stones[start.index()] != Some(colour) {
            continue;
        }
        let mut chain = vec![start];
        seen[start.index()] = true;
        let mut k = 0;
        while k < chain.len() {
            let x = chain[k];
            k += 1;
            for &nb in board.neighbours(x) {
                if !seen[nb.index()] && stones[nb.index()] == Some(colour) {
                    seen[nb.index()] = true;
                    chain.push(nb);
                }
            }
        }
        out.push(chain);
    }
    out
}

/// Whether some chain of `colour` contains two corners.
#[must_use]
pub fn has_bridge(board: &Board, stones: &[Option<Colour>], colour: Colour) -> bool {
    chains(board, stones, colour).iter().any(|chain| {
        chain
            .iter()
            .filter(|&&c| matches!(board.kind(c), CellKind::Corner(_)))
            .count()
            >= 2
    })
}

/// Whether some chain of `colour` contains cells of three different sides.
#[must_use]
pub fn has_fork(board: &Board, stones: &[Option<Colour>], colour: Colour) -> bool {
    chains(board, stones, colour).iter().any(|chain| {
        let mut sides = [false; 6];
        for &c in chain {
            if let CellKind::Side(i) = board.kind(c) {
                sides[usize::from(i)] = true;
            }
        }
        sides.iter().filter(|&&s| s).count() >= 3
    })
}

/// Whether `cell` is enclosed by `colour`: no path from it to an edge cell avoids the stones
/// of `colour` (the cell itself excluded).
#[must_use]
pub fn is_enclosed(board: &Board, stones: &[Option<Colour>], colour: Colour, cell: Cell) -> bool {
    if board.kind(cell) != CellKind::Inner {
        return false;
    }
    let mut seen = vec![false; board.num_cells()];
    let mut queue = VecDeque::from([cell]);
    seen[cell.index()] = true;
    while let Some(x) = queue.pop_front() {
        for &nb in board.neighbours(x) {
            if seen[nb.index()] || stones[nb.index()] == Some(colour) {
                continue;
            }
            if board.kind(nb) != CellKind::Inner {
                return false;
            }
            seen[nb.index()] = true;
            queue.push_back(nb);
        }
    }
    true
}

/// Whether `colour` has a ring: some cell is enclosed by its stones.
#[must_use]
pub fn has_ring(board: &Board, stones: &[Option<Colour>], colour: Colour) -> bool {
    board.cells().any(|c| is_enclosed(board, stones, colour, c))
}

/// Every figure `colour` has on the board.
#[must_use]
pub fn figures(board: &Board, stones: &[Option<Colour>], colour: Colour) -> Kinds {
    let mut kinds = Kinds::NONE;
    if has_bridge(board, stones, colour) {
        kinds |= Kinds::BRIDGE;
    }
    if has_fork(board, stones, colour) {
        kinds |= Kinds::FORK;
    }
    if has_ring(board, stones, colour) {
        kinds |= Kinds::RING;
    }
    kinds
}
