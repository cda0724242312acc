//! The exact end-game solver: the minimax value of Red's score.
//!
//! Fail-soft null-window searches "does Red reach at least `beta`?" narrow an interval
//! `lo..=hi` of Red's score until it closes (bisection of the interval, which every fail-soft
//! answer can shrink by more than half). Around that:
//!
//! * **Static bounds** at every node (`static_bounds`): a score interval from the empty
//!   cells alone, which contains the dead-cell declarations and is exact when every empty cell
//!   is dead. For a null window (`classify`), also the **forced fills** (`forced_fills`):
//!   when the opponent has barely enough stones to fill the side's sure cells, it must fill
//!   them, and the side picks the hole among the rest.
//! * **An abstract transposition key**: the rest of the game depends only on the empty cells,
//!   each one's delta (adjacent red minus blue stones) and the stones in each hand, so the key
//!   hashes exactly that (stones that touch no empty cell are forgotten). Updated per move from
//!   the moved cell and its empty neighbours. For a null window, a cell already sure for it
//!   is filed by its side of `beta`, not its delta (`Solver::table_key`): positions that
//!   differ only there share one entry, which holds only their common answer.
//! * **Pruning, sound for the question asked** (see `Solver::moves`): the value-sense rules of
//!   [`crate::rules::reasonable_moves`] and, for a given `beta`, cells whose fate is already
//!   decided ("sure" cells) are treated as dead; of two *twin* cells (the same empty
//!   neighbours apart from each other) only the one the mover would rather fill
//!   (`worse_twins`, the paper's rule for a pair of cells adjacent only to each other).
//! * **A static look-ahead** from 4 empty cells: a move after which the static bounds answer
//!   for the mover answers for the node; the children's margins order the moves (at the root
//!   too). The same look-ahead drops a stone that a smaller one on the same cell dominates
//!   for the question (`dominated_stone`). The table is only used from 5 empty cells on; it is
//!   not probed for the children (enhanced transposition cutoffs: a cache miss per child
//!   made the search about twice as slow for about 5% fewer nodes, see `docs/blackhole.md`).
//! * **Move ordering**: the table's move (tried before any move is generated), then fills of
//!   cells that are bad for the mover and valuable stones next to undecided cells, with a
//!   history bonus; the first three by selection, the rest sorted only if no cutoff came.
//! * **Cell relaxation** (`Solver::relaxed_cell`): where the first move did not cut off, the
//!   mover's stones on one cell are searched as one position, the biggest stone on the cell
//!   and the smallest paid from the hand, which is at least as good for the mover as each of
//!   them. When even that fails, every stone on the cell fails: one search instead of one per
//!   stone, at the nodes where every move must be refuted. A relaxation that runs past a
//!   budget (64 times the node's first move) is given up: one that does not answer can cost
//!   far more than the stones it stands for.
//! * Three empty cells (the last three plies) are evaluated directly.
//!
//! It checks the clock every 1024 nodes and gives up at its deadline.
//!
//! The parts: `bounds` (the static bounds, the cell classes of a null window, the forced
//! fills and the static verdicts), `table` (the abstract key and the transposition table),
//! `moves` (the moves a node tries: the pruning for the question, the ordering and the static
//! look-ahead) and `search` (the pass at the root, a node's stages, the cell relaxation and
//! the last three empty cells); this module holds the solver's state and its questions.

mod bounds;
mod moves;
#[cfg(test)]
mod reference;
mod search;
mod table;

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::CELLS;
use crate::rules::{DRAW_SCORE, MOVE_BOUND, Move, Position, RED};
use bounds::{Classes, HandSums, hand_sums, static_bounds};
pub use bounds::{static_score_bounds, static_verdict, static_verdicts};
pub use moves::target_moves;
#[cfg(test)]
pub use reference::{alpha_beta, brute_force};
use table::{DELTA_SLOTS, Entry, TABLE_BITS};

