//! Search parameters ([`Config`], built by [`ConfigBuilder`]) and limits ([`Budget`]).

use std::time::Duration;

use crate::MctsError;

mod choices;

pub use choices::{
    AmafWeighting, FinalMove, PlayoutPool, PriorTarget, RaveSchedule, Selection, Shortlist,
};

/// Default UCT exploration constant of plain UCT.
pub const DEFAULT_UCT_EXPLORATION: f64 = 0.7;
/// Default UCT bonus added to the RAVE value (EventHorizon's form) when RAVE or GRAVE is on.
pub const DEFAULT_RAVE_EXPLORATION: f64 = 0.0;
/// Default RAVE bias `b` of the Gelly-Silver schedule: the equivalence `1 / (4 b^2)` is 250.
pub const DEFAULT_RAVE_BIAS: f64 = 0.032;
/// Default first-play urgency (the value of a child without any statistics).
pub const DEFAULT_FIRST_PLAY_URGENCY: f64 = 1.1;
/// Default growth factor of the playout horizon after a discarded playout.
pub const DEFAULT_HORIZON_GROWTH: f64 = 1.25;
/// Default expansion threshold: a leaf is expanded when reached with at least this many visits.
pub const DEFAULT_EXPAND_THRESHOLD: u32 = 1;

/// Search parameters. Build with [`Config::builder`]; [`Config::default`] is plain UCT.
///
/// | parameter | default | builder |
/// |---|---|---|
/// | selection | UCT | [`ConfigBuilder::rave`], [`ConfigBuilder::grave`], [`ConfigBuilder::uct`] |
/// | exploration `c` | 0.7 (UCT), 0.0 (RAVE/GRAVE) | [`ConfigBuilder::exploration`] |
/// | first-play urgency | 1.1 | [`ConfigBuilder::first_play_urgency`] |
/// | AMAF weighting | uniform | [`ConfigBuilder::amaf_weighting`] |
/// | AMAF horizon | none | [`ConfigBuilder::amaf_horizon`] |
/// | prior target | both | [`ConfigBuilder::prior_target`] |
/// | playout horizon | off (growth 1.25) | [`ConfigBuilder::playout_horizon`], [`ConfigBuilder::horizon_growth`] |
/// | MCTS-solver | on | [`ConfigBuilder::solver`] |
/// | expansion threshold | 1 | [`ConfigBuilder::expand_threshold`] |
/// | threads | 1 | [`ConfigBuilder::threads`] |
/// | final move | most visits | [`ConfigBuilder::final_move`] |
/// | early stop | on | [`ConfigBuilder::early_stop`] |
/// | pruning a full tree | off | [`ConfigBuilder::prune_when_full`] |
/// | forced moves expanded at once | off | [`ConfigBuilder::expand_forced`] |
/// | shortlist selection | off | [`ConfigBuilder::shortlist`] |
/// | playout pool (PoolRAVE) | off | [`ConfigBuilder::playout_pool`] |
///
/// With the `serde` feature a deserialized `Config` is checked as [`ConfigBuilder::build`]
/// checks it: a value out of range is an error naming it, never a search that panics.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ConfigFields"))]
pub struct Config {
    selection: Selection,
    exploration: f64,
    first_play_urgency: f64,
    amaf_weighting: AmafWeighting,
    amaf_horizon: Option<u32>,
    prior_target: PriorTarget,
    playout_horizon: bool,
    horizon_growth: f64,
    solver: bool,
    expand_threshold: u32,
    threads: usize,
    final_move: FinalMove,
    early_stop: bool,
    shortlist: Option<Shortlist>,
    prune_when_full: bool,
    bias_cutoff: Option<u32>,
    expand_forced: bool,
    playout_pool: Option<PlayoutPool>,
}

/// A [`Config`]'s fields as serde reads them, before [`ConfigBuilder::build`]'s checks.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct ConfigFields {
    selection: Selection,
    exploration: f64,
    first_play_urgency: f64,
    amaf_weighting: AmafWeighting,
    amaf_horizon: Option<u32>,
    prior_target: PriorTarget,
    playout_horizon: bool,
    horizon_growth: f64,
    solver: bool,
    expand_threshold: u32,
    threads: usize,
    final_move: FinalMove,
    early_stop: bool,
    shortlist: Option<Shortlist>,
    #[serde(default)]
    prune_when_full: bool,
    #[serde(default)]
    bias_cutoff: Option<u32>,
    #[serde(default)]
    expand_forced: bool,
    #[serde(default)]
    playout_pool: Option<PlayoutPool>,
}

