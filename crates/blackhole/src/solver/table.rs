//! The transposition table: the abstract key of a position (its empty cells with their
//! deltas and the stones in each hand), updated per move; where a node is filed for a
//! question, its sure cells by class in place of their deltas (`Solver::table_key`); and the
//! buckets of two entries, the first kept for the biggest recent position.

use crate::board::{Cell, NEIGHBOURS, cells_of};
use crate::rules::{Move, Position, RED};

use super::Solver;
use super::bounds::Classes;

/// Entries in the transposition table: 2^22 of 16 bytes, 64 MiB.
pub(super) const TABLE_BITS: u32 = 22;

/// Deltas lie in -75..=75 (six neighbours of at most 15 + 14 + ... + 10).
const DELTA_OFFSET: i16 = 96;

pub(super) const DELTA_SLOTS: usize = 192;

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    /// Red's exact score is in `lo..=hi` (valid when `key` matches).
    pub(super) lo: i16,
    pub(super) hi: i16,
    /// The move that decided the last search here, as `index + 1` (0: none).
    pub(super) best: u16,
    /// Empty cells of the position (how much work it stands for).
    pub(super) empty: u8,
    /// The solve that last wrote it.
    pub(super) age: u8,
}

/// A node's place in the table (see `Solver::table_key`).
#[derive(Clone, Copy)]
pub(super) struct TableKey {
    pub(super) key: u64,
    /// The entry stands for several positions and holds only their common answer.
    pub(super) only_answer: bool,
}

impl TableKey {
    /// The place of one position, by its exact key.
    pub(super) fn exact(key: u64) -> Self {
        TableKey {
            key,
            only_answer: false,
        }
    }

    /// What the entry may hold of the fail-soft value `v`: all of it for one position, only
    /// its side of `beta` for several.
    #[inline]
    pub(super) fn answer(self, v: i16, beta: i16) -> i16 {
        match (self.only_answer, v >= beta) {
            (false, _) => v,
            (true, true) => beta,
            (true, false) => beta - 1,
        }
    }
}

impl Solver {
    #[inline]
    fn z_delta(&self, cell: usize, delta: i16) -> u64 {
        self.z_cell[cell][(delta + DELTA_OFFSET) as usize]
    }

    /// The abstract key: every empty cell with its delta, and the stones in each hand.
    pub(super) fn key_of(&self, pos: &Position) -> u64 {
        let mut h = 0;
        for c in cells_of(pos.empty()) {
            h ^= self.z_delta(c.index(), pos.delta(c));
        }
        for (p, z) in self.z_hand.iter().enumerate() {
            let mut m = pos.stones_left_mask(p);
            while m != 0 {
                let v = m.trailing_zeros() as usize;
                m &= m - 1;
                h ^= z[v];
            }
        }
        h
    }

    /// The key after `mv` in `pos`, from the key of `pos`.
    #[inline]
    pub(super) fn child_key(&self, pos: &Position, key: u64, mv: Move) -> u64 {
        let p = pos.mover();
        let i = mv.cell.index();
        let s = if p == RED {
            i16::from(mv.value)
        } else {
            -i16::from(mv.value)
        };
        let mut k =
            key ^ self.z_delta(i, pos.delta(mv.cell)) ^ self.z_hand[p][usize::from(mv.value)];
        let mut n = NEIGHBOURS[i] & pos.empty();
        while n != 0 {
            let j = n.trailing_zeros() as usize;
            n &= n - 1;
            let d = pos.delta(Cell(j as u8));
            k ^= self.z_delta(j, d) ^ self.z_delta(j, d + s);
        }
        k
    }

    /// Where the table files a node for the question "does Red reach `beta`?" (`cls` its
    /// classes for `beta`). Without sure cells: the exact `key`. With them, each sure cell's
    /// delta is replaced by its class, and `beta` is added: every way the game can go from
    /// two positions that differ only in their sure cells' deltas ends on the same side of
    /// `beta` (a hole on a sure cell is on its class's side whatever its delta), so they share
    /// one answer, which is all such an entry may hold (see [`TableKey::answer`]).
    #[inline]
    pub(super) fn table_key(&self, pos: &Position, key: u64, cls: &Classes, beta: i16) -> TableKey {
        let sure = cls.good | cls.bad;
        if !self.collapse_sure || sure == 0 {
            return TableKey::exact(key);
        }
        let mut k = key ^ (beta as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for c in cells_of(sure) {
            let i = c.index();
            let good = usize::from(cls.good & (1 << i) != 0);
            k ^= self.z_delta(i, pos.delta(c)) ^ self.z_sure[i][good];
        }
        TableKey {
            key: k,
            only_answer: true,
        }
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key as usize) & ((1 << TABLE_BITS) - 2)
    }

