//! The `y` program as a controller sees it: GTP on standard input and output.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn gtp_answers_a_legal_move_and_refuses_an_occupied_cell() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_y"))
        .args(["gtp", "--size", "5", "--simulations", "200"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "boardsize 5\nplay w a1\nplay b a1\ngenmove b\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let replies: Vec<&str> = out.split("\n\n").map(str::trim).collect();
    assert_eq!(&replies[..2], &["=", "="], "{out}");
    assert!(replies[2].starts_with('?'), "occupied a1 accepted: {out}");
    let cell = replies[3].strip_prefix("= ").expect("genmove answered");
    let (x, y) = (
        cell.as_bytes()[0] - b'a',
        cell[1..].parse::<u8>().unwrap() - 1,
    );
    assert!(
        usize::from(x + y) < 5 && cell != "a1",
        "not an empty cell of size 5: {cell}"
    );
}

/// Runs the `y` program with `args`: its exit status and its standard output and error.
fn y(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_y"))
        .args(args)
        .output()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        output.status.code(),
        text(output.stdout),
        text(output.stderr),
    )
}

#[test]
fn a_bad_number_is_refused_with_status_2_naming_it() {
    for (command, bad) in [
        ("selfplay", "--time-per-move=-1"),
        ("selfplay", "--time-per-move=nan"),
        ("selfplay", "--games=x"),
        ("selfplay", "--simulations=0"),
        ("selfplay", "--sprt=30,0"),
        ("gtp", "--time-per-move=nan"),
        ("gtp", "--time-per-move=-1"),
    ] {
        let (status, _, stderr) = y(&[command, bad]);
        assert_eq!(status, Some(2), "{command} {bad}: {stderr}");
        let value = bad.split_once('=').unwrap().1;
        assert!(stderr.contains(value), "{command} {bad}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let (status, _, stderr) = y(&["selfplay", "--player-a", "rave:brige=1"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("unknown key brige"), "{stderr}");
    let (status, _, stderr) = y(&["selfplay", "--player-a", "alphabeta"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("alphabeta"), "{stderr}");
}

#[test]
fn a_match_prints_the_table_by_games_and_by_pairs() {
    let (status, stdout, stderr) = y(&[
        "selfplay",
        "--size",
        "4",
        "--games",
        "4",
        "--opening",
        "1",
        "--simulations",
        "50",
        "--quiet",
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stdout.starts_with("Game: y size=4 opening=1\n"), "{stdout}");
    assert!(
        stdout.contains("Match: A = rave+bridge, B = uct+bridge; 4 games"),
        "{stdout}"
    );
    assert!(stdout.contains("Score of A by pairs: "), "{stdout}");
    assert!(stdout.contains("(2 pairs)"), "{stdout}");
}
