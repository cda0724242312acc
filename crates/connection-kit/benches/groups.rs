//! The union-find of a game: a board filled stone by stone in a fixed random order, each stone
//! joined to its earlier neighbours (a hex grid's six) and to the edges of its row.

use connection_kit::Groups;
use criterion::{Criterion, criterion_group, criterion_main};

/// Cells of an `n` x `n` rhombus in a fixed pseudo-random order.
fn order(n: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..n * n).collect();
    let mut z = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..cells.len()).rev() {
        z ^= z << 13;
        z ^= z >> 7;
        z ^= z << 17;
        cells.swap(i, (z % (i as u64 + 1)) as usize);
    }
    cells
}

fn fill(c: &mut Criterion) {
    let n = 11;
    let cells = order(n);
    let neighbours = |cell: usize| {
        let (x, y) = ((cell % n) as isize, (cell / n) as isize);
        [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
            .into_iter()
            .map(move |(dx, dy)| (x + dx, y + dy))
            .filter(move |&(a, b)| a >= 0 && b >= 0 && a < n as isize && b < n as isize)
            .map(move |(a, b)| b as usize * n + a as usize)
    };
    c.bench_function("fill 11x11 (Vec<u16>)", |b| {
        let mut groups = Groups::new(vec![0u16; n * n], vec![0u32; n * n]);
        let mut placed = vec![false; n * n];
        b.iter(|| {
            groups.reset();
            placed.fill(false);
            let mut joined = 0;
            for &cell in &cells {
                placed[cell] = true;
                let row = cell / n;
                groups.place(cell, u32::from(row == 0) | (u32::from(row == n - 1) << 1));
                for nb in neighbours(cell).filter(|&nb| placed[nb]) {
                    groups.union(cell, nb);
                }
                joined += usize::from(groups.edges(cell) == 0b11);
            }
            joined
        });
    });
}

criterion_group!(benches, fill);
criterion_main!(benches);
