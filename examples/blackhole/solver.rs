//! The exact end-game solver: the minimax value of Red's score by null-window searches
//! ("does Red reach at least `t`?"), a transposition table of score bounds, the pruned move list
//! and the dead-cell declarations, and a deadline it never overruns by more than a few
//! thousand nodes.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::{CELLS, Cell, NEIGHBOURS};
use crate::rules::{Move, Position, RED, declared, reasonable_moves};

const TABLE_BITS: u32 = 20;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Red's exact score is in `lo..=hi` (valid when `key` matches and `hi >= lo`).
    lo: i16,
    hi: i16,
    /// The move that decided the last search here, as `index + 1` (0: none).
    best: u16,
}

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move for the player to move.
    pub best: Move,
    /// Red's final score under best play.
    pub red_score: i16,
    /// Nodes searched.
    pub nodes: u64,
}

/// An exact Blackhole end-game solver with a transposition table (16 MiB).
pub struct Solver {
    table: Vec<Entry>,
    zobrist: Vec<[u64; 32]>,
    buffers: Vec<Vec<(i32, Move)>>,
    moves: Vec<Move>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Default for Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Self {
        let mut rng = Pcg64Mcg::seed_from_u64(0x0b1a_c400_1e5e_ed00);
        let zobrist = (0..CELLS)
            .map(|_| {
                let mut z = [0u64; 32];
                for k in &mut z {
                    *k = rng.next_u64();
                }
                z
            })
            .collect();
        Solver {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            zobrist,
            buffers: (0..32).map(|_| Vec::with_capacity(512)).collect(),
            moves: Vec::with_capacity(512),
            nodes: 0,
            deadline: None,
            aborted: false,
        }
    }

    fn key_of(&self, pos: &Position) -> u64 {
        let mut h = 0;
        let blocked = pos.blocked();
        for c in Cell::all() {
            if blocked & (1 << c.index()) != 0 {
                h ^= self.zobrist[c.index()][31];
            } else if let Some((p, v)) = pos.stone(c) {
                h ^= self.zobrist[c.index()][stone_slot(p, v)];
            }
        }
        h
    }

