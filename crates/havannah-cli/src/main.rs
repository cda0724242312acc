//! The `havannah` program: `havannah gtp`, `havannah selfplay`, `havannah replay` and
//! `havannah clock-check` (`havannah --help` lists them, `havannah selfplay --help` the
//! options of one).

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::Cli;

fn main() -> ExitCode {
    Cli::parse().run()
}
