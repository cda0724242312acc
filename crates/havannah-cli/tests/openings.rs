//! The committed suites of balanced openings: they parse for their board size, hold at least
//! 50 openings, and no two are symmetric images of each other.

use std::collections::HashSet;
use std::path::PathBuf;

use game_harness::openings::Openings;
use havannah_cli::openings::canonical_key;
use havannah_rules::{GameState, Rules};

fn suite(size: u8) -> Openings<GameState> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../openings")
        .join(format!("havannah-{size}.txt"));
    let start = GameState::new(size, Rules { pie: false }).unwrap();
    Openings::read(&path, &start).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_committed_suites_are_distinct_up_to_symmetry() {
    for size in [8, 10] {
        let suite = suite(size);
        assert!(suite.len() >= 50, "size {size}: {} openings", suite.len());
        let mut keys = HashSet::new();
        for opening in suite.openings() {
            let stones = opening.game.moves().len();
            assert!((1..=3).contains(&stones), "line {}", opening.line);
            assert!(
                keys.insert(canonical_key(&opening.game)),
                "size {size} line {}: an image of an earlier opening",
                opening.line
            );
        }
    }
}

#[test]
fn symmetric_images_share_their_key() {
    let game = |moves: &[&str]| {
        let mut g = GameState::new(4, Rules { pie: false }).unwrap();
        for m in moves {
            g.play_str(m).unwrap();
        }
        g
    };
    // a1 and d1 are corners; b1 and a2 are each a side cell next to a1.
    assert_eq!(canonical_key(&game(&["a1"])), canonical_key(&game(&["d1"])));
    assert_eq!(
        canonical_key(&game(&["a1", "b1"])),
        canonical_key(&game(&["a1", "a2"]))
    );
    assert_ne!(canonical_key(&game(&["a1"])), canonical_key(&game(&["b1"])));
    // The same cells with the colours exchanged are another opening.
    assert_ne!(
        canonical_key(&game(&["a1", "d4"])),
        canonical_key(&game(&["d4", "a1"]))
    );
}