#[cfg(feature = "serde")]
impl TryFrom<ConfigFields> for Config {
    type Error = MctsError;

    fn try_from(f: ConfigFields) -> Result<Config, MctsError> {
        let unchecked = Config {
            selection: f.selection,
            exploration: f.exploration,
            first_play_urgency: f.first_play_urgency,
            amaf_weighting: f.amaf_weighting,
            amaf_horizon: f.amaf_horizon,
            prior_target: f.prior_target,
            playout_horizon: f.playout_horizon,
            horizon_growth: f.horizon_growth,
            solver: f.solver,
            expand_threshold: f.expand_threshold,
            threads: f.threads,
            final_move: f.final_move,
            early_stop: f.early_stop,
            shortlist: f.shortlist,
            prune_when_full: f.prune_when_full,
            bias_cutoff: f.bias_cutoff,
            expand_forced: f.expand_forced,
            playout_pool: f.playout_pool,
        };
        unchecked.to_builder().build()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            selection: Selection::Uct,
            exploration: DEFAULT_UCT_EXPLORATION,
            first_play_urgency: DEFAULT_FIRST_PLAY_URGENCY,
            amaf_weighting: AmafWeighting::Uniform,
            amaf_horizon: None,
            prior_target: PriorTarget::Both,
            playout_horizon: false,
            horizon_growth: DEFAULT_HORIZON_GROWTH,
            solver: true,
            expand_threshold: DEFAULT_EXPAND_THRESHOLD,
            threads: 1,
            final_move: FinalMove::MostVisits,
            early_stop: true,
            shortlist: None,
            prune_when_full: false,
            bias_cutoff: None,
            expand_forced: false,
            playout_pool: None,
        }
    }
}

impl Config {
    /// A builder starting from the defaults.
    pub fn builder() -> ConfigBuilder {
        ConfigBuilder::default()
    }

    /// A builder holding these values, to change some of them.
    pub fn to_builder(&self) -> ConfigBuilder {
        let (rave, grave) = match self.selection {
            Selection::Uct => (None, None),
            Selection::Rave(s) => (Some(s), None),
            Selection::Grave {
                schedule,
                min_visits,
            } => (Some(schedule), Some(min_visits)),
        };
        ConfigBuilder {
            rave,
            grave,
            exploration: Some(self.exploration),
            first_play_urgency: Some(self.first_play_urgency),
            amaf_weighting: Some(self.amaf_weighting),
            amaf_horizon: self.amaf_horizon,
            prior_target: Some(self.prior_target),
            playout_horizon: Some(self.playout_horizon),
            horizon_growth: Some(self.horizon_growth),
            solver: Some(self.solver),
            expand_threshold: Some(self.expand_threshold),
            threads: Some(self.threads),
            final_move: Some(self.final_move),
            early_stop: Some(self.early_stop),
            shortlist: self.shortlist,
            prune_when_full: Some(self.prune_when_full),
            expand_forced: Some(self.expand_forced),
            bias_cutoff: self.bias_cutoff,
            playout_pool: self.playout_pool,
        }
    }

