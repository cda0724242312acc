//! What a search returns: plain data a GUI or a log can print.

use std::time::Duration;

/// A game-theoretic value proven by the MCTS-solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Proof {
    /// A forced win.
    Win,
    /// A forced loss.
    Loss,
    /// A forced draw.
    Draw,
}

impl Proof {
    /// The same value seen by the other player.
    pub fn flip(self) -> Self {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            Proof::Draw => Proof::Draw,
        }
    }
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StopReason {
    /// The simulation budget is spent.
    Simulations,
    /// The time budget is spent.
    Time,
    /// The tree is full and nodes was the only limit.
    Nodes,
    /// The root is proven.
    Proven,
    /// The most visited move cannot be overtaken any more.
    BestMoveFixed,
}

/// Statistics of one root child (one move of the player to move), merged over all threads.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ChildStats<M> {
    /// The move.
    pub mv: M,
    /// Simulations through this move (prior visits included).
    pub visits: u64,
    /// Mean reward of the player to move after this move (0 without visits).
    pub value: f64,
    /// AMAF samples (weighted) of this move.
    pub amaf_visits: f64,
    /// Mean AMAF reward of this move for the player to move (0 without samples).
    pub amaf_value: f64,
    /// The proven value of the move for the player to move, if any.
    pub proof: Option<Proof>,
}

/// The result of [`Mcts::search`](crate::Mcts::search).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SearchResult<M> {
    /// The move to play: a proven win if there is one, else by the configured
    /// [`FinalMove`](crate::FinalMove) rule, avoiding proven losses, and a proven draw rather
    /// than an unproven move valued below a draw.
    pub best_move: M,
    /// Mean reward of the best move for the player to move.
    pub value: f64,
    /// The best move followed by the most visited replies, a proven win first and proven
    /// losses avoided at each level (a reply's mover may be the player who moved before).
    pub principal_variation: Vec<M>,
    /// Every root child, most visited first.
    pub children: Vec<ChildStats<M>>,
    /// The proven value of the position for the player to move, if any.
    pub proven: Option<Proof>,
    /// Simulations through the root, in all trees (a reused subtree's included).
    pub root_visits: u64,
    /// Simulations run by this search (discarded ones included).
    pub simulations: u64,
    /// Playouts discarded by the playout horizon.
    pub discarded: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// `simulations / elapsed`.
    pub simulations_per_second: f64,
    /// Nodes in all trees after the search.
    pub tree_nodes: usize,
    /// Deepest tree path of a simulation.
    pub max_depth: usize,
    /// Why the (first) thread stopped.
    pub stop: StopReason,
    /// Where the simulations' time went, from a sample of them (all threads together).
    #[cfg_attr(feature = "serde", serde(default))]
    pub phases: PhaseTimes,
}

/// A phase of a simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The root position copied into the simulation's game.
    Copy,
    /// The walk down the tree: selecting a child at each node and playing its move.
    Select,
    /// A leaf expanded: its legal moves, the prior's knowledge (threats, biases), the
    /// children written.
    Expand,
    /// The playout from the leaf to the end of the game.
    Playout,
    /// The result and the AMAF samples added along the path (and proofs passed up).
    Backprop,
}

impl Phase {
    /// The five phases in the order of a simulation.
    pub const ALL: [Phase; 5] = [
        Phase::Copy,
        Phase::Select,
        Phase::Expand,
        Phase::Playout,
        Phase::Backprop,
    ];

    /// The phase's name in lower case (`copy`, `select`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Copy => "copy",
            Phase::Select => "select",
            Phase::Expand => "expand",
            Phase::Playout => "playout",
            Phase::Backprop => "backprop",
        }
    }
}

/// The time of each [`Phase`] over a sample of a search's simulations: one in 64 is timed
/// (five clock reads), so that the count is cheap enough to stay on.
///
/// ```
/// use rave_mcts::{Phase, PhaseTimes};
/// use std::time::Duration;
///
/// let mut times = PhaseTimes::default();
/// times.add(Phase::Playout, Duration::from_micros(3));
/// times.add(Phase::Select, Duration::from_micros(1));
/// times.sampled = 1;
/// assert_eq!(times.share(Phase::Playout), 0.75);
/// assert_eq!(times.per_simulation(Phase::Select), Duration::from_micros(1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PhaseTimes {
    /// The simulations timed.
    pub sampled: u64,
    /// Nanoseconds in each phase, in the order of [`Phase::ALL`].
    pub nanos: [u64; 5],
}

impl PhaseTimes {
    /// Adds `time` to `phase`.
    pub fn add(&mut self, phase: Phase, time: Duration) {
        self.nanos[phase as usize] += u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
    }

    /// Adds another sample's times (another thread's, another search's).
    pub fn merge(&mut self, other: &PhaseTimes) {
        self.sampled += other.sampled;
        for (a, b) in self.nanos.iter_mut().zip(other.nanos) {
            *a += b;
        }
    }

    /// The share of the sampled time spent in `phase` (0 with nothing sampled).
    #[must_use]
    pub fn share(&self, phase: Phase) -> f64 {
        let total: u64 = self.nanos.iter().sum();
        if total == 0 {
            0.0
        } else {
            self.nanos[phase as usize] as f64 / total as f64
        }
    }

    /// The mean time of `phase` in one simulation (zero with nothing sampled).
    #[must_use]
    pub fn per_simulation(&self, phase: Phase) -> Duration {
        let nanos = self.nanos[phase as usize]
            .checked_div(self.sampled)
            .unwrap_or(0);
        Duration::from_nanos(nanos)
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Simulations => "simulations spent",
            StopReason::Time => "time spent",
            StopReason::Nodes => "tree full",
            StopReason::Proven => "root proven",
            StopReason::BestMoveFixed => "best move fixed",
        })
    }
}

impl<M> SearchResult<M> {
    /// The search's statistics in three lines, as engines print them after a move (and GTP
    /// analysis commands return them): simulations, their rate and the time; the best move's
    /// win rate or the proof; the principal variation (at most 10 moves, named by `name`);
    /// the tree's size and depth and why the search stopped.
    ///
    /// ```
    /// use rave_mcts::{Budget, Config, Mcts, SearchResult};
    /// # use rave_mcts::{Game, Rewards, Player};
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
    /// # use rave_mcts::rand::SeedableRng;
    /// let result = search.search(&Budget::simulations(100), &mut rng).unwrap();
    /// let report = result.report(|m| format!("m{m}"));
    /// assert!(report.starts_with(&format!("simulations {} (", result.simulations)));
    /// assert!(report.contains("\npv m"), "{report}");
    /// assert!(report.ends_with(&format!("stopped: {}", result.stop)), "{report}");
    /// ```
    pub fn report(&self, name: impl Fn(&M) -> String) -> String {
        let pv: Vec<String> = self.principal_variation.iter().take(10).map(name).collect();
        let verdict = match self.proven {
            Some(Proof::Win) => "proven win".to_string(),
            Some(Proof::Loss) => "proven loss".to_string(),
            Some(Proof::Draw) => "proven draw".to_string(),
            None => format!("win rate {:.1}%", 100.0 * self.value),
        };
        format!(
            "simulations {} ({:.0}/s) in {:.3} s, {verdict}\npv {}\ntree {} nodes, depth {}, stopped: {}",
            self.simulations,
            self.simulations_per_second,
            self.elapsed.as_secs_f64(),
            pv.join(" "),
            self.tree_nodes,
            self.max_depth,
            self.stop,
        )
    }
}
