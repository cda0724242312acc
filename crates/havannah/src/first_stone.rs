//! The first-stone table of the pie rule: White's value of every first stone, from deep
//! searches, so that the engine opens with a stone close to even and swaps exactly when the
//! first stone favours White.
//!
//! With the pie rule the second player may take over the first stone (`swap`). A first stone
//! that is better than even for White should be swapped; a good first player therefore plays
//! a stone worth about one half. The values of first stones differ by a few percent, so with
//! [`EngineConfig::pie_table`](crate::EngineConfig::pie_table) the engine reads them from a
//! table made once by `havannah openings --first-stones FILE`: White's value (pie rule off)
//! of the position after each first stone, one cell per class of cells under the board's
//! twelve symmetries. The built-in tables come from one search a class, too noisy to beat the
//! search's own decisions in self-play, so `best` leaves the table off.
//!
//! The file format, version 1:
//!
//! ```text
//! havannah-first-stones 1
//! # comments anywhere; blank lines are skipped
//! size 8
//! a1 0.3121
//! b1 0.3870
//! ...
//! ```
//!
//! Every class of cells must appear once (any cell of it); the others take its value.
//!
//! ```
//! use havannah::board::Board;
//! use havannah::first_stone::FirstStones;
//!
//! let board = Board::new(3)?;
//! let text = "havannah-first-stones 1\nsize 3\na1 0.30\nb1 0.45\nb2 0.55\nc3 0.70\n";
//! let table = FirstStones::parse(text, board)?;
//! // The six corners share a1's value; b1's class is the closest to even.
//! assert_eq!(table.value(board.parse_cell("e5")?), 0.30);
//! assert_eq!(table.value(table.most_even()), 0.45);
//! assert!(!table.should_swap(board.parse_cell("b1")?));
//! assert!(table.should_swap(board.centre()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use havannah_board::{Board, Cell};

/// The first line of a version-1 table.
pub const VERSION_LINE: &str = "havannah-first-stones 1";

/// The built-in tables: (board size, file text).
const TABLES: &[(u8, &str)] = &[
    (8, include_str!("first_stone/size-8.txt")),
    (10, include_str!("first_stone/size-10.txt")),
];

/// Why a first-stone table could not be read: every message names the line and the text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FirstStoneError {
    /// The first line is not [`VERSION_LINE`].
    #[error("first-stone table: the first line {found:?} is not {VERSION_LINE:?}")]
    Version {
        /// The first line found.
        found: String,
    },
    /// The `size N` line is missing, bad, or names another board.
    #[error("first-stone table: {found:?} is not `size {expected}`")]
    Size {
        /// The line found (empty when there is none).
        found: String,
        /// The size of the board the table is read for.
        expected: u8,
    },
    /// A line that is not `cell value` with a cell of the board and a value in [0, 1], or
    /// names a class of cells twice.
    #[error("first-stone table line {line}: {text:?}: {reason}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// Its text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A class of cells has no value.
    #[error("first-stone table: no value for {cell} or its symmetric images")]
    Missing {
        /// A cell of the class, by name.
        cell: String,
    },
}

/// White's value of every first stone on one board.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstStones {
    board: &'static Board,
    /// By cell index.
    values: Vec<f64>,
}

impl FirstStones {
    /// The built-in table of boards of `size`, if there is one.
    ///
    /// # Errors
    /// A [`FirstStoneError`] if the built-in file is broken (a test reads every one).
    pub fn builtin(board: &'static Board) -> Option<Result<FirstStones, FirstStoneError>> {
        TABLES
            .iter()
            .find(|(size, _)| *size == board.size())
            .map(|(_, text)| FirstStones::parse(text, board))
    }

    /// The sizes that have a built-in table.
    pub fn builtin_sizes() -> impl Iterator<Item = u8> {
        TABLES.iter().map(|&(size, _)| size)
    }

