//! Replays game records and prints one line per game: `<result> <kinds> <plies>`.
//!
//! ```sh
//! cargo run --release --example replay -- FILE...
//! ```
//!
//! Records are fixture lines (`<size> <result> <kinds> <moves...>`) or plain records
//! (`<size> <moves...>`); blank lines and lines starting with `#` are skipped. `result` is
//! white, black, draw or ongoing, `kinds` the completed figures joined by `+` (`-` if none) and
//! `plies` the number of moves played when the game ended (or all of them; moves recorded after
//! the end are not played). A bad line prints
//! `error <line number>: <message>` and the program goes on. With `-` as a file name, records
//! are read from standard input. The exit status is 1 if any line was bad or a file could not
//! be read.

use std::io::{BufRead, BufReader, BufWriter, Write};

use clap::Parser;
use havannah_rules::{Game, Record, Rules, RulesError};

/// Replays Havannah game records and prints `<result> <kinds> <plies>` per game.
#[derive(Parser, Debug)]
#[command(
    name = "replay",
    version,
    about = "Replays Havannah game records and prints `<result> <kinds> <plies>` per game"
)]
struct Args {
    /// Record files, one record per line; `-` reads standard input.
    #[arg(required = true)]
    files: Vec<String>,
}

/// Replays one record up to the end of the game: moves recorded after a win are not played
/// (they must still be valid notation).
fn replay(line: &str, line_no: usize) -> Result<Game, RulesError> {
    let record = Record::parse_line(line, line_no)?;
    let mut game = Game::new(record.size, Rules { pie: true })?;
    for (k, &mv) in record.moves.iter().enumerate() {
        if game.outcome().is_over() {
            break;
        }
        game.play(mv).map_err(|e| RulesError::Record {
            line: line_no,
            token: mv.to_notation(game.board()),
            reason: format!("move {}: {e}", k + 1),
        })?;
    }
    Ok(game)
}

fn run(reader: impl BufRead, out: &mut impl Write) -> std::io::Result<bool> {
    let mut ok = true;
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match replay(trimmed, i + 1) {
            Ok(game) => writeln!(
                out,
                "{} {} {}",
                game.outcome().result_name(),
                game.outcome().kinds(),
                game.moves().len()
            )?,
            Err(e) => {
                ok = false;
                writeln!(out, "error {}: {e}", i + 1)?;
            }
        }
    }
    Ok(ok)
}

fn main() {
    let files = Args::parse().files;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut ok = true;
    for name in &files {
        let result = if name == "-" {
            run(std::io::stdin().lock(), &mut out)
        } else {
            match std::fs::File::open(name) {
                Ok(file) => run(BufReader::new(file), &mut out),
                Err(e) => {
                    eprintln!("cannot read {name}: {e}");
                    ok = false;
                    continue;
                }
            }
        };
        match result {
            Ok(file_ok) => ok &= file_ok,
            Err(e) => {
                eprintln!("error while reading {name}: {e}");
                ok = false;
            }
        }
    }
    if out.flush().is_err() {
        ok = false;
    }
    if !ok {
        std::process::exit(1);
    }
}
