//! The shape around a cell: its twelve nearest cells as a code, and the code's twelve
//! symmetric images.

use havannah_board::{Board, Cell};
use havannah_rules::Position;

/// The number of cells a shape covers: the six neighbours and the six bridge cells.
pub const SHAPE_CELLS: usize = 12;

/// The largest shape code plus one (two bits a cell).
pub const SHAPE_CODES: u32 = 1 << (2 * SHAPE_CELLS);

/// A cell of a shape is empty.
pub const EMPTY: u32 = 0;
/// A cell of a shape holds a stone of the player to move.
pub const OWN: u32 = 1;
/// A cell of a shape holds a stone of the opponent.
pub const OPPONENT: u32 = 2;
/// A cell of a shape is off the board.
pub const OFF_BOARD: u32 = 3;

/// The shape of `cell` for the player to move in `pos`: two bits a cell ([`EMPTY`], [`OWN`],
/// [`OPPONENT`], [`OFF_BOARD`]), slot `d` (bits `2d`, `2d + 1`) for the neighbour in
/// direction `d` of [`Board::neighbours6`] and slot `6 + d` for the bridge cell beyond the
/// neighbours in directions `d` and `d + 1`.
#[must_use]
pub fn shape(pos: &Position, cell: Cell) -> u32 {
    let board = pos.board();
    let n = board.num_cells();
    let me = pos.to_move();
    let state = |c: Cell| -> u32 {
        if c.index() >= n {
            OFF_BOARD
        } else {
            match pos.stone(c) {
                None => EMPTY,
                Some(s) if s == me => OWN,
                Some(_) => OPPONENT,
            }
        }
    };
    let nbs = board.neighbours6(cell);
    let mut code = 0;
    for d in 0..6 {
        code |= state(nbs[d]) << (2 * d);
        code |= state(bridge_cell(board, nbs, d)) << (2 * (6 + d));
    }
    code
}

/// The cell two steps from the centre of `nbs`, beyond its neighbours in directions `d` and
/// `d + 1` (the sentinel when off the board).
fn bridge_cell(board: &Board, nbs: &[Cell; 6], d: usize) -> Cell {
    let n = board.num_cells();
    let (a, b) = (nbs[d], nbs[(d + 1) % 6]);
    if a.index() < n {
        board.neighbours6(a)[(d + 1) % 6]
    } else if b.index() < n {
        board.neighbours6(b)[d]
    } else {
        board.sentinel()
    }
}

/// Where each slot of a shape goes under each of the twelve symmetries of the hexagonal grid
/// around a cell (six rotations, each with and without a reflection).
const fn slot_maps() -> [[u8; SHAPE_CELLS]; 12] {
    let mut maps = [[0u8; SHAPE_CELLS]; 12];
    let mut s = 0;
    while s < 12 {
        let (rotation, reflect) = (s % 6, s >= 6);
        let mut d = 0;
        while d < 6 {
            // A reflection maps direction d to -d, and the bridge cell between d and d + 1 to
            // the one between -d - 1 and -d.
            let (nb, br) = if reflect {
                ((6 - d) % 6, 5 - d)
            } else {
                (d, d)
            };
            maps[s][d] = ((nb + rotation) % 6) as u8;
            maps[s][6 + d] = (6 + (br + rotation) % 6) as u8;
            d += 1;
        }
        s += 1;
    }
    maps
}

const SLOT_MAPS: [[u8; SHAPE_CELLS]; 12] = slot_maps();

/// The image of a shape code under symmetry `s` (in `0..12`).
#[must_use]
pub fn transform(code: u32, s: usize) -> u32 {
    let map = &SLOT_MAPS[s % 12];
    (0..SHAPE_CELLS).fold(0, |acc, slot| {
        acc | (((code >> (2 * slot)) & 3) << (2 * u32::from(map[slot])))
    })
}

/// The twelve images of a shape code (with repeats for symmetric shapes).
#[must_use]
pub fn images(code: u32) -> [u32; 12] {
    std::array::from_fn(|s| transform(code, s))
}

/// The representative of a shape's class under the twelve symmetries: its smallest image.
#[must_use]
pub fn canonical(code: u32) -> u32 {
    images(code).into_iter().min().unwrap_or(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prior::tests::game;
    use havannah_board::Symmetry;

    fn at(moves: &[&str], cell: &str) -> u32 {
        let g = game(moves);
        shape(g.position(), g.board().parse_cell(cell).unwrap())
    }

    #[test]
    fn an_empty_inner_cell_and_a_corner() {
        assert_eq!(at(&[], "h8"), 0);
        // a1 is a corner: three neighbours and three or more bridge cells are off the board.
        let corner = at(&[], "a1");
        let off = (0..SHAPE_CELLS)
            .filter(|slot| (corner >> (2 * slot)) & 3 == OFF_BOARD)
            .count();
        assert_eq!((0..6).filter(|d| (corner >> (2 * d)) & 3 == 3).count(), 3);
        assert!(off >= 6, "{corner:06x}");
    }

    #[test]
    fn stones_are_seen_from_the_player_to_move() {
        // White h8, Black g7: White to move sees h8 as own at i8's neighbour.
        let white = at(&["h8", "a1"], "i8");
        let black = at(&["h8"], "i8");
        let swapped = |code: u32| {
            (0..SHAPE_CELLS).fold(0, |acc, slot| {
                let s = (code >> (2 * slot)) & 3;
                let t = match s {
                    OWN => OPPONENT,
                    OPPONENT => OWN,
                    other => other,
                };
                acc | (t << (2 * slot))
            })
        };
        // a1 is far from i8: the two codes differ only in who owns h8.
        assert_eq!(swapped(white), black);
        assert_eq!((0..6).filter(|d| (white >> (2 * d)) & 3 == OWN).count(), 1);
    }

    #[test]
    fn the_bridge_cells_are_two_steps_away_and_not_adjacent() {
        let g = game(&[]);
        let b = g.board();
        for cell in b.cells() {
            let nbs = b.neighbours6(cell);
            for d in 0..6 {
                let far = bridge_cell(b, nbs, d);
                if far.index() < b.num_cells() {
                    assert_eq!(b.distance(cell, far), 2);
                    assert!(b.adjacent(far, nbs[d]) || nbs[d].index() >= b.num_cells());
                }
            }
        }
    }

    #[test]
    fn symmetric_positions_have_the_same_canonical_shapes() {
        // Each board symmetry maps every cell's shape to one of the twelve images.
        let moves = ["h8", "g7", "i10", "h9", "c3", "a1", "e5", "o15"];
        let g = game(&moves);
        let b = g.board();
        for sym in b.symmetries() {
            let mapped: Vec<String> = moves
                .iter()
                .map(|m| b.cell_name(sym.apply(b.parse_cell(m).unwrap())).to_string())
                .collect();
            let names: Vec<&str> = mapped.iter().map(String::as_str).collect();
            let h = game(&names);
            for cell in b.cells() {
                let a = shape(g.position(), cell);
                let image = shape(h.position(), Symmetry::apply(sym, cell));
                assert!(images(a).contains(&image), "{}", b.cell_name(cell));
                assert_eq!(canonical(a), canonical(image));
            }
        }
    }

    #[test]
    fn the_twelve_maps_form_a_group_of_twelve() {
        let code = 0b11_10_01_00_00_01_10_11_00_01_10_01;
        let mut all = images(code).to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(
            all.len(),
            12,
            "an asymmetric shape has twelve distinct images"
        );
        for s in 0..12 {
            assert_eq!(canonical(transform(code, s)), canonical(code));
        }
    }
}
