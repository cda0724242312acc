//! The Havannah engine: Monte-Carlo tree search with this crate's playouts and priors, time
//! management, a memory (node) budget and tree reuse between moves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game_harness::Clock;
use havannah_board::Board;
use havannah_rules::{GameState, Move};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{
    AmafWeighting, Budget, Config, Mcts, MctsError, PriorTarget, RaveSchedule, SearchResult,
};

use crate::error::ConfigError;
use crate::game::{HMove, HavannahGame};
use crate::playout::{HavannahPlayout, PlayoutConfig, Policy, RingCheck};
use crate::prior::{HavannahPrior, PriorConfig};
use crate::td::ValueNet;
use game_harness::Agent;

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
}

/// The count a parameter's `value` text gives, checked to lie in `min..=max`.
fn count_parameter(key: &str, value: &str, min: u32, max: u32) -> Result<u32, String> {
    let number: f64 = value.trim().parse().unwrap_or(f64::NAN);
    if number.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&number) {
        Ok(number as u32)
    } else {
        Err(format!(
            "parameter {key}: {value:?} is not a count >= {min}"
        ))
    }
}

/// The parameter keys [`EngineConfig::named`] accepts after a configuration name.
pub const PARAMETER_KEYS: &str = "bias, ravebase, ravemove, c, expand, fpu, stop, threads, nodes, memory, reach, reply, threats, decisive, block, save, lgr, kmoves";

/// The named configurations the examples accept (see [`EngineConfig::named`]).
pub const CONFIG_NAMES: &[&str] = &[
    "best",
    "uct",
    "rave",
    "grave",
    "wamaf",
    "horizon",
    "weighted",
    "offline",
    "prior",
    "prior-uct",
    "prior-amaf",
    "knowledge",
    "decisive",
    "bridge",
    "lgr",
];

impl EngineConfig {
    /// The engine's best configuration as measured against morat-havannah in
    /// `docs/strength.md`: knowledge in the tree, as strong Havannah programs use it
    /// ([`PriorConfig::tree`]: immediate wins and threats narrow every new node and prove it
    /// where they can; a progressive bias for reaching corners and sides and for saving an
    /// intruded bridge), UCT-RAVE with morat's RAVE weight (`beta = k / (k + n)`,
    /// `k = 500 + 200` per legal move: a child's value stays almost its AMAF mean for tens of
    /// thousands of visits) and no exploration term, a leaf expanded on its second visit, no
    /// early stop (the whole time is searched: the tree is kept between moves), uniform
    /// playouts with on-line rings, and up to 16 million nodes (512 MiB) a search thread.
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
                .build()
                .unwrap_or_default(),
            playout: PlayoutConfig::default(),
            prior: PriorConfig::tree(),
            value_net: None,
            simulations: 10_000,
            max_nodes: 16_000_000,
            max_memory: None,
            safety_margin: Duration::from_millis(5),
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

