//! The greedy prior: a progressive bias of the tree's moves towards those the greedy playout
//! favours.

use rave_mcts::{Prior, PriorValue};

use super::AlphaGame;
use crate::board::NEIGHBOURS;
use crate::rules::{GAME_MOVES, Move, Position, RED};

/// A progressive bias towards the moves the greedy playout favours
/// ([`greedy_move`](crate::search::greedy_move)): each move's bias is `bias` times a quality in
/// `[0, 1]` that blends, as the greedy playout's chance of spreading falls over the game,
/// *spreading* (the cell's share of six empty neighbours times the stone's share of the most
/// valuable one held) and *filling* (how bad the cell is for the mover as the hole, up to 30
/// points). Grouped trees get none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GreedyPrior {
    /// The bias of a move of quality 1, in `[0, MAX_BIAS]` (0: no prior).
    pub bias: f32,
}

impl GreedyPrior {
    /// The largest bias `rave_mcts` keeps ([`PriorValue::bias`]).
    pub const MAX_BIAS: f32 = 2.55;

    /// The quality of `mv` in `pos` (see [`GreedyPrior`]).
    fn quality(pos: &Position, mv: Move) -> f32 {
        let mover = pos.mover();
        let sign: i32 = if mover == RED { 1 } else { -1 };
        let open = (NEIGHBOURS[mv.cell.index()] & pos.empty()).count_ones() as f32;
        let stone = f32::from(mv.value) / f32::from(pos.highest_stone(mover));
        let bad = (-sign * i32::from(pos.delta(mv.cell))).clamp(0, 30) as f32;
        let spread = 1.0 - pos.moves_played() as f32 / f32::from(GAME_MOVES);
        spread * open / 6.0 * stone + (1.0 - spread) * bad / 30.0
    }
}

impl Prior<AlphaGame> for GreedyPrior {
    fn priors(&self, game: &AlphaGame, moves: &[Move], out: &mut [PriorValue]) {
        if game.grouped {
            return;
        }
        for (mv, p) in moves.iter().zip(out) {
            p.bias = self.bias * Self::quality(&game.pos, *mv);
        }
    }

    fn is_active(&self) -> bool {
        self.bias > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::super::greedy_move;
    use super::super::tests::start;
    use super::*;
    use crate::board::Cell;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// The greedy prior's bias of each move, by move.
    fn biases(game: &AlphaGame, bias: f32) -> Vec<(Move, f32)> {
        let mut moves = Vec::new();
        game.pos.legal_moves(&mut moves);
        let mut out = vec![PriorValue::default(); moves.len()];
        GreedyPrior { bias }.priors(game, &moves, &mut out);
        moves.into_iter().zip(out.iter().map(|p| p.bias)).collect()
    }

    #[test]
    fn the_greedy_prior_spreads_big_stones_early_and_fills_bad_holes_late() {
        let cell = |c: &str| Cell::parse(c).unwrap();
        let bias_of = |b: &[(Move, f32)], c: &str, v: u8| {
            b.iter()
                .find(|(m, _)| *m == Move::new(cell(c), v))
                .unwrap()
                .1
        };
        // First move: the 15 on an open interior cell (six empty neighbours) gets the whole
        // bias; the 1 there, or the 15 on a corner (two), much less.
        let b = biases(&AlphaGame::new(start(), RED, 76), 1.0);
        assert!((bias_of(&b, "B4", 15) - 1.0).abs() < 1e-6);
        assert!(bias_of(&b, "B4", 1) < 0.1);
        assert!(bias_of(&b, "A1", 15) < 0.4);
        assert!(b.iter().all(|(_, x)| (0.0..=1.0).contains(x)));
        // Late: a hole bad for the mover is worth filling, one good for it is not.
        let mut rng = Pcg64Mcg::seed_from_u64(8);
        let mut p = start();
        while p.moves_played() < 22 {
            p.try_play(greedy_move(&p, &mut rng)).unwrap();
        }
        let game = AlphaGame::new(p, p.mover(), 76);
        let sign = if p.mover() == RED { 1 } else { -1 };
        // The same stone on both cells, so that only the fill term tells them apart.
        let lowest = p.lowest_stone(p.mover());
        let b: Vec<_> = biases(&game, 1.0)
            .into_iter()
            .filter(|(m, _)| m.value == lowest)
            .collect();
        let badness = |m: &Move| -sign * i32::from(p.delta(m.cell));
        let worst = b.iter().max_by_key(|(m, _)| badness(m)).unwrap();
        let best = b.iter().min_by_key(|(m, _)| badness(m)).unwrap();
        assert!(badness(&worst.0) > badness(&best.0), "{p:?}");
        assert!(worst.1 > best.1, "{worst:?} {best:?} {p:?}");
        // No bias, no prior; grouped trees get none.
        assert!(!GreedyPrior { bias: 0.0 }.is_active());
        let grouped = AlphaGame::new(start(), RED, 76).with_grouping(true);
        assert!(biases(&grouped, 1.0).iter().all(|(_, x)| *x == 0.0));
    }
}
