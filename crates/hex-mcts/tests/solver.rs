//! An exact Hex solver for boards up to 4x4 (tests only), and the check that the search's move
//! from the empty board and from hand-made positions is a winning move by the solver.
//!
//! The solver is independent of the crate's game code: stones are two bit sets (one bit per
//! cell, `row * n + col`), neighbours come from the offsets written here again, wins are found
//! by a bit-set flood fill, and positions are memoised (the side to move follows from the stone
//! counts, play alternates from the empty board, no swap).

use std::collections::HashMap;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Mcts, Proof};

use hex_mcts::board::HexMove;
use hex_mcts::engine::Algorithm;
use hex_mcts::game::HexGame;
use hex_mcts::playout::HexPlayout;

struct Solver {
    n: usize,
    neighbours: Vec<u32>,
    top: u32,
    bottom: u32,
    left: u32,
    right: u32,
    memo: HashMap<u64, bool>,
}

impl Solver {
    fn new(n: usize) -> Solver {
        assert!((1..=5).contains(&n));
        let bit = |c: usize, r: usize| 1u32 << (r * n + c);
        let mut neighbours = vec![0u32; n * n];
        for r in 0..n {
            for c in 0..n {
                for (dc, dr) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let (cc, rr) = (c as i32 + dc, r as i32 + dr);
                    if (0..n as i32).contains(&cc) && (0..n as i32).contains(&rr) {
                        neighbours[r * n + c] |= bit(cc as usize, rr as usize);
                    }
                }
            }
        }
        let (mut top, mut bottom, mut left, mut right) = (0, 0, 0, 0);
        for i in 0..n {
            top |= bit(i, 0);
            bottom |= bit(i, n - 1);
            left |= bit(0, i);
            right |= bit(n - 1, i);
        }
        Solver {
            n,
            neighbours,
            top,
            bottom,
            left,
            right,
            memo: HashMap::new(),
        }
    }

    fn connected(&self, stones: u32, from: u32, to: u32) -> bool {
        let mut reached = stones & from;
        loop {
            if reached & to != 0 {
                return true;
            }
            let mut grown = reached;
            let mut rest = reached;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                grown |= self.neighbours[c] & stones;
            }
            if grown == reached {
                return false;
            }
            reached = grown;
        }
    }

    fn black_to_move(black: u32, white: u32) -> bool {
        black.count_ones() == white.count_ones()
    }

    /// Whether the side to move wins.
    fn wins(&mut self, black: u32, white: u32) -> bool {
        let key = (u64::from(black) << 32) | u64::from(white);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let full = (1u32 << (self.n * self.n)) - 1;
        let mut empty = full & !(black | white);
        let black_moves = Self::black_to_move(black, white);
        let mut result = false;
        while empty != 0 {
            let m = 1u32 << empty.trailing_zeros();
            empty &= empty - 1;
            if self.move_wins(black, white, m, black_moves) {
                result = true;
                break;
            }
        }
        self.memo.insert(key, result);
        result
    }

    /// Whether the side to move wins by playing the cell of bit `m`: it connects at once, or
    /// the opponent then has no winning continuation.
    fn move_wins(&mut self, black: u32, white: u32, m: u32, black_moves: bool) -> bool {
        let (b, w) = if black_moves {
            (black | m, white)
        } else {
            (black, white | m)
        };
        let won = if black_moves {
            self.connected(b, self.top, self.bottom)
        } else {
            self.connected(w, self.left, self.right)
        };
        won || !self.wins(b, w)
    }

    /// The winning moves of the side to move, as cells `(col, row)`.
    fn winning_moves(&mut self, black: u32, white: u32) -> Vec<(u8, u8)> {
        let n = self.n;
        let black_moves = Self::black_to_move(black, white);
        let mut out = Vec::new();
        for cell in 0..n * n {
            let m = 1u32 << cell;
            if (black | white) & m != 0 {
                continue;
            }
            if self.move_wins(black, white, m, black_moves) {
                out.push(((cell % n) as u8, (cell / n) as u8));
            }
        }
        out
    }

    /// Reads alternating moves (Black first) into bit sets.
    fn position(&self, moves: &str) -> (u32, u32) {
        let (mut b, mut w) = (0, 0);
        for (i, text) in moves.split_whitespace().enumerate() {
            let (c, r) = HexMove::parse(text).unwrap().coords().unwrap();
            let bit = 1u32 << (usize::from(r) * self.n + usize::from(c));
            if i % 2 == 0 {
                b |= bit;
            } else {
                w |= bit;
            }
        }
        (b, w)
    }
}

