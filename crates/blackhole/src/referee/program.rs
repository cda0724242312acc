//! A CodeCup-protocol program as an [`Agent`] of the match runner: lines over its standard
//! input and output, a fresh process per game, a thinking time per game.

use std::time::{Duration, Instant};

use game_harness::process::{ErrorOutput, Launch, Process, ProcessError};
use game_harness::{Agent, AgentFailure, Clock, MatchGame};

use super::game::BlackholeGame;
use crate::rules::Move;

/// How long a program may take to exit after `Quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// An external Blackhole program on the CodeCup protocol, run by `sh -c` with a thinking time
/// per game.
///
/// [`Agent::reset`] ends the previous game's process (`Quit`) and starts a fresh one, which is
/// sent the five blocked cells. [`Agent::choose`] sends `Start` when the program opens the
/// game (it plays Red) and reads its answer, with what is left of its thinking time as the
/// deadline; the clock runs from the start of the read to the answer. [`Agent::observe`]
/// forwards the opponent's moves, the last one included, and sends `Quit` once the game is
/// over. A program that runs out of time, ends its output or answers something that is not a
/// move makes [`Agent::choose`] return `None`, which the match counts as a forfeit, and
/// [`Agent::failure`] says why. A program that runs out of time is left running until its
/// `Quit`; the process is ended when the agent is dropped.
///
/// The CodeCup protocol starts every game from its blocked cells: a game with moves already
/// played cannot be set up, and [`Agent::reset`] to one leaves the agent failing.
#[derive(Debug)]
pub struct CodeCupProgram {
    launch: Launch,
    time_per_game: Duration,
    process: Option<Process>,
    /// Thinking time used in this game.
    used: Duration,
    /// The move this program chose last, which [`Agent::observe`] must not send back.
    own_move: Option<Move>,
    failure: Option<AgentFailure>,
}

impl CodeCupProgram {
    /// The program `command` (a shell command line) with `time_per_game` of thinking time in
    /// every game; its standard error goes to `stderr`. Nothing starts before the first game.
    #[must_use]
    pub fn new(command: &str, time_per_game: Duration, stderr: ErrorOutput) -> CodeCupProgram {
        CodeCupProgram {
            launch: Launch::shell(command).stderr(stderr).kill_on_timeout(false),
            time_per_game,
            process: None,
            used: Duration::ZERO,
            own_move: None,
            failure: None,
        }
    }

    /// The thinking time used in the current game.
    #[must_use]
    pub fn time_used(&self) -> Duration {
        self.used
    }

    /// Sends `Quit` to the running process, if any, and ends it.
    fn quit(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.finish("Quit", QUIT_GRACE);
        }
    }

    /// Sends one line; a program that died is caught when it must answer.
    fn send(&mut self, line: &str) {
        if let Some(process) = &mut self.process {
            let _ = process.send_line(line);
        }
    }

    /// The program's next non-blank line within the time left, or why there is none.
    fn answer(&mut self) -> Result<String, AgentFailure> {
        let program = |why: &str| AgentFailure::Program(why.to_string());
        let process =
            (self.process.as_mut()).ok_or_else(|| program("the program is not running"))?;
        let start = Instant::now();
        let deadline = start + self.time_per_game.saturating_sub(self.used);
        let line = loop {
            match process.read_line(Some(deadline)) {
                Ok(line) if line.trim().is_empty() => {}
                Ok(line) => break Ok(line.trim().to_string()),
                Err(ProcessError::TimedOut { .. }) => {
                    break Err(AgentFailure::OutOfTime(deadline - start));
                }
                Err(_) => break Err(program("ended its output (crash?)")),
            }
        };
        self.used += start.elapsed();
        let line = line?;
        if self.used > self.time_per_game {
            return Err(AgentFailure::OutOfTime(self.used));
        }
        Ok(line)
    }
}

impl Agent<BlackholeGame> for CodeCupProgram {
    fn name(&self) -> String {
        self.launch.command().to_string()
    }

    fn reset(&mut self, game: &BlackholeGame) {
        self.quit();
        self.used = Duration::ZERO;
        self.own_move = None;
        self.failure = None;
        if !game.moves().is_empty() {
            self.failure = Some(AgentFailure::Program(format!(
                "the CodeCup protocol cannot set up a game with {} moves played",
                game.moves().len()
            )));
            return;
        }
        match self.launch.start() {
            Ok(process) => self.process = Some(process),
            Err(e) => {
                let why = match e {
                    ProcessError::Start { source, .. } => source.to_string(),
                    other => other.to_string(),
                };
                let why = format!("cannot run `{}`: {why}", self.launch.command());
                self.failure = Some(AgentFailure::Program(why));
                return;
            }
        }
        for cell in game.blocked() {
            self.send(&cell.to_string());
        }
    }

    fn observe(&mut self, game: &BlackholeGame, mv: Move) {
        if self.own_move.take() != Some(mv) {
            self.send(&mv.to_string());
        }
        if game.verdict().is_some() {
            self.quit();
        }
    }

    fn choose(&mut self, game: &BlackholeGame, _clock: &Clock) -> Option<Move> {
        if self.failure.is_some() || game.verdict().is_some() {
            return None;
        }
        if game.moves().is_empty() {
            self.send("Start");
        }
        let chosen = self.answer().and_then(|line| {
            game.parse_move(&line)
                .map_err(|e| AgentFailure::BadAnswer(format!("illegal move `{line}`: {e}")))
        });
        match chosen {
            Ok(mv) => {
                self.own_move = Some(mv);
                Some(mv)
            }
            Err(why) => {
                self.failure = Some(why);
                None
            }
        }
    }

    fn failure(&self) -> Option<AgentFailure> {
        self.failure.clone()
    }
}

impl Drop for CodeCupProgram {
    /// Ends the last game's process with `Quit`.
    fn drop(&mut self) {
        self.quit();
    }
}
