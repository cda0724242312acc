//! The settings of [`EventHorizon`](super::EventHorizon), in parts: what each move's search
//! aims for ([`Objective`]), the UCT-RAVE search ([`SearchConfig`]), the search's game
//! ([`TreeConfig`], with its [`OpeningCap`]), the playouts ([`PlayoutConfig`]), the prior
//! ([`GreedyPrior`]), the end-game solver ([`SolverConfig`]) and the clock ([`TimeConfig`]).
//! Each part's `Default` is the strongest player's; [`EngineConfig::best`] gathers them and
//! [`EngineConfig::event_horizon`] is the paper's method.

use rave_mcts::{Config, RaveSchedule, Shortlist};

use crate::error::BlackholeError;
use crate::search::{GreedyPrior, PlayoutPolicy, Reward};

/// What each move's search aims for: a target score (one search per target, the move taken
/// from the most optimistic target reached with probability at least `gamma`), the best mean
/// score, or a win, a draw or a loss. Each mode carries its own parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Objective {
    /// One search, target 76 (a win by at least one point).
    WinOnly,
    /// Three searches a move around a running estimate (EventHorizon's alpha targets), `step`
    /// apart; the estimate moves to the best target reached with probability at least
    /// `gamma`. No target below `floor` (76: never aim below a win; 1: no floor).
    Adaptive {
        /// Distance between adjacent targets (at least 1).
        step: i16,
        /// The least probability of reaching a target for its move to be played, in `[0, 1]`.
        gamma: f64,
        /// The least target.
        floor: i16,
    },
    /// One search per move, at a running estimate that moves up by `step` when the search
    /// reaches it with probability at least `gamma`, and down otherwise (the whole time share
    /// goes to that one search).
    Single {
        /// How far the estimate moves (at least 1).
        step: i16,
        /// The least probability of reaching the target to move it up, in `[0, 1]`.
        gamma: f64,
    },
    /// Ansell's procedure (EventHorizon's algorithm 1): see [`Drift`].
    Drift(Drift),
    /// One search per move for the best mean score (the reward grows with the score, see
    /// [`Reward::Score`]) instead of a target.
    Score {
        /// The points above (below) a draw that earn the whole (no) reward; positive.
        scale: f32,
    },
    /// One search per move for a win, a draw or a loss (see [`Reward::Wdl`]) instead of a
    /// target, with the MCTS-solver on. The default: it scores more against wormhole than the
    /// targets (`docs/blackhole.md`).
    Wdl {
        /// The reward of a loss by one point (a win by one point earns 1 minus it), so that
        /// the second point counts too; 0, the default: none. In `[0, 1/2)`.
        margin: f32,
        /// The reward of a draw (a win earns 1, a loss 0); 1/2, the default: plain
        /// win-draw-loss. In `(0, 1)`, above `margin` and below one less it.
        draw: f32,
    },
}

/// Ansell's target selection: first a single target drifts by one point after every batch
/// of simulations, up when its search reaches it with probability at least `gamma_up`, down
/// at `gamma_down` or below, for `share` of the move's search time; then the rest of the
/// time goes to the most optimistic target reached with probability at least `gamma`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Drift {
    /// The least probability of reaching a target for its move to be played, in `[0, 1]`.
    pub gamma: f64,
    /// The drifting target moves up when reached with at least this probability.
    pub gamma_up: f64,
    /// The drifting target moves down when reached with at most this probability (below
    /// `gamma_up`).
    pub gamma_down: f64,
    /// The fraction of the move's search time the target drifts, in `(0, 1]`.
    pub share: f64,
    /// No target below this score (1: no floor).
    pub floor: i16,
}

impl Default for Drift {
    fn default() -> Self {
        Drift {
            gamma: 0.5,
            gamma_up: 0.6,
            gamma_down: 0.4,
            share: 0.5,
            floor: 1,
        }
    }
}

impl Default for Objective {
    /// The win-draw-loss search, plain (no margin, a draw worth 1/2).
    fn default() -> Self {
        Objective::Wdl {
            margin: 0.0,
            draw: 0.5,
        }
    }
}

impl Objective {
    /// Three targets around a running estimate, 4 points apart, gamma 1/2, no floor.
    pub fn adaptive() -> Self {
        Objective::Adaptive {
            step: 4,
            gamma: 0.5,
            floor: 1,
        }
    }

    /// One running target moving by 4 points, gamma 1/2.
    pub fn single() -> Self {
        Objective::Single {
            step: 4,
            gamma: 0.5,
        }
    }

    /// The best mean score, the whole reward 20 points above a draw.
    pub fn score() -> Self {
        Objective::Score { scale: 20.0 }
    }

