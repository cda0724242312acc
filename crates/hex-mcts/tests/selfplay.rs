//! `hex selfplay` on the harness's runner: a seeded match is reproducible, its two shards
//! merge into the same games, and an external GTP program (the `hex` program itself) plays
//! through the harness's GTP client.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `hex selfplay` on 4x4 with 200 simulations a move and `extra` options; the standard
/// output.
fn selfplay(extra: &[&str]) -> String {
    let mut args = vec!["selfplay", "--size", "4", "--simulations", "200", "--quiet"];
    args.extend_from_slice(extra);
    let output = Command::new(env!("CARGO_BIN_EXE_hex"))
        .args(&args)
        .output()
        .expect("the hex program runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// A fresh folder for this test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hex-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The game lines of a match file without the times: number, who moved first, winner,
/// verdict, the moves chosen, the simulations, the forfeit and the moves.
fn games(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("match.tsv")).expect("a match file");
    assert!(
        text.contains("\ndescription\thex size=4 swap=1 opening=0\n"),
        "{text}"
    );
    text.lines()
        .filter(|l| l.starts_with("game\t"))
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            [&fields[..5], &fields[7..9], &fields[11..13], &fields[15..]]
                .concat()
                .join("\t")
        })
        .collect()
}

#[test]
fn a_match_repeats_and_its_shards_merge_into_the_same_games() {
    let (whole, again) = (folder("whole"), folder("again"));
    let common = ["--games", "4", "--swap", "true", "--seed", "5", "--out"];
    let table = selfplay(&[&common[..], &[whole.to_str().unwrap()]].concat());
    assert!(
        table.starts_with("Game: hex size=4 swap=1 opening=0\n"),
        "{table}"
    );
    assert!(
        table.contains("Score of A") && table.contains("Forfeits: 0"),
        "{table}"
    );
    assert!(table.contains("Score of A by pairs: "), "{table}");
    // Both searching players reported their simulations.
    let rates = simulations_line(&table);
    assert!(!rates.contains('-'), "{table}");
    selfplay(&[&common[..], &[again.to_str().unwrap()]].concat());
    assert_eq!(games(&whole).len(), 4);
    assert_eq!(games(&whole), games(&again));
    let parts = [folder("part0"), folder("part1")];
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{k}/2");
        selfplay(&[&common[..], &[part.to_str().unwrap(), "--shard", &shard]].concat());
    }
    let merged = folder("merged");
    let (p0, p1) = (parts[0].to_str().unwrap(), parts[1].to_str().unwrap());
    let table = selfplay(&["--merge", p0, p1, "--out", merged.to_str().unwrap()]);
    assert!(table.contains("4 games"), "{table}");
    assert_eq!(games(&merged), games(&whole));
    // A run with another seed pools with the first into one table, without a match file.
    let other = folder("seed6");
    let six = ["--games", "4", "--swap", "true", "--seed", "6", "--out"];
    selfplay(&[&six[..], &[other.to_str().unwrap()]].concat());
    let pooled = folder("pooled");
    let (w, o) = (whole.to_str().unwrap(), other.to_str().unwrap());
    let table = selfplay(&["--merge", o, w, "--out", pooled.to_str().unwrap()]);
    assert!(table.contains("8 games"), "{table}");
    assert!(table.contains("Pooled runs with seeds 5, 6"), "{table}");
    assert!(!pooled.exists(), "no match file for a pool");
    for dir in [
        whole,
        again,
        merged,
        other,
        parts[0].clone(),
        parts[1].clone(),
    ] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn an_external_gtp_program_plays_through_the_harness() {
    let program = format!(
        "gtp:{} gtp --simulations 100 --quiet",
        env!("CARGO_BIN_EXE_hex")
    );
    let table = selfplay(&["--games", "2", "--swap", "true", "--player-b", &program]);
    assert!(table.contains("Forfeits: 0"), "{table}");
    assert!(table.contains("total                   2"), "{table}");
    // The search reports its simulations, the external program none.
    let rates = simulations_line(&table);
    assert!(
        rates.ends_with(", B -") && !rates.contains("A -"),
        "{table}"
    );
}

/// The table's line of simulations a second.
fn simulations_line(table: &str) -> &str {
    table
        .lines()
        .find(|l| l.starts_with("Simulations a second: A "))
        .unwrap_or_else(|| panic!("no simulations line in {table}"))
}

#[test]
fn an_unknown_player_is_an_error_naming_it() {
    let output = Command::new(env!("CARGO_BIN_EXE_hex"))
        .args(["selfplay", "--player-a", "alphabeta"])
        .output()
        .expect("the hex program runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(stderr.contains("alphabeta"), "{stderr}");
}

#[test]
fn a_misspelt_or_bad_setting_is_an_error_naming_it() {
    for (player, expected) in [
        ("rave:brige=1", "unknown key brige"),
        ("rave:bridge=2", "bridge=2 is not 0 or 1"),
        ("rave:stop=3", "stop=3"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_hex"))
            .args(["selfplay", "--games", "2", "--player-a", player])
            .output()
            .expect("the hex program runs");
        assert_eq!(output.status.code(), Some(2), "{player}");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(stderr.contains(expected), "{player}: {stderr}");
    }
}
