//! `hex search-bench`: a small seeded bench gives the same fingerprint on every run, and the
//! fingerprint recorded here. A change to the rules, the playout, the search settings or the
//! player that alters any choice of the search changes the fingerprint.

use std::process::Command;

/// The fingerprint of `hex search-bench --size 7 --positions 3 --simulations 300`.
const RAVE_FINGERPRINT: &str = "ae160f774bc173bb";
/// The fingerprint of the same bench with `--algorithm grave --bridge-save true --swap true`.
const GRAVE_FINGERPRINT: &str = "156b10a8d66395a1";

/// Runs the bench with `extra` options; checks its lines and returns the fingerprint.
fn fingerprint(extra: &[&str]) -> String {
    let mut args = vec![
        "search-bench",
        "--size",
        "7",
        "--positions",
        "3",
        "--simulations",
        "300",
    ];
    args.extend_from_slice(extra);
    let output = Command::new(env!("CARGO_BIN_EXE_hex"))
        .args(&args)
        .output()
        .expect("the hex program runs");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    for (k, line) in lines[..3].iter().enumerate() {
        let start = format!("position {k}: {} moves, chose ", 2 * k);
        assert!(line.starts_with(&start), "{stdout}");
    }
    // The searches may stop early once the best move cannot change.
    assert!(lines[3].starts_with("all: 3 positions, "), "{stdout}");
    let (_, value) = lines[3]
        .split_once("; fingerprint ")
        .expect("a fingerprint");
    value.to_string()
}

#[test]
fn the_rave_bench_repeats_its_recorded_fingerprint() {
    let first = fingerprint(&[]);
    assert_eq!(first, fingerprint(&[]));
    assert_eq!(first, RAVE_FINGERPRINT);
}

#[test]
fn the_grave_bench_with_bridge_save_and_swap_repeats_its_recorded_fingerprint() {
    let options = [
        "--algorithm",
        "grave",
        "--bridge-save",
        "true",
        "--swap",
        "true",
    ];
    let first = fingerprint(&options);
    assert_eq!(first, fingerprint(&options));
    assert_eq!(first, GRAVE_FINGERPRINT);
}

#[test]
fn a_bad_size_is_an_error_naming_it() {
    let output = Command::new(env!("CARGO_BIN_EXE_hex"))
        .args(["search-bench", "--size", "20"])
        .output()
        .expect("the hex program runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains("--size 20"), "{stderr}");
}
