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
//!
//! `--tactics` adds to each line what the movers missed, as `missed/positions` for White and
//! Black: `w-wins`, positions where the mover could win at once; `w-doubles`, positions
//! where neither side could win at once and the mover could make a double threat (a stone
//! after which two cells each win at once: the opponent can block only one), and did not
//! make one; likewise `b-wins`, `b-doubles`. A last line `total ...` sums them. This is how
//! an engine's tactics are checked on match records (`games.txt`).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

use game_harness::output::{reader_gone, write_line};

use clap::Parser;
use havannah_board::Cell;
use havannah_rules::{Colour, GameState, Move, Position, Record, Rules, RulesError};

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
    /// Also count, by colour, the wins at once and double threats the movers did not play
    /// (`w-wins 0/3 w-doubles 1/2 b-wins ... b-doubles ...`: missed/positions), and print a
    /// `total` line.
    #[arg(long)]
    pub tactics: bool,
}

/// What the movers of each colour (White, Black) could have played at once, and missed:
/// `(missed, positions)` pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tactics {
    /// Positions where the mover could win at once.
    pub wins: [(u32, u32); 2],
    /// Positions where neither side could win at once and the mover could make a double
    /// threat.
    pub doubles: [(u32, u32); 2],
}

impl Tactics {
    /// Counts the position `pos` before the move `mv`.
    fn count(&mut self, pos: &Position, mv: Move) {
        let me = pos.to_move();
        let played = match mv {
            Move::Cell(cell) => Some(cell),
            Move::Swap => None,
        };
        let side = me.index();
        let wins: Vec<Cell> = winning_cells(pos, me).collect();
        if !wins.is_empty() {
            self.wins[side].1 += 1;
            self.wins[side].0 += u32::from(!played.is_some_and(|c| wins.contains(&c)));
            return;
        }
        if winning_cells(pos, me.other()).next().is_some() {
            return;
        }
        let doubles = double_threats(pos);
        if !doubles.is_empty() {
            self.doubles[side].1 += 1;
            self.doubles[side].0 += u32::from(!played.is_some_and(|c| doubles.contains(&c)));
        }
    }

    /// Adds `other`'s counts.
    fn add(&mut self, other: &Tactics) {
        for side in 0..2 {
            for (mine, theirs) in [
                (&mut self.wins[side], other.wins[side]),
                (&mut self.doubles[side], other.doubles[side]),
            ] {
                mine.0 += theirs.0;
                mine.1 += theirs.1;
            }
        }
    }
}

impl std::fmt::Display for Tactics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (side, name) in [(0, 'w'), (1, 'b')] {
            let (wm, wp) = self.wins[side];
            let (dm, dp) = self.doubles[side];
            if side == 1 {
                f.write_str(" ")?;
            }
            write!(f, "{name}-wins {wm}/{wp} {name}-doubles {dm}/{dp}")?;
        }
        Ok(())
    }
}

/// The empty cells where a stone of `colour` would win at once.
fn winning_cells(pos: &Position, colour: Colour) -> impl Iterator<Item = Cell> + '_ {
    pos.board()
        .cells()
        .filter(move |&c| pos.is_empty(c) && !pos.winning_kinds(c, colour).is_empty())
}

/// The cells where the player to move makes a double threat: after its stone there, two
/// cells each win at once (for a position where it cannot win at once).
pub fn double_threats(pos: &Position) -> Vec<Cell> {
    let me = pos.to_move();
    pos.board()
        .cells()
        .filter(|&c| pos.is_empty(c))
        .filter(|&c| {
            let mut after = pos.clone();
            after.place(c);
            winning_cells(&after, me).nth(1).is_some()
        })
        .collect()
}

