//! Backpropagation: the visits and rewards along a simulation's path, the AMAF statistics of
//! the path nodes' children, and the proofs of the MCTS-solver.

use super::Worker;
use crate::config::{AmafWeighting, Config, Selection};
use crate::game::{Game, Player, Playout, Rewards};
use crate::search::select::{Kept, KeptBlend};
use crate::tree::{Arena, DRAW, KeptScore, LOSS, NONE, Node, NodeId, UNPROVEN, WIN, mover_proof};

impl<G: Game, P: Playout<G>> Worker<G, P> {
    /// Updates visits, rewards and AMAF statistics along the path.
    pub(super) fn backpropagate(
        &mut self,
        tree: &Arena<G::Move>,
        game: &G,
        root_player: Player,
        config: &Config,
        outcome: Rewards,
        playout_weight: f32,
    ) {
        self.update_path(tree, root_player, outcome);
        if config.selection() == Selection::Uct {
            return;
        }
        if let Some(weight) = self.amaf_weight(config.amaf_weighting(), playout_weight) {
            self.update_amaf(tree, game, config, outcome, weight);
        }
    }

    /// One more visit and the mover's reward for every node on the path (with the virtual
    /// loss, the visit was added on the way down: only the reward).
    #[inline]
    ///
    /// With several threads, the visit and reward of a node whose parent is well visited go
    /// into this thread's [`Deferred`] sums instead (see [`Worker::deferred_path`]).
    fn update_path(&mut self, tree: &Arena<G::Move>, root_player: Player, outcome: Rewards) {
        let vl = self.virtual_loss;
        let kept = self.kept;
        let trace = self.trace.raw();
        let root_mover = 1 - root_player.min(1);
        let deferred = &mut self.deferred;
        for (k, &id) in self.path.iter().enumerate() {
            let mover = if k == 0 {
                root_mover
            } else {
                trace[k - 1].1 as Player
            };
            let reward = outcome.reward(mover);
            if vl && k < 64 && self.deferred_path >> k & 1 == 1 {
                let parent = self.path[k - 1];
                let p = tree.node(parent);
                let i = id as usize - p.first_child() as usize;
                let moves = usize::from(p.num_children());
                let d = Deferred::entry(deferred, tree, parent, moves, kept);
                d.visits[i].0 += 1;
                d.visits[i].1 += reward;
                d.pending += 1;
                if d.pending >= d.batch {
                    d.flush(tree, kept);
                }
                continue;
            }
            let n = tree.node(id);
            if !vl {
                n.set_visits(n.visits().saturating_add(1));
            }
            n.set_wins(n.wins() + reward);
            if let Some(kept) = kept
                && k > 0
            {
                let moves = usize::from(tree.node(self.path[k - 1]).num_children());
                kept.refresh(n, tree.score(id), moves);
            }
        }
    }

    /// The weight of this simulation's AMAF samples: 1, or the playout's weight relative to
    /// the running mean (`None`: a weight that is not finite and positive, no AMAF update).
    #[inline]
    fn amaf_weight(&mut self, weighting: AmafWeighting, playout_weight: f32) -> Option<f32> {
        match weighting {
            AmafWeighting::Uniform => Some(1.0),
            AmafWeighting::Playout => {
                if !(playout_weight.is_finite() && playout_weight > 0.0) {
                    return None;
                }
                self.weight_sum += f64::from(playout_weight);
                self.weight_count += 1.0;
                Some((f64::from(playout_weight) * self.weight_count / self.weight_sum) as f32)
            }
        }
    }

    /// A fresh generation of the AMAF marks (older marks no longer count), shifted into the
    /// marks' high half.
    #[inline]
    fn next_mark_generation(&mut self) -> u64 {
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark_gen == 0 {
            self.marks.fill(0);
            self.mark_gen = 1;
        }
        u64::from(self.mark_gen) << 32
    }

