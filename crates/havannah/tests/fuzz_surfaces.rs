//! The input surfaces the cargo-fuzz targets in `fuzz/` exercise, checked on stable with
//! proptest so that a regression fails `cargo test`: cell names, one-line records, SGF, the
//! GTP session driving a real engine and value-net weight files get arbitrary text, arbitrary
//! bytes and mutated real inputs (the fixtures' records); none may panic, and each answers as
//! documented (a value or an error of the documented kind). Round trips: what we write (cell
//! names, records, fixture lines, SGF) reads back to the same game.
//!
//! Case counts are small and the seed fixed so the suite stays within a few seconds; the
//! fuzzers (`docs/reliability.md`) search far longer.

use std::sync::OnceLock;

use game_harness::gtp::{is_one_response, too_slow_to_fuzz};
use havannah::gtp::{HavannahSession, session as new_session};
#[cfg(feature = "weights-file")]
use havannah::td::ValueNet;
use havannah::{Agent, Engine, EngineConfig};
use havannah_board::Board;
use havannah_rules::{GameState, Move, Record, Rules, RulesError};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x6675_7a7a),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Every record line of the fixtures (comments and blank lines left out).
fn fixture_lines() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../havannah-rules/tests/fixtures"
        );
        let mut lines = Vec::new();
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .expect("the fixtures folder")
            .map(|e| e.expect("a fixture").path())
            .collect();
        names.sort();
        for path in names {
            let text = std::fs::read_to_string(&path).expect("a fixture file");
            lines.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_string),
            );
        }
        assert!(lines.len() > 100, "only {} fixture lines", lines.len());
        lines
    })
}

/// A mutation of `text`, as a fuzzer makes them: `op` chooses between cutting at a byte, deleting
/// a byte range, inserting `junk`, replacing a whitespace-separated token by `junk`, and
/// duplicating a token; `at` and `len` place it. The result is valid UTF-8 (cuts fall on
/// character boundaries).
fn mutate(text: &str, op: u8, at: usize, len: usize, junk: &str) -> String {
    let boundary = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let at = boundary(if text.is_empty() {
        0
    } else {
        at % (text.len() + 1)
    });
    match op % 5 {
        0 => text[..at].to_string(),
        1 => format!("{}{}", &text[..at], &text[boundary(at + len)..]),
        2 => format!("{}{junk}{}", &text[..at], &text[at..]),
        _ => {
            let mut tokens: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            if tokens.is_empty() {
                return junk.to_string();
            }
            let k = at % tokens.len();
            if op % 5 == 3 {
                tokens[k] = junk.to_string();
            } else {
                let t = tokens[k].clone();
                tokens.insert(k, t);
            }
            tokens.join(" ")
        }
    }
}

/// Checks the one-line record surface on `line`: a record error naming line 7, or a record
/// that writes, parses and replays consistently (and whose replayed game writes as a fixture
/// line and as SGF that read back to the same moves).
fn check_record_line(line: &str) -> Result<(), TestCaseError> {
    let record = match Record::parse_line(line, 7) {
        Ok(record) => record,
        Err(RulesError::Record { line: 7, .. }) => return Ok(()),
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{line:?}: unexpected error {e:?}"
            )));
        }
    };
    let again = Record::parse_line(&record.to_line(), 1).expect("a written record parses");
    prop_assert_eq!(&again.moves, &record.moves);
    prop_assert_eq!(again.size, record.size);
    match record.replay() {
        Ok(game) => {
            prop_assert_eq!(game.moves(), &record.moves[..]);
            let fixture = Record::to_fixture_line(&game);
            let back = Record::parse_line(&fixture, 1).expect("a fixture line parses");
            prop_assert_eq!(&back.moves, &record.moves);
            let replayed = back.replay().expect("replays again");
            prop_assert_eq!(replayed.outcome(), game.outcome());
            if game.outcome().is_over() {
                let claimed = back
                    .result
                    .expect("a finished game's line states its result");
                prop_assert_eq!(claimed.kinds, game.outcome().kinds());
            }
            let sgf = Record::parse_sgf(&record.to_sgf()).expect("our SGF parses");
            prop_assert_eq!(&sgf.moves, &record.moves);
        }
        Err(RulesError::Record { .. }) => {}
        Err(e) => return Err(TestCaseError::fail(format!("replay of {line:?}: {e:?}"))),
    }
    Ok(())
}

/// Checks the SGF surface on `text`: an error, or a record whose SGF and one-line forms read
/// back to it.
fn check_sgf(text: &str) -> Result<(), TestCaseError> {
    let Ok(record) = Record::parse_sgf(text) else {
        return Ok(());
    };
    prop_assert_eq!(
        &Record::parse_sgf(&record.to_sgf()).expect("our SGF"),
        &record
    );
    prop_assert_eq!(
        &Record::parse_line(&record.to_line(), 1).expect("our line"),
        &record
    );
    if let Ok(game) = record.replay() {
        prop_assert_eq!(game.moves(), &record.moves[..]);
    }
    Ok(())
}

