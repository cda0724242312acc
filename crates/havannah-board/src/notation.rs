//! Reading cell names such as `h8`.

use crate::{Board, BoardError, Cell};

impl Board {
    /// Reads a cell name: a column letter (`a` for x = 0, either case) followed by the row
    /// number `y + 1` in decimal without a leading zero, e.g. `h8` or `H8`. Nothing is
    /// trimmed. The pie-rule move `swap` is not a cell and gets an error that says so.
    ///
    /// # Errors
    ///
    /// [`BoardError::BadCellText`], naming the text (truncated if very long) and the reason,
    /// for anything that is not the name of a cell of this board. Never panics.
    ///
    /// ```
    /// use havannah_board::Board;
    /// let board = Board::new(8)?;
    /// let centre = board.parse_cell("h8")?;
    /// assert_eq!(centre, board.centre());
    /// assert_eq!(board.parse_cell("O15")?, board.corners()[3]);
    /// let err = board.parse_cell("a9").unwrap_err();
    /// assert!(err.to_string().contains("\"a9\""));
    /// # Ok::<(), havannah_board::BoardError>(())
    /// ```
    pub fn parse_cell(&self, text: &str) -> Result<Cell, BoardError> {
        let fail = |reason: String| Err(BoardError::bad_cell(text, self.size(), reason));
        let width = self.width();
        let last_letter = (b'a' + width - 1) as char;
        let bytes = text.as_bytes();
        let Some(&first) = bytes.first() else {
            return fail("the text is empty".into());
        };
        if text.eq_ignore_ascii_case("swap") {
            return fail("`swap` is the pie-rule move, not a cell".into());
        }
        if !first.is_ascii_alphabetic() {
            return fail(format!(
                "a cell starts with a column letter a to {last_letter}"
            ));
        }
        let letter = first.to_ascii_lowercase();
        // The first byte is ASCII, so byte 1 is a char boundary.
        let digits = &text[1..];
        if digits.is_empty() {
            return fail("the row number after the column letter is missing".into());
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return fail(
                "a column letter must be followed by a row number and nothing else".into(),
            );
        }
        if digits.starts_with('0') {
            return fail(if digits.bytes().all(|b| b == b'0') {
                "rows are numbered from 1".into()
            } else {
                "the row number has a leading zero".into()
            });
        }
        let x = letter - b'a';
        if x >= width {
            return fail(format!(
                "column {} is off the board (columns a to {last_letter})",
                letter as char
            ));
        }
        let number = match digits.parse::<u16>() {
            Ok(n) if n <= u16::from(width) => n as u8,
            _ => {
                let row = if digits.len() <= 4 { digits } else { "number" };
                return fail(format!("row {row} is off the board (rows 1 to {width})"));
            }
        };
        match self.cell(x, number - 1) {
            Some(cell) => Ok(cell),
            None => {
                let h = self.size() - 1;
                let low = x.saturating_sub(h) + 1;
                let high = (x + h).min(width - 1) + 1;
                fail(format!(
                    "column {} has rows {low} to {high}",
                    letter as char
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;

    #[test]
    fn names_round_trip_size_13() {
        let b = Board::new(13).unwrap();
        for c in b.cells() {
            let name = b.cell_name(c).to_string();
            assert_eq!(b.parse_cell(&name), Ok(c));
            assert_eq!(b.parse_cell(&name.to_ascii_uppercase()), Ok(c));
        }
    }

    #[test]
    fn reasons() {
        let b = Board::new(8).unwrap();
        let reason = |t: &str| b.parse_cell(t).unwrap_err().to_string();
        assert!(reason("").contains("empty"));
        assert!(reason("swap").contains("pie"));
        assert!(reason("SWAP").contains("pie"));
        assert!(reason("8h").contains("column letter"));
        assert!(reason("h").contains("missing"));
        assert!(reason("h8 ").contains("nothing else"));
        assert!(reason(" h8").contains("column letter"));
        assert!(reason("a0").contains("from 1"));
        assert!(reason("a08").contains("leading zero"));
        assert!(reason("p1").contains("columns a to o"));
        assert!(reason("a16").contains("rows 1 to 15"));
        assert!(reason("a99999999999").contains("rows 1 to 15"));
        assert!(reason("a9").contains("column a has rows 1 to 8"));
        assert!(reason("o7").contains("column o has rows 8 to 15"));
        assert!(reason("h+8").contains("nothing else"));
        assert!(reason("é8").contains("column letter"));
        assert!(reason("hé").contains("nothing else"));
    }

    #[test]
    fn size_2_edges() {
        let b = Board::new(2).unwrap();
        assert!(b.parse_cell("a1").is_ok());
        assert!(b.parse_cell("c3").is_ok());
        assert!(b.parse_cell("c1").is_err());
        assert!(b.parse_cell("a3").is_err());
        assert!(b.parse_cell("d1").is_err());
    }
}
