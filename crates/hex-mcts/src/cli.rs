//! The `hex` program's command line: a GTP engine, self-play matches, a speed table and a
//! search fingerprint, each a subcommand of [`Cli`].
//!
//! ```text
//! hex gtp [--size 11] [--time-per-move 1] [--algorithm grave]
//! hex selfplay --size 9 --games 40 --time-per-move 0.1 --player-a rave --player-b uct [--shard 0/2 --out DIR]
//! hex speed --sizes 11,13 --time-per-move 3
//! hex search-bench [--size 11] [--positions 10] [--simulations 20000]
//! ```
//!
//! It lives in the library so that the `hex` binary (`cargo install --path crates/hex-mcts`) and the
//! workspace's `hex` example are one program.

use std::io;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use game_harness::cli::Seconds;
use game_harness::search_params::SearchParams;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Mcts, MctsError, Playout, Trace};

use crate::engine::{Algorithm, Settings, engine, knowledge};
use crate::game::HexGame;
use crate::harness::Hex;
use crate::playout::HexPlayout;
use crate::selfplay::SelfplayArgs;
use crate::{gtp, search_bench, selfplay};

/// Hex on rave-mcts: a GTP engine, self-play matches, a speed table and a search fingerprint.
#[derive(Parser, Debug)]
#[command(
    name = "hex",
    version,
    about = "Hex on rave-mcts: a GTP engine, self-play matches, a speed table and a search fingerprint"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// A GTP engine on standard input and output (for HexGui and match tools).
    Gtp(GtpArgs),
    /// A match between two configurations, with a progress bar and a results table.
    Selfplay(Box<SelfplayArgs>),
    /// Simulations per second of each configuration, and raw playouts per second.
    Speed(SpeedArgs),
    /// Seeded searches of fixed positions: simulations per second and a fingerprint.
    SearchBench(search_bench::BenchArgs),
}

/// The search budget and playout options shared by the modes.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct SearchArgs {
    /// Simulations per move (with --time-per-move, the first limit reached stops the search).
    #[arg(long)]
    simulations: Option<u64>,
    /// Time per move in seconds.
    #[arg(long, value_name = "SECONDS")]
    time_per_move: Option<Seconds>,
    /// Search threads per player (one shared tree).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Bridge-save replies in the playouts: true or false.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    bridge_save: bool,
    /// The threats at expansion (a win at once proves a node, a block is its only move).
    #[arg(long)]
    threats: bool,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
}

impl SearchArgs {
    /// The time per move from --time-per-move.
    pub(crate) fn time(&self) -> Option<Duration> {
        self.time_per_move.map(Seconds::duration)
    }

    pub(crate) fn settings(&self, algorithm: Algorithm) -> Result<Settings, String> {
        if self.simulations == Some(0) {
            return Err("--simulations must be positive".into());
        }
        if !(1..=256).contains(&self.threads) {
            return Err(format!("--threads {}: use 1 to 256", self.threads));
        }
        Ok(Settings {
            algorithm,
            simulations: self.simulations,
            time: self.time(),
            threads: self.threads,
            knowledge: knowledge(self.bridge_save, self.threats),
            search: SearchParams::default(),
        })
    }
}

