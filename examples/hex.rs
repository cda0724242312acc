//! Hex on `rave-mcts`: the generic search crate reused for a second connection game.
//!
//! The same program as `hex` (`cargo install --path crates/hex-mcts`): this example runs the same
//! command line, [`hex_mcts::cli::Cli`].
//!
//! ```text
//! cargo run --release --example hex -- gtp [--size 11] [--time-per-move 1] [--algorithm grave]
//! cargo run --release --example hex -- selfplay --size 9 --games 40 --time-per-move 0.1 --player-a rave --player-b uct
//! cargo run --release --example hex -- speed --sizes 11,13 --time-per-move 3
//! cargo run --release --example hex -- search-bench
//! ```

use std::process::ExitCode;

use clap::Parser;
use hex_mcts::cli::Cli;

fn main() -> ExitCode {
    Cli::parse().run()
}
