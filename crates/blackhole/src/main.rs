//! The `blackhole` program: the CodeCup 2018 Blackhole player (the default), `blackhole random`,
//! `blackhole referee` and `blackhole solver-bench` (`blackhole --help` lists them). The code
//! is [`blackhole::cli`].

use std::process::ExitCode;

use blackhole::cli::Cli;
use clap::Parser;

fn main() -> ExitCode {
    Cli::parse().run()
}
