//! Hex on the shared harness: a game of Hex as a referee and GTP see it ([`Hex`]: the position,
//! the moves played and the colour that played each), implementing `game_harness::MatchGame`
//! and `game_harness::gtp::GtpGame`. The match runner, the shard files and the standard GTP
//! commands then work for Hex unchanged.
//!
//! Black is the first side and White the second, always: the swap rule (`swap-pieces`) moves
//! Black's stone to White, mirrored, and leaves the colours with the sides.

use std::ops::RangeInclusive;

use game_harness::gtp::{GtpColour, GtpGame, PlayError};
use game_harness::{MatchGame, Side, Verdict};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::{Colour, EMPTY, HexError, HexMove, MAX_SIZE};
use crate::game::HexGame;

/// A game of Hex: the position and the moves that led to it from the empty board, each with
/// the colour that played it (a GTP controller may play one colour twice in a row).
#[derive(Clone)]
pub struct Hex {
    position: HexGame,
    moves: Vec<HexMove>,
    colours: Vec<Colour>,
}

impl Hex {
    /// An empty board of `size` (1 to 19), Black to move, with or without the swap rule.
    ///
    /// # Errors
    /// [`HexError::BadSize`] for a size outside 1 to 19.
    pub fn new(size: usize, swap_rule: bool) -> Result<Hex, HexError> {
        Ok(Hex {
            position: HexGame::new(size, swap_rule)?,
            moves: Vec::new(),
            colours: Vec::new(),
        })
    }

    /// The position (what the search plays from).
    pub fn position(&self) -> &HexGame {
        &self.position
    }

    /// The colour that played each move, in order.
    pub fn colours(&self) -> &[Colour] {
        &self.colours
    }

    /// This game with `plies` random moves drawn from `seed` (fewer if the game ends).
    ///
    /// # Errors
    /// The position's refusal of a move (never for an empty cell).
    pub fn random_opening(&self, plies: usize, seed: u64) -> Result<Hex, HexError> {
        let mut game = self.clone();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for _ in 0..plies {
            let position = game.position();
            let empty: Vec<usize> = (0..position.stones().len())
                .filter(|&c| position.stones()[c] == EMPTY)
                .collect();
            if empty.is_empty() || game.verdict().is_some() {
                break;
            }
            let cell = empty[rng.random_range(0..empty.len())];
            game.try_play(position.geometry().move_of(cell))?;
        }
        Ok(game)
    }

    /// Plays `mv` for `colour`, who need not be the colour to move; the other colour moves
    /// next.
    ///
    /// # Errors
    /// The position's refusal ([`HexGame::try_play_as`]); the game is then unchanged.
    pub fn play_as(&mut self, colour: Colour, mv: HexMove) -> Result<(), HexError> {
        self.position.try_play_as(colour, mv)?;
        self.moves.push(mv);
        self.colours.push(colour);
        Ok(())
    }
}

/// The side a colour plays: Black moves first.
fn side_of(colour: Colour) -> Side {
    match colour {
        Colour::Black => Side::First,
        Colour::White => Side::Second,
    }
}

impl MatchGame for Hex {
    type Move = HexMove;
    type Error = HexError;

    fn moves(&self) -> &[HexMove] {
        &self.moves
    }

    /// The side of the colour to move (a colour that played out of turn shifts it from the
    /// ply parity).
    fn side_to_move(&self) -> Side {
        side_of(self.position.colour_to_move())
    }

    fn try_play(&mut self, mv: HexMove) -> Result<(), HexError> {
        self.play_as(self.position.colour_to_move(), mv)
    }

    fn verdict(&self) -> Option<Verdict> {
        self.position.winner().map(|w| Verdict::Win(side_of(w)))
    }

    fn move_name(&self, mv: HexMove) -> String {
        mv.to_string()
    }

    /// A cell of this board or `swap-pieces`.
    fn parse_move(&self, text: &str) -> Result<HexMove, HexError> {
        let mv = HexMove::parse(text)?;
        if !mv.is_swap() {
            self.position.geometry().index(mv)?;
        }
        Ok(mv)
    }
}

/// Hex's colour for a GTP colour.
fn colour(gtp: GtpColour) -> Colour {
    match gtp {
        GtpColour::Black => Colour::Black,
        GtpColour::White => Colour::White,
    }
}

impl GtpGame for Hex {
    fn size(&self) -> usize {
        self.position.size()
    }

    fn sizes(&self) -> RangeInclusive<usize> {
        1..=MAX_SIZE
    }

