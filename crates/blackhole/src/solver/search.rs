//! The null-window search: a pass at the root, a node's stages (its static cutoff, the
//! killer moves, the table's move before any move is generated, then the other moves best
//! first), the cell relaxation that searches a cell's stones as one under a budget, and the
//! direct evaluation of the last three empty cells.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::board::{Cell, NEIGHBOURS, cells_of};
use crate::rules::{DRAW_SCORE, Move, Position, RED};

use super::bounds::{Classes, classify};
use super::moves::{NO_CLASSES, order_next};
use super::table::TableKey;
use super::{Solver, better, cuts_off};

/// A node searches a cell's stones as one (`Solver::relaxed_cell`) from its move at this
/// index on (the second): in a node that cuts off the first move mostly does, and the relaxed
/// search, which cannot cut off, would be wasted. Measured on 40 recorded endings each of 16,
/// 17 and 18 empty cells: from the first move 25%, 144% and 31% more nodes than from the
/// second; from the third 3% more, 10% fewer and 31% more.
const RELAX_FROM: usize = 1;

/// What stays fixed while a node is searched: the position and its key, its place in the
/// table, the question "does Red reach `beta`?" and its ply (which picks its move buffer).
#[derive(Clone, Copy)]
pub(super) struct Node<'a> {
    pub(super) pos: &'a Position,
    pub(super) key: u64,
    pub(super) tk: TableKey,
    pub(super) beta: i16,
    pub(super) ply: usize,
}

impl Solver {
    /// A null-window pass at the root: the fail-soft value and the move that decided it. The
    /// root looks ahead as every node does (whatever its number of empty cells: the
    /// children's margins order its moves), tries the table's move first, and then searches
    /// its moves as every node does (`search_moves`).
    pub(super) fn root(&mut self, pos: &Position, key: u64, beta: i16) -> (i16, Option<Move>) {
        let c = classify(pos, beta, self.sums);
        let tk = self.table_key(pos, key, &c, beta);
        let n = Node {
            pos,
            key,
            tk,
            beta,
            ply: 0,
        };
        let hint = self.probe(tk.key).map_or(0, |e| e.best);
        let red = pos.mover() == RED;
        let mut buf = std::mem::take(&mut self.buffers[0]);
        let mut pruned = self.moves(pos, &c, 0, &mut buf);
        let mut v = if red { i16::MIN } else { i16::MAX };
        if let Some((r, mv)) = self.look_ahead(n, &mut buf, &mut v, &mut pruned) {
            self.buffers[0] = buf;
            return (r, Some(mv));
        }
        for x in buf.iter_mut() {
            if x.1.index() as u16 + 1 == hint {
                x.0 = i32::MAX;
            }
        }
        let decided = match self.search_moves(n, &mut buf, v) {
            // Only a search that gave up breaks off here (the look-ahead is done).
            ControlFlow::Break(_) => None,
            ControlFlow::Continue((r, decided)) => {
                v = r;
                (decided != 0).then(|| move_of_index(usize::from(decided - 1)))
            }
        };
        self.buffers[0] = buf;
        if pruned {
            v = clamp_pruned(red, v, beta);
        }
        (v, decided)
    }

