//! Draws a board with every cell marked by its kind: corners `0`..`5`, side cells `A`..`F`
//! for `Side(0)`..`Side(5)`, inner cells `.`, and the centre `*`.
//!
//! `cargo run -p havannah-board --example show -- 8` (the size defaults to 4).

use std::process::ExitCode;

use havannah_board::{Board, CellKind};

fn run() -> Result<String, String> {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "4".to_owned());
    let size: u8 = arg
        .parse()
        .map_err(|_| format!("could not read {arg:?} as a board size"))?;
    let board = Board::new(size).map_err(|e| e.to_string())?;
    let centre = board.centre();
    Ok(board.render(|c| match board.kind(c) {
        _ if c == centre => '*',
        CellKind::Corner(i) => char::from(b'0' + i),
        CellKind::Side(i) => char::from(b'A' + i),
        CellKind::Inner => '.',
    }))
}

fn main() -> ExitCode {
    match run() {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
