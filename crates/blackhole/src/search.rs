//! Blackhole as a [`rave_mcts::Game`] with a target score, and the lottery playout policy.
//!
//! A search for target `alpha` is a win/loss game: `player` wins when its final score is at
//! least `alpha`. The dead-cell declaration ([`declared`]), or near the end the solver's static
//! bounds ([`static_verdict`](crate::solver::static_verdict)), end a simulation early, and the
//! move list is pruned by [`reasonable_moves`](crate::rules::reasonable_moves).
//!
//! The parts: `game` (the target game and its results: a target, the score, or a win, a
//! draw or a loss), `playout` (the playout and its policies), `policies` (the playout moves:
//! the lotteries, the greedy moves and uniform ones) and `prior` (the greedy prior of the
//! tree's moves); this module holds the target verdicts they share.

mod game;
mod playout;
mod policies;
mod prior;

use crate::rules::{DRAW_SCORE, Position, declared};
use crate::solver::static_verdicts;
pub use game::{AlphaGame, Reward};
pub use playout::{LotteryPlayout, PlayoutPolicy};
pub use policies::{
    ansell_move, greedy_alpha_move, greedy_lottery_move, greedy_move, lottery_move, stone_for,
    uniform_move,
};
pub use prior::GreedyPrior;

/// How far the target `alpha` is from the line between a draw and a win: 0 for 75 and 76, 1
/// for 74 and 77, and so on. The same for either player: reaching `alpha` is the opponent
/// missing `151 - alpha`.
pub fn target_distance(alpha: i16) -> u32 {
    let above = i32::from(alpha) - i32::from(DRAW_SCORE + 1);
    if above >= 0 { above } else { -above - 1 }.unsigned_abs()
}

/// The empty cells from which lazy playouts ask the static bounds: 18 at a target next to a
/// draw, one more every two points of [`target_distance`], about where the bounds start to
/// decide (`docs/blackhole.md`, the example `playout_bounds`).
pub fn lazy_bounds_from(alpha: i16) -> u32 {
    18 + target_distance(alpha) / 2
}

/// Whether `player` reaches `alpha` when it is already decided: by the static bounds
/// ([`static_verdict`](crate::solver::static_verdict)) when `bounds` is set, else by the
/// dead-cell declaration ([`declared`]) alone. The one rule for the searches and for the
/// engine's targets.
pub fn target_verdict(pos: &Position, player: usize, alpha: i16, bounds: bool) -> Option<bool> {
    let [v] = target_verdicts(pos, player, [alpha], bounds);
    v
}

/// [`target_verdict`] for several targets at once (the static bounds are cheaper that way).
pub fn target_verdicts<const N: usize>(
    pos: &Position,
    player: usize,
    alphas: [i16; N],
    bounds: bool,
) -> [Option<bool>; N] {
    if bounds {
        static_verdicts(pos, player, alphas)
    } else {
        alphas.map(|alpha| declared(pos, player, alpha))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;
    use crate::rules::{BLUE, Move, RED};
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    pub(super) fn start() -> Position {
        let blocked = ["B2", "C5", "E1", "F3", "A8"].map(|c| Cell::parse(c).unwrap());
        Position::new(&blocked).unwrap()
    }

    #[test]
    fn declared_results_agree_with_the_end_of_the_game() {
        // Whenever the dead cells declare a result, every continuation ends that way.
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut checked = 0;
        for _ in 0..300 {
            let mut p = start();
            while !p.is_over() {
                let mv = lottery_move(&p, &mut rng);
                p.play(mv);
                let alpha = 70 + (rng.random_range(0..12u8) as i16);
                for player in [RED, BLUE] {
                    if let Some(win) = declared(&p, player, alpha) {
                        if p.is_over() {
                            continue;
                        }
                        checked += 1;
                        let winner = if win { player } else { 1 - player };
                        for _ in 0..10 {
                            let mut q = p;
                            while !q.is_over() {
                                // Random continuations, but the declared winner keeps off its
                                // good dead cells whenever it can (the declared strategy).
                                let mut moves = Vec::new();
                                q.legal_moves(&mut moves);
                                let keep: Vec<Move> = moves
                                    .iter()
                                    .copied()
                                    .filter(|m| {
                                        q.mover() != winner
                                            || q.dead_cells() & (1 << m.cell.index()) == 0
                                            || (q.hole_score(m.cell, player) >= alpha) != win
                                    })
                                    .collect();
                                let pool = if keep.is_empty() { &moves } else { &keep };
                                let m = pool[rng.random_range(0..pool.len())];
                                q.play(m);
                            }
                            assert_eq!(q.score(player).unwrap() >= alpha, win, "{p:?}");
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} declarations");
    }
}
