//! The `havannah` program: `havannah gtp`, `havannah selfplay`, `havannah replay`,
//! `havannah clock-check`, `havannah playout-table`, `havannah search-bench`,
//! `havannah openings`, `havannah pattern-train` and `havannah td-train` (`havannah --help` lists them,
//! `havannah selfplay --help` the options of one).

use std::process::ExitCode;

use clap::Parser;
use havannah_cli::Cli;

fn main() -> ExitCode {
    Cli::parse().run()
}
