//! What the standard GTP commands need of a game ([`GtpGame`]), and GTP's two colours
//! ([`GtpColour`]).
//!
//! A game that implements [`MatchGame`] and [`GtpGame`] gets a whole GTP engine from
//! [`GtpSession`](super::GtpSession) (`boardsize`, `clear_board`, `play`, `genmove`, `undo`,
//! `showboard`, `final_score`, the clock commands) and can be played as an external program
//! by [`GtpAgent`](crate::gtp_agent::GtpAgent).

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::agent::{MatchGame, Side, Verdict};
use crate::gtp::{ArgumentError, shorten};

/// A colour as GTP names it: `w` or `white`, `b` or `black`, in any case.
///
/// GTP knows only these two colours. Which side of the game plays which colour is the game's
/// business ([`GtpGame::colour_of`]): a swap (the pie rule) may change it during the game.
///
/// ```
/// use game_harness::gtp::GtpColour;
///
/// assert_eq!("W".parse(), Ok(GtpColour::White));
/// assert_eq!(GtpColour::Black.to_string(), "black");
/// assert_eq!(
///     "red".parse::<GtpColour>().unwrap_err().to_string(),
///     "invalid colour red: expected w, white, b or black"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GtpColour {
    /// `w` or `white`.
    White,
    /// `b` or `black`.
    Black,
}

impl GtpColour {
    /// `white` or `black`, the name sent to a program.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GtpColour::White => "white",
            GtpColour::Black => "black",
        }
    }

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> GtpColour {
        match self {
            GtpColour::White => GtpColour::Black,
            GtpColour::Black => GtpColour::White,
        }
    }

    /// 0 for White, 1 for Black: the colour's clock in a
    /// [`TimeControl`](crate::time::TimeControl).
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            GtpColour::White => 0,
            GtpColour::Black => 1,
        }
    }
}

impl fmt::Display for GtpColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GtpColour {
    type Err = ArgumentError;

    /// Parses `w`, `white`, `b` or `black`, in any case.
    fn from_str(text: &str) -> Result<GtpColour, ArgumentError> {
        match text.to_ascii_lowercase().as_str() {
            "w" | "white" => Ok(GtpColour::White),
            "b" | "black" => Ok(GtpColour::Black),
            _ => Err(ArgumentError::NotColour {
                text: shorten(text),
            }),
        }
    }
}

/// Why [`GtpGame::play_as`] refused a move. The message says why without naming the move;
/// the session's reply puts the colour and the move before it
/// (`illegal move black d4: white is to move`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError<E: std::error::Error> {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The colour named is not the one to move, and the game does not let it move out of turn.
    #[error("{to_move} is to move")]
    OutOfTurn {
        /// The colour to move.
        to_move: GtpColour,
    },
    /// The game refused the move.
    #[error(transparent)]
    Illegal(E),
}

/// What the standard GTP commands need of a game, on top of [`MatchGame`]: nothing about any
/// particular game.
///
/// The value is the authoritative game of a [`GtpSession`](super::GtpSession); `boardsize` and
/// `clear_board` replace it by [`GtpGame::with_size`], `play` goes through
/// [`GtpGame::play_as`], `undo` through [`GtpGame::undo`], `showboard` answers
/// [`GtpGame::board_text`] and `final_score` [`GtpGame::final_score`].
pub trait GtpGame: MatchGame {
    /// The board size, as `boardsize` sets it.
    fn size(&self) -> usize;

    /// The sizes `boardsize` accepts.
    fn sizes(&self) -> RangeInclusive<usize>;

    /// A new game with no move played, on a board of `size`, under the same rules as `self`.
    ///
    /// # Errors
    /// The game's error when it cannot be played at `size`.
    fn with_size(&self, size: usize) -> Result<Self, Self::Error>;

    /// The colour `side` plays now (after a swap, the side that opened the game may play the
    /// other colour).
    fn colour_of(&self, side: Side) -> GtpColour;

    /// The colour to move: by default the colour of [`MatchGame::side_to_move`].
    fn colour_to_move(&self) -> GtpColour {
        self.colour_of(self.side_to_move())
    }

    /// Takes back the last move and returns it; `None` when no move has been played.
    fn undo(&mut self) -> Option<Self::Move>;

    /// What `showboard` answers: the board and whatever else helps a person follow the game.
    /// Start it with a newline so the board begins on its own line.
    fn board_text(&self) -> String;

    /// An estimate of the moves the side to move still has to make, over which the session
    /// shares out the time left on its clock (at least 1).
    fn moves_to_go(&self) -> u32;

    /// What `final_score` answers once the game is over: by default `W+` or `B+` for the
    /// colour of the winning side and `0` for a draw; `None` while the game goes on.
    fn final_score(&self) -> Option<String> {
        Some(match self.verdict()? {
            Verdict::Win(side) => match self.colour_of(side) {
                GtpColour::White => "W+".to_string(),
                GtpColour::Black => "B+".to_string(),
            },
            Verdict::Draw => "0".to_string(),
        })
    }

    /// Plays `mv` for `colour` (GTP's `play`). By default only the colour to move may play,
    /// and only while the game goes on; a game that lets a controller place stones out of
    /// turn overrides it.
    ///
    /// # Errors
    /// [`PlayError::GameOver`], [`PlayError::OutOfTurn`] or the game's refusal
    /// ([`PlayError::Illegal`]); the game is then unchanged.
    fn play_as(&mut self, colour: GtpColour, mv: Self::Move) -> Result<(), PlayError<Self::Error>> {
        if self.verdict().is_some() {
            return Err(PlayError::GameOver);
        }
        let to_move = self.colour_to_move();
        if colour != to_move {
            return Err(PlayError::OutOfTurn { to_move });
        }
        self.try_play(mv).map_err(PlayError::Illegal)
    }

    /// Gives the move to `colour` when `genmove` asks for a colour that is not to move;
    /// `true` when the game did so. By default a game refuses (`false`, the game unchanged)
    /// and `genmove` answers an error.
    fn turn_to(&mut self, _colour: GtpColour) -> bool {
        false
    }

    /// Whether `mv` is legal for the side to move, without playing it. By default the move
    /// is played on a copy of the game.
    ///
    /// # Errors
    /// The game's error when `mv` is not legal here.
    fn check(&self, mv: Self::Move) -> Result<(), Self::Error> {
        self.clone().try_play(mv)
    }

    /// Whether an external program that refuses `play` of `mv` may simply not be told about
    /// it, because the position the program sees stays right without it (Havannah's swap
    /// leaves the stone and the turn where they are). By default no move is.
    fn optional_move(&self, _mv: Self::Move) -> bool {
        false
    }
}