    fn with_size(&self, size: usize) -> Result<Hex, HexError> {
        Hex::new(size, self.position.swap_rule())
    }

    fn colour_of(&self, side: Side) -> GtpColour {
        match side {
            Side::First => GtpColour::Black,
            Side::Second => GtpColour::White,
        }
    }

    /// Replays every move but the last from the empty board, each by the colour that played
    /// it (the forest cannot split).
    fn undo(&mut self) -> Option<HexMove> {
        let last = *self.moves.last()?;
        let mut replay = self.with_size(self.size()).ok()?;
        let earlier = self.moves.len() - 1;
        for (&mv, &colour) in self.moves[..earlier].iter().zip(&self.colours) {
            replay.play_as(colour, mv).ok()?;
        }
        *self = replay;
        Some(last)
    }

    fn board_text(&self) -> String {
        format!("\n{}", self.position.render())
    }

    /// Half the empty cells, at least 8: the clock is shared out over them.
    fn moves_to_go(&self) -> u32 {
        let empty = self
            .position
            .stones()
            .iter()
            .filter(|&&s| s == EMPTY)
            .count();
        u32::try_from((empty / 2).max(8)).unwrap_or(u32::MAX)
    }

    /// Any colour may play (GTP's `play b a1` twice is a legal set-up).
    fn play_as(&mut self, gtp: GtpColour, mv: HexMove) -> Result<(), PlayError<HexError>> {
        Hex::play_as(self, colour(gtp), mv).map_err(PlayError::Illegal)
    }

    /// Gives the move to `gtp` (GTP's `genmove` for the colour not to move).
    fn turn_to(&mut self, gtp: GtpColour) -> bool {
        self.position.set_to_move(colour(gtp));
        true
    }

    fn check(&self, mv: HexMove) -> Result<(), HexError> {
        self.position.check(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str) -> HexMove {
        HexMove::parse(text).unwrap()
    }

    #[test]
    fn sides_are_colours_and_a_swap_keeps_them() {
        let mut game = Hex::new(5, true).unwrap();
        MatchGame::try_play(&mut game, cell("b1")).unwrap();
        assert_eq!(game.side_to_move(), Side::Second);
        let swap = game.parse_move("swap-pieces").unwrap();
        MatchGame::try_play(&mut game, swap).unwrap();
        assert_eq!(game.side_to_move(), Side::First);
        assert_eq!(game.colour_to_move(), GtpColour::Black);
        assert_eq!(game.moves(), [cell("b1"), HexMove::SWAP]);
        assert!(game.parse_move("f1").is_err() && game.parse_move("1a").is_err());
        assert_eq!(game.move_name(HexMove::SWAP), "swap-pieces");
    }

    #[test]
    fn a_win_is_the_verdict_of_its_colour_and_undo_replays() {
        // White a2 b2 c2 across row 2 of 3x3.
        let mut game = Hex::new(3, false).unwrap();
        for m in ["a1", "a2", "b1", "b2", "a3", "c2"] {
            MatchGame::try_play(&mut game, cell(m)).unwrap();
        }
        assert_eq!(game.verdict(), Some(Verdict::Win(Side::Second)));
        assert_eq!(game.final_score().as_deref(), Some("W+"));
        assert_eq!(GtpGame::undo(&mut game), Some(cell("c2")));
        assert_eq!(game.verdict(), None);
        assert_eq!(game.moves().len(), 5);
        assert_eq!(game.side_to_move(), Side::Second);
    }

    #[test]
    fn a_colour_may_play_twice_and_undo_keeps_who_played() {
        let mut game = Hex::new(4, true).unwrap();
        GtpGame::play_as(&mut game, GtpColour::Black, cell("a1")).unwrap();
        GtpGame::play_as(&mut game, GtpColour::Black, cell("b1")).unwrap();
        assert_eq!(game.colours(), [Colour::Black, Colour::Black]);
        assert_eq!(game.colour_to_move(), GtpColour::White);
        assert!(GtpGame::play_as(&mut game, GtpColour::White, cell("a1")).is_err());
        GtpGame::undo(&mut game).unwrap();
        assert_eq!(game.colours(), [Colour::Black]);
        assert_eq!(game.colour_to_move(), GtpColour::White);
        assert!(game.turn_to(GtpColour::Black));
        assert_eq!(game.side_to_move(), Side::First);
        assert_eq!(game.moves_to_go(), 8);
    }
}
