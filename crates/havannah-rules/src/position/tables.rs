//! The precomputed lookup tables of the hot path: the figures (bridge, fork) of a 12-bit
//! corner/side mask, and, for each 6-bit pattern of same-coloured neighbours, its runs, the
//! neighbours it closes in and whether the winning-move scan must test the cell.

use crate::types::Kinds;

/// Whether a 12-bit corner/side mask holds a bridge (two corners) or a fork (three sides).
const fn figure_of_mask(mask: u16) -> u8 {
    let corners = (mask & 0x3f).count_ones();
    let sides = ((mask >> 6) & 0x3f).count_ones();
    let mut kinds = 0;
    if corners >= 2 {
        kinds |= Kinds::BRIDGE.bits();
    }
    if sides >= 3 {
        kinds |= Kinds::FORK.bits();
    }
    kinds
}

/// The 4096-entry table from a chain's corner/side mask to the figures it forms
/// (paper, section 7).
pub(super) static FIGURES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut mask = 0;
    while mask < 4096 {
        table[mask] = figure_of_mask(mask as u16);
        mask += 1;
    }
    table
};

/// The figures (bridge, fork) formed by a chain with this 12-bit corner/side mask.
#[inline]
#[must_use]
pub fn figures_of_mask(mask: u16) -> Kinds {
    Kinds::from_bits(FIGURES[(mask & 0xfff) as usize])
}

/// For a 6-bit pattern of same-colour neighbours (bit d = direction d, directions in cyclic
/// order), the bits where a run of set bits starts.
pub(super) static RUN_STARTS: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let mut starts = 0u8;
        let mut d = 0;
        while d < 6 {
            let prev = (d + 5) % 6;
            if p & (1 << d) != 0 && p & (1 << prev) == 0 {
                starts |= 1 << d;
            }
            d += 1;
        }
        table[p] = starts;
        p += 1;
    }
    table
};

/// For a 6-bit pattern, the directions d whose both cyclic neighbours d-1 and d+1 are set as
/// well: the neighbours that the new stone may have closed in completely.
pub(super) static MIDDLES: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let mut mids = 0u8;
        let mut d = 0;
        while d < 6 {
            let prev = (d + 5) % 6;
            let next = (d + 1) % 6;
            if p & (1 << d) != 0 && p & (1 << prev) != 0 && p & (1 << next) != 0 {
                mids |= 1 << d;
            }
            d += 1;
        }
        table[p] = mids;
        p += 1;
    }
    table
};

/// For a 6-bit pattern of same-colour neighbours, the directions of the first stones of its
/// (at most three) runs, padded with 6, which stands for the new stone itself; six set bits
/// are one run. A fixed-length list lets `place` look up all runs without a loop whose length
/// depends on the (random) colours around the cell.
pub(super) static RUN_DIRS: [[u8; 3]; 64] = {
    let mut table = [[6u8; 3]; 64];
    let mut p = 0;
    while p < 64 {
        let starts = if p == 63 { 1 } else { RUN_STARTS[p] };
        let mut k = 0;
        let mut d = 0;
        while d < 6 {
            if starts & (1 << d) != 0 {
                table[p][k] = d as u8;
                k += 1;
            }
            d += 1;
        }
        p += 1;
    }
    table
};

/// For a 6-bit pattern of same-coloured neighbours around an empty cell next to a stone of
/// that colour, when [`Position::win_next_to`](super::Position::win_next_to) must test the
/// cell: bit 0, always (three runs, all six, or a run with a middle stone, around which a ring
/// may close; pattern 0 too, the safe answer for a pattern that cannot occur here); bit 1,
/// when the chain of the stone may form a figure or a loop with one other chain (two runs:
/// see [`Position::scan_sets`](super::Position::scan_sets)); 0, never (a single run without a
/// middle stone joins nothing new).
pub(super) static SCAN_TEST: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let runs = if p == 63 {
            1
        } else {
            RUN_STARTS[p].count_ones()
        };
        table[p] = if p == 63 || p == 0 || runs >= 3 || MIDDLES[p] != 0 {
            1
        } else if runs == 2 {
            2
        } else {
            0
        };
        p += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_table_counts_corners_and_sides() {
        assert_eq!(figures_of_mask(0b11), Kinds::BRIDGE);
        assert_eq!(figures_of_mask(0b1), Kinds::NONE);
        assert_eq!(figures_of_mask(0b111 << 6), Kinds::FORK);
        assert_eq!(figures_of_mask(0b11 << 6 | 1), Kinds::NONE);
        assert_eq!(figures_of_mask(0xfff), Kinds::BRIDGE | Kinds::FORK);
    }

    #[test]
    fn run_tables() {
        assert_eq!(RUN_STARTS[0b000000], 0);
        assert_eq!(RUN_STARTS[0b111111], 0);
        assert_eq!(RUN_STARTS[0b100001], 0b000001 << 5);
        assert_eq!(RUN_STARTS[0b010101].count_ones(), 3);
        assert_eq!(MIDDLES[0b000111], 0b000010);
        assert_eq!(MIDDLES[0b100011], 0b000001);
        assert_eq!(MIDDLES[0b111111], 0b111111);
        assert_eq!(RUN_DIRS[0b000000], [6, 6, 6]);
        assert_eq!(RUN_DIRS[0b111111], [0, 6, 6]);
        assert_eq!(RUN_DIRS[0b100001], [5, 6, 6]);
        assert_eq!(RUN_DIRS[0b010101], [0, 2, 4]);
        assert_eq!(RUN_DIRS[0b011010], [1, 3, 6]);
    }
}