    /// The entry of `key` in its bucket of two, if any.
    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let s = Self::slot(key);
        if self.table[s].key == key {
            Some(self.table[s])
        } else if self.table[s + 1].key == key {
            Some(self.table[s + 1])
        } else {
            None
        }
    }

    /// Stores a bound: the bucket's first entry keeps the biggest (most empty cells) recent
    /// position, the second always takes the newest.
    pub(super) fn store(
        &mut self,
        key: u64,
        empty: u8,
        lower: Option<i16>,
        upper: Option<i16>,
        best: u16,
    ) {
        let s = Self::slot(key);
        let age = self.age;
        let k = if self.table[s].key == key {
            s
        } else if self.table[s + 1].key == key {
            s + 1
        } else {
            let first = self.table[s];
            let k = if first.age != age || first.empty <= empty {
                // Demote the first entry to the second place.
                self.table[s + 1] = first;
                s
            } else {
                s + 1
            };
            self.table[k] = Entry {
                key,
                lo: 0,
                hi: 150,
                best: 0,
                empty,
                age,
            };
            k
        };
        let e = &mut self.table[k];
        e.age = age;
        if let Some(l) = lower {
            e.lo = e.lo.max(l);
        }
        if let Some(u) = upper {
            e.hi = e.hi.min(u);
        }
        if best != 0 {
            e.best = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bounds::classify;
    use super::super::reference::{ending, same_exact_values, same_win_answers};
    use super::*;
    use crate::search::lottery_move;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn the_incremental_key_is_the_key_of_the_child(seed in any::<u64>(), empty in 2u32..=25) {
            let p = ending(seed, empty);
            let solver = Solver::new();
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 1);
            let mv = lottery_move(&p, &mut rng);
            let mut child = p;
            child.play(mv);
            prop_assert_eq!(solver.child_key(&p, solver.key_of(&p), mv), solver.key_of(&child));
        }
    }

    #[test]
    fn the_key_forgets_stones_that_touch_no_empty_cell() {
        // A1 (neighbours A2, B1) and A8 (neighbours A7, B7) get Red's 5 and 6 in either order
        // after their neighbours are filled: different positions, the same future.
        let blocked = ["H1", "G1", "G2", "F1", "F2"].map(|c| Cell::parse(c).unwrap());
        let start = Position::new(&blocked).unwrap();
        let play = |moves: [&str; 7]| {
            let mut p = start;
            for m in moves {
                p.try_play(m.parse().unwrap()).unwrap();
            }
            p
        };
        let a = play(["A2=1", "B1=1", "A7=2", "B7=2", "A1=5", "C1=3", "A8=6"]);
        let b = play(["A2=1", "B1=1", "A7=2", "B7=2", "A1=6", "C1=3", "A8=5"]);
        let c = play(["A2=1", "B1=1", "A7=2", "B7=2", "A1=5", "C1=3", "A3=6"]);
        assert_ne!(a, b);
        let s = Solver::new();
        assert_eq!(s.key_of(&a), s.key_of(&b));
        assert_ne!(s.key_of(&a), s.key_of(&c));
    }

    /// A solver that files every node under its exact key (`table_key` without sure cells).
    fn without_collapse() -> Solver {
        let mut s = Solver::new();
        s.collapse_sure = false;
        s
    }

    #[test]
    fn collapsed_table_keys_keep_the_exact_value_on_ten_to_twelve_empty_cells() {
        // The bisection's passes reuse fail-soft bounds: an entry shared by several positions
        // that held one position's value instead of the common answer would mislead them.
        // Other node counts somewhere: the collapsed keys changed the search, so the
        // comparison tests them.
        assert!(same_exact_values(Solver::new(), without_collapse(), 8000));
    }

    #[test]
    fn collapsed_table_keys_keep_the_win_answer_on_twelve_to_fourteen_empty_cells() {
        same_win_answers(Solver::new(), without_collapse(), 7000);
    }

    #[test]
    fn a_sure_cell_s_delta_does_not_change_the_table_key() {
        // Red's 3 and 4 on A2 and A7, in either order, once every other neighbour of the two
        // is filled: only the deltas of the corners A1 and A8 differ, and both are isolated,
        // so sure for any question. One entry; the exact key (and another question) tell the
        // two apart.
        let cell = |c: &str| Cell::parse(c).unwrap();
        let blocked = ["H1", "G1", "G2", "F1", "F2"].map(cell);
        let (a2, a7, a1, a8) = (cell("A2"), cell("A7"), cell("A1"), cell("A8"));
        let corners = (1u64 << a1.index()) | (1u64 << a8.index());
        let around = (NEIGHBOURS[a2.index()] | NEIGHBOURS[a7.index()]) & !corners;
        let play = |first: u8, second: u8| {
            let mut p = Position::new(&blocked).unwrap();
            let mut stones = [5u8, 5];
            for c in cells_of(around & p.empty()) {
                let v = stones[p.mover()];
                stones[p.mover()] += 1;
                p.try_play(Move::new(c, v)).unwrap();
            }
            if p.mover() != RED {
                p.try_play(Move::new(cell("D4"), 1)).unwrap();
            }
            p.try_play(Move::new(a2, first)).unwrap();
            p.try_play(Move::new(cell("D5"), 2)).unwrap();
            p.try_play(Move::new(a7, second)).unwrap();
            p
        };
        let (a, b) = (play(3, 4), play(4, 3));
        assert_ne!(a.delta(a1), b.delta(a1));
        let s = Solver::new();
        let (ka, kb) = (s.key_of(&a), s.key_of(&b));
        assert_ne!(ka, kb);
        let beta = 60;
        let (ca, cb) = (classify(&a, beta, s.sums), classify(&b, beta, s.sums));
        for c in [&ca, &cb] {
            assert_eq!(c.good & corners, corners, "A1 and A8 are sure good for Red");
        }
        let (ta, tb) = (
            s.table_key(&a, ka, &ca, beta),
            s.table_key(&b, kb, &cb, beta),
        );
        assert!(ta.only_answer);
        assert_eq!(ta.key, tb.key);
        let other = s.table_key(&a, ka, &classify(&a, beta + 1, s.sums), beta + 1);
        assert_ne!(ta.key, other.key);
        assert_eq!(ta.answer(80, beta), beta);
        assert_eq!(ta.answer(50, beta), beta - 1);
    }
}
