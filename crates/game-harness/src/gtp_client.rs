//! A GTP v2 client: drives an external engine that speaks GTP on its standard input and
//! output, for any game.
//!
//! [`GtpClient::exchange`] sends one command and reads its answer up to the empty line that
//! ends it, as a [`Response`]: `=` gives its text, `?` its message, and a command id the
//! engine echoed is kept. [`GtpClient::send`] turns a `?` answer into an error. With a
//! timeout ([`GtpClient::with_timeout`]) an engine that does not finish its answer in time is
//! killed. An engine that died, hung or broke a pipe is started again on request
//! ([`GtpClient::restart_if_dead`]). Dropping the client sends `quit`, waits
//! [`QUIT_GRACE`] at most, and kills the engine if it is still running.
//!
//! ```no_run
//! use std::time::Duration;
//! use game_harness::gtp_client::GtpClient;
//! use game_harness::process::Launch;
//!
//! let mut engine = GtpClient::start(Launch::words("/opt/engine --gtp"))?
//!     .with_timeout(Some(Duration::from_secs(30)));
//! println!("playing against {}", engine.send("name")?);
//! # Ok::<(), game_harness::gtp_client::GtpError>(())
//! ```

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::gtp::{CommandError, Response};
use crate::process::{Launch, Process, ProcessError};

/// How long dropping a [`GtpClient`] waits for the engine to exit after `quit`.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Why a GTP command got no successful answer. Every error but [`GtpError::Start`] names the
/// command; [`GtpError::Start`] names the engine's command line.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum GtpError {
    /// The engine could not be started (or started again).
    #[error(transparent)]
    Start(ProcessError),
    /// Writing the command or reading its answer failed: the pipe broke, the engine closed
    /// its output (it exited or crashed), or its output could not be read.
    #[error("{command:?}: {source}")]
    Pipe {
        /// The GTP command.
        command: String,
        /// What failed.
        source: ProcessError,
    },
    /// The whole answer did not come within the timeout; the engine was killed.
    #[error("{command:?}: no answer within {:.1} s; the program was stopped", after.as_secs_f64())]
    TimedOut {
        /// The GTP command.
        command: String,
        /// The timeout.
        after: Duration,
    },
    /// An earlier command broke the pipe or timed out, and the engine was not started again.
    #[error("{command:?}: the program died or hung earlier")]
    Dead {
        /// The GTP command.
        command: String,
    },
    /// The engine answered with a GTP failure (`?`).
    #[error("{command:?}: the program answered ? {message}")]
    Failure {
        /// The GTP command.
        command: String,
        /// The failure's message.
        message: String,
    },
}

/// An external GTP engine over pipes. See the [module documentation](self).
#[derive(Debug)]
pub struct GtpClient {
    launch: Launch,
    process: Process,
    timeout: Option<Duration>,
    /// An exchange broke the pipe or timed out since the engine was started.
    failed: bool,
}

impl GtpClient {
    /// Starts the engine as `launch` says. Answers are awaited for ever until a timeout is
    /// set ([`GtpClient::with_timeout`]).
    ///
    /// # Errors
    /// [`GtpError::Start`] with the reason the engine could not be started.
    pub fn start(launch: Launch) -> Result<GtpClient, GtpError> {
        let process = launch.start().map_err(GtpError::Start)?;
        Ok(GtpClient {
            launch,
            process,
            timeout: None,
            failed: false,
        })
    }

