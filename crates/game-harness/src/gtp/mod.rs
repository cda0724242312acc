//! A GTP (Go Text Protocol, version 2) engine for any game: the server loop over an engine
//! trait, and the standard commands over a game trait.
//!
//! The loop does the protocol; the engine does the game. [`handle`] reads one line and answers
//! `protocol_version`, `name`, `version`, `known_command`, `list_commands` and `quit` itself;
//! every other command goes to [`GtpEngine::execute`]. [`run`] reads lines until `quit` or the
//! end of the input.
//!
//! [`GtpSession`] is the engine for any game that implements [`GtpGame`], played by any
//! [`Agent`](crate::Agent): `boardsize`, `clear_board`, `play`, `genmove`, `reg_genmove`,
//! `undo`, `showboard`, `final_score`, `time_settings` and `time_left` are written once there,
//! and a game adds its own commands with a [`GtpExtension`].
//!
//! Protocol details:
//! - A command may start with a numeric id, echoed in the reply: `=7 h8` or `?7 message`.
//! - Every reply ends with an empty line; a multi-line reply never contains one.
//! - Control characters other than tab and newline are removed, tabs count as spaces,
//!   everything after `#` is a comment, and empty lines are ignored (no reply).
//! - Command names are case-insensitive.
//!
//! ```
//! use game_harness::gtp::{CommandError, GtpEngine, handle};
//!
//! /// A counter: `add N` adds, `total` answers the sum.
//! struct Counter(i64);
//!
//! impl GtpEngine for Counter {
//!     fn name(&self) -> String { "counter".into() }
//!     fn version(&self) -> String { "1".into() }
//!     fn commands(&self) -> &[&str] {
//!         &["protocol_version", "name", "version", "known_command", "list_commands", "quit",
//!           "add", "total"]
//!     }
//!     fn execute(&mut self, command: &str, args: &[&str]) -> Result<String, CommandError> {
//!         match (command, args) {
//!             ("add", [n]) => {
//!                 let n: i64 = n
//!                     .parse()
//!                     .map_err(|_| CommandError::Failed(format!("not a number: {n}")))?;
//!                 self.0 += n;
//!                 Ok(String::new())
//!             }
//!             ("add", _) => Err(CommandError::syntax("add N")),
//!             ("total", []) => Ok(self.0.to_string()),
//!             _ => Err(CommandError::unknown(command)),
//!         }
//!     }
//! }
//!
//! let mut engine = Counter(0);
//! let reply = |e: &mut Counter, line: &str| handle(e, line).map(|(r, _)| r.to_string());
//! assert_eq!(reply(&mut engine, "1 add 5").unwrap(), "=1\n\n");
//! assert_eq!(reply(&mut engine, "ADD 2 # case-insensitive").unwrap(), "=\n\n");
//! assert_eq!(reply(&mut engine, "2 total").unwrap(), "=2 7\n\n");
//! assert_eq!(reply(&mut engine, "add x").unwrap(), "? not a number: x\n\n");
//! assert_eq!(reply(&mut engine, "add").unwrap(), "? syntax: add N\n\n");
//! assert_eq!(reply(&mut engine, "known_command total").unwrap(), "= true\n\n");
//! assert!(reply(&mut engine, "# a comment").is_none());
//! let (quit, ends) = handle(&mut engine, "quit").unwrap();
//! assert!(quit.is_success() && ends);
//! ```

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::Duration;

mod error;
mod game;
mod session;

pub use error::{ArgumentError, CommandError, switch};

pub use game::{GtpColour, GtpGame, PlayError};
pub use session::{
    DEFAULT_SAFETY_MARGIN, GtpExtension, GtpSession, GtpSessionError, STANDARD_COMMANDS,
};

/// The GTP protocol version this loop speaks.
pub const PROTOCOL_VERSION: &str = "2";

/// A game engine behind the GTP loop.
pub trait GtpEngine {
    /// What `name` answers.
    fn name(&self) -> String;

    /// What `version` answers.
    fn version(&self) -> String;

    /// Every command the engine knows, the loop's own ones included, in the order
    /// `list_commands` gives them; `known_command` answers from it.
    fn commands(&self) -> &[&str];

    /// Runs a command other than the loop's own: `Ok(text)` for `=`, `Err(error)` for `?`
    /// (the error's message is the reply's text). `command` is lower-case, `args` are the
    /// words after it.
    ///
    /// # Errors
    /// Why the command failed: [`CommandError::UnknownCommand`], a bad argument, an illegal
    /// move, ...
    fn execute(&mut self, command: &str, args: &[&str]) -> Result<String, CommandError>;

