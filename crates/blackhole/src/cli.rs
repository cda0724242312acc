//! The `blackhole` program's command line: the EventHorizon-style player (the default), a
//! random player, a referee and the solver benchmark, each a subcommand of [`Cli`].
//!
//! ```text
//! blackhole                                 # the player, CodeCup protocol
//! blackhole player -v                       # the same, decisions on stderr
//! blackhole random                          # a uniformly random player
//! blackhole referee -n 20 "CMD_A" "CMD_B"   # games between two programs
//! blackhole solver-bench -n 20              # how far the solver reaches
//! blackhole review games.txt --from 15      # what each move gave away (referee --record)
//! blackhole review games.txt --list         # ... and each move that gave points away
//! ```
//!
//! It lives in the library so that the `blackhole` binary (`cargo install --path
//! crates/blackhole`) and the workspace's `blackhole` example are one program.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::engine::{Bot, EngineConfig, EventHorizon, RandomBot, Targets};
use crate::review::{GameRecord, Review, costly_moves, review_game};
use crate::search::PlayoutPolicy;
use crate::solver::Solver;
use crate::{bench, protocol, referee};

/// Blackhole (CodeCup 2018) on rave-mcts.
#[derive(Debug, Parser)]
#[command(
    name = "blackhole",
    version,
    about = "Blackhole (CodeCup 2018) on rave-mcts: a player, a random player, a referee, a game review and a solver benchmark"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The EventHorizon-style player on stdin/stdout (the default).
    Player(PlayerArgs),
    /// A uniformly random player on stdin/stdout.
    Random {
        /// Random seed (default: from the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Plays games between two programs that speak the CodeCup protocol.
    Referee(RefereeArgs),
    /// Measures the exact solver on reproducible endings at each empty count.
    SolverBench(BenchArgs),
    /// Measures the player's search speed: simulations a second at each empty count, and a
    /// fingerprint of the searches' results (the same after a change that keeps every choice).
    SearchBench(SearchBenchArgs),
    /// Reviews recorded games (`referee --record`) with the exact solver: per empty count,
    /// A's exact value and the points each side's moves gave away.
    Review(ReviewArgs),
}

#[derive(Debug, Args)]
struct ReviewArgs {
    /// The game records, one game a line (`referee --record FILE` writes them).
    file: std::path::PathBuf,
    /// Review the moves from this many empty cells on, down to the end (2..=31; the most
    /// empty cells reviewed, where `solver-bench --from` is the fewest).
    #[arg(long, default_value_t = 15)]
    from: u32,
    /// Seconds per solve; a position not solved in time is left out.
    #[arg(long, default_value_t = 10.0)]
    limit: f64,
    /// Also print each move that gave away points: its game, empty cells, move and A's
    /// value before and after it.
    #[arg(long)]
    list: bool,
}

#[derive(Debug, Args)]
struct BenchArgs {
    /// Games played to build endings (one ending per game at each empty count); with
    /// `--records`, the recorded games used.
    #[arg(short = 'n', long, default_value_t = 20)]
    games: usize,
    /// Seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = 1, conflicts_with = "records")]
    seed: u64,
    /// Endings from lottery playouts instead of self-play of a small search.
    #[arg(long)]
    lottery: bool,
    /// Endings from the first `--games` recorded games of this file (`referee --record`)
    /// instead of self-play: positions from real play.
    #[arg(long, conflicts_with = "lottery")]
    records: Option<std::path::PathBuf>,
    /// Simulations per move of the self-play search.
    #[arg(long, default_value_t = 2000, conflicts_with = "records")]
    simulations: u64,
    /// Fewest empty cells.
    #[arg(long, default_value_t = 10)]
    from: u32,
    /// Most empty cells.
    #[arg(long, default_value_t = 20)]
    to: u32,
    /// Seconds per solve.
    #[arg(long, default_value_t = 3.0)]
    limit: f64,
    /// Only decide whether the player to move wins (one null window), not the exact score.
    #[arg(long)]
    win: bool,
}

