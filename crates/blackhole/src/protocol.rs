//! The CodeCup protocol: one token per line, the five blocked cells, `Start` for Red, moves as
//! `<cell>=<value>`, `Quit` at the end. Output is flushed after every move; logs go to stderr.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use game_harness::{Agent, Clock, MatchGame};

use crate::board::Cell;
use crate::error::BlackholeError;
use crate::referee::BlackholeGame;
use crate::rules::{BLOCKED, BLUE, Move, Position, RED};

/// What happened in one game played over the protocol.
#[derive(Clone, Debug)]
pub struct GameLog {
    /// Our colour (Red 0, Blue 1), if the game got that far.
    pub me: Option<usize>,
    /// Every move of the game, in order.
    pub moves: Vec<Move>,
    /// The last position.
    pub position: Option<Position>,
    /// Our thinking time (from reading a line to writing the answer).
    pub thinking: Duration,
}

fn protocol_error(reason: impl ToString, line: &str) -> BlackholeError {
    BlackholeError::Protocol {
        reason: reason.to_string(),
        line: line.to_string(),
    }
}

/// Reads the next non-empty line, trimmed; `None` at end of input.
fn next_line<R: BufRead>(input: &mut R) -> Result<Option<String>, BlackholeError> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let t = line.trim();
        if !t.is_empty() {
            return Ok(Some(t.to_string()));
        }
    }
}

/// Reads the five blocked cells that open a game.
fn read_blocked<R: BufRead>(input: &mut R) -> Result<Vec<Cell>, BlackholeError> {
    let mut blocked = Vec::with_capacity(BLOCKED);
    while blocked.len() < BLOCKED {
        let Some(line) = next_line(input)? else {
            return Err(protocol_error(
                format!("input ended after {} blocked cells", blocked.len()),
                "",
            ));
        };
        let c = Cell::parse(&line).map_err(|e| protocol_error(e, &line))?;
        if blocked.contains(&c) {
            return Err(protocol_error(format!("cell {c} is blocked twice"), &line));
        }
        blocked.push(c);
    }
    Ok(blocked)
}