/// Nodes with fewer empty cells neither probe nor fill the table: at four empty cells the
/// subtree is a few dozen leaves, cheaper to search than a cache miss, and their entries
/// evicted the bigger ones (measured: fewer nodes and less time at 14 empty cells).
const TT_EMPTY: u32 = 5;

/// Nodes with at least this many empty cells look one ply ahead for a move after which the
/// static bounds answer the question (`look_ahead`); measured at 12-14 empty cells: fewer
/// nodes than from 5 or 6 on, and no slower.
const LOOK_AHEAD_EMPTY: u32 = 4;

/// The ordering weight of a child's margin: its sure cells good for the mover minus those bad
/// for it, found by the look-ahead of `look_ahead` (fastest first: the moves closest to a
/// static answer). Above the fills and stone values (at most a few thousand), below a strong
/// history (up to 2^20); 256 and 4096 gave more nodes at 12 empty cells, 2^20 and 2^24
/// about the same.
const MARGIN_WEIGHT: i32 = 1 << 16;

/// A relaxation (`Solver::relaxed_cell`) may search at most this many times the nodes of its
/// node's first move, plus `RELAX_FLOOR`; past that it is given up and the cell's stones are
/// searched one by one. One that does not answer (the mover reaches the question in the
/// relaxed position) can cost thousands of times what the real stones cost: in the hardest of
/// 40 recorded endings of 19 empty cells, 8.3 million of its 11.6 million nodes went to one
/// relaxation at the root, whose eleven stones then took about 2,000 nodes each. Measured on
/// those 40 endings (the win question): 32, 64 and 128 took 9.4, 10.3 and 10.9 million nodes
/// in all against 19.4 million without a budget, the same median.
const RELAX_FACTOR: u64 = 64;

/// See `RELAX_FACTOR`.
const RELAX_FLOOR: u64 = 10_000;

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move for the player to move.
    pub best: Move,
    /// Red's final score under best play.
    pub red_score: i16,
    /// Nodes searched.
    pub nodes: u64,
    /// Null-window passes at the root.
    pub passes: u32,
}

/// What a solve proved before it finished or gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Red's score is at least this.
    pub lo: i16,
    /// Red's score is at most this.
    pub hi: i16,
    /// A move proven to keep the mover's bound (`lo` for Red, `hi` for Blue), if a pass
    /// found one.
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Null-window passes at the root.
    pub passes: u32,
}

/// An exact Blackhole end-game solver with a transposition table (64 MiB).
pub struct Solver {
    table: Vec<Entry>,
    z_cell: Vec<[u64; DELTA_SLOTS]>,
    z_hand: [[u64; 16]; 2],
    /// Per cell, the key of a sure cell good (1) or bad (0) for Red, in place of its delta.
    z_sure: Vec<[u64; 2]>,
    /// Whether the table files nodes with sure cells under the question (`table_key`; off
    /// only to measure it).
    collapse_sure: bool,
    history: Vec<[u32; MOVE_BOUND]>,
    /// Per ply, the moves with their ordering keys and their child's slot in `classes`
    /// (`NO_CLASSES`: not classified).
    buffers: Vec<Vec<(i32, Move, u16)>>,
    /// Per ply, the classes of the children the look-ahead classified (searching them
    /// does not classify them again).
    classes: Vec<Vec<Classes>>,
    /// Per ply, the last two moves after which the look-ahead's static bounds answered for
    /// the mover, the newest first (tried before anything else: `killer_cutoff`).
    killers: Vec<[Option<Move>; 2]>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    age: u8,
    tt_empty: u32,
    /// Whether the twin-cell rule (`worse_twins`) prunes moves (off only to test it).
    twins: bool,
    /// Whether the look-ahead drops stones dominated by a smaller one on the same cell
    /// (`dominated_stone`; off only to test it).
    stone_dominance: bool,
    /// Nodes with at least this many empty cells look for a static cutoff one ply ahead.
    look_ahead_empty: u32,
    /// The ordering weight of a child's margin (see [`MARGIN_WEIGHT`]).
    margin_weight: i32,
    /// Whether a failing node searches each cell's stones as one first (`relaxed_cell`; off
    /// only to measure it).
    relax: bool,
    /// A relaxation's budget: at most `.0` times the nodes of its node's first move plus `.1`
    /// (`RELAX_FACTOR`, `RELAX_FLOOR`; changed only to test it).
    relax_budget: (u64, u64),
    /// The search gives up, as at its deadline, once `nodes` reaches this (a relaxation's
    /// budget, `budgeted_relaxation`).
    node_limit: u64,
    /// Each solve or question gives up after this many nodes, as at its deadline
    /// (`set_node_limit`).
    max_nodes: u64,
    sums: &'static [HandSums],
}

