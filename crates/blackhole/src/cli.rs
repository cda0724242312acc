//! The `blackhole` program's command line: the EventHorizon-style player (the default), a
//! random player, a referee, a game review and two benches, each a subcommand of [`Cli`].
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
//! crates/blackhole`) and the workspace's `blackhole` example are one program. The player's
//! options are in `options` (one heading of `--help` per part of
//! [`crate::engine::EngineConfig`]), the tools' in `tools`.

mod options;
mod tools;

use std::io::BufWriter;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand};

use crate::engine::{EngineConfig, EventHorizon, RandomBot};
use crate::protocol;
use crate::referee::BlackholeGame;
use game_harness::Agent;
use game_harness::cli::{Seconds, seconds_or_zero};
use options::{SearchOptions, SolverArgs, TimeArgs};
use tools::{BenchArgs, RefereeArgs, ReviewArgs, SearchBenchArgs};

/// Blackhole (CodeCup 2018) on rave-mcts.
#[derive(Debug, Parser)]
#[command(
    name = "blackhole",
    version,
    about = "Blackhole (CodeCup 2018) on rave-mcts: a player, a random player, a referee, a game review, a solver bench and a search bench"
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

/// The thinking time of a game, the one clock flag of the player and the referee.
#[derive(Debug, Args)]
struct GameClock {
    /// Thinking time per game in seconds, for each program (`--time` is an alias).
    #[arg(
        long = "time-per-game",
        alias = "time",
        value_name = "SECONDS",
        default_value = "5"
    )]
    time: Seconds,
}

#[derive(Debug, Args)]
struct PlayerArgs {
    #[command(flatten)]
    clock: GameClock,
    /// Seconds of the thinking time kept in reserve.
    #[arg(long, default_value = "0.3", value_parser = seconds_or_zero)]
    margin: Duration,
    /// Random seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Log every decision on stderr.
    #[arg(short, long)]
    verbose: bool,
    #[command(flatten)]
    search: SearchOptions,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    time: TimeArgs,
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
            solver: self.solver.solver(),
            time: self.time.time(),
            verbose: self.verbose,
            ..self.search.engine_config()
        }
    }
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
        ^ u64::from(std::process::id()) << 32
}

