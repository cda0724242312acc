//! Havannah as a [`game_harness::MatchGame`], so the harness's match runner, records and GTP
//! front end referee it.

use game_harness::{MatchGame, Side, Verdict};

use crate::{Colour, GameState, Move, Outcome, RulesError};

impl GameState {
    /// Whether the second move was `swap`, so the side that opened the game plays Black.
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.moves().get(1) == Some(&Move::Swap)
    }

    /// The side that owns the stones of `colour`: White is the side that opened the game,
    /// unless the other side took its stone with `swap`.
    #[must_use]
    pub fn side_of(&self, colour: Colour) -> Side {
        let white = if self.swapped() {
            Side::Second
        } else {
            Side::First
        };
        if colour == Colour::White {
            white
        } else {
            white.other()
        }
    }
}

impl MatchGame for GameState {
    type Move = Move;
    type Error = RulesError;

    fn moves(&self) -> &[Move] {
        GameState::moves(self)
    }

    fn play(&mut self, mv: Move) -> Result<(), RulesError> {
        GameState::play(self, mv).map(|_| ())
    }

    fn verdict(&self) -> Option<Verdict> {
        match self.outcome() {
            Outcome::Ongoing => None,
            Outcome::Draw => Some(Verdict::Draw),
            Outcome::Win { winner, .. } => Some(Verdict::Win(self.side_of(*winner))),
        }
    }

    fn move_name(&self, mv: Move) -> String {
        mv.to_notation(self.board())
    }

    fn parse_move(&self, text: &str) -> Result<Move, RulesError> {
        Move::parse(self.board(), text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn a_swap_gives_white_to_the_second_side() {
        let mut game = GameState::new(4, Rules { pie: true }).unwrap();
        let d4 = game.parse_move("d4").unwrap();
        MatchGame::play(&mut game, d4).unwrap();
        assert_eq!(game.side_of(Colour::White), Side::First);
        let swap = game.parse_move("swap").unwrap();
        MatchGame::play(&mut game, swap).unwrap();
        assert!(game.swapped());
        assert_eq!(game.side_of(Colour::White), Side::Second);
        assert_eq!(game.side_to_move(), Side::First);
        assert_eq!(game.verdict(), None);
        assert!(game.parse_move("z99").is_err());
    }
}
