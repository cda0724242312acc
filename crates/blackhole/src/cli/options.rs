//! The player's options, in the parts of [`EngineConfig`], each under its own heading of
//! `--help`. Every default is [`EngineConfig::best`]'s, and an option that only matters in
//! one search mode is refused without that mode.

use clap::{ArgGroup, Args, ValueEnum};
use rave_mcts::Shortlist;

use crate::engine::{
    Drift, EngineConfig, Objective, OpeningCap, PlayoutConfig, SearchConfig, SolverConfig,
    TimeConfig, TreeConfig,
};
use crate::search::{GreedyPrior, PlayoutPolicy};

/// What each move's search aims for: one mode flag (none: the win-draw-loss search) and the
/// mode's parameters.
#[derive(Debug, Args)]
#[command(next_help_heading = "Search mode (default: one search for a win, a draw or a loss)")]
#[command(group(ArgGroup::new("mode").multiple(false)))]
#[command(group(ArgGroup::new("running").args(["single_target", "adaptive", "drift"])))]
#[command(group(ArgGroup::new("stepped").args(["single_target", "adaptive"])))]
#[command(group(ArgGroup::new("floored").args(["adaptive", "drift"])))]
pub(super) struct ObjectiveArgs {
    /// One search for a win (target 76).
    #[arg(long, group = "mode")]
    win_only: bool,
    /// One search per move at a running target instead of three (see docs/blackhole.md).
    #[arg(long, group = "mode")]
    single_target: bool,
    /// The adaptive targets: three searches a move around a running target (see
    /// docs/blackhole.md).
    #[arg(long, group = "mode")]
    adaptive: bool,
    /// Ansell's target selection: one target drifting by a point after every batch of
    /// simulations, then the rest of the time on the best target reached with probability
    /// at least gamma (the win-draw-loss search scores more against wormhole, see
    /// docs/blackhole.md).
    #[arg(long, group = "mode")]
    drift: bool,
    /// One search per move for the best mean score (the reward grows linearly with the
    /// score, see --score-scale).
    #[arg(long, group = "mode")]
    score: bool,
    /// The win-draw-loss search's M, the reward of a loss by one point (0 by default); a win
    /// by one point earns 1 - M, a win or a loss by two points or more 1 or 0, so the search
    /// also looks for the second point. In [0, 0.5).
    #[arg(long, value_name = "M", default_value_t = 0.0, conflicts_with = "mode")]
    wdl_margin: f32,
    /// The win-draw-loss search's D, the reward of a draw (a win earns 1, a loss 0); above 0.5
    /// the search prefers a sure draw to a gamble that wins and loses as often, as the mean
    /// score does where losses are by more points than wins. Between M and 1 - M. The
    /// default 0.5 scores more against wormhole than 0.6 or 0.4 (see docs/blackhole.md).
    #[arg(long, value_name = "D", default_value_t = 0.5, conflicts_with = "mode")]
    draw_reward: f32,
    /// With --score: the points above (below) a draw that earn the whole (no) reward.
    #[arg(long, default_value_t = 20.0, requires = "score", conflicts_with_all = ["win_only", "single_target", "adaptive", "drift"])]
    score_scale: f32,
    /// With a running target (--single-target, --adaptive, --drift): the least probability
    /// of reaching a target for its move to be played.
    #[arg(long, default_value_t = 0.5, requires = "running", conflicts_with_all = ["win_only", "score"])]
    gamma: f64,
    /// With --single-target or --adaptive: the distance between the targets searched.
    #[arg(long, default_value_t = 4, requires = "stepped", conflicts_with_all = ["win_only", "drift", "score"])]
    target_step: i16,
    /// With --adaptive or --drift: no target below this score (1: no floor; 76: never aim
    /// below a win).
    #[arg(long, default_value_t = 1, requires = "floored", conflicts_with_all = ["win_only", "single_target", "score"])]
    target_floor: i16,
    /// With --drift: the target moves up when reached with at least this probability.
    #[arg(long, default_value_t = 0.6, requires = "drift", conflicts_with_all = NOT_DRIFT)]
    gamma_up: f64,
    /// With --drift: the target moves down when reached with at most this probability.
    #[arg(long, default_value_t = 0.4, requires = "drift", conflicts_with_all = NOT_DRIFT)]
    gamma_down: f64,
    /// With --drift: the fraction of the move's search time the target drifts.
    #[arg(long, default_value_t = 0.5, requires = "drift", conflicts_with_all = NOT_DRIFT)]
    drift_share: f64,
}