    /// Solves `pos` exactly, or gives up at `deadline` (`None`: no limit) and returns `None`.
    /// The game must not be over.
    pub fn solve(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<Solution> {
        if pos.is_over() {
            return None;
        }
        self.deadline = deadline;
        self.aborted = false;
        self.nodes = 0;
        let key = self.key_of(pos);
        let (mut lo, mut hi) = (0i16, 150i16);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            let r = self.red_reaches(pos, key, mid, 0);
            if self.aborted {
                return None;
            }
            if r {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let value = lo;
        // The best move: for Red one that reaches `value`, for Blue one that keeps Red below
        // `value + 1`.
        let red = pos.mover() == RED;
        let target = if red { value } else { value + 1 };
        self.moves.clear();
        reasonable_moves(pos, &mut self.moves);
        let moves = self.moves.clone();
        let mut best = moves[0];
        for mv in moves {
            let mut child = *pos;
            child.play(mv);
            let r = self.red_reaches(&child, key ^ self.move_key(pos, mv), target, 1);
            if self.aborted {
                return None;
            }
            if r == red {
                best = mv;
                break;
            }
        }
        Some(Solution {
            best,
            red_score: value,
            nodes: self.nodes,
        })
    }

    #[inline]
    fn move_key(&self, pos: &Position, mv: Move) -> u64 {
        self.zobrist[mv.cell.index()][stone_slot(pos.mover(), mv.value)]
    }

    /// Whether Red's final score is at least `t` under best play from `pos`.
    fn red_reaches(&mut self, pos: &Position, key: u64, t: i16, depth: usize) -> bool {
        if let Some(win) = declared(pos, RED, t) {
            return win;
        }
        self.nodes += 1;
        if self.nodes & 255 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.aborted = true;
            return false;
        }
        let slot = (key as usize) & ((1 << TABLE_BITS) - 1);
        let entry = self.table[slot];
        let mut hint = 0u16;
        if entry.key == key {
            if entry.lo >= t {
                return true;
            }
            if entry.hi < t {
                return false;
            }
            hint = entry.best;
        }
        let red = pos.mover() == RED;
        let mut buf = std::mem::take(&mut self.buffers[depth]);
        order_moves(pos, hint, &mut self.moves, &mut buf);
        let mut result = !red;
        let mut decided = 0u16;
        for &(_, mv) in &buf {
            let mut child = *pos;
            child.play(mv);
            let r = self.red_reaches(&child, key ^ self.move_key(pos, mv), t, depth + 1);
            if self.aborted {
                self.buffers[depth] = buf;
                return false;
            }
            if r == red {
                result = r;
                decided = mv.index() as u16 + 1;
                break;
            }
        }
        self.buffers[depth] = buf;
        let e = &mut self.table[slot];
        if e.key != key {
            *e = Entry {
                key,
                lo: 0,
                hi: 150,
                best: 0,
            };
        }
        if result {
            e.lo = e.lo.max(t);
        } else {
            e.hi = e.hi.min(t - 1);
        }
        if decided != 0 {
            e.best = decided;
        }
        result
    }
}

#[inline]
fn stone_slot(player: usize, value: u8) -> usize {
    if player == RED {
        15 + usize::from(value)
    } else {
        15 - usize::from(value)
    }
}

/// Fills `out` with the reasonable moves, the table's move first, then fills of cells that are
/// bad holes for the mover, then valuable stones on open cells.
fn order_moves(pos: &Position, hint: u16, scratch: &mut Vec<Move>, out: &mut Vec<(i32, Move)>) {
    scratch.clear();
    reasonable_moves(pos, scratch);
    out.clear();
    let mover = pos.mover();
    let sign: i32 = if mover == RED { 1 } else { -1 };
    let lowest = pos.lowest_stone(mover);
    let empty = pos.empty();
    for &mv in scratch.iter() {
        let key = if hint != 0 && mv.index() as u16 + 1 == hint {
            i32::MAX
        } else {
            let d = sign * i32::from(pos.delta(mv.cell));
            let e = (NEIGHBOURS[mv.cell.index()] & empty).count_ones() as i32;
            let fill = if mv.value == lowest {
                (-d).max(0) * 4
            } else {
                0
            };
            fill + e * i32::from(mv.value)
        };
        out.push((key, mv));
    }
    out.sort_unstable_by_key(|a| std::cmp::Reverse(a.0));
}

/// Red's final score under best play by plain minimax over every legal move (no pruning, no
/// table): the reference the solver is tested against. Exponential: small endings only.
#[cfg(test)]
pub fn brute_force(pos: &Position) -> i16 {
    if let Some(s) = pos.red_score() {
        return s;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let red = pos.mover() == RED;
    let mut best = if red { i16::MIN } else { i16::MAX };
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = brute_force(&child);
        best = if red { best.max(v) } else { best.min(v) };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::lottery_move;
    use proptest::prelude::*;

    fn ending(seed: u64, empty: u32) -> Position {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut cells: Vec<Cell> = Cell::all().collect();
        // Five distinct blocked cells from the seed.
        for i in 0..5 {
            let j = i + (rng.next_u64() as usize) % (cells.len() - i);
            cells.swap(i, j);
        }
        let mut p = Position::new(&cells[..5]).unwrap();
        while p.empty().count_ones() > empty {
            let mv = lottery_move(&p, &mut rng);
            p.play(mv);
        }
        p
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn solver_matches_brute_force_on_small_endings(seed in any::<u64>(), empty in 2u32..=6) {
            let p = ending(seed, empty);
            let mut solver = Solver::new();
            let s = solver.solve(&p, None).unwrap();
            let exact = brute_force(&p);
            prop_assert_eq!(s.red_score, exact, "{:?}", p);
            // The move it gives reaches that value.
            let mut child = p;
            child.try_play(s.best).unwrap();
            prop_assert_eq!(brute_force(&child), exact);
        }
    }

    #[test]
    fn solver_agrees_with_brute_force_on_seven_empty_cells() {
        let mut solver = Solver::new();
        for seed in 0..3 {
            let p = ending(1000 + seed, 7);
            let s = solver.solve(&p, None).unwrap();
            assert_eq!(s.red_score, brute_force(&p), "{p:?}");
        }
    }

    #[test]
    fn an_expired_deadline_gives_up() {
        let p = ending(5, 25);
        let mut solver = Solver::new();
        let past = Instant::now();
        assert_eq!(solver.solve(&p, Some(past)), None);
    }
}
