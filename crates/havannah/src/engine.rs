//! The Havannah engine: Monte-Carlo tree search with this crate's playouts and priors, time
//! management, a memory (node) budget and tree reuse between moves; its configurations
//! ([`EngineConfig`], with the [`Preset`]s that matches compare).

use std::sync::Arc;
use std::time::{Duration, Instant};

use game_harness::Clock;
use havannah_board::Board;
use havannah_rules::{GameState, Move};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, MctsError, RaveSchedule, SearchResult};

use crate::error::ConfigError;
use crate::first_stone::FirstStones;
use crate::game::HavannahGame;
use crate::patterns::PatternWeights;
use crate::playout::{HavannahPlayout, PlayoutConfig};
use crate::prior::{HavannahPrior, PriorConfig};
use crate::td::ValueNet;
use game_harness::Agent;

mod preset;

pub use preset::Preset;

/// Everything that decides how the engine plays.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct EngineConfig {
    /// A name for tables and logs.
    pub name: String,
    /// The search settings (selection, RAVE, solver, threads, ...).
    pub search: Config,
    /// The playout policy.
    pub playout: PlayoutConfig,
    /// The prior for new nodes.
    pub prior: PriorConfig,
    /// A learned value network mixed into the prior, with its weight in `[0, 1]` (see
    /// [`HavannahPrior::with_value_net`]). It needs a prior with virtual visits.
    pub value_net: Option<(Arc<ValueNet>, f32)>,
    /// The budget of a move when the clock sets no time: this many simulations.
    pub simulations: u64,
    /// The tree nodes a search may hold per search thread (the memory budget: 32 bytes a
    /// node, times the threads). The threads share one tree, which may hold this many nodes
    /// times the threads: more threads grow a bigger tree in the same time.
    pub max_nodes: usize,
    /// A memory budget in bytes for the tree (shared by all threads), if any: the search
    /// holds at most this many bytes of nodes (and at most `max_nodes` a thread). When the
    /// tree is full the search stops growing it and goes on searching.
    pub max_memory: Option<usize>,
    /// Time kept back from every time limit for the work around the search.
    pub safety_margin: Duration,
    /// Under the pie rule, play the first two plies from the built-in first-stone table of
    /// the board size when there is one ([`crate::first_stone`]): open with the stone closest
    /// to even, and swap exactly when the first stone is better than even for White. Without
    /// a table for the size, or with this off, the search decides. Off in
    /// [`EngineConfig::best`]: with the pie rule, the table's engine scored 43% against the
    /// search's own decisions (size 8, 0.5 s, 100 games): the opponent kept its opening g7
    /// in 49 of 50 games and won 36 of them as Black.
    pub pie_table: bool,
    /// Pattern weights to use instead of the built-in ones when
    /// [`PriorConfig::patterns`](crate::PriorConfig::patterns) is above 0 (see
    /// [`crate::patterns`]).
    pub pattern_weights: Option<Arc<PatternWeights>>,
}

impl EngineConfig {
    /// The engine's best configuration as measured against morat-havannah in
    /// `docs/strength.md`: knowledge in the tree, as strong Havannah programs use it
    /// ([`PriorConfig::tree`]: immediate wins and threats narrow every new node and prove it
    /// where they can; a progressive bias for reaching corners and sides and for saving an
    /// intruded bridge), UCT-RAVE with morat's RAVE weight (`beta = k / (k + n)`,
    /// `k = 500 + 200` per legal move: a child's value stays almost its AMAF mean for tens of
    /// thousands of visits) and no exploration term, a leaf expanded on its second visit, no
    /// early stop (the whole time is searched: the tree is kept between moves), playouts
    /// that answer an intrusion into a two-bridge by saving it and are otherwise uniform,
    /// with on-line rings ([`PlayoutConfig::bridges`]), and up to 16 million nodes (512 MiB)
    /// a search thread, pruned when full so that long searches go on growing the tree
    /// ([`rave_mcts::ConfigBuilder::prune_when_full`]).
    #[must_use]
    pub fn best() -> EngineConfig {
        EngineConfig {
            name: "best".to_string(),
            search: Config::builder()
                .rave(RaveSchedule::Fading {
                    base: 500.0,
                    per_move: 200.0,
                })
                .expand_threshold(1)
                .first_play_urgency(1.0)
                .early_stop(false)
                .prune_when_full(true)
                .build()
                .unwrap_or_default(),
            playout: PlayoutConfig::bridges(),
            prior: PriorConfig::tree(),
            value_net: None,
            simulations: 10_000,
            max_nodes: 16_000_000,
            max_memory: None,
            safety_margin: Duration::from_millis(5),
            pie_table: false,
            pattern_weights: None,
        }
    }

