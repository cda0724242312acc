//! Why a GTP command failed ([`CommandError`]) and why one of its arguments could not be read
//! ([`ArgumentError`]). The text of a `?` reply is the error's message.

use crate::agent::AgentFailure;
use crate::gtp::{GtpColour, GtpSessionError, shorten};

/// Why a GTP argument could not be read. Every message names the text received and what
/// was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// The text is not a number of seconds.
    #[error("invalid time {text}: expected seconds")]
    NotSeconds {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
    /// The text is a number of seconds, but negative, not finite, or a century or more.
    #[error("invalid time {text}: out of range")]
    SecondsOutOfRange {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
    /// The text is not a non-negative count of stones.
    #[error("invalid number of stones {text}")]
    NotCount {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
    /// The text is not a colour ([`GtpColour`]).
    #[error("invalid colour {text}: expected w, white, b or black")]
    NotColour {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
    /// The text is not a board size (a number from 0 to 255).
    #[error("unacceptable size {text}")]
    NotSize {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
    /// The text is not a move of the game.
    #[error("illegal move {text}")]
    NotMove {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
    /// The text is not a switch (`on`, `true`, `1`, `off`, `false` or `0`).
    #[error("expected on or off, not {text}")]
    NotSwitch {
        /// The text received, shortened by [`shorten`].
        text: String,
    },
}

impl ArgumentError {
    /// [`ArgumentError::NotSize`] for `text`, shortened.
    #[must_use]
    pub fn not_size(text: &str) -> ArgumentError {
        ArgumentError::NotSize {
            text: shorten(text),
        }
    }

    /// [`ArgumentError::NotMove`] for `text`, shortened.
    #[must_use]
    pub fn not_move(text: &str) -> ArgumentError {
        ArgumentError::NotMove {
            text: shorten(text),
        }
    }
}

/// Parses a switch: `on`, `true` or `1` for `true`, `off`, `false` or `0` for `false`, in any
/// case.
///
/// ```
/// use game_harness::gtp::{ArgumentError, switch};
///
/// assert_eq!(switch("ON"), Ok(true));
/// assert_eq!(switch("0"), Ok(false));
/// assert_eq!(switch("maybe").unwrap_err().to_string(), "expected on or off, not maybe");
/// ```
///
/// # Errors
/// [`ArgumentError::NotSwitch`], naming the text, for anything else.
pub fn switch(text: &str) -> Result<bool, ArgumentError> {
    match text.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(ArgumentError::NotSwitch {
            text: shorten(text),
        }),
    }
}

/// Why a GTP command failed. Its message is the text of the `?` reply, so a controller reads
/// the same words whichever part of the engine refused the command.
///
/// ```
/// use game_harness::gtp::{CommandError, GtpColour};
///
/// let e = CommandError::IllegalMove {
///     colour: GtpColour::Black,
///     mv: "d4".into(),
///     reason: "white is to move".into(),
/// };
/// assert_eq!(e.to_string(), "illegal move black d4: white is to move");
/// assert_eq!(CommandError::unknown("fly").to_string(), "unknown command fly");
/// assert_eq!(CommandError::syntax("undo").to_string(), "syntax: undo");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// The line held an id and no command.
    #[error("missing command after the id")]
    MissingCommand,
    /// The engine does not know the command.
    #[error("unknown command {name}")]
    UnknownCommand {
        /// The command received, shortened by [`shorten`].
        name: String,
    },
    /// The arguments do not fit the command (too few or too many); the message gives the
    /// command's syntax.
    #[error("syntax: {usage}")]
    Syntax {
        /// The command and its arguments' names, as `play COLOUR MOVE`.
        usage: String,
    },
    /// An argument could not be read.
    #[error(transparent)]
    Argument(#[from] ArgumentError),
    /// A board size the game does not support.
    #[error("unacceptable size {size}: sizes {min} to {max} are supported")]
    BoardSize {
        /// The size asked for.
        size: usize,
        /// The smallest size supported.
        min: usize,
        /// The largest size supported.
        max: usize,
    },
    /// The game refused a move of `play`.
    #[error("illegal move {colour} {mv}: {reason}")]
    IllegalMove {
        /// The colour that was to play it.
        colour: GtpColour,
        /// The move, in the game's notation.
        mv: String,
        /// Why the game refused it.
        reason: String,
    },
    /// A move was asked for after the end of the game.
    #[error("the game is over ({result})")]
    GameOver {
        /// The winner's colour (`white`, `black`) or `draw`.
        result: String,
    },
    /// A move was asked for a colour that is not to move, and the game cannot give it the turn.
    #[error("cannot move for {colour}: {to_move} is to move")]
    OutOfTurn {
        /// The colour asked for.
        colour: GtpColour,
        /// The colour to move.
        to_move: GtpColour,
    },
    /// The player chose no move.
    #[error("the player found no move{}", reason.as_ref().map_or_else(String::new, |r| format!(": {r}")))]
    NoMove {
        /// The player's reason ([`Agent::failure`](crate::Agent::failure)), if it gave one.
        reason: Option<AgentFailure>,
    },
    /// The player chose a move the game refuses.
    #[error("the player chose an illegal move {mv}: {reason}")]
    PlayerChoseIllegal {
        /// The move, in the game's notation.
        mv: String,
        /// Why the game refused it.
        reason: String,
    },
    /// `undo` before any move.
    #[error("cannot undo: no move has been played")]
    NothingToUndo,
    /// `final_score` while the game goes on.
    #[error("the game is not over")]
    NotOver,
    /// `stats` before the player searched, or from a player that does not search.
    #[error("no search yet")]
    NoSearch,
    /// Any other failure, with the engine's or the game's own message.
    #[error("{0}")]
    Failed(String),
}

impl CommandError {
    /// [`CommandError::UnknownCommand`] for `name`, shortened.
    #[must_use]
    pub fn unknown(name: &str) -> CommandError {
        CommandError::UnknownCommand {
            name: shorten(name),
        }
    }

    /// [`CommandError::Syntax`] with `usage`.
    #[must_use]
    pub fn syntax(usage: &str) -> CommandError {
        CommandError::Syntax {
            usage: usage.to_string(),
        }
    }
}

impl<E: std::error::Error> From<GtpSessionError<E>> for CommandError {
    /// [`CommandError::BoardSize`] for a size out of range, [`CommandError::Failed`] with the
    /// game's message for the game's own refusal.
    fn from(e: GtpSessionError<E>) -> CommandError {
        match e {
            GtpSessionError::BoardSize { size, min, max } => {
                CommandError::BoardSize { size, min, max }
            }
            GtpSessionError::Game(e) => CommandError::Failed(e.to_string()),
        }
    }
}