    /// Whether the mode searches the score game (one tree for the whole outcome) instead of
    /// targets.
    pub fn is_score_game(&self) -> bool {
        matches!(self, Objective::Score { .. } | Objective::Wdl { .. })
    }

    /// The least probability of reaching a target for its move to be played, in the modes
    /// with a running target.
    pub fn gamma(&self) -> Option<f64> {
        match *self {
            Objective::Adaptive { gamma, .. } | Objective::Single { gamma, .. } => Some(gamma),
            Objective::Drift(d) => Some(d.gamma),
            Objective::WinOnly | Objective::Score { .. } | Objective::Wdl { .. } => None,
        }
    }

    /// The reward of the mode's own search tree: the score game's, or reaching the target.
    pub fn reward(&self) -> Reward {
        match *self {
            Objective::Score { scale } => Reward::Score { scale },
            Objective::Wdl { margin, draw } => Reward::Wdl { margin, draw },
            Objective::WinOnly
            | Objective::Adaptive { .. }
            | Objective::Single { .. }
            | Objective::Drift(_) => Reward::Target,
        }
    }

    /// Checks the mode's parameters lie in their ranges.
    fn check(&self) -> Result<(), BlackholeError> {
        match *self {
            Objective::WinOnly => Ok(()),
            Objective::Adaptive { step, gamma, .. } | Objective::Single { step, gamma } => {
                check_probability("gamma", gamma)?;
                require(step >= 1, "target step", step, "positive")
            }
            Objective::Drift(d) => d.check(),
            Objective::Score { scale } => require(
                scale > 0.0 && scale.is_finite(),
                "score scale",
                scale,
                "positive",
            ),
            Objective::Wdl { margin, draw } => {
                require(
                    (0.0..0.5).contains(&margin),
                    "win-draw-loss margin",
                    margin,
                    "in [0, 0.5)",
                )?;
                require(
                    draw > margin && draw < 1.0 - margin,
                    "draw reward",
                    draw,
                    format!("between the margin {margin} and {}", 1.0 - margin),
                )
            }
        }
    }
}

impl Drift {
    /// Checks the probabilities lie in `[0, 1]` with `gamma_down` below `gamma_up`, and the
    /// share in `(0, 1]`.
    fn check(&self) -> Result<(), BlackholeError> {
        check_probability("gamma", self.gamma)?;
        check_probability("gamma up", self.gamma_up)?;
        check_probability("gamma down", self.gamma_down)?;
        require(
            self.gamma_down < self.gamma_up,
            "gamma down",
            self.gamma_down,
            format!("below gamma up {}", self.gamma_up),
        )?;
        require(
            self.share > 0.0 && self.share <= 1.0,
            "drift share",
            self.share,
            "in (0, 1]",
        )
    }
}

/// The UCT-RAVE search: Gelly and Silver's minimum-MSE schedule plus EventHorizon's UCT bonus
/// on the mixed value, an AMAF horizon, GRAVE priming, expansion after 4 visits.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchConfig {
    /// AMAF priming (GRAVE) with this reference threshold: a node with fewer visits uses the
    /// AMAF table of its nearest ancestor with more (`None`: plain UCT-RAVE).
    pub grave: Option<u32>,
    /// RAVE horizon: moves within this many plies below a node update its AMAF statistics
    /// (with grouped moves, this many moves: a place and its stone count as one).
    pub amaf_horizon: u32,
    /// The UCT bonus added to the RAVE value.
    pub exploration: f64,
    /// The RAVE bias of the minimum-MSE schedule.
    pub rave_bias: f64,
    /// Shortlist selection: a node scores all its children only every `rescan_every`
    /// visits, and in between only the `size` best of the last full scoring (`None`: every
    /// child at every visit).
    pub shortlist: Option<Shortlist>,
    /// Tree nodes per search (memory bound: 40 bytes a node, with the kept RAVE values).
    pub max_nodes: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            grave: Some(40),
            amaf_horizon: 12,
            exploration: 0.15,
            rave_bias: 0.05,
            shortlist: None,
            max_nodes: 3_000_000,
        }
    }
}

/// The opening cap: in the first `plies` plies of the game, the player's tree plays stones
/// up to `cap` only (the opponent's moves in the tree stay uncapped; see
/// [`AlphaGame::with_opening_cap`](crate::search::AlphaGame::with_opening_cap)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpeningCap {
    /// The plies of the game the cap holds for (0: no cap).
    pub plies: u32,
    /// The most valuable stone played in the opening.
    pub cap: u8,
    /// The cap rises by one every two plies (see
    /// [`AlphaGame::with_opening_ramp`](crate::search::AlphaGame::with_opening_ramp)).
    pub ramp: bool,
}

