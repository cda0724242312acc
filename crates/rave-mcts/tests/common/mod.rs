//! Small games with known values, shared by the tests, examples and benches of `rave-mcts`:
//! tic-tac-toe, a subtraction game (Nim with one pile), Hex on small boards (the game of
//! `examples/small_hex/game.rs`, with an exact solver here) and a synthetic game that costs almost
//! nothing to play.
#![allow(dead_code)]

use std::collections::HashMap;

use rand::Rng;
use rave_mcts::{Game, Player, Playout, PlayoutResult, Rewards, Trace};

// ---------------------------------------------------------------- tic-tac-toe

/// Tic-tac-toe: cells 0..9 row by row; player 0 (X) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    /// 0 empty, 1 player 0, 2 player 1.
    pub cells: [u8; 9],
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    /// A position from a 9-character string of `X`, `O` and `.`.
    pub fn from_str(s: &str) -> Self {
        let mut t = TicTacToe::default();
        for (i, ch) in s.chars().filter(|c| !c.is_whitespace()).enumerate() {
            t.cells[i] = match ch {
                'X' | 'x' => 1,
                'O' | 'o' => 2,
                _ => 0,
            };
        }
        t
    }

    fn winner(&self) -> Option<Player> {
        for l in LINES {
            let a = self.cells[l[0]];
            if a != 0 && a == self.cells[l[1]] && a == self.cells[l[2]] {
                return Some(usize::from(a) - 1);
            }
        }
        None
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn to_move(&self) -> Player {
        let filled = self.cells.iter().filter(|&&c| c != 0).count();
        filled % 2
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        if self.winner().is_some() {
            return;
        }
        moves.extend((0..9u8).filter(|&i| self.cells[usize::from(i)] == 0));
    }

    fn play(&mut self, mv: u8) {
        let p = self.to_move() as u8 + 1;
        self.cells[usize::from(mv)] = p;
    }

    fn result(&self) -> Option<Rewards> {
        if let Some(w) = self.winner() {
            return Some(Rewards::win(w));
        }
        if self.cells.iter().all(|&c| c != 0) {
            return Some(Rewards::DRAW);
        }
        None
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_bound(&self) -> usize {
        9
    }
}

/// Exact value of a tic-tac-toe position for the player to move: 1 win, 0.5 draw, 0 loss.
pub fn ttt_value(t: &TicTacToe, memo: &mut HashMap<TicTacToe, f32>) -> f32 {
    if let Some(&v) = memo.get(t) {
        return v;
    }
    let v = if let Some(o) = t.result() {
        o.reward(t.to_move())
    } else {
        let mut moves = Vec::new();
        t.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut c = *t;
                c.play(m);
                1.0 - ttt_value(&c, memo)
            })
            .fold(0.0, f32::max)
    };
    memo.insert(*t, v);
    v
}

// ---------------------------------------------------------------- subtraction game

/// One pile of `stones`; a move takes 1, 2 or 3; who takes the last stone wins. The player to
/// move loses exactly when `stones % 4 == 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    /// Stones left.
    pub stones: u32,
    /// Player to move.
    pub player: Player,
}

impl Game for Nim {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.player
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.extend((1..=3u8).filter(|&k| u32::from(k) <= self.stones));
    }

    fn play(&mut self, mv: u8) {
        self.stones -= u32::from(mv);
        self.player = 1 - self.player;
    }

    fn result(&self) -> Option<Rewards> {
        // The player who took the last stone (the one not to move) wins.
        (self.stones == 0).then(|| Rewards::win(1 - self.player))
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv) - 1
    }

    fn move_bound(&self) -> usize {
        3
    }
}

// ---------------------------------------------------------------- Hex

/// Hex, with its fast playout, is the worked example `examples/small_hex`; the tests, the benches
/// and the other examples play that same code.
#[path = "../../examples/small_hex/game.rs"]
mod hex;

pub use hex::{Hex, HexPlayout};

/// Exact Hex solver (negamax with a transposition table): whether the player to move wins.
pub struct HexSolver {
    memo: HashMap<Vec<u8>, bool>,
}

impl HexSolver {
    /// An empty solver.
    pub fn new() -> Self {
        HexSolver {
            memo: HashMap::new(),
        }
    }