    /// Called when the controller sends `quit`, before the reply is written.
    fn quit(&mut self) {}
}

/// A reply to one command: success or failure, with the command's id if it had one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The numeric id of the command, echoed in the reply.
    pub id: Option<u64>,
    /// The text of a success (`Ok`) or why the command failed (`Err`).
    pub result: Result<String, CommandError>,
}

impl Response {
    /// Whether the command succeeded (`=`).
    #[must_use]
    pub fn is_success(&self) -> bool {
        self.result.is_ok()
    }

    /// The text of the reply without the `=`/`?`, the id and the final empty line: the
    /// success's text, or the failure's message on one line (control characters become
    /// spaces).
    #[must_use]
    pub fn text(&self) -> Cow<'_, str> {
        match &self.result {
            Ok(t) => Cow::Borrowed(t),
            Err(e) => Cow::Owned(sanitize(&e.to_string())),
        }
    }
}

impl fmt::Display for Response {
    /// The reply as sent: `=id text` or `?id text`, then an empty line. Empty lines inside the
    /// text are dropped so they cannot end the reply early.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.is_success() { '=' } else { '?' };
        f.write_str(&mark.to_string())?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        let text = self.text();
        let text = text.trim_end();
        if !text.is_empty() {
            let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
            // The first line may be empty (a board starts on its own line); later ones may not.
            let first = lines.next().unwrap_or("");
            write!(f, " {first}")?;
            for line in lines.filter(|l| !l.trim().is_empty()) {
                write!(f, "\n{line}")?;
            }
        }
        f.write_str("\n\n")
    }
}

/// Handles one line of input: `None` for a line to ignore (empty or a comment), else the reply
/// and whether the session ends (`quit`).
pub fn handle<E: GtpEngine + ?Sized>(engine: &mut E, line: &str) -> Option<(Response, bool)> {
    let clean = preprocess(line);
    let mut words = clean.split_whitespace();
    let first = words.next()?;
    let (id, command) = match first.parse::<u64>() {
        Ok(id) => match words.next() {
            Some(cmd) => (Some(id), cmd),
            None => {
                let result = Err(CommandError::MissingCommand);
                return Some((
                    Response {
                        id: Some(id),
                        result,
                    },
                    false,
                ));
            }
        },
        Err(_) => (None, first),
    };
    let command = command.to_ascii_lowercase();
    let args: Vec<&str> = words.collect();
    let mut quit = false;
    let result = match command.as_str() {
        "protocol_version" => Ok(PROTOCOL_VERSION.to_string()),
        "name" => Ok(engine.name()),
        "version" => Ok(engine.version()),
        "known_command" => match args.as_slice() {
            [name] => Ok(engine
                .commands()
                .contains(&name.to_ascii_lowercase().as_str())
                .to_string()),
            _ => Err(CommandError::syntax("known_command COMMAND")),
        },
        "list_commands" => Ok(engine.commands().join("\n")),
        "quit" => {
            quit = true;
            engine.quit();
            Ok(String::new())
        }
        _ => engine.execute(&command, &args),
    };
    let result = result.map(|s| sanitize_reply(&s));
    Some((Response { id, result }, quit))
}

/// Reads commands from `input` and writes the replies to `output` until `quit` or the end of
/// the input, flushing after every reply. Invalid UTF-8 is replaced, never fatal.
///
/// # Errors
/// Only errors of reading `input` or writing `output`.
pub fn run<E: GtpEngine + ?Sized>(
    engine: &mut E,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        if let Some((response, quit)) = handle(engine, &line) {
            write!(output, "{response}")?;
            output.flush()?;
            if quit {
                return Ok(());
            }
        }
    }
}

