//! The search: [`Mcts`] owns the position, the trees (one [`Worker`] per thread) and the
//! policies, runs the workers and merges their root statistics into a [`SearchResult`].
//!
//! The worker's simulation is in [`worker`], the selection arithmetic in [`select`].

mod select;
mod worker;

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::MctsError;
use crate::config::{Budget, Config, FinalMove};
use crate::game::{Game, NoPrior, Playout, Prior, UniformPlayout};
use crate::result::{ChildStats, Proof, SearchResult};
use crate::tree::{DRAW, LOSS, NONE, Node, ROOT, UNPROVEN, WIN};
use worker::{Limits, Report, Worker};

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
    /// the budget times [`node_bytes`](crate::node_bytes). [`Mcts::advance`] compacts the
    /// kept subtree in place and keeps the memory for the next search.
    pub fn tree_bytes(&self) -> usize {
        self.workers
            .iter()
            .map(|w| w.nodes.capacity() * size_of::<Node<G::Move>>())
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
        let (mut children, proven) = self.merged_root_children();
        let best = best_child(&children, self.config.final_move());
        let best_move = children[best].mv;
        let value = children[best].value;
        let principal_variation = self.principal_variation(best_move);
        // Most visited first (a stable sort: ties keep the tree's order).
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        let simulations: u64 = reports.iter().map(|r| r.simulations).sum();
        let secs = elapsed.as_secs_f64();
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
            stop: reports[0].stop,
        }
    }

    /// The root children's statistics summed over the threads' trees (in the first tree's
    /// order), and the root's proof if a tree proved it.
    fn merged_root_children(&self) -> (Vec<ChildStats<G::Move>>, Option<Proof>) {
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
        // Summed wins and AMAF wins per child.
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
        (children, root_proof)
    }

    /// `best_move`, then the most visited child at each level below it, in the tree that
    /// visited `best_move` most (the last such tree on a tie).
    fn principal_variation(&self, best_move: G::Move) -> Vec<G::Move> {
        let mut pv_worker = &self.workers[0];
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
        let mut principal_variation = vec![best_move];
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
        principal_variation
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

fn proof_public(p: u8) -> Option<Proof> {
    match p {
        WIN => Some(Proof::Win),
        LOSS => Some(Proof::Loss),
        DRAW => Some(Proof::Draw),
        _ => None,
    }
}