    /// Red's final score, fail-soft against `beta`: a value `>= beta` is a lower bound of the
    /// exact score, a value `< beta` an upper bound.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        key: u64,
        beta: i16,
        ply: usize,
        known: Option<Classes>,
    ) -> i16 {
        let e = pos.empty_count();
        // Three empty cells or fewer (the last plies) are evaluated directly.
        if e <= 3 {
            return small_ending(pos);
        }
        let c = known.unwrap_or_else(|| classify(pos, beta, self.sums));
        debug_assert!(
            known.is_none_or(|k| k == classify(pos, beta, self.sums)),
            "the classes handed on are not this node's"
        );
        if let Some(v) = c.cut {
            return v;
        }
        self.nodes += 1;
        if self.past_deadline() || self.nodes >= self.node_limit {
            self.aborted = true;
            return beta;
        }
        if e >= self.look_ahead_empty
            && let Some(r) = self.killer_cutoff(pos, beta, ply)
        {
            return r;
        }
        let (tk, mut hint) = match self.table_entry(pos, key, &c, beta) {
            ControlFlow::Break(r) => return r,
            ControlFlow::Continue(found) => found,
        };
        let n = Node {
            pos,
            key,
            tk,
            beta,
            ply,
        };
        let red = pos.mover() == RED;
        let mut v = if red { i16::MIN } else { i16::MAX };
        // Stage one: the table's move, before any move generation.
        if hint != 0 {
            match self.table_move(n, hint) {
                ControlFlow::Break(r) => return r,
                ControlFlow::Continue(Some(r)) => v = r,
                ControlFlow::Continue(None) => hint = 0,
            }
        }
        // Stage two: the other moves.
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        let mut pruned = self.moves(pos, &c, hint, &mut buf);
        let result = self.other_moves(n, &mut buf, v, &mut pruned);
        self.buffers[ply] = buf;
        let (mut v, decided) = match result {
            ControlFlow::Break(r) => return r,
            ControlFlow::Continue(found) => found,
        };
        if pruned {
            v = clamp_pruned(red, v, beta);
        }
        if decided != 0 {
            self.reward(pos.mover(), usize::from(decided - 1), e);
        }
        if e >= self.tt_empty {
            self.store_value(n, v, decided);
        }
        v
    }

    /// The place in the table of the node `pos` (whose key is `key` and classes for `beta`
    /// are `c`) and the table's move there (as `index + 1`, 0: none), or the table's answer
    /// (`Break`) when its bounds already answer the question.
    #[inline]
    fn table_entry(
        &self,
        pos: &Position,
        key: u64,
        c: &Classes,
        beta: i16,
    ) -> ControlFlow<i16, (TableKey, u16)> {
        let e = pos.empty_count();
        // Below `tt_empty` the table is neither probed nor filled: the exact key stands in.
        let tk = if e >= self.tt_empty {
            self.table_key(pos, key, c, beta)
        } else {
            TableKey::exact(key)
        };
        let mut hint = 0u16;
        if e >= self.tt_empty
            && let Some(t) = self.probe(tk.key)
        {
            if t.lo >= beta {
                return ControlFlow::Break(t.lo);
            }
            if t.hi < beta {
                return ControlFlow::Break(t.hi);
            }
            hint = t.best;
        }
        ControlFlow::Continue((tk, hint))
    }

    /// Adds to the history of `mover`'s move `index` (as in [`Move::index`]) that it cut off
    /// at a node with `e` empty cells: by `e * e`, so cutoffs near the root, which save the
    /// most, weigh the most.
    #[inline]
    fn reward(&mut self, mover: usize, index: usize, e: u32) {
        self.history[mover][index] += e * e;
    }

    /// Whether the deadline has passed (checked every 1024 nodes).
    #[inline]
    fn past_deadline(&self) -> bool {
        self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Searches the child of `n` after `mv`, whose key is `child_key`, one ply deeper.
    #[inline]
    fn search_child(&mut self, n: Node<'_>, mv: Move, child_key: u64, slot: u16) -> i16 {
        let mut child = *n.pos;
        child.play(mv);
        let known = (slot != NO_CLASSES).then(|| self.classes[n.ply][usize::from(slot)]);
        self.search(&child, child_key, n.beta, n.ply + 1, known)
    }

    /// Searches the table's move `hint` (as `index + 1`): the node's answer (`Break`) when it
    /// cuts off or the search gave up, else its value, or `None` when it is not legal here.
    /// Any legal move gives a sound bound, so it need not be in the pruned move list.
    #[inline]
    fn table_move(&mut self, n: Node<'_>, hint: u16) -> ControlFlow<i16, Option<i16>> {
        let i = usize::from(hint - 1);
        let mv = move_of_index(i);
        let mover = n.pos.mover();
        if !playable(n.pos, mv) {
            return ControlFlow::Continue(None);
        }
        let r = self.search_child(n, mv, self.child_key(n.pos, n.key, mv), NO_CLASSES);
        if self.aborted {
            return ControlFlow::Break(n.beta);
        }
        if cuts_off(mover == RED, r, n.beta) {
            self.reward(mover, i, n.pos.empty_count());
            self.store_cutoff(n, r, hint);
            return ControlFlow::Break(r);
        }
        ControlFlow::Continue(Some(r))
    }

    /// The moves of `buf` after the table's move (whose value, or the worst, is `v`): first
    /// the look-ahead (`look_ahead`, which may drop dominated moves and then sets `pruned`),
    /// then each move best first by a selection that stops at a cutoff. The node's answer
    /// (`Break`) on a cutoff one ply ahead or when the search gave up; else the value and the
    /// move that decided it (as `index + 1`, 0: none).
    #[inline]
    fn other_moves(
        &mut self,
        n: Node<'_>,
        buf: &mut Vec<(i32, Move, u16)>,
        mut v: i16,
        pruned: &mut bool,
    ) -> ControlFlow<i16, (i16, u16)> {
        if n.pos.empty_count() >= self.look_ahead_empty
            && let Some((r, _)) = self.look_ahead(n, buf, &mut v, pruned)
        {
            return ControlFlow::Break(r);
        }
        self.search_moves(n, buf, v)
    }

    /// Searches the moves of `buf` best first (by a selection that stops at a cutoff), each
    /// cell's stones first as one (`relaxed_cell`) from the node's second move on; `v` is the
    /// value so far. The value and the move that decided it (as `index + 1`, 0: none), or
    /// `Break` when the search gave up.
    #[inline]
    fn search_moves(
        &mut self,
        n: Node<'_>,
        buf: &mut [(i32, Move, u16)],
        mut v: i16,
    ) -> ControlFlow<i16, (i16, u16)> {
        let red = n.pos.mover() == RED;
        // Cells whose stones were searched together (`relaxed_cell`), and those of them
        // whose moves that search answered.
        let mut tried = 0u64;
        let mut answered = 0u64;
        // The nodes of the first move searched here that cost any: the relaxations' budget.
        let mut first_cost = 0;
        for k in 0..buf.len() {
            order_next(buf, k);
            let (_, mv, slot) = buf[k];
            let bit = 1u64 << mv.cell.index();
            if answered & bit != 0 {
                continue;
            }
            if self.relax && k >= RELAX_FROM && tried & bit == 0 {
                tried |= bit;
                let (factor, floor) = self.relax_budget;
                let budget = factor.saturating_mul(first_cost).saturating_add(floor);
                if let Some(r) = self.budgeted_relaxation(n, &buf[k..], mv.cell, budget) {
                    if self.aborted {
                        return ControlFlow::Break(n.beta);
                    }
                    if !cuts_off(red, r, n.beta) {
                        v = better(red, v, r);
                        answered |= bit;
                        continue;
                    }
                }
            }
            let before = self.nodes;
            let r = self.search_child(n, mv, self.child_key(n.pos, n.key, mv), slot);
            if self.aborted {
                return ControlFlow::Break(n.beta);
            }
            if first_cost == 0 {
                first_cost = self.nodes - before;
            }
            v = better(red, v, r);
            if cuts_off(red, v, n.beta) {
                return ControlFlow::Continue((v, mv.index() as u16 + 1));
            }
        }
        ControlFlow::Continue((v, 0))
    }

    /// `relaxed_cell` within `budget` nodes: `None` also when it was given up there (nothing
    /// of the abandoned search was stored but its finished subtrees, which are sound).
    fn budgeted_relaxation(
        &mut self,
        n: Node<'_>,
        rest: &[(i32, Move, u16)],
        cell: Cell,
        budget: u64,
    ) -> Option<i16> {
        let outer = self.node_limit;
        self.node_limit = outer.min(self.nodes.saturating_add(budget));
        let r = self.relaxed_cell(n, rest, cell);
        // Given up for this budget, not for an outer one nor for the deadline.
        let given_up = self.aborted
            && self.nodes >= self.node_limit
            && self.node_limit < outer
            && self.deadline.is_none_or(|d| Instant::now() < d);
        self.node_limit = outer;
        if given_up {
            self.aborted = false;
            return None;
        }
        r
    }

    /// The mover's stones on `cell` among `rest` (moves not searched yet), searched as one:
    /// the value of the position after the biggest of them on `cell` with the smallest of
    /// them paid from the hand (`Position::play_paying`), which is at least as good for the
    /// mover as each of them (its neighbours get the biggest stone, and its hand is at least
    /// as valuable, stone for stone). So a value that does not cut off bounds them all the
    /// same way. `None` when fewer than two stones are left there.
    fn relaxed_cell(&mut self, n: Node<'_>, rest: &[(i32, Move, u16)], cell: Cell) -> Option<i16> {
        let mut low = u8::MAX;
        let mut high = 0;
        let mut count = 0;
        for &(_, mv, _) in rest {
            if mv.cell == cell {
                low = low.min(mv.value);
                high = high.max(mv.value);
                count += 1;
            }
        }
        if count < 2 {
            return None;
        }
        let p = n.pos.mover();
        let big = Move::new(cell, high);
        let key = self.child_key(n.pos, n.key, big)
            ^ self.z_hand[p][usize::from(high)]
            ^ self.z_hand[p][usize::from(low)];
        let child = relaxed(n.pos, cell, low, high);
        debug_assert_eq!(key, self.key_of(&child), "the relaxed position's key");
        Some(self.search(&child, key, n.beta, n.ply + 1, None))
    }

    /// Stores the value `v` of `n` that its move `decided` (as `index + 1`, 0: none) gave: a
    /// lower bound of Red's score when it reaches `beta`, else an upper bound.
    #[inline]
    fn store_value(&mut self, n: Node<'_>, v: i16, decided: u16) {
        let a = n.tk.answer(v, n.beta);
        let (lo, hi) = if v >= n.beta {
            (Some(a), None)
        } else {
            (None, Some(a))
        };
        self.store(n.tk.key, n.pos.empty_count() as u8, lo, hi, decided);
    }

    /// Stores a cutoff value `r` of the mover of `n` (a lower bound for Red, an upper bound
    /// for Blue) found by the move `best` (as `index + 1`).
    #[inline]
    pub(super) fn store_cutoff(&mut self, n: Node<'_>, r: i16, best: u16) {
        let a = n.tk.answer(r, n.beta);
        let empty = n.pos.empty_count() as u8;
        if n.pos.mover() == RED {
            self.store(n.tk.key, empty, Some(a), None, best);
        } else {
            self.store(n.tk.key, empty, None, Some(a), best);
        }
    }
}

