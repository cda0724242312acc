//! `GtpClient`: small `sh` scripts as GTP engines.

use std::time::{Duration, Instant};

use game_harness::gtp::{CommandError, Response};
use game_harness::gtp_client::{GtpClient, GtpError};
use game_harness::process::{ErrorOutput, Launch};

/// An engine that answers `name`, echoes the arguments of `echo`, fails `fail` with the id,
/// answers `board` on three lines after blank lines, hangs on `hang`, exits on `die` and
/// answers `=` to everything else.
const ENGINE: &str = r#"while read -r id cmd rest; do
  case "$cmd" in
    name) printf '=%s tiny\n\n' "$id" ;;
    echo) printf '=%s %s\n\n' "$id" "$rest" ;;
    fail) printf '?%s no thanks\n\n' "$id" ;;
    board) printf '\n\n=%s\nA B\nC D   \n\n' "$id" ;;
    hang) exec sleep 30 ;;
    die) exit 3 ;;
    quit) printf '=%s\n\n' "$id"; exit 0 ;;
    *) printf '=%s\n\n' "$id" ;;
  esac
done"#;

/// The engine of [`ENGINE`], started by `sh -c`.
fn engine() -> GtpClient {
    GtpClient::start(Launch::shell(ENGINE)).unwrap()
}

#[test]
fn answers_come_back_with_their_ids() {
    let mut client = engine();
    assert_eq!(client.command(), ENGINE);
    assert_eq!(client.timeout(), None);
    assert_eq!(client.send("1 name").unwrap(), "tiny");
    assert_eq!(client.send("2 echo a b").unwrap(), "a b");
    let response = client.exchange("3 fail").unwrap();
    assert_eq!(
        response,
        Response {
            id: Some(3),
            result: Err(CommandError::Failed("no thanks".to_string()))
        }
    );
    // Blank lines before an answer are skipped; its lines are kept without trailing spaces.
    assert_eq!(client.send("4 board").unwrap(), "A B\nC D");
    assert!(client.is_alive());
}

#[test]
fn a_failure_answer_is_an_error_naming_the_command() {
    let mut client = engine();
    let error = client.send("7 fail").unwrap_err();
    assert!(matches!(error, GtpError::Failure { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "\"7 fail\": the program answered ? no thanks"
    );
    // A failure is an answer: the engine is still fine.
    assert!(client.is_alive());
    assert_eq!(client.send("8 name").unwrap(), "tiny");
}

#[test]
fn a_hung_engine_times_out_is_killed_and_restarted_on_request() {
    let mut client = engine().with_timeout(Some(Duration::from_millis(200)));
    assert_eq!(client.timeout(), Some(Duration::from_millis(200)));
    let start = Instant::now();
    let error = client.send("1 hang").unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(10));
    let GtpError::TimedOut { ref command, after } = error else {
        panic!("{error:?}");
    };
    assert_eq!(
        (command.as_str(), after),
        ("1 hang", Duration::from_millis(200))
    );
    let message = error.to_string();
    assert!(message.contains("no answer within 0.2 s"), "{message}");
    assert!(!client.is_alive());
    // Nothing more is sent to it.
    let error = client.send("2 name").unwrap_err();
    assert!(matches!(error, GtpError::Dead { .. }), "{error:?}");
    assert!(client.restart_if_dead().unwrap());
    assert!(client.is_alive());
    assert_eq!(client.send("3 name").unwrap(), "tiny");
    assert!(!client.restart_if_dead().unwrap());
}

#[test]
fn an_engine_that_exits_closes_its_output() {
    let mut client = engine();
    let error = client.send("1 die").unwrap_err();
    let GtpError::Pipe { ref command, .. } = error else {
        panic!("{error:?}");
    };
    assert_eq!(command, "1 die");
    let message = error.to_string();
    assert!(message.contains("closed its output"), "{message}");
    assert!(!client.is_alive());
    client.restart().unwrap();
    assert_eq!(client.send("4 echo again").unwrap(), "again");
}

#[test]
fn an_engine_that_cannot_start_is_a_start_error() {
    let error = GtpClient::start(Launch::words("")).unwrap_err();
    assert!(matches!(error, GtpError::Start(_)), "{error:?}");
    let error = GtpClient::start(Launch::words("/nonexistent/gtp-engine")).unwrap_err();
    let message = error.to_string();
    assert!(message.contains("/nonexistent/gtp-engine"), "{message}");
}

#[test]
fn dropping_the_client_sends_quit_and_stderr_reaches_the_log() {
    let dir = std::env::temp_dir();
    let id = std::process::id();
    let sent = dir.join(format!("game-harness-gtp-client-{id}-sent.log"));
    let stderr = dir.join(format!("game-harness-gtp-client-{id}-stderr.log"));
    let _ = std::fs::remove_file(&sent);
    let _ = std::fs::remove_file(&stderr);
    let script = format!(
        "while read -r line; do echo \"$line\" >> '{}'; echo \"thinking about $line\" >&2; \
         printf '=\\n\\n'; [ \"$line\" = quit ] && exit 0; done",
        sent.display()
    );
    let launch = Launch::shell(script).stderr(ErrorOutput::Append(stderr.clone()));
    let mut client = GtpClient::start(launch).unwrap();
    client.send("boardsize 8").unwrap();
    drop(client);
    let sent_text = std::fs::read_to_string(&sent).unwrap();
    let stderr_text = std::fs::read_to_string(&stderr).unwrap();
    let _ = std::fs::remove_file(&sent);
    let _ = std::fs::remove_file(&stderr);
    assert_eq!(sent_text, "boardsize 8\nquit\n");
    assert_eq!(
        stderr_text,
        "thinking about boardsize 8\nthinking about quit\n"
    );
}
