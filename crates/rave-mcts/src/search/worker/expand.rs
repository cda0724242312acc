//! The expansion of a leaf: its children created in the arena, their priors, and the proof
//! that a prior may give the node while narrowing its moves.

use super::{Expansion, Worker};
use crate::config::PriorTarget;
use crate::game::{Game, Narrowing, Player, Playout, Prior, PriorValue};
use crate::tree::{Arena, LOSS, MAX_CHILDREN, NodeId, WIN, mover_proof};

/// Where the run of `moves` in order of [`Game::move_index`] that ends them starts (0: all in
/// order).
pub(super) fn sorted_tail<G: Game>(game: &G, moves: &[G::Move]) -> usize {
    let mut first = moves.len().saturating_sub(1);
    while first > 0 && game.move_index(moves[first - 1]) <= game.move_index(moves[first]) {
        first -= 1;
    }
    first
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    /// Creates the children of `node` (state `game`, entered by a move of `mover`), whose
    /// expansion this thread has claimed ([`Node::claim`](crate::tree::Node::claim)); on
    /// anything but [`Expansion::Done`] the claim is given up.
    ///
    /// The mover comes from the caller: during a simulation the last move of the trace, for
    /// the root [`root_mover`](super::root_mover). (The trace that an earlier search leaves
    /// says nothing about a new root: a proof by the prior would go to whichever player made
    /// that search's last move.)
    pub(crate) fn expand<K: Prior<G>>(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        game: &G,
        prior: &K,
        mover: Player,
    ) -> Expansion {
        let n = tree.node(node);
        self.moves.clear();
        game.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            n.unclaim();
            return Expansion::NoMoves;
        }
        let narrowing = prior.narrow(game, &mut self.moves);
        if self.moves.is_empty() {
            // A prior that broke its contract: search every move.
            game.legal_moves(&mut self.moves);
        }
        let count = self.moves.len();
        let first = if count > MAX_CHILDREN {
            None
        } else {
            tree.alloc(count)
        };
        let Some(first) = first else {
            n.unclaim();
            return Expansion::Full;
        };
        let horizon = n.horizon();
        let children = tree.slice(first as usize..first as usize + count);
        for (c, &mv) in children.iter().zip(&self.moves) {
            c.init(mv, horizon);
        }
        n.set_sorted_from(sorted_tail(game, &self.moves));
        if prior.is_active() {
            self.priors.clear();
            self.priors.resize(count, PriorValue::default());
            prior.priors(game, &self.moves, &mut self.priors);
            let (uct, amaf) = match self.prior_target {
                PriorTarget::Both => (true, true),
                PriorTarget::Uct => (true, false),
                PriorTarget::Amaf => (false, true),
            };
            for (c, p) in children.iter().zip(&self.priors) {
                c.set_bias((p.bias * 100.0).round().clamp(0.0, 255.0) as u8);
                let wins = p.wins.clamp(0.0, p.visits as f32);
                if uct {
                    c.set_visits(p.visits);
                    c.set_wins(wins);
                }
                if amaf {
                    c.set_amaf_visits(p.visits as f32);
                    c.set_amaf_wins(wins);
                }
            }
        }
        if let Some(kept) = self.kept {
            kept.refresh_all(tree, first as usize..first as usize + count);
        }
        if self.solver {
            // The node's proof is its mover's: the opponent of the player to move here, or
            // that player itself where it moves again.
            let moves_again = mover == game.to_move();
            match narrowing {
                Narrowing::Open => {}
                Narrowing::Win => n.set_proof(mover_proof(WIN, moves_again)),
                Narrowing::Loss => n.set_proof(mover_proof(LOSS, moves_again)),
            }
        }
        n.publish(first, count as u16);
        Expansion::Done
    }
}
