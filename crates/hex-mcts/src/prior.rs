//! Hex's knowledge when the search expands a node: connection-kit's threat test. A cell that
//! wins at once proves the node won; one cell where the opponent would win at once is the only
//! move searched; two prove the node lost (one stone blocks one cell).

use connection_kit::threats;
use rave_mcts::{Game, Narrowing, Prior, PriorValue};

use crate::board::HexMove;
use crate::game::HexGame;

/// Hex's prior: the threats at expansion when `threats` is on; no virtual visits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HexPrior {
    /// Narrow new nodes by the threat test.
    pub threats: bool,
}

impl Prior<HexGame> for HexPrior {
    fn priors(&self, _game: &HexGame, _moves: &[HexMove], _out: &mut [PriorValue]) {}

    fn narrow(&self, game: &HexGame, moves: &mut Vec<HexMove>) -> Narrowing {
        // A win needs `size` stones of one colour; a side has at most half the moves, rounded
        // up, and one more to play.
        if !self.threats || game.plies().div_ceil(2) + 1 < game.size() {
            return Narrowing::Open;
        }
        threats(game, game.to_move()).narrow(moves, |cell| game.geometry().move_of(cell))
    }

    fn is_active(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

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
        let prior = HexPrior { threats: true };
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
