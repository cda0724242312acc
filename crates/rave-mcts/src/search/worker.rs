//! One search thread: its reusable buffers (path, trace, moves, AMAF marks, playout policy),
//! and the simulation that selects, expands and plays out on the tree shared by all threads.
//! The walk down the tree is here; the loop of simulations is in `run`, the expansion in
//! `expand`, the playout in `playout`, backpropagation and proofs in `backprop`, and the
//! choice of a child on the way down in [`super::select`].
//!
//! With several threads a worker adds a visit to every node on its way down (the *virtual
//! loss*: the node looks visited without a win, so the other threads turn to other lines) and
//! completes it with the reward in backpropagation, or takes it back when the simulation is
//! discarded. One thread does not: its visits are added in backpropagation only, as in the
//! sequential algorithm, so a seeded one-thread search makes the sequential search's choices.

mod backprop;
mod expand;
mod phases;
mod playout;
mod run;

use backprop::{DEFER_VISIT_COUNTS, Deferred};
use phases::PhaseClock;
use std::time::{Duration, Instant};

use rand::Rng;

use super::select::{GRAVE_SLOTS, Kept, ShortlistEntry};
use crate::config::{Config, PriorTarget};
use crate::game::{Game, Player, Playout, Prior, PriorValue, Rewards, Trace};
use crate::result::{Phase, PhaseTimes, StopReason};
use crate::tree::{
    Arena, EXPANDING, NONE, Node, NodeId, ROOT, UNPROVEN, proof_of_reward, proof_value,
};