    /// The AMAF update: walking the trace backwards, each (move, player) is marked with its
    /// first position at or after the node; every child of a path node whose move its player
    /// played within the AMAF horizon below the node gets an AMAF sample.
    #[inline]
    fn update_amaf(
        &mut self,
        tree: &Arena<G::Move>,
        game: &G,
        config: &Config,
        outcome: Rewards,
        weight: f32,
    ) {
        let horizon = config.amaf_horizon().map_or(usize::MAX, |h| h as usize);
        let generation = self.next_mark_generation();
        let trace = self.trace.raw();
        let depth = self.path.len() - 1;
        let shared = self.virtual_loss;
        let kept = self.kept;
        let marks = &mut self.marks;
        let deferred = &mut self.deferred;
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
            let id = self.path[k];
            let node = tree.node(id);
            let children = tree.children(node);
            if children.is_empty() {
                continue;
            }
            let side = usize::from(trace[k].1);
            let credit = AmafCredit {
                generation,
                ply: k,
                horizon,
                moves_below: trace.len() - k,
                side,
                weight,
                reward: rewards[side],
                kept: kept.map(|k| k.of_parent(children.len())),
                scores: if kept.is_some() {
                    tree.scores(node.children())
                } else {
                    &[]
                },
            };
            if shared && node.visits() >= DEFER_VISITS {
                let d = Deferred::entry(deferred, tree, id, children.len(), kept);
                credit_amaf_deferred(children, game, marks, credit, &mut d.sums);
                if k < depth {
                    // The child this simulation went through gets its samples at once, so
                    // that the thread sees its own result where it chose.
                    let chosen = self.path[k + 1] as usize - node.first_child() as usize;
                    d.add_now(children, chosen, credit.kept.map(|k| (k, credit.scores)));
                }
                d.pending += 1;
                if d.pending >= d.batch {
                    d.flush(tree, kept);
                }
            } else {
                credit_amaf(children, node.sorted_from(), game, marks, trace, credit);
            }
        }
    }

    /// Adds every deferred AMAF sample into the tree (at the end of a search).
    pub(super) fn flush_deferred(&mut self, tree: &Arena<G::Move>) {
        for d in &mut self.deferred {
            d.flush(tree, self.kept);
            d.node = NONE;
        }
    }

    /// After the last node of the path became proven, proves its ancestors where possible.
    ///
    /// A proof is for the player who moved into the node. Where the player to move at a node
    /// also moved into it (a game in which a player moves twice in a row), a child's proof is
    /// the same player's; otherwise the opponent's.
    ///
    /// With several threads a child proven by another thread may not be seen yet: the node is
    /// then proven later, never wrongly (a proof is never undone).
    pub(super) fn propagate_proof(&mut self, tree: &Arena<G::Move>) {
        let trace = self.trace.raw();
        for k in (0..self.path.len() - 1).rev() {
            let node = tree.node(self.path[k]);
            if node.proof() != UNPROVEN {
                break;
            }
            // The root's mover is the player not to move there.
            let moves_again = k > 0 && trace[k - 1].1 == trace[k].1;
            // The node's proof when a child is a win, and when every child is a loss.
            let child_wins = mover_proof(WIN, moves_again);
            let children_lose = mover_proof(LOSS, moves_again);
            let mut all = true;
            let mut best = LOSS;
            let mut proof = UNPROVEN;
            for ch in tree.children(node) {
                match ch.proof() {
                    WIN => {
                        proof = child_wins;
                        break;
                    }
                    UNPROVEN => all = false,
                    p => best = best.max(p),
                }
            }
            if proof == UNPROVEN && all {
                proof = if best == DRAW { DRAW } else { children_lose };
            }
            if proof == UNPROVEN {
                break;
            }
            node.set_proof(proof);
            self.mark_parent_of(tree, k);
        }
    }

    /// Records in the parent of `path[k]` (if any) that a child of it is proven.
    #[inline]
    pub(super) fn mark_parent_of(&self, tree: &Arena<G::Move>, k: usize) {
        if k > 0 {
            tree.node(self.path[k - 1]).set_child_proven();
        }
    }
}

/// One path node's AMAF update: which marks count and what a hit adds.
#[derive(Clone, Copy)]
struct AmafCredit<'a> {
    /// The marks' current generation (high half).
    generation: u64,
    /// The node's position in the trace.
    ply: usize,
    /// Moves at most this far below the node count.
    horizon: usize,
    /// The moves of the trace from the node's position on.
    moves_below: usize,
    /// The player to move at the node.
    side: usize,
    weight: f32,
    reward: f32,
    /// What the node's children keep for the selection, worked out again on a sample.
    kept: Option<KeptBlend>,
    /// The children's kept scores (empty when not kept), child for child.
    scores: &'a [KeptScore],
}

