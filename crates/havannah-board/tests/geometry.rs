//! Cell counts, neighbours, corners, sides and edge masks for every size.

mod common;

use std::collections::{BTreeSet, VecDeque};

use common::{bfs_distances, on_board, rule_neighbours};
use havannah_board::{Board, CellKind, CellSet, DIRECTIONS, MAX_SIZE, MIN_SIZE};

fn boards() -> impl Iterator<Item = &'static Board> {
    (MIN_SIZE..=MAX_SIZE).map(|s| Board::new(s).expect("supported size"))
}

#[test]
fn cell_counts_and_degrees() {
    for b in boards() {
        let s = usize::from(b.size());
        assert_eq!(b.num_cells(), 3 * s * (s - 1) + 1, "size {s}");
        let by_degree = |d: usize| b.cells().filter(|&c| b.neighbours(c).len() == d).count();
        assert_eq!(by_degree(3), 6, "size {s}");
        assert_eq!(by_degree(4), 6 * (s - 2), "size {s}");
        assert_eq!(by_degree(6), b.num_cells() - 6 - 6 * (s - 2), "size {s}");
        for c in b.cells() {
            let expect = match b.kind(c) {
                CellKind::Corner(_) => 3,
                CellKind::Side(_) => 4,
                CellKind::Inner => 6,
            };
            assert_eq!(b.neighbours(c).len(), expect, "size {s}");
        }
    }
}

#[test]
fn cells_are_exactly_the_coordinates_of_the_definition() {
    for b in boards() {
        let s = i32::from(b.size());
        let mut count = 0;
        for y in 0..=255u8 {
            for x in 0..=255u8 {
                let expect = on_board(s, i32::from(x), i32::from(y));
                assert_eq!(b.cell(x, y).is_some(), expect, "size {s} ({x}, {y})");
                assert_eq!(b.try_cell(x, y).is_ok(), expect);
                count += usize::from(expect);
            }
        }
        assert_eq!(count, b.num_cells());
        let indices: Vec<usize> = b.cells().map(|c| c.index()).collect();
        assert_eq!(indices, (0..b.num_cells()).collect::<Vec<_>>());
    }
}

#[test]
fn neighbours_follow_the_design_rule_and_are_symmetric() {
    for b in boards() {
        let s = i32::from(b.size());
        for c in b.cells() {
            let (x, y) = b.xy(c);
            let got: BTreeSet<(i32, i32)> = b
                .neighbours(c)
                .iter()
                .map(|&n| {
                    let (nx, ny) = b.xy(n);
                    (i32::from(nx), i32::from(ny))
                })
                .collect();
            let want: BTreeSet<(i32, i32)> = rule_neighbours(s, i32::from(x), i32::from(y))
                .into_iter()
                .collect();
            assert_eq!(got, want, "size {s} cell ({x}, {y})");
            assert_eq!(got.len(), b.neighbours(c).len(), "no duplicates");
            for &n in b.neighbours(c) {
                assert_ne!(n, c, "irreflexive");
                assert!(b.neighbours(n).contains(&c), "symmetric");
                assert_eq!(b.distance(c, n), 1);
            }
        }
    }
}

#[test]
fn padded_neighbours_use_the_sentinel() {
    for b in boards() {
        let sentinel = b.sentinel();
        assert_eq!(sentinel.index(), b.num_cells());
        assert!(!b.contains(sentinel));
        for c in b.cells() {
            let row = b.neighbours6(c);
            let real: Vec<_> = row.iter().copied().filter(|&n| n != sentinel).collect();
            assert_eq!(real, b.neighbours(c), "same cells, same order");
            let (x, y) = b.xy(c);
            for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                let (nx, ny) = (i32::from(x) + i32::from(dx), i32::from(y) + i32::from(dy));
                if on_board(i32::from(b.size()), nx, ny) {
                    assert_eq!(b.xy(row[d]), (nx as u8, ny as u8));
                } else {
                    assert_eq!(row[d], sentinel);
                }
            }
        }
        assert!(b.neighbours6(sentinel).iter().all(|&n| n == sentinel));
        assert_eq!(b.edge_mask(sentinel), 0);
    }
}

#[test]
fn side_cells_form_six_groups_one_per_side() {
    for b in boards().filter(|b| b.size() >= 3) {
        let s = usize::from(b.size());
        // Side cells found from the degree, independently of `kind`.
        let side: CellSet = b.cells().filter(|&c| b.neighbours(c).len() == 4).collect();
        let mut seen = CellSet::new();
        let mut groups = Vec::new();
        for start in side.iter() {
            if seen.contains(start) {
                continue;
            }
            let mut group = CellSet::new();
            let mut queue = VecDeque::from([start]);
            seen.insert(start);
            while let Some(c) = queue.pop_front() {
                group.insert(c);
                for &n in b.neighbours(c) {
                    if side.contains(n) && seen.insert(n) {
                        queue.push_back(n);
                    }
                }
            }
            groups.push(group);
        }
        assert_eq!(groups.len(), 6, "size {s}");
        let mut sides_seen = BTreeSet::new();
        for group in &groups {
            assert_eq!(group.len(), s - 2, "size {s}");
            let kinds: BTreeSet<CellKind> = group.iter().map(|c| b.kind(c)).collect();
            assert_eq!(kinds.len(), 1, "one side per group, size {s}");
            let kind = *kinds.iter().next().unwrap();
            assert!(matches!(kind, CellKind::Side(i) if i < 6), "{kind:?}");
            sides_seen.insert(kind);
            // Every cell of Side(i) is in this group.
            let all_of_side = b.cells().filter(|&c| b.kind(c) == kind).count();
            assert_eq!(all_of_side, group.len());
        }
        assert_eq!(sides_seen.len(), 6);
    }
}

