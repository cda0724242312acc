//! Standard output for programs whose output is piped: `selfplay | head` must not panic.
//!
//! `println!` panics when the reader of a pipe has gone. [`outln!`](crate::outln) writes the
//! same line, but a closed pipe only drops the rest of the output: the program can finish the
//! work it must not lose (a match still writes its record files), and long work that only
//! prints can stop early ([`reader_gone`]). Any other write error (a full disk) is reported
//! on stderr once, and [`exit_status`] turns a success into a failure.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

static GONE: AtomicBool = AtomicBool::new(false);
static FAILED: AtomicBool = AtomicBool::new(false);

/// Writes `args` and a newline to `out`, as [`outln!`](crate::outln) does to stdout. A
/// closed pipe is not an error: it is remembered ([`reader_gone`]) and the line dropped.
///
/// # Errors
/// Whatever the write returns, but for a closed pipe.
///
/// ```
/// use std::io;
///
/// // A reader that went away: not an error.
/// struct Closed;
/// impl io::Write for Closed {
///     fn write(&mut self, _: &[u8]) -> io::Result<usize> {
///         Err(io::ErrorKind::BrokenPipe.into())
///     }
///     fn flush(&mut self) -> io::Result<()> {
///         Ok(())
///     }
/// }
/// let mut text = Vec::new();
/// game_harness::output::write_line(&mut text, format_args!("{}", 42)).unwrap();
/// assert_eq!(text, b"42\n");
/// assert!(!game_harness::output::reader_gone());
/// assert!(game_harness::output::write_line(&mut Closed, format_args!("{}", 42)).is_ok());
/// assert!(game_harness::output::reader_gone());
/// ```
pub fn write_line(out: &mut impl Write, args: fmt::Arguments<'_>) -> io::Result<()> {
    match out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            GONE.store(true, Ordering::Relaxed);
            Ok(())
        }
        r => r,
    }
}

/// Writes a line to stdout (see the module's documentation); called by
/// [`outln!`](crate::outln).
pub fn print_line(args: fmt::Arguments<'_>) {
    if let Err(e) = write_line(&mut io::stdout().lock(), args)
        && !FAILED.swap(true, Ordering::Relaxed)
    {
        eprintln!("cannot write to standard output: {e}");
    }
}

/// Whether a line met a closed pipe: nobody reads what is printed any more.
pub fn reader_gone() -> bool {
    GONE.load(Ordering::Relaxed)
}

/// `status`, or a failure if a line printed by [`print_line`] could not be written for
/// another reason than a closed pipe.
pub fn exit_status(status: ExitCode) -> ExitCode {
    if FAILED.load(Ordering::Relaxed) {
        ExitCode::FAILURE
    } else {
        status
    }
}

/// `println!` that does not panic when stdout is a closed pipe (see [`output`](crate::output)).
///
/// ```
/// game_harness::outln!("{} games", 10);
/// game_harness::outln!();
/// ```
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::print_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::output::print_line(format_args!($($arg)*))
    };
}
