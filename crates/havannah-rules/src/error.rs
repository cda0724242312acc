//! The error type of the crate.

use havannah_board::BoardError;

/// Everything that can go wrong when outside input reaches the rules.
///
/// Every message names the offending move, token or line. A failed call never changes the
/// game it was called on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A size, cell or coordinate was rejected by the board geometry.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A cell index beyond the board (a cell of a larger board).
    #[error("cell index {index} is not on the size-{size} board")]
    CellOffBoard {
        /// The cell index.
        index: usize,
        /// The board size.
        size: u8,
    },
    /// The cell of a move already holds a stone.
    #[error("cannot play {cell}: the cell is occupied")]
    Occupied {
        /// The cell, in notation.
        cell: String,
    },
    /// A move was played after the game had ended.
    #[error("cannot play {mv}: the game is over")]
    GameOver {
        /// The move, in notation.
        mv: String,
    },
    /// `swap` was played while the pie rule is off.
    #[error("cannot play swap: the pie rule is off")]
    SwapDisabled,
    /// `swap` was played at another move than the second.
    #[error("cannot play swap as move {ply}: swap is only allowed as the second move")]
    SwapNotSecond {
        /// The 1-based number the move would have had.
        ply: usize,
    },
    /// `undo` on a game without moves.
    #[error("cannot undo: no move has been played")]
    NothingToUndo,
    /// A game record could not be read.
    #[error("bad record at line {line}, token {token:?}: {reason}")]
    Record {
        /// The 1-based line number (1 for a single record).
        line: usize,
        /// The offending token (shortened if very long).
        token: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// Shortens outside text for an error message so a huge input does not produce a huge message.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}...")
    }
}
