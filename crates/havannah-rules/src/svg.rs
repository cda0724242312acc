//! SVG pictures of positions: the hexagon of cells, coordinates on the margins, the stones, the
//! last move and the winning chain.
//!
//! The picture is one self-contained SVG document (no scripts, fonts or external files). Cells
//! are pointy-top hexagons laid out as [`Board::render`](havannah_board::Board::render) lays out
//! text: row 1 on top, each row shifted half a cell, so cell `(x, y)` has its centre at
//! `((x - y/2)·√3·r, 1.5·y·r)` and its neighbours `(x±1, y)`, `(x, y±1)`, `(x-1, y-1)`,
//! `(x+1, y+1)` touch it. Column letters sit above the first cell of each column (the top and
//! upper-right sides) and below the last row; row numbers sit left of each row and right of the
//! rows that end on the lower-right side.
//!
//! Every element a program may want to find carries a class and the cell name:
//! `<polygon class="cell" data-cell="h8" .../>` (class `cell chain` for the winning chain),
//! `<circle class="stone white" data-cell="h8" .../>`, `<rect class="last" data-cell="h8"
//! .../>`, `<text class="coord" ...>h</text>`.
//!
//! ```
//! use havannah_rules::svg::{SvgOptions, position_svg};
//! use havannah_rules::{GameState, Rules};
//!
//! let mut game = GameState::new(4, Rules::default())?;
//! for mv in ["a1", "g7", "b1", "g6", "c1", "g5", "d1"] {
//!     game.play_str(mv)?;
//! }
//! let svg = position_svg(&game, &SvgOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("<circle").count(), 7);
//! assert_eq!(svg.matches("class=\"cell chain\"").count(), 4); // a1 b1 c1 d1
//! # Ok::<(), havannah_rules::RulesError>(())
//! ```

use std::fmt::Write as _;

use crate::{Cell, Colour, GameState, Move, Outcome};

/// How a position is drawn.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SvgOptions {
    /// The distance from a cell's centre to its corners, in SVG user units (pixels).
    /// Values that are not finite and positive are taken as the default, 20.
    pub cell_radius: f64,
    /// Column letters and row numbers on the margins.
    pub coordinates: bool,
    /// Mark the stone of the last move (for `swap`, the swapped stone).
    pub last_move: bool,
    /// Highlight the cells of the winning chain.
    pub winning_chain: bool,
    /// Write on each stone the number of the move that placed it.
    pub move_numbers: bool,
    /// The title line; `None` writes the size, the number of moves and the result.
    pub title: Option<String>,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            cell_radius: 20.0,
            coordinates: true,
            last_move: true,
            winning_chain: true,
            move_numbers: false,
            title: None,
        }
    }
}

impl SvgOptions {
    /// The default options with a given title.
    #[must_use]
    pub fn with_title(title: impl Into<String>) -> SvgOptions {
        SvgOptions {
            title: Some(title.into()),
            ..SvgOptions::default()
        }
    }

    /// These options with move numbers on the stones, or without.
    #[must_use]
    pub fn move_numbers(mut self, on: bool) -> SvgOptions {
        self.move_numbers = on;
        self
    }

    /// These options with another cell radius.
    #[must_use]
    pub fn cell_radius(mut self, radius: f64) -> SvgOptions {
        self.cell_radius = radius;
        self
    }
}

/// The title [`position_svg`] writes when the options give none, such as
/// `Havannah 4, 7 moves: White wins (bridge)` or `Havannah 8, 12 moves: Black to move`.
#[must_use]
pub fn default_title(game: &GameState) -> String {
    let board = game.board();
    let n = game.moves().len();
    let moves = if n == 1 { "move" } else { "moves" };
    let state = match game.outcome() {
        Outcome::Ongoing => format!("{} to move", capitalised(game.to_move())),
        Outcome::Draw => "draw".to_string(),
        Outcome::Win { winner, kinds, .. } => format!("{} wins ({kinds})", capitalised(*winner)),
    };
    format!("Havannah {}, {n} {moves}: {state}", board.size())
}

fn capitalised(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "White",
        Colour::Black => "Black",
    }
}

/// Escapes text for XML character data and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 forbids most control characters even when escaped.
            c if c.is_control() && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// An SVG picture of the position of `game` (see the [module docs](self)).