impl AmafCredit<'_> {
    /// Adds the sample to `ch`, the child `j`, `hit` times (0 or 1).
    #[inline(always)]
    fn add<M: Copy>(&self, ch: &Node<M>, j: usize, hit: f32) {
        self.add_sample(ch, hit);
        if let Some(kept) = self.kept {
            kept.refresh(ch, &self.scores[j]);
        }
    }

    /// [`AmafCredit::add`] without the kept score.
    #[inline(always)]
    fn add_sample<M: Copy>(&self, ch: &Node<M>, hit: f32) {
        ch.set_amaf_visits(ch.amaf_visits() + self.weight * hit);
        ch.set_amaf_wins(ch.amaf_wins() + self.reward * hit);
    }

    /// The credit of the children from the `first`-th on.
    fn past(self, first: usize) -> Self {
        AmafCredit {
            scores: self.scores.get(first..).unwrap_or(&[]),
            ..self
        }
    }

    /// 1.0 if the node's player played `mv` within the horizon below the node (by the
    /// marks), else 0.0: a factor, so that crediting needs no branch (see [`credit_amaf`]).
    #[inline(always)]
    fn hit<G: Game>(&self, game: &G, marks: &[u64], mv: G::Move) -> f32 {
        let slot = 2 * game.move_index(mv) + self.side;
        let m = marks.get(slot).copied().unwrap_or(0);
        let fresh = m & !0xffff_ffff == self.generation;
        let near = ((m & 0xffff_ffff) as usize).wrapping_sub(self.ply) < self.horizon;
        f32::from(u8::from(fresh & near))
    }
}

/// With several threads, the visits from which a node's children get their AMAF samples
/// through [`Deferred`] sums (all but the child the simulation went through, which gets its
/// samples at once: a thread sees its own result where it chose). Below it every simulation
/// adds into the tree at once (`docs/mcts.md`).
const DEFER_VISITS: u32 = 64;
/// With several threads, the most simulations that a [`Deferred`] entry sums before it adds
/// them into the tree: a node's batch is a 32nd of its visits, from 1 to this many, so that
/// what a thread has not yet shown the others (and itself) stays a small share of the node's
/// statistics.
const DEFER_BATCH: u32 = 32;
/// A node's batch: one simulation per this many of its visits (at most [`DEFER_BATCH`]).
const DEFER_SHARE: u32 = 32;
/// With several threads, the visits from which a node's children get their visits and
/// rewards through [`Deferred`] sums, without a virtual loss (which barely changes the value
/// of a child of a node with this many visits): the AMAF threshold.
pub(super) const DEFER_VISIT_COUNTS: u32 = DEFER_VISITS;
/// The entries of a thread's [`Deferred`] table.
pub(super) const DEFER_SLOTS: usize = 64;

/// The entry of node `id` in the table of [`Deferred`] sums.
#[inline]
fn deferred_slot(id: NodeId) -> usize {
    (id.wrapping_mul(0x9e37_79b9) >> 26) as usize % DEFER_SLOTS
}

/// One thread's AMAF samples (and, from [`DEFER_VISIT_COUNTS`] visits, visits and rewards) of
/// the children of one well-visited node, not yet added into a tree that several threads
/// share.
///
/// The threads go down the same well-visited nodes, and every simulation reads all children of
/// each node on its path. A store to the half of them that an AMAF update hits, on every
/// simulation, makes the other thread reload them all (a cache miss a child). So a thread
/// sums the samples of a node with at least [`DEFER_VISITS`] visits for a batch of simulations
/// (a 32nd of the node's visits, at most [`DEFER_BATCH`]) and adds them at once: the other
/// threads see them up to a batch late. The child each simulation went through gets its own
/// samples at once (one cache line), or a thread would choose it again and again on
/// statistics without its own results. The visits and rewards of the children of a node with [`DEFER_VISIT_COUNTS`] visits are summed the same
/// way (the visits added with an atomic add, so that they stay exact), which spares the
/// other threads a reload of the child and of its parent on every simulation.
pub(super) struct Deferred {
    /// The node whose children the sums are for (`NONE`: none).
    pub(super) node: NodeId,
    /// Simulations summed since the last addition.
    pending: u32,
    /// The simulations summed before they are added (see [`DEFER_BATCH`]), worked out when
    /// the entry is taken and at each addition, not on every simulation: the node's visits
    /// sit on a cache line the other threads write.
    batch: u32,
    /// (AMAF samples, summed AMAF rewards) of each child.
    pub(super) sums: Vec<(f32, f32)>,
    /// (visits, summed rewards) of each child.
    visits: Vec<(u32, f32)>,
}