/// The modes other than the drift. A mode's parameter names the other modes as conflicts as
/// well as requiring its own: clap drops a requirement where a conflicting flag is present, so
/// `requires` alone would let `--adaptive --gamma-up 0.7` through.
const NOT_DRIFT: [&str; 4] = ["win_only", "single_target", "adaptive", "score"];

impl ObjectiveArgs {
    fn objective(&self) -> Objective {
        let (step, gamma, floor) = (self.target_step, self.gamma, self.target_floor);
        if self.win_only {
            Objective::WinOnly
        } else if self.single_target {
            Objective::Single { step, gamma }
        } else if self.adaptive {
            Objective::Adaptive { step, gamma, floor }
        } else if self.drift {
            Objective::Drift(Drift {
                gamma,
                gamma_up: self.gamma_up,
                gamma_down: self.gamma_down,
                share: self.drift_share,
                floor,
            })
        } else if self.score {
            Objective::Score {
                scale: self.score_scale,
            }
        } else {
            Objective::Wdl {
                margin: self.wdl_margin,
                draw: self.draw_reward,
            }
        }
    }
}

/// The UCT-RAVE search and the prior.
#[derive(Debug, Args)]
#[command(next_help_heading = "Tree search")]
pub(super) struct SearchArgs {
    /// Turn AMAF priming (GRAVE) off: plain UCT-RAVE.
    #[arg(long)]
    no_priming: bool,
    /// GRAVE reference threshold (visits).
    #[arg(long, default_value_t = 40, conflicts_with = "no_priming")]
    grave_visits: u32,
    /// RAVE horizon in plies.
    #[arg(long, default_value_t = 12)]
    amaf_horizon: u32,
    /// UCT bonus constant added to the RAVE value.
    #[arg(long, default_value_t = 0.15)]
    exploration: f64,
    /// RAVE bias of the minimum-MSE schedule.
    #[arg(long, default_value_t = 0.05)]
    rave_bias: f64,
    /// Shortlist selection: a node scores all its children only every `--rescan-every`
    /// visits, and in between only this many best of the last full scoring (1 to 8; 0: off).
    #[arg(long, default_value_t = 0)]
    shortlist: usize,
    /// With --shortlist: visits of a node between two full scorings of its children.
    #[arg(long, default_value_t = 8, requires = "shortlist")]
    rescan_every: u32,
    /// Progressive bias towards the moves the greedy playout favours: spreading the most
    /// valuable stones early, filling the holes bad for the mover late (0: none).
    #[arg(long, default_value_t = 0.0)]
    prior_bias: f32,
}

impl SearchArgs {
    fn search(&self) -> SearchConfig {
        SearchConfig {
            grave: (!self.no_priming).then_some(self.grave_visits),
            amaf_horizon: self.amaf_horizon,
            exploration: self.exploration,
            rave_bias: self.rave_bias,
            shortlist: (self.shortlist > 0).then_some(Shortlist {
                size: self.shortlist,
                rescan_every: self.rescan_every,
            }),
            ..SearchConfig::default()
        }
    }
}

