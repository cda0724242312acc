//! Trains a Havannah value network by self-play TD(lambda) and writes its learning curve.
//!
//! The same program as `havannah td-train` (`cargo install --path crates/havannah-cli`): this
//! example parses the same options and calls the same function, [`havannah_cli::td_train::run`],
//! whose module documents the evaluations and the output files.
//!
//! ```text
//! cargo run --release --example td_train -- --size 3 --games 40000
//! ```

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::td_train::{Opts, run};

fn main() -> ExitCode {
    run(&Opts::parse())
}