impl Default for OpeningCap {
    /// 8 plies with a cap of 12: they score more against wormhole than no cap.
    fn default() -> Self {
        OpeningCap {
            plies: 8,
            cap: 12,
            ramp: false,
        }
    }
}

impl OpeningCap {
    /// No cap.
    pub const NONE: OpeningCap = OpeningCap {
        plies: 0,
        cap: 15,
        ramp: false,
    };
}

/// The search's game ([`AlphaGame`](crate::search::AlphaGame)): the tree's moves, how its
/// AMAF statistics are keyed, and where the static bounds end a simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeConfig {
    /// Stones per live cell in the tree (0: all; see
    /// [`AlphaGame::width`](crate::search::AlphaGame::width)).
    pub width: u8,
    /// The opening cap.
    pub opening: OpeningCap,
    /// Group the tree's moves by place: a cell first, then its stone (see
    /// [`AlphaGame::with_grouping`](crate::search::AlphaGame::with_grouping)).
    pub grouped: bool,
    /// Key the tree's AMAF statistics by the cell alone (see
    /// [`AlphaGame::amaf_by_cell`](crate::search::AlphaGame::amaf_by_cell)).
    pub amaf_by_cell: bool,
    /// Prune the target trees' moves for each target as the exact solver does (sure cells;
    /// on by default). The score game's tree does not use it.
    pub target_pruning: bool,
    /// From this many empty cells on, simulations also end when the solver's static bounds
    /// decide the target (31, the default: always; 0: only the dead-cell declaration).
    pub static_empty: u32,
}

impl Default for TreeConfig {
    fn default() -> Self {
        TreeConfig {
            width: 0,
            opening: OpeningCap::default(),
            grouped: false,
            amaf_by_cell: false,
            target_pruning: true,
            static_empty: 31,
        }
    }
}

/// The playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlayoutConfig {
    /// How playouts choose their moves (greedy by default).
    pub policy: PlayoutPolicy,
    /// Playouts ask the static bounds only from about where they start to decide the target
    /// (see [`AlphaGame::with_lazy_playout_bounds`](crate::search::AlphaGame::with_lazy_playout_bounds));
    /// the tree's nodes still from [`TreeConfig::static_empty`].
    pub lazy_bounds: bool,
    /// The opening cap also holds for our stones in the playouts (see
    /// [`AlphaGame::with_capped_playouts`](crate::search::AlphaGame::with_capped_playouts)).
    pub capped: bool,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig {
            policy: PlayoutPolicy::Greedy,
            lazy_bounds: false,
            capped: false,
        }
    }
}

/// The exact end-game solver in the player.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SolverConfig {
    /// Run the exact solver from this many empty cells on (0: never).
    pub exact_empty: u32,
    /// Above `exact_empty` and from this many empty cells on, ask the solver only whether
    /// the mover wins (one null window), with half the move's time; a proven win is played
    /// (0 or at most `exact_empty`: never).
    pub win_empty: u32,
    /// In the exact solver's range, the fraction of the time left that a solve may use when
    /// no earlier solve of ours found the value (1/2, the default; in `(0, 1)`). Once a
    /// solve has found it, the next ones are nearly free (the table keeps it), so the first
    /// solve is the one the reserve is for.
    pub solve_share: f64,
    /// In the exact solver's range, ask the mover's draw before its win, so that a solve cut
    /// short by its time still names a move that keeps the draw where there is one; such a
    /// move, proven to keep the mover's bound, is then played through the swindle (with the
    /// time the search would have had) instead of searching. Off by default (only a proven
    /// win is played; the win asked first): it scores no more against wormhole.
    pub draw_first: bool,
    /// In the exact solver's range, play the move the search for one point more likes best
    /// among those the solver proves keep the solved value (or the proven bound): the
    /// solver's own move keeps it too, but gives the opponent no chance to err. In the win
    /// question's range the same among the moves that keep a proven win, or a proven draw
    /// where the mover does not win (on by default, with the solver's ranges at 18 and 19
    /// empty cells: together they score more against wormhole). With every [`Objective`]
    /// that search is for one point more, not the score game.
    pub swindle: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            exact_empty: 18,
            win_empty: 19,
            solve_share: 0.5,
            draw_first: false,
            swindle: true,
        }
    }
}

/// How the game's thinking time is shared out (see `docs/blackhole.md`, time management).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct TimeConfig {
    /// The least fraction of the time left that a move's search gets (1/6 by default: early
    /// moves, whose even share is smaller, get a sixth of what is left, so the first moves
    /// take the most time). In `(0, 1/2]`.
    pub min_share: f64,
    /// The fraction of the game's thinking time kept for the solver's moves (0: two shares of
    /// what is left). In `[0, 1)`.
    pub end_reserve: f64,
}