/// The search's game: the tree's moves and the static verdict's range.
#[derive(Debug, Args)]
#[command(next_help_heading = "The tree's moves")]
pub(super) struct TreeArgs {
    /// Stones tried per live cell in the tree: the least valuable and the most valuable ones
    /// (0: every stone, the default).
    #[arg(long, default_value_t = 0)]
    width: u8,
    /// In the first this many plies of the game, play no stone above --opening-cap (0: no
    /// cap; the tree's moves of the opponent are not capped). The default 8 scores more
    /// against wormhole than no cap (see docs/blackhole.md).
    #[arg(long, default_value_t = 8)]
    opening_plies: u32,
    /// The most valuable stone played in the first --opening-plies plies.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u8).range(1..=15))]
    opening_cap: u8,
    /// The opening cap rises by one every two plies: --opening-cap at the first move, one
    /// more at the second, and so on to the end of --opening-plies.
    #[arg(long)]
    opening_ramp: bool,
    /// Group the tree's moves by place, as wormhole does: the mover chooses a cell, then, one
    /// level further down, its stone.
    #[arg(long)]
    grouped: bool,
    /// Key the tree's AMAF statistics by the cell alone: a move's AMAF value pools the games in
    /// which its player took its cell, with any stone.
    #[arg(long)]
    amaf_by_cell: bool,
    /// Prune the target trees' moves by the value-sense rules only, not for each target as
    /// the exact solver does (sure cells).
    #[arg(long)]
    no_target_pruning: bool,
    /// Empty cells from which simulations also end when the solver's static bounds decide
    /// the target (31: always; 0: only the dead-cell declaration).
    #[arg(long, default_value_t = 31)]
    static_empty: u32,
}

impl TreeArgs {
    fn tree(&self) -> TreeConfig {
        TreeConfig {
            width: self.width,
            opening: OpeningCap {
                plies: self.opening_plies,
                cap: self.opening_cap,
                ramp: self.opening_ramp,
            },
            grouped: self.grouped,
            amaf_by_cell: self.amaf_by_cell,
            target_pruning: !self.no_target_pruning,
            static_empty: self.static_empty,
        }
    }
}

/// The playouts.
#[derive(Debug, Args)]
#[command(next_help_heading = "Playouts")]
pub(super) struct PlayoutArgs {
    /// How playouts choose their moves: greedy moves (the most open cell early, the worst
    /// hole late), greedy cells with stones drawn by value (greedy-lottery), Ansell's lottery
    /// (tickets from the alpha-dead cells, stones by value), this crate's own lottery,
    /// uniformly random moves, greedy and Ansell's moves half and half (mixed), greedy moves
    /// that see the alpha-dead cells (greedy-alpha), or the searching player's moves by
    /// greedy-alpha (split-greedy-alpha) or Ansell's lottery (split-ansell) and the
    /// opponent's moves greedy.
    #[arg(long, value_enum, default_value_t = Playout::Greedy)]
    playout: Playout,
    /// Playouts ask the static bounds only from about where they start to decide the target
    /// (18 empty cells for 75 and 76, one more every two points further), not at every move:
    /// fewer checks; a playout the bounds would have decided earlier (rare) plays on. The
    /// tree's nodes still ask from --static-empty.
    #[arg(long)]
    lazy_playout_bounds: bool,
    /// The opening cap also holds for our stones in the playouts, not only in the tree.
    #[arg(long)]
    capped_playouts: bool,
}

impl PlayoutArgs {
    fn playout(&self) -> PlayoutConfig {
        PlayoutConfig {
            policy: self.playout.policy(),
            lazy_bounds: self.lazy_playout_bounds,
            capped: self.capped_playouts,
        }
    }
}

/// The playout policies by their command-line names.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Playout {
    Ansell,
    Lottery,
    Uniform,
    Greedy,
    GreedyLottery,
    Mixed,
    GreedyAlpha,
    SplitGreedyAlpha,
    SplitAnsell,
}

