//! Another Havannah program as a [`Player`]: any engine that speaks GTP on its standard input
//! and output, such as morat-havannah, so that matches can pit this crate's engine against it.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use havannah_rules::{Colour, Game, Move};

use crate::player::{Clock, Player};

/// How long [`GtpProgram`] waits for one answer unless told otherwise
/// ([`GtpProgram::with_timeout`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// An external GTP program driven over pipes.
///
/// [`Player::reset`] sends `boardsize`, `clear_board`, the setup commands and the moves
/// already played; [`Player::observe`] sends the opponent's moves with `play`;
/// [`Player::choose`] sends `genmove` and reads the cell in this crate's notation (`swap` is
/// the pie-rule move). The program keeps its own time: give it its time control in the setup
/// commands (for morat-havannah, `time -m 0.5 -g 0 -f 0` and `params -t 1`).
///
/// A program that dies, stops answering (for [`GtpProgram::with_timeout`]), answers an error,
/// resigns or names something that is not a cell makes [`Player::choose`] return `None`, which
/// a match counts as a forfeit; [`GtpProgram::error`] and [`Player::failure`] keep the reason.
/// A program that died or timed out is started again at the next [`Player::reset`]. A program
/// that rejects `play ... swap` (morat-havannah has no pie rule) is simply not told about the
/// swap: in this crate's rules a swap places no stone and leaves Black to move, which is the
/// position it already has. The child is killed when the player is dropped.
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
    stderr_log: Option<PathBuf>,
    timeout: Option<Duration>,
    process: Process,
    /// The move this program chose last, which [`Player::observe`] must not send back.
    own_move: Option<Move>,
    error: Option<String>,
}

/// The running child with its pipes; `alive` is false once a pipe failed or an answer timed out.
#[derive(Debug)]
struct Process {
    child: Child,
    input: ChildStdin,
    /// Lines of the child's standard output, read by a thread so that reads can time out.
    lines: Receiver<io::Result<String>>,
    alive: bool,
}

/// One GTP answer: `=` (success) or `?` (failure), with its text.
enum Reply {
    Success(String),
    Failure(String),
}

impl GtpProgram {
    /// Starts `command` (split on whitespace: the program and its arguments); `setup` are GTP
    /// commands sent after every new game. The program's standard error is discarded.
    ///
    /// # Errors
    /// An empty command or a program that cannot be started, with the command in the message.
    pub fn spawn(command: &str, setup: &[String]) -> Result<GtpProgram, String> {
        GtpProgram::spawn_with_log(command, setup, None)
    }

    /// As [`GtpProgram::spawn`], appending the program's standard error to `stderr_log` (the
    /// file is created if missing) instead of discarding it.
    ///
    /// # Errors
    /// An empty command, a program that cannot be started, or a log file that cannot be
    /// opened.
    pub fn spawn_with_log(
        command: &str,
        setup: &[String],
        stderr_log: Option<&Path>,
    ) -> Result<GtpProgram, String> {
        let stderr_log = stderr_log.map(Path::to_path_buf);
        let process = Process::start(command, stderr_log.as_deref())?;
        Ok(GtpProgram {
            command: command.to_string(),
            setup: setup.to_vec(),
            stderr_log,
            timeout: Some(DEFAULT_TIMEOUT),
            process,
            own_move: None,
            error: None,
        })
    }

    /// How long to wait for one answer before the program counts as hung (it is then killed
    /// and started again at the next game); `None` waits for ever. The default is
    /// [`DEFAULT_TIMEOUT`].
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> GtpProgram {
        self.timeout = timeout;
        self
    }