/// Checks the cell-name surface on `text` on every size from 2 to 10.
fn check_cell(text: &str) -> Result<(), TestCaseError> {
    for size in 2..=10 {
        let board = Board::new(size).expect("valid size");
        let parsed = board.parse_cell(text);
        if let Ok(cell) = parsed {
            let name = board.cell_name(cell).to_string();
            prop_assert_eq!(board.parse_cell(&name), Ok(cell));
            prop_assert!(name.eq_ignore_ascii_case(text), "{text:?} read as {name}");
        }
        match Move::parse(board, text) {
            Ok(Move::Cell(cell)) => prop_assert_eq!(parsed, Ok(cell)),
            Ok(Move::Swap) => prop_assert!(text.eq_ignore_ascii_case("swap")),
            Err(_) => prop_assert!(parsed.is_err()),
        }
    }
    Ok(())
}

/// A random legal game: `picks` choose among the empty cells (and `swap` when it is legal and
/// the pick is a multiple of 5) until the game ends or the picks run out.
fn random_game(size: u8, picks: &[u16]) -> GameState {
    let mut game = GameState::new(size, Rules { pie: true }).expect("valid size");
    for &p in picks {
        if game.outcome().is_over() {
            break;
        }
        if p % 5 == 0 && game.check(Move::Swap).is_ok() {
            game.play(Move::Swap).expect("checked");
            continue;
        }
        let empty: Vec<_> = game
            .board()
            .cells()
            .filter(|&c| game.stone(c).is_none())
            .collect();
        if empty.is_empty() {
            break;
        }
        let cell = empty[usize::from(p) % empty.len()];
        game.play(Move::Cell(cell)).expect("an empty cell");
    }
    game
}

/// A GTP session with a real engine on a tiny budget (16 simulations a move).
fn engine_session() -> HavannahSession {
    let mut config = EngineConfig::best();
    config.simulations = 16;
    new_session(Box::new(Engine::new(config, 3)) as Box<dyn Agent<GameState>>)
}

/// Feeds `bytes` (split into lines, non-UTF-8 replaced) to the session; board sizes above 6
/// and `time_settings` are left out to keep each case fast. Every reply must be one
/// well-formed GTP response, and the session's game must replay from its record.
fn check_gtp_stream(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut session = engine_session();
    let text = String::from_utf8_lossy(bytes);
    for line in text.split('\n') {
        if too_slow_to_fuzz(line, 6) {
            continue;
        }
        if let Some(reply) = session.handle(line) {
            let s = reply.to_string();
            prop_assert!(is_one_response(&s), "{:?}", s);
        }
        if session.has_quit() {
            break;
        }
    }
    let replayed = Record::of_game(session.game())
        .replay()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(replayed.moves(), session.game().moves());
    Ok(())
}

/// A GTP command line built from the commands the session knows and plausible arguments.
fn gtp_line() -> impl Strategy<Value = String> {
    let command = prop::sample::select(vec![
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "reg_genmove",
        "undo",
        "showboard",
        "final_score",
        "havannah-winner",
        "havannah-record",
        "havannah-pie",
        "stats",
        "known_command",
        "list_commands",
        "name",
        "quit",
        "bogus",
    ]);
    let arg = prop::sample::select(vec![
        "w", "b", "white", "BLACK", "x", "a1", "c3", "d4", "e5", "swap", "SWAP", "k11", "0", "3",
        "4", "5", "99", "-1", "on", "off", "",
    ]);
    (
        proptest::option::of(0u64..1000),
        command,
        prop::collection::vec(arg, 0..3),
    )
        .prop_map(|(id, command, args)| game_harness::gtp::command_line(id, command, &args))
}

/// A valid weights file for a board of `size` with `hidden` units, weights from `seed`.
#[cfg(feature = "weights-file")]
fn weights_json(size: u8, hidden: usize, seed: u32) -> String {
    let board = Board::new(size).expect("valid size");
    let inputs = board.num_cells() + 1;
    let w = |k: usize| {
        let x = (k as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) % 2001;
        format!("{:.3}", (f64::from(x) - 1000.0) / 4000.0)
    };
    let list = |n: usize, off: usize| (0..n).map(|k| w(k + off)).collect::<Vec<_>>().join(",");
    format!(
        r#"{{"format":"havannah-td-value-net","version":1,"board_size":{size},"layers":[{inputs},{hidden},1],"w1":[{}],"b1":[{}],"w2":[{}],"b2":0.125}}"#,
        list(inputs * hidden, 0),
        list(hidden, 7919),
        list(hidden, 104_729)
    )
}

/// Checks the weights-file surface on `text`: an error, or a net that values positions of its
/// board (empty, and after one move) finitely.
#[cfg(feature = "weights-file")]
fn check_weights(text: &str) -> Result<(), TestCaseError> {
    let Ok(net) = ValueNet::from_json(text, "surface.json") else {
        return Ok(());
    };
    let mut game = GameState::new(net.size(), Rules::default()).expect("the net's size");
    let v = net.evaluate(game.position());
    prop_assert!(v.is_finite() && (-1.0..=1.0).contains(&v), "{}", v);
    game.play(Move::Cell(game.board().centre()))
        .expect("an empty centre");
    let v = net.evaluate(game.position());
    prop_assert!(v.is_finite() && (-1.0..=1.0).contains(&v), "{}", v);
    Ok(())
}

