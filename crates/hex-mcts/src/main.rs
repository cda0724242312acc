//! The `hex` program: `hex gtp`, `hex selfplay` and `hex speed` (`hex --help` lists them,
//! `hex selfplay --help` the options of one). The code is [`hex_mcts::cli`].

use std::process::ExitCode;

use clap::Parser;
use hex_mcts::cli::Cli;

fn main() -> ExitCode {
    Cli::parse().run()
}
