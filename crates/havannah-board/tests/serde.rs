//! Serde round trips (only with `--features serde`).
#![cfg(feature = "serde")]

use havannah_board::{Board, Cell, CellKind, CellSet};

#[test]
fn cell_is_a_plain_number() {
    let c = Cell::from_index(42);
    assert_eq!(serde_json::to_string(&c).unwrap(), "42");
    assert_eq!(serde_json::from_str::<Cell>("42").unwrap(), c);
}

#[test]
fn cell_kind_round_trips() {
    for k in [CellKind::Corner(3), CellKind::Side(5), CellKind::Inner] {
        let json = serde_json::to_string(&k).unwrap();
        assert_eq!(serde_json::from_str::<CellKind>(&json).unwrap(), k);
    }
}

#[test]
fn cell_set_is_a_sorted_index_list() {
    let b = Board::new(8).unwrap();
    let set: CellSet = [b.centre(), b.corners()[0], b.corners()[3]]
        .into_iter()
        .collect();
    let json = serde_json::to_string(&set).unwrap();
    assert_eq!(json, "[0,84,168]");
    assert_eq!(serde_json::from_str::<CellSet>(&json).unwrap(), set);
    assert_eq!(serde_json::from_str::<CellSet>("[5,5,1]").unwrap().len(), 2);
    let err = serde_json::from_str::<CellSet>("[600]").unwrap_err();
    assert!(err.to_string().contains("600"), "{err}");
}