    /// A configuration by name, for the examples' command lines. `best` and `uct` are the
    /// two above; the others change one feature of a plain RAVE engine (uniform playouts, no
    /// prior, no knowledge) so that matches measure that feature alone:
    /// `rave`, `grave` (GRAVE with r = 50), `wamaf` (weighted AMAF), `horizon` (the playout
    /// horizon), `weighted` (the paper's weighted playouts), `offline` (off-line rings),
    /// `prior` (the Havannah prior, its virtual visits in the UCT and AMAF statistics),
    /// `prior-uct` and `prior-amaf` (the prior in one of them only), `knowledge` (the
    /// decisive, anti-decisive and bridge-saving playout rules), `decisive` (the decisive and anti-decisive rules alone),
    /// `bridge` (bridge saving alone), `lgr` (last-good-reply).
    ///
    /// A name may be followed by `:` and comma-separated search parameters that replace the
    /// configuration's own, for tuning matches: `bias=B` (the minimum-MSE RAVE bias; turns
    /// RAVE on), `c=C` (the UCT exploration constant), `expand=N` (the expansion threshold),
    /// `fpu=F` (first-play urgency), `stop=0|1` (early stop), `threads=N` (search threads, so
    /// that one match can pit thread counts against each other), `nodes=N` (tree nodes a
    /// thread), `memory=MiB` (a memory budget for the tree all threads share), and the tree
    /// knowledge of [`PriorConfig::tree`]: `reach=W`, `reply=W`, `threats=0|1` (see
    /// [`PriorConfig::set`]).
    /// For example `best:bias=0.02,expand=4`.
    ///
    /// ```
    /// use havannah::EngineConfig;
    ///
    /// let tuned = EngineConfig::named("best:expand=4,c=0.1").unwrap();
    /// assert_eq!(tuned.search.expand_threshold(), 4);
    /// assert_eq!(tuned.search.exploration(), 0.1);
    /// assert!(EngineConfig::named("best:depth=3").unwrap_err().contains("depth"));
    /// assert_eq!(EngineConfig::named("best:threads=2").unwrap().search.threads(), 2);
    /// assert!(EngineConfig::named("best:threads=0").unwrap_err().contains("threads"));
    /// assert!(!EngineConfig::named("best:threats=0").unwrap().prior.threats);
    /// assert!(EngineConfig::named("best:reach=-1").unwrap_err().contains("reach"));
    /// let knowing = EngineConfig::named("best:decisive=1,block=1").unwrap();
    /// assert!(knowing.playout.decisive && knowing.playout.anti_decisive);
    /// assert!(!knowing.playout.save_bridge);
    /// let fading = EngineConfig::named("best:ravemove=100").unwrap();
    /// assert_eq!(
    ///     fading.search.selection(),
    ///     rave_mcts::Selection::Rave(rave_mcts::RaveSchedule::Fading { base: 500.0, per_move: 100.0 })
    /// );
    /// assert!(EngineConfig::named("best:ravebase=-1").unwrap_err().contains("base"));
    /// assert_eq!(EngineConfig::named("best:nodes=16000000").unwrap().max_nodes, 16_000_000);
    /// assert!(EngineConfig::named("best:nodes=1.5").unwrap_err().contains("nodes"));
    /// ```
    ///
    /// # Errors
    /// A message naming the unknown name (and listing the known ones), or the parameter or
    /// value that is unknown or out of range.
    pub fn named(spec: &str) -> Result<EngineConfig, String> {
        let (name, params) = match spec.split_once(':') {
            Some((name, params)) => (name, Some(params)),
            None => (spec, None),
        };
        let mut config = EngineConfig::named_base(name)?;
        let Some(params) = params else {
            return Ok(config);
        };
        let mut builder = config.search.to_builder();
        // `ravebase` and `ravemove` set the fading schedule together (morat's 500 and 200
        // for the one not given).
        let mut fading: Option<(f64, f64)> = None;
        for param in params.split(',') {
            let (key, value) = param
                .split_once('=')
                .ok_or_else(|| format!("parameter {param:?} in {spec:?} is not key=value"))?;
            let number: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("parameter {key}: {value:?} is not a number"))?;
            builder = match key.trim() {
                "bias" => builder.rave(RaveSchedule::MinimumMse { bias: number }),
                "ravebase" => {
                    fading = Some((number, fading.map_or(200.0, |f| f.1)));
                    builder
                }
                "ravemove" => {
                    fading = Some((fading.map_or(500.0, |f| f.0), number));
                    builder
                }
                "c" => builder.exploration(number),
                "fpu" => builder.first_play_urgency(number),
                "expand" => {
                    builder.expand_threshold(count_parameter("expand", value, 1, u32::MAX)?)
                }
                "stop" => builder.early_stop(number != 0.0),
                "nodes" => {
                    config.max_nodes = count_parameter("nodes", value, 2, u32::MAX)? as usize;
                    builder
                }
                "memory" => {
                    let mib = count_parameter("memory", value, 1, 1 << 20)?;
                    config.max_memory = Some(mib as usize * (1 << 20));
                    builder
                }
                "threads" => builder.threads(count_parameter("threads", value, 1, 1024)? as usize),
                "reach" | "reply" | "threats" => {
                    config
                        .prior
                        .set(key.trim(), number)
                        .map_err(|e| e.to_string())?;
                    builder
                }
                "decisive" | "block" | "save" | "lgr" | "kmoves" => {
                    config
                        .playout
                        .set(key.trim(), number)
                        .map_err(|e| e.to_string())?;
                    builder
                }
                other => {
                    return Err(format!(
                        "unknown search parameter {other:?} in {spec:?}; known: {PARAMETER_KEYS}"
                    ));
                }
            };
        }
        if let Some((base, per_move)) = fading {
            builder = builder.rave(RaveSchedule::Fading { base, per_move });
        }
        config.search = builder.build().map_err(|e| format!("{spec:?}: {e}"))?;
        config.name = spec.to_string();
        Ok(config)
    }

    /// The tree nodes a search may hold in its one tree, all threads together: `max_nodes` a
    /// thread, and no more than `max_memory` allows.
    ///
    /// ```
    /// use havannah::EngineConfig;
    ///
    /// let config = EngineConfig::named("best:threads=2,memory=64").unwrap();
    /// let bytes = config.node_budget() * rave_mcts::bytes_per_node::<havannah::HMove>(&config.search);
    /// assert!(bytes <= 64 << 20 && bytes > 63 << 20);
    /// assert_eq!(EngineConfig::named("best:threads=2").unwrap().node_budget(), 32_000_000);
    /// ```
    #[must_use]
    pub fn node_budget(&self) -> usize {
        let per_thread = self.max_nodes.max(2).saturating_mul(self.search.threads());
        match self.max_memory {
            Some(bytes) => per_thread.min(bytes / rave_mcts::bytes_per_node::<HMove>(&self.search)),
            None => per_thread,
        }
    }

    /// A configuration by its plain name (no parameters).
    fn named_base(name: &str) -> Result<EngineConfig, String> {
        let rave = || Config::builder().rave(RaveSchedule::MinimumMse { bias: 0.05 });
        let plain = |search: Config| EngineConfig {
            name: name.to_string(),
            search,
            playout: PlayoutConfig::default(),
            prior: PriorConfig::off(),
            ..EngineConfig::best()
        };
        let built = |b: rave_mcts::ConfigBuilder| b.build().map_err(|e| e.to_string());
        Ok(match name {
            "best" => EngineConfig::best(),
            "uct" => EngineConfig::plain_uct(),
            "rave" => plain(built(rave())?),
            "grave" => plain(built(Config::builder().grave(50))?),
            "wamaf" => plain(built(rave().amaf_weighting(AmafWeighting::Playout))?),
            "horizon" => plain(built(rave().playout_horizon(true))?),
            "weighted" => EngineConfig {
                playout: PlayoutConfig {
                    policy: Policy::Weighted,
                    ..PlayoutConfig::default()
                },
                ..plain(built(rave())?)
            },
            "offline" => EngineConfig {
                playout: PlayoutConfig {
                    rings: RingCheck::Offline,
                    ..PlayoutConfig::default()
                },
                ..plain(built(rave())?)
            },
            "prior" => EngineConfig {
                prior: PriorConfig::default(),
                ..plain(built(rave())?)
            },
            "prior-uct" | "prior-amaf" => EngineConfig {
                prior: PriorConfig::default(),
                ..plain(built(rave().prior_target(if name == "prior-uct" {
                    PriorTarget::Uct
                } else {
                    PriorTarget::Amaf
                }))?)
            },
            "knowledge" => EngineConfig {
                playout: PlayoutConfig::strong(),
                ..plain(built(rave())?)
            },
            "decisive" => EngineConfig {
                playout: PlayoutConfig {
                    decisive: true,
                    anti_decisive: true,
                    ..PlayoutConfig::default()
                },
                ..plain(built(rave())?)
            },
            "bridge" => EngineConfig {
                playout: PlayoutConfig {
                    save_bridge: true,
                    ..PlayoutConfig::default()
                },
                ..plain(built(rave())?)
            },
            "lgr" => EngineConfig {
                playout: PlayoutConfig {
                    last_good_reply: true,
                    ..PlayoutConfig::default()
                },
                ..plain(built(rave())?)
            },
            other => {
                return Err(format!(
                    "unknown engine configuration {other:?}; known: {}",
                    CONFIG_NAMES.join(", ")
                ));
            }
        })
    }

    /// The same configuration with a value network loaded from a weights file (see
    /// [`crate::td`]), mixed into the prior with `weight`.
    ///
    /// # Errors
    /// The file cannot be read, is not a weights file, or is for another board size; the
    /// message names the file.
    #[cfg(feature = "weights-file")]
    pub fn with_value_net_file(
        mut self,
        path: &std::path::Path,
        size: u8,
        weight: f32,
    ) -> Result<EngineConfig, String> {
        let net = ValueNet::load_for(path, size).map_err(|e| e.to_string())?;
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
    last: Option<SearchResult<HMove>>,
    /// Moves observed but not yet followed in the tree: the tree catches up in `choose`,
    /// where the time it takes counts against the move's budget (a GTP controller waits
    /// for `genmove` until the engine has observed its own move).
    pending: Vec<Move>,
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
        }
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The result of the last search (best move, principal variation, child statistics).
    #[must_use]
    pub fn last_result(&self) -> Option<&SearchResult<HMove>> {
        self.last.as_ref()
    }

    /// The number of nodes in the search tree (moves observed since the last search are
    /// followed in the tree, keeping the subtree, when the next search starts).
    #[must_use]
    pub fn tree_nodes(&self) -> usize {
        self.search.as_ref().map_or(0, Mcts::tree_nodes)
    }

    fn fresh(&self, game: &GameState) -> Mcts<HavannahGame, HavannahPlayout, HavannahPrior> {
        let mut prior = HavannahPrior::new(self.config.prior);
        if let Some((net, weight)) = &self.config.value_net {
            prior = prior.with_value_net(Arc::clone(net), *weight);
        }
        Mcts::with_policies(
            HavannahGame::from_game(game),
            self.config.search.clone(),
            HavannahPlayout::new(self.config.playout),
            prior,
        )
    }

    /// Makes sure the search stands at `game`'s position: follows the pending moves in the
    /// tree (keeping the subtree), or starts afresh.
    fn sync(&mut self, game: &GameState) {
        let pending = std::mem::take(&mut self.pending);
        if let Some(search) = self.search.as_mut() {
            for mv in pending {
                if search.advance(HMove::from_move(mv, game.board())).is_err() {
                    self.search = None;
                    break;
                }
            }
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
                let mv = result.best_move.to_move(game.board());
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
pub fn search_report(result: &SearchResult<HMove>, board: &Board) -> String {
    result.report(|m| m.to_move(board).to_notation(board))
}
