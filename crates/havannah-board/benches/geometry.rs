//! Small benches of the hot-path tables: a flood over the padded neighbour table against the
//! exact neighbour lists, cell-set iteration, and parsing.
//!
//! `cargo bench -p havannah-board --bench geometry -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use havannah_board::{Board, Cell, CellSet};

/// Sums, over every cell, the edge masks of its neighbours (a stand-in for "look at the six
/// neighbours" in a playout).
fn sum_padded(board: &Board, masks: &[u16]) -> u32 {
    let mut total = 0u32;
    for c in board.cells() {
        for &n in board.neighbours6(c) {
            total += u32::from(masks[n.index()]);
        }
    }
    total
}

fn sum_exact(board: &Board, masks: &[u16]) -> u32 {
    let mut total = 0u32;
    for c in board.cells() {
        for &n in board.neighbours(c) {
            total += u32::from(masks[n.index()]);
        }
    }
    total
}

fn benches(c: &mut Criterion) {
    let board = Board::new(10).expect("size 10 is supported");
    let masks: Vec<u16> = (0..=board.num_cells())
        .map(|i| board.edge_mask(Cell::from_index(i)))
        .collect();
    assert_eq!(sum_padded(board, &masks), sum_exact(board, &masks));

    c.bench_function("size10/all cells x neighbours6 (padded)", |b| {
        b.iter(|| sum_padded(black_box(board), black_box(&masks)))
    });
    c.bench_function("size10/all cells x neighbours (exact)", |b| {
        b.iter(|| sum_exact(black_box(board), black_box(&masks)))
    });

    let half: CellSet = board.cells().step_by(2).collect();
    c.bench_function("size10/CellSet iter (136 cells)", |b| {
        b.iter(|| black_box(&half).iter().map(Cell::index).sum::<usize>())
    });

    let names: Vec<String> = board
        .cells()
        .map(|c| board.cell_name(c).to_string())
        .collect();
    c.bench_function("size10/parse_cell all 271 names", |b| {
        b.iter(|| {
            names
                .iter()
                .map(|n| board.parse_cell(black_box(n)).map_or(0, Cell::index))
                .sum::<usize>()
        })
    });
    c.bench_function("Board::new (cached)", |b| {
        b.iter(|| Board::new(black_box(10)).map(Board::num_cells))
    });
}

criterion_group!(geometry, benches);
criterion_main!(geometry);
