//! The moves a node tries and their order: the moves pruned for the question "does Red
//! reach `beta`?" (`question_moves`: settled cells, the least stone where nothing is open,
//! twin cells), their ordering keys with the history and the selection of the next one, and
//! the static look-ahead one ply ahead (its cutoffs, the children's margins, dominated stones
//! and the killer moves).

use crate::board::{Cell, NEIGHBOURS, cells_of};
use crate::rules::{Move, Position, RED};

use super::bounds::{Classes, classify, hand_sums, red_beta};
use super::search::{Node, playable};
use super::{Solver, better, cuts_off};

/// Moves picked one by one (selection) before the rest of a node's list is sorted: most
/// cutoffs come from the first moves.
const SELECT_FIRST: usize = 3;

/// A move's slot in `Solver::classes` when its child was not classified.
pub(super) const NO_CLASSES: u16 = u16::MAX;

impl Solver {
    /// One ply ahead, before any move is searched: a move after which the static bounds
    /// answer for the mover answers for this node; it is stored and returned with its value.
    /// Else drops the moves after which they answer against the mover, folding their values
    /// into the node's value `v` (searching them would only classify them again), adds each
    /// other child's margin to its move's ordering key, and drops the moves that a smaller
    /// stone on the same cell dominates for the question (`dominated_stone`; then `pruned` is
    /// set), handing their ordering key to the stone that dominates them when it is higher.
    #[inline]
    pub(super) fn look_ahead(
        &mut self,
        n: Node<'_>,
        buf: &mut Vec<(i32, Move, u16)>,
        v: &mut i16,
        pruned: &mut bool,
    ) -> Option<(i16, Move)> {
        let red = n.pos.mover() == RED;
        // The kept moves on the current cell: stone, the child's sure cells for the mover,
        // place in `buf` (`question_moves` gives a cell's stones together, smallest first).
        let mut kept = [(0u8, 0u64, 0usize); 15];
        let mut nk = 0;
        let mut kept_cell = None;
        let mut j = 0;
        let mut classes = std::mem::take(&mut self.classes[n.ply]);
        classes.clear();
        for i in 0..buf.len() {
            let (key, mv, _) = buf[i];
            let mut child = *n.pos;
            child.play(mv);
            let c = classify(&child, n.beta, self.sums);
            if let Some(r) = c.cut {
                if !cuts_off(red, r, n.beta) {
                    *v = better(red, *v, r);
                    continue;
                }
                if n.pos.empty_count() >= self.tt_empty {
                    self.store_cutoff(n, r, mv.index() as u16 + 1);
                }
                let k = &mut self.killers[n.ply];
                if k[0] != Some(mv) {
                    k[1] = k[0];
                    k[0] = Some(mv);
                }
                self.classes[n.ply] = classes;
                return Some((r, mv));
            }
            let key = key + self.margin_weight * self.margin(n.pos, &c);
            if self.stone_dominance {
                let (good, bad) = c.of_mover(n.pos.mover());
                if kept_cell != Some(mv.cell) {
                    kept_cell = Some(mv.cell);
                    nk = 0;
                }
                let open = NEIGHBOURS[mv.cell.index()] & child.empty();
                if let Some(&(_, _, at)) = kept[..nk]
                    .iter()
                    .find(|&&(v, g, _)| dominated_stone(open, v, g, mv.value, bad))
                {
                    *pruned = true;
                    buf[at].0 = buf[at].0.max(key);
                    continue;
                }
                kept[nk] = (mv.value, good, j);
                nk += 1;
            }
            buf[j] = (key, mv, classes.len() as u16);
            classes.push(c);
            j += 1;
        }
        buf.truncate(j);
        self.classes[n.ply] = classes;
        None
    }

