//! The search: [`Mcts`] owns the position, the tree (one arena that all threads share), one
//! [`Worker`] per thread and the policies, runs the workers on the tree and reads the root's
//! statistics into a [`SearchResult`].
//!
//! The worker's simulation is in [`worker`], the selection (its arithmetic and the worker's
//! choice of a child) in [`select`], the shared tree in [`crate::tree`].

mod select;
mod worker;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::MctsError;
use crate::config::{Budget, Config, FinalMove};
use crate::game::{Game, NoPrior, Playout, Prior, UniformPlayout};
use crate::result::{ChildStats, PhaseTimes, Proof, SearchResult, StopReason};
use crate::tree::{Arena, DRAW, KeptScore, LOSS, Node, NodeId, ROOT, WIN};
use select::Kept;
use worker::{Expansion, Limits, Report, Worker, root_mover};

/// A Monte-Carlo tree search over a [`Game`], with a [`Playout`] policy and a [`Prior`].
///
/// It owns the position it searches ([`Mcts::game`]); [`Mcts::advance`] plays a move and keeps
/// the matching subtree, [`Mcts::set_position`] starts afresh. With several threads
/// ([`Config::threads`]) all of them search one shared tree (tree parallelism, with a virtual
/// loss).
pub struct Mcts<G: Game, P: Playout<G> = UniformPlayout<G>, K: Prior<G> = NoPrior> {
    config: Config,
    game: G,
    playout: P,
    prior: K,
    tree: Arena<G::Move>,
    /// What the tree's nodes keep for the selection (`None`: nothing kept).
    kept: Option<Kept>,
    workers: Vec<Worker<G, P>>,
    /// The time the last pruning took per node of the tree (before the first, a guess).
    prune_seconds_per_node: f64,
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
            tree: Arena::new(),
            kept: None,
            workers,
            prune_seconds_per_node: PRUNE_SECONDS_PER_NODE,
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

    /// Replaces the configuration. The tree is kept (all threads share it, whatever their
    /// number).
    pub fn set_config(&mut self, config: Config) {
        if config.threads() != self.workers.len() {
            self.workers = (0..config.threads())
                .map(|_| Worker::new(self.playout.clone()))
                .collect();
        }
        self.config = config;
    }

    /// Starts from another position, forgetting the tree.
    pub fn set_position(&mut self, game: G) {
        self.game = game;
        self.clear_tree();
    }

    /// Forgets the tree.
    pub fn clear_tree(&mut self) {
        self.tree.clear();
        for w in &mut self.workers {
            w.forget_tree();
        }
    }

    /// Plays `mv` in the searched position and keeps the subtree below it (tree reuse).
    ///
    /// The subtree is compacted in place, keeping the arena's memory: a fresh arena per move
    /// would cost page faults on every move (about a tenth of the time at 0.5 s a move).
    ///
    /// # Errors
    /// [`MctsError::IllegalMove`] if `mv` is not legal (or the game is over); nothing changes.
    pub fn advance(&mut self, mv: G::Move) -> Result<(), MctsError> {
        self.advance_all(&[mv])
    }