    /// Plain UCT with uniform playouts, no prior, no knowledge: the baseline.
    #[must_use]
    pub fn plain_uct() -> EngineConfig {
        EngineConfig {
            name: "uct".to_string(),
            search: Config::builder().uct().build().unwrap_or_default(),
            playout: PlayoutConfig::default(),
            prior: PriorConfig::off(),
            ..EngineConfig::best()
        }
    }

    /// The tree nodes a search may hold in its one tree, all threads together: `max_nodes` a
    /// thread, and no more than `max_memory` allows.
    ///
    /// ```
    /// use havannah::EngineConfig;
    ///
    /// let mut config = EngineConfig::best().with_threads(2)?;
    /// assert_eq!(config.node_budget(), 2 * 16_000_000);
    /// config.max_memory = Some(64 << 20);
    /// let bytes = config.node_budget() * rave_mcts::bytes_per_node::<havannah::rules::Move>(&config.search);
    /// assert!(bytes <= 64 << 20 && bytes > 63 << 20);
    /// # Ok::<(), havannah::MctsError>(())
    /// ```
    #[must_use]
    pub fn node_budget(&self) -> usize {
        let per_thread = self.max_nodes.max(2).saturating_mul(self.search.threads());
        match self.max_memory {
            Some(bytes) => per_thread.min(bytes / rave_mcts::bytes_per_node::<Move>(&self.search)),
            None => per_thread,
        }
    }

    /// The same configuration with a value network loaded from a weights file (see
    /// [`crate::td`]), mixed into the prior with `weight`.
    ///
    /// # Errors
    /// The [`TdError`](crate::td::TdError) of [`ValueNet::load_for`], naming the file: it
    /// cannot be read, is not a weights file, or is for another board size.
    #[cfg(feature = "weights-file")]
    pub fn with_value_net_file(
        mut self,
        path: &std::path::Path,
        size: u8,
        weight: f32,
    ) -> Result<EngineConfig, crate::td::TdError> {
        let net = ValueNet::load_for(path, size)?;
        self.value_net = Some((Arc::new(net), weight));
        if self.prior.visits == 0 {
            self.prior = PriorConfig::default();
        }
        Ok(self)
    }

    /// The same configuration with a budget of `simulations` per move when no clock is set.
    ///
    /// # Errors
    /// [`ConfigError::OutOfRange`] when `simulations` is 0.
    pub fn with_simulations(mut self, simulations: u64) -> Result<EngineConfig, ConfigError> {
        if simulations == 0 {
            return Err(ConfigError::OutOfRange {
                name: "simulations".to_string(),
                value: 0.0,
                expected: "a count >= 1",
            });
        }
        self.simulations = simulations;
        Ok(self)
    }

    /// The same configuration with `threads` search threads.
    ///
    /// # Errors
    /// When `threads` is 0.
    pub fn with_threads(mut self, threads: usize) -> Result<EngineConfig, MctsError> {
        self.search = self.search.to_builder().threads(threads).build()?;
        Ok(self)
    }
}

