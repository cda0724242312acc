//! Two-bridges: two stones of one player (or a stone and an edge that counts as the player's)
//! with two common empty neighbours, the *carrier*. An opponent's stone in one carrier cell
//! intrudes; the player keeps the two connected by taking the other. That reply is the
//! strongest single piece of knowledge in a connection game's playouts.
//!
//! The rule looks at the six neighbours of the intruding stone, in circular order: a
//! direction `d` saves a bridge when its cell is empty and the cells at `d - 1` and `d + 1`
//! are both held by the player (a stone, or an edge slot that counts as the player's), at
//! least one of them a stone. Each ring is a 6-bit mask, bit `d` for direction `d`; any
//! rotation of the ring works, as long as the game names the cells the same way.

/// The six neighbours of an intruding stone, as the player who might save a bridge sees them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ring {
    /// The directions holding the player's stones.
    pub mine: u8,
    /// The directions off the board that count as the player's: its own edges in Hex, every
    /// edge in Y and Havannah.
    pub edges: u8,
    /// The directions of empty cells on the board.
    pub empty: u8,
}

impl Ring {
    /// The directions whose empty cell saves a two-bridge that the stone in the middle
    /// entered: held on both sides around the ring, a stone on at least one.
    ///
    /// ```
    /// use connection_kit::bridge::Ring;
    ///
    /// // Stones of mine at directions 0 and 2, direction 1 empty: taking 1 saves the bridge.
    /// let ring = Ring { mine: 0b101, edges: 0, empty: 0b111010 };
    /// assert_eq!(ring.saves(), 0b10);
    /// // An edge slot at direction 5 and a stone at 1 hold direction 0 between them.
    /// let ring = Ring { mine: 0b10, edges: 0b100000, empty: 0b011101 };
    /// assert_eq!(ring.saves(), 0b1);
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn saves(self) -> u8 {
        // Bit d of `before(x)` is bit d - 1 of x, of `after(x)` bit d + 1 (cyclically).
        let before = |x: u8| ((x << 1) | (x >> 5)) & 63;
        let after = |x: u8| ((x >> 1) | (x << 5)) & 63;
        let held = self.mine | self.edges;
        self.empty & before(held) & after(held) & (before(self.mine) | after(self.mine))
    }
}

/// The `n`-th direction (counting from 0, lowest bit first) of a mask of directions.
#[inline]
#[must_use]
pub fn nth_direction(mut mask: u8, n: usize) -> Option<usize> {
    for _ in 0..n {
        mask &= mask.wrapping_sub(1);
    }
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule written out cell by cell, direction by direction.
    fn saves_by_hand(ring: Ring) -> u8 {
        let held = |d: usize| (ring.mine | ring.edges) & (1 << (d % 6)) != 0;
        let stone = |d: usize| ring.mine & (1 << (d % 6)) != 0;
        (0..6)
            .filter(|&d| ring.empty & (1 << d) != 0)
            .filter(|&d| held(d + 5) && held(d + 1) && (stone(d + 5) || stone(d + 1)))
            .fold(0, |m, d| m | (1 << d))
    }

    #[test]
    fn every_ring_agrees_with_the_rule_written_out() {
        // Each direction is mine, an edge, empty or the opponent's: all 4^6 rings.
        for code in 0..4096u32 {
            let mut ring = Ring::default();
            for d in 0..6 {
                match (code >> (2 * d)) & 3 {
                    0 => ring.mine |= 1 << d,
                    1 => ring.edges |= 1 << d,
                    2 => ring.empty |= 1 << d,
                    _ => {}
                }
            }
            assert_eq!(ring.saves(), saves_by_hand(ring), "{ring:?}");
        }
    }

    #[test]
    fn two_edges_alone_save_nothing() {
        let ring = Ring {
            mine: 0,
            edges: 0b101,
            empty: 0b010,
        };
        assert_eq!(ring.saves(), 0);
    }

    #[test]
    fn directions_are_counted_from_the_lowest_bit() {
        assert_eq!(nth_direction(0b101100, 0), Some(2));
        assert_eq!(nth_direction(0b101100, 1), Some(3));
        assert_eq!(nth_direction(0b101100, 2), Some(5));
        assert_eq!(nth_direction(0b101100, 3), None);
        assert_eq!(nth_direction(0, 0), None);
    }
}