    /// Whether the player to move in `h` wins with perfect play.
    pub fn wins(&mut self, h: &Hex) -> bool {
        if let Some(w) = h.winner() {
            return w == h.to_move();
        }
        let key: Vec<u8> = h.cells[..h.size()].to_vec();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut v = false;
        for c in 0..h.size() as u8 {
            if h.is_empty(usize::from(c)) {
                let mut next = *h;
                next.play(c);
                if !self.wins(&next) {
                    v = true;
                    break;
                }
            }
        }
        self.memo.insert(key, v);
        v
    }

    /// The winning moves of the player to move (empty if the position is lost).
    pub fn winning_moves(&mut self, h: &Hex) -> Vec<u8> {
        (0..h.size() as u8)
            .filter(|&c| {
                h.is_empty(usize::from(c)) && {
                    let mut next = *h;
                    next.play(c);
                    !self.wins(&next)
                }
            })
            .collect()
    }
}

impl Default for HexSolver {
    fn default() -> Self {
        Self::new()
    }
}

// ---------------------------------------------------------------- synthetic game

/// A synthetic game that costs almost nothing: `width` moves per turn (indices `0..width`),
/// the game ends after `depth` plies and the winner is a hash of the moves played. Used to
/// measure the search's own overhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Synthetic {
    /// Moves per turn.
    pub width: u16,
    /// Plies per game.
    pub depth: u16,
    /// Plies played.
    pub ply: u16,
    /// Hash of the moves so far.
    pub hash: u64,
}

impl Synthetic {
    /// A new game.
    pub fn new(width: u16, depth: u16) -> Self {
        Synthetic {
            width,
            depth,
            ply: 0,
            hash: 0x9E37_79B9_7F4A_7C15,
        }
    }
}

impl Game for Synthetic {
    type Move = u16;

    fn to_move(&self) -> Player {
        usize::from(self.ply & 1)
    }

    fn legal_moves(&self, moves: &mut Vec<u16>) {
        if self.ply < self.depth {
            moves.extend(0..self.width);
        }
    }

    fn play(&mut self, mv: u16) {
        self.hash = (self.hash ^ u64::from(mv)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.hash ^= self.hash >> 31;
        self.ply += 1;
    }

    fn result(&self) -> Option<Rewards> {
        (self.ply >= self.depth).then(|| Rewards::win((self.hash >> 40) as usize & 1))
    }

    fn move_index(&self, mv: u16) -> usize {
        usize::from(mv)
    }

    fn move_bound(&self) -> usize {
        usize::from(self.width)
    }
}

/// The playout of [`Synthetic`]: uniform moves, no buffer.
#[derive(Clone, Copy, Debug, Default)]
pub struct SyntheticPlayout;

impl Playout<Synthetic> for SyntheticPlayout {
    fn playout<R: Rng + ?Sized>(
        &mut self,
        game: &mut Synthetic,
        rng: &mut R,
        max_moves: usize,
        trace: &mut Trace<u16>,
    ) -> PlayoutResult {
        let mut length = 0;
        while game.ply < game.depth {
            if length >= max_moves {
                return PlayoutResult::stopped(Rewards::DRAW, length);
            }
            let mv = ((u64::from(rng.next_u32()) * u64::from(game.width)) >> 32) as u16;
            trace.push(game.to_move(), mv);
            game.play(mv);
            length += 1;
        }
        PlayoutResult::finished(game.result().unwrap_or(Rewards::DRAW), length)
    }
}

// ---------------------------------------------------------------- matches

/// Plays `games` games of Hex of side `n` between two configurations with `simulations` per
/// move, alternating colours (config `a` moves first in even games), each side reusing its
/// tree. Returns the number of games `a` won.
pub fn hex_match(
    n: usize,
    a: &rave_mcts::Config,
    b: &rave_mcts::Config,
    games: usize,
    simulations: u64,
    seed: u64,
) -> usize {
    use rand::SeedableRng;
    use rave_mcts::{Budget, Mcts};
    let mut a_wins = 0;
    for g in 0..games {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed.wrapping_add(g as u64));
        let a_side = g % 2;
        let mut players = [
            Mcts::with_playout(Hex::new(n), a.clone(), HexPlayout::default()),
            Mcts::with_playout(Hex::new(n), b.clone(), HexPlayout::default()),
        ];
        let mut h = Hex::new(n);
        while h.result().is_none() {
            let who = usize::from(h.to_move() != a_side);
            let r = players[who]
                .search(&Budget::simulations(simulations), &mut rng)
                .expect("search");
            h.play(r.best_move);
            for p in &mut players {
                p.advance(r.best_move).expect("legal");
            }
        }
        if h.winner() == Some(a_side) {
            a_wins += 1;
        }
    }
    a_wins
}