fn run_player(bot: &mut dyn Agent<BlackholeGame>, budget: Duration) -> ExitCode {
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
    let total = args.clock.time.duration();
    let margin = args.margin;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut bot = EventHorizon::new(args.engine_config(), seed).map_err(|e| e.to_string())?;
    Ok(run_player(&mut bot, total.saturating_sub(margin)))
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
            Some(Command::Referee(args)) => tools::referee(args),
            Some(Command::SolverBench(args)) => tools::solver_bench(args),
            Some(Command::SearchBench(args)) => tools::search_bench(args),
            Some(Command::Review(args)) => tools::review(args),
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
    use crate::engine::Objective;
    use clap::CommandFactory;

    fn config(args: &[&str]) -> EngineConfig {
        let argv = ["player"].iter().chain(args);
        PlayerOnly::try_parse_from(argv)
            .unwrap_or_else(|e| panic!("{args:?}: {e}"))
            .args
            .engine_config()
    }

    #[test]
    fn the_command_line_parses() {
        let cli = Cli::try_parse_from(["blackhole"]).unwrap();
        assert!(cli.command.is_none());
        let cli =
            Cli::try_parse_from(["blackhole", "player", "--no-priming", "--time", "0.5"]).unwrap();
        match cli.command {
            Some(Command::Player(a)) => {
                assert_eq!(a.engine_config().search.grave, None);
                assert_eq!(a.clock.time.duration(), Duration::from_millis(500));
            }
            other => panic!("{other:?}"),
        }
        // The one name for the time of a game, as in the other programs' --time-per-move.
        let cli = Cli::try_parse_from(["blackhole", "player", "--time-per-game", "2.5"]).unwrap();
        assert!(
            matches!(cli.command, Some(Command::Player(a)) if a.clock.time.duration() == Duration::from_millis(2500))
        );
        let a = PlayerArgs::parse_from(["player", "--margin", "0.5", "--seed", "7", "-v"]);
        assert_eq!((a.margin, a.seed), (Duration::from_millis(500), Some(7)));
        assert!(a.engine_config().verbose);
        for bad in ["--time=-1", "--margin=nan", "--time=0"] {
            let err = Cli::try_parse_from(["blackhole", "player", bad]).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{bad}");
        }
    }

    #[test]
    fn the_command_line_defaults_are_the_best_player() {
        assert_eq!(PlayerArgs::default().engine_config(), EngineConfig::best());
        assert_eq!(config(&[]), EngineConfig::default());
    }

    /// Each option of the player with a value other than its default, and the options it
    /// needs: every one changes the player's settings (no option does nothing), and every
    /// option of the player but its clock, margin and seed is here.
    #[test]
    fn every_engine_option_changes_the_players_settings() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["--win-only"], &[]),
            (&["--single-target"], &[]),
            (&["--adaptive"], &[]),
            (&["--drift"], &[]),
            (&["--score"], &[]),
            (&["--wdl-margin", "0.1"], &[]),
            (&["--draw-reward", "0.6"], &[]),
            (&["--score-scale", "10"], &["--score"]),
            (&["--gamma", "0.6"], &["--adaptive"]),
            (&["--target-step", "3"], &["--single-target"]),
            (&["--target-floor", "76"], &["--drift"]),
            (&["--gamma-up", "0.7"], &["--drift"]),
            (&["--gamma-down", "0.3"], &["--drift"]),
            (&["--drift-share", "0.25"], &["--drift"]),
            (&["--no-priming"], &[]),
            (&["--grave-visits", "100"], &[]),
            (&["--amaf-horizon", "8"], &[]),
            (&["--exploration", "0.25"], &[]),
            (&["--rave-bias", "0.02"], &[]),
            (&["--shortlist", "8"], &[]),
            (&["--rescan-every", "4"], &["--shortlist", "8"]),
            (&["--prior-bias", "0.5"], &[]),
            (&["--width", "4"], &[]),
            (&["--opening-plies", "4"], &[]),
            (&["--opening-cap", "10"], &[]),
            (&["--opening-ramp"], &[]),
            (&["--grouped"], &[]),
            (&["--amaf-by-cell"], &[]),
            (&["--no-target-pruning"], &[]),
            (&["--static-empty", "20"], &[]),
            (&["--playout", "ansell"], &[]),
            (&["--lazy-playout-bounds"], &[]),
            (&["--capped-playouts"], &[]),
            (&["--solver-empty", "16"], &[]),
            (&["--win-solver-empty", "20"], &[]),
            (&["--solve-share", "0.8"], &[]),
            (&["--draw-first"], &[]),
            (&["--no-swindle"], &[]),
            (&["--min-share", "0.25"], &[]),
            (&["--end-reserve", "0.05"], &[]),
            (&["--verbose"], &[]),
        ];
        for (option, needs) in cases {
            let with: Vec<&str> = needs.iter().chain(option.iter()).copied().collect();
            assert_ne!(config(&with), config(needs), "{option:?} changes nothing");
        }
        let covered: Vec<&str> = cases.iter().map(|(o, _)| &o[0][2..]).collect();
        let command = PlayerOnly::command();
        let mut missing: Vec<&str> = command
            .get_arguments()
            .filter_map(|a| a.get_long())
            .filter(|long| !["time-per-game", "margin", "seed"].contains(long))
            .filter(|long| !covered.contains(long))
            .collect();
        missing.sort_unstable();
        assert!(missing.is_empty(), "options not covered: {missing:?}");
    }

    #[test]
    fn each_option_reaches_its_setting() {
        let c = config(&["--drift", "--gamma", "0.4", "--drift-share", "0.25"]);
        let Objective::Drift(d) = c.objective else {
            panic!("{:?}", c.objective)
        };
        assert_eq!((d.gamma, d.share, d.gamma_up, d.floor), (0.4, 0.25, 0.6, 1));
        let c = config(&["--adaptive", "--target-floor", "76", "--target-step", "3"]);
        assert_eq!(
            c.objective,
            Objective::Adaptive {
                step: 3,
                gamma: 0.5,
                floor: 76
            }
        );
        let c = config(&["--wdl-margin", "0.15", "--draw-reward", "0.6"]);
        assert_eq!(
            c.objective,
            Objective::Wdl {
                margin: 0.15,
                draw: 0.6
            }
        );
        assert_eq!(config(&["--score"]).objective, Objective::score());
        assert_eq!(config(&["--win-only"]).objective, Objective::WinOnly);
        let c = config(&["--shortlist", "8", "--rescan-every", "4"]);
        let shortlist = c.search.shortlist.unwrap();
        assert_eq!((shortlist.size, shortlist.rescan_every), (8, 4));
        assert_eq!(config(&["--grave-visits", "100"]).search.grave, Some(100));
        let c = config(&[
            "--opening-plies",
            "4",
            "--opening-cap",
            "11",
            "--opening-ramp",
        ]);
        assert_eq!(
            (
                c.tree.opening.plies,
                c.tree.opening.cap,
                c.tree.opening.ramp
            ),
            (4, 11, true)
        );
        let c = config(&["--no-swindle", "--solver-empty", "16", "--draw-first"]);
        assert_eq!(
            (c.solver.swindle, c.solver.exact_empty, c.solver.draw_first),
            (false, 16, true)
        );
        assert_eq!(
            config(&["--playout", "lottery"]).playout.policy,
            crate::search::PlayoutPolicy::Lottery
        );
        assert!(Cli::try_parse_from(["blackhole", "player", "--opening-cap", "16"]).is_err());
    }

    /// A mode's parameters are taken with that mode only (the win-draw-loss search's without
    /// a mode flag); the modes exclude each other.
    #[test]
    fn a_modes_settings_are_refused_without_it() {
        let modes = [
            "",
            "--win-only",
            "--single-target",
            "--adaptive",
            "--drift",
            "--score",
        ];
        let settings: [(&str, &[&str]); 9] = [
            ("--gamma=0.6", &["--single-target", "--adaptive", "--drift"]),
            ("--target-step=3", &["--single-target", "--adaptive"]),
            ("--target-floor=70", &["--adaptive", "--drift"]),
            ("--gamma-up=0.7", &["--drift"]),
            ("--gamma-down=0.3", &["--drift"]),
            ("--drift-share=0.3", &["--drift"]),
            ("--score-scale=9", &["--score"]),
            ("--wdl-margin=0.1", &[""]),
            ("--draw-reward=0.6", &[""]),
        ];
        for mode in modes {
            for (setting, with) in settings {
                let argv: Vec<&str> = ["player", mode, setting]
                    .into_iter()
                    .filter(|a| !a.is_empty())
                    .collect();
                let parsed = PlayerOnly::try_parse_from(argv.iter().copied());
                assert_eq!(parsed.is_ok(), with.contains(&mode), "{argv:?}");
            }
            for other in modes.iter().filter(|m| !m.is_empty() && **m != mode) {
                let argv = ["player", mode, other];
                assert!(mode.is_empty() || PlayerOnly::try_parse_from(argv).is_err());
            }
        }
        assert!(PlayerOnly::try_parse_from(["player", "--rescan-every", "4"]).is_err());
        let unprimed = ["player", "--no-priming", "--grave-visits", "10"];
        assert!(PlayerOnly::try_parse_from(unprimed).is_err());
    }
}
