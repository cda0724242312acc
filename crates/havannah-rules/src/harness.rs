//! Havannah as a [`game_harness::MatchGame`] and a [`game_harness::GtpGame`], so the
//! harness's match runner, records and GTP session referee it.

use std::ops::RangeInclusive;

use game_harness::{GtpColour, GtpGame, MatchGame, Side, Verdict};
use havannah_board::{MAX_SIZE, MIN_SIZE};

use crate::{Colour, GameState, Move, Outcome, RulesError};

impl GameState {
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

    fn try_play(&mut self, mv: Move) -> Result<(), RulesError> {
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

/// The GTP colour of a Havannah colour.
fn gtp_colour(colour: Colour) -> GtpColour {
    match colour {
        Colour::White => GtpColour::White,
        Colour::Black => GtpColour::Black,
    }
}

/// What `showboard` shows of the outcome.
fn state_text(game: &GameState) -> String {
    match game.outcome() {
        Outcome::Ongoing => format!("{} to move", game.to_move()),
        Outcome::Draw => "draw".to_string(),
        Outcome::Win { winner, kinds, .. } => format!("{winner} wins ({kinds})"),
    }
}

impl GtpGame for GameState {
    fn size(&self) -> usize {
        usize::from(self.board().size())
    }

    fn sizes(&self) -> RangeInclusive<usize> {
        usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)
    }

    fn with_size(&self, size: usize) -> Result<GameState, RulesError> {
        // No board is as large as 255, so a size beyond u8 is refused as 255 is.
        GameState::new(u8::try_from(size).unwrap_or(u8::MAX), self.rules())
    }

    fn colour_of(&self, side: Side) -> GtpColour {
        if self.side_of(Colour::White) == side {
            GtpColour::White
        } else {
            GtpColour::Black
        }
    }

    fn colour_to_move(&self) -> GtpColour {
        gtp_colour(self.to_move())
    }

    fn undo(&mut self) -> Option<Move> {
        GameState::undo(self).ok()
    }

    /// The board (`W`, `B`, `.`), then the number of moves, the last move, whose turn it is
    /// or how the game ended, and whether the pie rule is on.
    fn board_text(&self) -> String {
        let board = self.board().render(|c| match self.stone(c) {
            Some(Colour::White) => 'W',
            Some(Colour::Black) => 'B',
            None => '.',
        });
        let last = self
            .last_move()
            .map_or_else(|| "none".to_string(), |m| m.to_notation(self.board()));
        format!(
            "\n{board}moves {}, last {last}, {}, pie {}",
            self.moves().len(),
            state_text(self),
            if self.rules().pie { "on" } else { "off" }
        )
    }

    /// Half the empty cells, but Havannah games rarely fill the board, so at most
    /// `max(10, empty / 4)`, and at least 1.
    fn moves_to_go(&self) -> u32 {
        let empty = u32::try_from(self.board().num_cells() - self.position().num_stones())
            .unwrap_or(u32::MAX);
        let all = empty.div_ceil(2);
        all.min((empty / 4).max(10)).max(1)
    }

    fn check(&self, mv: Move) -> Result<(), RulesError> {
        GameState::check(self, mv)
    }

    /// `swap` places no stone and leaves Black to move, so a program without the pie rule
    /// that refuses it already has the right position.
    fn optional_move(&self, mv: Move) -> bool {
        mv == Move::Swap
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
        MatchGame::try_play(&mut game, d4).unwrap();
        assert_eq!(game.side_of(Colour::White), Side::First);
        let swap = game.parse_move("swap").unwrap();
        MatchGame::try_play(&mut game, swap).unwrap();
        assert!(game.swapped());
        assert_eq!(game.side_of(Colour::White), Side::Second);
        assert_eq!(game.side_to_move(), Side::First);
        assert_eq!(game.verdict(), None);
        assert!(game.parse_move("z99").is_err());
    }
}