#[derive(Debug, Args)]
struct SearchBenchArgs {
    /// Games whose positions are searched (one position per game at each empty count): the
    /// first games of `--records`, else lottery playouts seeded 1, 2, ...
    #[arg(short = 'n', long, default_value_t = 10)]
    games: usize,
    /// Positions from these recorded games (`referee --record`) instead of lottery playouts.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// Simulations per search (each target's search, without a clock).
    #[arg(long, default_value_t = 20_000)]
    simulations: u64,
    /// Fewest empty cells.
    #[arg(long, default_value_t = 20)]
    from: u32,
    /// Most empty cells.
    #[arg(long, default_value_t = 31)]
    to: u32,
    /// The player searched (its flags; `--seed` seeds the k-th position's search with seed +
    /// k, 1 by default; the clock flags are not used).
    #[command(flatten)]
    player: PlayerArgs,
}

/// The thinking time of a game, the one clock flag of the player and the referee.
#[derive(Debug, Args)]
struct GameClock {
    /// Thinking time per game in seconds, for each program (`--time` is an alias).
    #[arg(
        long = "time-per-game",
        alias = "time",
        value_name = "SECONDS",
        default_value_t = 5.0
    )]
    time: f64,
}

#[derive(Debug, Args)]
struct PlayerArgs {
    #[command(flatten)]
    clock: GameClock,
    /// Seconds of the thinking time kept in reserve.
    #[arg(long, default_value_t = 0.3)]
    margin: f64,
    /// Random seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Turn AMAF priming (GRAVE) off: plain UCT-RAVE.
    #[arg(long)]
    no_priming: bool,
    /// One search for a win (target 76) instead of the win-draw-loss search.
    #[arg(long)]
    win_only: bool,
    /// One search per move at a running target instead of three (see docs/blackhole.md).
    #[arg(long, conflicts_with = "win_only")]
    single_target: bool,
    /// Ansell's target selection instead of the win-draw-loss search: one target drifting by a
    /// point after every batch of simulations, then the rest of the time on the best target
    /// reached with probability at least gamma (the win-draw-loss search scores more
    /// against wormhole, see docs/blackhole.md).
    #[arg(long, conflicts_with_all = ["win_only", "single_target"])]
    drift: bool,
    /// The adaptive targets: three searches a move around a running target (see
    /// docs/blackhole.md).
    #[arg(long, conflicts_with_all = ["win_only", "single_target", "drift", "score"])]
    adaptive: bool,
    /// One search per move for the best mean score instead of targets (the reward grows
    /// linearly with the score, see --score-scale).
    #[arg(long, conflicts_with_all = ["win_only", "single_target", "drift"])]
    score: bool,
    /// One search per move for a win, a draw or a loss (rewards 1, 1/2 and 0) instead of
    /// targets, with the MCTS-solver on. The default, as it scores more against wormhole than
    /// the targets (see docs/blackhole.md); the flag changes nothing.
    #[arg(long, conflicts_with_all = ["win_only", "single_target", "drift", "adaptive", "score"])]
    wdl: bool,
    /// With the win-draw-loss search: M, the reward of a loss by one point (0 by default); a
    /// win by one point earns 1 - M, a win or a loss by two points or more 1 or 0, so the
    /// search also looks for the second point. In [0, 0.5).
    #[arg(long, value_name = "M", default_value_t = 0.0, conflicts_with_all = ["win_only", "single_target", "drift", "adaptive", "score"])]
    wdl_margin: f32,
    /// With the win-draw-loss search: D, the reward of a draw (a win earns 1, a loss 0); above
    /// 0.5 the search prefers a sure draw to a gamble that wins and loses as often, as the mean
    /// score does where losses are by more points than wins. Between M and 1 - M. The
    /// default 0.5 scores more against wormhole than 0.6 or 0.4 (see docs/blackhole.md).
    #[arg(long, value_name = "D", default_value_t = 0.5, conflicts_with_all = ["win_only", "single_target", "drift", "adaptive", "score"])]
    draw_reward: f32,
    /// With --score: the points above (below) a draw that earn the whole (no) reward.
    #[arg(long, default_value_t = 20.0, requires = "score")]
    score_scale: f32,
    /// With --drift: the target moves up when reached with at least this probability.
    #[arg(long, default_value_t = 0.6, requires = "drift", conflicts_with_all = OTHER_MODES)]
    gamma_up: f64,
    /// With --drift: the target moves down when reached with at most this probability.
    #[arg(long, default_value_t = 0.4, requires = "drift", conflicts_with_all = OTHER_MODES)]
    gamma_down: f64,
    /// With --drift: the fraction of the move's search time the target drifts.
    #[arg(long, default_value_t = 0.5, requires = "drift", conflicts_with_all = OTHER_MODES)]
    drift_share: f64,
    /// Least probability of reaching a target for its move to be played.
    #[arg(long, default_value_t = 0.5)]
    gamma: f64,
    /// No target below this score (1: no floor; 76: never aim below a win).
    #[arg(long, default_value_t = 1)]
    target_floor: i16,
    /// Distance between the targets searched.
    #[arg(long, default_value_t = 4)]
    target_step: i16,
    /// Empty cells from which the exact solver is tried (0: never). The default 18 is the
    /// best range measured against wormhole, with the swindle (see docs/blackhole.md).
    #[arg(long, default_value_t = 18)]
    solver_empty: u32,
    /// In the exact solver's range, ask whether we draw before whether we win, and when the
    /// solve runs out of time play a move it proved keeps our bound (through the swindle)
    /// instead of searching.
    #[arg(long)]
    draw_first: bool,
    /// In the exact solver's range, the fraction of the time left that a solve may use
    /// while none of ours has found the value yet.
    #[arg(long, default_value_t = 0.5)]
    solve_share: f64,
    /// Empty cells from which the solver is asked only whether we win, with half the move's
    /// time, until the exact solver's range (0: never).
    #[arg(long, default_value_t = 19)]
    win_solver_empty: u32,
    /// The least fraction of the time left that a move's search gets (the first moves get
    /// this much, later ones an even share of what is left) [default: 1/6].
    #[arg(long, default_value_t = 1.0 / 6.0, hide_default_value = true)]
    min_share: f64,
    /// Fraction of the game's thinking time kept for the solver's moves (0: two shares of
    /// what is left).
    #[arg(long, default_value_t = 0.1)]
    end_reserve: f64,
    /// Play the solver's own move where it knows the score. By default, in the exact
    /// solver's range, the player plays the move that a further search for one point more
    /// likes best among those the solver proves keep the solved value (a chance for the
    /// opponent to err), and in the win question's range the same among the moves that keep
    /// a proven win or a proven draw (the swindle: it scores more against wormhole).
    #[arg(long)]
    no_swindle: bool,
    /// The swindle, the default: the flag changes nothing.
    #[arg(long, hide = true)]
    swindle: bool,
    /// Empty cells from which simulations also end when the solver's static bounds decide
    /// the target (31: always; 0: only the dead-cell declaration).
    #[arg(long, default_value_t = 31)]
    static_empty: u32,
    /// Playouts ask the static bounds only from about where they start to decide the target
    /// (18 empty cells for 75 and 76, one more every two points further), not at every move:
    /// fewer checks; a playout the bounds would have decided earlier (rare) plays on. The
    /// tree's nodes still ask from --static-empty.
    #[arg(long)]
    lazy_playout_bounds: bool,
    /// Prune the tree's moves by the value-sense rules only, not for each target as the exact
    /// solver does (sure cells).
    #[arg(long)]
    no_target_pruning: bool,
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
    /// The opening cap also holds for our stones in the playouts, not only in the tree.
    #[arg(long)]
    capped_playouts: bool,
    /// The opening cap rises by one every two plies: --opening-cap at the first move, one
    /// more at the second, and so on to the end of --opening-plies.
    #[arg(long)]
    opening_ramp: bool,
    /// Key the tree's AMAF statistics by the cell alone: a move's AMAF value pools the games in
    /// which its player took its cell, with any stone.
    #[arg(long)]
    amaf_by_cell: bool,
    /// Progressive bias towards the moves the greedy playout favours: spreading the most
    /// valuable stones early, filling the holes bad for the mover late (0: none).
    #[arg(long, default_value_t = 0.0)]
    prior_bias: f32,
    /// Group the tree's moves by place, as wormhole does: the mover chooses a cell, then, one
    /// level further down, its stone.
    #[arg(long)]
    grouped: bool,
    /// GRAVE reference threshold (visits).
    #[arg(long, default_value_t = 40)]
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
    /// Visits of a node between two full scorings of its children (with `--shortlist`).
    #[arg(long, default_value_t = 8)]
    rescan_every: u32,
    /// How playouts choose their moves: greedy moves (the most open cell early, the worst
    /// hole late), greedy cells with stones drawn by value (greedy-lottery), Ansell's lottery
    /// (tickets from the alpha-dead cells, stones by value), this crate's own lottery,
    /// uniformly random moves, greedy and Ansell's moves half and half (mixed), greedy moves
    /// that see the alpha-dead cells (greedy-alpha), or the searching player's moves by
    /// greedy-alpha (split-greedy-alpha) or Ansell's lottery (split-ansell) and the
    /// opponent's moves greedy.
    #[arg(long, value_enum, default_value_t = Playout::Greedy)]
    playout: Playout,
    /// Log every decision on stderr.
    #[arg(short, long)]
    verbose: bool,
}

