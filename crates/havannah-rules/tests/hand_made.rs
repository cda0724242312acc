//! Hand-made positions for each kind of figure, and for shapes that look like figures but are
//! not. Each position is set up by alternating White and Black stones; the last stone listed
//! for White is played last, so its move is the one that completes (or fails to complete)
//! the figure.

use havannah_rules::{
    Board, Colour, GameState, Kinds, Move, Outcome, RingFinder, Rules, RulesError, reference,
};

/// Plays White's cells interleaved with Black's filler cells (White first). Black must have
/// at least as many cells as White minus one. Returns the game and the kinds of the last
/// White move.
fn setup(size: u8, white: &[&str], black: &[&str]) -> (GameState, Kinds) {
    assert!(black.len() + 1 >= white.len(), "not enough Black filler");
    let mut game = GameState::new(size, Rules { pie: false }).expect("valid size");
    let mut last = Kinds::NONE;
    for (k, w) in white.iter().enumerate() {
        last = game
            .play_str(w)
            .unwrap_or_else(|e| panic!("white {w}: {e}"));
        if k + 1 < white.len() {
            assert!(last.is_empty(), "white {w} won early: {last}");
            let b = black[k];
            let kb = game
                .play_str(b)
                .unwrap_or_else(|e| panic!("black {b}: {e}"));
            assert!(kb.is_empty(), "black {b} won: {kb}");
        }
    }
    (game, last)
}

/// Checks the last move's kinds against the expectation and against the reference.
fn expect(size: u8, white: &[&str], black: &[&str], want: Kinds) {
    let (game, got) = setup(size, white, black);
    assert_eq!(got, want, "white {white:?}");
    assert_eq!(
        reference::figures(game.board(), &game.stones(), Colour::White),
        want,
        "reference for white {white:?}"
    );
    let ring = RingFinder::new().earliest_ring(game.position(), Colour::White);
    assert_eq!(
        ring.is_some(),
        want.contains(Kinds::RING),
        "off-line ring finder"
    );
    if want.is_empty() {
        assert_eq!(game.outcome(), &Outcome::Ongoing);
    } else {
        assert_eq!(game.outcome().winner(), Some(Colour::White));
    }
}

// Far-away Black filler on a size-8 board: even coordinates, so no two are neighbours.
const FILL8: &[&str] = &[
    "o15", "m15", "k15", "o13", "o11", "m13", "k13", "i15", "m11", "o9",
];

#[test]
fn bridge_along_a_side() {
    expect(
        8,
        &["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"],
        FILL8,
        Kinds::BRIDGE,
    );
}

#[test]
fn bridge_through_the_middle() {
    // a1 to o15: the long diagonal through the centre.
    let white: Vec<String> = (0..15)
        .map(|i| format!("{}{}", (b'a' + i) as char, i + 1))
        .collect();
    let white: Vec<&str> = white.iter().map(String::as_str).collect();
    // Isolated Black stones (even coordinates: no two are neighbours).
    let black = [
        "c1", "e1", "g1", "e3", "g3", "i3", "g5", "i5", "k5", "i7", "k7", "m7", "k9", "m9",
    ];
    expect(8, &white, &black, Kinds::BRIDGE);
}

#[test]
fn two_sides_and_a_corner_is_no_figure() {
    // a1 is a corner; b1 is on side 0 and a2 on side 5: two sides, one corner.
    expect(
        5,
        &["b1", "a2", "c2", "a1"],
        &["i9", "h9", "i8"],
        Kinds::NONE,
    );
}

#[test]
fn corners_are_not_sides() {
    // Size 4: d1 is a corner. b1, c1 on side 0; e2 on side 1 (between d1 and g4); a2 side 5.
    // The chain a2-b2... joins side 5, side 0 and corner d1 and side 1 => three sides.
    // First without the side-1 cell: sides 5 and 0 plus corners a1? no; corner d1 only.
    expect(
        4,
        &["a2", "b2", "c2", "c1", "d1"],
        &["g7", "f7", "e7", "g6"],
        Kinds::NONE,
    );
}

