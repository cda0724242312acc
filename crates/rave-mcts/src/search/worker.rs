//! One search thread: its tree (a node arena), its reusable buffers, and the simulation that
//! selects, expands and plays out on that tree (backpropagation and proofs in `backprop`).

mod backprop;

use std::time::{Duration, Instant};

use rand::Rng;

use super::select::{Blend, progressive_bias, rave_value, select_fast, select_fast_unproven};
use crate::config::{Config, FinalMove, PriorTarget, RaveSchedule, Selection};
use crate::game::{Game, Narrowing, Outcome, Player, Playout, Prior, PriorValue, Trace};
use crate::result::StopReason;
use crate::tree::{
    LOSS, MAX_CHILDREN, NONE, Node, NodeId, ROOT, UNPROVEN, WIN, proof_of_reward, proof_value,
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
    pub(super) node_limit: usize,
    pub(super) nodes_only: bool,
}

/// What one worker reports.
pub(super) struct Report {
    pub(super) simulations: u64,
    pub(super) discarded: u64,
    pub(super) stop: StopReason,
    pub(super) max_depth: usize,
}

/// One search thread: a tree and its reusable buffers.
pub(super) struct Worker<G: Game, P> {
    pub(super) nodes: Vec<Node<G::Move>>,
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
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    pub(super) fn new(playout: P) -> Self {
        Worker {
            nodes: Vec::new(),
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
        }
    }

    pub(super) fn clear(&mut self) {
        self.nodes.clear();
        self.grave_owner = NONE;
    }

    /// Creates and expands the root if needed. Returns false if the node limit is too small.
    pub(super) fn prepare<K: Prior<G>>(&mut self, game: &G, prior: &K, node_limit: usize) -> bool {
        let bound = game.move_bound();
        if self.marks.len() != 2 * bound {
            self.marks = vec![0; 2 * bound];
            self.mark_gen = 0;
            self.grave_map = vec![0; bound];
            self.grave_stamp = 0;
            self.grave_owner = NONE;
        }
        if self.nodes.is_empty() {
            self.moves.clear();
            game.legal_moves(&mut self.moves);
            let Some(&placeholder) = self.moves.first() else {
                return false;
            };
            self.nodes.push(Node::new(placeholder, 0));
        }
        if !self.nodes[ROOT as usize].is_expanded() {
            self.expand(ROOT, game, prior, node_limit.max(self.nodes.len())) == Expansion::Done
        } else {
            true
        }
    }

    /// Creates the children of `node` (state `game`).
    fn expand<K: Prior<G>>(
        &mut self,
        node: NodeId,
        game: &G,
        prior: &K,
        node_limit: usize,
    ) -> Expansion {
        self.moves.clear();
        game.legal_moves(&mut self.moves);
        if self.moves.is_empty() {
            return Expansion::NoMoves;
        }
        let narrowing = prior.narrow(game, &mut self.moves);
        if self.moves.is_empty() {
            // A prior that broke its contract: search every move.
            game.legal_moves(&mut self.moves);
        }
        let count = self.moves.len();
        let first = self.nodes.len();
        if first + count > node_limit || first + count > NONE as usize || count > MAX_CHILDREN {
            return Expansion::Full;
        }
        let horizon = self.nodes[node as usize].horizon;
        reserve_within(&mut self.nodes, count, node_limit);
        self.nodes
            .extend(self.moves.iter().map(|&mv| Node::new(mv, horizon)));
        if prior.is_active() {
            self.priors.clear();
            self.priors.resize(count, PriorValue::default());
            prior.priors(game, &self.moves, &mut self.priors);
            let (uct, amaf) = match self.prior_target {
                PriorTarget::Both => (true, true),
                PriorTarget::Uct => (true, false),
                PriorTarget::Amaf => (false, true),
            };
            for (n, p) in self.nodes[first..].iter_mut().zip(&self.priors) {
                n.bias = (p.bias * 100.0).round().clamp(0.0, 255.0) as u8;
                let wins = p.wins.clamp(0.0, p.visits as f32);
                if uct {
                    n.visits = p.visits;
                    n.wins = wins;
                }
                if amaf {
                    n.amaf_visits = p.visits as f32;
                    n.amaf_wins = wins;
                }
            }
        }
        let n = &mut self.nodes[node as usize];
        n.first_child = first as NodeId;
        n.num_children = count as u16;
        if self.solver {
            // The node's proof is its mover's: the opponent of the player to move here.
            n.proof = match narrowing {
                Narrowing::Open => UNPROVEN,
                Narrowing::Win => LOSS,
                Narrowing::Loss => WIN,
            };
        }
        Expansion::Done
    }

