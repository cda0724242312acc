//! Reproduces the playout-speed table of Könnecke & Waldmann (table 1) with this workspace's
//! code, then measures full MCTS simulations per second.
//!
//! The same program as `havannah playout-table` (`cargo install --path crates/havannah-cli`):
//! this example parses the same options and calls the same function,
//! [`havannah_cli::playout_table::run`], whose module documents the rows.
//!
//! ```sh
//! cargo run --release --example playout_table                # sizes 4 6 8 10
//! cargo run --release --example playout_table -- --sizes 8 --seconds 0.5 --seed 3
//! ```

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::playout_table::{Opts, run};

fn main() -> ExitCode {
    run(&Opts::parse())
}