#[must_use]
pub fn position_svg(game: &GameState, options: &SvgOptions) -> String {
    let board = game.board();
    let labels = if options.coordinates {
        coordinate_labels(board.size())
    } else {
        Labels::default()
    };
    let layout = Layout::new(game, options, &labels);
    let mut out = String::new();
    write_header(&mut out, &layout);
    let title = options.title.clone().unwrap_or_else(|| default_title(game));
    write_title(&mut out, &layout, &title);
    write_cells(&mut out, game, options, &layout);
    write_coordinates(&mut out, &labels, &layout);
    write_stones(&mut out, game, options, &layout);
    write_last_move(&mut out, game, options, &layout);
    out.push_str("</svg>\n");
    out
}

/// The margin labels, placed at virtual cells just outside the board: column letters above
/// the first cell of each column and below the last row, row numbers left of each row and
/// right of the rows that end on the lower-right side.
#[derive(Default)]
struct Labels {
    /// `(letter, x, y)`.
    letters: Vec<(char, i32, i32)>,
    /// `(row number, x, y)`.
    numbers: Vec<(i32, i32, i32)>,
}

/// The labels of a board of this size.
fn coordinate_labels(size: u8) -> Labels {
    let s = i32::from(size);
    let w = 2 * s - 1;
    let mut labels = Labels::default();
    for x in 0..w {
        let letter = char::from(b'a' + x as u8);
        let (ylo, yhi) = ((x - (s - 1)).max(0), (x + s - 1).min(w - 1));
        labels.letters.push((letter, x, ylo - 1));
        if yhi == w - 1 {
            labels.letters.push((letter, x, yhi + 1));
        }
    }
    for y in 0..w {
        let (lo, hi) = ((y - (s - 1)).max(0), (y + s - 1).min(w - 1));
        labels.numbers.push((y + 1, lo - 1, y));
        if hi == w - 1 {
            labels.numbers.push((y + 1, hi + 1, y));
        }
    }
    labels
}

/// Where things go: the cell radius, the picture's size and the translation that puts every
/// cell and label inside it, with a cell radius of room and the title line on top.
struct Layout {
    /// The cell radius.
    r: f64,
    pad: f64,
    title_height: f64,
    dx: f64,
    dy: f64,
    width: f64,
    height: f64,
}

impl Layout {
    fn new(game: &GameState, options: &SvgOptions, labels: &Labels) -> Layout {
        let board = game.board();
        let r = if options.cell_radius.is_finite() && options.cell_radius > 0.0 {
            options.cell_radius
        } else {
            20.0
        };
        let mut min_x = f64::INFINITY;
        let mut max_x = f64::NEG_INFINITY;
        let mut min_y = f64::INFINITY;
        let mut max_y = f64::NEG_INFINITY;
        let points = board
            .cells()
            .map(|c| {
                let (x, y) = board.xy(c);
                (i32::from(x), i32::from(y))
            })
            .chain(labels.letters.iter().map(|&(_, x, y)| (x, y)))
            .chain(labels.numbers.iter().map(|&(_, x, y)| (x, y)));
        for (x, y) in points {
            let (px, py) = centre(r, x, y);
            min_x = min_x.min(px);
            max_x = max_x.max(px);
            min_y = min_y.min(py);
            max_y = max_y.max(py);
        }
        let pad = r * 1.2;
        let title_height = r * 1.6;
        Layout {
            r,
            pad,
            title_height,
            dx: pad - min_x,
            dy: pad + title_height - min_y,
            width: max_x - min_x + 2.0 * pad,
            height: max_y - min_y + 2.0 * pad + title_height,
        }
    }

    /// The centre of the (possibly virtual, off-board) cell `(x, y)` in the picture.
    fn at(&self, x: i32, y: i32) -> (f64, f64) {
        let (px, py) = centre(self.r, x, y);
        (px + self.dx, py + self.dy)
    }

    /// The centre of a board cell in the picture.
    fn cell(&self, game: &GameState, cell: Cell) -> (f64, f64) {
        let (x, y) = game.board().xy(cell);
        self.at(i32::from(x), i32::from(y))
    }
}