impl Playout {
    fn policy(self) -> PlayoutPolicy {
        match self {
            Playout::Ansell => PlayoutPolicy::Ansell,
            Playout::Lottery => PlayoutPolicy::Lottery,
            Playout::Uniform => PlayoutPolicy::Uniform,
            Playout::Greedy => PlayoutPolicy::Greedy,
            Playout::GreedyLottery => PlayoutPolicy::GreedyLottery,
            Playout::Mixed => PlayoutPolicy::Mixed,
            Playout::GreedyAlpha => PlayoutPolicy::GreedyAlpha,
            Playout::SplitGreedyAlpha => PlayoutPolicy::SplitGreedyAlpha,
            Playout::SplitAnsell => PlayoutPolicy::SplitAnsell,
        }
    }
}

/// The search alone: what `search-bench` runs (no solver, no clock).
#[derive(Debug, Args)]
pub(super) struct SearchOptions {
    #[command(flatten)]
    objective: ObjectiveArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    tree: TreeArgs,
    #[command(flatten)]
    playout: PlayoutArgs,
}

impl SearchOptions {
    /// The player of these options; the solver and the clock as in [`EngineConfig::best`].
    pub(super) fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            objective: self.objective.objective(),
            search: self.search.search(),
            tree: self.tree.tree(),
            playout: self.playout.playout(),
            prior: GreedyPrior {
                bias: self.search.prior_bias,
            },
            ..EngineConfig::best()
        }
    }
}

/// The end-game solver in the player.
#[derive(Debug, Args)]
#[command(next_help_heading = "End-game solver")]
pub(super) struct SolverArgs {
    /// Empty cells from which the exact solver is tried (0: never). The default 18 is the
    /// best range measured against wormhole, with the swindle (see docs/blackhole.md).
    #[arg(long, default_value_t = 18)]
    solver_empty: u32,
    /// Empty cells from which the solver is asked only whether we win, with half the move's
    /// time, until the exact solver's range (0: never).
    #[arg(long, default_value_t = 19)]
    win_solver_empty: u32,
    /// In the exact solver's range, the fraction of the time left that a solve may use
    /// while none of ours has found the value yet.
    #[arg(long, default_value_t = 0.5)]
    solve_share: f64,
    /// In the exact solver's range, ask whether we draw before whether we win, and when the
    /// solve runs out of time play a move it proved keeps our bound (through the swindle)
    /// instead of searching.
    #[arg(long)]
    draw_first: bool,
    /// Play the solver's own move where it knows the score. By default, in the exact
    /// solver's range, the player plays the move that a further search for one point more
    /// likes best among those the solver proves keep the solved value (a chance for the
    /// opponent to err), and in the win question's range the same among the moves that keep
    /// a proven win or a proven draw (the swindle: it scores more against wormhole).
    #[arg(long)]
    no_swindle: bool,
}

impl SolverArgs {
    pub(super) fn solver(&self) -> SolverConfig {
        SolverConfig {
            exact_empty: self.solver_empty,
            win_empty: self.win_solver_empty,
            solve_share: self.solve_share,
            draw_first: self.draw_first,
            swindle: !self.no_swindle,
        }
    }
}

/// How the game's time is shared out between the moves.
#[derive(Debug, Args)]
#[command(next_help_heading = "Time sharing")]
pub(super) struct TimeArgs {
    /// The least fraction of the time left that a move's search gets (the first moves get
    /// this much, later ones an even share of what is left) [default: 1/6].
    #[arg(long, default_value_t = 1.0 / 6.0, hide_default_value = true)]
    min_share: f64,
    /// Fraction of the game's thinking time kept for the solver's moves (0: two shares of
    /// what is left).
    #[arg(long, default_value_t = 0.1)]
    end_reserve: f64,
}

impl TimeArgs {
    pub(super) fn time(&self) -> TimeConfig {
        TimeConfig {
            min_share: self.min_share,
            end_reserve: self.end_reserve,
        }
    }
}
