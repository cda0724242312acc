//! The playout from a leaf, under the node's playout horizon: a playout stopped at the
//! horizon is discarded and grows it, a shorter decisive one sets it.

use rand::Rng;

use super::Worker;
use crate::config::Config;
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