#[test]
fn fork_of_three_sides() {
    // Size 4: a2 (side 5), b1 (side 0), e2 (side 1) joined through b2 c2 d2.
    expect(
        4,
        &["a2", "b2", "c2", "d2", "b1", "e2"],
        &["g7", "f7", "e7", "g6", "f5"],
        Kinds::FORK,
    );
}

#[test]
fn ring_around_an_empty_cell() {
    expect(8, &["i8", "i9", "h9", "g8", "g7", "h7"], FILL8, Kinds::RING);
}

#[test]
fn ring_around_an_opponent_stone() {
    // Black's first filler is h8, the cell the ring encloses.
    let black = ["h8", "o15", "m15", "k15", "o13", "o11"];
    expect(
        8,
        &["i8", "i9", "h9", "g8", "g7", "h7"],
        &black,
        Kinds::RING,
    );
}

#[test]
fn flower_is_a_ring_around_its_own_centre() {
    // The centre first, the six petals after: the last petal closes the ring around h8.
    expect(
        8,
        &["h8", "i8", "i9", "h9", "g8", "g7", "h7"],
        FILL8,
        Kinds::RING,
    );
}

#[test]
fn flower_without_the_last_petal_is_no_ring() {
    expect(8, &["h8", "i8", "i9", "h9", "g8", "g7"], FILL8, Kinds::NONE);
}

#[test]
fn ring_through_side_cells_and_a_corner() {
    // Around b2 (inner): a1 (corner), b1, a2 (sides), c2, c3, b3.
    expect(8, &["a1", "b1", "c2", "c3", "b3", "a2"], FILL8, Kinds::RING);
}

#[test]
fn stones_around_a_side_cell_are_no_ring() {
    // d1 is a side cell; its four neighbours c1, d2, e2, e1 all White: d1 is not enclosed.
    expect(8, &["c1", "d2", "e2", "e1"], FILL8, Kinds::NONE);
}

#[test]
fn compact_blobs_are_no_ring() {
    // A triangle of three and a rhombus of four.
    expect(8, &["h8", "i8", "i9"], FILL8, Kinds::NONE);
    expect(8, &["h8", "i8", "i9", "h9"], FILL8, Kinds::NONE);
    // A larger blob: two rows of three, no cell enclosed.
    expect(8, &["g7", "h7", "i7", "h8", "i8", "j8"], FILL8, Kinds::NONE);
}

#[test]
fn big_ring_around_several_cells() {
    // A ring around the two cells h8 and i8.
    expect(
        8,
        &["g7", "h7", "i7", "j8", "j9", "i9", "h9", "g8"],
        FILL8,
        Kinds::RING,
    );
}

#[test]
fn ring_and_bridge_in_one_move() {
    // Size 4: a chain from the corner d1 around b2, closed by the corner a1: a ring around
    // b2 and a bridge d1-a1 in one move.
    expect(
        4,
        &["b1", "c1", "d1", "c2", "c3", "b3", "a2", "a1"],
        &["g7", "f7", "e7", "g6", "g5", "f6", "f5"],
        Kinds::BRIDGE | Kinds::RING,
    );
}

#[test]
fn winning_chain_is_reported() {
    let (game, kinds) = setup(8, &["i8", "i9", "h9", "g8", "g7", "h7"], FILL8);
    assert_eq!(kinds, Kinds::RING);
    match game.outcome() {
        Outcome::Win { chain, .. } => {
            let names: Vec<String> = chain
                .iter()
                .map(|c| game.board().cell_name(c).to_string())
                .collect();
            assert_eq!(chain.len(), 6, "{names:?}");
            assert!(names.iter().any(|n| n == "h7"));
            assert!(!names.iter().any(|n| n == "h8"));
        }
        other => panic!("expected a win, got {other:?}"),
    }
}

