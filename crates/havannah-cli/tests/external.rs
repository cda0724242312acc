//! `GtpAgent<GameState>`: external Havannah GTP engines as players, driven by small shell-script
//! engines.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use game_harness::MatchSettings;
use game_harness::record::GameRecord;
use game_harness::runner::run_match;
use game_harness::{Agent, Clock, ErrorOutput, GtpAgent, GtpError, Launch, PlayerId};
use havannah::RandomAgent;
use havannah_rules::{GameState, Move, Rules};

/// Writes an executable shell script into a fresh temporary folder and returns its path.
///
/// The folder is emptied first: process ids wrap (at 32,768 on many machines), so a later run
/// of the tests can take an earlier run's id and find the files its scripts appended to.
fn script(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("havannah-external-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/usr/bin/env bash\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// Starts a script written by [`script`], retrying while the system still reports the file
/// busy: a test thread that forks while another writes its script holds the file open for
/// writing until its child execs, and `exec` of a file open for writing fails (`ETXTBSY`).
fn spawn_script(
    path: &Path,
    log: Option<&Path>,
    setup: &[String],
) -> Result<GtpAgent<GameState>, GtpError> {
    let command = path.to_str().unwrap();
    let stderr = log.map_or(ErrorOutput::Discard, |log| {
        ErrorOutput::Append(log.to_path_buf())
    });
    while_busy(|| GtpAgent::start(Launch::words(command).stderr(stderr.clone()), setup))
}

/// Calls `start` again while it fails because the script it starts is still busy (see
/// [`spawn_script`]), up to 100 times.
fn while_busy<T>(mut start: impl FnMut() -> Result<T, GtpError>) -> Result<T, GtpError> {
    let mut tries = 0;
    loop {
        match start() {
            Err(e) if e.to_string().contains("Text file busy") && tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            result => return result,
        }
    }
}

/// An engine that logs every command to `log`, answers `=` to all of them and plays the first
/// cell of `cells` that no `play` command has named yet.
fn logging_engine(name: &str, cells: &str) -> (PathBuf, PathBuf) {
    logging_engine_with(name, cells, "")
}

/// As [`logging_engine`], with `extra` as the first branches of the `case` on the command.
fn logging_engine_with(name: &str, cells: &str, extra: &str) -> (PathBuf, PathBuf) {
    let log = std::env::temp_dir().join(format!(
        "havannah-external-{}-{name}.log",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&log);
    let body = format!(
        r#"taken=""
while read -r line; do
  echo "$line" >> "{log}"
  set -- $line
  case "$1 $3" in
{extra}
  esac
  case "$1" in
    play) taken="$taken $3" ;;
    genmove)
      for c in {cells}; do
        case " $taken " in *" $c "*) ;; *) taken="$taken $c"; printf '= %s\n\n' "$c"; continue 2 ;; esac
      done
      printf '= resign\n\n'; continue ;;
    quit) printf '=\n\n'; exit 0 ;;
  esac
  printf '=\n\n'
done
"#,
        log = log.display()
    );
    (script(name, &body), log)
}

/// Plays `games` games of the program at `path` (player A) against a random player seeded with
/// `seed`, checks that the program forfeited every one of them, and returns the games.
fn match_lost_by_forfeits(path: &Path, games: usize, seed: u64) -> Vec<GameRecord<GameState>> {
    let mut program = spawn_script(path, None, &[]).unwrap();
    let mut random = RandomAgent::new(seed);
    let settings = MatchSettings::new(games).clock(Clock::unlimited());
    let result = run_match(
        [&mut program, &mut random],
        &settings,
        |_| GameState::new(5, Rules { pie: false }),
        |_| {},
    )
    .unwrap();
    assert_eq!(result.forfeits(), games);
    for game in &result.games {
        let forfeit = game.forfeit.as_ref().expect("a forfeit");
        assert_eq!(forfeit.player, PlayerId::A);
    }
    result.games
}