#[derive(Args, Debug)]
struct GtpArgs {
    /// Board size until the controller sends boardsize.
    #[arg(long, default_value_t = 11)]
    size: usize,
    /// The swap rule (swap-pieces): true or false.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    swap: bool,
    /// The search algorithm.
    #[arg(long, value_enum, default_value_t = Algorithm::Rave)]
    algorithm: Algorithm,
    /// Do not write the search statistics to standard error after each move.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Args, Debug)]
struct SpeedArgs {
    /// Board sizes, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "11,13")]
    sizes: Vec<usize>,
    #[command(flatten)]
    search: SearchArgs,
}

fn gtp(args: &GtpArgs) -> Result<(), String> {
    let mut settings = args.search.settings(args.algorithm)?;
    if settings.simulations.is_none() && settings.time.is_none() {
        settings.time = Some(Duration::from_secs(1));
    }
    let game = Hex::new(args.size, args.swap).map_err(|e| e.to_string())?;
    let engine = engine(settings, args.search.seed).map_err(|e| e.to_string())?;
    gtp::session(game, engine)
        .with_search_log(!args.quiet)
        .run(io::stdin().lock(), io::stdout().lock())
        .map_err(|e| e.to_string())
}

fn speed(args: &SpeedArgs) -> Result<(), String> {
    let mut search = args.search;
    if search.simulations.is_none() && search.time_per_move.is_none() {
        search.time_per_move = Seconds::new(Duration::from_secs(2));
    }
    let mut rng = Pcg64Mcg::seed_from_u64(search.seed);
    let playout = if search.bridge_save {
        "bridge-save"
    } else {
        "uniform"
    };
    game_harness::outln!(
        "| size | playout | raw playouts/s | uct sims/s | rave sims/s | grave sims/s | threads |"
    );
    game_harness::outln!("|---|---|---|---|---|---|---|");
    for &size in &args.sizes {
        if game_harness::output::reader_gone() {
            break;
        }
        let start = HexGame::new(size, false).map_err(|e| e.to_string())?;
        let raw = raw_playout_rate(&start, &search, &mut rng)?;
        let mut row = format!("| {size}x{size} | {playout} | {:.0} k |", raw / 1000.0);
        for algorithm in [Algorithm::Uct, Algorithm::Rave, Algorithm::Grave] {
            let settings = search.settings(algorithm)?;
            let rate = search_rate(&start, settings, &mut rng).map_err(|e| e.to_string())?;
            row.push_str(&format!(" {:.0} k |", rate / 1000.0));
        }
        game_harness::outln!("{row} {} |", search.threads);
    }
    Ok(())
}

/// Raw playouts per second from `start`, for the same time as one search (2 s without one).
fn raw_playout_rate(
    start: &HexGame,
    search: &SearchArgs,
    rng: &mut Pcg64Mcg,
) -> Result<f64, String> {
    let mut policy = HexPlayout::new(search.bridge_save);
    let mut trace = Trace::new();
    let mut scratch = start.clone();
    let limit = search.time().unwrap_or(Duration::from_secs(2));
    let t = Instant::now();
    let mut playouts = 0u64;
    while t.elapsed() < limit {
        for _ in 0..100 {
            scratch.clone_from(start);
            trace.clear();
            policy.playout(&mut scratch, rng, usize::MAX, &mut trace);
        }
        playouts += 100;
    }
    Ok(playouts as f64 / t.elapsed().as_secs_f64())
}

/// Simulations per second of one search from `start`, without early stop so that it uses its
/// whole budget.
fn search_rate(start: &HexGame, s: Settings, rng: &mut Pcg64Mcg) -> Result<f64, MctsError> {
    let config = s.algorithm.config(s.threads, s.search)?;
    let config = config.to_builder().early_stop(false).build()?;
    let playout = HexPlayout::new(s.knowledge.bridge_save);
    let mut mcts = Mcts::with_policies(start.clone(), config, playout, s.knowledge.prior);
    Ok(mcts.search(&s.budget(None), rng)?.simulations_per_second)
}

impl Cli {
    /// Runs the subcommand and returns the exit status; errors are printed on stderr.
    pub fn run(&self) -> ExitCode {
        let outcome = match &self.command {
            Command::Gtp(args) => gtp(args),
            Command::Selfplay(args) => {
                return game_harness::program::exit_code("hex", selfplay::run(args));
            }
            Command::Speed(args) => speed(args),
            Command::SearchBench(args) => search_bench::run(args),
        };
        match outcome {
            Ok(()) => game_harness::output::exit_status(ExitCode::SUCCESS),
            Err(message) => {
                eprintln!("hex: {message}");
                ExitCode::FAILURE
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_parses() {
        let cli =
            Cli::try_parse_from(["hex", "selfplay", "--size", "5", "--player-a", "grave"]).unwrap();
        assert!(matches!(cli.command, Command::Selfplay(a)
            if a.matches.size == Some(5) && a.matches.player_a == Some("grave".parse().unwrap())));
        let cli = Cli::try_parse_from(["hex", "gtp", "--time-per-move", "0.25"]).unwrap();
        let Command::Gtp(gtp) = cli.command else {
            panic!("not gtp")
        };
        assert_eq!(gtp.search.time(), Some(Duration::from_millis(250)));
        let err = Cli::try_parse_from(["hex", "gtp", "--time-per-move=-1"]).unwrap_err();
        assert!(err.to_string().contains("\"-1\""), "{err}");
        assert!(Cli::try_parse_from(["hex"]).is_err());
    }
}
