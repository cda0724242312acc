//! The error type of the Blackhole crate.

/// Everything that can go wrong with outside input (moves, cells, protocol lines, options).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BlackholeError {
    /// A cell name that names no cell of the board.
    #[error("unknown cell `{0}`")]
    UnknownCell(String),
    /// A move that is not of the form `<cell>=<value>`.
    #[error("malformed move `{0}`: expected <cell>=<value> such as A3=6")]
    MalformedMove(String),
    /// A stone value outside 1..=15.
    #[error("stone value {0} is not in 1..=15")]
    BadValue(String),
    /// A stone already used by the player to move.
    #[error("stone {value} was already used by {player}")]
    ValueUsed {
        /// The stone.
        value: u8,
        /// Red or Blue.
        player: &'static str,
    },
    /// A move onto a cell that is not empty.
    #[error("cell {0} is not empty")]
    Occupied(String),
    /// A move after the 30th.
    #[error("the game is over: no move `{0}` can follow")]
    GameOver(String),
    /// The blocked cells are not five distinct cells.
    #[error("bad blocked cells: {0}")]
    BadBlocked(String),
    /// A protocol line that makes no sense where it came.
    #[error("protocol error: {reason} (line: `{line}`)")]
    Protocol {
        /// What was wrong.
        reason: String,
        /// The offending line.
        line: String,
    },
    /// A game record that cannot be read (see `review::RecordedGame`).
    #[error("bad game record: {0}")]
    BadRecord(String),
    /// A player setting out of its range (see `engine::EngineConfig`).
    #[error("{setting} {value} is not {expected}")]
    BadSetting {
        /// The setting, in words (`gamma down`, `draw reward`, ...).
        setting: &'static str,
        /// The rejected value, printed.
        value: String,
        /// What it must be (`in [0, 1]`, `positive`, ...).
        expected: String,
    },
    /// Search settings that `rave-mcts` refuses.
    #[error("search settings: {0}")]
    Search(#[from] rave_mcts::MctsError),
    /// Reading or writing failed.
    #[error("i/o error: {0}")]
    Io(String),
}

impl From<std::io::Error> for BlackholeError {
    fn from(e: std::io::Error) -> Self {
        BlackholeError::Io(e.to_string())
    }
}
