//! The loop of simulations of one worker: its limits (simulations, time, a full tree), the
//! stop shared with the other threads, and the early stop once the best move is fixed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::Rng;

use super::backprop::{DEFER_SLOTS, Deferred};
use super::{Limits, Report, Worker};
use crate::config::{Config, FinalMove};
use crate::game::{Game, Playout, Prior};
use crate::result::StopReason;
use crate::tree::{Arena, ROOT, UNPROVEN};

impl<G: Game, P: Playout<G>> Worker<G, P> {
    /// Runs simulations on `tree` until a limit is reached, or until another thread sets
    /// `stop` (which this one sets when it stops for a reason that holds for all).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run<R: Rng + ?Sized, K: Prior<G>>(
        &mut self,
        tree: &Arena<G::Move>,
        root: &G,
        config: &Config,
        prior: &K,
        rng: &mut R,
        limits: Limits,
        stop: &AtomicBool,
    ) -> Report {
        let start = Instant::now();
        let mut report = Report {
            simulations: 0,
            discarded: 0,
            stop: StopReason::Simulations,
            max_depth: 0,
            phases: Default::default(),
        };
        if self.scratch.is_none() {
            self.scratch = Some(root.clone());
        }
        let root_player = root.to_move();
        let mut full = false;
        if self.virtual_loss && self.deferred.is_empty() {
            self.deferred = (0..DEFER_SLOTS).map(|_| Deferred::new()).collect();
        }
        let shared_stop = |reason: StopReason, report: &mut Report| {
            report.stop = reason;
            stop.store(true, Ordering::Relaxed);
        };
        loop {
            if tree.node(ROOT).proof() != UNPROVEN {
                shared_stop(StopReason::Proven, &mut report);
                break;
            }
            if let Some(n) = limits.simulations
                && report.simulations >= n
            {
                report.stop = StopReason::Simulations;
                break;
            }
            if let Some(deadline) = limits.deadline
                && Instant::now() >= deadline
            {
                shared_stop(StopReason::Time, &mut report);
                break;
            }
            if full && (limits.nodes_only || limits.stop_when_full) {
                shared_stop(StopReason::Nodes, &mut report);
                break;
            }
            if config.early_stop()
                && config.final_move() == FinalMove::MostVisits
                && report.simulations.is_multiple_of(16)
                && self.best_is_fixed(tree, &limits, report.simulations, start)
            {
                shared_stop(StopReason::BestMoveFixed, &mut report);
                break;
            }
            if stop.load(Ordering::Relaxed) {
                // Another thread stopped the search; it reports why.
                report.stop = StopReason::Simulations;
                break;
            }
            let (used, tree_full, depth) =
                self.simulate(tree, root, root_player, config, prior, rng);
            full |= tree_full;
            report.simulations += 1;
            report.max_depth = report.max_depth.max(depth);
            if !used {
                report.discarded += 1;
            }
        }
        self.flush_deferred(tree);
        report.phases = self.clock.take();
        report
    }

    /// Whether the most visited root child can no longer be overtaken within the limits
    /// (the simulations left to all threads).
    fn best_is_fixed(
        &self,
        tree: &Arena<G::Move>,
        limits: &Limits,
        done: u64,
        start: Instant,
    ) -> bool {
        let root = tree.node(ROOT);
        if root.num_children() == 1 {
            return true;
        }
        // With several threads, what all of them have done: the root's visits since the
        // search began (the threads may be far apart: one that started late has done little,
        // so this thread's count times the threads would be wrong).
        let (done, budget) = if limits.threads > 1 {
            let all = u64::from(root.visits()).saturating_sub(limits.root_visits);
            (all, limits.all_simulations)
        } else {
            (done, limits.simulations)
        };
        let mut remaining = u64::MAX;
        if let Some(n) = budget {
            remaining = n.saturating_sub(done);
        }
        if let (Some(time), true) = (limits.time, done >= 64) {
            let elapsed = start.elapsed().as_secs_f64().max(1e-9);
            let left = (time.as_secs_f64() - elapsed).max(0.0);
            remaining = remaining.min((done as f64 / elapsed * left).ceil() as u64);
        }
        if remaining == u64::MAX {
            return false;
        }
        let (mut best, mut second) = (0u32, 0u32);
        for c in tree.children(root) {
            let v = c.visits();
            if v > best {
                second = best;
                best = v;
            } else if v > second {
                second = v;
            }
        }
        u64::from(best - second) > remaining
    }
}
