//! One search thread: its reusable buffers (path, trace, moves, AMAF marks, playout policy),
//! and the simulation that selects, expands and plays out on the tree shared by all threads
//! (backpropagation and proofs in `backprop`).
//!
//! With several threads a worker adds a visit to every node on its way down (the *virtual
//! loss*: the node looks visited without a win, so the other threads turn to other lines) and
//! completes it with the reward in backpropagation, or takes it back when the simulation is
//! discarded. One thread does not: its visits are added in backpropagation only, as in the
//! sequential algorithm, so a seeded one-thread search makes the sequential search's choices.

mod backprop;

use backprop::{DEFER_SLOTS, DEFER_VISIT_COUNTS, Deferred};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;

use super::select::{
    Blend, FastScoring, InvSqrt, Kept, kept_score, own_score, progressive_bias, rave_value,
    score_with_amaf, select_fast, select_fast_unproven,
};
use crate::config::{Config, FinalMove, PriorTarget, RaveSchedule, Selection, Shortlist};
use crate::game::{Game, Narrowing, Outcome, Player, Playout, Prior, PriorValue, Trace};
use crate::result::StopReason;
use crate::tree::{
    Arena, DRAW, EXPANDING, LOSS, MAX_CHILDREN, NONE, Node, NodeId, ROOT, UNPROVEN, WIN,
    mover_proof, proof_of_reward, proof_value,
};

/// How a simulation ended.
enum Leaf {
    /// A node already proven: its value is the result.
    Proven(Outcome),
    /// A terminal state reached in the tree; `true` if the node became proven now.
    Terminal(Outcome, bool),
    /// Go on with a playout.
    Playout,
}

/// Limits of one worker in one search.
#[derive(Clone, Copy)]
pub(super) struct Limits {
    pub(super) simulations: Option<u64>,
    pub(super) deadline: Option<Instant>,
    pub(super) time: Option<Duration>,
    pub(super) nodes_only: bool,
    /// The threads searching the tree (for the early stop: they all add visits).
    pub(super) threads: u64,
    /// The simulations of all threads together (for the early stop of several threads).
    pub(super) all_simulations: Option<u64>,
    /// The root's visits when the search began (for the early stop of several threads).
    pub(super) root_visits: u64,
}

/// What one worker reports.
pub(super) struct Report {
    pub(super) simulations: u64,
    pub(super) discarded: u64,
    pub(super) stop: StopReason,
    pub(super) max_depth: usize,
}

/// One search thread's state: everything but the tree, which all threads share.
///
/// Aligned to 128 bytes (two cache lines, as the adjacent-line prefetcher fetches them) so
/// that the workers of one search, side by side in a `Vec`, never share a cache line: each
/// writes its own fields (buffer lengths, counters, the playout's state) all the time.
#[repr(align(128))]
pub(super) struct Worker<G: Game, P> {
    playout: P,
    scratch: Option<G>,
    path: Vec<NodeId>,
    trace: Trace<G::Move>,
    moves: Vec<G::Move>,
    priors: Vec<PriorValue>,
    /// Per (move index, player): generation << 32 | first position in the trace.
    marks: Vec<u64>,
    mark_gen: u32,
    /// GRAVE: move index -> stamp << 32 | child of `grave_owner`.
    grave_map: Vec<u64>,
    grave_stamp: u32,
    grave_owner: NodeId,
    /// Running sum and count of playout weights (weighted AMAF normalisation).
    weight_sum: f64,
    weight_count: f64,
    /// Where priors go (set from the config before each search).
    pub(super) prior_target: PriorTarget,
    /// Whether the MCTS-solver is on (set from the config before each search).
    pub(super) solver: bool,
    /// What the nodes keep for the fast selection, brought up to date wherever this worker
    /// changes a node's statistics (set from the config before each search; `None`: nothing).
    pub(super) kept: Option<Kept>,
    /// Whether visits are added on the way down (virtual loss; several threads).
    pub(super) virtual_loss: bool,
    /// With several threads: AMAF samples of well-visited nodes' children not yet added into
    /// the tree (see [`Deferred`]), a small table indexed by node.
    deferred: Vec<Deferred>,
    /// With several threads: bit `k` set when `path[k]` got no virtual loss, its parent
    /// having [`DEFER_VISIT_COUNTS`] visits: its visit and reward go into the [`Deferred`]
    /// sums (for the first 64 nodes of the path).
    deferred_path: u64,
    /// Shortlist selection: the shortlists of the nodes, direct-mapped by node (a node whose
    /// slot another took is scored in full again); empty until first used.
    shortlists: Vec<ShortlistEntry>,
}

/// One node's shortlist: the best children of its last full scoring, best first.
#[derive(Clone, Copy)]
struct ShortlistEntry {
    /// The node (`NONE`: a free slot).
    node: NodeId,
    /// The node's visits at which it is scored in full again.
    due: u32,
    len: u8,
    children: [NodeId; Shortlist::MAX_SIZE],
}

impl ShortlistEntry {
    const FREE: ShortlistEntry = ShortlistEntry {
        node: NONE,
        due: 0,
        len: 0,
        children: [NONE; Shortlist::MAX_SIZE],
    };
}

/// Where the run of `moves` in order of [`Game::move_index`] that ends them starts (0: all in
/// order).
fn sorted_tail<G: Game>(game: &G, moves: &[G::Move]) -> usize {
    let mut first = moves.len().saturating_sub(1);
    while first > 0 && game.move_index(moves[first - 1]) <= game.move_index(moves[first]) {
        first -= 1;
    }
    first
}

/// Shortlist slots: 2^12, about 200 KiB.
const SHORTLIST_BITS: u32 = 12;

