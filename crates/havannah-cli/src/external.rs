//! Another Havannah program as an [`Agent`]: any engine that speaks GTP on its standard input
//! and output, such as morat-havannah, so that matches can pit the `havannah` engine against
//! it.

use std::path::Path;
use std::time::Duration;

use game_harness::gtp_client::{GtpClient, GtpError};
use game_harness::process::{ErrorOutput, Launch};
use game_harness::{Agent, Clock};
use havannah_rules::{Colour, GameState, Move};

/// How long [`GtpProgram`] waits for one answer unless told otherwise
/// ([`GtpProgram::with_timeout`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// An external GTP program driven over pipes.
///
/// [`Agent::reset`] sends `boardsize`, `clear_board`, the setup commands and the moves
/// already played; [`Agent::observe`] sends the opponent's moves with `play`;
/// [`Agent::choose`] sends `genmove` and reads the cell in the rules' notation (`swap` is
/// the pie-rule move). The program keeps its own time: give it its time control in the setup
/// commands (for morat-havannah, `time -m 0.5 -g 0 -f 0` and `params -t 1`).
///
/// A program that dies, stops answering (for [`GtpProgram::with_timeout`]), answers an error,
/// resigns or names something that is not a cell makes [`Agent::choose`] return `None`, which
/// a match counts as a forfeit; [`GtpProgram::error`] and [`Agent::failure`] keep the reason.
/// A program that died or timed out is started again at the next [`Agent::reset`]. A program
/// that rejects `play ... swap` (morat-havannah has no pie rule) is simply not told about the
/// swap: in the rules of `havannah-rules` a swap places no stone and leaves Black to move,
/// which is the position it already has. The child is killed when the player is dropped.
///
/// ```no_run
/// use havannah::Agent;
/// use havannah_cli::external::GtpProgram;
///
/// let setup = ["time -m 0.5 -g 0 -f 0".to_string(), "params -t 1".to_string()];
/// let morat = GtpProgram::spawn("/opt/morat/morat-havannah", &setup)?;
/// println!("playing against {}", morat.name());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug)]
pub struct GtpProgram {
    setup: Vec<String>,
    client: GtpClient,
    /// The move this program chose last, which [`Agent::observe`] must not send back.
    own_move: Option<Move>,
    error: Option<String>,
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
        let stderr = stderr_log.map_or(ErrorOutput::Discard, |path| {
            ErrorOutput::Append(path.to_path_buf())
        });
        let client = GtpClient::start(Launch::words(command).stderr(stderr))
            .map_err(|e| e.to_string())?
            .with_timeout(Some(DEFAULT_TIMEOUT));
        Ok(GtpProgram {
            setup: setup.to_vec(),
            client,
            own_move: None,
            error: None,
        })
    }

    /// How long to wait for one answer before the program counts as hung (it is then killed
    /// and started again at the next game); `None` waits for ever. The default is
    /// [`DEFAULT_TIMEOUT`].
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> GtpProgram {
        self.client.set_timeout(timeout);
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
        self.client.send(command).map_err(|e| e.to_string())
    }

    /// Sends a command, keeping the first failure.
    fn send_kept(&mut self, command: &str) -> Option<String> {
        let result = self.send(command);
        self.keep(result)
    }

    /// Sends `play` for `mv` by `colour`, keeping the first failure; a rejected `swap` is no
    /// failure (see the type's documentation).
    fn play(&mut self, game: &GameState, colour: Colour, mv: Move) -> Option<()> {
        let command = format!(
            "play {} {}",
            colour_name(colour),
            mv.to_notation(game.board())
        );
        let result = match self.client.exchange(&command) {
            Ok(response) => match response.result {
                Err(_) if mv == Move::Swap => Ok(()),
                Err(message) => Err(GtpError::Failure { command, message }.to_string()),
                Ok(_) => Ok(()),
            },
            Err(e) => Err(e.to_string()),
        };
        self.keep(result)
    }

    /// The value of `result`, or `None` after keeping its error (the first one only).
    fn keep<T>(&mut self, result: Result<T, String>) -> Option<T> {
        result.map_err(|e| self.error.get_or_insert(e).clone()).ok()
    }

    /// Starts the program again if it died or hung; `false` (with the error kept) if it cannot.
    fn revive(&mut self) -> bool {
        match self.client.restart_if_dead() {
            Ok(_) => true,
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    /// The answer to `genmove` as a move of `game`, or why it is none.
    fn parse_move(game: &GameState, answer: &str) -> Result<Move, String> {
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

/// The GTP name of a colour.
fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

impl Agent<GameState> for GtpProgram {
    fn name(&self) -> String {
        format!("gtp:{}", self.client.command())
    }

    fn reset(&mut self, game: &GameState) {
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
        let Ok(mut replay) = GameState::new(size, game.rules()) else {
            return;
        };
        for &mv in game.moves() {
            if self.play(game, replay.to_move(), mv).is_none() || replay.play(mv).is_err() {
                return;
            }
        }
    }

    fn observe(&mut self, game: &GameState, mv: Move) {
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

    fn choose(&mut self, game: &GameState, _clock: &Clock) -> Option<Move> {
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