    /// Why the program last failed, if it did.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Sends one command and returns the text of its successful answer.
    ///
    /// # Errors
    /// The pipe is closed, the answer timed out, or the answer is a GTP error (`?`), with the
    /// command in the message.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        match self.exchange(command)? {
            Reply::Success(text) => Ok(text),
            Reply::Failure(text) => Err(format!("{command:?}: the program answered ? {text}")),
        }
    }

    /// Sends one command and reads its answer; `Err` when the program cannot be talked to.
    fn exchange(&mut self, command: &str) -> Result<Reply, String> {
        let result = self.process.exchange(command, self.timeout);
        if result.is_err() {
            self.process.alive = false;
        }
        result.map_err(|e| format!("{command:?}: {e}"))
    }

    /// Sends a command, keeping the first failure.
    fn send_kept(&mut self, command: &str) -> Option<String> {
        let result = self.send(command);
        self.keep(result)
    }

    /// Sends `play` for `mv` by `colour`, keeping the first failure; a rejected `swap` is no
    /// failure (see the type's documentation).
    fn play(&mut self, game: &Game, colour: Colour, mv: Move) -> Option<()> {
        let command = format!(
            "play {} {}",
            colour_name(colour),
            mv.to_notation(game.board())
        );
        let result = match self.exchange(&command) {
            Ok(Reply::Success(_)) => Ok(()),
            Ok(Reply::Failure(_)) if mv == Move::Swap => Ok(()),
            Ok(Reply::Failure(text)) => Err(format!("{command:?}: the program answered ? {text}")),
            Err(e) => Err(e),
        };
        self.keep(result)
    }

    /// The value of `result`, or `None` after keeping its error (the first one only).
    fn keep<T>(&mut self, result: Result<T, String>) -> Option<T> {
        result.map_err(|e| self.error.get_or_insert(e).clone()).ok()
    }

    /// Starts the program again if it died or hung; `false` (with the error kept) if it cannot.
    fn revive(&mut self) -> bool {
        if self.process.alive {
            return true;
        }
        match Process::start(&self.command, self.stderr_log.as_deref()) {
            Ok(process) => {
                // The old process is dropped here, which kills it.
                self.process = process;
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
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

impl Process {
    /// Starts `command` with piped standard input and output and its standard error going to
    /// `stderr_log` (appended) or nowhere.
    fn start(command: &str, stderr_log: Option<&Path>) -> Result<Process, String> {
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| "the GTP program's command is empty".to_string())?;
        let stderr = match stderr_log {
            Some(path) => Stdio::from(open_log(path)?),
            None => Stdio::null(),
        };
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("cannot start GTP program {command:?}: {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("GTP program {command:?} has no pipes"));
        };
        Ok(Process {
            child,
            input,
            lines: read_lines(output),
            alive: true,
        })
    }

    /// Writes `command` and reads its answer, waiting at most `timeout` for all of it.
    fn exchange(&mut self, command: &str, timeout: Option<Duration>) -> Result<Reply, String> {
        if !self.alive {
            return Err("the program died or hung earlier".to_string());
        }
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("cannot write to the program: {e}"))?;
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut answer = String::new();
        loop {
            let line = self.next_line(deadline, timeout)?;
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
        Ok(parse_reply(&answer))
    }

    /// The next line of output, waiting until `deadline` at most.
    fn next_line(
        &mut self,
        deadline: Option<Instant>,
        timeout: Option<Duration>,
    ) -> Result<String, String> {
        let received = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(format!("cannot read the answer: {e}")),
            Err(RecvTimeoutError::Disconnected) => Err("the program closed its output".to_string()),
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                Err(format!(
                    "no answer within {:.1} s; the program was stopped",
                    timeout.unwrap_or_default().as_secs_f64()
                ))
            }
        }
    }
}

impl Drop for Process {
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

/// Opens `path` for appending, creating it if needed.
fn open_log(path: &Path) -> Result<File, String> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open the GTP log {}: {e}", path.display()))
}

/// A thread that forwards the lines of `output` until it closes.
fn read_lines(output: ChildStdout) -> Receiver<io::Result<String>> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(output);
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) => return,
                Ok(_) => {
                    if sender.send(Ok(line)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = sender.send(Err(e));
                    return;
                }
            }
        }
    });
    receiver
}

/// A whole answer as a [`Reply`], without its command id; anything not starting with `=` is a
/// failure.
fn parse_reply(answer: &str) -> Reply {
    match answer.strip_prefix('=') {
        Some(rest) => Reply::Success(strip_id(rest).to_string()),
        None => Reply::Failure(strip_id(answer.strip_prefix('?').unwrap_or(answer)).to_string()),
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

impl Player for GtpProgram {
    fn name(&self) -> String {
        format!("gtp:{}", self.command)
    }

    fn reset(&mut self, game: &Game) {
        self.own_move = None;
        self.error = None;
        if !self.revive() {
            return;
        }
        let size = game.board().size();
        let mut commands = vec![format!("boardsize {size}"), "clear_board".to_string()];
        commands.extend(self.setup.iter().cloned());
        for command in commands {
            if self.send_kept(&command).is_none() {
                return;
            }
        }
        let Ok(mut replay) = Game::new(size, game.rules()) else {
            return;
        };
        for &mv in game.moves() {
            if self.play(game, replay.to_move(), mv).is_none() || replay.play(mv).is_err() {
                return;
            }
        }
    }

    fn observe(&mut self, game: &Game, mv: Move) {
        if self.own_move.take() == Some(mv) || self.error.is_some() {
            return;
        }
        // The colour that made `mv`: the one not to move now, except after a swap, which
        // leaves Black to move again (the swapping player is Black in the notation of turns).
        let colour = match mv {
            Move::Swap => Colour::Black,
            Move::Cell(_) => game.to_move().other(),
        };
        self.play(game, colour, mv);
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

    fn failure(&self) -> Option<String> {
        self.error.clone()
    }
}
