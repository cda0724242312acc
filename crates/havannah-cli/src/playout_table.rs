//! Reproduces the playout-speed table of Könnecke & Waldmann (table 1) with this workspace's
//! code, then measures full MCTS simulations per second.
//!
//! ```sh
//! havannah playout-table                                # sizes 4 6 8 10
//! havannah playout-table --sizes 8 --seconds 0.5 --seed 3
//! ```
//!
//! The rows (microseconds per playout, averaged over many playouts from the empty board) are
//! [`rows`], which the workspace's playout bench also runs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use std::process::ExitCode;

use clap::Parser;
use game_harness::cli::Seconds;
use game_harness::output::exit_status;

use havannah::{EngineConfig, HavannahGame, HavannahPlayout, PlayoutConfig};
use havannah_board::Board;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Mcts};

pub mod rows;
use rows::{Bench, ROWS, paper_ms};

/// Reproduces the playout-speed table of Könnecke & Waldmann (table 1), then measures MCTS
/// simulations per second.
#[derive(Parser, Debug)]
#[command(
    name = "playout_table",
    version,
    about = "Reproduces the playout-speed table of Koennecke & Waldmann (table 1) and measures MCTS simulations per second"
)]
pub struct Opts {
    /// Board sizes (cells per side), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,6,8,10", value_parser = board_size)]
    pub sizes: Vec<u8>,
    /// Seconds of timing per row and size.
    #[arg(long, default_value = "1")]
    pub seconds: Seconds,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn board_size(text: &str) -> Result<u8, String> {
    let size: u8 = text
        .trim()
        .parse()
        .map_err(|_| format!("bad size {text:?}"))?;
    Board::new(size).map_err(|e| e.to_string())?;
    Ok(size)
}

/// Runs `f` repeatedly for about `seconds`; returns microseconds per call.
fn time_it(seconds: f64, mut f: impl FnMut() -> usize) -> f64 {
    let mut calls = 0u64;
    let mut sink = 0usize;
    let start = Instant::now();
    let limit = Duration::from_secs_f64(seconds);
    while start.elapsed() < limit {
        for _ in 0..64 {
            sink = sink.wrapping_add(f());
        }
        calls += 64;
    }
    black_box(sink);
    start.elapsed().as_secs_f64() * 1e6 / calls as f64
}

fn mcts_rate(board: &'static Board, threads: usize, seconds: f64, seed: u64) -> f64 {
    // The engine's own search settings (`EngineConfig::best`), searching the whole time.
    let config = EngineConfig::best()
        .search
        .to_builder()
        .threads(threads)
        .early_stop(false)
        .build()
        .expect("valid config");
    let game = HavannahGame::new(board, false);
    let playout = HavannahPlayout::new(PlayoutConfig::default());
    let mut search = Mcts::with_playout(game, config, playout);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let budget = Budget::time(Duration::from_secs_f64(seconds)).with_nodes(20_000_000);
    match search.search(&budget, &mut rng) {
        Ok(result) => result.simulations_per_second,
        Err(e) => {
            eprintln!("search failed: {e}");
            0.0
        }
    }
}

/// Prints the playout table, then the MCTS rates; always succeeds.
pub fn run(args: &Opts) -> ExitCode {
    let boards = print_rows(args);
    game_harness::outln!();
    print_mcts_rates(&boards, args);
    exit_status(ExitCode::SUCCESS)
}

/// Times every row at every size and prints it beside the paper's figure; the boards timed.
fn print_rows(args: &Opts) -> Vec<&'static Board> {
    game_harness::outln!(
        "Playout speed (µs per playout; the paper's ms; speed-up), {} s per cell, seed {}",
        args.seconds.duration().as_secs_f64(),
        args.seed
    );
    game_harness::outln!(
        "{:<48} {:>6} {:>12} {:>10} {:>10}",
        "row",
        "size",
        "µs",
        "paper ms",
        "speed-up"
    );
    let mut boards = Vec::new();
    for &size in &args.sizes {
        if game_harness::output::reader_gone() {
            break;
        }
        let board = Board::new(size).expect("checked size");
        let mut b = Bench::new(board, args.seed);
        let s = args.seconds.duration().as_secs_f64();
        let us: Vec<f64> = (1..=ROWS.len())
            .map(|row| time_it(s, || b.run(row)))
            .collect();
        for (row, (&name, &t)) in ROWS.iter().zip(us.iter()).enumerate() {
            let paper = paper_ms(size, row + 1);
            let (p, x) = match paper {
                Some(ms) => (format!("{ms:.2}"), format!("{:.0}x", ms * 1000.0 / t)),
                None => ("-".to_string(), "-".to_string()),
            };
            game_harness::outln!("{:<48} {:>6} {:>12.2} {:>10} {:>10}", name, size, t, p, x);
        }
        boards.push(board);
    }
    boards
}

/// Prints the engine's simulations per second on each board, on one thread and on all.
fn print_mcts_rates(boards: &[&'static Board], args: &Opts) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    game_harness::outln!(
        "MCTS (the search settings of `best`: UCT-RAVE, a leaf expanded after {} visit(s); \
         uniform playouts, on-line rings, no prior) from the empty board, {} s each:",
        EngineConfig::best().search.expand_threshold(),
        args.seconds.duration().as_secs_f64()
    );
    game_harness::outln!(
        "{:>6} {:>16} {:>22}",
        "size",
        "1 thread sims/s",
        format!("{threads} threads sims/s")
    );
    for &board in boards {
        let one = mcts_rate(board, 1, args.seconds.duration().as_secs_f64(), args.seed);
        let all = mcts_rate(
            board,
            threads,
            args.seconds.duration().as_secs_f64(),
            args.seed,
        );
        game_harness::outln!("{:>6} {:>16.0} {:>22.0}", board.size(), one, all);
    }
}
