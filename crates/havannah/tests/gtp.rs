//! The GTP session with a random player: replies, errors, ids, undo, time, a scripted session,
//! and property tests that no input can crash it.

use game_harness::Clock;
use game_harness::gtp::STANDARD_COMMANDS;
use havannah::gtp::{HAVANNAH_COMMANDS, HavannahSession, Response, session as new_session};
use havannah::{Agent, Engine, EngineConfig, RandomAgent};
use havannah_rules::{Colour, GameState, Move, Record};
use proptest::prelude::*;

fn session() -> HavannahSession {
    new_session(Box::new(RandomAgent::new(11)))
}

fn reply(s: &mut HavannahSession, line: &str) -> String {
    s.handle(line)
        .unwrap_or_else(|| panic!("no reply to {line:?}"))
        .to_string()
}

fn ok(s: &mut HavannahSession, line: &str) -> String {
    let r = s.handle(line).unwrap();
    assert!(r.is_success(), "{line:?} failed: {r}");
    r.text().to_string()
}

fn err(s: &mut HavannahSession, line: &str) -> String {
    let r = s.handle(line).unwrap();
    assert!(!r.is_success(), "{line:?} succeeded: {r}");
    r.text().to_string()
}

#[test]
fn administrative_commands() {
    let mut s = session();
    assert_eq!(reply(&mut s, "protocol_version"), "= 2\n\n");
    assert_eq!(reply(&mut s, "name"), "= havannah\n\n");
    assert_eq!(ok(&mut s, "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(ok(&mut s, "known_command genmove"), "true");
    assert_eq!(ok(&mut s, "known_command KNOWN_COMMAND"), "true");
    assert_eq!(ok(&mut s, "known_command komi"), "false");
    let list = ok(&mut s, "list_commands");
    assert_eq!(
        list.lines().collect::<Vec<_>>(),
        [STANDARD_COMMANDS, HAVANNAH_COMMANDS].concat()
    );
    assert!(err(&mut s, "komi 6.5").contains("unknown command komi"));
    assert!(err(&mut s, "known_command").contains("syntax"));
    let mut named = new_session(Box::new(RandomAgent::new(1)) as Box<dyn Agent<GameState>>)
        .with_name("Castle\nX");
    assert_eq!(ok(&mut named, "name"), "Castle X");
}

#[test]
fn ids_case_comments_and_blank_lines() {
    let mut s = session();
    assert_eq!(reply(&mut s, "42 protocol_version"), "=42 2\n\n");
    assert_eq!(reply(&mut s, "7 bogus"), "?7 unknown command bogus\n\n");
    assert_eq!(reply(&mut s, "3 BoardSize 5"), "=3\n\n");
    assert_eq!(s.game().board().size(), 5);
    assert!(s.handle("").is_none());
    assert!(s.handle("   \t ").is_none());
    assert!(s.handle("# just a comment").is_none());
    assert_eq!(reply(&mut s, "9\tplay\tW\ta1 # first move"), "=9\n\n");
    assert_eq!(reply(&mut s, "pl\u{1}ay b e9\r"), "=\n\n");
    assert_eq!(s.game().moves().len(), 2);
    assert!(reply(&mut s, "12").starts_with("?12 "));
}

#[test]
fn boardsize_bounds() {
    let mut s = session();
    for bad in ["1", "14", "0", "-3", "x", "300"] {
        let msg = err(&mut s, &format!("boardsize {bad}"));
        assert!(msg.contains(bad), "{msg}");
    }
    assert!(err(&mut s, "boardsize").contains("syntax"));
    ok(&mut s, "play w h8");
    ok(&mut s, "boardsize 2");
    assert_eq!(s.game().board().num_cells(), 7);
    assert!(s.game().moves().is_empty());
    ok(&mut s, "boardsize 13");
    assert_eq!(s.game().board().size(), 13);
}

#[test]
fn play_checks_turn_and_legality() {
    let mut s = session();
    ok(&mut s, "boardsize 4");
    let msg = err(&mut s, "play b d4");
    assert!(
        msg.contains("d4") && msg.contains("white is to move"),
        "{msg}"
    );
    ok(&mut s, "play white d4");
    assert!(err(&mut s, "play b d4").contains("d4"));
    assert!(err(&mut s, "play b z9").contains("z9"));
    assert!(err(&mut s, "play b pass").contains("pass"));
    assert!(err(&mut s, "play x a1").contains("invalid colour x"));
    assert!(err(&mut s, "play b").contains("syntax"));
    ok(&mut s, "play B swap");
    // The stone stays White; Black moves next.
    assert_eq!(s.game().to_move(), Colour::Black);
    assert_eq!(
        s.game().moves(),
        [
            Move::Cell(s.game().board().parse_cell("d4").unwrap()),
            Move::Swap
        ]
    );
    assert!(err(&mut s, "play w a1").contains("black is to move"));
    assert!(err(&mut s, "play b swap").contains("swap"));
    ok(&mut s, "play b a1");
}

#[test]
fn pie_rule_can_be_switched_off() {
    let mut s = session();
    assert_eq!(ok(&mut s, "havannah-pie"), "on");
    assert_eq!(ok(&mut s, "havannah-pie off"), "off");
    ok(&mut s, "play w a1");
    assert!(err(&mut s, "play b swap").contains("swap"));
    assert!(err(&mut s, "havannah-pie maybe").contains("maybe"));
}

#[test]
fn genmove_plays_legal_moves_until_the_end() {
    let mut s = session();
    ok(&mut s, "boardsize 5");
    let mut colour = "w";
    while !s.game().outcome().is_over() {
        assert!(
            err(
                &mut s,
                &format!("genmove {}", if colour == "w" { "b" } else { "w" })
            )
            .contains("to move")
        );
        let before = s.game().moves().len();
        let mv = ok(&mut s, &format!("genmove {colour}"));
        assert_eq!(s.game().moves().len(), before + 1);
        assert_eq!(
            s.game().last_move().unwrap().to_notation(s.game().board()),
            mv
        );
        colour = if colour == "w" { "b" } else { "w" };
    }
    // The session's game replays to the same result.
    let line = ok(&mut s, "havannah-record");
    let replayed = Record::parse_line(&line, 1).unwrap().replay().unwrap();
    assert_eq!(replayed.outcome(), s.game().outcome());
    assert!(err(&mut s, "genmove w").contains("game is over"));
    assert!(err(&mut s, "genmove b").contains("game is over"));
    let score = ok(&mut s, "final_score");
    let winner = ok(&mut s, "havannah-winner");
    match s.game().outcome().winner() {
        Some(Colour::White) => {
            assert_eq!(score, "W+");
            assert!(winner.starts_with("white "));
        }
        Some(Colour::Black) => {
            assert_eq!(score, "B+");
            assert!(winner.starts_with("black "));
        }
        None => {
            assert_eq!(score, "0");
            assert_eq!(winner, "draw");
        }
    }
    assert!(err(&mut s, "play w a1").contains("game is over"));
    assert!(err(&mut s, "play b a1").contains("game is over"));
}

#[test]
fn reg_genmove_does_not_play() {
    let mut s = session();
    let mv = ok(&mut s, "reg_genmove w");
    assert!(s.game().moves().is_empty());
    assert!(Move::parse(s.game().board(), &mv).is_ok());
}

#[test]
fn undo_and_clear_board() {
    let mut s = session();
    assert!(err(&mut s, "undo").contains("undo"));
    ok(&mut s, "play w a1");
    ok(&mut s, "genmove b");
    ok(&mut s, "undo");
    assert_eq!(s.game().moves().len(), 1);
    assert_eq!(s.game().to_move(), Colour::Black);
    ok(&mut s, "undo");
    assert!(s.game().moves().is_empty());
    ok(&mut s, "play w h8");
    ok(&mut s, "clear_board");
    assert!(s.game().moves().is_empty());
    assert_eq!(s.game().board().size(), 8);
}

#[test]
fn final_score_and_winner_of_a_known_game() {
    let mut s = session();
    ok(&mut s, "boardsize 4");
    assert!(err(&mut s, "final_score").contains("not over"));
    assert_eq!(ok(&mut s, "havannah-winner"), "none");
    for (i, mv) in ["a1", "g7", "b1", "g6", "c1", "g5", "d1"]
        .iter()
        .enumerate()
    {
        let colour = if i.is_multiple_of(2) { "w" } else { "b" };
        ok(&mut s, &format!("play {colour} {mv}"));
    }
    assert_eq!(ok(&mut s, "final_score"), "W+");
    assert_eq!(ok(&mut s, "havannah-winner"), "white bridge");
    assert_eq!(
        ok(&mut s, "havannah-record"),
        "4 white bridge a1 g7 b1 g6 c1 g5 d1"
    );
}

#[test]
fn showboard_draws_the_stones() {
    let mut s = session();
    ok(&mut s, "boardsize 2");
    ok(&mut s, "play w a1");
    ok(&mut s, "play b c3");
    let text = reply(&mut s, "showboard");
    assert_eq!(
        text,
        "= \n    a b\n  1 W . 1\n 2 . . . 2\n  3 . B 3\n    b c\nmoves 2, last c3, white to move, pie on\n\n"
    );
}

#[test]
fn time_settings_reach_the_player() {
    /// A player that records the clocks it is given.
    struct Spy(RandomAgent, std::sync::Arc<std::sync::Mutex<Vec<Clock>>>);
    impl Agent<GameState> for Spy {
        fn name(&self) -> String {
            "spy".into()
        }
        fn reset(&mut self, game: &GameState) {
            self.0.reset(game);
        }
        fn observe(&mut self, game: &GameState, mv: Move) {
            self.0.observe(game, mv);
        }
        fn choose(&mut self, game: &GameState, clock: &Clock) -> Option<Move> {
            self.1.lock().unwrap().push(*clock);
            self.0.choose(game, clock)
        }
    }
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut s: HavannahSession = new_session(Box::new(Spy(RandomAgent::new(3), seen.clone())));
    s = s.with_safety_margin(std::time::Duration::ZERO);
    ok(&mut s, "genmove w");
    ok(&mut s, "time_settings 300 30 10");
    ok(&mut s, "time_left b 25 4");
    ok(&mut s, "genmove b");
    ok(&mut s, "time_left w 120.5 0");
    ok(&mut s, "genmove w");
    let clocks = seen.lock().unwrap().clone();
    assert_eq!(clocks[0], Clock::unlimited());
    assert_eq!(
        clocks[1].remaining,
        Some(std::time::Duration::from_secs(25))
    );
    assert_eq!(clocks[1].moves_to_go, Some(4));
    // Main time 120.5 s plus one period of 30 s; the estimate plus the period's 10 stones.
    assert_eq!(
        clocks[2].remaining,
        Some(std::time::Duration::from_millis(150_500))
    );
    assert!(clocks[2].moves_to_go.unwrap() > 10);
    // Extreme but valid settings do not overflow.
    ok(&mut s, "time_settings 3000000000 3000000000 4294967295");
    ok(&mut s, "genmove b");
    for bad in [
        "time_settings 1 2",
        "time_settings a 1 1",
        "time_settings 1 1 -1",
        "time_left w 5",
        "time_left w nan 0",
        "time_left w inf 0",
    ] {
        err(&mut s, bad);
    }
}

#[test]
fn run_a_scripted_session() {
    let script = "\
# a controller's script
1 boardsize 4
2 play w d4

3 play b swap
4 genmove b
5 play w d4
bogus
6 undo
7 showboard
8 quit
9 name
";
    let mut out = Vec::new();
    let mut s = session();
    s.run(script.as_bytes(), &mut out).unwrap();
    assert!(s.has_quit());
    let text = String::from_utf8(out).unwrap();
    let replies: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), 9, "{text}");
    assert_eq!(replies[0], "=1");
    assert_eq!(replies[1], "=2");
    assert_eq!(replies[2], "=3");
    assert!(replies[3].starts_with("=4 "));
    assert!(
        replies[4].starts_with("?5 illegal move white d4"),
        "{}",
        replies[4]
    );
    assert_eq!(replies[5], "? unknown command bogus");
    assert_eq!(replies[6], "=6");
    assert!(replies[7].starts_with("=7 \n"));
    assert_eq!(replies[8], "=8");
    // Nothing after quit was answered.
    assert!(!text.contains("=9"));
    assert_eq!(s.game().moves().len(), 2);
}

