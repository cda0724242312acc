//! Reproduces the playout-speed table of Könnecke & Waldmann (table 1) with this workspace's
//! code, then measures full MCTS simulations per second.
//!
//! ```sh
//! cargo run --release --example playout_table                # sizes 4 6 8 10
//! cargo run --release --example playout_table -- --sizes 8 --seconds 0.5 --seed 3
//! ```
//!
//! Rows (microseconds per playout, averaged over many playouts from the empty board):
//! 1. random full playout, no win check (stones only);
//! 2. random full playout with bridge/fork checking (union-find on every move);
//! 3. random full playout with bridge/fork/ring checking (plus the incremental ring finder);
//! 4. weighted full playout (every empty cell weight 1, the centre 8; after the move of ply n
//!    its empty neighbours get weight n³ when that is more) with b/f/r;
//! 5. weighted playout until the first bridge/fork, then one off-line pass that finds both
//!    colours' earliest rings (the earliest figure wins);
//! 6. the engine's knowledge playout (`PlayoutConfig::strong()`: decisive, anti-decisive and
//!    bridge-saving moves, otherwise uniform; on-line rings; stops at the first win), not in
//!    the paper.
//!
//! "Full" playouts fill the whole board (checking every move as the row says), as the paper
//! times them; rows 5 and 6 stop at the first win. The weights of rows 4 and 5 are kept in a
//! [`BlockSampler`] (O(1) changes), which draws exactly as the paper's sum tree.

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Parser;

use havannah::{EngineConfig, HMove, HavannahGame, HavannahPlayout, PlayoutConfig};
use havannah_board::{Board, Cell};
use havannah_rules::{Position, RingDetection, RingFinder};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Mcts, Playout, Trace};
use weighted_sampler::BlockSampler;

/// The paper's milliseconds per playout (Könnecke & Waldmann, table 1; sizes 4, 6, 8, 10 and
/// rows 1 to 5). Row 6 is not in the paper.
fn paper_ms(size: u8, row: usize) -> Option<f64> {
    const TABLE: [[f64; 4]; 5] = [
        [0.035, 0.049, 0.098, 0.167],
        [0.15, 0.37, 0.67, 1.15],
        [0.41, 1.00, 1.9, 3.2],
        [0.56, 1.38, 2.6, 4.5],
        [0.24, 0.53, 0.98, 1.6],
    ];
    let column = match size {
        4 => 0,
        6 => 1,
        8 => 2,
        10 => 3,
        _ => return None,
    };
    TABLE.get(row.checked_sub(1)?).map(|r| r[column])
}

/// Reproduces the playout-speed table of Könnecke & Waldmann (table 1), then measures MCTS
/// simulations per second.
#[derive(Parser, Debug)]
#[command(
    name = "playout_table",
    version,
    about = "Reproduces the playout-speed table of Koennecke & Waldmann (table 1) and measures MCTS simulations per second"
)]
struct Args {
    /// Board sizes (cells per side), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,6,8,10", value_parser = board_size)]
    sizes: Vec<u8>,
    /// Seconds of timing per row and size.
    #[arg(long, default_value_t = 1.0, value_parser = positive_seconds)]
    seconds: f64,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn board_size(text: &str) -> Result<u8, String> {
    let size: u8 = text
        .trim()
        .parse()
        .map_err(|_| format!("bad size {text:?}"))?;
    Board::new(size).map_err(|e| e.to_string())?;
    Ok(size)
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    text.parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0)
        .ok_or(format!("bad --seconds {text:?}: a positive number"))
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

struct Bench {
    board: &'static Board,
    rng: Pcg64Mcg,
    empties: Vec<u16>,
    stones: Vec<u8>,
    online: Position,
    offline: Position,
    pos: Position,
    base: BlockSampler,
    sampler: BlockSampler,
    finder: RingFinder,
    start: HavannahGame,
    game: HavannahGame,
    knowledge: HavannahPlayout,
    trace: Trace<HMove>,
}

impl Bench {
    fn new(board: &'static Board, seed: u64) -> Bench {
        let n = board.num_cells();
        let centre = board.centre().index();
        let base = BlockSampler::from_weights((0..n).map(|i| if i == centre { 8 } else { 1 }))
            .expect("small weights");
        Bench {
            board,
            rng: Pcg64Mcg::seed_from_u64(seed),
            empties: Vec::with_capacity(n),
            stones: vec![0; n],
            online: Position::new(board, RingDetection::Online),
            offline: Position::new(board, RingDetection::Offline),
            pos: Position::new(board, RingDetection::Online),
            sampler: base.clone(),
            base,
            finder: RingFinder::new(),
            start: HavannahGame::new(board, false),
            game: HavannahGame::new(board, false),
            knowledge: HavannahPlayout::new(PlayoutConfig::strong()),
            trace: Trace::new(),
        }
    }

    fn reset_empties(&mut self) {
        self.empties.clear();
        self.empties.extend(0..self.board.num_cells() as u16);
    }