impl Deferred {
    pub(super) fn new() -> Self {
        Deferred {
            node: NONE,
            pending: 0,
            batch: 1,
            sums: Vec::new(),
            visits: Vec::new(),
        }
    }

    /// The entry of `table` for node `id` (with `len` children), taken over (after adding its
    /// sums into the tree) if it held another node.
    fn entry<'a, M: Copy>(
        table: &'a mut [Deferred],
        tree: &Arena<M>,
        id: NodeId,
        len: usize,
        kept: Option<Kept>,
    ) -> &'a mut Deferred {
        let d = &mut table[deferred_slot(id)];
        if d.node != id {
            d.flush(tree, kept);
            d.node = id;
            d.sums.clear();
            d.sums.resize(len, (0.0, 0.0));
            d.visits.clear();
            d.visits.resize(len, (0, 0.0));
            d.batch = batch_of(tree.node(id).visits());
        }
        d
    }

    /// Adds the AMAF sums of child `i` of `children` (the node's) into the tree at once (and
    /// works out what it keeps for the selection again).
    #[inline]
    fn add_now<M: Copy>(
        &mut self,
        children: &[Node<M>],
        i: usize,
        kept: Option<(KeptBlend, &[KeptScore])>,
    ) {
        let (Some(d), Some(ch)) = (self.sums.get_mut(i), children.get(i)) else {
            return;
        };
        let (samples, wins) = std::mem::take(d);
        ch.set_amaf_visits(ch.amaf_visits() + samples);
        ch.set_amaf_wins(ch.amaf_wins() + wins);
        if let Some((kept, scores)) = kept {
            kept.refresh(ch, &scores[i]);
        }
    }

    /// Adds the sums into the node's children (and works out what they keep for the
    /// selection again) and zeroes them.
    fn flush<M: Copy>(&mut self, tree: &Arena<M>, kept: Option<Kept>) {
        self.pending = 0;
        if self.node == NONE {
            return;
        }
        let range = tree.node(self.node).children();
        let children = tree.slice(range.clone());
        let kept = kept.map(|k| (k.of_parent(children.len()), tree.scores(range)));
        for (j, ((ch, d), v)) in children
            .iter()
            .zip(&mut self.sums)
            .zip(&mut self.visits)
            .enumerate()
        {
            let changed = d.0 != 0.0 || v.0 > 0;
            if d.0 != 0.0 {
                ch.set_amaf_visits(ch.amaf_visits() + d.0);
                ch.set_amaf_wins(ch.amaf_wins() + d.1);
                *d = (0.0, 0.0);
            }
            if v.0 > 0 {
                ch.add_visits(v.0);
                ch.set_wins(ch.wins() + v.1);
                *v = (0, 0.0);
            }
            if let Some((kept, scores)) = kept
                && changed
            {
                kept.refresh(ch, &scores[j]);
            }
        }
        self.batch = batch_of(tree.node(self.node).visits());
    }
}

/// The batch of a node with `visits` visits (see [`DEFER_BATCH`]).
#[inline]
fn batch_of(visits: u32) -> u32 {
    (visits / DEFER_SHARE).clamp(1, DEFER_BATCH)
}

/// [`credit_amaf`] into a thread's [`Deferred`] sums, one per child.
#[inline]
fn credit_amaf_deferred<G: Game>(
    children: &[Node<G::Move>],
    game: &G,
    marks: &[u64],
    credit: AmafCredit<'_>,
    deferred: &mut [(f32, f32)],
) {
    for (ch, d) in children.iter().zip(deferred) {
        let hit = credit.hit(game, marks, ch.mv());
        d.0 += credit.weight * hit;
        d.1 += credit.reward * hit;
    }
}

