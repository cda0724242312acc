//! The search: [`Mcts`] owns the position, the trees (one per thread) and the policies.
//!
//! Why one file of about 1,300 lines: selection, expansion, backpropagation, proof
//! propagation and tree reuse all work on a worker's private node arena and its invariants
//! (contiguous children, the proof codes, the `child_proven` flag, the AMAF marks); split
//! into modules they would need that arena's fields public to one another. The functions
//! stay short; the unit tests (selection against the textbook formula) are at the bottom.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::MctsError;
use crate::config::{
    AmafWeighting, Budget, Config, FinalMove, PriorTarget, RaveSchedule, Selection,
};
use crate::game::{
    Game, Narrowing, NoPrior, Outcome, Player, Playout, Prior, PriorValue, Trace, UniformPlayout,
};
use crate::result::{ChildStats, Proof, SearchResult, StopReason};
use crate::tree::{
    DRAW, LOSS, MAX_CHILDREN, NONE, Node, NodeId, ROOT, UNPROVEN, WIN, proof_of_reward, proof_value,
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
struct Limits {
    simulations: Option<u64>,
    deadline: Option<Instant>,
    time: Option<Duration>,
    node_limit: usize,
    nodes_only: bool,
}

/// What one worker reports.
struct Report {
    simulations: u64,
    discarded: u64,
    stop: StopReason,
    max_depth: usize,
}

/// One search thread: a tree and its reusable buffers.
struct Worker<G: Game, P> {
    nodes: Vec<Node<G::Move>>,
    spare: Vec<Node<G::Move>>,
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
    prior_target: PriorTarget,
    /// Whether the MCTS-solver is on (set from the config before each search).
    solver: bool,
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    fn new(playout: P) -> Self {
        Worker {
            nodes: Vec::new(),
            spare: Vec::new(),
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

    fn clear(&mut self) {
        self.nodes.clear();
        self.grave_owner = NONE;
    }

    /// Creates and expands the root if needed. Returns false if the node limit is too small.
    fn prepare<K: Prior<G>>(&mut self, game: &G, prior: &K, node_limit: usize) -> bool {
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
    fn advance(&mut self, mv: G::Move) {
        let Some(root) = self.nodes.first() else {
            return;
        };
        let child = self.nodes[root.children()].iter().position(|c| c.mv == mv);
        let Some(offset) = child else {
            self.clear();
            return;
        };
        let child = root.first_child as usize + offset;
        // The subtree is at most the whole tree: one exact reservation, no doubling.
        self.spare.clear();
        self.spare.reserve_exact(self.nodes.len());
        self.spare.push(self.nodes[child]);
        let mut i = 0;
        while i < self.spare.len() {
            let n = self.spare[i];
            if n.is_expanded() {
                let new_first = self.spare.len() as NodeId;
                self.spare.extend_from_slice(&self.nodes[n.children()]);
                self.spare[i].first_child = new_first;
            }
            i += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        // Free the old tree: keeping it as a buffer would double the memory held between
        // moves.
        self.spare = Vec::new();
        self.grave_owner = NONE;
    }

    /// Runs simulations until a limit is reached.
    fn run<R: Rng + ?Sized, K: Prior<G>>(
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
        self.path.clear();
        self.trace.clear();
        self.path.push(ROOT);
        let mut node = ROOT;
        let mut grave_ref = [NONE; 2];
        let mut full = false;
        // At most one expansion per simulation: the node expanded, then a playout from the
        // child selected below it. (A prior gives new children virtual visits, which must not
        // make every simulation expand its way down to the end of the game.)
        let mut expanded = false;
        let leaf = loop {
            let n = self.nodes[node as usize];
            if n.proof != UNPROVEN {
                let mover = self.mover(root_player);
                let v = proof_value(n.proof);
                break Leaf::Proven(outcome_for(mover, v));
            }
            if !n.is_expanded() {
                if let Some(outcome) = game.result() {
                    let mut newly = false;
                    if config.solver() {
                        let mover = self.mover(root_player);
                        let p = proof_of_reward(outcome.reward(mover), outcome.reward(1 - mover));
                        if p != UNPROVEN {
                            self.nodes[node as usize].proof = p;
                            self.mark_parent_of(self.path.len() - 1);
                            newly = true;
                        }
                    }
                    break Leaf::Terminal(outcome, newly);
                }
                if node != ROOT && (expanded || n.visits < config.expand_threshold()) {
                    break Leaf::Playout;
                }
                match self.expand(node, &game, prior, node_limit) {
                    Expansion::Done => {
                        expanded = true;
                        let proof = self.nodes[node as usize].proof;
                        if proof != UNPROVEN {
                            // The prior proved the node while narrowing its moves.
                            self.mark_parent_of(self.path.len() - 1);
                            let mover = self.mover(root_player);
                            break Leaf::Terminal(outcome_for(mover, proof_value(proof)), true);
                        }
                    }
                    Expansion::Full => {
                        full = true;
                        break Leaf::Playout;
                    }
                    Expansion::NoMoves => break Leaf::Terminal(Outcome::DRAW, false),
                }
            }
            let player = game.to_move();
            let child = self.select(node, player, config, &mut grave_ref, &game);
            let mv = self.nodes[child as usize].mv;
            self.trace.push(player, mv);
            game.play(mv);
            self.path.push(child);
            node = child;
        };
        let depth = self.path.len() - 1;
        let (outcome, weight, newly_proven) = match leaf {
            Leaf::Proven(o) => (o, 1.0 / (self.trace.len().max(1)) as f32, false),
            Leaf::Terminal(o, newly) => (o, 1.0 / (self.trace.len().max(1)) as f32, newly),
            Leaf::Playout => {
                let horizon = self.nodes[node as usize].horizon;
                let max_moves = if config.playout_horizon() && horizon > 0 {
                    usize::from(horizon)
                } else {
                    usize::MAX
                };
                let r = self
                    .playout
                    .playout(&mut game, rng, max_moves, &mut self.trace);
                if config.playout_horizon() {
                    let n = &mut self.nodes[node as usize];
                    if r.stopped_early && horizon > 0 {
                        let grown = (f64::from(horizon) * config.horizon_growth()).ceil();
                        let grown = grown.max(f64::from(horizon) + 1.0);
                        n.horizon = if grown > f64::from(u16::MAX) {
                            0
                        } else {
                            grown as u16
                        };
                        self.scratch = Some(game);
                        return (false, full, depth);
                    }
                    if r.outcome.is_decisive() && (horizon == 0 || r.length < usize::from(horizon))
                    {
                        n.horizon = r.length.clamp(1, usize::from(u16::MAX)) as u16;
                    }
                }
                (r.outcome, r.weight, false)
            }
        };
        self.scratch = Some(game);
        self.backpropagate(root, root_player, config, outcome, weight);
        if newly_proven {
            self.propagate_proof();
        }
        (true, full, depth)
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
        let ln_n = f64::from(parent.visits.max(1)).ln();
        let c = config.exploration();
        let fpu = config.first_play_urgency();
        let side = player.min(1);
        let (schedule, reference) = match config.selection() {
            Selection::Uct => (None, NONE),
            Selection::Rave(s) => (Some(s), NONE),
            Selection::Grave {
                schedule,
                min_visits,
            } => {
                if parent.visits >= min_visits {
                    grave_ref[side] = node;
                    (Some(schedule), NONE)
                } else {
                    (Some(schedule), grave_ref[side])
                }
            }
        };
        if reference != NONE && self.grave_owner != reference {
            self.build_grave_map(reference, game);
        }
        let blend = schedule.and_then(|s| Blend::of(s, range.len()));
        let c = c as f32;
        let ln_n = ln_n as f32;
        let fpu = fpu as f32;
        if let Some(blend) = blend
            && reference == NONE
            && c <= 0.0
        {
            return self.select_fast(range, blend, fpu, parent.child_proven);
        }
        let mut best = NONE;
        let mut best_score = f32::NEG_INFINITY;
        for i in range.clone() {
            let ch = &self.nodes[i];
            match ch.proof {
                WIN => return i as NodeId,
                LOSS => continue,
                _ => {}
            }
            let n = ch.visits as f32;
            let score = match schedule {
                None => {
                    if ch.visits == 0 {
                        fpu
                    } else {
                        ch.wins / n + c * (ln_n / n).sqrt()
                    }
                }
                Some(s) => {
                    let (an, aw) = if reference == NONE {
                        (ch.amaf_visits, ch.amaf_wins)
                    } else {
                        self.grave_stats(game.move_index(ch.mv))
                    };
                    let mut v = if let Some(blend) = blend {
                        blend.value(n, ch.wins, an, aw, fpu)
                    } else if ch.visits == 0 && an <= 0.0 {
                        fpu
                    } else {
                        let q = if ch.visits > 0 { ch.wins / n } else { 0.0 };
                        if an > 0.0 {
                            let beta = s.beta(f64::from(n), f64::from(an), range.len()) as f32;
                            (1.0 - beta) * q + beta * (aw / an)
                        } else {
                            q
                        }
                    };
                    if c > 0.0 && (ch.visits > 0 || an > 0.0) {
                        v += c * (ln_n / n.max(1.0)).sqrt();
                    }
                    v
                }
            };
            let score = score + progressive_bias(ch);
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

    /// Updates visits, rewards and AMAF statistics along the path.
    fn backpropagate(
        &mut self,
        game: &G,
        root_player: Player,
        config: &Config,
        outcome: Outcome,
        playout_weight: f32,
    ) {
        let trace = self.trace.raw();
        let depth = self.path.len() - 1;
        let root_mover = 1 - root_player.min(1);
        for (k, &id) in self.path.iter().enumerate() {
            let mover = if k == 0 {
                root_mover
            } else {
                trace[k - 1].1 as Player
            };
            let n = &mut self.nodes[id as usize];
            n.visits = n.visits.saturating_add(1);
            n.wins += outcome.reward(mover);
        }
        if config.selection() == Selection::Uct {
            return;
        }
        let weight = match config.amaf_weighting() {
            AmafWeighting::Uniform => 1.0f32,
            AmafWeighting::Playout => {
                if !(playout_weight.is_finite() && playout_weight > 0.0) {
                    return;
                }
                self.weight_sum += f64::from(playout_weight);
                self.weight_count += 1.0;
                (f64::from(playout_weight) * self.weight_count / self.weight_sum) as f32
            }
        };
        let horizon = config.amaf_horizon().map_or(usize::MAX, |h| h as usize);
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark_gen == 0 {
            self.marks.fill(0);
            self.mark_gen = 1;
        }
        let generation = u64::from(self.mark_gen) << 32;
        let marks = &mut self.marks;
        let mark = |marks: &mut Vec<u64>, j: usize, (mv, p): (G::Move, u8)| {
            let slot = 2 * game.move_index(mv) + usize::from(p);
            if let Some(m) = marks.get_mut(slot) {
                *m = generation | j as u64;
            }
        };
        for j in (depth..trace.len()).rev() {
            mark(marks, j, trace[j]);
        }
        let rewards = [outcome.reward(0) * weight, outcome.reward(1) * weight];
        for k in (0..=depth).rev() {
            if k >= trace.len() {
                continue;
            }
            if k < depth {
                mark(marks, k, trace[k]);
            }
            let node = self.nodes[self.path[k] as usize];
            if !node.is_expanded() {
                continue;
            }
            let p = usize::from(trace[k].1);
            let reward = rewards[p];
            let children = &mut self.nodes[node.children()];
            // Branch-free: about half the children are hits, and a branch on each (which is
            // what a float `select` compiles to on x86) would mispredict a quarter of the
            // time. So the hit test becomes an all-ones/zero mask on the float's bits.
            let (wbits, rbits) = (weight.to_bits(), reward.to_bits());
            for ch in children {
                let slot = 2 * game.move_index(ch.mv) + p;
                let m = marks.get(slot).copied().unwrap_or(0);
                let fresh = m & !0xffff_ffff == generation;
                let near = ((m & 0xffff_ffff) as usize).wrapping_sub(k) < horizon;
                let mask = 0u32.wrapping_sub(u32::from(fresh & near));
                ch.amaf_visits += f32::from_bits(wbits & mask);
                ch.amaf_wins += f32::from_bits(rbits & mask);
            }
        }
    }

    /// After the last node of the path became proven, proves its ancestors where possible.
    fn propagate_proof(&mut self) {
        for k in (0..self.path.len() - 1).rev() {
            let id = self.path[k] as usize;
            if self.nodes[id].proof != UNPROVEN {
                break;
            }
            let mut all = true;
            let mut best = LOSS;
            let mut proof = UNPROVEN;
            for ch in &self.nodes[self.nodes[id].children()] {
                match ch.proof {
                    WIN => {
                        proof = LOSS;
                        break;
                    }
                    UNPROVEN => all = false,
                    p => best = best.max(p),
                }
            }
            if proof == UNPROVEN && all {
                proof = if best == DRAW { DRAW } else { WIN };
            }
            if proof == UNPROVEN {
                break;
            }
            self.nodes[id].proof = proof;
            self.mark_parent_of(k);
        }
    }

    /// Records in the parent of `path[k]` (if any) that a child of it is proven.
    #[inline]
    fn mark_parent_of(&mut self, k: usize) {
        if k > 0 {
            let parent = self.path[k - 1] as usize;
            self.nodes[parent].child_proven = true;
        }
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

/// A RAVE schedule with its constant worked out for one parent, for the fast selection pass.
#[derive(Clone, Copy, Debug)]
enum Blend {
    /// Minimum-MSE with `k = 4 bias^2`.
    Mse(f32),
    /// Fading with `k = base + per_move * moves`.
    Fading(f32),
}

impl Blend {
    /// The blend of `schedule` at a parent with `moves` children (`None`: no fast form).
    fn of(schedule: RaveSchedule, moves: usize) -> Option<Blend> {
        match schedule {
            RaveSchedule::MinimumMse { bias } => Some(Blend::Mse((4.0 * bias * bias) as f32)),
            RaveSchedule::Fading { base, per_move } => {
                Some(Blend::Fading((base + per_move * moves as f64) as f32))
            }
            _ => None,
        }
    }

    /// `(1 - beta) w/n + beta aw/an`, or `fpu` without any statistics.
    #[inline(always)]
    fn value(self, n: f32, w: f32, an: f32, aw: f32, fpu: f32) -> f32 {
        match self {
            Blend::Mse(k) => mse_value(n, w, an, aw, k, fpu),
            Blend::Fading(k) => fading_value(n, w, an, aw, k, fpu),
        }
    }
}

/// The child to descend into in the most common case, in one tight pass over the children:
/// a RAVE blend on the children's own AMAF statistics, no UCT bonus; a proven win is taken
/// at once, proven losses are skipped. The same choice as the general loop of
/// `Worker::select`; `None` when every child is a proven loss.
#[inline]
fn select_fast<M>(children: &[Node<M>], blend: Blend, fpu: f32) -> Option<usize> {
    let mut best = None;
    let mut best_score = f32::NEG_INFINITY;
    for (j, ch) in children.iter().enumerate() {
        if ch.proof != UNPROVEN {
            match ch.proof {
                WIN => return Some(j),
                LOSS => continue,
                _ => {}
            }
        }
        let score = fast_score(ch, blend, fpu);
        if score > best_score {
            best_score = score;
            best = Some(j);
        }
    }
    best
}

/// [`select_fast`] when no child is proven: the same choice without the proof tests. The
/// children must not be empty.
#[inline]
fn select_fast_unproven<M>(children: &[Node<M>], blend: Blend, fpu: f32) -> usize {
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (j, ch) in children.iter().enumerate() {
        let score = fast_score(ch, blend, fpu);
        if score > best_score {
            best_score = score;
            best = j;
        }
    }
    best
}

/// A child's RAVE value on its own statistics (see [`Blend::value`]) plus its progressive
/// bias.
#[inline(always)]
fn fast_score<M>(ch: &Node<M>, blend: Blend, fpu: f32) -> f32 {
    let (n, w) = (ch.visits as f32, ch.wins);
    blend.value(n, w, ch.amaf_visits, ch.amaf_wins, fpu) + progressive_bias(ch)
}

/// The prior's bonus for a child, fading with the square root of its visits.
#[inline(always)]
fn progressive_bias<M>(ch: &Node<M>) -> f32 {
    f32::from(ch.bias) * 0.01 / (ch.visits.max(1) as f32).sqrt()
}

/// The minimum-MSE RAVE value `(1 - b) w/n + b aw/an` with `b = an / (n + an + k n an)`, in
/// one division, from `n` visits with `w` wins and `an` AMAF samples with `aw` wins; `fpu`
/// without any statistics.
#[inline(always)]
fn mse_value(n: f32, w: f32, an: f32, aw: f32, k: f32, fpu: f32) -> f32 {
    let d = n + an + k * n * an;
    if d > 0.0 {
        (w * (1.0 + k * an) + aw) / d
    } else {
        fpu
    }
}

/// The fading RAVE value `(1 - beta) w/n + beta aw/an` with `beta = k / (k + n)`, as
/// `(k aw/an + w) / (k + n)`; the plain mean without AMAF samples, `fpu` without any
/// statistics.
#[inline(always)]
fn fading_value(n: f32, w: f32, an: f32, aw: f32, k: f32, fpu: f32) -> f32 {
    if an > 0.0 {
        if n > 0.0 {
            (k * aw / an + w) / (k + n)
        } else {
            aw / an
        }
    } else if n > 0.0 {
        w / n
    } else {
        fpu
    }
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

fn proof_public(p: u8) -> Option<Proof> {
    match p {
        WIN => Some(Proof::Win),
        LOSS => Some(Proof::Loss),
        DRAW => Some(Proof::Draw),
        _ => None,
    }
}

/// A Monte-Carlo tree search over a [`Game`], with a [`Playout`] policy and a [`Prior`].
///
/// It owns the position it searches ([`Mcts::game`]); [`Mcts::advance`] plays a move and keeps
/// the matching subtree, [`Mcts::set_position`] starts afresh.
pub struct Mcts<G: Game, P: Playout<G> = UniformPlayout<G>, K: Prior<G> = NoPrior> {
    config: Config,
    game: G,
    playout: P,
    prior: K,
    workers: Vec<Worker<G, P>>,
}

impl<G: Game> Mcts<G> {
    /// A search of `game` with the uniform random playout and no prior.
    pub fn new(game: G, config: Config) -> Self {
        Mcts::with_policies(game, config, UniformPlayout::new(), NoPrior)
    }
}

impl<G: Game, P: Playout<G>> Mcts<G, P> {
    /// A search of `game` with this playout policy and no prior.
    pub fn with_playout(game: G, config: Config, playout: P) -> Self {
        Mcts::with_policies(game, config, playout, NoPrior)
    }
}

impl<G: Game, P: Playout<G>, K: Prior<G>> Mcts<G, P, K> {
    /// A search of `game` with this playout policy and prior.
    pub fn with_policies(game: G, config: Config, playout: P, prior: K) -> Self {
        let workers = (0..config.threads())
            .map(|_| Worker::new(playout.clone()))
            .collect();
        Mcts {
            config,
            game,
            playout,
            prior,
            workers,
        }
    }

    /// The position searched.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Replaces the configuration. The trees are kept unless the number of threads changes.
    pub fn set_config(&mut self, config: Config) {
        if config.threads() != self.workers.len() {
            self.workers = (0..config.threads())
                .map(|_| Worker::new(self.playout.clone()))
                .collect();
        }
        self.config = config;
    }

    /// Starts from another position, forgetting the trees.
    pub fn set_position(&mut self, game: G) {
        self.game = game;
        self.clear_tree();
    }

    /// Forgets the trees.
    pub fn clear_tree(&mut self) {
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// Plays `mv` in the searched position and keeps the subtree below it (tree reuse).
    ///
    /// # Errors
    /// [`MctsError::IllegalMove`] if `mv` is not legal (or the game is over); nothing changes.
    pub fn advance(&mut self, mv: G::Move) -> Result<(), MctsError> {
        let mut moves = Vec::new();
        if self.game.result().is_none() {
            self.game.legal_moves(&mut moves);
        }
        if !moves.contains(&mv) {
            return Err(MctsError::IllegalMove(format!("{mv:?}")));
        }
        self.game.play(mv);
        for w in &mut self.workers {
            w.advance(mv);
        }
        Ok(())
    }

    /// Nodes in the trees (all threads).
    pub fn tree_nodes(&self) -> usize {
        self.workers.iter().map(|w| w.nodes.len()).sum()
    }

    /// The bytes the trees hold (all threads, allocated capacity). A search keeps each
    /// thread's tree within its share of [`Budget::nodes`], so after a search this is at most
    /// the budget times [`node_bytes`](crate::node_bytes); while [`Mcts::advance`] copies the
    /// kept subtree, the old tree is held until the copy is made.
    pub fn tree_bytes(&self) -> usize {
        self.workers
            .iter()
            .map(|w| (w.nodes.capacity() + w.spare.capacity()) * size_of::<Node<G::Move>>())
            .sum()
    }

    /// Simulations through the root (all threads; includes a reused subtree).
    pub fn root_visits(&self) -> u64 {
        self.workers
            .iter()
            .filter_map(|w| w.nodes.first())
            .map(|n| u64::from(n.visits))
            .sum()
    }

    /// Searches the current position within `budget`, using `rng` (one thread uses it
    /// directly, so a seeded generator makes the search deterministic; several threads each
    /// get a `Pcg64Mcg` seeded from it).
    ///
    /// # Errors
    /// [`MctsError::EmptyBudget`] / [`MctsError::ZeroBudget`] for a bad budget,
    /// [`MctsError::GameOver`] if the position is over,
    /// [`MctsError::InvalidParameter`] if the node budget cannot hold the root and its children.
    pub fn search<R: Rng + ?Sized>(
        &mut self,
        budget: &Budget,
        rng: &mut R,
    ) -> Result<SearchResult<G::Move>, MctsError> {
        budget.validate()?;
        if self.game.result().is_some() {
            return Err(MctsError::GameOver);
        }
        let threads = self.workers.len();
        let start = Instant::now();
        let node_total = budget.nodes.unwrap_or(usize::MAX);
        let node_share = (node_total / threads).min(NONE as usize);
        let nodes_only = budget.simulations.is_none() && budget.time.is_none();
        for w in &mut self.workers {
            w.prior_target = self.config.prior_target();
            w.solver = self.config.solver();
            if !w.prepare(&self.game, &self.prior, node_share) {
                if w.nodes.is_empty() {
                    return Err(MctsError::GameOver);
                }
                return Err(MctsError::InvalidParameter {
                    name: "budget nodes",
                    value: node_total.to_string(),
                    expected: "room for the root and its children in every thread's share",
                });
            }
        }
        let limits = |i: usize| Limits {
            simulations: budget
                .simulations
                .map(|n| n / threads as u64 + u64::from((i as u64) < n % threads as u64)),
            deadline: budget.time.map(|t| start + t),
            time: budget.time,
            node_limit: node_share,
            nodes_only,
        };
        let config = &self.config;
        let game = &self.game;
        let prior = &self.prior;
        let reports: Vec<Report> = if threads == 1 {
            vec![self.workers[0].run(game, config, prior, rng, limits(0))]
        } else {
            let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
            std::thread::scope(|s| {
                let (first, rest) = self.workers.split_at_mut(1);
                let handles: Vec<_> = rest
                    .iter_mut()
                    .enumerate()
                    .map(|(i, w)| {
                        let seed = seeds[i + 1];
                        let lim = limits(i + 1);
                        s.spawn(move || {
                            let mut r = Pcg64Mcg::seed_from_u64(seed);
                            w.run(game, config, prior, &mut r, lim)
                        })
                    })
                    .collect();
                let mut r = Pcg64Mcg::seed_from_u64(seeds[0]);
                let mut reports = vec![first[0].run(game, config, prior, &mut r, limits(0))];
                for h in handles {
                    reports.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
                }
                reports
            })
        };
        let elapsed = start.elapsed();
        Ok(self.collect(&reports, elapsed))
    }

    /// Merges the root statistics of all trees into a result.
    fn collect(&self, reports: &[Report], elapsed: Duration) -> SearchResult<G::Move> {
        let w0 = &self.workers[0];
        let root0 = w0.nodes[ROOT as usize];
        let mut children: Vec<ChildStats<G::Move>> = w0.nodes[root0.children()]
            .iter()
            .map(|c| ChildStats {
                mv: c.mv,
                visits: 0,
                value: 0.0,
                amaf_visits: 0.0,
                amaf_value: 0.0,
                proof: None,
            })
            .collect();
        let mut sums = vec![(0.0f64, 0.0f64); children.len()];
        let mut root_proof = None;
        for w in &self.workers {
            let root = w.nodes[ROOT as usize];
            if root.proof != UNPROVEN {
                // The root's mover is the opponent of the player to move.
                root_proof = proof_public(root.proof).map(Proof::flip);
            }
            for (i, c) in w.nodes[root.children()].iter().enumerate() {
                let j = if children.get(i).is_some_and(|s| s.mv == c.mv) {
                    i
                } else if let Some(j) = children.iter().position(|s| s.mv == c.mv) {
                    j
                } else {
                    continue;
                };
                let s = &mut children[j];
                s.visits += u64::from(c.visits);
                sums[j].0 += f64::from(c.wins);
                s.amaf_visits += f64::from(c.amaf_visits);
                sums[j].1 += f64::from(c.amaf_wins);
                if c.proof != UNPROVEN {
                    s.proof = proof_public(c.proof);
                }
            }
        }
        for (s, (w, aw)) in children.iter_mut().zip(&sums) {
            s.value = if s.visits > 0 {
                w / s.visits as f64
            } else {
                0.0
            };
            s.amaf_value = if s.amaf_visits > 0.0 {
                aw / s.amaf_visits
            } else {
                0.0
            };
        }
        let best = best_child(&children, self.config.final_move());
        let best_move = children[best].mv;
        let value = children[best].value;
        let mut principal_variation = vec![best_move];
        let mut pv_worker = w0;
        let mut most = 0;
        for w in &self.workers {
            let root = w.nodes[ROOT as usize];
            if let Some(c) = w.nodes[root.children()].iter().find(|c| c.mv == best_move)
                && c.visits >= most
            {
                most = c.visits;
                pv_worker = w;
            }
        }
        let nodes = &pv_worker.nodes;
        let root = nodes[ROOT as usize];
        let mut cur = nodes[root.children()]
            .iter()
            .position(|c| c.mv == best_move)
            .map(|i| root.first_child as usize + i);
        while let Some(id) = cur {
            let n = nodes[id];
            cur = nodes[n.children()]
                .iter()
                .enumerate()
                .filter(|(_, c)| c.visits > 0)
                .max_by_key(|(_, c)| c.visits)
                .map(|(i, _)| n.first_child as usize + i);
            if let Some(c) = cur {
                principal_variation.push(nodes[c].mv);
            }
        }
        let simulations: u64 = reports.iter().map(|r| r.simulations).sum();
        let secs = elapsed.as_secs_f64();
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by(|&a, &b| children[b].visits.cmp(&children[a].visits));
        let children = order.into_iter().map(|i| children[i]).collect();
        SearchResult {
            best_move,
            value,
            principal_variation,
            children,
            proven: root_proof,
            root_visits: self.root_visits(),
            simulations,
            discarded: reports.iter().map(|r| r.discarded).sum(),
            elapsed,
            simulations_per_second: if secs > 0.0 {
                simulations as f64 / secs
            } else {
                0.0
            },
            tree_nodes: self.tree_nodes(),
            max_depth: reports.iter().map(|r| r.max_depth).max().unwrap_or(0),
            stop: reports[0].stop,
        }
    }
}

/// Index of the best child: a proven win first, then the rule, avoiding proven losses.
fn best_child<M>(children: &[ChildStats<M>], rule: FinalMove) -> usize {
    if let Some(i) = children.iter().position(|c| c.proof == Some(Proof::Win)) {
        return i;
    }
    let any_open = children.iter().any(|c| c.proof != Some(Proof::Loss));
    let candidates = || {
        children
            .iter()
            .enumerate()
            .filter(move |(_, c)| !any_open || c.proof != Some(Proof::Loss))
    };
    let by_visits = |a: &ChildStats<M>, b: &ChildStats<M>| {
        a.visits.cmp(&b.visits).then(a.value.total_cmp(&b.value))
    };
    let most = candidates()
        .max_by(|(_, a), (_, b)| by_visits(a, b))
        .map_or(0, |(i, _)| i);
    match rule {
        FinalMove::MostVisits => most,
        FinalMove::BestValue => {
            let floor = children[most].visits / 10;
            candidates()
                .filter(|(_, c)| c.visits >= floor.max(1))
                .max_by(|(_, a), (_, b)| a.value.total_cmp(&b.value))
                .map_or(most, |(i, _)| i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    /// A child with the given statistics (`proof` 0..=3 as in the tree).
    fn child(visits: u32, wins: f32, an: f32, aw: f32, proof: u8) -> Node<u16> {
        let mut n = Node::new(0u16, 0);
        n.visits = visits;
        n.wins = wins;
        n.amaf_visits = an;
        n.amaf_wins = aw;
        n.proof = proof;
        n
    }

    /// The RAVE value written out in f64, the textbook way: value = (1 - beta) w/n + beta
    /// aw/an, with Gelly and Silver's minimum-MSE beta = an / (n + an + 4 b^2 n an) when
    /// `fading_k` is `None`, else Castro's beta = k / (k + n) (1 without visits); the mean
    /// without AMAF samples.
    fn textbook(c: &Node<u16>, bias: f64, fading_k: Option<f64>, fpu: f64) -> f64 {
        let (n, w) = (f64::from(c.visits), f64::from(c.wins));
        let (an, aw) = (f64::from(c.amaf_visits), f64::from(c.amaf_wins));
        if n == 0.0 && an == 0.0 {
            return fpu;
        }
        let q = if n > 0.0 { w / n } else { 0.0 };
        if an == 0.0 {
            return q;
        }
        let beta = match fading_k {
            None => an / (n + an + 4.0 * bias * bias * n * an),
            Some(_) if n == 0.0 => 1.0,
            Some(k) => k / (k + n),
        };
        (1.0 - beta) * q + beta * aw / an
    }

    fn stats() -> impl Strategy<Value = (u32, f64, u32, f64, u8)> {
        (
            0u32..200,
            0.0f64..=1.0,
            0u32..400,
            0.0f64..=1.0,
            prop_oneof![8 => Just(UNPROVEN), 1 => Just(LOSS), 1 => Just(DRAW)],
        )
    }

    fn build(raw: &[(u32, f64, u32, f64, u8)]) -> Vec<Node<u16>> {
        raw.iter()
            .map(|&(n, q, an, qa, proof)| {
                let wins = (f64::from(n) * q) as f32;
                let amaf_wins = (f64::from(an) * qa) as f32;
                child(n, wins, an as f32, amaf_wins, proof)
            })
            .collect()
    }

    proptest! {
        #[test]
        fn the_fast_selection_takes_a_best_child_by_the_textbook_formula(
            raw in prop::collection::vec(stats(), 1..40),
            bias in 0.0f64..0.5,
            fading in prop::option::of(0.0f64..50_000.0),
            fpu in 0.0f64..=1.0,
        ) {
            let children = build(&raw);
            let blend = match fading {
                None => Blend::Mse((4.0 * bias * bias) as f32),
                Some(k) => Blend::Fading(k as f32),
            };
            let chosen = select_fast(&children, blend, fpu as f32);
            // Without proven children the proof-free pass makes the same choice.
            let mut unproven = children.clone();
            for c in &mut unproven {
                c.proof = UNPROVEN;
            }
            prop_assert_eq!(
                Some(select_fast_unproven(&unproven, blend, fpu as f32)),
                select_fast(&unproven, blend, fpu as f32)
            );
            let open: Vec<usize> = (0..children.len())
                .filter(|&j| children[j].proof != LOSS)
                .collect();
            match chosen {
                None => prop_assert!(open.is_empty()),
                Some(j) => {
                    prop_assert!(children[j].proof != LOSS);
                    let best = open
                        .iter()
                        .map(|&i| textbook(&children[i], bias, fading, fpu))
                        .fold(f64::NEG_INFINITY, f64::max);
                    let got = textbook(&children[j], bias, fading, fpu);
                    prop_assert!(got >= best - 1e-5, "chose {got}, best {best}");
                }
            }
        }
    }

    #[test]
    fn a_proven_win_is_taken_and_proven_losses_are_skipped() {
        let children = vec![
            child(50, 50.0, 100.0, 100.0, LOSS),
            child(10, 1.0, 10.0, 1.0, UNPROVEN),
            child(10, 2.0, 10.0, 2.0, UNPROVEN),
        ];
        let blend = Blend::Mse(0.01);
        assert_eq!(select_fast(&children, blend, 1.0), Some(2));
        let mut with_win = children.clone();
        with_win.push(child(1, 0.0, 0.0, 0.0, WIN));
        assert_eq!(select_fast(&with_win, blend, 1.0), Some(3));
        let lost = vec![child(3, 0.0, 0.0, 0.0, LOSS), child(9, 0.0, 0.0, 0.0, LOSS)];
        assert_eq!(select_fast(&lost, blend, 1.0), None);
    }
}