#[test]
fn invalid_utf8_is_not_fatal() {
    let mut out = Vec::new();
    let mut s = session();
    s.run(&b"name\n\xff\xfe play\nprotocol_version"[..], &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("\n\n").count(), 3);
    assert!(text.ends_with("= 2\n\n"));
}

fn check_reply(r: &Response) -> Result<(), TestCaseError> {
    let text = r.to_string();
    prop_assert!(text.starts_with('=') || text.starts_with('?'), "{:?}", text);
    prop_assert!(text.ends_with("\n\n"));
    prop_assert_eq!(text.matches("\n\n").count(), 1, "{:?}", text);
    Ok(())
}

/// Lines that are valid commands or close to them.
fn command_line() -> impl Strategy<Value = String> {
    let colour = prop::sample::select(vec!["w", "b", "white", "black", "B", "x"]);
    let cell = (0u8..27, 0u8..27).prop_map(|(x, y)| format!("{}{}", (b'a' + x) as char, y + 1));
    let mv = prop_oneof![cell, Just("swap".to_string()), Just("pass".to_string())];
    prop_oneof![
        3 => (colour.clone(), mv).prop_map(|(c, m)| format!("play {c} {m}")),
        3 => colour.clone().prop_map(|c| format!("genmove {c}")),
        1 => (0u8..16).prop_map(|n| format!("boardsize {n}")),
        1 => Just("undo".to_string()),
        1 => Just("clear_board".to_string()),
        1 => Just("showboard".to_string()),
        1 => Just("final_score".to_string()),
        1 => Just("havannah-winner".to_string()),
        1 => Just("havannah-record".to_string()),
        1 => (0u32..100, 0u32..50, 0u32..30).prop_map(|(m, b, s)| format!("time_settings {m} {b} {s}")),
        1 => (colour, 0u32..100, 0u32..30).prop_map(|(c, t, s)| format!("time_left {c} {t} {s}")),
        1 => (0u64..1000, prop::sample::select([STANDARD_COMMANDS, HAVANNAH_COMMANDS].concat())).prop_map(|(id, c)| format!("{id} {c}")),
        1 => prop::sample::select([STANDARD_COMMANDS, HAVANNAH_COMMANDS].concat()).prop_map(|c| format!("known_command {c}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_lines_never_crash(lines in prop::collection::vec(any::<String>(), 1..30)) {
        let mut s = session();
        for line in &lines {
            if let Some(r) = s.handle(line) {
                check_reply(&r)?;
            }
        }
    }

    #[test]
    fn random_command_sequences_keep_a_legal_game(lines in prop::collection::vec(command_line(), 1..80), seed in any::<u64>()) {
        let mut s = new_session(Box::new(RandomAgent::new(seed)) as Box<dyn Agent<GameState>>);
        for line in &lines {
            let r = s.handle(line).expect("commands always get a reply");
            check_reply(&r)?;
            if s.has_quit() {
                break;
            }
        }
        // The session's game is always a legal game: its record replays to the same state.
        let record = Record::of_game(s.game());
        let replayed = record.replay().map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed.moves(), s.game().moves());
        prop_assert_eq!(replayed.outcome(), s.game().outcome());
    }
}

#[test]
fn stats_report_the_last_search() {
    let mut config = EngineConfig::best();
    config.simulations = 300;
    let mut s = new_session(Box::new(Engine::new(config, 4)) as Box<dyn Agent<GameState>>);
    assert!(err(&mut s, "stats").contains("no search yet"));
    ok(&mut s, "boardsize 5");
    let mv = ok(&mut s, "genmove w");
    let stats = ok(&mut s, "stats");
    assert!(stats.contains("simulations"), "{stats}");
    // The principal variation starts with the move played.
    let pv = stats
        .lines()
        .find(|l| l.starts_with("pv "))
        .expect("a pv line");
    assert_eq!(pv.split_whitespace().nth(1), Some(mv.as_str()), "{stats}");
    // A player that does not search has no statistics.
    let mut random = session();
    ok(&mut random, "genmove w");
    assert!(err(&mut random, "stats").contains("no search yet"));
}
