//! Replays game records and prints one line per game: `<result> <kinds> <plies>`.
//!
//! ```sh
//! havannah replay FILE...
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
use std::process::ExitCode;

use game_harness::output::{reader_gone, write_line};

use clap::Parser;
use havannah_rules::{GameState, Record, Rules, RulesError};

/// Replays Havannah game records and prints `<result> <kinds> <plies>` per game.
#[derive(Parser, Debug)]
#[command(
    name = "replay",
    version,
    about = "Replays Havannah game records and prints `<result> <kinds> <plies>` per game"
)]
pub struct Opts {
    /// Record files, one record per line; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<String>,
}

/// Replays one record up to the end of the game: moves recorded after a win are not played
/// (they must still be valid notation).
fn replay(line: &str, line_no: usize) -> Result<GameState, RulesError> {
    let record = Record::parse_line(line, line_no)?;
    let mut game = GameState::new(record.size, Rules { pie: true })?;
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

/// Replays every record of `reader` and writes a line per record to `out`; `false` if a line
/// was bad.
fn replay_lines(reader: impl BufRead, out: &mut impl Write) -> std::io::Result<bool> {
    let mut ok = true;
    for (i, line) in reader.lines().enumerate() {
        if reader_gone() {
            break;
        }
        let line = line?;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match replay(trimmed, i + 1) {
            Ok(game) => write_line(
                out,
                format_args!(
                    "{} {} {}",
                    game.outcome().result_name(),
                    game.outcome().kinds(),
                    game.moves().len()
                ),
            )?,
            Err(e) => {
                ok = false;
                write_line(out, format_args!("error {}: {e}", i + 1))?;
            }
        }
    }
    Ok(ok)
}

/// Replays the records of one file (`-`: standard input); `false` if it could not be read or
/// a line was bad.
fn replay_file(name: &str, out: &mut impl Write) -> bool {
    let result = if name == "-" {
        replay_lines(std::io::stdin().lock(), out)
    } else {
        match std::fs::File::open(name) {
            Ok(file) => replay_lines(BufReader::new(file), out),
            Err(e) => {
                eprintln!("cannot read {name}: {e}");
                return false;
            }
        }
    };
    match result {
        Ok(file_ok) => file_ok,
        Err(e) => {
            eprintln!("error while reading {name}: {e}");
            false
        }
    }
}

/// Replays the records of every file; the exit status is 1 if any line was bad or a file
/// could not be read.
pub fn run(opts: &Opts) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut ok = true;
    for name in &opts.files {
        ok &= replay_file(name, &mut out);
        if reader_gone() {
            // Nobody reads the answers any more (`replay f | head`): stop, quietly.
            return ExitCode::SUCCESS;
        }
    }
    if let Err(e) = out.flush()
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("cannot write the answers: {e}");
        ok = false;
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
