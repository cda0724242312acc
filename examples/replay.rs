//! Replays game records and prints one line per game: `<result> <kinds> <plies>`.
//!
//! The same program as `havannah replay` (`cargo install --path crates/havannah-cli`): this
//! example parses the same options and calls the same function,
//! [`havannah_cli::replay::run`], whose module documents the options.
//!
//! ```sh
//! cargo run --release --example replay -- --help
//! ```

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::replay::{Opts, run};

fn main() -> ExitCode {
    run(&Opts::parse())
}