#[test]
fn fixture_lines_replay_to_their_stated_result() {
    for line in fixture_lines() {
        let record = Record::parse_line(line, 1).expect("a fixture line parses");
        let game = record.replay().expect("a fixture line replays");
        let stated = record.result.expect("fixture lines state their result");
        assert_eq!(stated.kinds, game.outcome().kinds(), "{line}");
        assert_eq!(Record::to_fixture_line(&game), *line, "{line}");
    }
}

#[cfg(feature = "weights-file")]
#[test]
fn a_valid_weights_file_loads() {
    let net = ValueNet::from_json(&weights_json(3, 4, 1), "ok.json").expect("a valid file");
    assert_eq!((net.size(), net.hidden()), (3, 4));
    check_weights(&weights_json(3, 4, 1)).unwrap();
}

#[test]
fn scripted_gtp_streams_are_answered() {
    let mut s = engine_session();
    let script =
        "boardsize 4\nplay w a1\ngenmove b\nundo\nundo\nundo\n\u{ff}\u{0}\nhavannah-record\n";
    let mut replies = 0;
    for line in script.lines() {
        if let Some(r) = s.handle(line) {
            replies += 1;
            assert!(r.to_string().ends_with("\n\n"));
        }
    }
    assert_eq!(replies, 8);
    assert!(s.game().moves().is_empty());
    check_gtp_stream(b"boardsize 5\ngenmove w\ngenmove b\nplay w swap\n\xff\xfe\nshowboard\n")
        .unwrap();
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn cell_names_from_any_text(text in ".{0,8}") {
        check_cell(&text)?;
    }

    #[test]
    fn cell_names_from_near_misses(text in "[a-pA-P+ -]?[0-9]{0,4}( |x)?|(?i)swap") {
        check_cell(&text)?;
    }

    #[test]
    fn records_from_any_text(text in ".{0,120}") {
        check_record_line(&text)?;
    }

    #[test]
    fn records_from_mutated_fixture_lines(
        k in any::<prop::sample::Index>(),
        op in any::<u8>(),
        at in any::<usize>(),
        len in 0usize..20,
        junk in "[a-z0-9+ -]{0,6}|swap|white|draw|-|\\PC{0,3}",
    ) {
        let lines = fixture_lines();
        let line = &lines[k.index(lines.len())];
        check_record_line(&mutate(line, op, at, len, &junk))?;
    }

    #[test]
    fn sgf_from_any_text(text in "\\(?;?.{0,80}") {
        check_sgf(&text)?;
    }

    #[test]
    fn sgf_from_mutated_games(
        size in 2u8..=8,
        picks in prop::collection::vec(any::<u16>(), 0..30),
        op in any::<u8>(),
        at in any::<usize>(),
        len in 0usize..10,
        junk in "[\\[\\]\\\\();A-Za-z0-9]{0,5}",
    ) {
        let sgf = Record::of_game(&random_game(size, &picks)).to_sgf();
        check_sgf(&mutate(&sgf, op, at, len, &junk))?;
    }

    #[test]
    fn our_notation_records_and_sgf_round_trip(
        size in 2u8..=10,
        picks in prop::collection::vec(any::<u16>(), 0..80),
    ) {
        let game = random_game(size, &picks);
        let board = game.board();
        for mv in game.moves() {
            prop_assert_eq!(Move::parse(board, &mv.to_notation(board)).unwrap(), *mv);
        }
        let record = Record::of_game(&game);
        prop_assert_eq!(Record::parse_line(&record.to_line(), 1).unwrap(), record.clone());
        prop_assert_eq!(Record::parse_sgf(&record.to_sgf()).unwrap(), record.clone());
        let fixture = Record::parse_line(&Record::to_fixture_line(&game), 1).unwrap();
        prop_assert_eq!(&fixture.moves, &record.moves);
        let replayed = fixture.replay().unwrap();
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(replayed.outcome(), game.outcome());
        prop_assert_eq!(replayed.to_move(), game.to_move());
    }

    #[cfg(feature = "weights-file")]
    #[test]
    fn weights_from_any_text(text in "\\{?.{0,60}") {
        check_weights(&text)?;
    }

    #[cfg(feature = "weights-file")]
    #[test]
    fn weights_from_mutated_files(
        size in 2u8..=3,
        hidden in 1usize..4,
        seed in any::<u32>(),
        op in any::<u8>(),
        at in any::<usize>(),
        len in 0usize..12,
        junk in "[0-9e.+-]{0,8}|\\[|\\]|,|null|1e39|-3e38|\\PC{0,3}",
    ) {
        check_weights(&mutate(&weights_json(size, hidden, seed), op, at, len, &junk))?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn gtp_streams_of_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_gtp_stream(&bytes)?;
    }

    #[test]
    fn gtp_streams_of_commands(lines in prop::collection::vec(gtp_line(), 1..40)) {
        check_gtp_stream(lines.join("\n").as_bytes())?;
    }
}