/// GTP preprocessing: drop control characters other than tab and newline, tabs to spaces, cut
/// the comment after `#`.
#[must_use]
pub fn preprocess(line: &str) -> String {
    let before_comment = line.split('#').next().unwrap_or("");
    before_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// A GTP command line: the optional id, the command and its arguments, separated by single
/// spaces (what the fuzz-style tests generate).
///
/// ```
/// use game_harness::gtp::command_line;
/// assert_eq!(command_line(Some(7), "play", &["b", "c3"]), "7 play b c3");
/// assert_eq!(command_line(None, "quit", &[]), "quit");
/// ```
#[must_use]
pub fn command_line(id: Option<u64>, command: &str, args: &[&str]) -> String {
    let mut line = id.map(|i| format!("{i} ")).unwrap_or_default();
    line.push_str(command);
    for a in args {
        line.push(' ');
        line.push_str(a);
    }
    line
}

/// Whether a test that feeds arbitrary GTP lines to an engine should skip `line` to keep each
/// case fast: a clock command (`time_settings`, `time_left`: their times would let the engine
/// think), or a `boardsize` line holding any number above `max_size`. Case is ignored.
///
/// ```
/// use game_harness::gtp::too_slow_to_fuzz;
/// assert!(too_slow_to_fuzz("TIME_LEFT b 5 0", 9));
/// assert!(too_slow_to_fuzz("3 boardsize 11", 9));
/// assert!(!too_slow_to_fuzz("boardsize 9", 9));
/// assert!(!too_slow_to_fuzz("play b c11", 9));
/// ```
#[must_use]
pub fn too_slow_to_fuzz(line: &str, max_size: u64) -> bool {
    let lower = line.to_ascii_lowercase();
    let clock = lower.contains("time_settings") || lower.contains("time_left");
    let big_board = lower.contains("boardsize")
        && lower
            .split_whitespace()
            .filter_map(|w| w.parse::<u64>().ok())
            .any(|n| n > max_size);
    clock || big_board
}

/// Whether `reply` is exactly one GTP response as [`Response`] writes it: it starts with `=`
/// or `?`, ends with an empty line, and holds no empty line before that (a controller reads up
/// to the first empty line, so an earlier one would split the reply).
///
/// ```
/// use game_harness::gtp::is_one_response;
/// assert!(is_one_response("= e5\n\n"));
/// assert!(!is_one_response("= a\n\nb\n\n"));
/// ```
#[must_use]
pub fn is_one_response(reply: &str) -> bool {
    (reply.starts_with('=') || reply.starts_with('?'))
        && reply
            .strip_suffix("\n\n")
            .is_some_and(|body| !body.contains("\n\n"))
}

/// A short, single-line form of user text for error messages (32 characters at most, then
/// `...`).
#[must_use]
pub fn shorten(text: &str) -> String {
    let mut out: String = text.chars().take(32).collect();
    if text.chars().count() > 32 {
        out.push_str("...");
    }
    out
}

/// Parses a non-negative number of seconds (integer or decimal) below a century, as
/// `time_settings` and `time_left` send them.
///
/// ```
/// use game_harness::gtp::{ArgumentError, seconds};
/// use std::time::Duration;
///
/// assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
/// assert!(matches!(seconds("-1"), Err(ArgumentError::SecondsOutOfRange { .. })));
/// assert_eq!(seconds("x").unwrap_err().to_string(), "invalid time x: expected seconds");
/// ```
///
/// # Errors
/// [`ArgumentError::NotSeconds`] for text that is not a number,
/// [`ArgumentError::SecondsOutOfRange`] for a number out of range; both name the text.
pub fn seconds(text: &str) -> Result<Duration, ArgumentError> {
    let value: f64 = text.parse().map_err(|_| ArgumentError::NotSeconds {
        text: shorten(text),
    })?;
    if !(value.is_finite() && (0.0..=3.2e9).contains(&value)) {
        return Err(ArgumentError::SecondsOutOfRange {
            text: shorten(text),
        });
    }
    Ok(Duration::from_secs_f64(value))
}

/// Parses a non-negative count of stones.
///
/// # Errors
/// [`ArgumentError::NotCount`], naming the text, for anything but a count that fits a `u32`.
pub fn count(text: &str) -> Result<u32, ArgumentError> {
    text.parse().map_err(|_| ArgumentError::NotCount {
        text: shorten(text),
    })
}

/// One line, no control characters.
fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Multi-line text with no control characters but newlines.
fn sanitize_reply(text: &str) -> String {
    text.chars()
        .filter(|&c| c == '\n' || !c.is_control())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_response_is_recognised() {
        use super::{Response, is_one_response};
        let reply = Response {
            id: Some(3),
            result: Err(CommandError::Failed("bad\n\nthing".to_string())),
        };
        assert!(is_one_response(&reply.to_string()));
        assert!(is_one_response("=\n\n"));
        for bad in ["", "e5\n\n", "= e5\n", "= a\n\nb\n\n", "? x"] {
            assert!(!is_one_response(bad), "{bad:?}");
        }
    }

    use super::*;

    /// Echoes its arguments; `fail` fails; counts `quit` calls.
    struct Echo {
        quits: u32,
    }

    impl GtpEngine for Echo {
        fn name(&self) -> String {
            "echo".into()
        }
        fn version(&self) -> String {
            "0.1".into()
        }
        fn commands(&self) -> &[&str] {
            &["list_commands", "quit", "echo", "fail"]
        }
        fn execute(&mut self, command: &str, args: &[&str]) -> Result<String, CommandError> {
            match command {
                "echo" => Ok(args.join(" ")),
                "fail" => Err(CommandError::Failed(format!(
                    "failed\twith\u{7}{}",
                    args.join(" ")
                ))),
                _ => Err(CommandError::unknown(command)),
            }
        }
        fn quit(&mut self) {
            self.quits += 1;
        }
    }

    fn reply(e: &mut Echo, line: &str) -> String {
        handle(e, line).expect("a reply").0.to_string()
    }

    #[test]
    fn ids_are_echoed_on_success_and_failure() {
        let mut e = Echo { quits: 0 };
        assert_eq!(reply(&mut e, "12 echo a b"), "=12 a b\n\n");
        assert_eq!(reply(&mut e, "echo a"), "= a\n\n");
        assert_eq!(reply(&mut e, "7 fly"), "?7 unknown command fly\n\n");
        assert_eq!(reply(&mut e, "fly"), "? unknown command fly\n\n");
        assert_eq!(reply(&mut e, "3"), "?3 missing command after the id\n\n");
        assert_eq!(reply(&mut e, "0 protocol_version"), "=0 2\n\n");
        assert_eq!(reply(&mut e, "name"), "= echo\n\n");
        assert_eq!(reply(&mut e, "VERSION"), "= 0.1\n\n");
    }

    #[test]
    fn error_messages_stay_on_one_line() {
        let mut e = Echo { quits: 0 };
        // The tab became a space in preprocessing; the bell in the message becomes a space.
        assert_eq!(reply(&mut e, "fail x\ty"), "? failed with x y\n\n");
    }

    #[test]
    fn multi_line_replies_have_no_empty_line_inside() {
        let r = Response {
            id: Some(4),
            result: Ok("\nrow 1\n\nrow 2\r\n".to_string()),
        };
        assert_eq!(r.to_string(), "=4 \nrow 1\nrow 2\n\n");
        let e = Response {
            id: None,
            result: Err(CommandError::Failed("bad".to_string())),
        };
        assert_eq!(e.to_string(), "? bad\n\n");
        assert!(!e.is_success() && e.text() == "bad");
    }

    #[test]
    fn comments_blank_lines_and_the_commands_of_the_loop() {
        let mut e = Echo { quits: 0 };
        assert!(handle(&mut e, "").is_none());
        assert!(handle(&mut e, "   # only a comment").is_none());
        assert_eq!(reply(&mut e, "echo a # b"), "= a\n\n");
        assert_eq!(reply(&mut e, "known_command ECHO"), "= true\n\n");
        assert_eq!(reply(&mut e, "known_command fly"), "= false\n\n");
        assert!(reply(&mut e, "known_command").starts_with("? syntax"));
        assert_eq!(
            reply(&mut e, "list_commands"),
            "= list_commands\nquit\necho\nfail\n\n"
        );
        assert_eq!(e.quits, 0);
        let (r, ends) = handle(&mut e, "5 quit").unwrap();
        assert_eq!((r.to_string().as_str(), ends, e.quits), ("=5\n\n", true, 1));
    }

    #[test]
    fn run_stops_at_quit_or_end_of_input() {
        let mut e = Echo { quits: 0 };
        let mut out = Vec::new();
        run(
            &mut e,
            &b"1 echo x\n\n# c\nquit\necho never\n"[..],
            &mut out,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "=1 x\n\n=\n\n");
        let mut out = Vec::new();
        run(&mut e, &b"echo \xff last"[..], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "= \u{fffd} last\n\n");
    }

    #[test]
    fn numbers_of_the_time_commands() {
        assert_eq!(seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(seconds("0"), Ok(Duration::ZERO));
        assert!(seconds("-1").is_err() && seconds("inf").is_err() && seconds("x").is_err());
        assert_eq!(count("3"), Ok(3));
        assert!(count("-3").is_err());
        assert_eq!(shorten(&"a".repeat(40)), format!("{}...", "a".repeat(32)));
    }

    #[test]
    fn response_format() {
        let ok = Response {
            id: Some(3),
            result: Ok("h8".into()),
        };
        assert_eq!(ok.to_string(), "=3 h8\n\n");
        let err = Response {
            id: None,
            result: Err(CommandError::Failed("bad".into())),
        };
        assert_eq!(err.to_string(), "? bad\n\n");
        let multi = Response {
            id: None,
            result: Ok("\na\n\nb\n".into()),
        };
        assert_eq!(multi.to_string(), "= \na\nb\n\n");
    }

    #[test]
    fn preprocessing() {
        assert_eq!(preprocess("pla\u{7}y\tw a1 # x"), "play w a1 ");
        assert_eq!(preprocess("# only"), "");
    }
}
