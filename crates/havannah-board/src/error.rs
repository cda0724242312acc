//! The error type of this crate.

use crate::{MAX_SIZE, MIN_SIZE};

/// How many characters of a bad cell text an error keeps before it truncates the text.
const MAX_TEXT_CHARS: usize = 32;

/// Everything that can go wrong when building a board or reading outside input about cells.
///
/// Every message names the bad value: the size, the text (truncated when very long) or the
/// coordinates.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// The board size is outside `MIN_SIZE..=MAX_SIZE`.
    #[error("invalid board size {size}: sizes {MIN_SIZE} to {MAX_SIZE} are supported")]
    InvalidSize {
        /// The size that was asked for.
        size: u8,
    },
    /// A text is not the name of a cell of this board.
    #[error("bad cell text \"{text}\" on the size-{size} board: {reason}")]
    BadCellText {
        /// The text, truncated to its first 32 characters (plus a note) when it is longer.
        text: String,
        /// The size of the board the text was read for.
        size: u8,
        /// Why the text is not a cell.
        reason: String,
    },
    /// Column/row coordinates that are not on the board.
    #[error("coordinates (x {x}, y {y}) are off the size-{size} board")]
    OffBoard {
        /// The column.
        x: i32,
        /// The row.
        y: i32,
        /// The size of the board.
        size: u8,
    },
    /// A dense cell index that is not below the board's number of cells.
    #[error("cell index {index} is out of range for the size-{size} board ({num_cells} cells)")]
    IndexOutOfRange {
        /// The index.
        index: usize,
        /// The size of the board.
        size: u8,
        /// The number of cells of the board.
        num_cells: usize,
    },
}

impl BoardError {
    /// Builds a [`BoardError::BadCellText`], truncating a very long text.
    pub(crate) fn bad_cell(text: &str, size: u8, reason: impl Into<String>) -> Self {
        let shown = if text.chars().count() > MAX_TEXT_CHARS {
            let head: String = text.chars().take(MAX_TEXT_CHARS).collect();
            format!("{head}... ({} bytes in all)", text.len())
        } else {
            text.to_owned()
        };
        BoardError::BadCellText {
            text: shown,
            size,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_truncated_but_named() {
        let text = "x".repeat(1000);
        let err = BoardError::bad_cell(&text, 8, "too long");
        let msg = err.to_string();
        assert!(msg.contains(&"x".repeat(MAX_TEXT_CHARS)));
        assert!(!msg.contains(&"x".repeat(MAX_TEXT_CHARS + 1)));
        assert!(msg.contains("1000 bytes"));
        assert!(msg.len() < 200, "{msg}");
    }

    #[test]
    fn truncation_respects_char_boundaries() {
        let text = "é".repeat(100);
        let msg = BoardError::bad_cell(&text, 5, "why").to_string();
        assert!(msg.contains(&"é".repeat(MAX_TEXT_CHARS)));
    }

    #[test]
    fn size_error_names_the_size() {
        let msg = BoardError::InvalidSize { size: 14 }.to_string();
        assert!(msg.contains("14"), "{msg}");
    }
}
