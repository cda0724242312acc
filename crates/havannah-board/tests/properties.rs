//! Property tests: distances, parsing of arbitrary text, symmetries and cell-set algebra.

mod common;

use std::collections::BTreeSet;

use common::bfs_distances;
use havannah_board::{Board, BoardError, Cell, CellSet, MAX_SIZE, MIN_SIZE};
use proptest::prelude::*;

/// A board size and two cell indices on it.
fn size_and_two_cells() -> impl Strategy<Value = (u8, usize, usize)> {
    (MIN_SIZE..=MAX_SIZE).prop_flat_map(|s| {
        let n = 3 * usize::from(s) * (usize::from(s) - 1) + 1;
        (Just(s), 0..n, 0..n)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn distance_is_bfs_distance((size, a, b) in size_and_two_cells()) {
        let board = Board::new(size).unwrap();
        let (a, b) = (Cell::from_index(a), Cell::from_index(b));
        let dist = bfs_distances(board, a);
        prop_assert_eq!(u32::from(board.distance(a, b)), dist[b.index()]);
        prop_assert_eq!(board.distance(a, b), board.distance(b, a));
    }

    #[test]
    fn symmetries_preserve_distance((size, a, b) in size_and_two_cells(), k in 0usize..12) {
        let board = Board::new(size).unwrap();
        let (a, b) = (Cell::from_index(a), Cell::from_index(b));
        let sym = &board.symmetries()[k];
        prop_assert_eq!(board.distance(a, b), board.distance(sym.apply(a), sym.apply(b)));
    }

    #[test]
    fn parsing_any_text_never_panics(size in MIN_SIZE..=MAX_SIZE, text in any::<String>()) {
        let board = Board::new(size).unwrap();
        match board.parse_cell(&text) {
            Ok(c) => prop_assert_eq!(board.cell_name(c).to_string(), text.to_ascii_lowercase()),
            Err(BoardError::BadCellText { size: s, .. }) => prop_assert_eq!(s, size),
            Err(other) => prop_assert!(false, "unexpected error {other:?}"),
        }
    }

    #[test]
    fn parsing_cell_like_text(
        size in MIN_SIZE..=MAX_SIZE,
        text in "[a-zA-Z0-9]{0,2}[0-9]{0,3}",
    ) {
        let board = Board::new(size).unwrap();
        let result = board.parse_cell(&text);
        // Decide from the definition whether the text names a cell.
        let bytes = text.as_bytes();
        let expect = if bytes.len() >= 2
            && bytes[0].is_ascii_alphabetic()
            && bytes[1..].iter().all(u8::is_ascii_digit)
            && bytes[1] != b'0'
        {
            let x = i64::from(bytes[0].to_ascii_lowercase() - b'a');
            let y = text[1..].parse::<i64>().unwrap() - 1;
            let s = i64::from(size);
            let m = 2 * s - 2;
            (0..=m).contains(&x) && (0..=m).contains(&y) && (x - y).abs() < s
        } else {
            false
        };
        prop_assert_eq!(result.is_ok(), expect, "{:?} -> {:?}", text, result);
        if let Err(err) = result {
            let quoted = format!("\"{text}\"");
            prop_assert!(err.to_string().contains(&quoted));
        }
    }

    #[test]
    fn cell_set_agrees_with_a_btree_set(
        a in proptest::collection::vec(0usize..CellSet::CAPACITY, 0..80),
        b in proptest::collection::vec(0usize..CellSet::CAPACITY, 0..80),
        removed in proptest::collection::vec(0usize..CellSet::CAPACITY, 0..20),
    ) {
        let model_a: BTreeSet<usize> = a.iter().copied().collect();
        let model_b: BTreeSet<usize> = b.iter().copied().collect();
        let set_a: CellSet = a.iter().map(|&i| Cell::from_index(i)).collect();
        let set_b: CellSet = b.iter().map(|&i| Cell::from_index(i)).collect();
        let indices = |s: CellSet| s.iter().map(Cell::index).collect::<Vec<_>>();

        prop_assert_eq!(set_a.len(), model_a.len());
        prop_assert_eq!(set_a.is_empty(), model_a.is_empty());
        prop_assert_eq!(indices(set_a), model_a.iter().copied().collect::<Vec<_>>());
        prop_assert_eq!(indices(set_a | set_b), model_a.union(&model_b).copied().collect::<Vec<_>>());
        prop_assert_eq!(
            indices(set_a & set_b),
            model_a.intersection(&model_b).copied().collect::<Vec<_>>()
        );
        prop_assert_eq!(
            indices(set_a - set_b),
            model_a.difference(&model_b).copied().collect::<Vec<_>>()
        );
        prop_assert_eq!(
            indices(set_a ^ set_b),
            model_a.symmetric_difference(&model_b).copied().collect::<Vec<_>>()
        );
        prop_assert_eq!(set_a.is_subset(&set_b), model_a.is_subset(&model_b));
        prop_assert_eq!(set_a.is_disjoint(&set_b), model_a.is_disjoint(&model_b));
        for i in 0..CellSet::CAPACITY {
            prop_assert_eq!(set_a.contains(Cell::from_index(i)), model_a.contains(&i));
        }

        let mut set = set_a;
        let mut model = model_a.clone();
        for &r in &removed {
            prop_assert_eq!(set.remove(Cell::from_index(r)), model.remove(&r));
        }
        prop_assert_eq!(indices(set), model.into_iter().collect::<Vec<_>>());
    }
}