    /// The selection rule.
    pub fn selection(&self) -> Selection {
        self.selection
    }
    /// The UCT exploration constant `c`.
    pub fn exploration(&self) -> f64 {
        self.exploration
    }
    /// The first-play urgency.
    pub fn first_play_urgency(&self) -> f64 {
        self.first_play_urgency
    }
    /// The AMAF weighting.
    pub fn amaf_weighting(&self) -> AmafWeighting {
        self.amaf_weighting
    }
    /// The AMAF horizon (moves within this many plies below a node update its AMAF statistics).
    pub fn amaf_horizon(&self) -> Option<u32> {
        self.amaf_horizon
    }
    /// Which statistics a prior's virtual visits go into.
    pub fn prior_target(&self) -> PriorTarget {
        self.prior_target
    }
    /// Whether the adaptive playout horizon is on.
    pub fn playout_horizon(&self) -> bool {
        self.playout_horizon
    }
    /// Growth factor of the playout horizon after a discarded playout.
    pub fn horizon_growth(&self) -> f64 {
        self.horizon_growth
    }
    /// Whether the MCTS-solver is on.
    pub fn solver(&self) -> bool {
        self.solver
    }
    /// The expansion threshold.
    pub fn expand_threshold(&self) -> u32 {
        self.expand_threshold
    }
    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// How the best move is chosen.
    pub fn final_move(&self) -> FinalMove {
        self.final_move
    }
    /// Whether the search stops once the best move cannot change.
    pub fn early_stop(&self) -> bool {
        self.early_stop
    }
    /// Shortlist selection, if on.
    pub fn shortlist(&self) -> Option<Shortlist> {
        self.shortlist
    }
    /// Whether a full tree is pruned and the search goes on growing it.
    pub fn prune_when_full(&self) -> bool {
        self.prune_when_full
    }
    /// Whether the only child of a node is expanded on its first visit.
    pub fn expand_forced(&self) -> bool {
        self.expand_forced
    }
    /// The visits from which a child's progressive bias stops (`None`: it only fades).
    pub fn bias_cutoff(&self) -> Option<u32> {
        self.bias_cutoff
    }
    /// The playout pool, if on.
    pub fn playout_pool(&self) -> Option<PlayoutPool> {
        self.playout_pool
    }
}

/// Builder of a [`Config`]; [`ConfigBuilder::build`] checks every value.
#[derive(Clone, Debug, Default)]
pub struct ConfigBuilder {
    rave: Option<RaveSchedule>,
    grave: Option<u32>,
    exploration: Option<f64>,
    first_play_urgency: Option<f64>,
    amaf_weighting: Option<AmafWeighting>,
    amaf_horizon: Option<u32>,
    prior_target: Option<PriorTarget>,
    playout_horizon: Option<bool>,
    horizon_growth: Option<f64>,
    solver: Option<bool>,
    expand_threshold: Option<u32>,
    threads: Option<usize>,
    final_move: Option<FinalMove>,
    early_stop: Option<bool>,
    shortlist: Option<Shortlist>,
    prune_when_full: Option<bool>,
    expand_forced: Option<bool>,
    bias_cutoff: Option<u32>,
    playout_pool: Option<PlayoutPool>,
}

