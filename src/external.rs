//! Another Havannah program as a [`Player`]: any engine that speaks GTP on its standard input
//! and output, such as morat-havannah, so that matches can pit this crate's engine against it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use havannah_rules::{Colour, Game, Move};

use crate::player::{Clock, Player};

/// An external GTP program driven over pipes.
///
/// [`Player::reset`] sends `boardsize`, `clear_board`, the setup commands and the moves
/// already played; [`Player::observe`] sends the opponent's moves with `play`;
/// [`Player::choose`] sends `genmove` and reads the cell in this crate's notation (`swap` is
/// the pie-rule move). The program keeps its own time: give it its time control in the setup
/// commands (for morat-havannah, `time -m 0.5 -g 0 -f 0` and `params -t 1`). A program that
/// dies, answers an error, resigns or names something that is not a cell makes
/// [`Player::choose`] return `None`, which a match counts as a forfeit; [`GtpProgram::error`]
/// keeps the reason. The child is killed when the player is dropped.
///
/// ```no_run
/// use havannah::{GtpProgram, Player};
///
/// let setup = ["time -m 0.5 -g 0 -f 0".to_string(), "params -t 1".to_string()];
/// let morat = GtpProgram::spawn("/opt/morat/morat-havannah", &setup)?;
/// println!("playing against {}", morat.name());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug)]
pub struct GtpProgram {
    command: String,
    setup: Vec<String>,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The move this program chose last, which [`Player::observe`] must not send back.
    own_move: Option<Move>,
    error: Option<String>,
}

impl GtpProgram {
    /// Starts `command` (split on whitespace: the program and its arguments); `setup` are GTP
    /// commands sent after every new game.
    ///
    /// # Errors
    /// An empty command or a program that cannot be started, with the command in the message.
    pub fn spawn(command: &str, setup: &[String]) -> Result<GtpProgram, String> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| "the GTP program's command is empty".to_string())?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start GTP program {command:?}: {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(format!("GTP program {command:?} has no pipes"));
        };
        Ok(GtpProgram {
            command: command.to_string(),
            setup: setup.to_vec(),
            child,
            input,
            output: BufReader::new(output),
            own_move: None,
            error: None,
        })
    }

    /// Why the program last failed, if it did.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Sends one command and returns the text of its successful answer.
    ///
    /// # Errors
    /// The pipe is closed, or the answer is a GTP error (`?`), with the command in the message.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("{command:?}: cannot write to the program: {e}"))?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("{command:?}: cannot read the answer: {e}"))?;
            if read == 0 {
                return Err(format!("{command:?}: the program closed its output"));
            }
            let line = line.trim_end();
            if line.is_empty() {
                if answer.is_empty() {
                    continue; // blank lines before an answer
                }
                break;
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(line);
        }
        match answer.chars().next() {
            Some('=') => Ok(strip_id(&answer[1..]).to_string()),
            _ => Err(format!("{command:?}: the program answered {answer:?}")),
        }
    }

    /// Sends a command, keeping the first failure.
    fn send_kept(&mut self, command: &str) -> Option<String> {
        match self.send(command) {
            Ok(answer) => Some(answer),
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    /// The answer to `genmove` as a move of `game`, or why it is none.
    fn parse_move(game: &Game, answer: &str) -> Result<Move, String> {
        let text = answer.trim();
        if text.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        if text.eq_ignore_ascii_case("resign") {
            return Err("the program resigned".to_string());
        }
        game.board()
            .parse_cell(text)
            .map(Move::Cell)
            .map_err(|e| format!("genmove answer: {e}"))
    }
}

/// The answer after an optional GTP command id.
fn strip_id(answer: &str) -> &str {
    answer
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim()
}

/// The GTP name of a colour.
fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// The GTP text of a move.
fn move_text(game: &Game, mv: Move) -> String {
    mv.to_notation(game.board())
}

impl Player for GtpProgram {
    fn name(&self) -> String {
        format!("gtp:{}", self.command)
    }

    fn reset(&mut self, game: &Game) {
        self.own_move = None;
        self.error = None;
        let size = game.board().size();
        let mut commands = vec![format!("boardsize {size}"), "clear_board".to_string()];
        commands.extend(self.setup.iter().cloned());
        let mut replay = Game::new(size, game.rules()).ok();
        for &mv in game.moves() {
            let colour = replay.as_ref().map_or(Colour::White, Game::to_move);
            commands.push(format!(
                "play {} {}",
                colour_name(colour),
                move_text(game, mv)
            ));
            if let Some(r) = replay.as_mut() {
                let _ = r.play(mv);
            }
        }
        for command in commands {
            if self.send_kept(&command).is_none() {
                return;
            }
        }
    }

    fn observe(&mut self, game: &Game, mv: Move) {
        if self.own_move.take() == Some(mv) {
            return;
        }
        // The colour that made `mv`: the one not to move now (a swap keeps the colours' turns).
        let colour = game.to_move().other();
        let command = format!("play {} {}", colour_name(colour), move_text(game, mv));
        self.send_kept(&command);
    }

    fn choose(&mut self, game: &Game, _clock: &Clock) -> Option<Move> {
        if game.outcome().is_over() || self.error.is_some() {
            return None;
        }
        let answer = self.send_kept(&format!("genmove {}", colour_name(game.to_move())))?;
        match GtpProgram::parse_move(game, &answer) {
            Ok(mv) => {
                self.own_move = Some(mv);
                Some(mv)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }
}

impl Drop for GtpProgram {
    /// Asks the program to quit, gives it a moment to do so, then kills it.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
