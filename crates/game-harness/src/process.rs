//! An external program driven over pipes: a line protocol to its standard input and from its
//! standard output, for any program that plays a game this way (a GTP engine, a CodeCup
//! player).
//!
//! [`Launch`] says how to start the program: its command line split on whitespace
//! ([`Launch::words`]) or run by `sh -c` ([`Launch::shell`]), and where its standard error
//! goes ([`ErrorOutput`]). [`Launch::start`] gives a running [`Process`]: a thread reads its
//! output line by line, so that [`Process::read_line`] can give up at a deadline.
//! [`Process::finish`] asks the program to quit, waits a moment and then kills it; a
//! [`Process`] that is dropped kills its program.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use game_harness::process::Launch;
//!
//! let mut program = Launch::shell("read line; echo \"got $line\"").start()?;
//! program.send_line("hello")?;
//! let answer = program.read_line(Some(Instant::now() + Duration::from_secs(5)))?;
//! assert_eq!(answer, "got hello");
//! program.finish("quit", Duration::from_millis(500));
//! # Ok::<(), game_harness::process::ProcessError>(())
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use thiserror::Error;

/// How often [`Process::finish`] looks whether the program has exited.
const POLL: Duration = Duration::from_millis(5);

/// Why an external program could not be started or talked to. Every error names the command
/// line it concerns.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ProcessError {
    /// The command line holds no program name (it is empty or only spaces).
    #[error("the command {command:?} names no program")]
    EmptyCommand {
        /// The command line.
        command: String,
    },
    /// The operating system could not start the program.
    #[error("cannot start {command:?}: {source}")]
    Start {
        /// The command line.
        command: String,
        /// What the operating system reported.
        source: io::Error,
    },
    /// The program started without pipes to its standard input and output.
    #[error("{command:?} has no pipes")]
    NoPipes {
        /// The command line.
        command: String,
    },
    /// The file for the program's standard error could not be opened.
    #[error("cannot open the log file {} of {command:?}: {source}", path.display())]
    Log {
        /// The command line.
        command: String,
        /// The log file.
        path: PathBuf,
        /// What the operating system reported.
        source: io::Error,
    },
    /// A line could not be written to the program's standard input.
    #[error("cannot write to {command:?}: {source}")]
    Write {
        /// The command line.
        command: String,
        /// What the operating system reported.
        source: io::Error,
    },
    /// The program's standard output could not be read (or was not UTF-8).
    #[error("cannot read the output of {command:?}: {source}")]
    Read {
        /// The command line.
        command: String,
        /// What the operating system reported.
        source: io::Error,
    },
    /// The program closed its standard output (it exited or crashed).
    #[error("{command:?} closed its output")]
    Closed {
        /// The command line.
        command: String,
    },
    /// No line came before the deadline.
    #[error("{command:?} timed out after {:.1} s", after.as_secs_f64())]
    TimedOut {
        /// The command line.
        command: String,
        /// How long the read waited.
        after: Duration,
    },
}

/// Where a started program's standard error goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ErrorOutput {
    /// Nowhere.
    #[default]
    Discard,
    /// To this program's standard error.
    Inherit,
    /// Appended to this file, which is created if missing.
    Append(PathBuf),
}

/// How a command line names the program and its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Split {
    /// The first word is the program, the other words its arguments.
    Words,
    /// The whole line is a script for `sh -c`.
    Shell,
}

/// How to start an external program: its command line, how that line is run, where its
/// standard error goes, and whether a read that times out kills it.
///
/// ```
/// use game_harness::process::{ErrorOutput, Launch};
///
/// let launch = Launch::words("/opt/engine --threads 1").stderr(ErrorOutput::Inherit);
/// assert_eq!(launch.command(), "/opt/engine --threads 1");
/// assert!(launch.kills_on_timeout());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    command: String,
    split: Split,
    stderr: ErrorOutput,
    kill_on_timeout: bool,
}

impl Launch {
    /// The program named by the first word of `command`, with the other words (split on
    /// whitespace, no quoting) as its arguments. Its standard error is discarded and a read
    /// that times out kills it, unless told otherwise.
    #[must_use]
    pub fn words(command: impl Into<String>) -> Launch {
        Launch::new(command.into(), Split::Words)
    }

    /// `sh -c command`: the shell runs the whole line, with its quoting, pipes and
    /// redirections. Its standard error is discarded and a read that times out kills it,
    /// unless told otherwise.
    #[must_use]
    pub fn shell(command: impl Into<String>) -> Launch {
        Launch::new(command.into(), Split::Shell)
    }

    /// The launch of `command` split as `split`, with the defaults.
    fn new(command: String, split: Split) -> Launch {
        Launch {
            command,
            split,
            stderr: ErrorOutput::Discard,
            kill_on_timeout: true,
        }
    }

    /// Sends the program's standard error to `stderr`.
    #[must_use]
    pub fn stderr(mut self, stderr: ErrorOutput) -> Launch {
        self.stderr = stderr;
        self
    }

    /// Whether a [`Process::read_line`] that times out kills the program (the default) or
    /// leaves it running.
    #[must_use]
    pub fn kill_on_timeout(mut self, kill: bool) -> Launch {
        self.kill_on_timeout = kill;
        self
    }

    /// The command line.
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Whether a read that times out kills the program.
    #[must_use]
    pub fn kills_on_timeout(&self) -> bool {
        self.kill_on_timeout
    }