/// The centre of the cell `(x, y)` for cell radius `r`, before translation.
fn centre(r: f64, x: i32, y: i32) -> (f64, f64) {
    let sqrt3 = 3f64.sqrt();
    (
        (f64::from(x) - f64::from(y) / 2.0) * sqrt3 * r,
        1.5 * f64::from(y) * r,
    )
}

/// The opening tag, the style sheet and the background.
fn write_header(out: &mut String, layout: &Layout) {
    let Layout { width, height, .. } = *layout;
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.2} {height:.2}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(
        out,
        "<style>.cell{{fill:#e8c98e;stroke:#6b5330;stroke-width:1}}\
         .chain{{fill:#f05f4c}}\
         .white{{fill:#ffffff;stroke:#222222;stroke-width:1.2}}\
         .black{{fill:#1a1a1a;stroke:#000000;stroke-width:1.2}}\
         .last{{fill:#d62020}}\
         .coord{{fill:#444444;text-anchor:middle;dominant-baseline:central}}\
         .num{{text-anchor:middle;dominant-baseline:central}}\
         .title{{fill:#111111;text-anchor:middle}}</style>"
    );
    let _ = writeln!(
        out,
        "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{width:.2}\" height=\"{height:.2}\" fill=\"#fbf7ee\"/>"
    );
}

/// The title line, shrunk to fit the width (a sans-serif glyph is about 0.55 em wide).
fn write_title(out: &mut String, layout: &Layout, title: &str) {
    let chars = title.chars().count().max(1) as f64;
    let title_font = (layout.r * 0.8).min((layout.width - layout.r) / (0.55 * chars));
    let _ = writeln!(
        out,
        "<text class=\"title\" x=\"{:.2}\" y=\"{:.2}\" font-size=\"{title_font:.1}\">{}</text>",
        layout.width / 2.0,
        layout.pad * 0.5 + layout.title_height * 0.6,
        escape(title)
    );
}

/// One hexagon per cell, those of the winning chain (when shown) in class `chain`.
fn write_cells(out: &mut String, game: &GameState, options: &SvgOptions, layout: &Layout) {
    let board = game.board();
    let chain = match game.outcome() {
        Outcome::Win { chain, .. } if options.winning_chain => Some(chain),
        _ => None,
    };
    let r = layout.r;
    for cell in board.cells() {
        let (cx, cy) = layout.cell(game, cell);
        let class = if chain.is_some_and(|ch| ch.contains(cell)) {
            "cell chain"
        } else {
            "cell"
        };
        let mut pts = String::new();
        for k in 0..6 {
            // Pointy top: corners at -90°, -30°, 30°, ...
            let angle = std::f64::consts::PI / 3.0 * f64::from(k) - std::f64::consts::FRAC_PI_2;
            if k > 0 {
                pts.push(' ');
            }
            let _ = write!(
                pts,
                "{:.2},{:.2}",
                cx + r * angle.cos(),
                cy + r * angle.sin()
            );
        }
        let _ = writeln!(
            out,
            "<polygon class=\"{class}\" data-cell=\"{}\" points=\"{pts}\"/>",
            board.cell_name(cell)
        );
    }
}

/// The column letters and row numbers.
fn write_coordinates(out: &mut String, labels: &Labels, layout: &Layout) {
    let font = layout.r * 0.7;
    let letters = labels
        .letters
        .iter()
        .map(|&(letter, x, y)| (letter.to_string(), x, y));
    let numbers = labels
        .numbers
        .iter()
        .map(|&(number, x, y)| (number.to_string(), x, y));
    for (text, x, y) in letters.chain(numbers) {
        let (cx, cy) = layout.at(x, y);
        let _ = writeln!(
            out,
            "<text class=\"coord\" x=\"{cx:.2}\" y=\"{cy:.2}\" font-size=\"{font:.1}\">{text}</text>"
        );
    }
}

