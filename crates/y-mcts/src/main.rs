//! `y`: a GTP engine and self-play matches for the game of Y, all from `game-harness`.

use std::io;
use std::num::NonZeroU64;
use std::process::ExitCode;
use std::str::FromStr;

use clap::{Parser, Subcommand};
use game_harness::cli::PlayerSpec;
use game_harness::cli::{MatchArgs, Seconds};
use game_harness::gtp::GtpSession;
use game_harness::program::{ProgramError, exit_code, selfplay};
use y_mcts::Y;
use y_mcts::search_player;
use y_mcts::selfplay::YMatch;

/// The game of Y: a GTP engine and self-play matches.
#[derive(Parser)]
#[command(name = "y", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// A GTP engine on standard input and output.
    Gtp {
        /// Board size at start (`boardsize` changes it).
        #[arg(long, default_value_t = 10)]
        size: usize,
        /// Seconds a move when the controller sets no time.
        #[arg(long, value_name = "SECONDS")]
        time_per_move: Option<Seconds>,
        /// Simulations a move when no time is set at all.
        #[arg(long, default_value_t = NonZeroU64::new(20_000).unwrap_or(NonZeroU64::MIN))]
        simulations: NonZeroU64,
    },
    /// A match between two players (`rave`, `uct` or `gtp:COMMAND`), paired openings, each
    /// played once with each colour.
    Selfplay(Box<MatchArgs>),
}

fn gtp(size: usize, time_per_move: Option<Seconds>, simulations: NonZeroU64) -> Result<(), String> {
    let game = Y::new(size).map_err(|e| e.to_string())?;
    let agent = search_player(
        &PlayerSpec::from_str("rave").map_err(|e| e.to_string())?,
        simulations.get(),
    )?;
    GtpSession::new(game, Box::new(agent))
        .with_name("y-mcts")
        .with_time_per_move(time_per_move.map(Seconds::duration))
        .run(io::stdin().lock(), io::stdout().lock())
        .map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Gtp {
            size,
            time_per_move,
            simulations,
        } => gtp(size, time_per_move, simulations).map_err(ProgramError::Usage),
        Command::Selfplay(args) => selfplay(&YMatch, &args),
    };
    exit_code("y", outcome)
}
