//! Hex for connection-kit's tree knowledge (`connection_kit::ConnectionPrior`): moves onto
//! cells, the last stone, and the ring around a cell, where the edges beyond the board count
//! as the player's on its own two sides.

use connection_kit::Placement;
use connection_kit::bridge::Ring;

use crate::board::{HexMove, OFF, ring_of};
use crate::game::HexGame;

impl Placement for HexGame {
    fn last_cell(&self) -> Option<usize> {
        HexGame::last_cell(self)
    }

    fn ring(&self, cell: usize) -> Ring {
        let stone = self.colour_to_move().stone();
        ring_of(self.stones(), self.geometry().neighbours(cell), stone)
    }

    fn neighbour(&self, cell: usize, direction: usize) -> Option<usize> {
        let s = self.geometry().neighbours(cell)[direction];
        (s < OFF).then_some(usize::from(s))
    }

    fn move_onto(&self, cell: usize) -> HexMove {
        self.geometry().move_of(cell)
    }

    fn cell_of(&self, mv: HexMove) -> Option<usize> {
        (!mv.is_swap()).then(|| self.geometry().index_unchecked(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connection_kit::ConnectionPrior;
    use rand::{RngExt, SeedableRng};
    use rave_mcts::{Game, Narrowing, Prior};

    /// Whether `player` wins at once on `cell`, by playing it on a copy.
    fn wins_by_playing(game: &HexGame, mv: HexMove) -> bool {
        let mut copy = game.clone();
        let player = copy.to_move();
        copy.play(mv);
        copy.result().and_then(|r| r.winner()) == Some(player)
    }

    /// The narrowing agrees with playing every cell: a win found is a win, none is missed,
    /// and a forced block is the opponent's only winning cell.
    #[test]
    fn narrowing_agrees_with_playing_every_cell() {
        let prior = ConnectionPrior {
            threats: true,
            ..ConnectionPrior::default()
        };
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let (mut wins, mut blocks) = (0, 0);
        for size in [3, 4, 5, 6] {
            for _ in 0..40 {
                let mut game = HexGame::new(size, false).unwrap();
                while game.result().is_none() {
                    let mut legal = Vec::new();
                    game.legal_moves(&mut legal);
                    let mut moves = legal.clone();
                    let narrowing = prior.narrow(&game, &mut moves);
                    let winning: Vec<HexMove> = legal
                        .iter()
                        .copied()
                        .filter(|&m| wins_by_playing(&game, m))
                        .collect();
                    let mut passed = game.clone();
                    passed.set_to_move(game.colour_to_move().other());
                    let theirs: Vec<HexMove> = legal
                        .iter()
                        .copied()
                        .filter(|&m| wins_by_playing(&passed, m))
                        .collect();
                    match narrowing {
                        Narrowing::Win => {
                            assert!(winning.contains(&moves[0]), "{moves:?}");
                            wins += 1;
                        }
                        _ if !winning.is_empty() => panic!("missed the win {winning:?}"),
                        Narrowing::Loss => assert!(theirs.len() >= 2, "{theirs:?}"),
                        Narrowing::Open if moves.len() == 1 && legal.len() > 1 => {
                            assert_eq!(theirs, moves, "the one block");
                            blocks += 1;
                        }
                        Narrowing::Open => assert!(theirs.is_empty(), "missed {theirs:?}"),
                    }
                    game.play(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(
            wins > 20 && blocks > 20,
            "{wins} wins, {blocks} blocks seen"
        );
    }
}
