//! The `havannah` binary: subcommand parsing, and a tiny `havannah selfplay` match, playout
//! table and `havannah td-train` run end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use clap::Parser;
use havannah_cli::{Cli, Command as Sub};

/// Parses a `havannah` command line.
fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(std::iter::once("havannah").chain(args.iter().copied()))
}

/// Runs the built `havannah` binary with `args`.
fn havannah(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_havannah"))
        .args(args)
        .output()
        .expect("the havannah binary runs")
}

/// `havannah selfplay`: a match of `games` games between random players at size 4, its files
/// written to `out`.
fn tiny_match(games: &str, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_havannah"));
    command
        .args(["selfplay", "--size", "4", "--games", games])
        .args(["--player-a", "random", "--player-b", "random"])
        .arg("--out")
        .arg(out);
    command
}

/// Runs `command` with its stdout closed at once (`command | head -0`).
fn into_closed_pipe(mut command: Command) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the havannah binary runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("it ends")
}

/// A fresh, empty folder for one test's output.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn each_subcommand_gets_its_own_options() {
    let cli = parse(&["selfplay", "--games", "2", "--size", "4"]).unwrap();
    assert!(
        matches!(cli.command, Sub::Selfplay(o) if o.matches.games.map(usize::from) == Some(2) && o.matches.size == Some(4))
    );
    let cli = parse(&["gtp", "--time-per-move", "1"]).unwrap();
    assert!(
        matches!(cli.command, Sub::Gtp(o) if o.time.map(|s| s.duration().as_secs_f64()) == Some(1.0))
    );
    let cli = parse(&["replay", "a.txt", "-"]).unwrap();
    assert!(matches!(cli.command, Sub::Replay(o) if o.files == ["a.txt", "-"]));
    let cli = parse(&["clock-check", "--sizes", "8,10"]).unwrap();
    assert!(matches!(cli.command, Sub::ClockCheck(o) if o.sizes == [8, 10]));
    let cli = parse(&["playout-table", "--sizes", "4,6", "--seconds", "0.5"]).unwrap();
    assert!(
        matches!(cli.command, Sub::PlayoutTable(o) if o.sizes == [4, 6] && o.seconds.duration().as_secs_f64() == 0.5)
    );
    let cli = parse(&["td-train", "--size", "2", "--no-symmetries"]).unwrap();
    assert!(matches!(cli.command, Sub::TdTrain(o) if o.size == 2 && o.no_symmetries));
}

#[test]
fn bad_command_lines_are_refused() {
    assert!(parse(&[]).is_err(), "a subcommand is required");
    assert!(parse(&["play"]).is_err(), "unknown subcommand");
    assert!(parse(&["replay"]).is_err(), "replay needs a file");
    assert!(
        parse(&["gtp", "--games", "2"]).is_err(),
        "--games is selfplay's"
    );
    assert!(
        parse(&["playout-table", "--sizes", "14"]).is_err(),
        "no such board"
    );
    assert!(
        parse(&["playout-table", "--seconds", "0"]).is_err(),
        "no time to time"
    );
}

#[test]
fn selfplay_plays_a_tiny_match_and_prints_its_table() {
    let out = fresh_dir("havannah-selfplay");
    let output = tiny_match("2", &out)
        .output()
        .expect("the havannah binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(
        stdout.contains("Match: A = random, B = random; size 4, 2 games"),
        "{stdout}"
    );
    let total = stdout
        .lines()
        .find(|l| l.starts_with("total"))
        .expect("a total row");
    let numbers: Vec<u32> = total
        .split_whitespace()
        .skip(1)
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(numbers[0], 2, "{total}");
    assert_eq!(numbers[1] + numbers[2] + numbers[3], 2, "{total}");
    for file in ["games.txt", "games.sgf", "results.txt"] {
        assert!(out.join(file).is_file(), "{file} written");
    }
}

#[test]
fn merge_pools_runs_with_different_seeds_into_one_table() {
    let root = fresh_dir("havannah-pool");
    let run = |seed: &str| {
        let dir = root.join(format!("seed{seed}"));
        let output = tiny_match("4", &dir)
            .args(["--seed", seed])
            .output()
            .expect("the havannah binary runs");
        assert!(output.status.success(), "{output:?}");
        dir
    };
    let (five, six) = (run("5"), run("6"));
    let out = root.join("pooled");
    let output = Command::new(env!("CARGO_BIN_EXE_havannah"))
        .args(["selfplay", "--merge"])
        .args([&six, &five])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the havannah binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("size 4, 8 games"), "{stdout}");
    assert!(stdout.contains("Pooled runs with seeds 5, 6"), "{stdout}");
    assert!(out.join("results.txt").is_file());
    assert!(!out.join("match.tsv").exists(), "a pool is not one match");
    // One seed's parts merge as before, with the match file.
    let out = root.join("merged");
    let output = Command::new(env!("CARGO_BIN_EXE_havannah"))
        .args(["selfplay", "--merge"])
        .arg(&five)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("the havannah binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("size 4, 4 games") && !stdout.contains("Pooled"),
        "{stdout}"
    );
    assert!(out.join("match.tsv").is_file());
}

#[test]
fn selfplay_into_a_closed_pipe_finishes_its_work() {
    // `havannah selfplay | head -0`: the reader is gone before anything is printed. The match
    // must still end normally and write its files (a plain `println!` would panic on the first
    // line).
    let out = fresh_dir("havannah-selfplay-closed-pipe");
    let output = into_closed_pipe(tiny_match("2", &out));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{output:?}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for file in ["games.txt", "games.sgf", "results.txt"] {
        assert!(out.join(file).is_file(), "{file} written");
    }
}