    /// Plays `moves` in order in the searched position and keeps the subtree below the last
    /// of them, compacted once.
    ///
    /// [`Mcts::advance`] on each move would compact the tree once a move, and a compaction
    /// takes time in proportion to the nodes it keeps: an engine that catches up with its own
    /// move and the reply at the start of its next move keeps only the reply's subtree, a
    /// fraction of its own move's. Without moves nothing changes.
    ///
    /// ```
    /// use rave_mcts::{Budget, Config, Mcts, MctsError};
    /// # use rave_mcts::{Game, Rewards, Player};
    /// # use rave_mcts::rand::SeedableRng;
    /// // A game of 30 plies, each a choice of 0 or 1 (its moves count the plies).
    /// # #[derive(Clone)]
    /// # struct Pick(u8);
    /// # impl Game for Pick {
    /// #     type Move = u8;
    /// #     fn to_move(&self) -> Player { (self.0 % 2) as Player }
    /// #     fn legal_moves(&self, out: &mut Vec<u8>) { if self.0 < 30 { out.extend([0, 1]) } }
    /// #     fn play(&mut self, _: u8) { self.0 += 1 }
    /// #     fn result(&self) -> Option<Rewards> { (self.0 >= 30).then_some(Rewards::DRAW) }
    /// #     fn move_index(&self, mv: u8) -> usize { mv as usize }
    /// #     fn move_bound(&self) -> usize { 2 }
    /// # }
    /// let mut search = Mcts::new(Pick(0), Config::default());
    /// let mut rng = rave_mcts::rand::rngs::SmallRng::seed_from_u64(1);
    /// search.search(&Budget::simulations(500), &mut rng)?;
    /// search.advance_all(&[1, 0])?; // a move and its reply: one compaction
    /// assert_eq!(search.game().0, 2);
    /// // A move that is not legal changes nothing.
    /// assert!(matches!(search.advance_all(&[0, 7]), Err(MctsError::IllegalMove(m)) if m == "7"));
    /// assert_eq!(search.game().0, 2);
    /// # Ok::<(), MctsError>(())
    /// ```
    ///
    /// # Errors
    /// [`MctsError::IllegalMove`] for the first move that is not legal where it comes (or
    /// comes after the end of the game); nothing changes.
    pub fn advance_all(&mut self, moves: &[G::Move]) -> Result<(), MctsError> {
        let mut game = self.game.clone();
        let mut legal = Vec::new();
        // The node that becomes the root (`None`: the moves leave the tree).
        let mut node = (!self.tree.is_empty()).then_some(ROOT);
        let mut last_mover = None;
        for &mv in moves {
            legal.clear();
            if game.result().is_none() {
                game.legal_moves(&mut legal);
            }
            if !legal.contains(&mv) {
                return Err(MctsError::IllegalMove(format!("{mv:?}")));
            }
            last_mover = Some(game.to_move());
            game.play(mv);
            node = node.and_then(|n| self.child_with_move(n, mv));
        }
        let Some(mover) = last_mover else {
            return Ok(());
        };
        self.game = game;
        match node {
            Some(n) => self.tree.keep_subtree(n),
            None => self.tree.clear(),
        }
        if !self.tree.is_empty() && self.game.to_move() == mover {
            see_root_from_the_other_side(self.tree.node(ROOT));
        }
        for w in &mut self.workers {
            w.forget_tree();
        }
        Ok(())
    }

    /// The child of `node` reached by `mv`, if the tree has it.
    fn child_with_move(&self, node: NodeId, mv: G::Move) -> Option<NodeId> {
        let range = self.tree.node(node).children();
        let first = range.start;
        let offset = self.tree.slice(range).iter().position(|c| c.mv() == mv)?;
        Some((first + offset) as NodeId)
    }

    /// Nodes in the tree.
    pub fn tree_nodes(&self) -> usize {
        self.tree.nodes()
    }

    /// The bytes the tree holds (allocated capacity, all threads together: they share one
    /// tree). A search keeps the tree within [`Budget::nodes`], so after a search this is at
    /// most the budget times [`bytes_per_node`]. [`Mcts::advance`] compacts
    /// the kept subtree in place and keeps the memory for the next search.
    pub fn tree_bytes(&self) -> usize {
        self.tree.bytes()
    }

    /// Simulations through the root (all threads; includes a reused subtree).
    pub fn root_visits(&self) -> u64 {
        if self.tree.is_empty() {
            0
        } else {
            u64::from(self.tree.node(ROOT).visits())
        }
    }