    /// The static answer after a killer move of the ply (one of the last two moves after
    /// which the look-ahead's static bounds answered at this ply), if one is legal here and
    /// they answer for the mover again. Any legal move gives a sound bound. Not stored:
    /// classifying one child is cheaper than the table's cache miss.
    #[inline]
    pub(super) fn killer_cutoff(&self, pos: &Position, beta: i16, ply: usize) -> Option<i16> {
        let mover = pos.mover();
        self.killers[ply].iter().flatten().find_map(|&mv| {
            if !playable(pos, mv) {
                return None;
            }
            let mut child = *pos;
            child.play(mv);
            let r = classify(&child, beta, self.sums).cut?;
            cuts_off(mover == RED, r, beta).then_some(r)
        })
    }

    /// A child's sure cells good for the mover of `pos` minus those bad for it (`c` the
    /// child's classes).
    #[inline]
    fn margin(&self, pos: &Position, c: &Classes) -> i32 {
        let (good, bad) = c.of_mover(pos.mover());
        good.count_ones() as i32 - bad.count_ones() as i32
    }

    /// Fills `out` with the moves of `question_moves`, each with its ordering key (best first
    /// once sorted by it: fills of cells bad for the mover, valuable stones next to undecided
    /// cells, plus the history), and says whether a move was left out that is only dominated
    /// for this question (then a failing node's value is only known to be on its side of
    /// `beta`). The table's move `hint` (as `index + 1`, 0: none) is left out: the caller
    /// tried it. The list is not sorted; the keys say the order.
    pub(super) fn moves(
        &self,
        pos: &Position,
        cls: &Classes,
        hint: u16,
        out: &mut Vec<(i32, Move, u16)>,
    ) -> bool {
        out.clear();
        let history = &self.history[pos.mover()];
        question_moves(pos, cls, self.twins, |mv, score| {
            let idx = mv.index();
            if idx as u16 + 1 != hint {
                out.push((score + (history[idx] as i32).min(1 << 20), mv, NO_CLASSES));
            }
        })
    }
}

/// Whether, for the question of a null window, the mover's stone `w` on a cell is dominated
/// by its smaller stone `v` on the same cell: `open` are the cell's empty neighbours, `good_v`
/// the cells sure for the mover after `v`, `bad_w` the cells sure against it after `w`.
///
/// It is when each empty neighbour is sure for the mover after the small stone or sure
/// against it even after the big one. Then after `v` the mover can answer every line played
/// after `w` with the same moves, `w` in place of `v` (it holds `w` instead of `v`), and ends
/// at least as well: a hole off the cell's neighbours gets the same stones or, next to
/// where `w` went, more of the mover's; a hole among them was either sure for the mover after
/// `v`, or sure against it after `w` (that line is lost anyway).
#[inline]
fn dominated_stone(open: u64, v: u8, good_v: u64, w: u8, bad_w: u64) -> bool {
    v < w && open & !(good_v | bad_w) == 0
}

/// Brings the next move to try to position `k` of `buf`: the best of the rest by selection
/// for the first [`SELECT_FIRST`] moves (most cutoffs come from them), after that the rest
/// sorted once.
#[inline]
pub(super) fn order_next(buf: &mut [(i32, Move, u16)], k: usize) {
    if k < SELECT_FIRST {
        let mut m = k;
        for j in k + 1..buf.len() {
            if buf[j].0 > buf[m].0 {
                m = j;
            }
        }
        buf.swap(k, m);
    } else if k == SELECT_FIRST {
        buf[k..].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
    }
}

