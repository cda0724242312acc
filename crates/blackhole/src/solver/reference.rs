//! What the solver is tested against: plain minimax and full-window alpha-beta over every
//! legal move, reproducible endings, and comparisons of two solvers' answers on them.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::Solver;
use crate::board::Cell;
use crate::rules::{Move, Position, RED};
use crate::search::lottery_move;

/// Red's final score under best play by plain minimax over every legal move (no pruning, no
/// table): the reference the solver is tested against. Exponential: small endings only.
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

/// Red's final score by full-window alpha-beta over every legal move (no table, no pruning
/// beyond alpha-beta, no static bounds): an independent reference for 8-9 empty cells.
pub fn alpha_beta(pos: &Position, mut alpha: i16, mut beta: i16) -> i16 {
    if let Some(s) = pos.red_score() {
        return s;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // The most valuable stones first, then the least valuable (cheap ordering).
    let lowest = pos.lowest_stone(pos.mover());
    moves.sort_by_key(|m| std::cmp::Reverse(if m.value == lowest { 100 } else { m.value }));
    let red = pos.mover() == RED;
    let mut best = if red { i16::MIN } else { i16::MAX };
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = alpha_beta(&child, alpha, beta);
        if red {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// A position with `empty` empty cells: five blocked cells drawn from `seed`, then lottery
/// moves.
pub(super) fn ending(seed: u64, empty: u32) -> Position {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut cells: Vec<Cell> = Cell::all().collect();
    // Five distinct blocked cells from the seed.
    for i in 0..5 {
        let j = i + (rng.next_u64() as usize) % (cells.len() - i);
        cells.swap(i, j);
    }
    let mut p = Position::new(&cells[..5]).unwrap();
    while p.empty_count() > empty {
        let mv = lottery_move(&p, &mut rng);
        p.play(mv);
    }
    p
}

/// Red's exact score after `mv`, by brute force.
pub(super) fn value_after(p: &Position, mv: Move) -> i16 {
    let mut child = *p;
    child.try_play(mv).unwrap();
    brute_force(&child)
}

/// Asserts that `with` and `without` give the same exact value on twelve endings of 10 to
/// 12 empty cells from `seeds`, each with cleared tables; says whether the two searched
/// a different number of nodes on any (so that what `with` adds was at work).
pub(super) fn same_exact_values(mut with: Solver, mut without: Solver, seeds: u64) -> bool {
    same_exact_values_over(&mut with, &mut without, seeds, 12, 10..=12)
}

/// Asserts that `with` and `without` find the same exact values on `count` endings from
/// `seeds`, their empty cells cycling through `sizes`; whether they searched differently.
pub(super) fn same_exact_values_over(
    with: &mut Solver,
    without: &mut Solver,
    seeds: u64,
    count: u64,
    sizes: std::ops::RangeInclusive<u32>,
) -> bool {
    let mut changed = false;
    let spread = u64::from(sizes.end() - sizes.start() + 1);
    for seed in 0..count {
        let p = ending(seeds + seed, sizes.start() + (seed % spread) as u32);
        with.clear();
        without.clear();
        let a = with.solve(&p, None).unwrap();
        let b = without.solve(&p, None).unwrap();
        assert_eq!(a.red_score, b.red_score, "{p:?}");
        changed |= a.nodes != b.nodes;
    }
    changed
}

/// Asserts that `with` and `without` give the same win answer on twelve endings of 12 to
/// 14 empty cells from `seeds`.
pub(super) fn same_win_answers(mut with: Solver, mut without: Solver, seeds: u64) {
    for seed in 0..12 {
        let p = ending(seeds + seed, 12 + (seed % 3) as u32);
        with.clear();
        without.clear();
        let a = with.mover_wins(&p, None).unwrap();
        let b = without.mover_wins(&p, None).unwrap();
        assert_eq!(a.0, b.0, "{p:?}");
    }
}

/// Whether `player` reaches `alpha` from `p` under best play (by brute force).
pub(super) fn reaches(p: &Position, player: usize, alpha: i16) -> bool {
    let red = brute_force(p);
    (if player == RED { red } else { 150 - red }) >= alpha
}
