//! One Blackhole game as the referee keeps it: the blocked cells, the position and the moves,
//! as a [`MatchGame`] of the harness's match runner.

use game_harness::matches::PlayerId;
use game_harness::record::GameRecord;
use game_harness::{MatchGame, Side, Verdict};

use crate::board::Cell;
use crate::error::BlackholeError;
use crate::rules::{DRAW_SCORE, Move, Position};

/// The most a player can score: a forfeit's winner gets it, the offender 0.
pub const MAX_SCORE: i16 = 2 * DRAW_SCORE;

/// A game of Blackhole from its blocked cells: Red opens ([`Side::First`]), Blue answers
/// ([`Side::Second`]); the game is over after the 30th move, won by the side that scores above
/// 75 or drawn at 75. Moves are named in the CodeCup notation (`A3=6`).
///
/// ```
/// use blackhole::referee::BlackholeGame;
/// use blackhole::referee::random_blocked;
/// use game_harness::{MatchGame, Side};
/// use rand::SeedableRng;
///
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let mut game = BlackholeGame::new(&random_blocked(&mut rng))?;
/// let free = blackhole::board::Cell::all()
///     .find(|c| !game.blocked().contains(c))
///     .unwrap();
/// let mv = game.parse_move(&format!("{free}=15"))?;
/// game.try_play(mv)?;
/// assert_eq!(game.side_to_move(), Side::Second);
/// assert!(game.try_play(mv).is_err()); // the cell is taken
/// assert_eq!(game.verdict(), None);
/// # Ok::<(), blackhole::error::BlackholeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlackholeGame {
    blocked: Vec<Cell>,
    position: Position,
    moves: Vec<Move>,
}

impl BlackholeGame {
    /// The start of a game on these blocked cells.
    ///
    /// # Errors
    /// [`BlackholeError::BadBlocked`] unless `blocked` holds five distinct cells.
    pub fn new(blocked: &[Cell]) -> Result<BlackholeGame, BlackholeError> {
        Ok(BlackholeGame {
            blocked: blocked.to_vec(),
            position: Position::new(blocked)?,
            moves: Vec::new(),
        })
    }

    /// The blocked cells, in the order the programs are told them.
    #[must_use]
    pub fn blocked(&self) -> &[Cell] {
        &self.blocked
    }

    /// The position after the moves played.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Red's final score `75 + R - B`; `None` while the game goes on.
    #[must_use]
    pub fn red_score(&self) -> Option<i16> {
        self.position.red_score()
    }
}

impl MatchGame for BlackholeGame {
    type Move = Move;
    type Error = BlackholeError;

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn try_play(&mut self, mv: Move) -> Result<(), BlackholeError> {
        self.position.try_play(mv)?;
        self.moves.push(mv);
        Ok(())
    }

    fn verdict(&self) -> Option<Verdict> {
        let red = self.red_score()?;
        Some(match red.cmp(&DRAW_SCORE) {
            std::cmp::Ordering::Greater => Verdict::Win(Side::First),
            std::cmp::Ordering::Equal => Verdict::Draw,
            std::cmp::Ordering::Less => Verdict::Win(Side::Second),
        })
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, BlackholeError> {
        text.parse()
    }
}

/// `player`'s score in a finished game: [`MAX_SCORE`] for a forfeit by the opponent, 0 for
/// one by `player`, else the board's score of the colour `player` played (Red moves first).
#[must_use]
pub fn score_of(record: &GameRecord<BlackholeGame>, player: PlayerId) -> i16 {
    if let Some(forfeit) = &record.forfeit {
        return if forfeit.player == player {
            0
        } else {
            MAX_SCORE
        };
    }
    // A game without a forfeit ran to its end; a record cut short scores as a draw.
    let red = record.game.red_score().unwrap_or(DRAW_SCORE);
    match record.side_of(player) {
        Side::First => red,
        Side::Second => MAX_SCORE - red,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GAME_MOVES;
    use game_harness::Forfeit;
    use std::time::Duration;

    /// A game played to its end by always putting the lowest stone on the first empty cell.
    fn full_game() -> BlackholeGame {
        let blocked: Vec<Cell> = (0..5).map(Cell).collect();
        let mut game = BlackholeGame::new(&blocked).unwrap();
        while game.verdict().is_none() {
            let p = game.position().mover();
            let cell = Cell::all()
                .find(|&c| game.position().empty() & (1 << c.index()) != 0)
                .unwrap();
            let mv = Move::new(cell, game.position().lowest_stone(p));
            MatchGame::try_play(&mut game, mv).unwrap();
        }
        game
    }

    fn record(game: BlackholeGame, first_player: PlayerId) -> GameRecord<BlackholeGame> {
        GameRecord {
            index: 0,
            first_player,
            game,
            winner: None,
            verdict: Verdict::Draw,
            forfeit: None,
            time: [Duration::ZERO; 2],
            moves_chosen: [0; 2],
            longest_move: [Duration::ZERO; 2],
            simulations: [0; 2],
            search_time: [Duration::ZERO; 2],
        }
    }

    #[test]
    fn the_verdict_follows_reds_score() {
        let game = full_game();
        assert_eq!(game.moves().len(), usize::from(GAME_MOVES));
        let red = game.red_score().unwrap();
        let expected = if red > 75 {
            Verdict::Win(Side::First)
        } else if red < 75 {
            Verdict::Win(Side::Second)
        } else {
            Verdict::Draw
        };
        assert_eq!(game.verdict(), Some(expected));
        // A played Blue here: it scores Blue's points.
        let r = record(game, PlayerId::B);
        assert_eq!(score_of(&r, PlayerId::B), red);
        assert_eq!(score_of(&r, PlayerId::A), 150 - red);
    }

    #[test]
    fn a_forfeit_scores_nothing_for_the_offender_and_everything_for_the_other() {
        let mut r = record(
            BlackholeGame::new(&[Cell(0), Cell(1), Cell(2), Cell(3), Cell(4)]).unwrap(),
            PlayerId::A,
        );
        r.forfeit = Some(Forfeit {
            player: PlayerId::A,
            chosen: None,
            reason: "ran out of time".to_string(),
        });
        assert_eq!(score_of(&r, PlayerId::A), 0);
        assert_eq!(score_of(&r, PlayerId::B), 150);
    }

    #[test]
    fn names_are_the_codecup_notation_and_bad_ones_are_named() {
        let game = BlackholeGame::new(&[Cell(0), Cell(1), Cell(2), Cell(3), Cell(4)]).unwrap();
        let mv = game.parse_move("C2=7").unwrap();
        assert_eq!(game.move_name(mv), "C2=7");
        let err = game.parse_move("C2=16").unwrap_err();
        assert!(err.to_string().contains("16"), "{err}");
        let mut taken = game.clone();
        let blocked = Move::new(Cell(0), 1);
        let err = MatchGame::try_play(&mut taken, blocked).unwrap_err();
        assert!(err.to_string().contains(&Cell(0).to_string()), "{err}");
        assert_eq!(taken, game);
        assert!(BlackholeGame::new(&[Cell(0), Cell(0)]).is_err());
    }
}