    fn pick(&mut self) -> Cell {
        let k = self.rng.random_range(0..self.empties.len());
        Cell::from_index(usize::from(self.empties.swap_remove(k)))
    }

    /// Row 1: random stones until the board is full.
    fn no_check(&mut self) -> usize {
        self.reset_empties();
        let mut colour = 1u8;
        while !self.empties.is_empty() {
            let c = self.pick();
            self.stones[c.index()] = colour;
            colour ^= 3;
        }
        usize::from(self.stones[0])
    }

    /// Rows 2 and 3: a random full playout on a position with or without ring checks.
    fn full(&mut self, rings: bool) -> usize {
        self.reset_empties();
        let start = if rings { &self.online } else { &self.offline };
        self.pos.clone_from(start);
        while !self.empties.is_empty() {
            let c = self.pick();
            self.pos.place(c);
        }
        self.pos.win().map_or(0, |w| usize::from(w.ply))
    }

    fn weighted_move(&mut self) -> Option<Cell> {
        let k = self.sampler.sample(&mut self.rng)?;
        let _ = self.sampler.set(k, 0);
        let cell = Cell::from_index(k);
        let ply = self.pos.plies() as u64 + 1;
        let w = ply * ply * ply;
        // Taken cells have weight 0 and keep it.
        for &nb in self.board.neighbours(cell) {
            let _ = self.sampler.raise(nb.index(), w);
        }
        Some(cell)
    }

    /// Row 4: weighted full playout with bridge/fork/ring checks.
    fn weighted_full(&mut self) -> usize {
        self.pos.clone_from(&self.online);
        self.sampler.clone_from(&self.base);
        while let Some(c) = self.weighted_move() {
            self.pos.place(c);
        }
        self.pos.win().map_or(0, |w| usize::from(w.ply))
    }

    /// Row 5: weighted playout until a bridge/fork win, then rings off-line.
    fn weighted_until_win(&mut self) -> usize {
        self.pos.clone_from(&self.offline);
        self.sampler.clone_from(&self.base);
        while self.pos.win().is_none() {
            match self.weighted_move() {
                Some(c) => {
                    self.pos.place(c);
                }
                None => break,
            }
        }
        let mut best = self.pos.win().map_or(u16::MAX, |w| w.ply);
        for ring in self.finder.earliest_rings(&self.pos).into_iter().flatten() {
            best = best.min(ring.ply);
        }
        usize::from(best)
    }

    /// Row 6: the engine's knowledge playout from the empty board, until the first win.
    fn knowledge(&mut self) -> usize {
        self.game.clone_from(&self.start);
        self.trace.clear();
        let r = self
            .knowledge
            .playout(&mut self.game, &mut self.rng, usize::MAX, &mut self.trace);
        r.length
    }
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

fn main() {
    let args = Args::parse();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rows = [
        "random full playout, no win check",
        "random full playout, bridge/fork check",
        "random full playout, bridge/fork/ring check",
        "weighted full playout, b/f/r check",
        "weighted playout until b/f win, rings off-line",
        "knowledge playout (engine's strong), on-line",
    ];
    println!(
        "Playout speed (µs per playout; the paper's ms; speed-up), {} s per cell, seed {}",
        args.seconds, args.seed
    );
    println!(
        "{:<48} {:>6} {:>12} {:>10} {:>10}",
        "row", "size", "µs", "paper ms", "speed-up"
    );
    let mut results = Vec::new();
    for &size in &args.sizes {
        let board = Board::new(size).expect("checked size");
        let mut b = Bench::new(board, args.seed);
        let s = args.seconds;
        let us = [
            time_it(s, || b.no_check()),
            time_it(s, || b.full(false)),
            time_it(s, || b.full(true)),
            time_it(s, || b.weighted_full()),
            time_it(s, || b.weighted_until_win()),
            time_it(s, || b.knowledge()),
        ];
        for (row, (&name, &t)) in rows.iter().zip(us.iter()).enumerate() {
            let paper = paper_ms(size, row + 1);
            let (p, x) = match paper {
                Some(ms) => (format!("{ms:.2}"), format!("{:.0}x", ms * 1000.0 / t)),
                None => ("-".to_string(), "-".to_string()),
            };
            println!("{:<48} {:>6} {:>12.2} {:>10} {:>10}", name, size, t, p, x);
        }
        results.push((size, board));
    }
    println!();
    println!(
        "MCTS (the engine's best settings: UCT-RAVE, expansion after 8 visits, uniform playouts, \
         on-line rings) from the empty board, {} s each:",
        args.seconds
    );
    println!(
        "{:>6} {:>16} {:>22}",
        "size",
        "1 thread sims/s",
        format!("{threads} threads sims/s")
    );
    for (size, board) in results {
        let one = mcts_rate(board, 1, args.seconds, args.seed);
        let all = mcts_rate(board, threads, args.seconds, args.seed);
        println!("{:>6} {:>16.0} {:>22.0}", size, one, all);
    }
}