fn names(cells: &[(u8, u8)]) -> Vec<String> {
    cells
        .iter()
        .map(|&(c, r)| HexMove::cell(c, r).to_string())
        .collect()
}

#[test]
fn solver_knows_the_smallest_boards() {
    let mut s = Solver::new(1);
    assert_eq!(names(&s.winning_moves(0, 0)), ["a1"]);
    // 2x2: only the obtuse corners b1 and a2 win for Black (worked out by hand: after a1 or
    // b2 White blocks the single path and connects).
    let mut s = Solver::new(2);
    assert_eq!(names(&s.winning_moves(0, 0)), ["b1", "a2"]);
    // 3x3: the centre wins (the classic first-player win); the set is symmetric under the
    // half turn (col, row) -> (2 - col, 2 - row), and not every cell wins.
    let mut s = Solver::new(3);
    let w = s.winning_moves(0, 0);
    assert!(w.contains(&(1, 1)));
    assert!(w.len() < 9);
    for &(c, r) in &w {
        assert!(w.contains(&(2 - c, 2 - r)));
    }
    // 4x4: exactly the short diagonal wins (d1, c2, b3, a4), as the solved-openings tables
    // of the Hex literature show.
    let mut s = Solver::new(4);
    assert_eq!(names(&s.winning_moves(0, 0)), ["d1", "c2", "b3", "a4"]);
    // The empty board is a first-player win (strategy stealing) on every size.
    for n in 1..=4 {
        assert!(Solver::new(n).wins(0, 0), "{n}x{n}");
    }
}

/// Searches `moves` (alternating from the empty board, no swap) and checks that the move
/// chosen is one of the solver's winning moves, for every algorithm.
fn search_agrees(n: usize, moves: &str, simulations: u64) {
    let mut solver = Solver::new(n);
    let (b, w) = solver.position(moves);
    let winning = solver.winning_moves(b, w);
    let empties = n * n - (b | w).count_ones() as usize;
    assert!(
        !winning.is_empty() && winning.len() < empties,
        "position `{moves}` must have winning and losing moves: {:?}",
        names(&winning)
    );
    let mut game = HexGame::new(n, false).unwrap();
    for text in moves.split_whitespace() {
        game.try_play(HexMove::parse(text).unwrap()).unwrap();
    }
    for algorithm in [Algorithm::Uct, Algorithm::Rave, Algorithm::Grave] {
        for bridge in [false, true] {
            let config = algorithm.config(1, Default::default()).unwrap();
            let mut mcts = Mcts::with_playout(game.clone(), config, HexPlayout::new(bridge));
            let mut rng = Pcg64Mcg::seed_from_u64(17);
            let r = mcts
                .search(&Budget::simulations(simulations), &mut rng)
                .unwrap();
            let chosen = r.best_move.coords().unwrap();
            assert!(
                winning.contains(&chosen),
                "{n}x{n} `{moves}` {algorithm:?} bridge {bridge}: chose {} not in {:?}",
                r.best_move,
                names(&winning)
            );
            assert_ne!(r.proven, Some(Proof::Loss));
        }
    }
}

#[test]
fn search_finds_winning_first_moves_on_empty_boards() {
    search_agrees(2, "", 2_000);
    search_agrees(3, "", 20_000);
    search_agrees(4, "", 60_000);
}

#[test]
fn search_agrees_with_the_solver_on_hand_made_positions() {
    // 3x3: Black opened in the acute corner a1; White to move wins only with the centre.
    search_agrees(3, "a1", 20_000);
    // 3x3: Black a3, White b2; Black to move (c1, a2, c2 win).
    search_agrees(3, "a3 b2", 20_000);
    // 4x4: Black d1, White b3; only c3 wins for Black.
    search_agrees(4, "d1 b3", 60_000);
    // 4x4: Black b3, White c2; Black to move (d1, a2, b2, d2 win).
    search_agrees(4, "b3 c2", 60_000);
    // 4x4: White to move after c2 b3 b2 (c3 and c4 win).
    search_agrees(4, "c2 b3 b2", 60_000);
    // 4x4: White to move after b3 c2 c3 (b1 and b2 win).
    search_agrees(4, "b3 c2 c3", 60_000);
}