/// The target modes other than the drift, which the drift's settings conflict with (clap drops
/// a requirement where a conflicting flag is present, so `requires` alone would not refuse
/// them).
const OTHER_MODES: [&str; 5] = ["win_only", "single_target", "score", "wdl", "adaptive"];

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

impl Default for PlayerArgs {
    fn default() -> Self {
        PlayerArgs::parse_from(["player"])
    }
}

#[derive(Debug, Parser)]
struct PlayerOnly {
    #[command(flatten)]
    args: PlayerArgs,
}

impl PlayerArgs {
    fn parse_from<const N: usize>(argv: [&str; N]) -> Self {
        PlayerOnly::parse_from(argv).args
    }

    fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            priming: !self.no_priming,
            grave_visits: self.grave_visits,
            amaf_horizon: self.amaf_horizon,
            exploration: self.exploration,
            rave_bias: self.rave_bias,
            shortlist: self.shortlist,
            rescan_every: self.rescan_every,
            targets: if self.win_only {
                Targets::WinOnly
            } else if self.single_target {
                Targets::Single
            } else if self.score {
                Targets::Score
            } else if self.adaptive {
                Targets::Adaptive
            } else if self.drift {
                Targets::Drift
            } else {
                Targets::Wdl
            },
            target_step: self.target_step,
            gamma: self.gamma,
            target_floor: self.target_floor,
            gamma_up: self.gamma_up,
            gamma_down: self.gamma_down,
            drift_share: self.drift_share,
            score_scale: self.score_scale,
            wdl_margin: self.wdl_margin,
            draw_reward: self.draw_reward,
            solver_empty: self.solver_empty,
            draw_first: self.draw_first,
            solve_share: self.solve_share,
            win_solver_empty: self.win_solver_empty,
            end_reserve: self.end_reserve,
            swindle: !self.no_swindle,
            min_share: self.min_share,
            static_empty: self.static_empty,
            lazy_playout_bounds: self.lazy_playout_bounds,
            target_pruning: !self.no_target_pruning,
            playout: self.playout.policy(),
            width: self.width,
            opening_plies: self.opening_plies,
            opening_cap: self.opening_cap,
            capped_playouts: self.capped_playouts,
            opening_ramp: self.opening_ramp,
            amaf_by_cell: self.amaf_by_cell,
            prior_bias: self.prior_bias,
            grouped: self.grouped,
            verbose: self.verbose,
            ..EngineConfig::default()
        }
    }
}