/// Passes to `push` the moves to try for the question "does Red reach `beta`?" (the classes
/// `cls` of [`classify`] for that `beta`), each with an ordering score, and says whether a move
/// was left out that is only dominated for this question.
///
/// Call an empty cell *sure* for `beta` when its static interval (see `static_bounds`)
/// lies on one side of `beta`: whatever happens, if it ends as the hole, Red's reaching
/// `beta` is decided. For the question, a sure cell is only *good* or *bad*, and the values
/// of stones next to it do not matter. So:
///
/// * A cell is *settled* when it is sure and all its empty neighbours are sure (a dead
///   cell is settled for every `beta`). A stone on it changes no undecided cell, and no
///   stone elsewhere changes its class: settled cells of one class are interchangeable,
///   and the mover would rather fill a settled cell of its bad class than of its good one
///   (swap the two cells in any continuation). One settled-cell move is kept: the mover's
///   worst settled cell by class, then by static value (among dead cells alone this is the
///   value-sense rule of [`crate::rules::reasonable_moves`], sound for every `beta`).
/// * A stone on a cell whose empty neighbours are all sure changes nothing but the
///   mover's hand, and a hand with more valuable stones is never worse (each red stone
///   only adds to the deltas, each blue one only subtracts): only the least valuable stone
///   is tried there.
#[inline]
fn question_moves(
    pos: &Position,
    cls: &Classes,
    twins: bool,
    mut push: impl FnMut(Move, i32),
) -> bool {
    let empty = pos.empty();
    let mover = pos.mover();
    let red = mover == RED;
    let sign: i32 = if red { 1 } else { -1 };
    let sure = cls.good | cls.bad;
    let good = cls.good;
    let unsure = empty & !sure;
    let mut settled = 0u64;
    for c in cells_of(sure) {
        if NEIGHBOURS[c.index()] & unsure == 0 {
            settled |= 1 << c.index();
        }
    }
    let lowest = pos.lowest_stone(mover);
    let hand = pos.stones_left_mask(mover);
    let several = hand.count_ones() > 1;
    let mut pruned = false;
    if settled != 0 {
        let bad = if red { settled & !good } else { settled & good };
        let pool = if bad != 0 { bad } else { settled };
        let mut pick = None;
        let mut worst = i32::MAX;
        for c in cells_of(pool) {
            let d = sign * i32::from(pos.delta(c));
            if d < worst {
                worst = d;
                pick = Some(c);
            }
        }
        if let Some(c) = pick {
            push(Move::new(c, lowest), 1 << 16);
        }
        let dead = pos.dead_cells();
        if settled & !dead != 0 {
            pruned = true;
        }
    }
    let live = empty & !settled;
    let skipped = if twins {
        worse_twins(pos, live, sign)
    } else {
        0
    };
    for c in cells_of(live & !skipped) {
        let i = c.index();
        let open = NEIGHBOURS[i] & unsure;
        let d = sign * i32::from(pos.delta(c));
        // A fill of a cell that is bad for the mover.
        let fill = (-d).max(0) * 64;
        if open == 0 {
            push(Move::new(c, lowest), fill);
            pruned |= several;
            continue;
        }
        let e = open.count_ones() as i32;
        let mut s = hand;
        while s != 0 {
            let v = s.trailing_zeros() as u8;
            s &= s - 1;
            let score = if v == lowest {
                fill + 16 * e
            } else {
                16 * e * i32::from(v)
            };
            push(Move::new(c, v), score);
        }
    }
    pruned
}

/// The moves worth trying when the question is "does `player` reach `alpha`?": the legal
/// moves pruned as the exact solver prunes them for that question (`question_moves`, less the
/// twin-cell rule; sound: a best move for the question is among them). When the static bounds
/// already decide the question, the value-sense pruning of [`crate::rules::reasonable_moves`].
pub fn target_moves(pos: &Position, player: usize, alpha: i16, out: &mut Vec<Move>) {
    out.clear();
    if pos.is_over() {
        return;
    }
    let beta = red_beta(player, alpha);
    let cls = classify(pos, beta, hand_sums());
    if cls.cut.is_some() {
        crate::rules::reasonable_moves(pos, out);
        return;
    }
    // Without the twin-cell rule: the player's strength is measured with these moves (the
    // rule is sound here too; its effect on play is not measured).
    question_moves(pos, &cls, false, |mv, _| out.push(mv));
}

