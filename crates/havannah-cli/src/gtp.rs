//! A GTP engine for Havannah on standard input and output.
//!
//! ```sh
//! havannah gtp [--simulations N] [--time-per-move SECONDS] [--threads N] \
//!     [--size S] [--player random|engine] [--seed N] [--no-pie]
//! ```
//!
//! Point a GTP controller (HavannahGui, gogui-twogtp style tools) at `havannah gtp` (or the
//! `gtp` example's binary `target/release/examples/gtp`); see docs/gtp.md. Logs go to
//! standard error.

use std::io::{self, BufWriter};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use game_harness::cli::Seconds;
use havannah::gtp::{HavannahSession, session, set_rules};
use havannah::{Agent, Engine, RandomAgent};
use havannah_rules::{GameState, Rules};

use crate::players::{EngineOptions, ValueNetArgs, engine_config};

/// The kinds of player the engine can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PlayerKind {
    /// Uniformly random legal cells.
    Random,
    /// The MCTS engine.
    Engine,
}

/// Command-line options.
#[derive(Debug, Parser)]
#[command(
    name = "gtp",
    version,
    about = "A Havannah engine speaking GTP on standard input and output"
)]
pub struct Opts {
    /// Simulations per move (the engine's budget when no time is given).
    #[arg(long)]
    pub simulations: Option<u64>,
    /// A fixed time per move in seconds (the engine also respects the GTP clock; `--time` is
    /// an alias).
    #[arg(long = "time-per-move", alias = "time", value_name = "SECONDS")]
    pub time: Option<Seconds>,
    /// Search threads; without it the configuration's own (1 unless its parameters say
    /// `threads=N`, as in `--config best:threads=2`).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The board size to start with (a controller's `boardsize` changes it).
    #[arg(long, default_value_t = 8)]
    pub size: u8,
    /// Which player answers `genmove`.
    #[arg(long, value_enum, default_value_t = PlayerKind::Engine)]
    pub player: PlayerKind,
    /// The engine configuration ([`crate::config_spec::engine_help`]).
    #[arg(long, default_value = "best", help = crate::config_spec::engine_help())]
    pub config: String,
    /// A value network mixed into the engine's prior (for the board size played).
    #[command(flatten)]
    pub value_net: ValueNetArgs,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play without the pie rule (the `swap` move).
    #[arg(long)]
    pub no_pie: bool,
    /// Do not write the search statistics to standard error after each move.
    #[arg(long)]
    pub quiet: bool,
}

// ---------------------------------------------------------------------------------------------
// The player factory: extend this function when new players exist.
// ---------------------------------------------------------------------------------------------

/// Builds the player the options ask for, and says how many threads it searches with.
fn make_player(opts: &Opts) -> Result<(Box<dyn Agent<GameState>>, usize), String> {
    match opts.player {
        PlayerKind::Random => Ok((Box::new(RandomAgent::new(opts.seed)), 1)),
        PlayerKind::Engine => {
            let options = EngineOptions {
                threads: opts.threads,
                simulations: opts.simulations,
                value_net: opts.value_net.net(),
            };
            let config = engine_config(&opts.config, &options, opts.size)?;
            let threads = config.search.threads();
            Ok((Box::new(Engine::new(config, opts.seed)), threads))
        }
    }
}

/// The budget of a move in words, for the start-up line.
fn budget_text(simulations: Option<u64>, per_move: Option<Duration>) -> String {
    match (per_move, simulations) {
        (Some(t), _) => format!("{} s a move (or the GTP clock's share)", t.as_secs_f64()),
        (None, Some(n)) => format!("{n} simulations a move (or the GTP clock's share)"),
        (None, None) => "the configuration's simulations a move (or the GTP clock's share)".into(),
    }
}

/// Builds the player and the GTP session the options ask for, announcing them on standard
/// error.
fn make_session(opts: &Opts) -> Result<HavannahSession, String> {
    let (player, threads) = make_player(opts)?;
    let per_move = opts.time.map(Seconds::duration);
    eprintln!(
        "gtp: player {}, size {}, threads {}, {}",
        player.name(),
        opts.size,
        threads,
        budget_text(opts.simulations, per_move)
    );
    let mut session = session(player)
        .with_time_per_move(per_move)
        .with_search_log(!opts.quiet)
        .with_size(usize::from(opts.size))
        .map_err(|e| e.to_string())?;
    set_rules(&mut session, Rules { pie: !opts.no_pie });
    Ok(session)
}

/// Answers GTP commands on standard input until `quit` or its end; the exit status is 0, 1
/// when reading or writing fails and 2 for bad options.
pub fn run(opts: &Opts) -> ExitCode {
    let mut session = match make_session(opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gtp: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    if let Err(e) = session.run(stdin.lock(), BufWriter::new(stdout.lock())) {
        eprintln!("gtp: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