#[derive(Debug, Args)]
struct RefereeArgs {
    /// Number of games (pairs on the same blocked cells, colours swapped).
    #[arg(short = 'n', long, default_value_t = 10)]
    games: usize,
    /// Seed of the blocked cells.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// First game to play (from 1): resumes a broken-off match on the cells it would have
    /// played, up to game `--games`.
    #[arg(long, default_value_t = 1)]
    first_game: usize,
    #[command(flatten)]
    clock: GameClock,
    /// Show the programs' stderr.
    #[arg(long)]
    show_stderr: bool,
    /// Append every game's record (blocked cells and moves, one line) to this file, for
    /// `blackhole review`.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Print every game.
    #[arg(short, long)]
    verbose: bool,
    /// Program A (a shell command).
    cmd_a: String,
    /// Program B (a shell command).
    cmd_b: String,
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
        ^ u64::from(std::process::id()) << 32
}

fn seconds(name: &str, s: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(s).map_err(|_| format!("{name} {s} is not a number of seconds"))
}

fn run_player(bot: &mut dyn Bot, budget: Duration) -> ExitCode {
    let stdin = std::io::stdin();
    let stdout = BufWriter::new(std::io::stdout().lock());
    match protocol::play(stdin.lock(), stdout, bot, budget) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("blackhole: {e}");
            ExitCode::FAILURE
        }
    }
}