/// Whether empty cells `c` and `d` are *twins*: the same empty neighbours apart from each
/// other (adjacent or not).
#[inline]
fn are_twins(empty: u64, c: usize, d: usize) -> bool {
    let (bc, bd) = (1u64 << c, 1u64 << d);
    NEIGHBOURS[c] & empty & !bd == NEIGHBOURS[d] & empty & !bc
}

/// The cells of `cands` that have a twin in `cands` better to fill for the mover (`sign`: 1
/// for Red, -1 for Blue): a move on them is dominated by the same stone on that twin.
///
/// The same stone on either of two twins leaves positions that differ only in which of the
/// two stays empty: every other empty cell gets the same stone as a neighbour (or not), and
/// the one left has the same empty neighbours either way, with its own delta (plus the
/// stone when they are adjacent). The final score only grows with a cell's delta, so Red
/// fills the twin with the lower delta and leaves the other, Blue the reverse. This is the
/// paper's rule for two cells adjacent only to each other, for any pair of twins, and it
/// holds for the exact value (not only for one question). Ties go to the lower index, so of
/// each class of twins (an equivalence) exactly one cell is kept.
#[inline]
fn worse_twins(pos: &Position, cands: u64, sign: i32) -> u64 {
    let empty = pos.empty();
    let rank = |c: usize| (sign * i32::from(pos.delta(Cell(c as u8))), c);
    let mut skipped = 0u64;
    let mut rest = cands;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut others = rest;
        while others != 0 {
            let d = others.trailing_zeros() as usize;
            others &= others - 1;
            if are_twins(empty, c, d) {
                skipped |= if rank(d) < rank(c) { 1 << c } else { 1 << d };
            }
        }
    }
    skipped
}

