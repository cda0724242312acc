//! The error type of the value network, its weights files and its training (the
//! `havannah-td` crate reports its errors with it too).

use std::path::PathBuf;

/// What can go wrong when building, training, saving or loading a value network.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TdError {
    /// A board size outside the supported range.
    #[error("invalid board size: {0}")]
    Board(#[from] havannah_board::BoardError),
    /// A training or network setting out of range.
    #[error("invalid setting {name} = {value}: {reason}")]
    InvalidConfig {
        /// The setting.
        name: &'static str,
        /// Its value, as text.
        value: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The MCTS evaluation opponent failed.
    #[error("MCTS opponent: {0}")]
    Search(#[from] rave_mcts::MctsError),
    /// A weights file could not be read or written.
    #[error("weights file {path}: {source}", path = .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A weights file is not valid JSON of the expected shape.
    #[cfg(feature = "weights-file")]
    #[error("weights file {path} is corrupt: {source}", path = .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: serde_json::Error,
    },
    /// A weights file parses but its content is inconsistent (unknown format or version,
    /// layer sizes that do not match the board or the weight arrays, non-finite weights).
    #[error("weights file {path} is invalid: {reason}", path = .path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A weights file was trained for another board size.
    #[error(
        "weights file {path} is for board size {found}, expected size {expected}",
        path = .path.display()
    )]
    SizeMismatch {
        /// The file.
        path: PathBuf,
        /// The board size asked for.
        expected: u8,
        /// The board size in the file.
        found: u8,
    },
}