#[test]
fn sides_lie_between_their_corners() {
    for b in boards().filter(|b| b.size() >= 3) {
        let corners = b.corners();
        for c in b.cells() {
            if let CellKind::Side(i) = b.kind(c) {
                let (a, z) = (corners[usize::from(i)], corners[(usize::from(i) + 1) % 6]);
                let span = b.distance(a, z);
                assert_eq!(span, b.size() - 1);
                assert_eq!(
                    b.distance(a, c) + b.distance(c, z),
                    span,
                    "on the straight line"
                );
            }
        }
    }
}

#[test]
fn corners_kinds_and_edge_masks() {
    for b in boards() {
        let s = b.size();
        let (h, m) = (s - 1, 2 * s - 2);
        let want = [(0, 0), (h, 0), (m, h), (m, m), (h, m), (0, h)];
        let corners = b.corners();
        for i in 0..6 {
            assert_eq!(b.xy(corners[i]), want[i], "size {s} corner {i}");
            assert_eq!(b.kind(corners[i]), CellKind::Corner(i as u8));
            assert_eq!(b.neighbours(corners[i]).len(), 3);
        }
        assert_eq!(b.xy(b.centre()), (h, h));
        for c in b.cells() {
            let mask = b.edge_mask(c);
            assert!(mask < 1 << 12);
            assert!(mask.count_ones() <= 1);
            match b.kind(c) {
                CellKind::Corner(i) => assert_eq!(mask, 1 << i),
                CellKind::Side(i) => assert_eq!(mask, 1 << (6 + i)),
                CellKind::Inner => assert_eq!(mask, 0),
            }
            assert_eq!(b.kind(c).edge_mask(), mask);
        }
        // Corners are never side cells: the six corner bits and six side bits are all used.
        let all = b.cells().fold(0u16, |acc, c| acc | b.edge_mask(c));
        let expect = if s == 2 { 0b11_1111 } else { 0xfff };
        assert_eq!(all, expect);
    }
}

#[test]
fn size_8_by_hand() {
    let b = Board::new(8).unwrap();
    let name = |c| b.cell_name(c).to_string();
    let corner_names: Vec<String> = b.corners().into_iter().map(name).collect();
    assert_eq!(corner_names, ["a1", "h1", "o8", "o15", "h15", "a8"]);
    assert_eq!(name(b.centre()), "h8");
    assert_eq!(b.cell(7, 7), Some(b.centre()));
    // Neighbours written out by hand from (x±1, y), (x, y±1), (x-1, y-1), (x+1, y+1).
    let cases: [(&str, &[&str]); 9] = [
        ("h8", &["g8", "i8", "h7", "h9", "g7", "i9"]),
        ("a1", &["b1", "a2", "b2"]),
        ("h1", &["g1", "h2", "i2"]),
        ("o8", &["n7", "n8", "o9"]),
        ("o15", &["n15", "o14", "n14"]),
        ("a8", &["a7", "b8", "b9"]),
        ("d1", &["c1", "e1", "d2", "e2"]),
        ("a5", &["a4", "a6", "b5", "b6"]),
        ("l5", &["k4", "k5", "l6", "m6"]),
    ];
    for (cell, want) in cases {
        let c = b.parse_cell(cell).unwrap();
        let got: BTreeSet<String> = b.neighbours(c).iter().map(|&n| name(n)).collect();
        let want: BTreeSet<String> = want.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, want, "neighbours of {cell}");
    }
    assert_eq!(b.kind(b.parse_cell("d1").unwrap()), CellKind::Side(0));
    assert_eq!(b.kind(b.parse_cell("l5").unwrap()), CellKind::Side(1));
    assert_eq!(b.kind(b.parse_cell("o10").unwrap()), CellKind::Side(2));
    assert_eq!(b.kind(b.parse_cell("k15").unwrap()), CellKind::Side(3));
    assert_eq!(b.kind(b.parse_cell("d11").unwrap()), CellKind::Side(4));
    assert_eq!(b.kind(b.parse_cell("a5").unwrap()), CellKind::Side(5));
    assert_eq!(b.kind(b.parse_cell("b2").unwrap()), CellKind::Inner);
    assert_eq!(b.axial(b.parse_cell("a1").unwrap()), (0, -7));
    assert_eq!(b.cube(b.parse_cell("o8").unwrap()), (7, 0, -7));
    assert_eq!(b.from_axial(-7, 0), b.parse_cell("a8").ok());
}

#[test]
fn distance_matches_bfs_on_small_boards() {
    for size in 2..=5 {
        let b = Board::new(size).unwrap();
        for a in b.cells() {
            let dist = bfs_distances(b, a);
            for c in b.cells() {
                assert_eq!(u32::from(b.distance(a, c)), dist[c.index()]);
            }
        }
    }
}

#[test]
fn boards_are_shared() {
    for b in boards() {
        let again = Board::new(b.size()).unwrap();
        assert!(std::ptr::eq(b, again));
        assert_eq!(b, again);
    }
}