/// Replays one record up to the end of the game: moves recorded after a win are not played
/// (they must still be valid notation).
/// With `tactics`, counts each position before its move (see [`Tactics`]).
fn replay(
    line: &str,
    line_no: usize,
    mut tactics: Option<&mut Tactics>,
) -> Result<GameState, RulesError> {
    let record = Record::parse_line(line, line_no)?;
    let mut game = GameState::new(record.size, Rules { pie: true })?;
    for (k, &mv) in record.moves.iter().enumerate() {
        if game.outcome().is_over() {
            break;
        }
        if let Some(t) = tactics.as_deref_mut() {
            t.count(game.position(), mv);
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
/// With `total`, adds each line's [`Tactics`] to the line and to `total`.
fn replay_lines(
    reader: impl BufRead,
    out: &mut impl Write,
    mut total: Option<&mut Tactics>,
) -> std::io::Result<bool> {
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
        let mut tactics = Tactics::default();
        let counting = total.is_some().then_some(&mut tactics);
        match replay(trimmed, i + 1, counting) {
            Ok(game) => {
                let outcome = game.outcome();
                let (result, kinds, plies) =
                    (outcome.result_name(), outcome.kinds(), game.moves().len());
                match total.as_deref_mut() {
                    Some(sum) => {
                        sum.add(&tactics);
                        write_line(out, format_args!("{result} {kinds} {plies} {tactics}"))?;
                    }
                    None => write_line(out, format_args!("{result} {kinds} {plies}"))?,
                }
            }
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
fn replay_file(name: &str, out: &mut impl Write, total: Option<&mut Tactics>) -> bool {
    let result = if name == "-" {
        replay_lines(std::io::stdin().lock(), out, total)
    } else {
        match std::fs::File::open(name) {
            Ok(file) => replay_lines(BufReader::new(file), out, total),
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
    let mut total = Tactics::default();
    for name in &opts.files {
        ok &= replay_file(name, &mut out, opts.tactics.then_some(&mut total));
        if reader_gone() {
            // Nobody reads the answers any more (`replay f | head`): stop, quietly.
            return ExitCode::SUCCESS;
        }
    }
    if opts.tactics {
        ok &= write_line(&mut out, format_args!("total {total}")).is_ok();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The tactics counted over a size-4 record after the moves `moves`.
    fn tactics(moves: &str) -> Tactics {
        let mut t = Tactics::default();
        replay(&format!("4 {moves}"), 1, Some(&mut t)).unwrap();
        t
    }

    // White holds b1 c1 (side 0, next to corner a1) and a2 a3 (side 5, between corners a1
    // and a4); Black's stones are far off. A white stone on a1 touches corner a1 and leaves
    // two winning cells: d1 and a4 each join a second corner (bridges).
    const SET_UP: &str = "b1 d7 c1 f7 a2 e4 a3 c5";

    #[test]
    fn the_corner_between_two_chains_is_the_only_double_threat() {
        let mut game = GameState::new(4, Rules { pie: false }).unwrap();
        for mv in SET_UP.split(' ') {
            game.play_str(mv).unwrap();
        }
        let pos = game.position();
        assert_eq!(winning_cells(pos, Colour::White).count(), 0);
        assert_eq!(winning_cells(pos, Colour::Black).count(), 0);
        let a1 = game.board().parse_cell("a1").unwrap();
        assert_eq!(double_threats(pos), [a1]);
    }

    #[test]
    fn a_double_threat_or_a_win_not_played_counts_as_missed_for_its_colour() {
        let made = tactics(&format!("{SET_UP} a1"));
        let missed = tactics(&format!("{SET_UP} b2"));
        assert_eq!(made.doubles[0].1, missed.doubles[0].1);
        assert_eq!(missed.doubles[0].0, made.doubles[0].0 + 1);
        assert_eq!(
            (made.wins, made.doubles[1]),
            (missed.wins, missed.doubles[1])
        );
        // After a1 and Black's d1, a4 wins at once for White.
        let won = tactics(&format!("{SET_UP} a1 d1 a4"));
        let not_won = tactics(&format!("{SET_UP} a1 d1 b3"));
        assert_eq!(won.wins[0], (made.wins[0].0, made.wins[0].1 + 1));
        assert_eq!(not_won.wins[0], (won.wins[0].0 + 1, won.wins[0].1));
        assert_eq!(won.to_string().split(' ').count(), 8);
    }
}