    /// Keeps only the subtree of the root child playing `mv` (or nothing).
    ///
    /// The subtree is compacted in place, keeping the arena's memory: a fresh arena per move
    /// would cost page faults on every move (about a tenth of the time at 0.5 s a move).
    pub(super) fn advance(&mut self, mv: G::Move) {
        let Some(root) = self.nodes.first() else {
            return;
        };
        let child = self.nodes[root.children()].iter().position(|c| c.mv == mv);
        let Some(offset) = child else {
            self.clear();
            return;
        };
        let child = root.first_child as usize + offset;
        let mut groups = self.subtree_groups(child);
        // Groups never overlap and all lie at index 1 or above (0 is the old root), so the
        // groups before one in address order fill at most the space below it: each group
        // moves down or stays, and the new root takes index 0.
        groups.sort_unstable_by_key(|g| g.0);
        self.nodes[ROOT as usize] = self.nodes[child];
        let mut next = 1;
        for g in &mut groups {
            let (old, len) = (g.0 as usize, g.1 as usize);
            self.nodes.copy_within(old..old + len, next);
            g.1 = next as NodeId;
            next += len;
        }
        self.nodes.truncate(next);
        for n in &mut self.nodes {
            if n.is_expanded() {
                let at = groups.partition_point(|g| g.0 < n.first_child);
                debug_assert_eq!(groups[at].0, n.first_child, "a kept group");
                n.first_child = groups[at].1;
            }
        }
        self.grave_owner = NONE;
    }

