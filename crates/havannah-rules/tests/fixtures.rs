//! Every game record judged by OpenSpiel (the files of `tests/fixtures/`): replayed move by
//! move, no win before the last move, and after it the recorded result and kinds. The
//! off-line ring finder and the slow reference must agree.

use std::path::Path;

use havannah_rules::{Colour, GameState, Kinds, Outcome, Record, RingFinder, Rules, reference};

fn fixture_lines(name: &str) -> Vec<(usize, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// Replays every record of a fixture file and checks it; returns how many games were checked.
fn check_file(name: &str, with_reference: bool) -> usize {
    let lines = fixture_lines(name);
    assert!(!lines.is_empty(), "{name} has no records");
    let mut finder = RingFinder::new();
    for (line_no, line) in &lines {
        let record = Record::parse_line(line, *line_no)
            .unwrap_or_else(|e| panic!("{name}:{line_no}: cannot parse: {e}"));
        let expected = record
            .result
            .unwrap_or_else(|| panic!("{name}:{line_no}: fixture without a result"));
        let mut game = GameState::new(record.size, Rules { pie: true }).expect("valid size");
        let last = record.moves.len();
        for (k, &mv) in record.moves.iter().enumerate() {
            assert!(
                !game.outcome().is_over(),
                "{name}:{line_no}: game ended at move {k}, before the last move {last}"
            );
            game.play(mv)
                .unwrap_or_else(|e| panic!("{name}:{line_no}: move {}: {e}", k + 1));
        }
        match (expected.winner, game.outcome()) {
            (None, Outcome::Draw) => {}
            (Some(w), Outcome::Win { winner, kinds, .. }) => {
                assert_eq!(*winner, w, "{name}:{line_no}: winner");
                assert_eq!(*kinds, expected.kinds, "{name}:{line_no}: kinds");
            }
            (exp, got) => panic!("{name}:{line_no}: expected {exp:?}, got {got:?}"),
        }
        // The off-line finder sees the same rings: a ring of the winner at the last move iff
        // the record says ring, and never a ring earlier for either colour.
        for colour in [Colour::White, Colour::Black] {
            let ring = finder.earliest_ring(game.position(), colour);
            let expect_ring =
                expected.winner == Some(colour) && expected.kinds.contains(Kinds::RING);
            assert_eq!(
                ring.map(|r| r.ply as usize),
                expect_ring.then_some(last),
                "{name}:{line_no}: off-line ring of {colour}"
            );
        }
        if with_reference {
            let stones = game.stones();
            let board = game.board();
            for colour in [Colour::White, Colour::Black] {
                let want = if expected.winner == Some(colour) {
                    expected.kinds
                } else {
                    Kinds::NONE
                };
                assert_eq!(
                    reference::figures(board, &stones, colour),
                    want,
                    "{name}:{line_no}: reference figures of {colour}"
                );
            }
        }
    }
    lines.len()
}

#[test]
fn openspiel_size_4() {
    assert_eq!(check_file("openspiel_s4.txt", true), 2000);
}

#[test]
fn openspiel_size_4_with_swap() {
    assert_eq!(check_file("openspiel_s4_swap.txt", true), 2000);
}

#[test]
fn openspiel_size_5() {
    assert_eq!(check_file("openspiel_s5.txt", true), 2000);
}

#[test]
fn openspiel_size_8() {
    assert_eq!(check_file("openspiel_s8.txt", true), 2000);
}

#[test]
fn openspiel_draws() {
    assert!(check_file("openspiel_draws_s3.txt", true) >= 10);
    assert!(check_file("openspiel_draws_s4.txt", true) >= 10);
}

#[test]
fn swap_fixtures_do_use_swap() {
    let with_swap = fixture_lines("openspiel_s4_swap.txt")
        .iter()
        .filter(|(_, l)| l.split_whitespace().any(|t| t == "swap"))
        .count();
    assert!(with_swap >= 50, "only {with_swap} records with swap");
}