/// The move of [`Move::index`] `i`.
#[inline]
fn move_of_index(i: usize) -> Move {
    Move::new(Cell((i / 15) as u8), (i % 15 + 1) as u8)
}

/// The position after the mover's stone `high` on `cell` with its stone `low` paid from its
/// hand in place of `high` (see `Solver::relaxed_cell`).
#[inline]
fn relaxed(pos: &Position, cell: Cell, low: u8, high: u8) -> Position {
    let mut p = *pos;
    p.play_paying(Move::new(cell, high), low);
    p
}

/// Whether the mover of `pos` may play `mv`, a move remembered from another node (its cell
/// empty, its stone still held). [`Position::check`] says why not, at the cost of an error.
#[inline]
pub(super) fn playable(pos: &Position, mv: Move) -> bool {
    pos.empty() & (1 << mv.cell.index()) != 0 && pos.has_stone(pos.mover(), mv.value)
}

/// A failing node whose move list was cut for this `beta` only knows its side of `beta`.
#[inline]
fn clamp_pruned(red: bool, v: i16, beta: i16) -> i16 {
    if red && v < beta {
        beta - 1
    } else if !red && v >= beta {
        beta
    } else {
        v
    }
}

/// Red's exact score with at most three empty cells (each player holds one stone then).
fn small_ending(pos: &Position) -> i16 {
    let empty = pos.empty();
    if empty.count_ones() <= 2 {
        return last_move(pos);
    }
    let mover = pos.mover();
    let v = pos.highest_stone(mover);
    let red = mover == RED;
    let mut best = if red { i16::MIN } else { i16::MAX };
    for c in cells_of(empty) {
        let mut child = *pos;
        child.play(Move::new(c, v));
        let r = last_move(&child);
        best = if red { best.max(r) } else { best.min(r) };
    }
    best
}

