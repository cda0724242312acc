//! `GtpProgram`: external GTP engines as players, driven by small shell-script engines.

use std::path::PathBuf;

use havannah::selfplay::{MatchConfig, PlayerId, run_match};
use havannah::{Clock, GtpProgram, Player, RandomPlayer};
use havannah_rules::{Game, Move, Rules};

/// Writes an executable shell script into a fresh temporary folder and returns its path.
fn script(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("havannah-external-{}-{name}", std::process::id()));
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

/// An engine that logs every command to `log`, answers `=` to all of them and plays the first
/// cell of `cells` that no `play` command has named yet.
fn logging_engine(name: &str, cells: &str) -> (PathBuf, PathBuf) {
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

#[test]
fn moves_go_both_ways_in_our_notation() {
    let (path, log) = logging_engine("both-ways", "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2");
    let setup = vec!["time -m 0.5".to_string()];
    let mut program = GtpProgram::spawn(path.to_str().unwrap(), &setup).unwrap();
    let mut game = Game::new(8, Rules { pie: false }).unwrap();
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
    let mut program = GtpProgram::spawn(path.to_str().unwrap(), &[]).unwrap();
    let game = Game::new(5, Rules { pie: false }).unwrap();
    program.reset(&game);
    assert_eq!(program.choose(&game, &Clock::unlimited()), None);
    assert!(program.error().is_some_and(|e| e.contains("boardsize")));
}

#[test]
fn an_illegal_answer_loses_the_game_by_forfeit() {
    // It always answers a1: the second time that cell is taken.
    let path = script(
        "stubborn",
        "while read -r line; do case \"$line\" in genmove*) printf '= a1\\n\\n' ;; quit*) exit 0 ;; *) printf '=\\n\\n' ;; esac; done\n",
    );
    let mut program = GtpProgram::spawn(path.to_str().unwrap(), &[]).unwrap();
    let mut random = RandomPlayer::new(3);
    let config = MatchConfig::new(5, 2).clock(Clock::unlimited());
    let result = run_match(&mut program, &mut random, &config, |_| {}).unwrap();
    assert_eq!(result.forfeits(), 2);
    for game in &result.games {
        let forfeit = game.forfeit.as_ref().expect("a forfeit");
        assert_eq!(forfeit.player, PlayerId::A);
        assert_eq!(game.winner_player, Some(PlayerId::B));
    }
}

#[test]
fn an_error_answer_or_a_missing_program_is_reported() {
    let path = script(
        "refuses",
        "while read -r line; do printf '? no thanks\\n\\n'; done\n",
    );
    let mut program = GtpProgram::spawn(path.to_str().unwrap(), &[]).unwrap();
    let err = program.send("boardsize 8").unwrap_err();
    assert!(
        err.contains("boardsize 8") && err.contains("no thanks"),
        "{err}"
    );
    let missing = GtpProgram::spawn("/nonexistent/engine --flag", &[]).unwrap_err();
    assert!(missing.contains("/nonexistent/engine"), "{missing}");
    assert!(GtpProgram::spawn("  ", &[]).is_err());
}