/// Adds an AMAF sample to each of `children` whose move `credit.side` played within the
/// horizon below the node (by the marks).
#[inline]
fn credit_amaf<G: Game>(
    children: &[Node<G::Move>],
    sorted_from: Option<usize>,
    game: &G,
    marks: &[u64],
    trace: &[(G::Move, u8)],
    credit: AmafCredit<'_>,
) {
    // Each move within the horizon below the node hits the children of its index, usually
    // one. Where those moves are few against the children (a short horizon over a wide node:
    // in Blackhole, 12 moves against up to 465 children), the branch is rarely taken, and
    // storing only the hits spares writing every child. The sums are the same either way.
    let window = credit.horizon.min(credit.moves_below);
    if window.saturating_mul(4) < children.len() {
        if let Some(first) = sorted_from {
            // Fewer still to look at: the children in order are found by bisection.
            let first = first.min(children.len());
            let (unsorted, sorted) = children.split_at(first);
            credit_hits(unsorted, game, marks, credit);
            credit_sorted(sorted, game, marks, trace, credit.past(first));
            return;
        }
        credit_hits(children, game, marks, credit);
        return;
    }
    // Otherwise branch-free: about half the children may be hits (in Havannah they are), and
    // a branch on each (which is what a float `select` compiles to on x86, and what an
    // all-ones/zero mask on the float's bits becomes once the statistics are atomics that the
    // compiler does not pair into one vector) would mispredict a quarter of the time. So a hit is a factor 1.0 or 0.0: the
    // weight and reward are finite and at least 0, so the sums are the same to the bit. (So
    // every child is stored, hit or not: with several threads a store of an unchanged value
    // may overwrite another thread's update of the same child, one of the lost updates
    // accepted in `tree`.)
    if credit.kept.is_none() {
        // A loop of its own: the test on every child cost Havannah 4% of its speed.
        for ch in children {
            credit.add_sample(ch, credit.hit(game, marks, ch.mv()));
        }
        return;
    }
    for (j, ch) in children.iter().enumerate() {
        let hit = credit.hit(game, marks, ch.mv());
        credit.add(ch, j, hit);
    }
}

/// The AMAF sample of every child of `children` that is a hit, each looked at.
#[inline]
fn credit_hits<G: Game>(
    children: &[Node<G::Move>],
    game: &G,
    marks: &[u64],
    credit: AmafCredit<'_>,
) {
    for (j, ch) in children.iter().enumerate() {
        let hit = credit.hit(game, marks, ch.mv());
        if hit != 0.0 {
            credit.add(ch, j, 1.0);
        }
    }
}