    /// Starts the program with piped standard input and output.
    ///
    /// # Errors
    /// [`ProcessError::EmptyCommand`] for a [`Launch::words`] line without words,
    /// [`ProcessError::Log`] for a log file that cannot be opened, [`ProcessError::Start`]
    /// for a program that cannot be started, [`ProcessError::NoPipes`].
    pub fn start(&self) -> Result<Process, ProcessError> {
        let mut command = match self.split {
            Split::Words => {
                let mut words = self.command.split_whitespace();
                let program = words.next().ok_or_else(|| ProcessError::EmptyCommand {
                    command: self.command.clone(),
                })?;
                let mut command = Command::new(program);
                command.args(words);
                command
            }
            Split::Shell => {
                let mut command = Command::new("sh");
                command.arg("-c").arg(&self.command);
                command
            }
        };
        let stderr = match &self.stderr {
            ErrorOutput::Discard => Stdio::null(),
            ErrorOutput::Inherit => Stdio::inherit(),
            ErrorOutput::Append(path) => Stdio::from(self.open_log(path)?),
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|source| ProcessError::Start {
                command: self.command.clone(),
                source,
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ProcessError::NoPipes {
                command: self.command.clone(),
            });
        };
        Ok(Process {
            command: self.command.clone(),
            child,
            input: Some(input),
            lines: read_lines(output),
            kill_on_timeout: self.kill_on_timeout,
            alive: true,
        })
    }

    /// Opens `path` for appending, creating it if needed.
    fn open_log(&self, path: &Path) -> Result<File, ProcessError> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| ProcessError::Log {
                command: self.command.clone(),
                path: path.to_path_buf(),
                source,
            })
    }
}

/// A running external program with pipes to its standard input and from its standard output.
///
/// Lines go in with [`Process::send_line`] and come out with [`Process::read_line`]. After a
/// write or read fails, or a read times out and kills the program, [`Process::is_alive`] is
/// `false`. The program is killed when the `Process` is dropped; [`Process::finish`] first
/// asks it to quit.
#[derive(Debug)]
pub struct Process {
    command: String,
    child: Child,
    /// `None` once [`Process::finish`] closed it.
    input: Option<ChildStdin>,
    /// Lines of the program's standard output, read by a thread so that reads can time out.
    lines: Receiver<io::Result<String>>,
    kill_on_timeout: bool,
    /// `false` once a pipe failed or the program was killed.
    alive: bool,
}

impl Process {
    /// The command line the program was started with.
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The operating system's id of the started process (of the shell for
    /// [`Launch::shell`]).
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `line` and a newline to the program's standard input and flushes it.
    ///
    /// # Errors
    /// [`ProcessError::Write`] when the pipe is closed (the program exited, or
    /// [`Process::finish`] closed it); the program then no longer counts as alive.
    pub fn send_line(&mut self, line: &str) -> Result<(), ProcessError> {
        let result = match self.input.as_mut() {
            Some(input) => writeln!(input, "{line}").and_then(|()| input.flush()),
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "its standard input is closed",
            )),
        };
        result.map_err(|source| {
            self.alive = false;
            ProcessError::Write {
                command: self.command.clone(),
                source,
            }
        })
    }

    /// The next line of the program's output without its line ending (`\n` or `\r\n`),
    /// waiting until `deadline` at most (`None`: for ever). Blank lines are returned like any
    /// other: skipping them is the caller's choice.
    ///
    /// # Errors
    /// [`ProcessError::Closed`] when the output has ended, [`ProcessError::Read`] when it
    /// cannot be read, [`ProcessError::TimedOut`] when no line came in time: the program is
    /// then killed if its [`Launch`] says so ([`Launch::kill_on_timeout`]).
    pub fn read_line(&mut self, deadline: Option<Instant>) -> Result<String, ProcessError> {
        let start = Instant::now();
        let received = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(deadline) => self
                .lines
                .recv_timeout(deadline.saturating_duration_since(start)),
        };
        match received {
            Ok(Ok(mut line)) => {
                if line.ends_with('\n') {
                    line.pop();
                    if line.ends_with('\r') {
                        line.pop();
                    }
                }
                Ok(line)
            }
            Ok(Err(source)) => {
                self.alive = false;
                Err(ProcessError::Read {
                    command: self.command.clone(),
                    source,
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.alive = false;
                Err(ProcessError::Closed {
                    command: self.command.clone(),
                })
            }
            Err(RecvTimeoutError::Timeout) => {
                if self.kill_on_timeout {
                    self.kill();
                }
                Err(ProcessError::TimedOut {
                    command: self.command.clone(),
                    after: start.elapsed(),
                })
            }
        }
    }

    /// Whether the program is running and no pipe to it has failed.
    pub fn is_alive(&mut self) -> bool {
        self.alive && matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the program (if it is still running) and waits for it to end.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.alive = false;
    }

    /// Ends the program politely: sends `quit_line`, closes its standard input, waits up to
    /// `grace` for it to exit, and kills it if it has not. A program that has already exited
    /// costs no wait.
    pub fn finish(&mut self, quit_line: &str, grace: Duration) {
        let _ = self.send_line(quit_line);
        drop(self.input.take());
        self.alive = false;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(POLL),
            }
        }
        self.kill();
    }
}

impl Drop for Process {
    /// Kills the program if it is still running and reaps it.
    fn drop(&mut self) {
        self.kill();
    }
}

/// A thread that forwards the lines of `output` (with their line endings) until it closes or
/// fails; the channel closes after the last line or the error.
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
