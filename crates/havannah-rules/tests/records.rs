//! One-line records and SGF: round trips, and errors that name the line and the token.

use havannah_rules::{Colour, GameState, Kinds, Move, Record, Rules, RulesError};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

fn record_error(result: Result<Record, RulesError>) -> (usize, String, String) {
    match result {
        Err(RulesError::Record {
            line,
            token,
            reason,
        }) => (line, token, reason),
        other => panic!("expected a record error, got {other:?}"),
    }
}

#[test]
fn one_line_round_trip() {
    let line = "5 c3 swap d4 e5 a1";
    let record = Record::parse_line(line, 1).unwrap();
    assert_eq!(record.size, 5);
    assert_eq!(record.moves.len(), 5);
    assert_eq!(record.moves[1], Move::Swap);
    assert_eq!(record.result, None);
    assert_eq!(record.to_line(), line);
    // Case-insensitive moves are written back in lower case.
    assert_eq!(
        Record::parse_line("5 C3 SWAP", 1).unwrap().to_line(),
        "5 c3 swap"
    );
}

#[test]
fn fixture_line_with_result() {
    let record = Record::parse_line("4 black fork+ring a1 b2", 1).unwrap();
    let result = record.result.unwrap();
    assert_eq!(result.winner, Some(Colour::Black));
    assert_eq!(result.kinds, Kinds::FORK | Kinds::RING);
    let draw = Record::parse_line("3 draw - b2", 1)
        .unwrap()
        .result
        .unwrap();
    assert_eq!(draw.winner, None);
    assert_eq!(draw.kinds, Kinds::NONE);
}

#[test]
fn fixture_line_of_a_finished_game() {
    let mut game = GameState::new(4, Rules { pie: false }).unwrap();
    for mv in ["a1", "g7", "b1", "g6", "c1", "g5", "d1"] {
        game.play_str(mv).unwrap();
    }
    assert_eq!(
        Record::to_fixture_line(&game),
        "4 white bridge a1 g7 b1 g6 c1 g5 d1"
    );
}

#[test]
fn bad_lines_name_line_and_token() {
    let (line, token, _) = record_error(Record::parse_line("", 3));
    assert_eq!((line, token.as_str()), (3, ""));
    let (line, token, _) = record_error(Record::parse_line("x a1", 7));
    assert_eq!((line, token.as_str()), (7, "x"));
    let (_, token, reason) = record_error(Record::parse_line("14 a1", 1));
    assert_eq!(token, "14");
    assert!(reason.contains("14"), "{reason}");
    let (line, token, _) = record_error(Record::parse_line("8 h8 z99 a1", 12));
    assert_eq!((line, token.as_str()), (12, "z99"));
    let (_, token, _) = record_error(Record::parse_line("8 white bridgex h8", 1));
    assert_eq!(token, "bridgex");
    let (_, token, _) = record_error(Record::parse_line("8 white", 1));
    assert_eq!(token, "white");
}

#[test]
fn replay_reports_the_illegal_move() {
    let record = Record::parse_line("4 a1 a1", 1).unwrap();
    let err = record.replay().unwrap_err();
    assert!(err.to_string().contains("a1"), "{err}");
    assert!(err.to_string().contains("move 2"), "{err}");
    let record = Record::parse_line("4 a1 b1 swap", 1).unwrap();
    assert!(record.replay().is_err());
}

#[test]
fn sgf_round_trip() {
    let record = Record::parse_line("6 f6 swap e5 a1 k11", 1).unwrap();
    let sgf = record.to_sgf();
    assert_eq!(
        sgf,
        "(;FF[4]GM[havannah]SZ[6];W[f6];B[swap];W[e5];B[a1];W[k11])"
    );
    let back = Record::parse_sgf(&sgf).unwrap();
    assert_eq!(back.size, 6);
    assert_eq!(back.moves, record.moves);
}

#[test]
fn sgf_with_other_properties_and_whitespace() {
    let sgf = "(;FF[4]GM[havannah]SZ[4]PW[Alice]PB[Bob \\] the second]\n ;W[d4]\n;B[SWAP]C[a comment];W[a1])";
    let record = Record::parse_sgf(sgf).unwrap();
    assert_eq!(record.to_line(), "4 d4 swap a1");
}

#[test]
fn bad_sgf_is_an_error() {
    for bad in [
        "",
        "FF[4]",
        "(;FF[4]GM[hex]SZ[4];W[a1])",
        "(;FF[4]GM[havannah];W[a1])",
        "(;FF[4]SZ[99];W[a1])",
        "(;SZ[4];W[a1];W[b1])",
        "(;SZ[4];W[z9])",
        "(;SZ[4];W[a1",
        "(;SZ[4];W[a1]",
    ] {
        assert!(Record::parse_sgf(bad).is_err(), "accepted {bad:?}");
    }
    let err = Record::parse_sgf("(;SZ[4];W[a1];B[q7])").unwrap_err();
    assert!(err.to_string().contains("q7"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        rng_seed: RngSeed::Fixed(0x7265_636f),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn parsing_never_panics(text in ".{0,200}") {
        let _ = Record::parse_line(&text, 1);
        let _ = Record::parse_sgf(&text);
        let _ = Record::parse_sgf(&format!("(;SZ[5];W[{text}])"));
    }

    #[test]
    fn random_legal_records_round_trip(size in 2u8..=13, picks in proptest::collection::vec(any::<u16>(), 0..60)) {
        let mut game = GameState::new(size, Rules::default()).unwrap();
        let cells: Vec<_> = game.board().cells().collect();
        for p in picks {
            if game.outcome().is_over() {
                break;
            }
            let cell = cells[usize::from(p) % cells.len()];
            let _ = game.play(Move::Cell(cell));
        }
        let record = Record::of_game(&game);
        let line = record.to_line();
        prop_assert_eq!(Record::parse_line(&line, 1).unwrap(), record.clone());
        prop_assert_eq!(Record::parse_sgf(&record.to_sgf()).unwrap(), record.clone());
        let replayed = record.replay().unwrap();
        prop_assert_eq!(replayed.outcome(), game.outcome());
    }
}