/// The AMAF samples of `children`, in order of move index: each (move, player) of the node's
/// player within the horizon below the node, at its first place there (by the marks), hits
/// the children of its index, found by bisection. The same hits as [`credit_hits`].
#[inline]
fn credit_sorted<G: Game>(
    children: &[Node<G::Move>],
    game: &G,
    marks: &[u64],
    trace: &[(G::Move, u8)],
    credit: AmafCredit<'_>,
) {
    let end = trace.len().min(credit.ply.saturating_add(credit.horizon));
    for (j, &(mv, player)) in trace.iter().enumerate().take(end).skip(credit.ply) {
        if usize::from(player) != credit.side {
            continue;
        }
        let index = game.move_index(mv);
        let first_here =
            marks.get(2 * index + credit.side) == Some(&(credit.generation | j as u64));
        if !first_here {
            continue;
        }
        let start = children.partition_point(|c| game.move_index(c.mv()) < index);
        for (j, ch) in children
            .iter()
            .enumerate()
            .skip(start)
            .take_while(|(_, c)| game.move_index(c.mv()) == index)
        {
            credit.add(ch, j, 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::NodeData;

    /// Moves are their own indices; nothing else of the game is used.
    #[derive(Clone)]
    struct Indices;

    impl Game for Indices {
        type Move = u8;
        fn to_move(&self) -> Player {
            0
        }
        fn legal_moves(&self, _moves: &mut Vec<u8>) {}
        fn play(&mut self, _mv: u8) {}
        fn result(&self) -> Option<Rewards> {
            None
        }
        fn move_index(&self, mv: u8) -> usize {
            usize::from(mv)
        }
        fn move_bound(&self) -> usize {
            64
        }
    }

    /// The AMAF samples of 48 children after one credit, with player 0's moves `played` at
    /// trace positions 10, 11, ... (every other one, as the two players alternate) and a
    /// node at trace position 10.
    fn credited(played: &[u8], horizon: usize, moves_below: usize) -> Vec<(f32, f32)> {
        let generation = 7u64 << 32;
        let mut marks = vec![0u64; 128];
        for (i, &mv) in played.iter().enumerate() {
            marks[2 * usize::from(mv)] = generation | (10 + 2 * i) as u64;
        }
        let children: Vec<Node<u8>> = (0..48u8)
            .map(|mv| Node::from_data(&NodeData::new(mv, 0)))
            .collect();
        let credit = AmafCredit {
            generation,
            ply: 10,
            horizon,
            side: 0,
            moves_below,
            weight: 2.0,
            reward: 1.5,
            kept: None,
            scores: &[],
        };
        credit_amaf(&children, None, &Indices, &marks, &[], credit);
        children
            .iter()
            .map(|c| (c.amaf_visits(), c.amaf_wins()))
            .collect()
    }

    #[test]
    fn a_nodes_batch_is_a_32nd_of_its_visits_from_1_to_32() {
        for (visits, batch) in [(0, 1), (63, 1), (64, 2), (1023, 31), (1024, 32)] {
            assert_eq!(batch_of(visits), batch, "{visits} visits");
        }
        assert_eq!(batch_of(u32::MAX), DEFER_BATCH);
    }

    #[test]
    fn a_wide_node_with_a_short_horizon_credits_exactly_its_hits() {
        let played = [5, 9, 30, 47, 2];
        // Horizon 5 reaches trace positions 10, 12 and 14 (moves 5, 9 and 30): few against
        // 48 children, so only the hits are stored; with no horizon, every child is.
        for (horizon, hits) in [(5, &played[..3]), (usize::MAX, &played[..])] {
            let got = credited(&played, horizon, 40);
            for (mv, sample) in got.iter().enumerate() {
                let hit = hits.contains(&(mv as u8));
                let want = if hit { (2.0, 1.5) } else { (0.0, 0.0) };
                assert_eq!(*sample, want, "move {mv}, horizon {horizon}");
            }
        }
    }

    proptest::proptest! {
        /// Children in order of move index (after an unsorted few), found by bisection, get
        /// the same AMAF samples, to the bit, as when each child is looked at.
        #[test]
        fn bisection_credits_the_same_children_as_looking_at_each(
            trace in proptest::collection::vec((0u8..64, 0u8..2), 1..40),
            ply_frac in 0.0..1.0f64,
            horizon in proptest::prop_oneof![1usize..12, proptest::strategy::Just(usize::MAX)],
            stale in proptest::collection::vec((0usize..128, 0u64..40), 0..20),
            unsorted in proptest::collection::vec(0u8..64, 0..4),
            mut sorted in proptest::collection::vec(0u8..64, 48..80),
        ) {
            sorted.sort_unstable();
            let ply = ((trace.len() - 1) as f64 * ply_frac) as usize;
            let generation = 3u64 << 32;
            let mut marks = vec![0u64; 128];
            // Marks of an older generation, as earlier simulations leave them.
            for (slot, j) in stale {
                marks[slot] = (2u64 << 32) | j;
            }
            for j in (ply..trace.len()).rev() {
                let (mv, p) = trace[j];
                marks[2 * usize::from(mv) + usize::from(p)] = generation | j as u64;
            }
            let credit = AmafCredit {
                generation,
                ply,
                horizon,
                moves_below: trace.len() - ply,
                side: usize::from(trace[ply].1),
                weight: 0.7,
                reward: 0.3,
                kept: None,
                scores: &[],
            };
            let moves: Vec<u8> = unsorted.iter().chain(&sorted).copied().collect();
            let fresh = || -> Vec<Node<u8>> {
                moves.iter().map(|&mv| Node::from_data(&NodeData::new(mv, 0))).collect()
            };
            let (by_bisection, each) = (fresh(), fresh());
            credit_amaf(&by_bisection, Some(unsorted.len()), &Indices, &marks, &trace, credit);
            credit_hits(&each, &Indices, &marks, credit);
            let samples = |c: &[Node<u8>]| -> Vec<(u32, u32)> {
                c.iter().map(|c| (c.amaf_visits().to_bits(), c.amaf_wins().to_bits())).collect()
            };
            proptest::prop_assert_eq!(samples(&by_bisection), samples(&each));
        }
    }
}