#[test]
fn moves_go_both_ways_in_our_notation() {
    let (path, log) = logging_engine("both-ways", "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2");
    let setup = vec!["time -m 0.5".to_string()];
    let mut program = spawn_script(&path, None, &setup).unwrap();
    let mut game = GameState::new(8, Rules { pie: false }).unwrap();
    game.play_str("h8").unwrap();
    program.reset(&game);
    let mv = program.choose(&game, &Clock::unlimited()).unwrap();
    assert_eq!(mv, Move::Cell(game.board().parse_cell("a1").unwrap()));
    game.play(mv).unwrap();
    program.observe(&game, mv);
    let reply = game.board().parse_cell("c3").unwrap();
    game.play(Move::Cell(reply)).unwrap();
    program.observe(&game, Move::Cell(reply));
    drop(program);
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(
        lines,
        [
            "boardsize 8",
            "clear_board",
            "time -m 0.5",
            "play white h8",
            "genmove black",
            "play white c3",
            "quit",
        ]
    );
}

#[test]
fn a_program_that_dies_forfeits_without_a_panic() {
    let path = script("dies", "exit 0\n");
    let mut program = spawn_script(&path, None, &[]).unwrap();
    let game = GameState::new(5, Rules { pie: false }).unwrap();
    program.reset(&game);
    assert_eq!(program.choose(&game, &Clock::unlimited()), None);
    assert!(
        program
            .error()
            .is_some_and(|e| e.to_string().contains("boardsize"))
    );
}

#[test]
fn an_illegal_answer_loses_the_game_by_forfeit() {
    // It always answers a1: the second time that cell is taken.
    let path = script(
        "stubborn",
        "while read -r line; do case \"$line\" in genmove*) printf '= a1\\n\\n' ;; quit*) exit 0 ;; *) printf '=\\n\\n' ;; esac; done\n",
    );
    for game in match_lost_by_forfeits(&path, 2, 3) {
        assert_eq!(game.winner, Some(PlayerId::B));
    }
}

#[test]
fn an_error_answer_or_a_missing_program_is_reported() {
    let path = script(
        "refuses",
        "while read -r line; do printf '? no thanks\\n\\n'; done\n",
    );
    let mut program = spawn_script(&path, None, &[]).unwrap();
    let err = program.send("boardsize 8").unwrap_err().to_string();
    assert!(
        err.contains("boardsize 8") && err.contains("no thanks"),
        "{err}"
    );
    let missing = GtpAgent::<GameState>::spawn("/nonexistent/engine --flag", &[])
        .unwrap_err()
        .to_string();
    assert!(missing.contains("/nonexistent/engine"), "{missing}");
    assert!(GtpAgent::<GameState>::spawn("  ", &[]).is_err());
}

#[test]
fn a_swap_is_sent_as_black_and_ignored_by_programs_without_the_pie_rule() {
    // It answers an error to `play ... swap`, as morat-havannah does.
    let reject = "    \"play swap\") echo \"$line\" >> \"$0.log\"; printf '? Invalid move\\n\\n'; continue ;;";
    let (path, log) = logging_engine_with("no-pie", "a1 b1", reject);
    let mut program = spawn_script(&path, None, &[]).unwrap();
    let mut game = GameState::new(5, Rules { pie: true }).unwrap();
    program.reset(&game);
    game.play_str("c3").unwrap();
    program.observe(&game, game.moves()[0]);
    game.play(Move::Swap).unwrap();
    program.observe(&game, Move::Swap);
    // After the swap Black (the first player) moves again: the program is asked for it.
    let mv = program.choose(&game, &Clock::unlimited());
    assert_eq!(mv, Some(Move::Cell(game.board().parse_cell("a1").unwrap())));
    assert_eq!(program.error(), None);
    drop(program);
    let rejected = std::fs::read_to_string(format!("{}.log", path.display())).unwrap();
    assert_eq!(rejected.trim(), "play black swap");
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let expected = ["play white c3", "play black swap", "genmove black"];
    assert_eq!(lines[2..5], expected, "{sent}");
    // A new game with the swap already played replays it the same way.
    let (path, log) = logging_engine("replay-swap", "a1");
    let mut program = spawn_script(&path, None, &[]).unwrap();
    program.reset(&game);
    drop(program);
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("play white c3\nplay black swap\n"), "{sent}");
}