    /// How long to wait for one whole answer before the engine counts as hung and is killed;
    /// `None` waits for ever.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> GtpClient {
        self.timeout = timeout;
        self
    }

    /// Changes the timeout of [`GtpClient::with_timeout`].
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    /// How long one answer may take; `None` for ever.
    #[must_use]
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The engine's command line.
    #[must_use]
    pub fn command(&self) -> &str {
        self.launch.command()
    }

    /// Whether the engine is running and no exchange has broken the pipe or timed out since
    /// it was started.
    pub fn is_alive(&mut self) -> bool {
        !self.failed && self.process.is_alive()
    }

    /// Starts the engine again if it is not alive ([`GtpClient::is_alive`]); `true` when it
    /// was started again.
    ///
    /// # Errors
    /// [`GtpError::Start`] when the engine cannot be started; the client then stays dead.
    pub fn restart_if_dead(&mut self) -> Result<bool, GtpError> {
        if self.is_alive() {
            return Ok(false);
        }
        self.restart()?;
        Ok(true)
    }

    /// Ends the running engine (as dropping the client does) and starts a new one.
    ///
    /// # Errors
    /// [`GtpError::Start`] when the engine cannot be started; the client then stays dead.
    pub fn restart(&mut self) -> Result<(), GtpError> {
        self.process.finish("quit", QUIT_GRACE);
        self.failed = true;
        self.process = self.launch.start().map_err(GtpError::Start)?;
        self.failed = false;
        Ok(())
    }

    /// Sends `command` and returns the text of its successful answer.
    ///
    /// # Errors
    /// [`GtpError::Failure`] for a `?` answer; the errors of [`GtpClient::exchange`].
    pub fn send(&mut self, command: &str) -> Result<String, GtpError> {
        match self.exchange(command)?.result {
            Ok(text) => Ok(text),
            Err(message) => Err(GtpError::Failure {
                command: command.to_string(),
                message: message.to_string(),
            }),
        }
    }

    /// Sends `command` and reads its whole answer: empty lines before it are skipped, its
    /// lines (without trailing spaces) are joined with `\n`, and the empty line after it ends
    /// it. An answer that does not start with `=` is a failure.
    ///
    /// # Errors
    /// [`GtpError::Dead`] after an earlier pipe failure or timeout, [`GtpError::Pipe`] when
    /// the command cannot be written or the answer read, [`GtpError::TimedOut`] when the
    /// answer is not complete within the timeout (the engine is then killed).
    pub fn exchange(&mut self, command: &str) -> Result<Response, GtpError> {
        if self.failed {
            return Err(GtpError::Dead {
                command: command.to_string(),
            });
        }
        let result = self.talk(command);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    /// Writes `command` and reads its answer, killing the engine on a timeout.
    fn talk(&mut self, command: &str) -> Result<Response, GtpError> {
        let pipe = |source| GtpError::Pipe {
            command: command.to_string(),
            source,
        };
        self.process.send_line(command).map_err(pipe)?;
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let mut answer = String::new();
        loop {
            let line = match self.process.read_line(deadline) {
                Ok(line) => line,
                Err(ProcessError::TimedOut { .. }) => {
                    self.process.kill();
                    return Err(GtpError::TimedOut {
                        command: command.to_string(),
                        after: self.timeout.unwrap_or_default(),
                    });
                }
                Err(source) => return Err(pipe(source)),
            };
            let line = line.trim_end();
            if line.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                return Ok(parse_answer(&answer));
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(line);
        }
    }
}

impl Drop for GtpClient {
    /// Sends `quit`, waits [`QUIT_GRACE`] at most for the engine to exit, then kills it.
    fn drop(&mut self) {
        self.process.finish("quit", QUIT_GRACE);
    }
}

/// A whole answer (without its final empty line) as a [`Response`]: `=` is a success and
/// anything else a failure ([`CommandError::Failed`] with the engine's message, the `?`
/// removed); a number right after the mark is the id.
pub fn parse_answer(answer: &str) -> Response {
    let (rest, success) = match answer.strip_prefix('=') {
        Some(rest) => (rest, true),
        None => (answer.strip_prefix('?').unwrap_or(answer), false),
    };
    let text = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let id = rest[..rest.len() - text.len()].parse().ok();
    let text = text.trim().to_string();
    Response {
        id,
        result: if success {
            Ok(text)
        } else {
            Err(CommandError::Failed(text))
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_parsed_with_their_ids() {
        let ok = |text: &str| Ok::<String, CommandError>(text.to_string());
        let err = |text: &str| Err::<String, CommandError>(CommandError::Failed(text.to_string()));
        let cases = [
            ("= h8", None, ok("h8")),
            ("=7 h8", Some(7), ok("h8")),
            ("=", None, ok("")),
            ("=12", Some(12), ok("")),
            ("? illegal move", None, err("illegal move")),
            ("?3 unknown command", Some(3), err("unknown command")),
            ("garbage", None, err("garbage")),
            ("= line one\nline two", None, ok("line one\nline two")),
        ];
        for (answer, id, result) in cases {
            assert_eq!(parse_answer(answer), Response { id, result }, "{answer:?}");
        }
    }
}
