//! The twelve symmetries: bijections that preserve adjacency, kinds and distances.

use std::collections::BTreeSet;

use havannah_board::{Board, Cell, CellKind, MAX_SIZE, MIN_SIZE};

fn class(k: CellKind) -> u8 {
    match k {
        CellKind::Corner(_) => 0,
        CellKind::Side(_) => 1,
        CellKind::Inner => 2,
    }
}

#[test]
fn each_symmetry_is_an_automorphism() {
    for size in MIN_SIZE..=MAX_SIZE {
        let b = Board::new(size).unwrap();
        assert_eq!(b.symmetries().len(), 12);
        for (i, sym) in b.symmetries().iter().enumerate() {
            assert_eq!(sym.index(), i);
            let perm = sym.as_slice();
            assert_eq!(perm.len(), b.num_cells());
            let image: BTreeSet<Cell> = perm.iter().copied().collect();
            assert_eq!(image.len(), b.num_cells(), "bijection, size {size} sym {i}");
            assert!(image.iter().all(|&c| b.contains(c)));
            for c in b.cells() {
                let d = sym.apply(c);
                assert_eq!(perm[c.index()], d);
                assert_eq!(class(b.kind(c)), class(b.kind(d)));
                assert_eq!(b.distance(c, b.centre()), b.distance(d, b.centre()));
                for &n in b.neighbours(c) {
                    assert!(
                        b.adjacent(d, sym.apply(n)),
                        "adjacency, size {size} sym {i}"
                    );
                }
            }
            // Corners go to corners as a whole.
            let corners: BTreeSet<Cell> = b.corners().into_iter().collect();
            let moved: BTreeSet<Cell> = b.corners().into_iter().map(|c| sym.apply(c)).collect();
            assert_eq!(corners, moved);
            assert_eq!(sym.apply(b.centre()), b.centre());
        }
        assert!(
            b.cells().all(|c| b.symmetries()[0].apply(c) == c),
            "identity"
        );
    }
}

#[test]
fn symmetries_are_distinct_and_closed_under_composition() {
    for size in 3..=MAX_SIZE {
        let b = Board::new(size).unwrap();
        let syms = b.symmetries();
        let perms: BTreeSet<Vec<Cell>> = syms.iter().map(|s| s.as_slice().to_vec()).collect();
        assert_eq!(perms.len(), 12, "pairwise distinct, size {size}");
        for f in syms {
            for g in syms {
                let composed: Vec<Cell> = b.cells().map(|c| f.apply(g.apply(c))).collect();
                assert!(perms.contains(&composed), "closed, size {size}");
            }
        }
    }
}

#[test]
fn reflections_are_involutions_and_rotations_have_order_six() {
    let b = Board::new(6).unwrap();
    for sym in b.symmetries() {
        let twice: Vec<Cell> = b.cells().map(|c| sym.apply(sym.apply(c))).collect();
        let is_id = twice.iter().zip(b.cells()).all(|(&a, c)| a == c);
        let expect = sym.is_reflection() || sym.rotation() == 0 || sym.rotation() == 3;
        assert_eq!(is_id, expect, "{sym:?}");
    }
    let rot = b.symmetry(1, false);
    let a1 = b.corners()[0];
    let mut c = a1;
    let mut orbit = Vec::new();
    for _ in 0..6 {
        orbit.push(c);
        c = rot.apply(c);
    }
    assert_eq!(c, a1);
    assert_eq!(orbit, b.corners());
}

#[test]
fn symmetries_preserve_all_distances_on_size_4() {
    let b = Board::new(4).unwrap();
    for sym in b.symmetries() {
        for x in b.cells() {
            for y in b.cells() {
                assert_eq!(b.distance(x, y), b.distance(sym.apply(x), sym.apply(y)));
            }
        }
    }
}
