//! The tree knowledge of a connection game, as a `rave_mcts::Prior`: the threat test narrows
//! each new node, and two progressive biases steer the first visits of its children.

use rave_mcts::{Narrowing, Prior, PriorValue};

use crate::playout::Placement;
use crate::threats::{Connection, threats};

/// What the search knows when it expands a node of a connection game, each part switched on
/// or weighed by the game:
///
/// - `threats`: a cell that wins at once proves the node; one cell where the opponent would
///   win is the only child; two prove the loss ([`threats`]).
/// - `reach`: a child's bias grows by this weight for each edge (side, corner) the group it
///   would join touches, counting the cell's own: moves that carry a group to new edges are
///   tried first.
/// - `bridge_reply`: the bias of the cell that saves a two-bridge the opponent's last stone
///   intruded into ([`Ring::saves`](crate::bridge::Ring::saves)).
///
/// ```
/// use connection_kit::ConnectionPrior;
///
/// let prior = ConnectionPrior { threats: true, reach: 0.05, bridge_reply: 0.3 };
/// assert!(prior.has_bias());
/// assert!(!ConnectionPrior::default().has_bias());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ConnectionPrior {
    /// Narrow new nodes by the threat test.
    pub threats: bool,
    /// The bias for each edge the joined group would touch (`>= 0`).
    pub reach: f32,
    /// The bias of the reply that saves an intruded bridge (`>= 0`).
    pub bridge_reply: f32,
}

impl ConnectionPrior {
    /// Whether either bias is on.
    #[must_use]
    pub fn has_bias(&self) -> bool {
        self.reach > 0.0 || self.bridge_reply > 0.0
    }
}

/// The edges a stone of `player` on `cell` would touch with the groups it joins.
fn reach<G: Placement + Connection>(game: &G, cell: usize, player: usize) -> u32 {
    let mut mask = game.edge_mask(cell, player);
    for nb in (0..6).filter_map(|d| game.neighbour(cell, d)) {
        if game.stone(nb) == Some(player) {
            mask |= game.group_mask(nb);
        }
    }
    mask
}

impl<G: Placement + Connection> Prior<G> for ConnectionPrior {
    fn priors(&self, game: &G, moves: &[G::Move], out: &mut [PriorValue]) {
        let me = game.to_move();
        let (saves, last) = match game.last_cell() {
            Some(last) if self.bridge_reply > 0.0 => (game.ring(last).saves(), last),
            _ => (0, 0),
        };
        let replies = (0..6)
            .filter(|d| saves & (1 << d) != 0)
            .filter_map(|d| game.neighbour(last, d));
        let mut saving = [usize::MAX; 6];
        for (slot, cell) in saving.iter_mut().zip(replies) {
            *slot = cell;
        }
        for (&mv, value) in moves.iter().zip(out.iter_mut()) {
            let Some(cell) = game.cell_of(mv) else {
                continue;
            };
            let mut bias = 0.0;
            if self.reach > 0.0 {
                bias += self.reach * reach(game, cell, me).count_ones() as f32;
            }
            if saving.contains(&cell) {
                bias += self.bridge_reply;
            }
            value.bias += bias;
        }
    }

    fn narrow(&self, game: &G, moves: &mut Vec<G::Move>) -> Narrowing {
        if !self.threats {
            return Narrowing::Open;
        }
        threats(game, game.to_move()).narrow(moves, |cell| game.move_onto(cell))
    }

    fn is_active(&self) -> bool {
        self.has_bias()
    }
}
