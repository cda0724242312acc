//! Checks that a GTP engine keeps its clock under main time and byo-yomi.
//!
//! The same program as `havannah clock-check` (`cargo install --path crates/havannah-cli`): this
//! example parses the same options and calls the same function,
//! [`havannah_cli::clock_check::run`], whose module documents the options.
//!
//! ```sh
//! cargo run --release --example clock_check -- --help
//! ```

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::clock_check::{Opts, run};

fn main() -> ExitCode {
    run(&Opts::parse())
}