impl Default for Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Self {
        let mut rng = Pcg64Mcg::seed_from_u64(0x0b1a_c400_1e5e_ed00);
        let z_cell = (0..CELLS)
            .map(|_| {
                let mut z = [0u64; DELTA_SLOTS];
                for k in &mut z {
                    *k = rng.next_u64();
                }
                z
            })
            .collect();
        let mut z_hand = [[0u64; 16]; 2];
        for h in &mut z_hand {
            for k in h.iter_mut() {
                *k = rng.next_u64();
            }
        }
        let z_sure = (0..CELLS)
            .map(|_| [rng.next_u64(), rng.next_u64()])
            .collect();
        Solver {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            z_cell,
            z_hand,
            z_sure,
            collapse_sure: true,
            history: vec![[0; MOVE_BOUND]; 2],
            buffers: (0..40).map(|_| Vec::with_capacity(512)).collect(),
            classes: (0..40).map(|_| Vec::with_capacity(512)).collect(),
            killers: vec![[None; 2]; 40],
            nodes: 0,
            deadline: None,
            aborted: false,
            age: 0,
            tt_empty: TT_EMPTY,
            twins: true,
            stone_dominance: true,
            look_ahead_empty: LOOK_AHEAD_EMPTY,
            margin_weight: MARGIN_WEIGHT,
            relax: true,
            relax_budget: (RELAX_FACTOR, RELAX_FLOOR),
            node_limit: u64::MAX,
            max_nodes: u64::MAX,
            sums: hand_sums(),
        }
    }

    /// Makes each later solve or question give up after `nodes` nodes, as it does at its
    /// deadline (`None`: no limit). A node limit cuts a search short at the same place on
    /// every machine, where a deadline does not.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.max_nodes = nodes.unwrap_or(u64::MAX);
    }

    /// Empties the transposition table, the history and the killer moves.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.killers.fill([None; 2]);
        for h in &mut self.history {
            h.fill(0);
        }
    }

    /// Solves `pos` exactly, or gives up at `deadline` (`None`: no limit) and returns `None`.
    /// The game must not be over.
    pub fn solve(&mut self, pos: &Position, deadline: Option<Instant>) -> Option<Solution> {
        self.solve_from(pos, deadline, None)
    }

    /// As [`Solver::solve`], with a first guess of Red's score (the first null window is
    /// placed there).
    pub fn solve_from(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        guess: Option<i16>,
    ) -> Option<Solution> {
        let b = self.bounds(pos, deadline, guess)?;
        (b.lo == b.hi).then_some(Solution {
            best: b.best?,
            red_score: b.lo,
            nodes: b.nodes,
            passes: b.passes,
        })
    }

    /// Starts a solve or a question: its deadline, a new age for the table's entries, and the
    /// history decayed (divided by four).
    fn begin(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.aborted = false;
        self.nodes = 0;
        self.node_limit = self.max_nodes;
        self.age = self.age.wrapping_add(1);
        for h in &mut self.history {
            for x in h.iter_mut() {
                *x >>= 2;
            }
        }
    }

    /// Narrows Red's score until it is exact or the deadline passes; the first null window is
    /// at `first` (e.g. a guess, or the mover's winning score), then the windows approach
    /// from the side the first answer gave for two more passes, then bisect. `None` if the
    /// game is over.
    pub fn bounds(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        first: Option<i16>,
    ) -> Option<Bounds> {
        if pos.is_over() {
            return None;
        }
        self.begin(deadline);
        let key = self.key_of(pos);
        let a = static_bounds(pos);
        let (mut lo, mut hi) = (a.lo, a.hi);
        if let Some(e) = self.probe(key) {
            lo = lo.max(e.lo);
            hi = hi.min(e.hi);
        }
        let red = pos.mover() == RED;
        let mut best = None;
        let mut passes = 0;
        let mut beta = match first {
            Some(g) => g.clamp(lo + 1, hi.max(lo + 1)),
            None => (lo + hi + 1) / 2,
        };
        while lo < hi {
            let (v, mv) = self.root(pos, key, beta);
            passes += 1;
            if self.aborted {
                break;
            }
            let high = v >= beta;
            if high {
                lo = v;
                if red {
                    best = mv;
                }
            } else {
                hi = v;
                if !red {
                    best = mv;
                }
            }
            beta = if first.is_some() && passes < 3 {
                if high { lo + 1 } else { hi }
            } else {
                (lo + hi + 1) / 2
            };
            beta = beta.clamp(lo + 1, hi.max(lo + 1));
        }
        if best.is_none() && lo == hi {
            // The bounds closed without a pass that names the move: one more pass, which
            // fails high (Red) or low (Blue) on a move that keeps the value.
            let beta = if red { lo } else { lo + 1 };
            let (_, mv) = self.root(pos, key, beta);
            passes += 1;
            if !self.aborted {
                best = mv;
            }
        }
        Some(Bounds {
            lo,
            hi,
            best,
            nodes: self.nodes,
            passes,
        })
    }

    /// Answers only "does the player to move win?" (one null window: Red reaching 76, or
    /// Blue holding Red to 74): `Some((wins, move))`, with a winning move when it wins, or
    /// `None` when the deadline passed first or the game is over.
    pub fn mover_wins(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Option<(bool, Option<Move>)> {
        self.mover_reaches(pos, DRAW_SCORE + 1, deadline)
    }

    /// Answers "does the player to move score at least `alpha`?" (one null window):
    /// `Some((reaches, move))`, with a move that keeps `alpha` when it reaches it, or `None`
    /// when the deadline passed first or the game is over.
    pub fn mover_reaches(
        &mut self,
        pos: &Position,
        alpha: i16,
        deadline: Option<Instant>,
    ) -> Option<(bool, Option<Move>)> {
        if pos.is_over() {
            return None;
        }
        self.begin(deadline);
        let key = self.key_of(pos);
        let red = pos.mover() == RED;
        // Blue scores `alpha` or more when Red scores 150 - alpha or less.
        let beta = if red { alpha } else { 151 - alpha };
        let (v, mv) = self.root(pos, key, beta);
        if self.aborted {
            return None;
        }
        let reaches = if red { v >= beta } else { v < beta };
        Some((reaches, mv))
    }

    /// Answers "does `mv` keep the score for its mover?", where Red's exact score in `pos`
    /// is `red_value`: Red still reaching `red_value` after a move of Red's, or still held
    /// to it after a move of Blue's (one null window). `None` when the deadline passed first.
    pub fn move_keeps(
        &mut self,
        pos: &Position,
        mv: Move,
        red_value: i16,
        deadline: Option<Instant>,
    ) -> Option<bool> {
        let red = pos.mover() == RED;
        let mut child = *pos;
        child.play(mv);
        let beta = if red { red_value } else { red_value + 1 };
        let reaches = self.red_reaches(&child, beta, deadline)?;
        Some(reaches == red)
    }

    /// Answers "does Red score at least `beta`?" (one null window), or `None` when the
    /// deadline passed first. A finished game is answered by its score.
    fn red_reaches(
        &mut self,
        pos: &Position,
        beta: i16,
        deadline: Option<Instant>,
    ) -> Option<bool> {
        if let Some(score) = pos.red_score() {
            return Some(score >= beta);
        }
        self.begin(deadline);
        let key = self.key_of(pos);
        let (v, _) = self.root(pos, key, beta);
        (!self.aborted).then_some(v >= beta)
    }

    /// Nodes searched by the last solve or question.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The better of two values of Red's score for the mover (Red when `red`).
#[inline]
fn better(red: bool, a: i16, b: i16) -> i16 {
    if red { a.max(b) } else { a.min(b) }
}

/// Whether the mover's value `v` answers the question "does Red reach `beta`?" in its favour.
#[inline]
fn cuts_off(red: bool, v: i16, beta: i16) -> bool {
    if red { v >= beta } else { v < beta }
}

#[cfg(test)]
mod tests {
    use super::reference::{alpha_beta, brute_force, ending, reaches};
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn solver_matches_brute_force_on_small_endings(seed in any::<u64>(), empty in 2u32..=6) {
            let p = ending(seed, empty);
            let mut solver = Solver::new();
            let s = solver.solve(&p, None).unwrap();
            let exact = brute_force(&p);
            prop_assert_eq!(s.red_score, exact, "{:?}", p);
            // The move it gives reaches that value.
            let mut child = p;
            child.try_play(s.best).unwrap();
            prop_assert_eq!(brute_force(&child), exact);
        }

        #[test]
        fn the_win_question_matches_brute_force(seed in any::<u64>(), empty in 2u32..=7) {
            let p = ending(seed, empty);
            let mut solver = Solver::new();
            let (wins, mv) = solver.mover_wins(&p, None).unwrap();
            let exact = brute_force(&p);
            let red = p.mover() == RED;
            let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
            prop_assert_eq!(wins, mine(exact) > DRAW_SCORE, "{:?}", p);
            // A win names a move that keeps it.
            if wins {
                let mut child = p;
                child.try_play(mv.unwrap()).unwrap();
                prop_assert!(mine(brute_force(&child)) > DRAW_SCORE, "{:?}", p);
            }
        }

        #[test]
        fn reaching_a_score_matches_brute_force(
            seed in any::<u64>(),
            empty in 2u32..=6,
            alpha in 68i16..=82,
        ) {
            let p = ending(seed, empty);
            let (answer, mv) = Solver::new().mover_reaches(&p, alpha, None).unwrap();
            prop_assert_eq!(answer, reaches(&p, p.mover(), alpha), "{:?}", p);
            // A score reached names a move that keeps it.
            if answer {
                let mut child = p;
                child.try_play(mv.unwrap()).unwrap();
                prop_assert!(reaches(&child, p.mover(), alpha), "{:?}", p);
            }
        }

        #[test]
        fn a_move_keeps_the_score_as_brute_force_says(seed in any::<u64>(), empty in 2u32..=6) {
            let p = ending(seed, empty);
            let exact = brute_force(&p);
            let mut solver = Solver::new();
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            for mv in moves {
                let mut child = p;
                child.play(mv);
                let keeps = solver.move_keeps(&p, mv, exact, None);
                prop_assert_eq!(keeps, Some(brute_force(&child) == exact), "{:?} {:?}", p, mv);
            }
        }
    }

    #[test]
    fn every_table_depth_and_look_ahead_depth_gives_the_exact_value() {
        // The table and the look-ahead from the smallest nodes on, and neither, against plain
        // minimax.
        for (look, tt) in [(4, 4), (5, 4), (99, 99), (6, 6)] {
            let mut solver = Solver::new();
            solver.tt_empty = tt;
            solver.look_ahead_empty = look;
            for seed in 0..4 {
                let p = ending(3000 + seed, 6 + (seed as u32 % 2));
                let s = solver.solve(&p, None).unwrap();
                let exact = brute_force(&p);
                assert_eq!(s.red_score, exact, "{p:?} look {look} tt {tt}");
                let mut child = p;
                child.try_play(s.best).unwrap();
                assert_eq!(brute_force(&child), exact, "{p:?} look {look} tt {tt}");
            }
        }
    }

    #[test]
    fn solver_agrees_with_brute_force_on_seven_empty_cells() {
        let mut solver = Solver::new();
        for seed in 0..3 {
            let p = ending(1000 + seed, 7);
            let s = solver.solve(&p, None).unwrap();
            assert_eq!(s.red_score, brute_force(&p), "{p:?}");
        }
    }

    #[test]
    fn solver_agrees_with_alpha_beta_on_eight_and_nine_empty_cells() {
        let mut solver = Solver::new();
        for (seed, empty) in [(2000, 8), (2001, 8), (2002, 9), (2003, 9)] {
            let p = ending(seed, empty);
            let s = solver.solve(&p, None).unwrap();
            let exact = alpha_beta(&p, i16::MIN, i16::MAX);
            assert_eq!(s.red_score, exact, "{p:?}");
            let mut child = p;
            child.try_play(s.best).unwrap();
            assert_eq!(alpha_beta(&child, i16::MIN, i16::MAX), exact, "{p:?}");
        }
    }

    #[test]
    fn a_guess_does_not_change_the_value() {
        let mut solver = Solver::new();
        let p = ending(77, 10);
        let s = solver.solve(&p, None).unwrap();
        for g in [0, 60, s.red_score, 90, 150] {
            solver.clear();
            let t = solver.solve_from(&p, None, Some(g)).unwrap();
            assert_eq!(t.red_score, s.red_score);
        }
    }

    #[test]
    fn a_draw_is_no_win_for_either_side() {
        // Endings whose exact score is 75 (a draw), with each side to move.
        let mut found = [0; 2];
        for seed in 0..2000 {
            let p = ending(seed, 2 + (seed % 4) as u32);
            if brute_force(&p) != DRAW_SCORE {
                continue;
            }
            let mut solver = Solver::new();
            assert!(!solver.mover_wins(&p, None).unwrap().0, "{p:?}");
            found[p.mover()] += 1;
            if found.iter().all(|&k| k >= 3) {
                return;
            }
        }
        panic!("too few drawn endings: {found:?}");
    }

    #[test]
    fn the_win_question_agrees_with_alpha_beta_on_nine_empty_cells() {
        let mut solver = Solver::new();
        let (mut won, mut lost) = (0, 0);
        for seed in 3000..3008 {
            let p = ending(seed, 9);
            let (wins, mv) = solver.mover_wins(&p, None).unwrap();
            let red = p.mover() == RED;
            let mine = |red_score: i16| if red { red_score } else { 150 - red_score };
            let exact = alpha_beta(&p, i16::MIN, i16::MAX);
            assert_eq!(wins, mine(exact) > DRAW_SCORE, "{p:?}");
            if wins {
                won += 1;
                let mut child = p;
                child.try_play(mv.unwrap()).unwrap();
                assert!(mine(alpha_beta(&child, i16::MIN, i16::MAX)) > DRAW_SCORE);
            } else {
                lost += 1;
            }
        }
        // Both answers occur among these endings, so both are checked.
        assert!(won > 0 && lost > 0, "{won} won, {lost} lost");
    }

    #[test]
    fn an_expired_deadline_gives_up() {
        let p = ending(5, 25);
        let mut solver = Solver::new();
        let past = Instant::now();
        assert_eq!(solver.solve(&p, Some(past)), None);
        assert_eq!(solver.mover_wins(&p, Some(past)), None);
    }
}
