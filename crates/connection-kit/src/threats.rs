//! Wins in one move and the opponent's threats, for any connection game ([`Connection`]):
//! the knowledge that proves or forces a node when the search expands it.
//!
//! - A cell where the player to move wins at once proves the node won ([`Threats::Win`]).
//! - Else the cells where the opponent would win at once: one is the only move worth
//!   searching (it must be blocked), two or more prove the node lost, since one move blocks
//!   one cell ([`Threats::Against`]).
//!
//! A game whose other rules can stop a threat in another way (a capture) must not use the
//! second rule; connection games by placement alone (Hex, Y, Havannah's bridges and forks)
//! can.

/// What the threat test needs to know of a connection game's position.
pub trait Connection {
    /// Calls `f` with every empty cell of the board, in index order.
    fn empty_cells(&self, f: &mut dyn FnMut(usize));

    /// The player (0 or 1) whose stone is on `cell`, `None` when it is empty.
    fn stone(&self, cell: usize) -> Option<usize>;

    /// Calls `f` with every cell next to `cell` on the board.
    fn neighbours(&self, cell: usize, f: &mut dyn FnMut(usize));

    /// The edges (or sides, or corners) a stone of `player` on `cell` touches, as a mask.
    fn edge_mask(&self, cell: usize, player: usize) -> u32;

    /// The mask of the group of the stone on `cell` (an occupied cell).
    fn group_mask(&self, cell: usize) -> u32;

    /// Whether a group of `player` touching `mask` wins.
    fn wins(&self, mask: u32, player: usize) -> bool;
}

/// What [`threats`] found for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threats {
    /// Playing this cell wins at once.
    Win(usize),
    /// No win at once; the cells where the opponent would win at once: the first of them,
    /// and how many there are.
    Against {
        /// The first such cell in index order, `None` when there is none.
        first: Option<usize>,
        /// How many there are.
        count: usize,
    },
}

impl Threats {
    /// Narrows the moves of a node being expanded as the threats say, `move_of` naming a
    /// cell's move: a win leaves that move and proves the node won; one cell to block leaves
    /// that move; two or more leave the first and prove the node lost; no threat changes
    /// nothing.
    #[cfg(feature = "search")]
    pub fn narrow<M>(
        self,
        moves: &mut Vec<M>,
        move_of: impl FnOnce(usize) -> M,
    ) -> rave_mcts::Narrowing {
        use rave_mcts::Narrowing;
        let (cell, narrowing) = match self {
            Threats::Win(cell) => (cell, Narrowing::Win),
            Threats::Against {
                first: Some(cell),
                count,
            } => (
                cell,
                if count >= 2 {
                    Narrowing::Loss
                } else {
                    Narrowing::Open
                },
            ),
            Threats::Against { first: None, .. } => return Narrowing::Open,
        };
        moves.clear();
        moves.push(move_of(cell));
        narrowing
    }
}

/// The mask a stone of `player` on the empty `cell` would give its group.
#[must_use]
pub fn mask_if_played<C: Connection + ?Sized>(game: &C, cell: usize, player: usize) -> u32 {
    let mut mask = game.edge_mask(cell, player);
    game.neighbours(cell, &mut |nb| {
        if game.stone(nb) == Some(player) {
            mask |= game.group_mask(nb);
        }
    });
    mask
}

/// Whether `player` wins at once by playing on the empty `cell`.
#[must_use]
pub fn wins_at<C: Connection + ?Sized>(game: &C, cell: usize, player: usize) -> bool {
    game.wins(mask_if_played(game, cell, player), player)
}

/// The threats of a position for `player`, the player to move (see the module's
/// documentation).
#[must_use]
pub fn threats<C: Connection + ?Sized>(game: &C, player: usize) -> Threats {
    let (mut win, mut first, mut count) = (None, None, 0);
    game.empty_cells(&mut |cell| {
        if win.is_some() {
            return;
        }
        if wins_at(game, cell, player) {
            win = Some(cell);
        } else if wins_at(game, cell, 1 - player) {
            first.get_or_insert(cell);
            count += 1;
        }
    });
    match win {
        Some(cell) => Threats::Win(cell),
        None => Threats::Against { first, count },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Groups;

    /// A row of `n` cells: player 0 wins by joining both ends (bits 0 and 1).
    struct Row {
        stones: Vec<Option<usize>>,
        groups: Groups<Vec<u8>, Vec<u32>>,
    }

    impl Row {
        fn new(n: usize, played: &[(usize, usize)]) -> Row {
            let mut row = Row {
                stones: vec![None; n],
                groups: Groups::new(vec![0; n], vec![0; n]),
            };
            for &(cell, player) in played {
                row.stones[cell] = Some(player);
                let mask = row.edge_mask(cell, player);
                row.groups.add_edges(cell, mask);
                for nb in [cell.wrapping_sub(1), cell + 1] {
                    if nb < n && row.stones[nb] == Some(player) {
                        row.groups.union(cell, nb);
                    }
                }
            }
            row
        }
    }

    impl Connection for Row {
        fn empty_cells(&self, f: &mut dyn FnMut(usize)) {
            (0..self.stones.len())
                .filter(|&c| self.stones[c].is_none())
                .for_each(f);
        }
        fn stone(&self, cell: usize) -> Option<usize> {
            self.stones[cell]
        }
        fn neighbours(&self, cell: usize, f: &mut dyn FnMut(usize)) {
            for nb in [cell.wrapping_sub(1), cell + 1] {
                if nb < self.stones.len() {
                    f(nb);
                }
            }
        }
        fn edge_mask(&self, cell: usize, _player: usize) -> u32 {
            u32::from(cell == 0) | (u32::from(cell + 1 == self.stones.len()) << 1)
        }
        fn group_mask(&self, cell: usize) -> u32 {
            self.groups.root_edges(cell)
        }
        fn wins(&self, mask: u32, _player: usize) -> bool {
            mask == 0b11
        }
    }

    #[test]
    fn a_win_first_then_the_cells_to_block() {
        // 0 0 . 0 0: the gap wins for player 0, and is player 1's only block.
        let row = Row::new(5, &[(0, 0), (1, 0), (3, 0), (4, 0)]);
        assert_eq!(threats(&row, 0), Threats::Win(2));
        assert_eq!(
            threats(&row, 1),
            Threats::Against {
                first: Some(2),
                count: 1
            }
        );
        assert_eq!(mask_if_played(&row, 2, 1), 0);
        // A longer row with one stone: nothing either way.
        let row = Row::new(5, &[(0, 0)]);
        assert_eq!(
            threats(&row, 1),
            Threats::Against {
                first: None,
                count: 0
            }
        );
        // Two cells, both threats of player 0 on a row of two: two threats, a lost node.
        let row = Row::new(2, &[]);
        assert_eq!(
            threats(&row, 1),
            Threats::Against {
                first: None,
                count: 0
            }
        );
        assert!(!wins_at(&row, 0, 0));
    }
}