#[test]
fn replay_into_a_closed_pipe_stops_quietly() {
    // `havannah replay games.txt | head -0`: no error message about reading, exit 0.
    let out = fresh_dir("havannah-replay-closed-pipe");
    let played = tiny_match("4", &out)
        .output()
        .expect("the havannah binary runs");
    assert!(played.status.success(), "{played:?}");
    let games = std::fs::read_to_string(out.join("games.txt")).unwrap();
    let many = out.join("many.txt");
    std::fs::write(&many, games.repeat(2000)).unwrap();
    let mut replay = Command::new(env!("CARGO_BIN_EXE_havannah"));
    replay.arg("replay").arg(&many);
    let output = into_closed_pipe(replay);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn selfplay_onto_a_full_disk_fails_but_writes_its_files() {
    // The table cannot be printed (`> /dev/full`): the exit status says so, and the match's
    // files are still written.
    let out = fresh_dir("havannah-selfplay-full");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = tiny_match("2", &out)
        .stdout(full)
        .output()
        .expect("the havannah binary runs");
    assert!(!output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot write to standard output"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.join("games.txt").is_file());
}

#[test]
fn playout_table_prints_every_row_and_the_mcts_rates() {
    let output = havannah(&["playout-table", "--sizes", "4", "--seconds", "0.01"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    let rows = havannah_cli::playout_table::rows::ROWS;
    for row in rows {
        assert!(stdout.contains(row), "{row} in {stdout}");
    }
    assert!(stdout.contains("1 thread sims/s"), "{stdout}");
}

#[test]
fn td_train_writes_the_net_the_curve_and_the_run() {
    let out = fresh_dir("havannah-td-train");
    let output = havannah(&[
        "td-train",
        "--size",
        "2",
        "--games",
        "16",
        "--eval-games",
        "4",
        "--mcts-games",
        "0",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    for file in ["weights.json", "curve.csv", "curve.svg", "run.json"] {
        assert!(out.join(file).is_file(), "{file} written");
    }
    let run = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(run.contains("\"games_per_second\""), "{run}");
}

#[test]
fn subcommand_errors_give_their_exit_status() {
    let output = havannah(&["selfplay", "--player-a", "nonsense", "--games", "1"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let output = havannah(&["replay", "/no/such/file"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
}

#[test]
fn an_unknown_configuration_is_an_error_naming_it() {
    for sub in ["search-bench", "playout-stats"] {
        let output = havannah(&[sub, "--config", "no-such-config"]);
        assert_eq!(output.status.code(), Some(2), "{sub}: {output:?}");
        assert!(output.stdout.is_empty(), "{sub}: {output:?}");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(stderr.contains("no-such-config"), "{sub}: {stderr}");
    }
}

#[test]
fn gtp_threads_come_from_the_configuration_unless_given() {
    let start_line = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_havannah"));
        command.arg("gtp").args(args).stdin(Stdio::null());
        let output = command.output().expect("the havannah binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        stderr.lines().next().unwrap_or_default().to_string()
    };
    assert!(
        start_line(&[]).contains("threads 1,"),
        "{}",
        start_line(&[])
    );
    let two = start_line(&["--config", "best:threads=2"]);
    assert!(two.contains("threads 2,"), "{two}");
    let given = start_line(&["--config", "best:threads=2", "--threads", "3"]);
    assert!(given.contains("threads 3,"), "{given}");
}

#[test]
fn the_help_of_every_configuration_option_names_every_parameter_key() {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    // `gtp --config`'s own help; selfplay's players are described after its options.
    let options = [("gtp", "config"), ("selfplay", "player_a")];
    for (sub, option) in options {
        let sub = cli.find_subcommand_mut(sub).expect("the subcommand exists");
        let help = if option == "config" {
            let arg = sub.get_arguments().find(|a| a.get_id() == option);
            arg.and_then(|a| a.get_help())
        } else {
            sub.get_after_help()
        };
        let help = help.expect("a help text").to_string();
        for key in havannah_cli::config_spec::PARAMETER_KEYS.split(", ") {
            assert!(
                help.contains(&format!(" {key}")),
                "--{option} of {sub:?} does not name {key}: {help}"
            );
        }
    }
}

#[test]
fn a_bad_number_exits_with_status_2_naming_it() {
    for (sub, bad) in [
        ("selfplay", "--time-per-move=-1"),
        ("selfplay", "--time-per-move=nan"),
        ("selfplay", "--games=x"),
        ("selfplay", "--games=0"),
        ("selfplay", "--threads=0"),
        ("selfplay", "--sprt=5,0"),
        ("gtp", "--time-per-move=-1"),
        ("gtp", "--time-per-move=nan"),
    ] {
        let output = havannah(&[sub, bad]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{sub} {bad}: {stderr}");
        let value = bad.split_once('=').unwrap().1;
        assert!(stderr.contains(value), "{sub} {bad}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn an_sprt_stops_a_one_sided_match_and_pairs_are_counted() {
    let out = fresh_dir("sprt");
    let output = havannah(
        &[
            "selfplay",
            "--size",
            "4",
            "--games",
            "200",
            "--simulations",
            "300",
            "--player-b",
            "random",
            "--opening",
            "1",
            "--sprt",
            "0,200",
            "--quiet",
            "--out",
        ]
        .iter()
        .copied()
        .chain([out.to_str().unwrap()])
        .collect::<Vec<_>>(),
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let games: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Match: A = best, B = random; size 4, "))
        .and_then(|rest| rest.strip_suffix(" games, pie rule off"))
        .and_then(|n| n.parse().ok())
        .expect("the match line");
    assert!(
        games < 200 && games.is_multiple_of(2),
        "{games} games: {stdout}"
    );
    assert!(
        stdout.contains("Pairs (LL, LD, DD+WL, WD, WW): "),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("({} pairs)", games / 2)),
        "{stdout}"
    );
}