impl ConfigBuilder {
    /// Plain UCT (the default): no RAVE, no GRAVE.
    pub fn uct(mut self) -> Self {
        self.rave = None;
        self.grave = None;
        self
    }
    /// UCT-RAVE with this schedule.
    pub fn rave(mut self, schedule: RaveSchedule) -> Self {
        self.rave = Some(schedule);
        self
    }
    /// GRAVE with reference threshold `min_visits` (`r`); turns RAVE on with the default
    /// schedule unless [`ConfigBuilder::rave`] sets one.
    pub fn grave(mut self, min_visits: u32) -> Self {
        self.grave = Some(min_visits);
        self
    }
    /// The UCT exploration constant `c` (`>= 0`). With RAVE it is EventHorizon's UCT bonus
    /// added to the RAVE value. Default 0.7 for UCT, 0 for RAVE and GRAVE.
    pub fn exploration(mut self, c: f64) -> Self {
        self.exploration = Some(c);
        self
    }
    /// The value of a child without statistics (`>= 0`, default 1.1).
    pub fn first_play_urgency(mut self, fpu: f64) -> Self {
        self.first_play_urgency = Some(fpu);
        self
    }
    /// How playouts are weighted in AMAF updates (default uniform).
    pub fn amaf_weighting(mut self, weighting: AmafWeighting) -> Self {
        self.amaf_weighting = Some(weighting);
        self
    }
    /// Only moves within `horizon` plies below a node update its AMAF statistics (as in
    /// EventHorizon); `None` (the default) means no limit. Must be positive.
    pub fn amaf_horizon(mut self, horizon: Option<u32>) -> Self {
        self.amaf_horizon = horizon;
        self
    }
    /// Which statistics of a new child a prior's virtual visits go into (default both).
    pub fn prior_target(mut self, target: PriorTarget) -> Self {
        self.prior_target = Some(target);
        self
    }
    /// The adaptive playout horizon (Könnecke and Waldmann, section 5), off by default: each node
    /// keeps a horizon `h`; a playout from it longer than `h` is discarded and `h` grows by
    /// [`ConfigBuilder::horizon_growth`]; a decisive playout shorter than `h` is used and `h`
    /// shrinks to its length.
    pub fn playout_horizon(mut self, on: bool) -> Self {
        self.playout_horizon = Some(on);
        self
    }
    /// Growth factor of the playout horizon after a discarded playout (`> 1`, default 1.25).
    pub fn horizon_growth(mut self, factor: f64) -> Self {
        self.horizon_growth = Some(factor);
        self
    }
    /// The MCTS-solver (default on). It proves a finished game from its rewards only when
    /// they are a win, a loss or a draw (1 and 0, or ½ each); turn it off for a game whose
    /// finished positions have other rewards (a graded score): there a proven draw is skipped
    /// in selection while an unproven sibling is left, and a finished sibling valued below
    /// ½ stays unproven for good.
    pub fn solver(mut self, on: bool) -> Self {
        self.solver = Some(on);
        self
    }
    /// A leaf is expanded (all its children created) when reached with at least this many
    /// visits (default 1: on its second visit; 0: at once). Higher values save memory.
    pub fn expand_threshold(mut self, visits: u32) -> Self {
        self.expand_threshold = Some(visits);
        self
    }
    /// Number of search threads (`>= 1`, default 1). The threads search one shared tree (tree
    /// parallelism, with a virtual loss); a search with several threads is not deterministic.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }
    /// How the best move is chosen (default most visits).
    pub fn final_move(mut self, rule: FinalMove) -> Self {
        self.final_move = Some(rule);
        self
    }
    /// Stop before the budget is spent when the most visited move cannot be overtaken (default
    /// on).
    pub fn early_stop(mut self, on: bool) -> Self {
        self.early_stop = Some(on);
        self
    }
    /// When the tree reaches the node limit while another limit (time or simulations) is left,
    /// prune it and go on (default off: the tree stops growing and the search goes on from
    /// its leaves). Pruning drops the children of the nodes with the fewest visits, keeping at
    /// most half the node limit (the root's children are always kept): the tree goes on
    /// growing where the search spends its visits, as morat's garbage collection does. A
    /// pruned node keeps its own statistics and proof and is expanded again when reached.
    pub fn prune_when_full(mut self, on: bool) -> Self {
        self.prune_when_full = Some(on);
        self
    }
    /// Expand the only child of a node (a forced move: the prior narrowed the node to it) on
    /// its first visit, in the same simulation, without counting it as the simulation's one
    /// expansion (default off): a forcing sequence is walked to its end in one simulation, as
    /// morat-havannah's macro moves do, and the solver sees its end sooner.
    pub fn expand_forced(mut self, on: bool) -> Self {
        self.expand_forced = Some(on);
        self
    }
    /// The visits from which a child's progressive bias (a prior's
    /// [`PriorValue::bias`](crate::PriorValue::bias), `bias / sqrt(n)`) stops counting
    /// (default `None`: it only fades). morat-havannah stops its knowledge at 1,000 visits:
    /// by then the child's own statistics say more than the prior.
    pub fn bias_cutoff(mut self, visits: Option<u32>) -> Self {
        self.bias_cutoff = visits;
        self
    }
    /// Shortlist selection (default `None`: every child scored at every visit).
    ///
    /// ```
    /// use rave_mcts::{Config, MctsError, Shortlist};
    ///
    /// // The Blackhole player's selection: 8 children kept, all rescored every 8 visits.
    /// let config = Config::builder()
    ///     .grave(40)
    ///     .exploration(0.15)
    ///     .shortlist(Some(Shortlist { size: 8, rescan_every: 8 }))
    ///     .build()?;
    /// assert_eq!(config.shortlist().map(|s| s.size), Some(8));
    ///
    /// // A list longer than `Shortlist::MAX_SIZE` is refused, with its value.
    /// let err = Config::builder()
    ///     .shortlist(Some(Shortlist { size: 9, rescan_every: 8 }))
    ///     .build()
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("9"));
    /// # Ok::<(), MctsError>(())
    /// ```
    pub fn shortlist(mut self, shortlist: Option<Shortlist>) -> Self {
        self.shortlist = shortlist;
        self
    }
    /// The playout pool (default `None`: the playout policy gets no moves from the tree).
    ///
    /// ```
    /// use rave_mcts::{Config, MctsError, PlayoutPool};
    ///
    /// let pool = PlayoutPool { size: 10, min_visits: 50 };
    /// let config = Config::builder().rave(Default::default()).playout_pool(Some(pool)).build()?;
    /// assert_eq!(config.playout_pool(), Some(pool));
    ///
    /// // An empty pool is refused, with its size.
    /// let empty = PlayoutPool { size: 0, min_visits: 50 };
    /// let err = Config::builder().playout_pool(Some(empty)).build().unwrap_err();
    /// assert!(err.to_string().contains("pool"));
    /// # Ok::<(), MctsError>(())
    /// ```
    pub fn playout_pool(mut self, pool: Option<PlayoutPool>) -> Self {
        self.playout_pool = pool;
        self
    }

    /// Checks the values and builds the configuration.
    ///
    /// # Errors
    /// [`MctsError::InvalidParameter`] for a negative or non-finite constant, zero threads, a
    /// zero AMAF horizon, a horizon growth not above 1, or a shortlist or playout pool out of
    /// range.
    pub fn build(self) -> Result<Config, MctsError> {
        let selection = self.selection()?;
        let exploration = self.exploration.unwrap_or(match selection {
            Selection::Uct => DEFAULT_UCT_EXPLORATION,
            _ => DEFAULT_RAVE_EXPLORATION,
        });
        let finite_non_negative = |x: f64| x.is_finite() && x >= 0.0;
        require(
            finite_non_negative(exploration),
            "exploration",
            exploration,
            "a finite number >= 0",
        )?;
        let fpu = self
            .first_play_urgency
            .unwrap_or(DEFAULT_FIRST_PLAY_URGENCY);
        require(
            finite_non_negative(fpu),
            "first_play_urgency",
            fpu,
            "a finite number >= 0",
        )?;
        if self.amaf_horizon == Some(0) {
            return Err(MctsError::InvalidParameter {
                name: "amaf_horizon",
                value: "0".into(),
                expected: "a positive number of plies, or None",
            });
        }
        let growth = self.horizon_growth.unwrap_or(DEFAULT_HORIZON_GROWTH);
        require(
            growth.is_finite() && growth > 1.0,
            "horizon_growth",
            growth,
            "a finite number > 1",
        )?;
        let threads = self.threads.unwrap_or(1);
        if threads == 0 {
            return Err(MctsError::InvalidParameter {
                name: "threads",
                value: "0".into(),
                expected: "at least 1",
            });
        }
        if let Some(s) = self.shortlist {
            check_shortlist(s)?;
        }
        if let Some(p) = self.playout_pool
            && !(1..=PlayoutPool::MAX_SIZE).contains(&p.size)
        {
            return Err(MctsError::InvalidParameter {
                name: "playout pool size",
                value: p.size.to_string(),
                expected: "1 to 64 moves",
            });
        }
        Ok(Config {
            selection,
            exploration,
            first_play_urgency: fpu,
            amaf_weighting: self.amaf_weighting.unwrap_or_default(),
            amaf_horizon: self.amaf_horizon,
            prior_target: self.prior_target.unwrap_or_default(),
            playout_horizon: self.playout_horizon.unwrap_or(false),
            horizon_growth: growth,
            solver: self.solver.unwrap_or(true),
            expand_threshold: self.expand_threshold.unwrap_or(DEFAULT_EXPAND_THRESHOLD),
            threads,
            final_move: self.final_move.unwrap_or_default(),
            early_stop: self.early_stop.unwrap_or(true),
            shortlist: self.shortlist,
            prune_when_full: self.prune_when_full.unwrap_or(false),
            expand_forced: self.expand_forced.unwrap_or(false),
            bias_cutoff: self.bias_cutoff,
            playout_pool: self.playout_pool,
        })
    }

    /// The selection rule: UCT without a RAVE schedule, else RAVE, or GRAVE with a reference
    /// threshold (GRAVE alone uses the default schedule). The schedule's constants are
    /// checked.
    fn selection(&self) -> Result<Selection, MctsError> {
        let schedule = match (self.rave, self.grave) {
            (None, None) => None,
            (s, _) => Some(s.unwrap_or_default()),
        };
        if let Some(s) = schedule {
            check_schedule(s)?;
        }
        Ok(match (schedule, self.grave) {
            (None, _) => Selection::Uct,
            (Some(s), None) => Selection::Rave(s),
            (Some(s), Some(r)) => Selection::Grave {
                schedule: s,
                min_visits: r,
            },
        })
    }
}

