//! `Process` and `Launch`: small `sh` scripts as external programs.

use std::time::{Duration, Instant};

use game_harness::process::{ErrorOutput, Launch, ProcessError};

/// A deadline `millis` milliseconds from now.
fn within(millis: u64) -> Option<Instant> {
    Some(Instant::now() + Duration::from_millis(millis))
}

#[test]
fn lines_go_in_and_come_back() {
    let script = "while read -r line; do echo \"got $line\"; printf 'crlf\\r\\n\\n'; done";
    let mut program = Launch::shell(script).start().unwrap();
    assert_eq!(program.command(), script);
    assert!(program.is_alive());
    program.send_line("hello").unwrap();
    assert_eq!(program.read_line(within(5000)).unwrap(), "got hello");
    assert_eq!(program.read_line(within(5000)).unwrap(), "crlf");
    // Blank lines are returned like any other.
    assert_eq!(program.read_line(None).unwrap(), "");
    program.send_line("world").unwrap();
    assert_eq!(program.read_line(None).unwrap(), "got world");
    assert!(program.is_alive());
    let start = Instant::now();
    program.finish("quit", Duration::from_secs(5));
    // The loop ends at the end of its input: no need to wait for the grace period.
    assert!(start.elapsed() < Duration::from_secs(4));
    assert!(!program.is_alive());
    assert!(matches!(
        program.send_line("more"),
        Err(ProcessError::Write { .. })
    ));
}

#[test]
fn a_command_line_is_split_on_whitespace() {
    // Without a shell: `head`, `-n` and `1`, however they are spaced.
    let mut program = Launch::words("  head   -n\t1 ").start().unwrap();
    program.send_line("only this").unwrap();
    let _ = program.send_line("not this");
    assert_eq!(program.read_line(within(5000)).unwrap(), "only this");
    assert!(matches!(
        program.read_line(within(5000)),
        Err(ProcessError::Closed { .. })
    ));
}

#[test]
fn a_program_that_hangs_times_out_and_is_killed() {
    let mut program = Launch::shell("exec sleep 30").start().unwrap();
    let start = Instant::now();
    let error = program.read_line(within(200)).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(10));
    let ProcessError::TimedOut { ref command, after } = error else {
        panic!("{error:?}");
    };
    assert_eq!(command, "exec sleep 30");
    assert!(after >= Duration::from_millis(150), "{after:?}");
    let message = error.to_string();
    assert!(
        message.contains("sleep 30") && message.contains("timed out after 0."),
        "{message}"
    );
    assert!(!program.is_alive());
    // Killed: its output is closed now.
    assert!(matches!(
        program.read_line(within(5000)),
        Err(ProcessError::Closed { .. })
    ));
}

#[test]
fn a_program_can_outlive_a_timeout() {
    let launch = Launch::shell("read -r line; echo late $line").kill_on_timeout(false);
    assert!(!launch.kills_on_timeout());
    let mut program = launch.start().unwrap();
    assert!(matches!(
        program.read_line(within(50)),
        Err(ProcessError::TimedOut { .. })
    ));
    assert!(program.is_alive());
    program.send_line("answer").unwrap();
    assert_eq!(program.read_line(within(5000)).unwrap(), "late answer");
}

#[test]
fn a_program_that_exits_closes_its_output() {
    let mut program = Launch::shell("echo bye").start().unwrap();
    assert_eq!(program.read_line(within(5000)).unwrap(), "bye");
    let error = program.read_line(within(5000)).unwrap_err();
    assert!(matches!(error, ProcessError::Closed { .. }), "{error:?}");
    assert_eq!(error.to_string(), "\"echo bye\" closed its output");
    assert!(!program.is_alive());
}

#[test]
fn a_program_that_is_not_asked_to_quit_is_killed() {
    // It ignores `quit` and its input closing.
    let mut program = Launch::shell("trap '' TERM; exec sleep 30")
        .start()
        .unwrap();
    let start = Instant::now();
    program.finish("quit", Duration::from_millis(100));
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(!program.is_alive());
    // Dropping a running program kills it too.
    let program = Launch::shell("exec sleep 30").start().unwrap();
    let start = Instant::now();
    drop(program);
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn standard_error_is_appended_to_the_log_file() {
    let log = std::env::temp_dir().join(format!(
        "game-harness-process-{}-stderr.log",
        std::process::id()
    ));
    std::fs::write(&log, "earlier\n").unwrap();
    let launch = Launch::shell("read -r line; echo \"thinking about $line\" >&2; echo done")
        .stderr(ErrorOutput::Append(log.clone()));
    let mut program = launch.start().unwrap();
    program.send_line("h8").unwrap();
    assert_eq!(program.read_line(within(5000)).unwrap(), "done");
    program.finish("quit", Duration::from_secs(5));
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert_eq!(text, "earlier\nthinking about h8\n");
}

#[test]
fn start_errors_name_the_command() {
    let error = Launch::words("  \t ").start().unwrap_err();
    assert!(
        matches!(error, ProcessError::EmptyCommand { .. }),
        "{error:?}"
    );
    assert_eq!(error.to_string(), "the command \"  \\t \" names no program");

    let error = Launch::words("/nonexistent/engine --flag")
        .start()
        .unwrap_err();
    assert!(matches!(error, ProcessError::Start { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.starts_with("cannot start \"/nonexistent/engine --flag\": "),
        "{message}"
    );

    let log = std::path::Path::new("/nonexistent/folder/stderr.log");
    let error = Launch::words("cat")
        .stderr(ErrorOutput::Append(log.to_path_buf()))
        .start()
        .unwrap_err();
    assert!(matches!(error, ProcessError::Log { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.contains("/nonexistent/folder/stderr.log") && message.contains("\"cat\""),
        "{message}"
    );
}
