//! The playout from a leaf, under the node's playout horizon: a playout stopped at the
//! horizon is discarded and grows it, a shorter decisive one sets it; with a playout pool,
//! the pool given to the policy first.

use rand::Rng;

use super::Worker;
use crate::config::{Config, PlayoutPool};
use crate::game::{Game, Playout, Rewards};
use crate::tree::{Arena, NodeId};

impl<G: Game, P: Playout<G>> Worker<G, P> {
    /// A playout from `node` (state `game`): its outcome and weight, or `None` when it
    /// stopped at the node's playout horizon (the simulation is discarded and the horizon
    /// grows). A decisive playout shorter than the horizon sets it.
    #[inline]
    pub(super) fn playout_from<R: Rng + ?Sized>(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        game: &mut G,
        config: &Config,
        rng: &mut R,
    ) -> Option<(Rewards, f32)> {
        let n = tree.node(node);
        let horizon = n.horizon();
        let max_moves = if config.playout_horizon() && horizon > 0 {
            usize::from(horizon)
        } else {
            usize::MAX
        };
        if let Some(pool) = config.playout_pool() {
            self.fill_pool(tree, pool);
            self.playout.set_pool(&self.pool);
        }
        let r = self.playout.playout(game, rng, max_moves, &mut self.trace);
        if config.playout_horizon() {
            if r.stopped_early && horizon > 0 {
                n.set_horizon(grown_horizon(horizon, config.horizon_growth()));
                return None;
            }
            if r.outcome.is_decisive() && (horizon == 0 || r.length < usize::from(horizon)) {
                n.set_horizon(r.length.clamp(1, usize::from(u16::MAX)) as u16);
            }
        }
        Some((r.outcome, r.weight))
    }

    /// Makes the playout pool: the `pool.size` children with the best AMAF means (among
    /// those with AMAF samples) of the deepest node on the path with `pool.min_visits`
    /// visits; empty if there is none.
    fn fill_pool(&mut self, tree: &Arena<G::Move>, pool: PlayoutPool) {
        self.pool.clear();
        let Some(&id) = self.path.iter().rev().find(|&&id| {
            let n = tree.node(id);
            n.visits() >= pool.min_visits && n.is_expanded()
        }) else {
            return;
        };
        let candidates = &mut self.pool_candidates;
        candidates.clear();
        for child in tree.children(tree.node(id)) {
            let samples = child.amaf_visits();
            if samples > 0.0 {
                candidates.push((child.amaf_wins() / samples, child.mv()));
            }
        }
        let best_first = |a: &(f32, G::Move), b: &(f32, G::Move)| b.0.total_cmp(&a.0);
        if candidates.len() > pool.size {
            candidates.select_nth_unstable_by(pool.size - 1, best_first);
            candidates.truncate(pool.size);
        }
        self.pool.extend(candidates.iter().map(|c| c.1));
    }
}

/// A playout horizon after a playout stopped at it: times `growth`, by at least one move; 0
/// (no horizon) once it would pass `u16::MAX`.
fn grown_horizon(horizon: u16, growth: f64) -> u16 {
    let grown = (f64::from(horizon) * growth).ceil();
    let grown = grown.max(f64::from(horizon) + 1.0);
    if grown > f64::from(u16::MAX) {
        0
    } else {
        grown as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_playout_grows_the_horizon_by_at_least_one_move() {
        assert_eq!(grown_horizon(10, 1.5), 15);
        assert_eq!(grown_horizon(10, 1.0), 11);
        assert_eq!(grown_horizon(1, 1.01), 2);
        // Past the largest horizon: no horizon.
        assert_eq!(grown_horizon(40_000, 2.0), 0);
        assert_eq!(grown_horizon(u16::MAX, 1.0), 0);
    }
}
