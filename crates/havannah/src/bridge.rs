//! Two-bridges around a stone, shared by the prior and the playouts.

use connection_kit::bridge::Ring;
use havannah_board::Cell;
use havannah_rules::{Colour, Position};

/// The directions (bits 0 to 5, in [`Board::neighbours6`] order) of the empty neighbours of
/// `intruder` where a stone of `me` saves a two-bridge that the stone on `intruder` entered:
/// connection-kit's rule ([`Ring::saves`]), every edge counting as `me`'s (a bridge to an edge
/// keeps a fork's or a bridge's side).
///
/// [`Board::neighbours6`]: havannah_board::Board::neighbours6
#[inline]
#[must_use]
pub(crate) fn bridge_saves(pos: &Position, intruder: Cell, me: Colour) -> u8 {
    let edges = pos.board().off_board(intruder);
    let mine = pos.neighbour_set(intruder, Some(me));
    let empty = pos.neighbour_set(intruder, None);
    Ring { mine, edges, empty }.saves()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prior::tests::game;
    use havannah_rules::GameState;

    /// The cells of a direction set around `around`.
    fn cells(g: &GameState, around: &str, dirs: u8) -> Vec<String> {
        let b = g.board();
        let nbs = b.neighbours6(b.parse_cell(around).unwrap());
        (0..6)
            .filter(|d| dirs & (1 << d) != 0)
            .map(|d| b.cell_name(nbs[d]).to_string())
            .collect()
    }

    #[test]
    fn the_carrier_cell_left_saves_the_bridge() {
        // White h8 and i10 form a bridge through i9 and h9; Black intrudes at i9.
        let g = game(&["h8", "a1", "i10", "i9"]);
        let i9 = g.board().parse_cell("i9").unwrap();
        let saves = bridge_saves(g.position(), i9, Colour::White);
        assert_eq!(cells(&g, "i9", saves), ["h9"]);
        // Black has no bridge around White's stones.
        let h8 = g.board().parse_cell("h8").unwrap();
        assert_eq!(bridge_saves(g.position(), h8, Colour::Black), 0);
    }

    #[test]
    fn a_bridge_to_the_edge_counts_but_no_stone_no_bridge() {
        // White b3 reaches the left side through a2 and a3; Black intrudes at a3.
        let g = game(&["b3", "a3"]);
        let a3 = g.board().parse_cell("a3").unwrap();
        let saves = bridge_saves(g.position(), a3, Colour::White);
        assert_eq!(cells(&g, "a3", saves), ["a2"]);
        // Around a lone Black stone in the middle there is nothing to save for Black.
        let g = game(&["h8", "d4"]);
        let d4 = g.board().parse_cell("d4").unwrap();
        assert_eq!(bridge_saves(g.position(), d4, Colour::White), 0);
    }
}
