//! Plays a match between two players and writes the games, the last position and a results table.
//!
//! The same program as `havannah selfplay` (`cargo install --path crates/havannah-cli`): this
//! example parses the same options and calls the same function,
//! [`havannah_cli::selfplay::run`], whose module documents the options.
//!
//! ```sh
//! cargo run --release --example selfplay -- --help
//! ```

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::selfplay::{Opts, run};

fn main() -> ExitCode {
    run(&Opts::parse())
}