    /// Searches the current position within `budget`, using `rng`.
    ///
    /// One thread uses `rng` directly, so a seeded generator makes the search deterministic.
    /// Several threads each get a `Pcg64Mcg` seeded from it and search one shared tree; their
    /// interleaving makes such a search vary from run to run, even with a seeded generator.
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
        let nodes_only = budget.simulations.is_none() && budget.time.is_none();
        self.prepare(node_total)?;
        let root_visits = self.root_visits();
        let prune = self.config.prune_when_full() && !nodes_only;
        let deadline = budget.time.map(|t| start + t);
        let limits = |i: usize, done: u64, prune: bool| Limits {
            simulations: budget.simulations.map(|n| {
                let left = n.saturating_sub(done);
                left / threads as u64 + u64::from((i as u64) < left % threads as u64)
            }),
            deadline,
            time: budget.time,
            nodes_only,
            stop_when_full: prune,
            threads: threads as u64,
            all_simulations: budget.simulations,
            root_visits,
        };
        let mut reports = self.run_workers(rng, |i| limits(i, 0, prune));
        if prune {
            self.prune_and_go_on(rng, &mut reports, deadline, limits);
        }
        let elapsed = start.elapsed();
        Ok(self.collect(&reports, elapsed))
    }

    /// While the workers stopped on a full tree: prunes it to half the node limit and runs
    /// them on (`limits` for worker `i`, `done` simulations done, stopping on a full tree or
    /// not), adding their reports to `reports`. When nothing can be pruned, or the time left
    /// is less than twice what pruning is expected to take, they go on without growing the
    /// tree.
    fn prune_and_go_on<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        reports: &mut [Report],
        deadline: Option<Instant>,
        limits: impl Fn(usize, u64, bool) -> Limits,
    ) {
        let mut prune = true;
        while prune && reports.iter().any(|r| r.stop == StopReason::Nodes) {
            let nodes = self.tree.nodes();
            let expected = Duration::from_secs_f64(self.prune_seconds_per_node * nodes as f64);
            let started = Instant::now();
            prune = deadline.is_none_or(|d| started + 2 * expected < d)
                && self.tree.prune(self.tree.limit() / 2).is_some();
            if prune {
                self.prune_seconds_per_node = started.elapsed().as_secs_f64() / nodes as f64;
            }
            let done = reports.iter().map(|r| r.simulations).sum();
            let more = self.run_workers(rng, |i| limits(i, done, prune));
            for (r, m) in reports.iter_mut().zip(more) {
                r.simulations += m.simulations;
                r.discarded += m.discarded;
                r.max_depth = r.max_depth.max(m.max_depth);
                r.phases.merge(&m.phases);
                r.stop = m.stop;
            }
        }
    }

    /// Readies the tree and the workers for a search within `node_total` nodes: the node
    /// limit, the kept scores, the root and its children.
    ///
    /// # Errors
    /// [`MctsError::GameOver`] if the position has no legal move,
    /// [`MctsError::InvalidParameter`] if the node budget cannot hold the root and its children.
    fn prepare(&mut self, node_total: usize) -> Result<(), MctsError> {
        let threads = self.workers.len();
        self.tree.set_limit(node_total);
        let kept = Kept::of(&self.config);
        self.tree.keep_scores(kept.is_some());
        if self.tree.is_empty() {
            let mut moves = Vec::new();
            self.game.legal_moves(&mut moves);
            let Some(&placeholder) = moves.first() else {
                return Err(MctsError::GameOver);
            };
            if !self.tree.push_root(placeholder) {
                return Err(too_small(node_total));
            }
        }
        if let Some(k) = kept
            && self.kept != kept
        {
            // The values kept under another configuration (or none) are worked out again.
            k.refresh_tree(&self.tree);
        }
        self.kept = kept;
        for w in &mut self.workers {
            w.kept = kept;
            w.prior_target = self.config.prior_target();
            w.solver = self.config.solver();
            w.virtual_loss = threads > 1;
            w.prepare(&self.game);
        }
        let root = self.tree.node(ROOT);
        let mover = root_mover(self.game.to_move());
        if !root.is_expanded()
            && (root.claim().is_err()
                || self.workers[0].expand(&self.tree, ROOT, &self.game, &self.prior, mover)
                    != Expansion::Done)
        {
            return Err(too_small(node_total));
        }
        Ok(())
    }

    /// Runs the workers on the tree, each within its `limits` (by the worker's index), and
    /// returns their reports: one thread on `rng`, several each on a `Pcg64Mcg` seeded from it.
    fn run_workers<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        limits: impl Fn(usize) -> Limits,
    ) -> Vec<Report> {
        let threads = self.workers.len();
        let Mcts {
            config,
            game,
            prior,
            tree,
            workers,
            ..
        } = self;
        let (config, game, prior, tree) = (&*config, &*game, &*prior, &*tree);
        let stop = AtomicBool::new(false);
        let stop = &stop;
        if threads == 1 {
            vec![workers[0].run(tree, game, config, prior, rng, limits(0), stop)]
        } else {
            let seeds: Vec<u64> = (0..threads).map(|_| rng.next_u64()).collect();
            std::thread::scope(|s| {
                let (first, rest) = workers.split_at_mut(1);
                let handles: Vec<_> = rest
                    .iter_mut()
                    .enumerate()
                    .map(|(i, w)| {
                        let seed = seeds[i + 1];
                        let lim = limits(i + 1);
                        s.spawn(move || {
                            let mut r = Pcg64Mcg::seed_from_u64(seed);
                            w.run(tree, game, config, prior, &mut r, lim, stop)
                        })
                    })
                    .collect();
                let mut r = Pcg64Mcg::seed_from_u64(seeds[0]);
                let mut reports =
                    vec![first[0].run(tree, game, config, prior, &mut r, limits(0), stop)];
                for h in handles {
                    reports.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
                }
                reports
            })
        }
    }

    /// Reads the root's statistics into a result.
    fn collect(&self, reports: &[Report], elapsed: Duration) -> SearchResult<G::Move> {
        let (mut children, proven) = self.root_children();
        let best = best_child(&children, self.config.final_move());
        let best_move = children[best].mv;
        let value = children[best].value;
        let principal_variation = self.principal_variation(best_move);
        // Most visited first (a stable sort: ties keep the tree's order).
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        let simulations: u64 = reports.iter().map(|r| r.simulations).sum();
        let secs = elapsed.as_secs_f64();
        // The thread that stopped the search for all says why.
        let stop = reports
            .iter()
            .map(|r| r.stop)
            .find(|&s| s != StopReason::Simulations)
            .unwrap_or(reports[0].stop);
        SearchResult {
            best_move,
            value,
            principal_variation,
            children,
            proven,
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
            stop,
            phases: reports.iter().fold(PhaseTimes::default(), |mut all, r| {
                all.merge(&r.phases);
                all
            }),
        }
    }

    /// The root children's statistics (in the tree's order), and the root's proof.
    fn root_children(&self) -> (Vec<ChildStats<G::Move>>, Option<Proof>) {
        let root = self.tree.node(ROOT);
        // The root's mover is the opponent of the player to move.
        let root_proof = proof_public(root.proof()).map(Proof::flip);
        (self.children_stats(ROOT), root_proof)
    }

    /// The statistics of `node`'s children, in the tree's order (each for its own mover).
    fn children_stats(&self, node: NodeId) -> Vec<ChildStats<G::Move>> {
        self.tree
            .children(self.tree.node(node))
            .iter()
            .map(|c| {
                let d = c.data();
                let visits = u64::from(d.visits);
                ChildStats {
                    mv: d.mv,
                    visits,
                    value: if visits > 0 {
                        f64::from(d.wins) / visits as f64
                    } else {
                        0.0
                    },
                    amaf_visits: f64::from(d.amaf_visits),
                    amaf_value: if d.amaf_visits > 0.0 {
                        f64::from(d.amaf_wins) / f64::from(d.amaf_visits)
                    } else {
                        0.0
                    },
                    proof: proof_public(d.proof),
                }
            })
            .collect()
    }

    /// `best_move`, then at each level below it the child [`best_child`] takes by visits (a
    /// proven win first, proven losses avoided), down to a node none of whose children has
    /// visits.
    fn principal_variation(&self, best_move: G::Move) -> Vec<G::Move> {
        let tree = &self.tree;
        let mut principal_variation = vec![best_move];
        let mut cur = self.child_with_move(ROOT, best_move);
        while let Some(id) = cur {
            let children = self.children_stats(id);
            if children.iter().all(|c| c.visits == 0) {
                break;
            }
            let best = best_child(&children, FinalMove::MostVisits);
            principal_variation.push(children[best].mv);
            cur = Some((tree.node(id).children().start + best) as NodeId);
        }
        principal_variation
    }
}