fn player(args: &PlayerArgs) -> Result<ExitCode, String> {
    let total = seconds("--time-per-game", args.clock.time)?;
    let margin = seconds("--margin", args.margin)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut bot = EventHorizon::new(args.engine_config(), seed)?;
    Ok(run_player(&mut bot, total.saturating_sub(margin)))
}

fn referee(args: &RefereeArgs) -> Result<ExitCode, String> {
    let limit = seconds("--time-per-game", args.clock.time)?;
    if args.first_game == 0 || args.first_game > args.games.max(1) {
        return Err(format!(
            "--first-game {} must lie between 1 and --games {}",
            args.first_game, args.games
        ));
    }
    let games = args.first_game - 1..args.games;
    let mut record = match &args.record {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write the records to {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let bar = game_harness::matches::progress_bar(games.len(), false);
    let verbose = args.verbose;
    let summary = referee::run_match(
        games,
        args.seed,
        &args.cmd_a,
        &args.cmd_b,
        limit,
        args.show_stderr,
        |g, a_red, blocked, r| {
            bar.inc(1);
            if let Some(file) = &mut record {
                let line = GameRecord {
                    game: g + 1,
                    a_is_red: a_red,
                    blocked: blocked.to_vec(),
                    moves: r.moves.clone(),
                };
                // One write per line: a referee killed mid-game leaves no half line.
                if let Err(e) = file.write_all(format!("{line}\n").as_bytes()) {
                    game_harness::matches::print_above(&bar, &format!("record not written: {e}"));
                }
            }
            if verbose || r.forfeit.is_some() {
                let a = if a_red {
                    r.red_score
                } else {
                    150 - r.red_score
                };
                let line = format!(
                    "game {} A {}: A scores {a} after {} moves{}",
                    g + 1,
                    if a_red { "Red" } else { "Blue" },
                    r.moves.len(),
                    r.forfeit
                        .as_ref()
                        .map(|(p, why)| format!(
                            " (forfeit by {}: {why})",
                            if (*p == 0) == a_red { "A" } else { "B" }
                        ))
                        .unwrap_or_default()
                );
                game_harness::matches::print_above(&bar, &line);
            }
        },
    )?;
    bar.finish_and_clear();
    game_harness::outln!("{summary}");
    Ok(ExitCode::SUCCESS)
}

/// The game records of `path`, one a line (blank lines skipped); an error names the file and
/// the line.
fn read_records(path: &std::path::Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            l.parse::<GameRecord>()
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

fn review(args: &ReviewArgs) -> Result<ExitCode, String> {
    let limit = seconds("--limit", args.limit)?;
    if !(2..=31).contains(&args.from) {
        return Err(format!("--from {} must lie in 2..=31", args.from));
    }
    let records = read_records(&args.file)?;
    let bar = game_harness::matches::progress_bar(records.len(), false);
    let mut solver = Solver::new();
    let mut summary = Review::new(args.from);
    for r in &records {
        bar.inc(1);
        if !r.is_complete() {
            game_harness::matches::print_above(
                &bar,
                &format!("game {}: not finished, left out", r.game),
            );
            continue;
        }
        let values = review_game(r, &mut solver, args.from, limit).map_err(|e| e.to_string())?;
        if args.list {
            for c in costly_moves(r, &values) {
                game_harness::matches::print_above(&bar, &c.to_string());
            }
        }
        summary.add(r, &values);
    }
    bar.finish_and_clear();
    game_harness::outln!("{}", summary.table());
    Ok(ExitCode::SUCCESS)
}

fn solver_bench(args: &BenchArgs) -> Result<ExitCode, String> {
    let limit = seconds("--limit", args.limit)?;
    if args.from < 2 || args.to > 31 || args.from > args.to {
        return Err(format!(
            "empty counts {}..={} must lie in 2..=31",
            args.from, args.to
        ));
    }
    let source = if args.lottery {
        bench::Source::Lottery
    } else {
        bench::Source::SelfPlay
    };
    let settings = bench::Settings {
        games: args.games,
        seed: args.seed,
        source,
        simulations: args.simulations,
        lowest: args.from,
        highest: args.to,
        limit,
        win_only: args.win,
    };
    match &args.records {
        Some(path) => {
            let mut records = read_records(path)?;
            records.truncate(args.games);
            let endings = bench::endings_of_records(&records, args.to, args.from);
            bench::run_endings(&endings, &settings, std::io::stdout().lock());
        }
        None => {
            bench::run(&settings, std::io::stdout().lock());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn search_bench(args: &SearchBenchArgs) -> Result<ExitCode, String> {
    if args.simulations == 0 {
        return Err("--simulations 0: a search needs at least one simulation".to_string());
    }
    if args.from < 2 || args.to > 31 || args.from > args.to {
        return Err(format!(
            "empty counts {}..={} must lie in 2..=31",
            args.from, args.to
        ));
    }
    let by_empty = match &args.records {
        Some(path) => {
            let mut records = read_records(path)?;
            records.truncate(args.games);
            bench::endings_of_records(&records, args.to, args.from)
        }
        None => {
            let mut by_empty = vec![Vec::new(); args.to as usize + 1];
            for g in 1..=args.games as u64 {
                let game = bench::endings_of_game(g, bench::Source::Lottery, 0, args.to, args.from);
                for p in game {
                    by_empty[p.empty_count() as usize].push(p);
                }
            }
            by_empty
        }
    };
    let config = args.player.engine_config();
    let seed = args.player.seed.unwrap_or(1);
    crate::search_bench::run(
        &by_empty,
        &config,
        args.simulations,
        seed,
        std::io::stdout().lock(),
    )?;
    Ok(ExitCode::SUCCESS)
}

impl Cli {
    /// Runs the subcommand (the player without one) and returns the exit status; errors are
    /// printed on stderr.
    pub fn run(&self) -> ExitCode {
        let result = match &self.command {
            None => player(&PlayerArgs::default()),
            Some(Command::Player(args)) => player(args),
            Some(Command::Random { seed }) => {
                let mut bot = RandomBot::new(seed.unwrap_or_else(clock_seed));
                Ok(run_player(&mut bot, Duration::from_secs(5)))
            }
            Some(Command::Referee(args)) => referee(args),
            Some(Command::SolverBench(args)) => solver_bench(args),
            Some(Command::SearchBench(args)) => search_bench(args),
            Some(Command::Review(args)) => review(args),
        };
        let status = result.unwrap_or_else(|e| {
            eprintln!("blackhole: {e}");
            ExitCode::FAILURE
        });
        game_harness::output::exit_status(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_parses() {
        let cli = Cli::try_parse_from(["blackhole"]).unwrap();
        assert!(cli.command.is_none());
        let cli =
            Cli::try_parse_from(["blackhole", "player", "--no-priming", "--time", "0.5"]).unwrap();
        match cli.command {
            Some(Command::Player(a)) => {
                assert!(a.no_priming);
                assert!(!a.engine_config().priming);
                assert_eq!(a.clock.time, 0.5);
            }
            other => panic!("{other:?}"),
        }
        // The one name for the time of a game, as in the other programs' --time-per-move.
        let cli = Cli::try_parse_from(["blackhole", "player", "--time-per-game", "2.5"]).unwrap();
        assert!(matches!(cli.command, Some(Command::Player(a)) if a.clock.time == 2.5));
        let cli = Cli::try_parse_from(["blackhole", "referee", "-n", "4", "a", "b"]).unwrap();
        match cli.command {
            Some(Command::Referee(r)) => {
                assert_eq!(r.games, 4);
                assert_eq!((r.cmd_a.as_str(), r.cmd_b.as_str()), ("a", "b"));
            }
            other => panic!("{other:?}"),
        }
        assert!(Cli::try_parse_from(["blackhole", "referee", "a"]).is_err());
        let floorless = PlayerArgs::parse_from(["player", "--target-floor", "1"]);
        assert_eq!(floorless.engine_config().target_floor, 1);
        assert!(seconds("--time", -1.0).is_err());
    }

    #[test]
    fn the_command_line_defaults_are_the_engines() {
        assert!(PlayerArgs::default().engine_config().priming);
        // The command line's defaults are the engine's.
        let (cli, engine) = (
            PlayerArgs::default().engine_config(),
            EngineConfig::default(),
        );
        assert_eq!(
            (cli.gamma, cli.target_floor),
            (engine.gamma, engine.target_floor)
        );
        assert_eq!(
            (
                cli.gamma_up,
                cli.gamma_down,
                cli.drift_share,
                cli.score_scale,
                cli.wdl_margin,
                cli.draw_reward
            ),
            (
                engine.gamma_up,
                engine.gamma_down,
                engine.drift_share,
                engine.score_scale,
                engine.wdl_margin,
                engine.draw_reward
            )
        );
        assert_eq!(cli.playout, engine.playout);
        // The greedy playout is the default (docs/blackhole.md).
        assert_eq!(engine.playout, PlayoutPolicy::Greedy);
        assert_eq!(cli.min_share, engine.min_share);
        // Every stone in the tree is the default.
        assert_eq!((cli.width, engine.width), (0, 0));
        // The opening cap is on by default.
        assert_eq!(
            (cli.opening_plies, cli.opening_cap),
            (engine.opening_plies, engine.opening_cap)
        );
        assert_eq!((engine.opening_plies, engine.opening_cap), (8, 12));
        // The solver's ranges and the swindle are the default.
        assert_eq!(
            (
                cli.solver_empty,
                cli.win_solver_empty,
                cli.end_reserve,
                cli.swindle
            ),
            (18, 19, 0.1, true)
        );
        assert_eq!(
            (
                engine.solver_empty,
                engine.win_solver_empty,
                engine.end_reserve,
                engine.swindle
            ),
            (18, 19, 0.1, true)
        );
    }

    #[test]
    fn the_swindle_and_opening_cap_flags_parse() {
        let plain = PlayerArgs::parse_from(["player", "--no-swindle"]);
        assert!(!plain.engine_config().swindle);
        let old = PlayerArgs::parse_from(["player", "--swindle"]);
        assert!(old.engine_config().swindle);
        let uncapped = PlayerArgs::parse_from(["player", "--opening-plies", "0"]);
        assert_eq!(uncapped.engine_config().opening_plies, 0);
        let cap = PlayerArgs::parse_from(["player", "--opening-plies", "4", "--opening-cap", "11"]);
        assert_eq!(
            (
                cap.engine_config().opening_plies,
                cap.engine_config().opening_cap
            ),
            (4, 11)
        );
        assert!(Cli::try_parse_from(["blackhole", "player", "--opening-cap", "16"]).is_err());
    }

    #[test]
    fn the_search_modes_parse() {
        let first = PlayerArgs::parse_from(["player", "--playout", "lottery"]).engine_config();
        assert_eq!(first.playout, PlayoutPolicy::Lottery);
        let score = PlayerArgs::parse_from(["player", "--score"]).engine_config();
        assert_eq!(score.targets, Targets::Score);
        let wdl = PlayerArgs::parse_from(["player", "--wdl"]).engine_config();
        assert_eq!(wdl.targets, Targets::Wdl);
        assert!(Cli::try_parse_from(["blackhole", "player", "--wdl", "--score"]).is_err());
        // The drift's settings are refused with the score game too.
        assert!(
            Cli::try_parse_from(["blackhole", "player", "--wdl", "--drift-share", "0.25"]).is_err()
        );
        let margin = PlayerArgs::parse_from(["player", "--wdl-margin", "0.15"]).engine_config();
        assert_eq!((margin.targets, margin.wdl_margin), (Targets::Wdl, 0.15));
        let first = PlayerArgs::parse_from(["player", "--draw-first"]).engine_config();
        assert!(
            first.draw_first
                && !PlayerArgs::parse_from(["player"])
                    .engine_config()
                    .draw_first
        );
        let draw = PlayerArgs::parse_from(["player", "--draw-reward", "0.6"]).engine_config();
        assert_eq!((draw.targets, draw.draw_reward), (Targets::Wdl, 0.6));
        assert!(
            Cli::try_parse_from(["blackhole", "player", "--drift", "--draw-reward", "0.6"])
                .is_err()
        );
        assert!(
            Cli::try_parse_from(["blackhole", "player", "--drift", "--wdl-margin", "0.1"]).is_err()
        );
        let drift = PlayerArgs::parse_from(["player", "--drift"]).engine_config();
        assert_eq!(drift.targets, Targets::Drift);
        // The win-draw-loss search is the default.
        assert_eq!(
            (
                PlayerArgs::default().engine_config().targets,
                EngineConfig::default().targets
            ),
            (Targets::Wdl, Targets::Wdl)
        );
        let adaptive = PlayerArgs::parse_from(["player", "--adaptive"]).engine_config();
        assert_eq!(adaptive.targets, Targets::Adaptive);
        assert!(Cli::try_parse_from(["blackhole", "player", "--drift", "--win-only"]).is_err());
        assert!(Cli::try_parse_from(["blackhole", "player", "--adaptive", "--drift"]).is_err());
    }

    #[test]
    fn the_drift_and_score_settings_need_their_modes() {
        let up = PlayerArgs::parse_from(["player", "--drift", "--gamma-up", "0.7"]);
        assert_eq!(up.engine_config().gamma_up, 0.7);
        assert!(Cli::try_parse_from(["blackhole", "player", "--gamma-up", "0.7"]).is_err());
        assert!(
            Cli::try_parse_from(["blackhole", "player", "--adaptive", "--gamma-up", "0.7"])
                .is_err()
        );
        assert!(Cli::try_parse_from(["blackhole", "player", "--score-scale", "9"]).is_err());
    }

    #[test]
    fn a_first_game_beyond_the_match_is_refused_before_any_game() {
        let args = |first: &str| match Cli::parse_from([
            "blackhole",
            "referee",
            "-n",
            "4",
            "--first-game",
            first,
            "a",
            "b",
        ])
        .command
        {
            Some(Command::Referee(r)) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!(args("3").first_game, 3);
        for bad in ["0", "5"] {
            let err = referee(&args(bad)).unwrap_err();
            assert!(err.contains(&format!("--first-game {bad}")), "{err}");
        }
    }

    #[test]
    fn a_review_names_the_bad_line_or_option() {
        let dir = std::env::temp_dir().join(format!("bh-review-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("games.txt");
        std::fs::write(
            &file,
            "\ngame 1 A Red blocked A1 B2 C3 D4 E4 moves A2=15 A2=14\n",
        )
        .unwrap();
        let args = |from: &str| match Cli::parse_from([
            "blackhole",
            "review",
            file.to_str().unwrap(),
            "--from",
            from,
        ])
        .command
        {
            Some(Command::Review(r)) => r,
            other => panic!("{other:?}"),
        };
        let err = review(&args("12")).unwrap_err();
        assert!(err.contains("line 2") && err.contains("A2"), "{err}");
        let err = review(&args("40")).unwrap_err();
        assert!(err.contains("--from 40"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_search_bench_takes_the_players_flags_and_refuses_bad_ranges_by_value() {
        let args = |extra: &[&str]| {
            let cli = ["blackhole", "search-bench", "-n", "1"];
            match Cli::parse_from(cli.iter().chain(extra)).command {
                Some(Command::SearchBench(a)) => a,
                other => panic!("{other:?}"),
            }
        };
        let a = args(&[
            "--simulations",
            "50",
            "--from",
            "26",
            "--to",
            "27",
            "--exploration",
            "0.3",
            "--seed",
            "4",
        ]);
        assert_eq!((a.games, a.simulations, a.from, a.to), (1, 50, 26, 27));
        assert_eq!(a.player.engine_config().exploration, 0.3);
        assert_eq!(a.player.seed, Some(4));
        assert!(search_bench(&a).is_ok());
        let err = search_bench(&args(&["--simulations", "0"])).unwrap_err();
        assert!(err.contains("--simulations 0"), "{err}");
        let err = search_bench(&args(&["--from", "25", "--to", "40"])).unwrap_err();
        assert!(err.contains("25..=40"), "{err}");
        let err = search_bench(&args(&["--records", "/nonexistent/games.txt"])).unwrap_err();
        assert!(err.contains("/nonexistent/games.txt"), "{err}");
        let err = search_bench(&args(&["--exploration=-1"])).unwrap_err();
        assert!(err.contains("-1"), "{err}");
    }
}