/// An error unless the schedule's constants are finite and non-negative (the equivalence
/// `k` positive).
fn check_schedule(s: RaveSchedule) -> Result<(), MctsError> {
    let ok = |x: f64| x.is_finite() && x >= 0.0;
    match s {
        RaveSchedule::MinimumMse { bias } => {
            require(ok(bias), "rave bias", bias, "a finite number >= 0")
        }
        RaveSchedule::Equivalence { k } => require(
            k.is_finite() && k > 0.0,
            "rave equivalence k",
            k,
            "a finite number > 0",
        ),
        RaveSchedule::Fading { base, per_move } => {
            require(ok(base), "rave fading base", base, "a finite number >= 0")?;
            require(
                ok(per_move),
                "rave fading per_move",
                per_move,
                "a finite number >= 0",
            )
        }
    }
}

/// An error unless the shortlist keeps 1 to [`Shortlist::MAX_SIZE`] children and rescans
/// after at least one visit.
fn check_shortlist(s: Shortlist) -> Result<(), MctsError> {
    if !(1..=Shortlist::MAX_SIZE).contains(&s.size) {
        return Err(MctsError::InvalidParameter {
            name: "shortlist size",
            value: s.size.to_string(),
            expected: "1 to 8 children",
        });
    }
    if s.rescan_every == 0 {
        return Err(MctsError::InvalidParameter {
            name: "shortlist rescan_every",
            value: "0".into(),
            expected: "at least 1 visit",
        });
    }
    Ok(())
}