#[test]
fn errors_name_the_move_and_change_nothing() {
    let mut game = GameState::new(8, Rules { pie: false }).unwrap();
    game.play_str("h8").unwrap();
    let before = (game.moves().to_vec(), game.to_move(), game.stones());

    let err = game.play_str("h8").unwrap_err();
    assert!(matches!(err, RulesError::Occupied { .. }));
    assert!(err.to_string().contains("h8"), "{err}");

    let err = game.play_str("z9").unwrap_err();
    assert!(err.to_string().contains("z9"), "{err}");
    let err = game.play_str("a9").unwrap_err();
    assert!(err.to_string().contains("a9"), "{err}");

    let err = game.play_str("swap").unwrap_err();
    assert_eq!(err, RulesError::SwapDisabled);

    assert_eq!(
        before,
        (game.moves().to_vec(), game.to_move(), game.stones())
    );
}

#[test]
fn swap_rules() {
    let mut game = GameState::new(5, Rules { pie: true }).unwrap();
    assert!(matches!(
        game.play(Move::Swap),
        Err(RulesError::SwapNotSecond { ply: 1 })
    ));
    game.play_str("c3").unwrap();
    assert_eq!(game.to_move(), Colour::Black);
    game.play_str("SWAP").unwrap();
    // The stone stays White and Black moves next.
    let c3 = game.board().parse_cell("c3").unwrap();
    assert_eq!(game.stone(c3), Some(Colour::White));
    assert_eq!(game.to_move(), Colour::Black);
    game.play_str("d4").unwrap();
    assert_eq!(game.to_move(), Colour::White);
    assert!(matches!(
        game.play(Move::Swap),
        Err(RulesError::SwapNotSecond { ply: 4 })
    ));
}

#[test]
fn moves_after_the_end_are_refused() {
    let (mut game, kinds) = setup(8, &["i8", "i9", "h9", "g8", "g7", "h7"], FILL8);
    assert_eq!(kinds, Kinds::RING);
    let n = game.moves().len();
    let err = game.play_str("a1").unwrap_err();
    assert!(matches!(err, RulesError::GameOver { .. }));
    assert!(err.to_string().contains("a1"), "{err}");
    assert_eq!(game.moves().len(), n);
}

#[test]
fn undo_restores_the_previous_state() {
    let (mut game, kinds) = setup(8, &["i8", "i9", "h9", "g8", "g7", "h7"], FILL8);
    assert_eq!(kinds, Kinds::RING);
    let undone = game.undo().unwrap();
    assert_eq!(undone, Move::Cell(game.board().parse_cell("h7").unwrap()));
    assert_eq!(game.outcome(), &Outcome::Ongoing);
    assert_eq!(game.to_move(), Colour::White);
    // Playing it again wins again.
    assert_eq!(game.play(undone).unwrap(), Kinds::RING);

    let mut empty = GameState::new(3, Rules::default()).unwrap();
    assert_eq!(empty.undo(), Err(RulesError::NothingToUndo));
}

#[test]
fn full_board_without_figure_is_a_draw() {
    // The first draw record of the size-3 fixtures, replayed.
    let record = havannah_rules::Record::parse_line(
        "3 draw - b2 d4 d2 e3 c2 a2 c4 a1 c5 d5 e5 c1 a3 d3 c3 b4 b1 b3 e4",
        1,
    )
    .unwrap();
    let game = record.replay().unwrap();
    assert_eq!(game.outcome(), &Outcome::Draw);
    assert_eq!(game.moves().len(), Board::new(3).unwrap().num_cells());
}

#[test]
fn cells_of_a_larger_board_are_refused() {
    let big = Board::new(8).unwrap();
    let mut game = GameState::new(3, Rules::default()).unwrap();
    let err = game
        .play(Move::Cell(big.parse_cell("o15").unwrap()))
        .unwrap_err();
    assert!(matches!(err, RulesError::CellOffBoard { .. }), "{err}");
}