/// The engine: an [`Agent`] that searches with [`rave_mcts`].
///
/// It keeps its tree between moves: [`Agent::observe`] advances the root by the move played,
/// so the subtree of the answer it expected is reused. Time: with [`Clock::per_move`] it
/// searches that long minus the safety margin; with [`Clock::remaining`] it takes a share of
/// the time left (the time over the moves still to make, estimated from the empty cells when
/// the clock does not say); the tighter limit wins; with neither it runs
/// [`EngineConfig::simulations`] simulations. The node budget always applies.
///
/// ```
/// use game_harness::Clock;
/// use havannah::{Agent, Engine, EngineConfig};
/// use havannah_rules::{GameState, Rules};
///
/// let mut config = EngineConfig::best();
/// config.simulations = 500;
/// let mut engine = Engine::new(config, 7);
/// let mut game = GameState::new(4, Rules::default())?;
/// engine.reset(&game);
/// let mv = engine.choose(&game, &Clock::unlimited()).expect("the game is not over");
/// game.play(mv)?;
/// engine.observe(&game, mv);
/// # Ok::<(), havannah_rules::RulesError>(())
/// ```
pub struct Engine {
    config: EngineConfig,
    search: Option<Mcts<HavannahGame, HavannahPlayout, HavannahPrior>>,
    rng: Pcg64Mcg,
    last: Option<SearchResult<Move>>,
    /// Moves observed but not yet followed in the tree: the tree catches up in `choose`,
    /// where the time it takes counts against the move's budget (a GTP controller waits
    /// for `genmove` until the engine has observed its own move).
    pending: Vec<Move>,
    /// The first-stone table of the last board searched on, if it has one.
    first_stones: Option<FirstStones>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", &self.config)
            .field("tree_nodes", &self.search.as_ref().map(Mcts::tree_nodes))
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with its own generator seeded by `seed` (one thread: fully deterministic for
    /// a given seed and simulation budget).
    #[must_use]
    pub fn new(config: EngineConfig, seed: u64) -> Engine {
        Engine {
            config,
            search: None,
            rng: Pcg64Mcg::seed_from_u64(seed),
            last: None,
            pending: Vec::new(),
            first_stones: None,
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The result of the last search (best move, principal variation, child statistics).
    #[must_use]
    pub fn last_result(&self) -> Option<&SearchResult<Move>> {
        self.last.as_ref()
    }

    /// The number of nodes in the search tree (moves observed since the last search are
    /// followed in the tree, keeping the subtree, when the next search starts).
    #[must_use]
    pub fn tree_nodes(&self) -> usize {
        self.search.as_ref().map_or(0, Mcts::tree_nodes)
    }

    /// The move of the first-stone table at `game` when the pie rule is on and the table
    /// decides it: the most even first stone at ply 0, `swap` at ply 1 when the first stone
    /// favours White. `Some(None)` at ply 1 when the table says not to swap: the search then
    /// chooses among the cells only.
    fn table_move(&mut self, game: &GameState) -> Option<Option<Move>> {
        let plies = game.moves().len();
        if !self.config.pie_table || !game.rules().pie || plies > 1 {
            return None;
        }
        let board = game.board();
        if self
            .first_stones
            .as_ref()
            .is_none_or(|t| t.board() != board)
        {
            self.first_stones = FirstStones::builtin(board).and_then(Result::ok);
        }
        let table = self.first_stones.as_ref()?;
        match game.moves() {
            [] => Some(Some(Move::Cell(table.most_even()))),
            [Move::Cell(first)] => Some(table.should_swap(*first).then_some(Move::Swap)),
            _ => None,
        }
    }

    fn fresh(&self, game: &GameState) -> Mcts<HavannahGame, HavannahPlayout, HavannahPrior> {
        self.fresh_at(HavannahGame::from_game(game))
    }

    fn fresh_at(&self, root: HavannahGame) -> Mcts<HavannahGame, HavannahPlayout, HavannahPrior> {
        let mut prior = HavannahPrior::new(self.config.prior);
        if let Some((net, weight)) = &self.config.value_net {
            prior = prior.with_value_net(Arc::clone(net), *weight);
        }
        if let Some(weights) = &self.config.pattern_weights {
            prior = prior.with_patterns(Arc::clone(weights));
        }
        Mcts::with_policies(
            root,
            self.config.search.clone(),
            HavannahPlayout::new(self.config.playout),
            prior,
        )
    }

    /// Makes sure the search stands at `game`'s position: follows the pending moves in the
    /// tree (keeping the subtree), or starts afresh.
    fn sync(&mut self, game: &GameState) {
        let pending = std::mem::take(&mut self.pending);
        // One compaction of the tree for all of them (usually this engine's last move and
        // the reply): it keeps only the reply's subtree, a fraction of the move's.
        if let Some(search) = self.search.as_mut()
            && search.advance_all(&pending).is_err()
        {
            self.search = None;
        }
        let in_step = self
            .search
            .as_ref()
            .is_some_and(|s| s.game().position().plies() == game.moves().len());
        if !in_step {
            self.search = Some(self.fresh(game));
        }
    }

    /// The budget for the next move under `clock`.
    #[must_use]
    pub fn budget(&self, game: &GameState, clock: &Clock) -> Budget {
        let margin = self.config.safety_margin;
        let min_time = Duration::from_millis(1);
        let mut time = clock
            .per_move
            .map(|t| t.saturating_sub(margin).max(min_time));
        if let Some(remaining) = clock.remaining {
            let empty = game.board().num_cells() - game.position().num_stones();
            // Games rarely fill the board: expect about a third of the empty cells to be
            // played by this side, and never plan for fewer than 6 moves.
            let moves_left = clock
                .moves_to_go
                .map_or_else(|| (empty as u32 / 3).max(6), |m| m.max(1));
            let share = (remaining / moves_left)
                .saturating_sub(margin)
                .max(min_time);
            time = Some(time.map_or(share, |t| t.min(share)));
        }
        let budget = match time {
            Some(t) => Budget::time(t),
            None => Budget::simulations(self.config.simulations.max(1)),
        };
        budget.with_nodes(self.config.node_budget())
    }
}

impl Agent<GameState> for Engine {
    fn name(&self) -> String {
        self.config.name.clone()
    }

    fn search_report(&self) -> Option<String> {
        let board = self.search.as_ref()?.game().board();
        Some(search_report(self.last.as_ref()?, board))
    }

    fn reset(&mut self, game: &GameState) {
        self.search = Some(self.fresh(game));
        self.last = None;
        self.pending.clear();
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    fn observe(&mut self, game: &GameState, mv: Move) {
        let follows = self.search.as_ref().is_some_and(|s| {
            s.game().position().plies() + self.pending.len() + 1 == game.moves().len()
        });
        if follows {
            self.pending.push(mv);
        } else {
            self.search = None;
            self.pending.clear();
        }
    }

    fn choose(&mut self, game: &GameState, clock: &Clock) -> Option<Move> {
        if game.outcome().is_over() {
            return None;
        }
        let start = Instant::now();
        match self.table_move(game) {
            Some(Some(mv)) => {
                self.last = None;
                return Some(mv);
            }
            Some(None) => {
                // Not swapping: search a tree without `swap` (it is legal only here).
                self.search = Some(self.fresh_at(HavannahGame::from_game_with_pie(game, false)));
                self.pending.clear();
            }
            None => {}
        }
        self.sync(game);
        let mut budget = self.budget(game, clock);
        // Following the moves in the tree took part of this move's time.
        if let Some(time) = budget.time.as_mut() {
            *time = time
                .saturating_sub(start.elapsed())
                .max(Duration::from_millis(1));
        }
        let search = self.search.as_mut()?;
        match search.search(&budget, &mut self.rng) {
            Ok(result) => {
                let mv = result.best_move;
                self.last = Some(result);
                game.check(mv).ok().map(|()| mv)
            }
            Err(_) => None,
        }
    }
}

/// The summary of a search that the GTP engine writes to standard error after each move:
/// simulations and their rate, time, the best move's win rate or proof, the principal
/// variation (at most 10 moves), the tree's size and depth, and why the search stopped.
#[must_use]
pub fn search_report(result: &SearchResult<Move>, board: &Board) -> String {
    result.report(|m| m.to_notation(board))
}