/// The stones, each with the number of the move that placed it when asked.
fn write_stones(out: &mut String, game: &GameState, options: &SvgOptions, layout: &Layout) {
    let board = game.board();
    let r = layout.r;
    let stone_r = r * 0.78;
    for cell in board.cells() {
        let Some(colour) = game.stone(cell) else {
            continue;
        };
        let (cx, cy) = layout.cell(game, cell);
        let _ = writeln!(
            out,
            "<circle class=\"stone {}\" data-cell=\"{}\" cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"{stone_r:.2}\"/>",
            colour.name(),
            board.cell_name(cell)
        );
        if options.move_numbers
            && let Some(n) = game.position().placed_at(cell)
        {
            let fill = match colour {
                Colour::White => "#111111",
                Colour::Black => "#f0f0f0",
            };
            let _ = writeln!(
                out,
                "<text class=\"num\" x=\"{cx:.2}\" y=\"{cy:.2}\" font-size=\"{:.1}\" fill=\"{fill}\">{n}</text>",
                r * 0.6
            );
        }
    }
}

/// The cell of the last move's stone (for `swap`, the swapped stone).
fn last_stone(game: &GameState) -> Option<Cell> {
    match game.last_move()? {
        Move::Cell(c) => Some(c),
        Move::Swap => match game.moves().first() {
            Some(Move::Cell(c)) => Some(*c),
            _ => None,
        },
    }
}

/// The last move: a small square on its stone (under a move number, beside it).
fn write_last_move(out: &mut String, game: &GameState, options: &SvgOptions, layout: &Layout) {
    if !options.last_move {
        return;
    }
    let Some(cell) = last_stone(game).filter(|&c| game.stone(c).is_some()) else {
        return;
    };
    let r = layout.r;
    let (cx, cy) = layout.cell(game, cell);
    let side = r * 0.36;
    let (mx, my) = if options.move_numbers {
        (cx - side / 2.0, cy + r * 0.3)
    } else {
        (cx - side / 2.0, cy - side / 2.0)
    };
    let _ = writeln!(
        out,
        "<rect class=\"last\" data-cell=\"{}\" x=\"{mx:.2}\" y=\"{my:.2}\" width=\"{side:.2}\" height=\"{side:.2}\"/>",
        game.board().cell_name(cell)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn escape_special_characters() {
        assert_eq!(
            escape("a<b & \"c\">'"),
            "a&lt;b &amp; &quot;c&quot;&gt;&apos;"
        );
        assert_eq!(escape("x\u{1}y"), "x y");
    }

    #[test]
    fn titles() {
        let mut game = GameState::new(4, Rules::default()).unwrap();
        assert_eq!(default_title(&game), "Havannah 4, 0 moves: White to move");
        game.play_str("d4").unwrap();
        assert_eq!(default_title(&game), "Havannah 4, 1 move: Black to move");
        let svg = position_svg(&game, &SvgOptions::with_title("A <b> title"));
        assert!(svg.contains(">A &lt;b&gt; title</text>"));
    }

    #[test]
    fn swap_marks_the_first_stone() {
        let mut game = GameState::new(3, Rules::default()).unwrap();
        game.play_str("c3").unwrap();
        game.play_str("swap").unwrap();
        let svg = position_svg(&game, &SvgOptions::default());
        assert!(svg.contains("<rect class=\"last\" data-cell=\"c3\""));
    }

    #[test]
    fn labels_sit_just_off_the_board() {
        // Size 4: seven columns and rows, labelled once on the upper-left side and again on
        // the lower-right side for the four that end there.
        let labels = coordinate_labels(4);
        assert_eq!(labels.letters.len(), 11);
        assert_eq!(labels.numbers.len(), 11);
        let on_board =
            |x: i32, y: i32| (0..7).contains(&x) && (0..7).contains(&y) && (x - y).abs() < 4;
        for &(_, x, y) in &labels.letters {
            assert!(!on_board(x, y), "letter at ({x}, {y})");
            assert!(
                on_board(x, y + 1) || on_board(x, y - 1),
                "letter at ({x}, {y})"
            );
        }
        for &(_, x, y) in &labels.numbers {
            assert!(!on_board(x, y), "number at ({x}, {y})");
            assert!(
                on_board(x + 1, y) || on_board(x - 1, y),
                "number at ({x}, {y})"
            );
        }
    }

    #[test]
    fn bad_radius_falls_back() {
        let game = GameState::new(2, Rules::default()).unwrap();
        let a = position_svg(&game, &SvgOptions::default().cell_radius(f64::NAN));
        let b = position_svg(&game, &SvgOptions::default());
        assert_eq!(a, b);
    }
}
