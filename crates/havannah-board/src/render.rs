//! Text drawing of a board.

use crate::Board;

/// Characters of the row-number margin: two digits and a space.
const MARGIN: usize = 3;

impl Board {
    /// Draws the board as text, one character per cell given by `f`, with the column letters
    /// on top and at the bottom and the row numbers on both sides.
    ///
    /// Row 1 is the top line. Row `y` is indented by `|y - (s - 1)|` characters and its cells
    /// are two characters apart, so cell `(x, y)` sits in text column `3 + 2x - y + s - 1`: the
    /// neighbours `(x, y+1)` and `(x+1, y+1)` are just below to the left and right, and each
    /// column `x` runs down and to the left. The letters on top label the cells of row 1
    /// (a, b, ...), the letters at the bottom the cells of the last row. Every line ends
    /// without trailing spaces and with `'\n'`.
    ///
    /// ```
    /// use havannah_board::Board;
    /// let board = Board::new(2)?;
    /// let a1 = board.parse_cell("a1")?;
    /// let text = board.render(|c| if c == a1 { 'W' } else { '.' });
    /// assert_eq!(text, concat!(
    ///     "    a b\n",
    ///     "  1 W . 1\n",
    ///     " 2 . . . 2\n",
    ///     "  3 . . 3\n",
    ///     "    b c\n",
    /// ));
    /// # Ok::<(), havannah_board::BoardError>(())
    /// ```
    pub fn render(&self, f: impl Fn(crate::Cell) -> char) -> String {
        let s = usize::from(self.size());
        let w = usize::from(self.width());
        let letters = |from: usize| -> String {
            let mut line = " ".repeat(MARGIN + s - 1);
            for x in from..from + s {
                if x > from {
                    line.push(' ');
                }
                line.push((b'a' + x as u8) as char);
            }
            line.push('\n');
            line
        };
        let mut out = letters(0);
        for y in 0..w {
            let indent = y.abs_diff(s - 1);
            let (lo, hi) = (y.saturating_sub(s - 1), (y + s - 1).min(w - 1));
            out.push_str(&" ".repeat(indent));
            out.push_str(&format!("{:>2}", y + 1));
            for x in lo..=hi {
                out.push(' ');
                let cell = self
                    .cell(x as u8, y as u8)
                    .expect("rows are drawn over on-board cells only");
                out.push(f(cell));
            }
            out.push_str(&format!(" {}\n", y + 1));
        }
        out.push_str(&letters(s - 1));
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;

    #[test]
    fn size_4_picture() {
        let b = Board::new(4).unwrap();
        let centre = b.centre();
        let text = b.render(|c| if c == centre { 'X' } else { '.' });
        let expect = "      a b c d
    1 . . . . 1
   2 . . . . . 2
  3 . . . . . . 3
 4 . . . X . . . 4
  5 . . . . . . 5
   6 . . . . . 6
    7 . . . . 7
      d e f g
";
        assert_eq!(text, expect);
        assert_eq!(b.to_string(), expect.replace('X', "."));
    }

    #[test]
    fn cell_positions_follow_the_formula() {
        // Mark one cell at a time and find its text column.
        let b = Board::new(8).unwrap();
        for c in b.cells() {
            let (x, y) = b.xy(c);
            let text = b.render(|d| if d == c { '#' } else { '.' });
            let line = text.lines().nth(usize::from(y) + 1).unwrap();
            let col = line.find('#').unwrap();
            assert_eq!(col, 3 + 2 * usize::from(x) + 7 - usize::from(y));
        }
    }
}