/// The error of a node budget of `node_total` nodes that cannot hold the root and its
/// children.
/// What pruning a tree is expected to take per node before it has been timed: 10 ns a node
/// were measured on a Havannah tree of 16 million nodes, the guess is twice that.
const PRUNE_SECONDS_PER_NODE: f64 = 20e-9;

fn too_small(node_total: usize) -> MctsError {
    MctsError::InvalidParameter {
        name: "budget nodes",
        value: node_total.to_string(),
        expected: "room for the root and its children",
    }
}

/// Index of the best child: a proven win first, then the rule, avoiding proven losses; a
/// proven draw rather than an unproven child valued below a draw.
fn best_child<M>(children: &[ChildStats<M>], rule: FinalMove) -> usize {
    let chosen = best_child_by_rule(children, rule);
    let c = &children[chosen];
    match children.iter().position(|c| c.proof == Some(Proof::Draw)) {
        Some(draw) if c.proof.is_none() && c.value < 0.5 => draw,
        _ => chosen,
    }
}

/// [`best_child`] before the comparison with a proven draw.
fn best_child_by_rule<M>(children: &[ChildStats<M>], rule: FinalMove) -> usize {
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
        FinalMove::MostWins => candidates()
            .max_by(|(_, a), (_, b)| {
                let wins = |c: &ChildStats<M>| c.visits as f64 * c.value;
                wins(a).total_cmp(&wins(b)).then(a.visits.cmp(&b.visits))
            })
            .map_or(most, |(i, _)| i),
    }
}

