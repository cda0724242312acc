//! The `havannah` program's subcommands, one module each: [`gtp`] (a GTP engine), [`selfplay`]
//! (a match between two players), [`replay`] (game records replayed), [`clock_check`] (does
//! a GTP engine keep its clock?), [`playout_table`] (the paper's playout-speed table),
//! [`playout_stats`] (how a configuration's playouts end),
//! [`search_bench`] (the speed and fingerprint of seeded searches), [`openings`] (a suite
//! of balanced openings and the first-stone table of the pie rule), [`pattern_train`]
//! (pattern weights learned from game records), [`td_train`]
//! (self-play training of a value network) and [`serve`] (a web page to play and analyse).
//!
//! [`config_spec`] reads the engine configurations the subcommands take (`best`,
//! `best:bias=0.02,expand=4`, ...). Another GTP program plays as an agent through
//! [`game_harness::GtpAgent`] (`selfplay --player-b gtp:COMMAND`, `clock-check`).
//!
//! Each module has its options ([`clap::Args`], also a [`clap::Parser`] of its own) and a
//! `run` function that returns the exit status. The `havannah` binary dispatches [`Cli`]'s
//! subcommands to them; the workspace's examples of the same names are wrappers around the
//! same functions.
//!
//! ```
//! use clap::Parser;
//! use havannah_cli::{Cli, Command};
//!
//! let cli = Cli::try_parse_from(["havannah", "selfplay", "--games", "2"]).unwrap();
//! assert!(matches!(cli.command, Command::Selfplay(opts) if opts.matches.games.map(usize::from) == Some(2)));
//! ```

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod clock_check;
pub mod config_spec;
pub mod gtp;
pub mod match_files;
pub mod match_setup;
pub mod openings;
pub mod pattern_train;
pub mod players;
pub mod playout_stats;
pub mod playout_table;
pub mod replay;
pub mod search_bench;
pub mod selfplay;
pub mod serve;
pub mod td_train;

/// The command line that made a file, for its header comment: `havannah` and the arguments.
pub(crate) fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("havannah {}", args.join(" "))
}

/// The `havannah` program's command line.
#[derive(Debug, Parser)]
#[command(
    name = "havannah",
    version,
    about = "Havannah: a GTP engine, self-play matches, game replay, a clock check, the playout table, a search bench, balanced openings, pattern and TD training and a web page to play in the browser"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// A Havannah engine speaking GTP on standard input and output.
    Gtp(gtp::Opts),
    /// Plays a Havannah match between two players.
    Selfplay(Box<selfplay::Opts>),
    /// Replays Havannah game records and prints `<result> <kinds> <plies>` per game.
    Replay(replay::Opts),
    /// Checks that a GTP Havannah engine keeps its clock under main time and byo-yomi.
    #[command(name = "clock-check")]
    ClockCheck(clock_check::Opts),
    /// Reproduces the playout-speed table of Koennecke & Waldmann and measures MCTS speed.
    #[command(name = "playout-table")]
    PlayoutTable(playout_table::Opts),
    /// Runs seeded playouts of a configuration and prints how they end.
    #[command(name = "playout-stats")]
    PlayoutStats(playout_stats::Opts),
    /// Searches seeded positions for a fixed number of simulations: simulations/s and a fingerprint.
    #[command(name = "search-bench")]
    SearchBench(search_bench::Opts),
    /// Generates a suite of balanced openings, or the first-stone table of the pie rule.
    Openings(openings::Opts),
    /// Learns the weights of local patterns from game records.
    #[command(name = "pattern-train")]
    PatternTrain(pattern_train::Opts),
    /// Trains a Havannah value network by self-play TD(lambda).
    #[command(name = "td-train")]
    TdTrain(td_train::Opts),
    /// Serves a web page to play and analyse Havannah against the engine.
    Serve(serve::Opts),
}

impl Cli {
    /// Runs the subcommand and returns its exit status.
    pub fn run(&self) -> ExitCode {
        match &self.command {
            Command::Gtp(opts) => gtp::run(opts),
            Command::Selfplay(opts) => selfplay::run(opts),
            Command::Replay(opts) => replay::run(opts),
            Command::ClockCheck(opts) => clock_check::run(opts),
            Command::PlayoutTable(opts) => playout_table::run(opts),
            Command::PlayoutStats(opts) => playout_stats::run(opts),
            Command::SearchBench(opts) => search_bench::run(opts),
            Command::Openings(opts) => openings::run(opts),
            Command::PatternTrain(opts) => pattern_train::run(opts),
            Command::TdTrain(opts) => td_train::run(opts),
            Command::Serve(opts) => serve::run(opts),
        }
    }
}