/// Red's exact score with one or two empty cells: the mover's last stone goes on one of them
/// and the other is the hole.
#[inline]
fn last_move(pos: &Position) -> i16 {
    let empty = pos.empty();
    let a = empty.trailing_zeros() as usize;
    let da = pos.delta(Cell(a as u8));
    if empty.count_ones() == 1 {
        return DRAW_SCORE + da;
    }
    let b = (empty & (empty - 1)).trailing_zeros() as usize;
    let db = pos.delta(Cell(b as u8));
    let mover = pos.mover();
    let v = i16::from(pos.highest_stone(mover));
    let s = if NEIGHBOURS[a] & (1 << b) == 0 {
        0
    } else if mover == RED {
        v
    } else {
        -v
    };
    // Filling b leaves a with da + s, filling a leaves b with db + s.
    if mover == RED {
        DRAW_SCORE + da.max(db) + s
    } else {
        DRAW_SCORE + da.min(db) + s
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference::{
        brute_force, ending, same_exact_values, same_exact_values_over, same_win_answers,
        value_after,
    };
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn a_relaxed_cell_is_never_worse_for_the_mover_than_its_stones(
            seed in any::<u64>(),
            empty in 3u32..=6,
        ) {
            // Every cell, every pair of the mover's stones on it, every stone between them.
            let p = ending(seed, empty);
            let mover = p.mover();
            let red = mover == RED;
            let hand: Vec<u8> = (1..=15).filter(|&v| p.has_stone(mover, v)).collect();
            for cell in cells_of(p.empty()) {
                for (i, &low) in hand.iter().enumerate() {
                    for &high in &hand[i + 1..] {
                        let bound = brute_force(&relaxed(&p, cell, low, high));
                        for &v in hand.iter().filter(|&&v| (low..=high).contains(&v)) {
                            let value = value_after(&p, Move::new(cell, v));
                            prop_assert!(
                                if red { value <= bound } else { value >= bound },
                                "{:?}: {} on {:?} gives {}, the relaxed {}..{} {}",
                                p, v, cell, value, low, high, bound
                            );
                        }
                    }
                }
            }
        }
    }

    /// A solver without the cell relaxation.
    fn without_relaxation() -> Solver {
        let mut s = Solver::new();
        s.relax = false;
        s
    }

    #[test]
    fn the_cell_relaxation_keeps_the_exact_value_on_ten_to_twelve_empty_cells() {
        // It did change the search, so the comparison tests it.
        assert!(same_exact_values(Solver::new(), without_relaxation(), 7000));
    }

    #[test]
    fn the_cell_relaxation_keeps_the_win_answer_on_twelve_to_fourteen_empty_cells() {
        same_win_answers(Solver::new(), without_relaxation(), 7100);
    }

    /// A solver whose relaxations get `budget` (`Solver::relax_budget`).
    fn with_relax_budget(budget: (u64, u64)) -> Solver {
        let mut s = Solver::new();
        s.relax_budget = budget;
        s
    }

    #[test]
    fn relaxations_given_up_keep_the_exact_value() {
        // A budget of one node gives up every relaxation; a small one gives up some of them
        // at every depth, inside the budgets of outer ones.
        let mut unlimited = with_relax_budget((0, u64::MAX));
        let mut searched_otherwise = false;
        for budget in [(0, 1), (1, 2)] {
            let mut budgeted = with_relax_budget(budget);
            searched_otherwise |=
                same_exact_values_over(&mut budgeted, &mut unlimited, 7200, 48, 9..=15);
        }
        assert!(searched_otherwise, "no relaxation was given up");
    }

    #[test]
    fn relaxations_given_up_keep_the_win_answer() {
        for budget in [(0, 1), (1, 2)] {
            same_win_answers(with_relax_budget(budget), without_relaxation(), 7300);
        }
    }
}
