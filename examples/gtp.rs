//! A GTP engine for Havannah on standard input and output.
//!
//! The same program as `havannah gtp` (`cargo install --path crates/havannah-cli`): this
//! example parses the same options and calls the same function,
//! [`havannah_cli::gtp::run`], whose module documents the options.
//!
//! ```sh
//! cargo run --release --example gtp -- --help
//! ```

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::gtp::{Opts, run};

fn main() -> ExitCode {
    run(&Opts::parse())
}
