//! Blackhole (CodeCup 2018) on `rave-mcts`: a player with EventHorizon's techniques (Ansell,
//! "EventHorizon: a Monte-Carlo Blackhole Player", 2019), a random player and a referee.
//!
//! The same program as `blackhole` (`cargo install --path crates/blackhole`): this example
//! runs the same command line, [`blackhole::cli::Cli`].
//!
//! ```text
//! cargo run --release --example blackhole                 # the player, CodeCup protocol
//! cargo run --release --example blackhole -- player -v    # the same, decisions on stderr
//! cargo run --release --example blackhole -- random       # a uniformly random player
//! cargo run --release --example blackhole -- referee -n 20 "CMD_A" "CMD_B"
//! ```

use std::process::ExitCode;

use blackhole::cli::Cli;
use clap::Parser;

fn main() -> ExitCode {
    Cli::parse().run()
}
