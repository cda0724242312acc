//! The Havannah engine: Monte-Carlo tree search with this crate's playouts and priors, time
//! management, a memory (node) budget and tree reuse between moves; its configurations
//! ([`EngineConfig`], with the [`Preset`]s that matches compare).

use std::sync::Arc;
use std::time::Duration;

use game_harness::search_agent::{Opening, SearchAgent, SearchSetup};
use game_harness::{AgentFailure, Clock};
use havannah_board::Board;
use havannah_rules::{GameState, Move};
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
pub struct Engine(SearchAgent<GameState, HavannahSearch>);

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", self.config())
            .field("tree_nodes", &self.tree_nodes())
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with its own generator seeded by `seed` (one thread: fully deterministic for
    /// a given seed and simulation budget).
    #[must_use]
    pub fn new(config: EngineConfig, seed: u64) -> Engine {
        let setup = HavannahSearch {
            config,
            first_stones: None,
        };
        Engine(SearchAgent::new(setup, seed))
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.0.setup().config
    }

    /// The result of the last search (best move, principal variation, child statistics).
    #[must_use]
    pub fn last_result(&self) -> Option<&SearchResult<Move>> {
        self.0.last_result()
    }

    /// The number of nodes in the search tree (moves observed since the last search are
    /// followed in the tree, keeping the subtree, when the next search starts).
    #[must_use]
    pub fn tree_nodes(&self) -> usize {
        self.0.tree_nodes()
    }

    /// The budget for the next move under `clock`.
    #[must_use]
    pub fn budget(&self, game: &GameState, clock: &Clock) -> Budget {
        self.0.setup().budget(game, clock)
    }
}

/// Havannah's part of the harness's search agent: the configuration, and the first-stone
/// table of the last board searched on, if it has one.
struct HavannahSearch {
    config: EngineConfig,
    first_stones: Option<FirstStones>,
}

impl SearchSetup<GameState> for HavannahSearch {
    type State = HavannahGame;
    type Playout = HavannahPlayout;
    type Prior = HavannahPrior;

    fn name(&self) -> String {
        self.config.name.clone()
    }

    fn root(&self, game: &GameState) -> HavannahGame {
        HavannahGame::from_game(game)
    }

    fn tree(&self, root: HavannahGame) -> Mcts<HavannahGame, HavannahPlayout, HavannahPrior> {
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

    fn follows(&self, state: &HavannahGame, game: &GameState) -> bool {
        state.position().plies() == game.moves().len()
    }

    fn budget(&self, game: &GameState, clock: &Clock) -> Budget {
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

    /// The first-stone table when the pie rule is on and the table decides: the most even
    /// first stone at ply 0, `swap` at ply 1 when the first stone favours White; when it says
    /// not to swap, a search of a tree without `swap` (legal only there).
    fn opening(&mut self, game: &GameState) -> Option<Opening<Move, HavannahGame>> {
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
            [] => Some(Opening::Play(Move::Cell(table.most_even()))),
            [Move::Cell(first)] if table.should_swap(*first) => Some(Opening::Play(Move::Swap)),
            [Move::Cell(_)] => Some(Opening::SearchFrom(HavannahGame::from_game_with_pie(
                game, false,
            ))),
            _ => None,
        }
    }

    fn report(&self, result: &SearchResult<Move>, state: &HavannahGame) -> String {
        search_report(result, state.board())
    }
}

impl Agent<GameState> for Engine {
    fn name(&self) -> String {
        self.0.name()
    }
    fn search_report(&self) -> Option<String> {
        self.0.search_report()
    }
    /// The simulations of the last search; 0 for a move of the first-stone table.
    fn last_simulations(&self) -> Option<u64> {
        self.0.last_simulations()
    }
    fn reset(&mut self, game: &GameState) {
        self.0.reset(game);
    }
    fn reseed(&mut self, seed: u64) {
        self.0.reseed(seed);
    }
    fn observe(&mut self, game: &GameState, mv: Move) {
        self.0.observe(game, mv);
    }
    fn choose(&mut self, game: &GameState, clock: &Clock) -> Option<Move> {
        self.0.choose(game, clock)
    }
    fn failure(&self) -> Option<AgentFailure> {
        self.0.failure()
    }
}

/// The summary of a search that the GTP engine writes to standard error after each move:
/// simulations and their rate, time, the best move's win rate or proof, the principal
/// variation (at most 10 moves), the tree's size and depth, and why the search stopped.
#[must_use]
pub fn search_report(result: &SearchResult<Move>, board: &Board) -> String {
    result.report(|m| m.to_notation(board))
}