impl Default for TimeConfig {
    fn default() -> Self {
        TimeConfig {
            min_share: 1.0 / 6.0,
            end_reserve: 0.1,
        }
    }
}

/// Settings of [`EventHorizon`](super::EventHorizon), in parts. `Default` is
/// [`EngineConfig::best`].
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct EngineConfig {
    /// What each move's search aims for.
    pub objective: Objective,
    /// The UCT-RAVE search.
    pub search: SearchConfig,
    /// The search's game: the tree's moves and the static verdict's range.
    pub tree: TreeConfig,
    /// The playouts.
    pub playout: PlayoutConfig,
    /// The progressive bias towards the greedy playout's moves (0, the default: none).
    pub prior: GreedyPrior,
    /// The end-game solver.
    pub solver: SolverConfig,
    /// The clock.
    pub time: TimeConfig,
    /// Log each decision on stderr.
    pub verbose: bool,
}

impl EngineConfig {
    /// The strongest player measured against wormhole (`docs/blackhole.md`): the
    /// win-draw-loss search with the greedy playout, every stone in the tree, the opening
    /// cap, the exact solver from 18 empty cells, the win question from 19, and the swindle.
    pub fn best() -> Self {
        EngineConfig::default()
    }

    /// EventHorizon's method as the paper describes it, on this crate's search: Ansell's
    /// drifting target and lottery playout, no opening cap and no swindle; the rest as in
    /// [`EngineConfig::best`].
    pub fn event_horizon() -> Self {
        EngineConfig {
            objective: Objective::Drift(Drift::default()),
            tree: TreeConfig {
                opening: OpeningCap::NONE,
                ..TreeConfig::default()
            },
            playout: PlayoutConfig {
                policy: PlayoutPolicy::Ansell,
                ..PlayoutConfig::default()
            },
            solver: SolverConfig {
                swindle: false,
                ..SolverConfig::default()
            },
            ..EngineConfig::default()
        }
    }

    /// The settings of each UCT-RAVE search, once every setting is checked.
    ///
    /// # Errors
    /// The first setting out of its range, with its value.
    pub fn search_config(&self) -> Result<Config, BlackholeError> {
        let s = &self.search;
        let drift = matches!(self.objective, Objective::Drift(_));
        let mut b = Config::builder()
            .rave(RaveSchedule::MinimumMse { bias: s.rave_bias })
            .exploration(s.exploration)
            // Grouped moves take two plies of the trace (a place and a stone) per move.
            .amaf_horizon(Some(s.amaf_horizon * if self.tree.grouped { 2 } else { 1 }))
            .expand_threshold(4)
            // The drifting target searches in batches: a batch must run to its end.
            .early_stop(!drift)
            // The solver's proofs need games won, lost or drawn; the score reward is graded.
            .solver(!matches!(self.objective, Objective::Score { .. }));
        if let Some(visits) = s.grave {
            b = b.grave(visits);
        }
        if let Some(shortlist) = s.shortlist {
            b = b.shortlist(Some(shortlist));
        }
        let config = b.build()?;
        self.objective.check()?;
        self.check_shares()?;
        Ok(config)
    }

    /// Checks the prior's bias and the solver's and the clock's shares are in range.
    fn check_shares(&self) -> Result<(), BlackholeError> {
        let t = &self.time;
        require(
            t.min_share > 0.0 && t.min_share <= 0.5,
            "min share",
            t.min_share,
            "in (0, 0.5]",
        )?;
        let bias = self.prior.bias;
        require(
            (0.0..=GreedyPrior::MAX_BIAS).contains(&bias),
            "prior bias",
            bias,
            format!("in [0, {}]", GreedyPrior::MAX_BIAS),
        )?;
        let share = self.solver.solve_share;
        require(
            share > 0.0 && share < 1.0,
            "solve share",
            share,
            "in (0, 1)",
        )?;
        require(
            (0.0..1.0).contains(&t.end_reserve),
            "end reserve",
            t.end_reserve,
            "in [0, 1)",
        )
    }
}

/// Checks a probability lies in `[0, 1]`.
fn check_probability(setting: &'static str, p: f64) -> Result<(), BlackholeError> {
    require((0.0..=1.0).contains(&p), setting, p, "in [0, 1]")
}

/// `Ok` if `ok`, else the error naming `setting`, its `value` and what it should be.
fn require(
    ok: bool,
    setting: &'static str,
    value: impl ToString,
    expected: impl Into<String>,
) -> Result<(), BlackholeError> {
    if ok {
        Ok(())
    } else {
        Err(BlackholeError::BadSetting {
            setting,
            value: value.to_string(),
            expected: expected.into(),
        })
    }
}