    /// The children groups (first child, count) below `top`, in no particular order.
    fn subtree_groups(&self, top: usize) -> Vec<(NodeId, NodeId)> {
        let mut groups = Vec::new();
        let mut stack = vec![top];
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i];
            if n.is_expanded() {
                groups.push((n.first_child, NodeId::from(n.num_children)));
                // Only the expanded children: most are leaves, and the stack stays small.
                let expanded = |&c: &usize| self.nodes[c].is_expanded();
                stack.extend(n.children().filter(expanded));
            }
        }
        groups
    }

    /// Runs simulations until a limit is reached.
    pub(super) fn run<R: Rng + ?Sized, K: Prior<G>>(
        &mut self,
        root: &G,
        config: &Config,
        prior: &K,
        rng: &mut R,
        limits: Limits,
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
        loop {
            if self.nodes[ROOT as usize].proof != UNPROVEN {
                report.stop = StopReason::Proven;
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
                report.stop = StopReason::Time;
                break;
            }
            if full && limits.nodes_only {
                report.stop = StopReason::Nodes;
                break;
            }
            if config.early_stop()
                && config.final_move() == FinalMove::MostVisits
                && report.simulations.is_multiple_of(16)
                && self.best_is_fixed(&limits, report.simulations, start)
            {
                report.stop = StopReason::BestMoveFixed;
                break;
            }
            let (used, tree_full, depth) =
                self.simulate(root, root_player, config, prior, rng, limits.node_limit);
            full |= tree_full;
            report.simulations += 1;
            report.max_depth = report.max_depth.max(depth);
            if !used {
                report.discarded += 1;
            }
        }
        report
    }

    /// Whether the most visited root child can no longer be overtaken within the limits.
    fn best_is_fixed(&self, limits: &Limits, done: u64, start: Instant) -> bool {
        let root = &self.nodes[ROOT as usize];
        if root.num_children == 1 {
            return true;
        }
        let mut remaining = u64::MAX;
        if let Some(n) = limits.simulations {
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
        for c in &self.nodes[root.children()] {
            if c.visits > best {
                second = best;
                best = c.visits;
            } else if c.visits > second {
                second = c.visits;
            }
        }
        u64::from(best - second) > remaining
    }

    /// One simulation. Returns (used, tree was full, depth).
    fn simulate<R: Rng + ?Sized, K: Prior<G>>(
        &mut self,
        root: &G,
        root_player: Player,
        config: &Config,
        prior: &K,
        rng: &mut R,
        node_limit: usize,
    ) -> (bool, bool, usize) {
        let mut game = self.scratch.take().unwrap_or_else(|| root.clone());
        game.clone_from(root);
        let (leaf, node, full) = self.descend(&mut game, root_player, config, prior, node_limit);
        let depth = self.path.len() - 1;
        let tree_weight = 1.0 / (self.trace.len().max(1)) as f32;
        let (outcome, weight, newly_proven) = match leaf {
            Leaf::Proven(o) => (o, tree_weight, false),
            Leaf::Terminal(o, newly) => (o, tree_weight, newly),
            Leaf::Playout => match self.playout_from(node, &mut game, config, rng) {
                Some((o, w)) => (o, w, false),
                None => {
                    self.scratch = Some(game);
                    return (false, full, depth);
                }
            },
        };
        self.scratch = Some(game);
        self.backpropagate(root, root_player, config, outcome, weight);
        if newly_proven {
            self.propagate_proof();
        }
        (true, full, depth)
    }

    /// Walks down from the root, selecting children, to where the simulation's result comes
    /// from, filling the path and the trace and playing the moves in `game`. Returns the
    /// leaf, its node and whether the tree was full.
    ///
    /// At most one expansion per simulation: the node expanded, then a playout from the child
    /// selected below it. (A prior gives new children virtual visits, which must not make
    /// every simulation expand its way down to the end of the game.)
    #[inline]
    fn descend<K: Prior<G>>(
        &mut self,
        game: &mut G,
        root_player: Player,
        config: &Config,
        prior: &K,
        node_limit: usize,
    ) -> (Leaf, NodeId, bool) {
        self.path.clear();
        self.trace.clear();
        self.path.push(ROOT);
        let mut node = ROOT;
        let mut grave_ref = [NONE; 2];
        let mut expanded = false;
        loop {
            let n = self.nodes[node as usize];
            if n.proof != UNPROVEN {
                let mover = self.mover(root_player);
                return (
                    Leaf::Proven(outcome_for(mover, proof_value(n.proof))),
                    node,
                    false,
                );
            }
            if !n.is_expanded() {
                if let Some(outcome) = game.result() {
                    let leaf = self.reach_terminal(node, outcome, root_player, config);
                    return (leaf, node, false);
                }
                if node != ROOT && (expanded || n.visits < config.expand_threshold()) {
                    return (Leaf::Playout, node, false);
                }
                match self.expand(node, game, prior, node_limit) {
                    Expansion::Done => {
                        expanded = true;
                        if let Some(leaf) = self.proven_by_prior(node, root_player) {
                            return (leaf, node, false);
                        }
                    }
                    Expansion::Full => return (Leaf::Playout, node, true),
                    Expansion::NoMoves => {
                        return (Leaf::Terminal(Outcome::DRAW, false), node, false);
                    }
                }
            }
            let player = game.to_move();
            let child = self.select(node, player, config, &mut grave_ref, game);
            let mv = self.nodes[child as usize].mv;
            self.trace.push(player, mv);
            game.play(mv);
            self.path.push(child);
            node = child;
        }
    }

    /// A terminal state reached at `node`: with the solver on, a decisive or drawn result
    /// proves the node.
    #[inline]
    fn reach_terminal(
        &mut self,
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
        self.nodes[node as usize].proof = p;
        self.mark_parent_of(self.path.len() - 1);
        Leaf::Terminal(outcome, true)
    }

    /// The leaf, when the prior proved the just expanded `node` while narrowing its moves.
    #[inline]
    fn proven_by_prior(&mut self, node: NodeId, root_player: Player) -> Option<Leaf> {
        let proof = self.nodes[node as usize].proof;
        if proof == UNPROVEN {
            return None;
        }
        self.mark_parent_of(self.path.len() - 1);
        let mover = self.mover(root_player);
        Some(Leaf::Terminal(outcome_for(mover, proof_value(proof)), true))
    }

    /// A playout from `node` (state `game`): its outcome and weight, or `None` when it
    /// stopped at the node's playout horizon (the simulation is discarded and the horizon
    /// grows). A decisive playout shorter than the horizon sets it.
    #[inline]
    fn playout_from<R: Rng + ?Sized>(
        &mut self,
        node: NodeId,
        game: &mut G,
        config: &Config,
        rng: &mut R,
    ) -> Option<(Outcome, f32)> {
        let horizon = self.nodes[node as usize].horizon;
        let max_moves = if config.playout_horizon() && horizon > 0 {
            usize::from(horizon)
        } else {
            usize::MAX
        };
        let r = self.playout.playout(game, rng, max_moves, &mut self.trace);
        if config.playout_horizon() {
            let n = &mut self.nodes[node as usize];
            if r.stopped_early && horizon > 0 {
                n.horizon = grown_horizon(horizon, config.horizon_growth());
                return None;
            }
            if r.outcome.is_decisive() && (horizon == 0 || r.length < usize::from(horizon)) {
                n.horizon = r.length.clamp(1, usize::from(u16::MAX)) as u16;
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
    fn select(
        &mut self,
        node: NodeId,
        player: Player,
        config: &Config,
        grave_ref: &mut [NodeId; 2],
        game: &G,
    ) -> NodeId {
        let parent = self.nodes[node as usize];
        let range = parent.children();
        let side = player.min(1);
        let (schedule, reference) = rave_source(
            config.selection(),
            node,
            parent.visits,
            &mut grave_ref[side],
        );
        if reference != NONE && self.grave_owner != reference {
            self.build_grave_map(reference, game);
        }
        let scoring = Scoring {
            schedule,
            reference,
            blend: schedule.and_then(|s| Blend::of(s, range.len())),
            c: config.exploration() as f32,
            ln_n: f64::from(parent.visits.max(1)).ln() as f32,
            fpu: config.first_play_urgency() as f32,
            moves: range.len(),
        };
        if let Some(blend) = scoring.blend
            && reference == NONE
            && scoring.c <= 0.0
        {
            return self.select_fast(range, blend, scoring.fpu, parent.child_proven);
        }
        self.select_general(range, &scoring, game)
    }

    /// `select` in the general case: a proven win at once, proven losses skipped, else the
    /// best score (see [`Worker::child_score`]) plus the progressive bias.
    #[inline]
    fn select_general(&self, range: std::ops::Range<usize>, scoring: &Scoring, game: &G) -> NodeId {
        let mut best = NONE;
        let mut best_score = f32::NEG_INFINITY;
        for i in range.clone() {
            let ch = &self.nodes[i];
            match ch.proof {
                WIN => return i as NodeId,
                LOSS => continue,
                _ => {}
            }
            let score = self.child_score(ch, scoring, game) + progressive_bias(ch);
            if score > best_score {
                best_score = score;
                best = i as NodeId;
            }
        }
        if best == NONE {
            best = self.most_visited(range);
        }
        best
    }

    /// A child's UCT value (without a RAVE schedule), else its RAVE value on its own or the
    /// GRAVE reference's AMAF statistics, plus the UCT bonus when exploration is on.
    #[inline]
    fn child_score(&self, ch: &Node<G::Move>, s: &Scoring, game: &G) -> f32 {
        let n = ch.visits as f32;
        let Some(schedule) = s.schedule else {
            return if ch.visits == 0 {
                s.fpu
            } else {
                ch.wins / n + s.c * (s.ln_n / n).sqrt()
            };
        };
        let (an, aw) = if s.reference == NONE {
            (ch.amaf_visits, ch.amaf_wins)
        } else {
            self.grave_stats(game.move_index(ch.mv))
        };
        let mut v = match s.blend {
            Some(blend) => blend.value(n, ch.wins, an, aw, s.fpu),
            None => rave_value(schedule, n, ch.wins, an, aw, s.moves, s.fpu),
        };
        if s.c > 0.0 && (ch.visits > 0 || an > 0.0) {
            v += s.c * (s.ln_n / n.max(1.0)).sqrt();
        }
        v
    }

    /// `select` in its most common case (see [`select_fast`]).
    #[inline]
    fn select_fast(
        &self,
        range: std::ops::Range<usize>,
        blend: Blend,
        fpu: f32,
        child_proven: bool,
    ) -> NodeId {
        let children = &self.nodes[range.clone()];
        if !child_proven {
            return (range.start + select_fast_unproven(children, blend, fpu)) as NodeId;
        }
        match select_fast(children, blend, fpu) {
            Some(j) => (range.start + j) as NodeId,
            None => self.most_visited(range),
        }
    }

    /// Every child is a proven loss: the most visited one (the first child if none).
    fn most_visited(&self, range: std::ops::Range<usize>) -> NodeId {
        let first = range.start;
        range.max_by_key(|&i| self.nodes[i].visits).unwrap_or(first) as NodeId
    }

    fn build_grave_map(&mut self, reference: NodeId, game: &G) {
        self.grave_stamp = self.grave_stamp.wrapping_add(1);
        if self.grave_stamp == 0 {
            self.grave_map.fill(0);
            self.grave_stamp = 1;
        }
        let stamp = u64::from(self.grave_stamp) << 32;
        for i in self.nodes[reference as usize].children() {
            let idx = game.move_index(self.nodes[i].mv);
            if let Some(slot) = self.grave_map.get_mut(idx) {
                *slot = stamp | i as u64;
            }
        }
        self.grave_owner = reference;
    }

    #[inline]
    fn grave_stats(&self, idx: usize) -> (f32, f32) {
        match self.grave_map.get(idx) {
            Some(&v) if (v >> 32) as u32 == self.grave_stamp => {
                let n = &self.nodes[(v & 0xffff_ffff) as usize];
                (n.amaf_visits, n.amaf_wins)
            }
            _ => (0.0, 0.0),
        }
    }
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
    /// `ln` of the parent's visits (at least 1).
    ln_n: f32,
    /// First-play urgency: the value of a child without statistics.
    fpu: f32,
    /// The parent's number of children.
    moves: usize,
}

/// The RAVE schedule of `selection` (`None` for plain UCT) and the GRAVE reference for the
/// children of `node` with `visits` visits: a node with at least GRAVE's `min_visits`
/// becomes the reference (`reference`, kept per side down the path) and uses its own AMAF
/// statistics (`NONE`); one with fewer uses the last reference above it.
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

/// Makes room for `count` more nodes, doubling the capacity as `Vec` does but never past
/// `limit` (the node budget, which the caller has checked `len + count` against), so that
/// the memory a tree holds stays within its budget.
fn reserve_within<T>(nodes: &mut Vec<T>, count: usize, limit: usize) {
    let needed = nodes.len() + count;
    if needed > nodes.capacity() {
        let target = needed.max(nodes.capacity().saturating_mul(2).min(limit));
        nodes.reserve_exact(target - nodes.len());
    }
}

#[derive(PartialEq, Eq)]
enum Expansion {
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
    use crate::{NoPrior, UniformPlayout};
    use rand::SeedableRng;

    /// Take 1, 2 or 3 from a pile; who takes the last stone wins.
    #[derive(Clone, Debug)]
    struct Pile(u32, Player);

    impl Game for Pile {
        type Move = u8;
        fn to_move(&self) -> Player {
            self.1
        }
        fn legal_moves(&self, moves: &mut Vec<u8>) {
            moves.extend((1..=3u8).filter(|&k| u32::from(k) <= self.0));
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
            3
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

    fn shape(nodes: &[Node<u8>], i: usize) -> Shape {
        let n = &nodes[i];
        Shape {
            mv: n.mv,
            stats: (
                n.visits,
                n.wins.to_bits(),
                n.amaf_visits.to_bits(),
                n.amaf_wins.to_bits(),
            ),
            proof: n.proof,
            children: n.children().map(|c| shape(nodes, c)).collect(),
        }
    }

    #[test]
    fn advance_keeps_exactly_the_subtree_of_the_move() {
        let config = Config::default();
        let game = Pile(40, 0);
        let mut worker = Worker::new(UniformPlayout::new());
        assert!(worker.prepare(&game, &NoPrior, usize::MAX));
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let limits = Limits {
            simulations: Some(3000),
            deadline: None,
            time: None,
            node_limit: usize::MAX,
            nodes_only: false,
        };
        worker.run(&game, &config, &NoPrior, &mut rng, limits);
        let root = worker.nodes[ROOT as usize];
        for offset in 0..usize::from(root.num_children) {
            let mut w: Worker<Pile, _> = Worker::new(UniformPlayout::new());
            w.nodes = Vec::with_capacity(2 * worker.nodes.len());
            w.nodes.extend_from_slice(&worker.nodes);
            let child = root.first_child as usize + offset;
            let expected = shape(&w.nodes, child);
            let capacity = w.nodes.capacity();
            w.advance(expected.mv);
            assert_eq!(
                shape(&w.nodes, ROOT as usize),
                expected,
                "move {}",
                expected.mv
            );
            let count = |s: &Shape| -> usize {
                fn go(s: &Shape) -> usize {
                    1 + s.children.iter().map(go).sum::<usize>()
                }
                go(s)
            };
            assert_eq!(w.nodes.len(), count(&expected), "nothing else is kept");
            assert_eq!(w.nodes.capacity(), capacity, "the arena is kept");
        }
    }

    #[test]
    fn reserve_within_doubles_up_to_the_limit_only() {
        let mut nodes: Vec<u32> = Vec::new();
        let limit = 1000;
        while nodes.len() + 7 <= limit {
            reserve_within(&mut nodes, 7, limit);
            assert!(nodes.capacity() <= limit, "capacity {}", nodes.capacity());
            nodes.extend([0; 7]);
        }
        assert!(nodes.len() > limit - 7);
        // Doubling, not one reservation per call.
        let mut grown: Vec<u32> = Vec::new();
        let mut reallocations = 0;
        for _ in 0..100 {
            let before = grown.capacity();
            reserve_within(&mut grown, 7, 1 << 20);
            reallocations += usize::from(grown.capacity() != before);
            grown.extend([0; 7]);
        }
        assert!(reallocations < 15, "{reallocations} reallocations");
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
}