/// `Ok` if `ok`, else the error for parameter `name` with `value`.
fn require(
    ok: bool,
    name: &'static str,
    value: f64,
    expected: &'static str,
) -> Result<(), MctsError> {
    if ok {
        Ok(())
    } else {
        Err(MctsError::InvalidParameter {
            name,
            value: value.to_string(),
            expected,
        })
    }
}

/// Limits of one search: any combination of simulations, wall time and tree nodes; the search
/// stops at the first limit reached. At least one must be set, and none may be zero.
///
/// The node limit caps the tree (counting a subtree kept by tree reuse): the tree never holds
/// more nodes. When it is full the tree stops growing; the search then goes on until another
/// limit, or stops if nodes is the only limit. With several threads the simulations are shared
/// out between them, and the node limit is that of the one tree they share.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Budget {
    /// Maximum number of simulations (playouts, discarded ones included).
    pub simulations: Option<u64>,
    /// Maximum wall time.
    pub time: Option<Duration>,
    /// Maximum number of tree nodes.
    pub nodes: Option<usize>,
}

impl Budget {
    /// A budget of `n` simulations.
    pub fn simulations(n: u64) -> Self {
        Budget {
            simulations: Some(n),
            ..Budget::default()
        }
    }
    /// A budget of wall time.
    pub fn time(limit: Duration) -> Self {
        Budget {
            time: Some(limit),
            ..Budget::default()
        }
    }
    /// A budget of tree nodes.
    pub fn nodes(n: usize) -> Self {
        Budget {
            nodes: Some(n),
            ..Budget::default()
        }
    }
    /// This budget with a simulation limit too.
    pub fn with_simulations(mut self, n: u64) -> Self {
        self.simulations = Some(n);
        self
    }
    /// This budget with a time limit too.
    pub fn with_time(mut self, limit: Duration) -> Self {
        self.time = Some(limit);
        self
    }
    /// This budget with a node limit too.
    pub fn with_nodes(mut self, n: usize) -> Self {
        self.nodes = Some(n);
        self
    }

    /// Checks that some limit is set and none is zero.
    ///
    /// # Errors
    /// [`MctsError::EmptyBudget`] or [`MctsError::ZeroBudget`].
    pub fn validate(&self) -> Result<(), MctsError> {
        if self.simulations.is_none() && self.time.is_none() && self.nodes.is_none() {
            return Err(MctsError::EmptyBudget);
        }
        if self.simulations == Some(0) {
            return Err(MctsError::ZeroBudget {
                name: "simulations",
                value: "0".into(),
            });
        }
        if self.time == Some(Duration::ZERO) {
            return Err(MctsError::ZeroBudget {
                name: "time",
                value: "0s".into(),
            });
        }
        if self.nodes == Some(0) {
            return Err(MctsError::ZeroBudget {
                name: "nodes",
                value: "0".into(),
            });
        }
        Ok(())
    }
}