/// The bytes a tree node takes in a search under `config`, for moves of type `M`: 32 for moves
/// of 1 to 4 bytes, plus 8 where the search keeps each node's RAVE value for the selection (a
/// configuration with an AMAF horizon and the minimum-MSE or fading schedule).
///
/// ```
/// use rave_mcts::{Config, RaveSchedule, bytes_per_node};
///
/// let rave = Config::builder().rave(RaveSchedule::default()).build()?;
/// assert_eq!(bytes_per_node::<u16>(&rave), 32);
/// let horizon = rave.to_builder().amaf_horizon(Some(12)).build()?;
/// assert_eq!(bytes_per_node::<u16>(&horizon), 32 + 8);
/// # Ok::<(), rave_mcts::MctsError>(())
/// ```
pub fn bytes_per_node<M>(config: &Config) -> usize {
    let kept = if Kept::of(config).is_some() {
        size_of::<KeptScore>()
    } else {
        0
    };
    crate::tree::node_bytes::<M>() + kept
}

/// Re-expresses a root's own value and proof for the other player. A node's statistics are
/// its mover's, and the search reads the root's as those of the opponent of the player to
/// move; after a move that leaves the same player to move (a game that splits a move in
/// two), the kept root's mover is that player.
fn see_root_from_the_other_side<M: Copy>(root: &Node<M>) {
    root.set_wins(root.visits() as f32 - root.wins());
    match root.proof() {
        WIN => root.set_proof(LOSS),
        LOSS => root.set_proof(WIN),
        _ => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    fn child(mv: u8, visits: u64, value: f64, proof: Option<Proof>) -> ChildStats<u8> {
        ChildStats {
            mv,
            visits,
            value,
            amaf_visits: 0.0,
            amaf_value: 0.0,
            proof,
        }
    }

    #[test]
    fn a_proven_draw_beats_an_unproven_move_valued_below_a_draw() {
        for rule in [
            FinalMove::MostVisits,
            FinalMove::BestValue,
            FinalMove::MostWins,
        ] {
            let below = [
                child(0, 900, 0.45, None),
                child(1, 100, 0.5, Some(Proof::Draw)),
            ];
            assert_eq!(best_child(&below, rule), 1, "{rule:?}");
            let above = [
                child(0, 900, 0.55, None),
                child(1, 100, 0.5, Some(Proof::Draw)),
            ];
            assert_eq!(best_child(&above, rule), 0, "{rule:?}");
        }
    }

    #[test]
    fn a_proven_win_is_played_and_a_proven_loss_avoided() {
        let children = [
            child(0, 900, 0.9, Some(Proof::Loss)),
            child(1, 50, 0.2, None),
            child(2, 10, 0.6, Some(Proof::Win)),
        ];
        assert_eq!(best_child(&children, FinalMove::MostVisits), 2);
        assert_eq!(best_child(&children[..2], FinalMove::MostVisits), 1);
        assert_eq!(best_child(&children, FinalMove::MostWins), 2);
        assert_eq!(best_child(&children[..2], FinalMove::MostWins), 1);
    }

    #[test]
    fn most_wins_weighs_visits_by_their_value() {
        // 1,000 visits at 40% are 400 wins, 900 at 50% are 450.
        let children = [child(0, 1000, 0.4, None), child(1, 900, 0.5, None)];
        assert_eq!(best_child(&children, FinalMove::MostVisits), 0);
        assert_eq!(best_child(&children, FinalMove::MostWins), 1);
        // Equal wins: the more visited.
        let tied = [child(0, 500, 0.5, None), child(1, 1000, 0.25, None)];
        assert_eq!(best_child(&tied, FinalMove::MostWins), 1);
    }
}
