//! The rows of Könnecke & Waldmann's playout-speed table (table 1) plus the engine's knowledge
//! playout: what `havannah playout-table` times and what the workspace's `benches/playouts.rs`
//! measures with criterion, one code for both.
//!
//! Rows (each call plays one playout from the empty board):
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

use havannah::{HavannahGame, HavannahPlayout, PlayoutConfig};
use havannah_board::{Board, Cell};
use havannah_rules::{Move, Position, RingDetection, RingFinder};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Playout, Trace};
use weighted_sampler::BlockSampler;

/// The rows' names, row 1 first.
pub const ROWS: [&str; 6] = [
    "random full playout, no win check",
    "random full playout, bridge/fork check",
    "random full playout, bridge/fork/ring check",
    "weighted full playout, b/f/r check",
    "weighted playout until b/f win, rings off-line",
    "knowledge playout (engine's strong), on-line",
];

/// The paper's milliseconds per playout (Könnecke & Waldmann, table 1; sizes 4, 6, 8, 10 and
/// rows 1 to 5). Row 6 is not in the paper.
pub fn paper_ms(size: u8, row: usize) -> Option<f64> {
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

/// The buffers of every row, reused from playout to playout.
pub struct Bench {
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
    trace: Trace<Move>,
}

impl Bench {
    /// The rows on `board`, drawing from a generator seeded with `seed`.
    pub fn new(board: &'static Board, seed: u64) -> Bench {
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

    /// A uniformly random empty cell, taken out of the list. (A `u32` range: the draw needs
    /// a 64-bit product only, not a 128-bit one.)
    fn pick(&mut self) -> Cell {
        let k = self.rng.random_range(0..self.empties.len() as u32) as usize;
        Cell::from_index(usize::from(self.empties.swap_remove(k)))
    }

    /// Plays one playout of row `row` (1 to 6); returns a number that depends on it (a
    /// move number or a length), for the caller to consume.
    pub fn run(&mut self, row: usize) -> usize {
        match row {
            1 => self.no_check(),
            2 => self.full(false),
            3 => self.full(true),
            4 => self.weighted_full(),
            5 => self.weighted_until_win(),
            _ => self.knowledge(),
        }
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
        let neighbours = self.board.neighbours(cell).iter().map(|nb| nb.index());
        let _ = self.sampler.raise_all(neighbours, w);
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