    /// Reads a table (see the [module](self) for the format) for `board`.
    ///
    /// # Errors
    /// [`FirstStoneError::Version`], [`FirstStoneError::Size`] for a table of another board,
    /// [`FirstStoneError::Line`] for a bad line and [`FirstStoneError::Missing`] for a class
    /// of cells without a value.
    pub fn parse(text: &str, board: &'static Board) -> Result<FirstStones, FirstStoneError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split_once('#').map_or(l, |(body, _)| body).trim()))
            .filter(|(_, l)| !l.is_empty());
        let first = lines.next().map(|(_, l)| l).unwrap_or_default();
        if first != VERSION_LINE {
            return Err(FirstStoneError::Version {
                found: first.to_string(),
            });
        }
        let size = lines.next().map(|(_, l)| l).unwrap_or_default();
        if size != format!("size {}", board.size()) {
            return Err(FirstStoneError::Size {
                found: size.to_string(),
                expected: board.size(),
            });
        }
        let mut values = vec![f64::NAN; board.num_cells()];
        for (line, text) in lines {
            let bad = |reason: String| FirstStoneError::Line {
                line,
                text: text.to_string(),
                reason,
            };
            let (name, value) = text
                .split_once(char::is_whitespace)
                .ok_or_else(|| bad("expected `cell value`".to_string()))?;
            let cell = board.parse_cell(name).map_err(|e| bad(e.to_string()))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v| (0.0..=1.0).contains(v))
                .ok_or_else(|| bad("the value is not a number in [0, 1]".to_string()))?;
            for symmetry in board.symmetries() {
                let image = symmetry.apply(cell).index();
                if !values[image].is_nan() && symmetry.is_identity() {
                    return Err(bad("a class of cells named twice".to_string()));
                }
                values[image] = value;
            }
        }
        if let Some(cell) = board.cells().find(|c| values[c.index()].is_nan()) {
            return Err(FirstStoneError::Missing {
                cell: board.cell_name(cell).to_string(),
            });
        }
        Ok(FirstStones { board, values })
    }

    /// The board of the table.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// White's value of the position after a first stone on `cell` (pie rule off).
    ///
    /// # Panics
    /// If `cell` is not a cell of the table's board.
    #[must_use]
    pub fn value(&self, cell: Cell) -> f64 {
        self.values[cell.index()]
    }

    /// The first stone whose value is the closest to one half (the lowest cell index among
    /// equals): the stone a first player opens with under the pie rule.
    #[must_use]
    pub fn most_even(&self) -> Cell {
        let mut best = self.board.centre();
        for cell in self.board.cells() {
            let d = (self.value(cell) - 0.5).abs();
            if d < (self.value(best) - 0.5).abs()
                || (d == (self.value(best) - 0.5).abs() && cell.index() < best.index())
            {
                best = cell;
            }
        }
        best
    }

    /// Whether the second player should swap after a first stone on `cell`: exactly when the
    /// stone is better than even for White.
    #[must_use]
    pub fn should_swap(&self, cell: Cell) -> bool {
        self.value(cell) > 0.5
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_table_reads() {
        let sizes: Vec<u8> = FirstStones::builtin_sizes().collect();
        assert_eq!(sizes, [8, 10]);
        for size in sizes {
            let board = Board::new(size).unwrap();
            let table = FirstStones::builtin(board).unwrap().unwrap();
            assert_eq!(table.board().size(), size);
        }
        assert!(FirstStones::builtin(Board::new(5).unwrap()).is_none());
    }

    #[test]
    fn at_size_8_the_centre_is_swapped_a_corner_is_not_and_the_opening_is_close_to_even() {
        let board = Board::new(8).unwrap();
        let table = FirstStones::builtin(board).unwrap().unwrap();
        assert!(
            table.should_swap(board.centre()),
            "{}",
            table.value(board.centre())
        );
        for corner in board.corners() {
            assert!(!table.should_swap(corner), "{}", table.value(corner));
        }
        let first = table.most_even();
        assert!(
            (table.value(first) - 0.5).abs() < 0.03,
            "{}",
            table.value(first)
        );
        // No stone is closer to even.
        for cell in board.cells() {
            assert!((table.value(cell) - 0.5).abs() >= (table.value(first) - 0.5).abs());
        }
    }

    #[test]
    fn bad_tables_are_refused_with_the_line_and_the_text() {
        let board = Board::new(3).unwrap();
        let good = "havannah-first-stones 1\nsize 3\na1 0.30\nb1 0.45\nb2 0.55\nc3 0.70\n";
        let table = FirstStones::parse(good, board).unwrap();
        // Symmetric images share a value: a1 is a corner, as are c1 and e5.
        assert_eq!(table.value(board.parse_cell("c1").unwrap()), 0.30);
        let err = |text: &str| FirstStones::parse(text, board).unwrap_err();
        assert_eq!(
            err("havannah-first-stones 2\n"),
            FirstStoneError::Version {
                found: "havannah-first-stones 2".to_string()
            }
        );
        let e = err("havannah-first-stones 1\nsize 8\n").to_string();
        assert_eq!(e, "first-stone table: \"size 8\" is not `size 3`");
        let e = err(&good.replace("b2 0.55", "b2 1.5")).to_string();
        assert!(
            e.starts_with("first-stone table line 5: \"b2 1.5\": "),
            "{e}"
        );
        let e = err(&good.replace("b2 0.55", "z9 0.5")).to_string();
        assert!(
            e.starts_with("first-stone table line 5: \"z9 0.5\": "),
            "{e}"
        );
        let e = err(&good.replace("b2 0.55", "b2")).to_string();
        assert!(e.contains("expected `cell value`"), "{e}");
        let e = err(&good.replace("b2 0.55\n", "")).to_string();
        assert!(e.starts_with("first-stone table: no value for "), "{e}");
        let e = err(&format!("{good}a1 0.3\n")).to_string();
        assert!(e.contains("named twice"), "{e}");
    }

    /// The engine at size 8 with the pie rule after `moves`, searching 200 simulations.
    fn engine_move(moves: &[&str], pie_table: bool) -> havannah_rules::Move {
        use game_harness::{Agent, Clock};
        let mut game =
            havannah_rules::GameState::new(8, havannah_rules::Rules { pie: true }).unwrap();
        for m in moves {
            game.play_str(m).unwrap();
        }
        let mut config = crate::EngineConfig::best().with_simulations(200).unwrap();
        config.pie_table = pie_table;
        let mut engine = crate::Engine::new(config, 3);
        engine.reset(&game);
        engine.choose(&game, &Clock::unlimited()).unwrap()
    }

    #[test]
    fn the_engine_opens_even_and_swaps_exactly_the_stones_better_than_even() {
        use havannah_rules::Move;
        let board = Board::new(8).unwrap();
        let table = FirstStones::builtin(board).unwrap().unwrap();
        assert_eq!(engine_move(&[], true), Move::Cell(table.most_even()));
        let centre = board.cell_name(board.centre()).to_string();
        assert_eq!(engine_move(&[&centre], true), Move::Swap);
        let reply = engine_move(&["a1"], true);
        assert!(matches!(reply, Move::Cell(_)), "{reply:?}");
        // The stone the engine opens with is not swapped by the engine.
        let first = board.cell_name(table.most_even()).to_string();
        let reply = engine_move(&[&first], true);
        assert_eq!(reply == Move::Swap, table.should_swap(table.most_even()));
    }
}