/// The shortlist slot of `node` (a multiplicative hash: node ids come in runs).
fn shortlist_slot(node: NodeId) -> usize {
    (node.wrapping_mul(0x9E37_79B1) >> (32 - SHORTLIST_BITS)) as usize
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    pub(super) fn new(playout: P) -> Self {
        Worker {
            playout,
            scratch: None,
            path: Vec::new(),
            trace: Trace::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            marks: Vec::new(),
            mark_gen: 0,
            grave_map: Vec::new(),
            grave_stamp: 0,
            grave_owner: NONE,
            weight_sum: 0.0,
            weight_count: 0.0,
            prior_target: PriorTarget::Both,
            solver: true,
            kept: None,
            virtual_loss: false,
            deferred: Vec::new(),
            deferred_path: 0,
            shortlists: Vec::new(),
        }
    }

    /// Forgets what refers to the tree's nodes (after the tree changed).
    pub(super) fn forget_tree(&mut self) {
        self.grave_owner = NONE;
        self.shortlists.fill(ShortlistEntry::FREE);
    }

    /// Sizes the AMAF marks for `game`'s moves.
    pub(super) fn prepare(&mut self, game: &G) {
        let bound = game.move_bound();
        if self.marks.len() != 2 * bound {
            self.marks = vec![0; 2 * bound];
            self.mark_gen = 0;
            self.grave_map = vec![0; bound];
            self.grave_stamp = 0;
            self.grave_owner = NONE;
        }
    }

    /// Creates the children of `node` (state `game`), whose expansion this thread has
    /// claimed ([`Node::claim`]); on anything but [`Expansion::Done`] the claim is given up.
    pub(super) fn expand<K: Prior<G>>(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        game: &G,
        prior: &K,
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
            let to_move = game.to_move();
            let moves_again = self.mover(to_move) == to_move;
            match narrowing {
                Narrowing::Open => {}
                Narrowing::Win => n.set_proof(mover_proof(WIN, moves_again)),
                Narrowing::Loss => n.set_proof(mover_proof(LOSS, moves_again)),
            }
        }
        n.publish(first, count as u16);
        Expansion::Done
    }

    /// Runs simulations on `tree` until a limit is reached, or until another thread sets
    /// `stop` (which this one sets when it stops for a reason that holds for all).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run<R: Rng + ?Sized, K: Prior<G>>(
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
            if full && limits.nodes_only {
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

    /// One simulation. Returns (used, tree was full, depth).
    fn simulate<R: Rng + ?Sized, K: Prior<G>>(
        &mut self,
        tree: &Arena<G::Move>,
        root: &G,
        root_player: Player,
        config: &Config,
        prior: &K,
        rng: &mut R,
    ) -> (bool, bool, usize) {
        let mut game = self.scratch.take().unwrap_or_else(|| root.clone());
        game.clone_from(root);
        let (leaf, node, full) = self.descend(tree, &mut game, root_player, config, prior);
        let depth = self.path.len() - 1;
        let tree_weight = 1.0 / (self.trace.len().max(1)) as f32;
        let (outcome, weight, newly_proven) = match leaf {
            // With several threads, two threads proving the last two children of a node at
            // once may each miss the other's proof, and the node would stay unproven for
            // good (its children, all proven, are never proven anew). So reaching a proven
            // node tries its ancestors again.
            Leaf::Proven(o) => (o, tree_weight, self.virtual_loss),
            Leaf::Terminal(o, newly) => (o, tree_weight, newly),
            Leaf::Playout => match self.playout_from(tree, node, &mut game, config, rng) {
                Some((o, w)) => (o, w, false),
                None => {
                    self.scratch = Some(game);
                    if self.virtual_loss {
                        self.take_back_virtual_loss(tree);
                    }
                    return (false, full, depth);
                }
            },
        };
        self.scratch = Some(game);
        self.backpropagate(tree, root, root_player, config, outcome, weight);
        if newly_proven {
            self.propagate_proof(tree);
        }
        (true, full, depth)
    }

    /// Walks down from the root, selecting children, to where the simulation's result comes
    /// from, filling the path and the trace and playing the moves in `game` (and adding the
    /// virtual loss to the path's nodes, with several threads). Returns the leaf, its node
    /// and whether the tree was full.
    ///
    /// At most one expansion per simulation: the node expanded, then a playout from the child
    /// selected below it. (A prior gives new children virtual visits, which must not make
    /// every simulation expand its way down to the end of the game.) A node that another
    /// thread is expanding is a leaf: the simulation plays out from it.
    #[inline]
    fn descend<K: Prior<G>>(
        &mut self,
        tree: &Arena<G::Move>,
        game: &mut G,
        root_player: Player,
        config: &Config,
        prior: &K,
    ) -> (Leaf, NodeId, bool) {
        self.path.clear();
        self.trace.clear();
        self.path.push(ROOT);
        let vl = self.virtual_loss;
        self.deferred_path = 0;
        if vl {
            add_visit(tree.node(ROOT));
        }
        let mut node = ROOT;
        let mut n = tree.node(ROOT);
        let mut grave_ref = [NONE; GRAVE_SLOTS];
        let mut expanded = false;
        loop {
            let proof = n.proof();
            if proof != UNPROVEN {
                let mover = self.mover(root_player);
                return (
                    Leaf::Proven(outcome_for(mover, proof_value(proof))),
                    node,
                    false,
                );
            }
            if !n.is_expanded() {
                if let Some(outcome) = game.result() {
                    let leaf = self.reach_terminal(tree, node, outcome, root_player, config);
                    return (leaf, node, false);
                }
                // The visits of others (completed or in progress), not this one's.
                let visits = n.visits().saturating_sub(u32::from(vl));
                if node != ROOT && (expanded || visits < config.expand_threshold()) {
                    return (Leaf::Playout, node, false);
                }
                match n.claim() {
                    Ok(()) => match self.expand(tree, node, game, prior) {
                        Expansion::Done => {
                            expanded = true;
                            if let Some(leaf) = self.proven_by_prior(tree, node, root_player) {
                                return (leaf, node, false);
                            }
                        }
                        Expansion::Full => return (Leaf::Playout, node, true),
                        Expansion::NoMoves => {
                            return (Leaf::Terminal(Outcome::DRAW, false), node, false);
                        }
                    },
                    // Another thread is expanding it: a leaf for now.
                    Err(EXPANDING) => return (Leaf::Playout, node, false),
                    // Another thread has just expanded it: go on below.
                    Err(_) => {}
                }
            }
            let player = game.to_move();
            let child = self.select(tree, node, n, player, config, &mut grave_ref, game);
            let c = tree.node(child);
            if vl {
                let k = self.path.len();
                if k < 64 && n.visits() >= DEFER_VISIT_COUNTS {
                    self.deferred_path |= 1 << k;
                } else {
                    add_visit(c);
                    if let Some(kept) = self.kept {
                        kept.refresh(c, tree.score(child), usize::from(n.num_children()));
                    }
                }
            }
            let mv = c.mv();
            self.trace.push(player, mv);
            game.play(mv);
            self.path.push(child);
            node = child;
            n = c;
        }
    }

    /// Takes back the virtual loss of a discarded simulation.
    fn take_back_virtual_loss(&self, tree: &Arena<G::Move>) {
        for (k, &id) in self.path.iter().enumerate() {
            if k >= 64 || self.deferred_path >> k & 1 == 0 {
                let n = tree.node(id);
                n.take_back_visit();
                if let Some(kept) = self.kept
                    && k > 0
                {
                    let moves = usize::from(tree.node(self.path[k - 1]).num_children());
                    kept.refresh(n, tree.score(id), moves);
                }
            }
        }
    }

    /// A terminal state reached at `node`: with the solver on, a decisive or drawn result
    /// proves the node.
    #[inline]
    fn reach_terminal(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        outcome: Outcome,
        root_player: Player,
        config: &Config,
    ) -> Leaf {
        if !config.solver() {
            return Leaf::Terminal(outcome, false);
        }
        let mover = self.mover(root_player);
        let p = proof_of_reward(outcome.reward(mover), outcome.reward(1 - mover));
        if p == UNPROVEN {
            return Leaf::Terminal(outcome, false);
        }
        tree.node(node).set_proof(p);
        self.mark_parent_of(tree, self.path.len() - 1);
        Leaf::Terminal(outcome, true)
    }

    /// The leaf, when the prior proved the just expanded `node` while narrowing its moves.
    #[inline]
    fn proven_by_prior(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        root_player: Player,
    ) -> Option<Leaf> {
        let proof = tree.node(node).proof();
        if proof == UNPROVEN {
            return None;
        }
        self.mark_parent_of(tree, self.path.len() - 1);
        let mover = self.mover(root_player);
        Some(Leaf::Terminal(outcome_for(mover, proof_value(proof)), true))
    }

    /// A playout from `node` (state `game`): its outcome and weight, or `None` when it
    /// stopped at the node's playout horizon (the simulation is discarded and the horizon
    /// grows). A decisive playout shorter than the horizon sets it.
    #[inline]
    fn playout_from<R: Rng + ?Sized>(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        game: &mut G,
        config: &Config,
        rng: &mut R,
    ) -> Option<(Outcome, f32)> {
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

    /// The mover of the last node on the path.
    #[inline]
    fn mover(&self, root_player: Player) -> Player {
        match self.trace.raw().last() {
            Some(&(_, p)) => p as Player,
            None => 1 - root_player.min(1),
        }
    }

    /// Chooses the child of `node` to descend into.
    #[allow(clippy::too_many_arguments)]
    fn select(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        parent: &Node<G::Move>,
        player: Player,
        config: &Config,
        grave_ref: &mut [NodeId; GRAVE_SLOTS],
        game: &G,
    ) -> NodeId {
        let range = parent.children();
        let parent_visits = parent.visits();
        let last_mover = self.trace.raw().last().map(|&(_, p)| p as Player);
        let (schedule, reference) = rave_source(
            config.selection(),
            node,
            parent_visits,
            &mut grave_ref[grave_slot(player, last_mover)],
        );
        if reference != NONE && self.grave_owner != reference {
            self.build_grave_map(tree, reference, game);
        }
        let scoring = Scoring {
            schedule,
            reference,
            blend: schedule.and_then(|s| Blend::of(s, range.len())),
            c: config.exploration() as f32,
            bonus: (config.exploration() * f64::from(parent_visits.max(1)).ln().sqrt()) as f32,
            inv_sqrt: InvSqrt::table(),
            fpu: config.first_play_urgency() as f32,
            moves: range.len(),
        };
        if let Some(shortlist) = config.shortlist()
            && range.len() > 2 * shortlist.size
        {
            return self.select_shortlisted(
                tree,
                node,
                range,
                parent_visits,
                &scoring,
                game,
                shortlist,
            );
        }
        #[cfg(test)]
        if tests::GENERAL_ONLY.with(std::cell::Cell::get) {
            return self.select_general(tree, range, &scoring, game);
        }
        if let Some(blend) = scoring.blend {
            let fast = FastScoring {
                blend,
                fpu: scoring.fpu,
                // `child_score` adds no bonus without exploration.
                bonus: if scoring.c > 0.0 { scoring.bonus } else { 0.0 },
                inv_sqrt: scoring.inv_sqrt,
            };
            if reference == NONE {
                return self.select_fast(tree, range, fast, parent.child_proven());
            }
            // GRAVE: the reference's AMAF statistics, `child_score`'s operations.
            return self.select_by(tree, range, |ch| {
                let (an, aw) = self.grave_stats(tree, game.move_index(ch.mv()));
                score_with_amaf(ch, an, aw, fast)
            });
        }
        self.select_general(tree, range, &scoring, game)
    }

    /// `select` in the general case: a proven win at once, proven losses skipped, else the
    /// best score (see [`Worker::child_score`]) plus the progressive bias.
    ///
    /// Proven draws are skipped too while an unproven child is left: a draw's value is
    /// known, and only an unproven child can still be better. Without this, a search without
    /// exploration could settle on a proven draw for good, and never learn that a sibling
    /// wins (tic-tac-toe games were lost that way, `tests/known_games.rs`); with it, every
    /// simulation goes through unproven nodes, so a solver search of a finite game whose
    /// finished positions are won, lost or drawn proves its root in the end.
    #[inline]
    fn select_general(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        scoring: &Scoring,
        game: &G,
    ) -> NodeId {
        self.select_by(tree, range, |ch| {
            self.child_score(tree, ch, scoring, game) + progressive_bias(ch)
        })
    }

    /// `select_general`'s choice with the children scored by `score`.
    #[inline(always)]
    fn select_by(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        score: impl Fn(&Node<G::Move>) -> f32,
    ) -> NodeId {
        let mut best = NONE;
        let mut best_score = f32::NEG_INFINITY;
        let mut draw = NONE;
        for (ch, i) in tree.slice(range.clone()).iter().zip(range.clone()) {
            match ch.proof() {
                WIN => return i as NodeId,
                LOSS => continue,
                DRAW => {
                    draw = i as NodeId;
                    continue;
                }
                _ => {}
            }
            let score = score(ch);
            if score > best_score {
                best_score = score;
                best = i as NodeId;
            }
        }
        if best == NONE {
            best = draw;
        }
        if best == NONE {
            best = most_visited(tree, range);
        }
        best
    }

    /// `select` with a shortlist: the best child of the node's shortlist while it is fresh
    /// (the node's visits below its due count) and holds an unproven child or a proven win,
    /// else a full pass (the general one) that makes a new shortlist.
    #[allow(clippy::too_many_arguments)]
    fn select_shortlisted(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        range: std::ops::Range<usize>,
        visits: u32,
        scoring: &Scoring,
        game: &G,
        shortlist: Shortlist,
    ) -> NodeId {
        if self.shortlists.is_empty() {
            self.shortlists = vec![ShortlistEntry::FREE; 1 << SHORTLIST_BITS];
        }
        let slot = shortlist_slot(node);
        let entry = self.shortlists[slot];
        if entry.node == node && visits < entry.due {
            let listed = &entry.children[..usize::from(entry.len)];
            if let Some(best) = self.best_listed(tree, listed, scoring, game) {
                return best;
            }
        }
        let (best, mut entry) = self.select_and_list(tree, range, scoring, game, shortlist.size);
        entry.node = node;
        entry.due = visits.saturating_add(shortlist.rescan_every);
        self.shortlists[slot] = entry;
        best
    }

    /// The best unproven child of `listed` (a proven win at once), as `select_general`
    /// scores them; `None` if all are proven losses or draws.
    #[inline]
    fn best_listed(
        &self,
        tree: &Arena<G::Move>,
        listed: &[NodeId],
        scoring: &Scoring,
        game: &G,
    ) -> Option<NodeId> {
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for &id in listed {
            let ch = tree.node(id);
            match ch.proof() {
                WIN => return Some(id),
                LOSS | DRAW => continue,
                _ => {}
            }
            let score = self.child_score(tree, ch, scoring, game) + progressive_bias(ch);
            if score > best_score {
                best_score = score;
                best = Some(id);
            }
        }
        best
    }

    /// `select_general`'s choice, and the `size` best unproven children, best first (ties in
    /// the children's order, so the first is `select_general`'s choice when it is unproven).
    /// The proof rules are `select_general`'s, written out again: one loop for both, with a
    /// closure for what each does with a score, ran the player 8% slower without a shortlist
    /// (89,000 against 97,000 simulations a second, five four-game runs each).
    fn select_and_list(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        scoring: &Scoring,
        game: &G,
        size: usize,
    ) -> (NodeId, ShortlistEntry) {
        let mut list = ShortlistEntry::FREE;
        let mut scores = [f32::NEG_INFINITY; Shortlist::MAX_SIZE];
        let mut len = 0;
        let mut draw = NONE;
        for (ch, i) in tree.slice(range.clone()).iter().zip(range.clone()) {
            match ch.proof() {
                WIN => return (i as NodeId, ShortlistEntry::FREE),
                LOSS => continue,
                DRAW => {
                    draw = i as NodeId;
                    continue;
                }
                _ => {}
            }
            let score = self.child_score(tree, ch, scoring, game) + progressive_bias(ch);
            // Only above the last listed (minus infinity until the list is full): like
            // `select_general`, never a NaN or minus infinity.
            if score <= scores[size - 1] || score.is_nan() {
                continue;
            }
            // After every child at least as good: the earlier of equals stays first.
            let at = scores[..len].partition_point(|&s| s >= score);
            len = (len + 1).min(size);
            for k in (at + 1..len).rev() {
                scores[k] = scores[k - 1];
                list.children[k] = list.children[k - 1];
            }
            scores[at] = score;
            list.children[at] = i as NodeId;
        }
        list.len = len as u8;
        let best = if len > 0 {
            list.children[0]
        } else if draw != NONE {
            draw
        } else {
            most_visited(tree, range)
        };
        (best, list)
    }

    /// A child's UCT value (without a RAVE schedule), else its RAVE value on its own or the
    /// GRAVE reference's AMAF statistics, plus the UCT bonus when exploration is on.
    #[inline]
    fn child_score(&self, tree: &Arena<G::Move>, ch: &Node<G::Move>, s: &Scoring, game: &G) -> f32 {
        let visits = ch.visits();
        let (n, wins) = (visits as f32, ch.wins());
        let Some(schedule) = s.schedule else {
            return if visits == 0 {
                s.fpu
            } else {
                wins / n + s.bonus * s.inv_sqrt.of(visits)
            };
        };
        let (an, aw) = if s.reference == NONE {
            (ch.amaf_visits(), ch.amaf_wins())
        } else {
            self.grave_stats(tree, game.move_index(ch.mv()))
        };
        let mut v = match s.blend {
            Some(blend) => blend.value(n, wins, an, aw, s.fpu),
            None => rave_value(schedule, n, wins, an, aw, s.moves, s.fpu),
        };
        if s.c > 0.0 && (visits > 0 || an > 0.0) {
            v += s.bonus * s.inv_sqrt.of(visits.max(1));
        }
        v
    }

    /// `select` in its most common case (see [`select_fast`]): the children scored by their
    /// own statistics, through their kept scores where the tree keeps them.
    #[inline]
    fn select_fast(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        scoring: FastScoring,
        child_proven: bool,
    ) -> NodeId {
        if self.kept.is_some() {
            return select_kept(tree, range, scoring, child_proven);
        }
        let children = tree.slice(range.clone());
        let score = |_, ch: &Node<G::Move>| own_score(ch, scoring);
        if !child_proven {
            return (range.start + select_fast_unproven(children, score)) as NodeId;
        }
        match select_fast(children, score) {
            Some(j) => (range.start + j) as NodeId,
            None => most_visited(tree, range),
        }
    }

    fn build_grave_map(&mut self, tree: &Arena<G::Move>, reference: NodeId, game: &G) {
        self.grave_stamp = self.grave_stamp.wrapping_add(1);
        if self.grave_stamp == 0 {
            self.grave_map.fill(0);
            self.grave_stamp = 1;
        }
        let stamp = u64::from(self.grave_stamp) << 32;
        let range = tree.node(reference).children();
        for (c, i) in tree.slice(range.clone()).iter().zip(range) {
            let idx = game.move_index(c.mv());
            if let Some(slot) = self.grave_map.get_mut(idx) {
                *slot = stamp | i as u64;
            }
        }
        self.grave_owner = reference;
    }

    #[inline]
    fn grave_stats(&self, tree: &Arena<G::Move>, idx: usize) -> (f32, f32) {
        match self.grave_map.get(idx) {
            Some(&v) if (v >> 32) as u32 == self.grave_stamp => {
                let n = tree.node((v & 0xffff_ffff) as NodeId);
                (n.amaf_visits(), n.amaf_wins())
            }
            _ => (0.0, 0.0),
        }
    }
}

/// One more visit (the virtual loss, completed by backpropagation).
#[inline]
fn add_visit<M: Copy>(n: &Node<M>) {
    n.add_virtual_visit();
}

/// Every child is a proven loss: the most visited one (the first child if none).
fn most_visited<M: Copy>(tree: &Arena<M>, range: std::ops::Range<usize>) -> NodeId {
    let first = range.start;
    let children = tree.slice(range.clone());
    range
        .zip(children)
        .max_by_key(|(_, c)| c.visits())
        .map_or(first, |(i, _)| i) as NodeId
}

/// What [`Worker::select`] scores the children of one parent with.
#[derive(Clone, Copy)]
struct Scoring {
    /// The RAVE schedule (`None`: plain UCT).
    schedule: Option<RaveSchedule>,
    /// The GRAVE reference node whose AMAF statistics stand in for the children's own
    /// (`NONE`: their own).
    reference: NodeId,
    /// The schedule's fast form, if it has one.
    blend: Option<Blend>,
    /// The UCT exploration constant.
    c: f32,
    /// The UCT bonus of a child with one visit: `c sqrt(ln N)` for the parent's `N` visits
    /// (at least 1); a child with `n` visits gets it over `sqrt(n)`.
    bonus: f32,
    /// `1 / sqrt(n)` by look-up: one child's score is otherwise bound by the divider.
    inv_sqrt: &'static InvSqrt,
    /// First-play urgency: the value of a child without statistics.
    fpu: f32,
    /// The parent's number of children.
    moves: usize,
}

/// The GRAVE references kept on the way down: one per player, and one more per player for
/// the nodes where that player also made the move into the node.
const GRAVE_SLOTS: usize = 4;

/// The GRAVE reference slot of a node where `player` is to move and `last_mover` made the
/// move into it (`None` at the root). A player who moves twice in a row (a game that splits a
/// move in two) chooses a different kind of move the second time, which its reference for
/// the first kind would not know.
fn grave_slot(player: Player, last_mover: Option<Player>) -> usize {
    let again = last_mover == Some(player);
    player.min(1) + 2 * usize::from(again)
}

/// `Worker::select_fast` through the children's kept scores. A function of its own: inlined
/// beside the pass over the statistics, it slowed that pass by a twentieth (Havannah).
#[inline(never)]
fn select_kept<M: Copy>(
    tree: &Arena<M>,
    range: std::ops::Range<usize>,
    scoring: FastScoring,
    child_proven: bool,
) -> NodeId {
    let children = tree.slice(range.clone());
    let kept = tree.scores(range.clone());
    let score = |j: usize, ch: &Node<M>| kept_score(ch, &kept[j], scoring);
    if !child_proven {
        return (range.start + select_fast_unproven(children, score)) as NodeId;
    }
    match select_fast(children, score) {
        Some(j) => (range.start + j) as NodeId,
        None => most_visited(tree, range),
    }
}

/// The RAVE schedule of `selection` (`None` for plain UCT) and the GRAVE reference for the
/// children of `node` with `visits` visits: a node with at least GRAVE's `min_visits`
/// becomes the reference (`reference`, kept per slot down the path, see [`grave_slot`]) and
/// uses its own AMAF statistics (`NONE`); one with fewer uses the last reference above it.
fn rave_source(
    selection: Selection,
    node: NodeId,
    visits: u32,
    reference: &mut NodeId,
) -> (Option<RaveSchedule>, NodeId) {
    match selection {
        Selection::Uct => (None, NONE),
        Selection::Rave(s) => (Some(s), NONE),
        Selection::Grave {
            schedule,
            min_visits,
        } => {
            if visits >= min_visits {
                *reference = node;
                (Some(schedule), NONE)
            } else {
                (Some(schedule), *reference)
            }
        }
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

#[derive(PartialEq, Eq, Debug)]
pub(super) enum Expansion {
    Done,
    Full,
    NoMoves,
}

fn outcome_for(mover: Player, value: f32) -> Outcome {
    if value == 0.5 {
        Outcome::DRAW
    } else if value == 1.0 {
        Outcome::win(mover)
    } else {
        Outcome::win(1 - mover.min(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::UniformPlayout;
    use crate::tree::KeptScore;
    use crate::{Budget, Mcts, Proof};
    use rand::SeedableRng;
    use std::cell::Cell;

    thread_local! {
        /// Every selection of this thread's searches through `select_general` (the scoring
        /// of `child_score`), the reference that the fast passes must match bit for bit.
        pub(super) static GENERAL_ONLY: Cell<bool> = const { Cell::new(false) };
    }

    /// The tree of a seeded one-thread search of `config`, through the fast passes or, with
    /// `general`, through `select_general` alone.
    fn searched_tree(config: &Config, general: bool) -> Shape {
        GENERAL_ONLY.with(|g| g.set(general));
        let mut mcts = Mcts::new(Pile(60, 0, 12), config.clone());
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        mcts.search(&Budget::simulations(4000), &mut rng).unwrap();
        GENERAL_ONLY.with(|g| g.set(false));
        shape(&mcts.tree, ROOT)
    }

    #[test]
    fn the_fast_selection_passes_grow_the_general_selections_tree() {
        let mse = RaveSchedule::MinimumMse { bias: 0.05 };
        let fading = RaveSchedule::Fading {
            base: 50.0,
            per_move: 1.0,
        };
        for (schedule, c, grave) in [
            (mse, 0.0, None),
            (mse, 0.3, None),
            (mse, 0.3, Some(20)),
            (mse, 0.0, Some(20)),
            (fading, 0.2, Some(20)),
        ] {
            // With a horizon, through the kept scores (a short one: the sparse AMAF update).
            for horizon in [None, Some(2), Some(8)] {
                let mut b = Config::builder()
                    .rave(schedule)
                    .exploration(c)
                    .amaf_horizon(horizon)
                    .threads(1);
                if let Some(visits) = grave {
                    b = b.grave(visits);
                }
                let config = b.build().unwrap();
                assert_eq!(Kept::of(&config).is_some(), horizon.is_some());
                let fast = searched_tree(&config, false);
                assert!(count(&fast) > 100);
                assert!(
                    fast == searched_tree(&config, true),
                    "{schedule:?}, c = {c}, GRAVE {grave:?}, horizon {horizon:?}"
                );
            }
        }
    }

    /// Every child's kept value and bonus multiplier in `tree` against what its statistics
    /// give under `kept` (bit for bit); returns how many children were checked.
    fn check_kept(tree: &Arena<u8>, kept: Kept) -> usize {
        let mut checked = 0;
        let mut stack = vec![ROOT];
        while let Some(id) = stack.pop() {
            let range = tree.node(id).children();
            let first = range.start as NodeId;
            let scores = tree.scores(range.clone());
            let children = tree.slice(range);
            for (k, (ch, score)) in children.iter().zip(scores).enumerate() {
                let fresh = KeptScore::default();
                kept.refresh(ch, &fresh, children.len());
                let got = (score.value().to_bits(), score.explore().to_bits());
                let want = (fresh.value().to_bits(), fresh.explore().to_bits());
                assert_eq!(got, want, "child {k} of node {id}");
                checked += 1;
                stack.push(first + k as NodeId);
            }
        }
        checked
    }

    /// Gives every move 3 virtual visits with the win rate of its size and a bias (when
    /// active).
    struct Sizes(bool);

    impl Prior<Pile> for Sizes {
        fn priors(&self, _game: &Pile, moves: &[u8], out: &mut [PriorValue]) {
            for (&mv, p) in moves.iter().zip(out) {
                p.visits = 3;
                p.wins = 3.0 * f32::from(mv) / 12.0;
                p.bias = 0.2;
            }
        }

        fn is_active(&self) -> bool {
            self.0
        }
    }

    #[test]
    fn the_kept_values_follow_the_statistics_and_the_configuration() {
        let mse = |bias| RaveSchedule::MinimumMse { bias };
        let fading = RaveSchedule::Fading {
            base: 50.0,
            per_move: 1.0,
        };
        let build = |schedule, grave: Option<u32>, fpu| {
            let b = Config::builder()
                .rave(schedule)
                .exploration(0.3)
                .first_play_urgency(fpu)
                .amaf_horizon(Some(2))
                .threads(1);
            match grave {
                Some(visits) => b.grave(visits),
                None => b,
            }
            .build()
            .unwrap()
        };
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for (config, prior) in [
            (build(mse(0.05), None, 1.0), false),
            (build(mse(0.05), Some(20), 0.5), true),
            (build(fading, Some(20), 1.0), true),
        ] {
            let kept = Kept::of(&config).unwrap();
            let game = Pile(60, 0, 12);
            let mut mcts = Mcts::with_policies(game, config, UniformPlayout::new(), Sizes(prior));
            mcts.search(&Budget::simulations(3000), &mut rng).unwrap();
            assert!(check_kept(&mcts.tree, kept) > 300);
            // Another schedule: one more simulation, and every node keeps the new values.
            let other = build(mse(0.3), Some(20), 0.7);
            mcts.set_config(other.clone());
            mcts.search(&Budget::simulations(1), &mut rng).unwrap();
            check_kept(&mcts.tree, Kept::of(&other).unwrap());
            // The kept subtree after a move keeps its values.
            let mv = mcts.tree.node(mcts.tree.node(ROOT).first_child()).mv();
            mcts.advance(mv).unwrap();
            mcts.search(&Budget::simulations(200), &mut rng).unwrap();
            assert!(check_kept(&mcts.tree, Kept::of(&other).unwrap()) > 50);
        }
    }

    /// Take 1 to the third field (at most 3 but in the selection test, where more moves make
    /// AMAF count) from a pile; who takes the last stone wins.
    #[derive(Clone, Debug)]
    struct Pile(u32, Player, u8);

    impl Game for Pile {
        type Move = u8;
        fn to_move(&self) -> Player {
            self.1
        }
        fn legal_moves(&self, moves: &mut Vec<u8>) {
            moves.extend((1..=self.2).filter(|&k| u32::from(k) <= self.0));
        }
        fn play(&mut self, mv: u8) {
            self.0 -= u32::from(mv);
            self.1 = 1 - self.1;
        }
        fn result(&self) -> Option<Outcome> {
            (self.0 == 0).then(|| Outcome::win(1 - self.1))
        }
        fn move_index(&self, mv: u8) -> usize {
            usize::from(mv) - 1
        }
        fn move_bound(&self) -> usize {
            usize::from(self.2)
        }
    }

    /// A node and everything below it, as nested values (addresses left out).
    #[derive(Debug, PartialEq)]
    struct Shape {
        mv: u8,
        stats: (u32, u32, u32, u32),
        proof: u8,
        children: Vec<Shape>,
    }

    fn shape(tree: &Arena<u8>, i: NodeId) -> Shape {
        let n = tree.node(i).data();
        Shape {
            mv: n.mv,
            stats: (
                n.visits,
                n.wins.to_bits(),
                n.amaf_visits.to_bits(),
                n.amaf_wins.to_bits(),
            ),
            proof: n.proof,
            children: tree
                .node(i)
                .children()
                .map(|c| shape(tree, c as NodeId))
                .collect(),
        }
    }

    fn count(s: &Shape) -> usize {
        1 + s.children.iter().map(count).sum::<usize>()
    }

    fn config(threads: usize) -> Config {
        Config::builder()
            .rave(RaveSchedule::default())
            .threads(threads)
            .solver(false)
            .early_stop(false)
            .build()
            .unwrap()
    }

    #[test]
    fn advance_keeps_exactly_the_subtree_of_the_move() {
        for threads in [1, 4] {
            for offset in 0..3 {
                let mut mcts = Mcts::new(Pile(40, 0, 3), config(threads));
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
                mcts.search(&Budget::simulations(3000), &mut rng).unwrap();
                let root = mcts.tree.node(ROOT);
                assert_eq!(root.num_children(), 3);
                let child = root.first_child() + offset;
                check_tree(&mcts.tree, 0);
                let expected = shape(&mcts.tree, child);
                let bytes = mcts.tree_bytes();
                mcts.advance(expected.mv).unwrap();
                assert_eq!(
                    shape(&mcts.tree, ROOT),
                    expected,
                    "{threads} threads, move {}",
                    expected.mv
                );
                assert_eq!(mcts.tree_nodes(), count(&expected), "nothing else is kept");
                assert_eq!(mcts.tree_bytes(), bytes, "the arena is kept");
                // The kept tree is searched on (by any number of threads).
                mcts.set_config(config(5 - threads));
                let r = mcts.search(&Budget::simulations(500), &mut rng).unwrap();
                assert_eq!(r.simulations, 500);
            }
        }
    }

    /// Checks the shared tree below the root: every expanded node's children lie in the
    /// arena, after their parent's group, and no node is reachable twice; no expansion is left
    /// claimed; a node's visits are at least its children's (within `tolerance`, for lost
    /// updates). Returns the number of reachable nodes.
    fn check_tree(tree: &Arena<u8>, tolerance: u32) -> usize {
        let len = tree.end();
        let mut seen = vec![false; len];
        let mut stack = vec![ROOT];
        seen[ROOT as usize] = true;
        let mut reached = 1;
        while let Some(id) = stack.pop() {
            let n = tree.node(id);
            assert!(!n.is_claimed(), "node {id} is left claimed");
            let range = n.children();
            if range.is_empty() {
                continue;
            }
            assert!(
                range.start >= 1 && range.end <= len,
                "{range:?} out of 0..{len}"
            );
            assert_eq!(tree.slice(range.clone()).len(), range.len(), "contiguous");
            let mut sum = 0u64;
            for c in range {
                assert!(!seen[c], "node {c} is reachable twice");
                seen[c] = true;
                reached += 1;
                sum += u64::from(tree.node(c as NodeId).visits());
                stack.push(c as NodeId);
            }
            assert!(
                u64::from(n.visits()) + u64::from(tolerance) >= sum,
                "node {id}: {} visits, its children {sum}",
                n.visits()
            );
        }
        reached
    }

    #[test]
    fn a_tree_searched_by_four_threads_is_consistent() {
        for selection in ["uct", "rave", "grave"] {
            let builder = config(4).to_builder();
            let builder = match selection {
                "uct" => builder.uct(),
                "grave" => builder.grave(20),
                _ => builder,
            };
            let config = builder.playout_horizon(true).build().unwrap();
            let mut mcts = Mcts::new(Pile(300, 0, 3), config);
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
            let r = mcts.search(&Budget::simulations(40_000), &mut rng).unwrap();
            assert_eq!(r.simulations, 40_000);
            // Visits are counted exactly (lost updates may touch only the rewards).
            let tolerance = 0;
            let reached = check_tree(&mcts.tree, tolerance);
            assert_eq!(
                reached,
                mcts.tree_nodes(),
                "{selection}: every node is reachable"
            );
            assert!(reached > 1000, "{selection}: a real tree ({reached} nodes)");
            // No virtual loss is left: the root's visits are the completed simulations.
            let used = r.simulations - r.discarded;
            let visits = r.root_visits;
            assert!(
                visits.abs_diff(used) <= u64::from(tolerance),
                "{selection}: {visits} root visits for {used} simulations"
            );
            let children: u64 = r.children.iter().map(|c| c.visits).sum();
            assert!(children <= visits + u64::from(tolerance));
            if selection != "uct" {
                // Every simulation gives the root child it went through an AMAF sample, and
                // no child more than one: the samples each thread summed apart (for nodes with
                // many visits) were all added into the tree. (AMAF sums may lose an update
                // now and then: 2% tolerance.)
                let samples: f64 = r.children.iter().map(|c| c.amaf_visits).sum();
                assert!(
                    samples >= 0.98 * used as f64,
                    "{selection}: {samples} AMAF samples"
                );
                for c in &r.children {
                    assert!(c.amaf_visits <= 1.02 * used as f64, "{selection}: {c:?}");
                }
                assert!(
                    mcts.workers
                        .iter()
                        .all(|w| w.deferred.iter().all(|d| d.node == NONE))
                );
            }
        }
    }

    #[test]
    fn one_thread_leaves_an_exact_tree() {
        let config = config(1)
            .to_builder()
            .playout_horizon(true)
            .build()
            .unwrap();
        let mut mcts = Mcts::new(Pile(300, 0, 3), config);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let r = mcts.search(&Budget::simulations(20_000), &mut rng).unwrap();
        assert_eq!(check_tree(&mcts.tree, 0), mcts.tree_nodes());
        assert_eq!(r.root_visits, r.simulations - r.discarded);
    }

    #[test]
    fn several_threads_prove_the_pile_game() {
        for stones in [9u32, 12, 17, 24] {
            let config = Config::builder()
                .threads(4)
                .early_stop(false)
                .build()
                .unwrap();
            let mut mcts = Mcts::new(Pile(stones, 0, 3), config);
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(u64::from(stones));
            let r = mcts
                .search(&Budget::simulations(400_000), &mut rng)
                .unwrap();
            let expected = if stones % 4 == 0 {
                Proof::Loss
            } else {
                Proof::Win
            };
            assert_eq!(r.proven, Some(expected), "{stones} stones");
            assert_eq!(r.stop, StopReason::Proven);
            if expected == Proof::Win {
                assert_eq!((stones - u32::from(r.best_move)) % 4, 0, "{stones} stones");
            }
            check_tree(&mcts.tree, 400);
        }
    }

    #[test]
    fn a_stopped_playout_grows_the_horizon_by_at_least_one_move() {
        assert_eq!(grown_horizon(10, 1.5), 15);
        assert_eq!(grown_horizon(10, 1.0), 11);
        assert_eq!(grown_horizon(1, 1.01), 2);
        // Past the largest horizon: no horizon.
        assert_eq!(grown_horizon(40_000, 2.0), 0);
        assert_eq!(grown_horizon(u16::MAX, 1.0), 0);
    }

    #[test]
    fn a_player_moving_again_has_grave_references_of_its_own() {
        // Alternating moves: one slot per player.
        assert_eq!(grave_slot(0, None), 0);
        assert_eq!(grave_slot(1, Some(0)), 1);
        assert_eq!(grave_slot(0, Some(1)), 0);
        // The same player again: other slots.
        assert_eq!(grave_slot(0, Some(0)), 2);
        assert_eq!(grave_slot(1, Some(1)), 3);
    }

    #[test]
    fn a_well_visited_node_becomes_the_grave_reference_of_those_below() {
        let schedule = RaveSchedule::MinimumMse { bias: 0.1 };
        let grave = Selection::Grave {
            schedule,
            min_visits: 50,
        };
        let mut reference = NONE;
        assert_eq!(
            rave_source(grave, 0, 10, &mut reference),
            (Some(schedule), NONE)
        );
        assert_eq!(
            rave_source(grave, 3, 50, &mut reference),
            (Some(schedule), NONE)
        );
        assert_eq!(reference, 3);
        assert_eq!(
            rave_source(grave, 7, 49, &mut reference),
            (Some(schedule), 3)
        );
        let rave = Selection::Rave(schedule);
        assert_eq!(
            rave_source(rave, 7, 0, &mut reference),
            (Some(schedule), NONE)
        );
        assert_eq!(
            rave_source(Selection::Uct, 7, 0, &mut reference),
            (None, NONE)
        );
    }

    #[test]
    fn the_sorted_tail_starts_after_the_last_move_out_of_order() {
        let tail = |moves: &[u8]| sorted_tail(&Pile(30, 0, 3), moves);
        assert_eq!(tail(&[]), 0);
        assert_eq!(tail(&[2]), 0);
        assert_eq!(tail(&[1, 2, 2, 3]), 0);
        assert_eq!(tail(&[3, 1, 2]), 1);
        assert_eq!(tail(&[1, 3, 2, 2, 3]), 2);
        assert_eq!(tail(&[3, 2, 1]), 2);
    }
}