#[cfg(test)]
mod tests {
    use super::super::reference::{
        brute_force, ending, reaches, same_exact_values, same_win_answers, value_after,
    };
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn the_target_moves_keep_a_best_move_for_the_question(
            seed in any::<u64>(),
            empty in 2u32..=6,
            player in 0usize..2,
            offset in -2i16..=2,
        ) {
            let p = ending(seed, empty);
            // Targets next to the exact score, where the question is hard.
            let exact = brute_force(&p);
            let alpha = (if player == RED { exact } else { 150 - exact }) + offset;
            let reaches = |q: &Position| {
                let exact = brute_force(q);
                (if player == RED { exact } else { 150 - exact }) >= alpha
            };
            // The mover's goal: `player` reaching alpha if it is `player`, else missing it.
            let goal = p.mover() == player;
            let mut legal = Vec::new();
            p.legal_moves(&mut legal);
            let mut pruned = Vec::new();
            target_moves(&p, player, alpha, &mut pruned);
            prop_assert!(!pruned.is_empty());
            prop_assert!(pruned.iter().all(|m| legal.contains(m)));
            let achieves = |mv: &Move| {
                let mut c = p;
                c.play(*mv);
                reaches(&c) == goal
            };
            prop_assert_eq!(
                legal.iter().any(achieves),
                pruned.iter().any(achieves),
                "{:?}", p
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(80))]
        #[test]
        fn a_skipped_twin_is_never_better_than_its_kept_twin(
            seed in any::<u64>(),
            empty in 3u32..=7,
        ) {
            let p = ending(seed, empty);
            let red = p.mover() == RED;
            let sign = if red { 1 } else { -1 };
            let skipped = worse_twins(&p, p.empty(), sign);
            for c in cells_of(skipped) {
                // Its kept twin: the best-ranked cell of its class.
                let kept = cells_of(p.empty() & !skipped)
                    .find(|d| are_twins(p.empty(), c.index(), d.index()))
                    .expect("a skipped cell has a kept twin");
                let mut hand = p.stones_left_mask(p.mover());
                while hand != 0 {
                    let v = hand.trailing_zeros() as u8;
                    hand &= hand - 1;
                    let there = value_after(&p, Move::new(c, v));
                    let here = value_after(&p, Move::new(kept, v));
                    prop_assert!(if red { here >= there } else { here <= there }, "{:?}", p);
                }
            }
        }
    }

    /// A solver without the twin-cell rule: the reference the rule is checked against.
    fn without_twins() -> Solver {
        let mut s = Solver::new();
        s.twins = false;
        s
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn a_dominated_stone_never_reaches_what_its_smaller_stone_misses(
            seed in any::<u64>(),
            empty in 4u32..=7,
            offset in -3i16..=3,
        ) {
            // Every pair of the mover's stones on every cell, for a question near the value.
            let p = ending(seed, empty);
            let mover = p.mover();
            let red = mover == RED;
            let alpha = if red { brute_force(&p) } else { 150 - brute_force(&p) } + offset;
            let beta = red_beta(mover, alpha);
            let sure_after = |mv: Move| {
                let mut child = p;
                child.play(mv);
                let (good, bad) = classify(&child, beta, hand_sums()).of_mover(mover);
                (child, good, bad)
            };
            let hand: Vec<u8> = (1..=15).filter(|&v| p.has_stone(mover, v)).collect();
            for cell in cells_of(p.empty()) {
                for &v in &hand {
                    let (after_v, good_v, _) = sure_after(Move::new(cell, v));
                    let open = NEIGHBOURS[cell.index()] & after_v.empty();
                    for &w in hand.iter().filter(|&&w| w > v) {
                        let (after_w, _, bad_w) = sure_after(Move::new(cell, w));
                        if dominated_stone(open, v, good_v, w, bad_w) {
                            prop_assert!(
                                !reaches(&after_w, mover, alpha) || reaches(&after_v, mover, alpha),
                                "{:?}: {} beats {} on {:?} for {}", p, w, v, cell, alpha
                            );
                        }
                    }
                }
            }
        }
    }

    /// A solver without the stone dominance of the look-ahead.
    fn without_stone_dominance() -> Solver {
        let mut s = Solver::new();
        s.stone_dominance = false;
        s
    }

    #[test]
    fn the_stone_dominance_keeps_the_exact_value_on_ten_to_twelve_empty_cells() {
        // It did cut something, so the comparison tests it.
        assert!(same_exact_values(
            Solver::new(),
            without_stone_dominance(),
            6000
        ));
    }

    #[test]
    fn the_stone_dominance_keeps_the_win_answer_on_twelve_to_fourteen_empty_cells() {
        same_win_answers(Solver::new(), without_stone_dominance(), 7000);
    }

    #[test]
    fn the_twin_rule_keeps_the_exact_value_on_ten_to_twelve_empty_cells() {
        // The rule did cut something, so the comparison tests it.
        assert!(same_exact_values(Solver::new(), without_twins(), 4000));
    }

    #[test]
    fn the_twin_rule_keeps_the_win_answer_on_twelve_to_fourteen_empty_cells() {
        same_win_answers(Solver::new(), without_twins(), 5000);
    }

    #[test]
    fn the_static_look_ahead_keeps_the_exact_value_on_ten_to_twelve_empty_cells() {
        let mut with = Solver::new();
        let mut without = Solver::new();
        without.look_ahead_empty = 99;
        without.margin_weight = 0;
        let mut cut_some = false;
        for seed in 0..12 {
            let p = ending(6000 + seed, 10 + (seed % 3) as u32);
            with.clear();
            without.clear();
            let a = with.solve(&p, None).unwrap();
            let b = without.solve(&p, None).unwrap();
            assert_eq!(a.red_score, b.red_score, "{p:?}");
            let mut child = p;
            child.try_play(a.best).unwrap();
            without.clear();
            assert_eq!(without.solve(&child, None).unwrap().red_score, b.red_score);
            cut_some |= a.nodes < b.nodes;
        }
        assert!(cut_some);
    }
}
