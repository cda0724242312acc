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
