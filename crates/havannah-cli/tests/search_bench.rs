//! `havannah search-bench`: a tiny seeded bench gives the same well-formed fingerprint twice
//! and the table of where a simulation's time goes,
//! and two threads run the simulations asked (an unknown configuration: `tests/cli.rs`).

use std::process::{Command, Output};

/// Runs the built `havannah` binary with `args`.
fn havannah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_havannah"))
        .args(args)
        .output()
        .expect("the havannah binary runs")
}

/// The fingerprint of the totals' line of a tiny bench (2 positions, 200 simulations each).
fn tiny_fingerprint() -> String {
    let output = havannah(&["search-bench", "--positions", "2", "--simulations", "200"]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 9, "{stdout}");
    assert!(
        lines[0].starts_with("position 0: 0 moves, chose "),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("position 1: 2 moves, chose "),
        "{stdout}"
    );
    // The phase clock's table: one simulation in 64 timed (in each search of 200, simulations
    // 0, 64, 128 and 192), the five phases in order.
    assert_eq!(
        lines[2], "where a simulation's time goes (8 simulations timed):",
        "{stdout}"
    );
    for (line, phase) in lines[3..8]
        .iter()
        .zip(["copy", "select", "expand", "playout", "backprop"])
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!((fields[0], fields[2]), (phase, "µs"), "{stdout}");
        assert!(fields[3].ends_with('%'), "{stdout}");
    }
    let last = lines[8];
    assert!(
        last.starts_with("all: 2 positions, 400 simulations in "),
        "{stdout}"
    );
    let (_, hex) = last.split_once("; fingerprint ").expect("a fingerprint");
    assert_eq!(hex.len(), 16, "{last}");
    assert!(
        hex.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
        "{last}"
    );
    hex.to_string()
}

#[test]
fn a_seeded_bench_gives_the_same_fingerprint_twice() {
    assert_eq!(tiny_fingerprint(), tiny_fingerprint());
}

#[test]
fn two_threads_run_the_simulations_asked_and_zero_threads_are_refused_by_value() {
    let output = havannah(&[
        "search-bench",
        "--positions",
        "1",
        "--simulations",
        "300",
        "--threads",
        "2",
    ]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        stdout.contains("all: 1 positions, 300 simulations in "),
        "{stdout}"
    );
    let output = havannah(&["search-bench", "--threads", "0"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains("--threads 0"), "{stderr}");
}

/// `best`'s search, pinned: a small seeded bench of the default configuration gives this
/// fingerprint (every chosen move, every root child's move and visits). A change that keeps
/// every choice of the search (a speed-up, a refactor) keeps it; a change of the search
/// changes it, and then the new value is recorded here with the reason in the commit.
#[test]
fn best_search_fingerprint_is_pinned() {
    let output = havannah(&["search-bench", "--positions", "3", "--simulations", "2000"]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        stdout
            .trim_end()
            .ends_with("; fingerprint 2553220e3d02348a"),
        "{stdout}"
    );
}
