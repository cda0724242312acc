//! `havannah playout-stats`: every playout is counted once under one ending, and rings end
//! most playouts whether found during play or after it (an unknown configuration:
//! `tests/cli.rs`).

use std::process::{Command, Output};

/// Runs the built `havannah` binary with `args`.
fn havannah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_havannah"))
        .args(args)
        .output()
        .expect("the havannah binary runs")
}

/// The endings printed for `config` from 2 positions 10 and 12 moves into a size-8 game,
/// 150 playouts each: (ending, playouts) per line, checked to add up to the total.
fn endings(config: &str) -> Vec<(String, u64)> {
    let output = havannah(&[
        "playout-stats",
        "--first",
        "5",
        "--positions",
        "2",
        "--playouts",
        "150",
        "--config",
        config,
    ]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"all: 300 playouts"), "{stdout}");
    let rows: Vec<(String, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|line| {
            let (kinds, rest) = line.split_once(": ").expect("an ending");
            let n = rest.split(' ').next().expect("a count");
            (kinds.to_string(), n.parse().expect("a number"))
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 300, "{stdout}");
    rows
}

/// The playouts whose winning move completed a ring, among `rows`.
fn rings(rows: &[(String, u64)]) -> u64 {
    rows.iter()
        .filter(|(k, _)| k.contains("ring"))
        .map(|r| r.1)
        .sum()
}

#[test]
fn rings_end_most_playouts_on_line_and_off_line() {
    // `best` finds rings during play, `offline` once the playout is over.
    for config in ["best", "offline"] {
        let rows = endings(config);
        assert!(rings(&rows) > 100, "{config}: {rows:?}");
        assert!(rows.iter().any(|(k, _)| k == "fork"), "{config}: {rows:?}");
    }
}