/// How a simulation ended.
enum Leaf {
    /// A node already proven: its value is the result.
    Proven(Rewards),
    /// A terminal state reached in the tree; `true` if the node became proven now.
    Terminal(Rewards, bool),
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
    /// Stop (all threads) when the tree is full, for the search to prune it.
    pub(super) stop_when_full: bool,
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
    /// The sampled simulations' time by phase.
    pub(super) phases: PhaseTimes,
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
    pub(super) trace: Trace<G::Move>,
    moves: Vec<G::Move>,
    priors: Vec<PriorValue>,
    /// Per (move index, player): generation << 32 | first position in the trace.
    marks: Vec<u64>,
    mark_gen: u32,
    /// GRAVE: move index -> stamp << 32 | child of `grave_owner`.
    pub(super) grave_map: Vec<u64>,
    pub(super) grave_stamp: u32,
    pub(super) grave_owner: NodeId,
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
    pub(super) shortlists: Vec<ShortlistEntry>,
    /// The playout pool's moves, and its candidates (AMAF mean, move) while it is made.
    pool: Vec<G::Move>,
    pool_candidates: Vec<(f32, G::Move)>,
    /// The time of each phase of a sample of the simulations.
    clock: PhaseClock,
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
            pool: Vec::new(),
            pool_candidates: Vec::new(),
            clock: PhaseClock::default(),
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
        self.clock.begin();
        let mut game = self.scratch.take().unwrap_or_else(|| root.clone());
        game.clone_from(root);
        self.clock.lap(Phase::Copy);
        let (leaf, node, full) = self.descend(tree, &mut game, root_player, config, prior);
        self.clock.lap(Phase::Select);
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
                    self.clock.end(Phase::Playout);
                    return (false, full, depth);
                }
            },
        };
        self.clock.lap(Phase::Playout);
        self.scratch = Some(game);
        self.backpropagate(tree, root, root_player, config, outcome, weight);
        if newly_proven {
            self.propagate_proof(tree);
        }
        self.clock.end(Phase::Backprop);
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
        // The node reached is its parent's only child, with forced moves expanded at once: it
        // is expanded whatever its visits, and its expansion is not the simulation's one.
        let mut forced = false;
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
                if node != ROOT && !forced && (expanded || visits < config.expand_threshold()) {
                    return (Leaf::Playout, node, false);
                }
                match n.claim() {
                    Ok(()) => match self.timed_expand(tree, node, game, prior, root_player) {
                        Expansion::Done => {
                            expanded = true;
                            if let Some(leaf) = self.proven_by_prior(tree, node, root_player) {
                                return (leaf, node, false);
                            }
                        }
                        Expansion::Full => return (Leaf::Playout, node, true),
                        Expansion::NoMoves => {
                            return (Leaf::Terminal(Rewards::DRAW, false), node, false);
                        }
                    },
                    // Another thread is expanding it: a leaf for now.
                    Err(EXPANDING) => return (Leaf::Playout, node, false),
                    // Another thread has just expanded it: go on below.
                    Err(_) => {}
                }
            }
            let player = game.to_move();
            forced = config.expand_forced() && n.num_children() == 1;
            let child = self.select(tree, node, n, player, config, &mut grave_ref, game);
            let c = tree.node(child);
            if vl {
                let k = self.path.len();
                // A leaf's visits are added at once: deferred, a thread would play out from
                // it again and again before its visits showed that it is due for expansion.
                if k < 64 && n.visits() >= DEFER_VISIT_COUNTS && c.is_expanded() {
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

    /// [`Worker::expand`], its time apart from the walk's in the phase clock.
    #[inline]
    fn timed_expand<K: Prior<G>>(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        game: &G,
        prior: &K,
        root_player: Player,
    ) -> Expansion {
        self.clock.lap(Phase::Select);
        let expansion = self.expand(tree, node, game, prior, self.mover(root_player));
        self.clock.lap(Phase::Expand);
        expansion
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
        outcome: Rewards,
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

    /// The mover of the last node on the path (during a simulation).
    #[inline]
    fn mover(&self, root_player: Player) -> Player {
        match self.trace.raw().last() {
            Some(&(_, p)) => p as Player,
            None => root_mover(root_player),
        }
    }
}

/// The root's mover: the opponent of `root_player`, the player to move there (the search reads
/// the root's statistics and proof as that player's).
#[inline]
pub(super) fn root_mover(root_player: Player) -> Player {
    1 - root_player.min(1)
}

/// One more visit (the virtual loss, completed by backpropagation).
#[inline]
fn add_visit<M: Copy>(n: &Node<M>) {
    n.add_virtual_visit();
}

#[derive(PartialEq, Eq, Debug)]
pub(super) enum Expansion {
    Done,
    Full,
    NoMoves,
}

fn outcome_for(mover: Player, value: f32) -> Rewards {
    if value == 0.5 {
        Rewards::DRAW
    } else if value == 1.0 {
        Rewards::win(mover)
    } else {
        Rewards::win(1 - mover.min(1))
    }
}

#[cfg(test)]
mod tests {
    use super::expand::sorted_tail;
    use super::*;
    use crate::config::RaveSchedule;
    use crate::game::UniformPlayout;
    use crate::search::select::GENERAL_ONLY;
    use crate::tree::KeptScore;
    use crate::{Budget, Mcts, Proof};
    use rand::SeedableRng;

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
        fn result(&self) -> Option<Rewards> {
            (self.0 == 0).then(|| Rewards::win(1 - self.1))
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
    fn a_thread_sees_its_own_amaf_sample_where_it_chose_and_defers_the_rest() {
        let mut mcts = Mcts::new(Pile(300, 0, 12), config(1));
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        mcts.search(&Budget::simulations(400), &mut rng).unwrap();
        // The worker as one of several threads: the root (400 visits) defers its children's
        // AMAF samples, in batches of a 32nd of its visits (12 simulations).
        let Mcts {
            tree,
            workers,
            game,
            config,
            prior,
            ..
        } = &mut mcts;
        let w = &mut workers[0];
        w.virtual_loss = true;
        w.deferred = (0..backprop::DEFER_SLOTS)
            .map(|_| Deferred::new())
            .collect();
        let amaf = |tree: &Arena<u8>| -> Vec<f32> {
            tree.children(tree.node(ROOT))
                .iter()
                .map(|c| c.amaf_visits())
                .collect()
        };
        let before = amaf(tree);
        let player = game.to_move();
        w.simulate(tree, game, player, config, prior, &mut rng);
        let chosen = w.path[1] as usize - tree.node(ROOT).first_child() as usize;
        let after = amaf(tree);
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            let added = if i == chosen { 1.0 } else { 0.0 };
            assert_eq!(*a, b + added, "child {i} (chosen {chosen})");
        }
        let entry = w
            .deferred
            .iter()
            .find(|d| d.node == ROOT)
            .expect("an entry");
        assert_eq!(
            entry.sums[chosen],
            (0.0, 0.0),
            "nothing pending for the chosen child"
        );
        assert!(
            entry.sums.iter().any(|s| s.0 > 0.0),
            "the other children's samples wait in the batch"
        );
        w.flush_deferred(tree);
        let flushed = amaf(tree);
        // Once added, every child whose move the root's player played in the simulation has
        // one sample more than before it, as the immediate update gives (no horizon here).
        let trace = w.trace.raw();
        let side = trace[0].1;
        let moves: Vec<u8> = tree
            .children(tree.node(ROOT))
            .iter()
            .map(|c| c.mv())
            .collect();
        let mut hits = 0;
        for (i, (f, b)) in flushed.iter().zip(&before).enumerate() {
            let hit = trace.iter().any(|&(m, p)| m == moves[i] && p == side);
            hits += usize::from(hit);
            assert_eq!(
                *f,
                b + f32::from(u8::from(hit)),
                "child {i} (move {})",
                moves[i]
            );
        }
        assert!(hits > 1, "the batch was added into the tree");
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
