//! Functions shared by the integration tests, written from the geometry's definition rather than
//! from the crate's tables: a cell `(x, y)` of a board of size `s` has `0 <= x, y <= 2s - 2`
//! and `|x - y| <= s - 1`, and its neighbours are `(x±1, y)`, `(x, y±1)`, `(x-1, y-1)` and
//! `(x+1, y+1)` where they are on the board.

use std::collections::VecDeque;

use havannah_board::{Board, Cell};

/// Whether `(x, y)` is on a board of size `s`, straight from the definition.
pub fn on_board(s: i32, x: i32, y: i32) -> bool {
    let m = 2 * s - 2;
    (0..=m).contains(&x) && (0..=m).contains(&y) && (x - y).abs() < s
}

/// The neighbours of `(x, y)` by the neighbour rule above, as coordinates.
pub fn rule_neighbours(s: i32, x: i32, y: i32) -> Vec<(i32, i32)> {
    [
        (x - 1, y),
        (x + 1, y),
        (x, y - 1),
        (x, y + 1),
        (x - 1, y - 1),
        (x + 1, y + 1),
    ]
    .into_iter()
    .filter(|&(a, b)| on_board(s, a, b))
    .collect()
}

/// Breadth-first distances from `from` over the neighbour rule above (using the board only
/// to translate between cells and coordinates).
#[allow(dead_code)]
pub fn bfs_distances(board: &Board, from: Cell) -> Vec<u32> {
    let s = i32::from(board.size());
    let mut dist = vec![u32::MAX; board.num_cells()];
    let mut queue = VecDeque::new();
    dist[from.index()] = 0;
    queue.push_back(from);
    while let Some(c) = queue.pop_front() {
        let (x, y) = board.xy(c);
        for (nx, ny) in rule_neighbours(s, i32::from(x), i32::from(y)) {
            let n = board
                .cell(nx as u8, ny as u8)
                .expect("rule neighbours are on the board");
            if dist[n.index()] == u32::MAX {
                dist[n.index()] = dist[c.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}
