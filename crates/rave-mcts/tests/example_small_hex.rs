//! The worked example `examples/small_hex` plays whole games: each ends with exactly one winner,
//! whose stones join its two edges, at the move that joined them.

#[path = "../examples/small_hex/main.rs"]
#[allow(dead_code)]
mod example;

use rave_mcts::Game;

/// Whether the stones of `player` (stored as `player + 1` in `cells`, row by row on an
/// `n x n` board) join its two edges: top and bottom for player 0, left and right for
/// player 1. A flood fill from the first edge, independent of the game's union-find.
fn connects(cells: &[u8], n: usize, player: usize) -> bool {
    let stone = player as u8 + 1;
    let cell = |i: usize, j: usize| if player == 0 { i * n + j } else { j * n + i };
    let mut seen = vec![false; n * n];
    let mut stack: Vec<usize> = (0..n)
        .map(|j| cell(0, j))
        .filter(|&c| cells[c] == stone)
        .collect();
    for &c in &stack {
        seen[c] = true;
    }
    while let Some(c) = stack.pop() {
        let (r, col) = (c / n, c % n);
        let far = if player == 0 { r } else { col };
        if far == n - 1 {
            return true;
        }
        for (dr, dc) in [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] {
            let (rr, cc) = (r as isize + dr, col as isize + dc);
            if rr < 0 || cc < 0 || rr as usize >= n || cc as usize >= n {
                continue;
            }
            let other = rr as usize * n + cc as usize;
            if cells[other] == stone && !seen[other] {
                seen[other] = true;
                stack.push(other);
            }
        }
    }
    false
}

#[test]
fn flood_fill_reads_a_connection() {
    // 3x3: X holds column b, top to bottom; O holds a2 only.
    let cells = [0, 1, 0, 2, 1, 0, 0, 1, 0];
    assert!(connects(&cells, 3, 0));
    assert!(!connects(&cells, 3, 1));
    // O across the middle row.
    let cells = [1, 1, 0, 2, 2, 2, 1, 0, 0];
    assert!(connects(&cells, 3, 1));
    assert!(!connects(&cells, 3, 0));
}

#[test]
fn a_game_of_the_example_ends_with_one_edge_to_edge_connection() {
    for (size, simulations, seed) in [(5, 100, 1), (5, 100, 2), (7, 300, 3)] {
        let (end, moves) = example::play_game(size, simulations, seed, false);
        let n = size;
        let cells = &end.cells[..n * n];
        let winner = end.winner().expect("the game ended with a winner");
        assert_eq!(end.result().and_then(|o| o.winner()), Some(winner));
        assert!(connects(cells, n, winner), "seed {seed}:\n{end}");
        assert!(!connects(cells, n, 1 - winner), "seed {seed}:\n{end}");

        // The players alternated on distinct empty cells, and every stone is a move played.
        assert_eq!(usize::from(end.ply), moves.len());
        assert_eq!(cells.iter().filter(|&&c| c != 0).count(), moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            assert_eq!(cells[usize::from(mv)], (i % 2) as u8 + 1, "move {i}");
        }

        // The winner moved last, and that move made the connection.
        let last = usize::from(*moves.last().expect("moves were played"));
        assert_eq!((moves.len() - 1) % 2, winner);
        let mut before = cells.to_vec();
        before[last] = 0;
        assert!(!connects(&before, n, winner), "seed {seed}:\n{end}");
    }
}

#[test]
fn a_game_of_the_example_is_the_same_for_the_same_seed() {
    let (first, moves) = example::play_game(5, 100, 7, false);
    let (again, moves_again) = example::play_game(5, 100, 7, false);
    assert_eq!(moves, moves_again);
    assert_eq!(first, again);
}