/// Plays one game over the protocol: `bot` answers every opponent move, with `budget` of
/// thinking time for the whole game (its clock's `remaining`); it is reset to the blocked
/// cells and observes every move.
///
/// # Errors
/// [`BlackholeError::Protocol`] naming the offending line for a bad blocked cell, a malformed
/// or illegal move (unknown cell, used value, occupied cell) or a line out of place;
/// [`BlackholeError::Io`] if reading or writing fails. The caller should stop rather than play
/// on from a wrong state.
pub fn play<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    bot: &mut dyn Agent<BlackholeGame>,
    budget: Duration,
) -> Result<GameLog, BlackholeError> {
    let mut log = GameLog {
        me: None,
        moves: Vec::new(),
        position: None,
        thinking: Duration::ZERO,
    };
    let blocked = read_blocked(&mut input)?;
    let mut game = BlackholeGame::new(&blocked).map_err(|e| protocol_error(e, ""))?;
    bot.reset(&game);
    log.position = Some(*game.position());
    loop {
        let Some(line) = next_line(&mut input)? else {
            return Ok(log);
        };
        let received = Instant::now();
        if line == "Quit" {
            return Ok(log);
        }
        if line == "Start" {
            if log.me.is_some() || !game.moves().is_empty() {
                return Err(protocol_error("Start in the middle of a game", &line));
            }
            log.me = Some(RED);
        } else {
            let mv: Move = line.parse().map_err(|e| protocol_error(e, &line))?;
            if log.me.is_none() {
                log.me = Some(BLUE);
            }
            if log.me == Some(game.position().mover()) {
                return Err(protocol_error(
                    "a move for us arrived from the opponent",
                    &line,
                ));
            }
            game.try_play(mv).map_err(|e| protocol_error(e, &line))?;
            bot.observe(&game, mv);
            log.moves.push(mv);
            log.position = Some(*game.position());
        }
        if game.position().is_over() {
            // The last move was forwarded: nothing to answer; wait for Quit.
            continue;
        }
        let clock = Clock {
            remaining: Some(budget.saturating_sub(log.thinking)),
            ..Clock::unlimited()
        };
        let Some(mv) = bot.choose(&game, &clock) else {
            let why = bot
                .failure()
                .map_or_else(|| "no move".to_string(), |f| f.to_string());
            return Err(protocol_error(
                format!("our player chose no move: {why}"),
                &line,
            ));
        };
        if let Err(e) = game.position().check(mv) {
            // Our own bug: report it rather than send an illegal move.
            return Err(protocol_error(
                format!("own move {mv} is illegal: {e}"),
                &line,
            ));
        }
        writeln!(output, "{mv}")?;
        output.flush()?;
        log.thinking += received.elapsed();
        game.try_play(mv).map_err(|e| protocol_error(e, &line))?;
        bot.observe(&game, mv);
        log.moves.push(mv);
        log.position = Some(*game.position());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::cells_of;
    use crate::engine::{EngineConfig, EventHorizon, RandomBot};
    use std::io::{BufReader, pipe};

    fn run(
        input: &str,
        bot: &mut dyn Agent<BlackholeGame>,
    ) -> (Result<GameLog, BlackholeError>, Vec<String>) {
        let mut out = Vec::new();
        let r = play(input.as_bytes(), &mut out, bot, Duration::from_millis(300));
        let text = String::from_utf8(out).unwrap();
        (r, text.lines().map(str::to_string).collect())
    }

    const BLOCKED_CELLS: [&str; 5] = ["B4", "A1", "H1", "C3", "E2"];

    /// Plays a whole game over pipes against a scripted opponent (first empty cell, lowest
    /// stone), the protocol loop running in a thread as a real program would. Returns the
    /// final position and the program's log.
    fn interactive(
        bot: Box<dyn Agent<BlackholeGame>>,
        we_are_red: bool,
        forward_last: bool,
    ) -> (Position, GameLog) {
        let (to_bot_r, mut to_bot_w) = pipe().unwrap();
        let (from_bot_r, from_bot_w) = pipe().unwrap();
        let handle = std::thread::spawn(move || {
            let mut bot = bot;
            play(
                BufReader::new(to_bot_r),
                from_bot_w,
                bot.as_mut(),
                Duration::from_millis(400),
            )
        });
        let mut answers = BufReader::new(from_bot_r);
        let cells: Vec<Cell> = BLOCKED_CELLS
            .iter()
            .map(|c| Cell::parse(c).unwrap())
            .collect();
        let mut p = Position::new(&cells).unwrap();
        for c in BLOCKED_CELLS {
            writeln!(to_bot_w, "{c}").unwrap();
        }
        let me = if we_are_red { RED } else { BLUE };
        if we_are_red {
            writeln!(to_bot_w, "Start").unwrap();
        }
        while !p.is_over() {
            if p.mover() == me {
                let mut line = String::new();
                answers.read_line(&mut line).unwrap();
                let mv: Move = line.trim().parse().expect("a move");
                p.try_play(mv).expect("a legal answer");
            } else {
                let c = cells_of(p.empty()).next().unwrap();
                let mv = Move::new(c, p.lowest_stone(p.mover()));
                p.play(mv);
                if !p.is_over() || forward_last {
                    writeln!(to_bot_w, "{mv}").unwrap();
                }
            }
        }
        writeln!(to_bot_w, "Quit").unwrap();
        let log = handle.join().unwrap().unwrap();
        // Nothing more was written after the game.
        drop(to_bot_w);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut answers, &mut rest).unwrap();
        assert_eq!(rest, "", "output after the game");
        (p, log)
    }

    #[test]
    fn whole_games_over_pipes_in_both_colours() {
        for (we_are_red, forward_last) in [(true, true), (true, false), (false, false)] {
            let bot: Box<dyn Agent<BlackholeGame>> = Box::new(RandomBot::new(3));
            let (p, log) = interactive(bot, we_are_red, forward_last);
            assert!(p.is_over());
            assert_eq!(log.me, Some(if we_are_red { RED } else { BLUE }));
            let expected = if forward_last || !we_are_red { 30 } else { 29 };
            assert_eq!(log.moves.len(), expected);
            if expected == 30 {
                assert_eq!(log.position, Some(p));
            }
        }
        // The search player too, on a small budget.
        let bot: Box<dyn Agent<BlackholeGame>> =
            Box::new(EventHorizon::new(EngineConfig::default(), 3).unwrap());
        let (p, log) = interactive(bot, false, false);
        assert!(p.is_over());
        assert!(log.thinking < Duration::from_millis(400) + Duration::from_millis(300));
    }

    #[test]
    fn red_answers_start() {
        let mut bot = RandomBot::new(1);
        let (r, lines) = run("B4\nA1\nH1\nC3\nE2\nStart\nQuit\n", &mut bot);
        assert_eq!(r.unwrap().me, Some(RED));
        assert_eq!(lines.len(), 1);
        assert!(lines[0].parse::<Move>().is_ok());
    }

    #[test]
    fn bad_input_names_the_offending_line() {
        let cases = [
            ("B4\nA1\nH1\nC3\nZ9\n", "Z9"),
            ("B4\nA1\nH1\nC3\nB4\n", "B4"),
            ("B4\nA1\nH1\nC3\nE2\nStart\nX1=3\n", "X1=3"),
            ("B4\nA1\nH1\nC3\nE2\nB4=3\n", "B4=3"), // a blocked cell
            ("B4\nA1\nH1\nC3\nE2\nA2=16\n", "A2=16"), // no such stone
            ("B4\nA1\nH1\nC3\nE2\nA2=hello\n", "A2=hello"),
            ("B4\nA1\nH1\nC3\nE2\nFoo\n", "Foo"),
            ("B4\nA1\nH1\nC3\nE2\nA2=5\nStart\n", "Start"),
        ];
        for (input, offending) in cases {
            let mut bot = RandomBot::new(1);
            let (r, _) = run(input, &mut bot);
            match r {
                Err(BlackholeError::Protocol { line, .. }) => assert_eq!(line, offending),
                other => panic!("{input:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_used_value_and_an_occupied_cell_are_refused() {
        // Blue receives A2=5 and answers; then Red plays A2 again: occupied.
        let mut bot = RandomBot::new(5);
        let (r, lines) = run("B4\nA1\nH1\nC3\nE2\nA2=5\nA2=6\n", &mut bot);
        assert_eq!(lines.len(), 1);
        assert!(
            matches!(r, Err(BlackholeError::Protocol { ref line, ref reason })
                if line == "A2=6" && reason.contains("not empty")),
            "{r:?}"
        );
        // Red uses stone 5 twice, on a cell our answer did not take.
        let answer: Move = lines[0].parse().unwrap();
        let target = ["A3", "A4"]
            .into_iter()
            .find(|c| answer.cell.to_string() != *c)
            .unwrap();
        let input = format!("B4\nA1\nH1\nC3\nE2\nA2=5\n{target}=5\n");
        let mut bot = RandomBot::new(5);
        let (r, _) = run(&input, &mut bot);
        assert!(
            matches!(r, Err(BlackholeError::Protocol { ref reason, ref line })
                if reason.contains("already used") && *line == format!("{target}=5")),
            "{r:?}"
        );
    }

    #[test]
    fn ends_quietly_at_end_of_input() {
        let mut bot = RandomBot::new(2);
        let (r, lines) = run("B4\nA1\nH1\nC3\nE2\n", &mut bot);
        assert!(r.is_ok());
        assert!(lines.is_empty());
        let (r, _) = run("B4\nA1\n", &mut bot);
        assert!(r.is_err());
    }
}