#[test]
fn a_hung_program_forfeits_after_the_timeout() {
    // It answers everything but genmove, and then nothing more.
    let path = script(
        "hangs",
        "while read -r line; do case \"$line\" in genmove*) exec sleep 30 ;; *) printf '=\\n\\n' ;; esac; done\n",
    );
    let mut program = spawn_script(&path, None, &[])
        .unwrap()
        .with_timeout(Some(Duration::from_millis(300)));
    let game = GameState::new(5, Rules { pie: false }).unwrap();
    program.reset(&game);
    assert_eq!(program.error(), None);
    let start = Instant::now();
    assert_eq!(program.choose(&game, &Clock::unlimited()), None);
    assert!(start.elapsed() < Duration::from_secs(10));
    let error = program.error().unwrap().to_string();
    assert!(
        error.contains("genmove") && error.contains("no answer"),
        "{error}"
    );
}

#[test]
fn a_program_that_dies_mid_game_is_restarted_and_the_reason_recorded() {
    // It dies when asked for a move; every game starts it afresh.
    let path = script(
        "dies-on-genmove",
        "while read -r line; do case \"$line\" in genmove*) exit 1 ;; *) printf '=\\n\\n' ;; esac; done\n",
    );
    for game in match_lost_by_forfeits(&path, 3, 5) {
        let forfeit = game.forfeit.as_ref().expect("a forfeit");
        // Each game got as far as genmove: the program was started again after dying.
        assert!(
            forfeit.reason.contains("genmove") && forfeit.reason.contains("closed its output"),
            "{}",
            forfeit.reason
        );
    }
}

#[test]
fn standard_error_goes_to_the_log_file() {
    let path = script(
        "chatty",
        "while read -r line; do echo \"thinking about $line\" >&2; printf '=\\n\\n'; done\n",
    );
    let log = path.with_extension("stderr");
    let _ = std::fs::remove_file(&log);
    let mut program = spawn_script(&path, Some(&log), &[]).unwrap();
    program.send("name").unwrap();
    drop(program);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("thinking about name"), "{text}");
}

/// Starts `path` as [`havannah_cli::players::external_player`] does, retrying while the
/// script is busy (see [`spawn_script`]).
fn external_script(path: &Path, pie: bool, setup: &[String]) -> GtpAgent<GameState> {
    let launch = || Launch::words(path.to_str().unwrap());
    while_busy(|| havannah_cli::players::external_player(launch(), pie, setup)).unwrap()
}

#[test]
fn a_program_that_knows_havannah_pie_is_told_the_matchs_rule_and_others_are_not() {
    let knows = r#"    "known_command "*) printf '= true\n\n'; continue ;;"#;
    let refuses = r#"    "known_command "*) printf '? unknown command\n\n'; continue ;;"#;
    let setup = vec!["time -m 0.5".to_string()];
    let game = GameState::new(8, Rules { pie: false }).unwrap();
    for (name, extra, pie, want) in [
        ("knows-off", knows, false, Some("havannah-pie off")),
        ("knows-on", knows, true, Some("havannah-pie on")),
        ("does-not-know", "", false, None),
        ("refuses-known-command", refuses, false, None),
    ] {
        let (path, log) = logging_engine_with(name, "a1", extra);
        let mut program = external_script(&path, pie, &setup);
        program.reset(&game);
        drop(program);
        let sent = std::fs::read_to_string(&log).unwrap();
        let mut expected = vec!["known_command havannah-pie", "boardsize 8", "clear_board"];
        expected.extend(want);
        expected.push("time -m 0.5");
        let lines: Vec<&str> = sent.lines().take(expected.len()).collect();
        assert_eq!(lines, expected, "{name}");
        assert!(
            !sent
                .lines()
                .skip(expected.len())
                .any(|l| l.starts_with("havannah-pie"))
        );
    }
}

#[test]
fn our_own_engine_as_an_external_player_plays_the_matchs_pie_rule() {
    let command = format!("{} gtp --size 4 --quiet", env!("CARGO_BIN_EXE_havannah"));
    for pie in [false, true] {
        let mut program =
            havannah_cli::players::external_player(Launch::words(&command), pie, &[]).unwrap();
        program.reset(&GameState::new(4, Rules { pie }).unwrap());
        let want = if pie { "on" } else { "off" };
        assert_eq!(program.send("havannah-pie").unwrap().trim(), want);
    }
}
