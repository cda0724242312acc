//! The exact end-game solver: the minimax value of Red's score.
//!
//! Why one file of about 2,250 lines: the null-window search, its transposition table, move
//! ordering and the static bounds share the private `Solver` state and cell classes described
//! below; about 600 lines are tests that check the search against brute force and plain
//! alpha-beta.
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

use std::ops::ControlFlow;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::board::{CELLS, Cell, NEIGHBOURS, cells_of};
use crate::rules::{DRAW_SCORE, MOVE_BOUND, Move, Position, RED};

/// Moves picked one by one (selection) before the rest of a node's list is sorted: most
/// cutoffs come from the first moves.
const SELECT_FIRST: usize = 3;
/// A move's slot in `Solver::classes` when its child was not classified.
const NO_CLASSES: u16 = u16::MAX;
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
/// A node searches a cell's stones as one (`Solver::relaxed_cell`) from its move at this
/// index on (the second): in a node that cuts off the first move mostly does, and the relaxed
/// search, which cannot cut off, would be wasted. Measured on 40 recorded endings each of 16,
/// 17 and 18 empty cells: from the first move 25%, 144% and 31% more nodes than from the
/// second; from the third 3% more, 10% fewer and 31% more.
const RELAX_FROM: usize = 1;
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
/// Entries in the transposition table: 2^22 of 16 bytes, 64 MiB.
const TABLE_BITS: u32 = 22;
/// The most stones to spare for which `classify` tries the forced fills (`forced_fills`): at
/// 15-17 empty cells 1 took 11-15% fewer nodes than 0 (geometric mean by ending, with one
/// round of candidates), 2 about 1% fewer than 1.
const MAX_SPARE: usize = 1;
/// Deltas lie in -75..=75 (six neighbours of at most 15 + 14 + ... + 10).
const DELTA_OFFSET: i16 = 96;
const DELTA_SLOTS: usize = 192;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Red's exact score is in `lo..=hi` (valid when `key` matches).
    lo: i16,
    hi: i16,
    /// The move that decided the last search here, as `index + 1` (0: none).
    best: u16,
    /// Empty cells of the position (how much work it stands for).
    empty: u8,
    /// The solve that last wrote it.
    age: u8,
}

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

/// The static bounds on Red's score.
struct Analysis {
    lo: i16,
    hi: i16,
}

/// The sums of the `k` most valuable stones of a hand, `k = 0..=6`.
#[inline]
fn top_sums(mask: u16) -> [i16; 7] {
    partial_sums(mask, |m| {
        let v = 15 - m.leading_zeros() as i16;
        *m &= !(1u16 << v);
        v
    })
}

/// The sums of the `k` least valuable stones of a hand, `k = 0..=6` (as far as it holds
/// them).
#[inline]
fn bottom_sums(mask: u16) -> [i16; 7] {
    partial_sums(mask, |m| {
        let v = m.trailing_zeros() as i16;
        *m &= *m - 1;
        v
    })
}

/// Running sums of up to six stones taken from a hand by `take` (which removes the stone it
/// returns); once the hand is empty the sum stays.
#[inline(always)]
fn partial_sums(mask: u16, mut take: impl FnMut(&mut u16) -> i16) -> [i16; 7] {
    let mut s = [0i16; 7];
    let mut m = mask;
    let mut acc = 0i16;
    for slot in s.iter_mut().skip(1) {
        if m != 0 {
            acc += take(&mut m);
        }
        *slot = acc;
    }
    s
}

/// The score interval of one empty cell with delta `delta` and `k` empty neighbours if it
/// ends as the hole (see `static_bounds`): `red`/`blue` are the [`HandSums`] of each hand,
/// `r`/`b` the stones left.
#[inline]
fn cell_interval(
    delta: i16,
    k: usize,
    r: usize,
    b: usize,
    red: &HandSums,
    blue: &HandSums,
) -> (i16, i16) {
    let [red_top, red_bottom] = red;
    let [blue_top, blue_bottom] = blue;
    let base = DRAW_SCORE + delta;
    let jb = k.min(b);
    let jr = k.min(r);
    (
        base - blue_top[jb] + red_bottom[k - jb],
        base + red_top[jr] - blue_bottom[k - jr],
    )
}

/// Per hand (a stone mask shifted right by one: 2^15 entries), the sums of its `k` most
/// valuable and of its `k` least valuable stones, `k = 0..=6`: two table reads per node
/// instead of four loops.
pub(crate) type HandSums = [[i16; 7]; 2];

/// The table of [`HandSums`], built once and shared (for the searches' static verdicts).
pub(crate) fn hand_sums() -> &'static [HandSums] {
    static SUMS: std::sync::LazyLock<Vec<HandSums>> = std::sync::LazyLock::new(hand_sums_table);
    &SUMS
}

/// Whether `player` reaches `alpha`, when the static bounds of `static_bounds` already
/// decide it (`None`: they do not). Contains [`crate::rules::declared`], and is exact once
/// the game is over or every empty cell is dead.
pub fn static_verdict(pos: &Position, player: usize, alpha: i16) -> Option<bool> {
    let [v] = static_verdicts(pos, player, [alpha]);
    v
}

/// [`static_verdict`] for several targets of one player at once (cheaper than one by one).
pub fn static_verdicts<const N: usize>(
    pos: &Position,
    player: usize,
    alphas: [i16; N],
) -> [Option<bool>; N] {
    if pos.is_over() {
        return alphas.map(|alpha| pos.score(player).map(|s| s >= alpha));
    }
    let betas = alphas.map(|alpha| red_beta(player, alpha));
    let classes = classify_each(pos, betas, hand_sums());
    std::array::from_fn(|j| classes[j].cut.map(|v| (v >= betas[j]) == (player == RED)))
}

/// Red's final score lies in `lo..=hi` (the static bounds of `static_bounds`).
pub fn static_score_bounds(pos: &Position) -> (i16, i16) {
    let a = static_bounds(pos);
    (a.lo, a.hi)
}

/// The `beta` of the question "does Red reach `beta`?" that answers "does `player` reach
/// `alpha`?": `alpha` itself for Red; for Blue, whose score is 150 minus Red's, reaching
/// `alpha` is Red missing `151 - alpha`.
fn red_beta(player: usize, alpha: i16) -> i16 {
    if player == RED { alpha } else { 151 - alpha }
}

fn hand_sums_table() -> Vec<HandSums> {
    (0u32..1 << 15)
        .map(|m| {
            let mask = (m << 1) as u16;
            [top_sums(mask), bottom_sums(mask)]
        })
        .collect()
}

/// Static bounds on Red's final score, from the empty cells only.
///
/// For an empty cell `c` with `k` empty neighbours: if `c` ends as the hole, all `k`
/// neighbours are filled by then (one cell is left empty at the end). Blue fills `j` of them,
/// `j <= min(k, b)` (`b` stones left), lowering the delta by at most the sum of its `j` most
/// valuable stones, and Red fills the other `k - j` with distinct stones, raising it by at
/// least the sum of its `k - j` least valuable ones. That difference falls with `j` (one more
/// blue stone takes at least 1 more, one red stone fewer gives at least 1 less), so Red scores
/// at least `low(c) = 75 + delta - blue_top(min(k, b)) + red_bottom(k - min(k, b))` and
/// symmetrically at most `high(c) = 75 + delta + red_top(min(k, r)) - blue_bottom(k -
/// min(k, r))` (`k <= r + b`: the `k` neighbours and `c` are among the `r + b + 1` empty
/// cells). These per-cell intervals only shrink as the game goes on (a stone played next to
/// `c` is one of those counted).
///
/// *Lower bound*: let `t` be the `(b+1)`-th largest `low(c)`. At least `b + 1` cells are then
/// *sure* for `t` (Red scores at least `t` if one of them ends as the hole, whatever happens).
/// Red never fills one of them while another empty cell exists, and Blue can fill at most `b`
/// of them, so the last empty cell is sure: Red reaches `t`. *Upper bound*: symmetrically the
/// `(r+1)`-th smallest `high(c)`. When every empty cell is dead, `low = high` and the two
/// order statistics coincide (there are `r + b + 1` empty cells): the exact value, in which Red
/// fills the worst cells for it and Blue the best ones. The dead-cell declarations
/// ([`crate::rules::declared`]) are the special case of dead cells.
fn static_bounds(pos: &Position) -> Analysis {
    let empty = pos.empty();
    let r = pos.stones_left(RED) as usize;
    let b = pos.stones_left(1 - RED) as usize;
    let sums = |player| {
        let mask = pos.stones_left_mask(player);
        [top_sums(mask), bottom_sums(mask)]
    };
    let (red, blue) = (sums(RED), sums(1 - RED));
    let mut a = Analysis { lo: 0, hi: 150 };
    let mut lows = [0i16; 32];
    let mut highs = [0i16; 32];
    let mut n = 0;
    let mut e = empty;
    while e != 0 {
        let i = e.trailing_zeros() as usize;
        e &= e - 1;
        let k = (NEIGHBOURS[i] & empty).count_ones() as usize;
        let (lo, hi) = cell_interval(pos.delta(Cell(i as u8)), k, r, b, &red, &blue);
        lows[n] = lo;
        highs[n] = hi;
        n += 1;
    }
    let lows = &mut lows[..n];
    let highs = &mut highs[..n];
    if b < n {
        // The (b+1)-th largest.
        let (_, x, _) = lows.select_nth_unstable_by(b, |x, y| y.cmp(x));
        a.lo = *x;
    }
    if r < n {
        // The (r+1)-th smallest.
        let (_, x, _) = highs.select_nth_unstable(r);
        a.hi = *x;
    }
    a
}

/// The empty cells sorted by what they decide for the question "does Red reach `beta`?",
/// from the per-cell intervals of `static_bounds`, and the static bound's cutoff if it
/// answers the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Classes {
    /// Cells with `low(c) >= beta`: Red reaches `beta` if one ends as the hole.
    good: u64,
    /// Cells with `high(c) < beta`: Red misses `beta` if one ends as the hole.
    bad: u64,
    /// The static bound (fail-soft) when it already answers: `lo >= beta` or `hi < beta`.
    cut: Option<i16>,
}

/// `static_bounds` for one `beta`, cheaper: the order statistics are only needed when they
/// answer the question, and counting decides that. `lo >= beta` iff at least `b + 1` cells
/// have `low(c) >= beta` (the `(b+1)`-th largest `low` is `>= beta` exactly then), and
/// `hi < beta` iff at least `r + 1` cells have `high(c) < beta`; only then is the order
/// statistic selected, among those cells (the `(b+1)`-th largest `low` overall is the
/// `(b+1)`-th largest among the cells at or above `beta` when there are `b + 1` of them).
#[inline]
fn classify(pos: &Position, beta: i16, sums: &[HandSums]) -> Classes {
    let [c] = classify_each(pos, [beta], sums);
    c
}

/// [`classify`] for several `betas` at once: each cell's empty neighbours and delta are read
/// once for all of them (the win-draw-loss search asks two questions of every position).
#[inline]
fn classify_each<const N: usize>(
    pos: &Position,
    betas: [i16; N],
    sums: &[HandSums],
) -> [Classes; N] {
    let t = Thresholds::of(pos, sums);
    let empty = pos.empty();
    let bases = betas.map(|beta| beta - DRAW_SCORE);
    let mut good = [0u64; N];
    let mut bad = [0u64; N];
    let mut e = empty;
    while e != 0 {
        let i = e.trailing_zeros() as usize;
        e &= e - 1;
        let k = (NEIGHBOURS[i] & empty).count_ones() as usize & 7;
        let d = pos.delta(Cell(i as u8));
        let (low, high) = (d + t.low_off[k], d + t.high_off[k]);
        for j in 0..N {
            good[j] |= u64::from(low >= bases[j]) << i;
            bad[j] |= u64::from(high < bases[j]) << i;
        }
    }
    std::array::from_fn(|j| t.classes(pos, betas[j], good[j], bad[j]))
}

/// What [`classify`] needs of the hands, for every cell of one position.
struct Thresholds<'a> {
    /// Stones left to Red and to Blue.
    r: usize,
    b: usize,
    /// A cell with `k` empty neighbours is good when `delta + low_off[k] >= beta - 75` and
    /// bad when `delta + high_off[k] < beta - 75` (`cell_interval` less the 75): one
    /// comparison with a threshold per `k` instead of the interval per cell.
    low_off: [i16; 8],
    high_off: [i16; 8],
    /// Red's and Blue's [`HandSums`].
    red: &'a HandSums,
    blue: &'a HandSums,
}

impl<'a> Thresholds<'a> {
    #[inline]
    fn of(pos: &Position, sums: &'a [HandSums]) -> Self {
        // Red has played moves (m + 1) / 2 stones, Blue m / 2.
        let m = pos.moves_played();
        let r = 15 - m.div_ceil(2);
        let b = 15 - m / 2;
        let red = &sums[usize::from(pos.stones_left_mask(RED) >> 1)];
        let blue = &sums[usize::from(pos.stones_left_mask(1 - RED) >> 1)];
        let mut low_off = [0i16; 8];
        let mut high_off = [0i16; 8];
        for k in 0..7 {
            let (lo, hi) = cell_interval(0, k, r, b, red, blue);
            low_off[k] = lo - DRAW_SCORE;
            high_off[k] = hi - DRAW_SCORE;
        }
        Thresholds {
            r,
            b,
            low_off,
            high_off,
            red,
            blue,
        }
    }

    /// The classes of the question `beta` from its good and bad cells.
    #[inline]
    fn classes(&self, pos: &Position, beta: i16, good: u64, bad: u64) -> Classes {
        let Thresholds {
            r, b, red, blue, ..
        } = *self;
        let empty = pos.empty();
        let interval = |c: Cell| {
            let k = (NEIGHBOURS[c.index()] & empty).count_ones() as usize & 7;
            let d = DRAW_SCORE + pos.delta(c);
            (d + self.low_off[k], d + self.high_off[k])
        };
        let mut ups = [0i16; 32];
        let mut downs = [0i16; 32];
        let nu = good.count_ones() as usize;
        let nd = bad.count_ones() as usize;
        if nu + MAX_SPARE >= b {
            for (u, c) in ups.iter_mut().zip(cells_of(good)) {
                *u = interval(c).0;
            }
        }
        if nd + MAX_SPARE >= r {
            for (x, c) in downs.iter_mut().zip(cells_of(bad)) {
                *x = interval(c).1;
            }
        }
        let cut = if nu > b {
            let (_, x, _) = ups[..nu].select_nth_unstable_by(b, |x, y| y.cmp(x));
            Some(*x)
        } else if nd > r {
            let (_, x, _) = downs[..nd].select_nth_unstable(r);
            Some(*x)
        } else {
            // Too few sure cells to count: the opponent must fill them all, with `b - nu`
            // (or `r - nd`) stones to spare (`forced_fills`); if it does not, one of them is
            // the hole, hence the bound of the sure cells as well.
            let red_forced = (nu + MAX_SPARE >= b)
                .then(|| forced_fills(pos, true, good, bad, b - nu, beta, [red, blue]))
                .flatten()
                .map(|x| x.min(ups[..nu].iter().copied().min().unwrap_or(x)));
            let blue_forced = || {
                (nd + MAX_SPARE >= r)
                    .then(|| forced_fills(pos, false, bad, good, r - nd, beta, [red, blue]))
                    .flatten()
                    .map(|x| x.max(downs[..nd].iter().copied().max().unwrap_or(x)))
            };
            red_forced.or_else(blue_forced)
        };
        Classes { good, bad, cut }
    }
}

/// The static answer when the opponent of the side that `sure` favours (Red when `red`) has
/// `spare` stones more than there are `sure` cells (0 when the count of `classify` falls one
/// short); `None` when it does not answer. `against` are the cells sure against that side,
/// and the last argument Red's and Blue's [`HandSums`].
///
/// Written for Red (`sure` its good cells, `b = |sure| + spare`): Red never fills a good
/// cell while another is empty. If Blue plays more than `spare` stones off the good cells, a
/// good cell is the hole. Else Blue fills every good cell and plays `spare` stones on the
/// other `r + spare + 1` empty cells, and Red fills all of those but one: the hole. Red keeps
/// its *candidates* for it to the last, filling the rest first, so Blue must fill every
/// candidate with a spare stone. A candidate is a cell `c` whose bound reaches `beta`: with
/// `g` good neighbours and `n` other empty ones, `j = min(spare, n)` of them Blue's, `75 +
/// delta - blue_top(g + j) + red_bottom(n - j)`, or with no spare stone (Red alone picks the
/// hole and its stones next to it) `75 + delta - blue_top(g) + red_top(n)`.
///
/// With more candidates than spare stones Red reaches the `(spare + 1)`-th best bound. With
/// fewer, Blue's spare stones must fill them: they join the good cells, the spare stones
/// left are fewer, and the candidates are sought again. The bound returned is the lowest of
/// those found on the way (the caller takes the minimum with the good cells' own bounds, for
/// when Blue does not fill them). For Blue the roles swap.
#[inline]
fn forced_fills(
    pos: &Position,
    red: bool,
    mut sure: u64,
    against: u64,
    mut spare: usize,
    beta: i16,
    [red_sums, blue_sums]: [&HandSums; 2],
) -> Option<i16> {
    let (sign, own, other) = if red {
        (1, red_sums, blue_sums)
    } else {
        (-1, blue_sums, red_sums)
    };
    let empty = pos.empty();
    let mut floor = if red { i16::MAX } else { i16::MIN };
    loop {
        // A cell sure against the side (`against`) never reaches `beta`.
        let open = empty & !sure & !against;
        if open.count_ones() as usize <= spare {
            return None;
        }
        let own_sums = if spare == 0 { &own[0] } else { &own[1] };
        let mut reach = [0i16; 32];
        let mut k = 0;
        let mut candidates = 0u64;
        for c in cells_of(open) {
            let near = NEIGHBOURS[c.index()];
            let g = (near & sure).count_ones() as usize;
            let n = (near & empty & !sure).count_ones() as usize;
            let j = spare.min(n);
            let v = DRAW_SCORE + pos.delta(c) + sign * (own_sums[n - j] - other[0][g + j]);
            if cuts_off(red, v, beta) {
                reach[k] = v;
                k += 1;
                candidates |= 1 << c.index();
            }
        }
        if k == 0 {
            return None;
        }
        let reach = &mut reach[..k];
        if k <= spare {
            floor = reach.iter().fold(floor, |f, &v| better(!red, f, v));
            sure |= candidates;
            spare -= k;
            continue;
        }
        let (_, x, _) = if red {
            reach.select_nth_unstable_by(spare, |x, y| y.cmp(x))
        } else {
            reach.select_nth_unstable(spare)
        };
        return Some(better(!red, *x, floor));
    }
}

impl Classes {
    /// The sure cells good for `mover` and those bad for it (Red's good cells are Blue's bad
    /// ones).
    #[inline]
    fn of_mover(&self, mover: usize) -> (u64, u64) {
        if mover == RED {
            (self.good, self.bad)
        } else {
            (self.bad, self.good)
        }
    }
}

/// A node's place in the table (see `Solver::table_key`).
#[derive(Clone, Copy)]
struct TableKey {
    key: u64,
    /// The entry stands for several positions and holds only their common answer.
    only_answer: bool,
}

impl TableKey {
    /// The place of one position, by its exact key.
    fn exact(key: u64) -> Self {
        TableKey {
            key,
            only_answer: false,
        }
    }

    /// What the entry may hold of the fail-soft value `v`: all of it for one position, only
    /// its side of `beta` for several.
    #[inline]
    fn answer(self, v: i16, beta: i16) -> i16 {
        match (self.only_answer, v >= beta) {
            (false, _) => v,
            (true, true) => beta,
            (true, false) => beta - 1,
        }
    }
}

/// What stays fixed while a node is searched: the position and its key, its place in the
/// table, the question "does Red reach `beta`?" and its ply (which picks its move buffer).
#[derive(Clone, Copy)]
struct Node<'a> {
    pos: &'a Position,
    key: u64,
    tk: TableKey,
    beta: i16,
    ply: usize,
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

    #[inline]
    fn z_delta(&self, cell: usize, delta: i16) -> u64 {
        self.z_cell[cell][(delta + DELTA_OFFSET) as usize]
    }

    /// The abstract key: every empty cell with its delta, and the stones in each hand.
    fn key_of(&self, pos: &Position) -> u64 {
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
    fn child_key(&self, pos: &Position, key: u64, mv: Move) -> u64 {
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
    fn table_key(&self, pos: &Position, key: u64, cls: &Classes, beta: i16) -> TableKey {
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
    fn probe(&self, key: u64) -> Option<Entry> {
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
    fn store(&mut self, key: u64, empty: u8, lower: Option<i16>, upper: Option<i16>, best: u16) {
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

    /// A null-window pass at the root: the fail-soft value and the move that decided it. The
    /// root looks ahead as every node does (whatever its number of empty cells: the
    /// children's margins order its moves), tries the table's move first, and then searches
    /// its moves as every node does (`search_moves`).
    fn root(&mut self, pos: &Position, key: u64, beta: i16) -> (i16, Option<Move>) {
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
    fn search(
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
        // Below `tt_empty` the table is neither probed nor filled: the exact key stands in.
        let tk = if e >= self.tt_empty {
            self.table_key(pos, key, &c, beta)
        } else {
            TableKey::exact(key)
        };
        let mut hint = 0u16;
        if e >= self.tt_empty
            && let Some(t) = self.probe(tk.key)
        {
            if t.lo >= beta {
                return t.lo;
            }
            if t.hi < beta {
                return t.hi;
            }
            hint = t.best;
        }
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
            let a = tk.answer(v, beta);
            let (lo, hi) = if v >= beta {
                (Some(a), None)
            } else {
                (None, Some(a))
            };
            self.store(tk.key, e as u8, lo, hi, decided);
        }
        v
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

    /// One ply ahead, before any move is searched: a move after which the static bounds
    /// answer for the mover answers for this node; it is stored and returned with its value.
    /// Else drops the moves after which they answer against the mover, folding their values
    /// into the node's value `v` (searching them would only classify them again), adds each
    /// other child's margin to its move's ordering key, and drops the moves that a smaller
    /// stone on the same cell dominates for the question (`dominated_stone`; then `pruned` is
    /// set), handing their ordering key to the stone that dominates them when it is higher.
    #[inline]
    fn look_ahead(
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
    fn killer_cutoff(&self, pos: &Position, beta: i16, ply: usize) -> Option<i16> {
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

    /// Stores a cutoff value `r` of the mover of `n` (a lower bound for Red, an upper bound
    /// for Blue) found by the move `best` (as `index + 1`).
    #[inline]
    fn store_cutoff(&mut self, n: Node<'_>, r: i16, best: u16) {
        let a = n.tk.answer(r, n.beta);
        let empty = n.pos.empty_count() as u8;
        if n.pos.mover() == RED {
            self.store(n.tk.key, empty, Some(a), None, best);
        } else {
            self.store(n.tk.key, empty, None, Some(a), best);
        }
    }

    /// Fills `out` with the moves of `question_moves`, each with its ordering key (best first
    /// once sorted by it: fills of cells bad for the mover, valuable stones next to undecided
    /// cells, plus the history), and says whether a move was left out that is only dominated
    /// for this question (then a failing node's value is only known to be on its side of
    /// `beta`). The table's move `hint` (as `index + 1`, 0: none) is left out: the caller
    /// tried it. The list is not sorted; the keys say the order.
    fn moves(
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
fn playable(pos: &Position, mv: Move) -> bool {
    pos.empty() & (1 << mv.cell.index()) != 0 && pos.has_stone(pos.mover(), mv.value)
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
fn order_next(buf: &mut [(i32, Move, u16)], k: usize) {
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

/// Red's final score under best play by plain minimax over every legal move (no pruning, no
/// table): the reference the solver is tested against. Exponential: small endings only.
#[cfg(test)]
pub fn brute_force(pos: &Position) -> i16 {
    if let Some(s) = pos.red_score() {
        return s;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let red = pos.mover() == RED;
    let mut best = if red { i16::MIN } else { i16::MAX };
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = brute_force(&child);
        best = if red { best.max(v) } else { best.min(v) };
    }
    best
}

/// Red's final score by full-window alpha-beta over every legal move (no table, no pruning
/// beyond alpha-beta, no static bounds): an independent reference for 8-9 empty cells.
#[cfg(test)]
pub fn alpha_beta(pos: &Position, mut alpha: i16, mut beta: i16) -> i16 {
    if let Some(s) = pos.red_score() {
        return s;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // The most valuable stones first, then the least valuable (cheap ordering).
    let lowest = pos.lowest_stone(pos.mover());
    moves.sort_by_key(|m| std::cmp::Reverse(if m.value == lowest { 100 } else { m.value }));
    let red = pos.mover() == RED;
    let mut best = if red { i16::MIN } else { i16::MAX };
    for mv in moves {
        let mut child = *pos;
        child.play(mv);
        let v = alpha_beta(&child, alpha, beta);
        if red {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::lottery_move;
    use proptest::prelude::*;

    fn ending(seed: u64, empty: u32) -> Position {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut cells: Vec<Cell> = Cell::all().collect();
        // Five distinct blocked cells from the seed.
        for i in 0..5 {
            let j = i + (rng.next_u64() as usize) % (cells.len() - i);
            cells.swap(i, j);
        }
        let mut p = Position::new(&cells[..5]).unwrap();
        while p.empty_count() > empty {
            let mv = lottery_move(&p, &mut rng);
            p.play(mv);
        }
        p
    }

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

        #[test]
        fn the_static_verdict_is_right_when_it_speaks(
            seed in any::<u64>(),
            empty in 1u32..=6,
            player in 0usize..2,
            alpha in 60i16..=90,
        ) {
            let p = ending(seed, empty);
            let exact = brute_force(&p);
            let mine = if player == RED { exact } else { 150 - exact };
            if let Some(w) = static_verdict(&p, player, alpha) {
                prop_assert_eq!(w, mine >= alpha, "{:?}", p);
            }
            // It speaks whenever the dead-cell declaration does, and agrees with it.
            if let Some(d) = crate::rules::declared(&p, player, alpha) {
                prop_assert_eq!(static_verdict(&p, player, alpha), Some(d));
            }
        }

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

        #[test]
        fn static_bounds_contain_the_exact_score(seed in any::<u64>(), empty in 1u32..=6) {
            let p = ending(seed, empty);
            let a = static_bounds(&p);
            let exact = brute_force(&p);
            prop_assert!(a.lo <= exact && exact <= a.hi, "{} not in {}..={} {:?}", exact, a.lo, a.hi, p);
            if p.dead_cells() == p.empty() {
                prop_assert_eq!(a.lo, a.hi);
            }
            // Every null window around the exact value answers on the right side.
            let mut solver = Solver::new();
            let key = solver.key_of(&p);
            for beta in [exact - 3, exact, exact + 1, exact + 4] {
                let v = solver.search(&p, key, beta, 0, None);
                if exact >= beta {
                    prop_assert!(v >= beta && v <= exact, "beta {} v {} exact {}", beta, v, exact);
                } else {
                    prop_assert!(v < beta && v >= exact, "beta {} v {} exact {}", beta, v, exact);
                }
            }
        }

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

    /// Red's exact score after `mv`, by brute force.
    fn value_after(p: &Position, mv: Move) -> i16 {
        let mut child = *p;
        child.try_play(mv).unwrap();
        brute_force(&child)
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

    /// A solver that files every node under its exact key (`table_key` without sure cells).
    fn without_collapse() -> Solver {
        let mut s = Solver::new();
        s.collapse_sure = false;
        s
    }

    /// Asserts that `with` and `without` give the same exact value on twelve endings of 10 to
    /// 12 empty cells from `seeds`, each with cleared tables; says whether the two searched
    /// a different number of nodes on any (so that what `with` adds was at work).
    fn same_exact_values(mut with: Solver, mut without: Solver, seeds: u64) -> bool {
        same_exact_values_over(&mut with, &mut without, seeds, 12, 10..=12)
    }

    /// Asserts that `with` and `without` find the same exact values on `count` endings from
    /// `seeds`, their empty cells cycling through `sizes`; whether they searched differently.
    fn same_exact_values_over(
        with: &mut Solver,
        without: &mut Solver,
        seeds: u64,
        count: u64,
        sizes: std::ops::RangeInclusive<u32>,
    ) -> bool {
        let mut changed = false;
        let spread = u64::from(sizes.end() - sizes.start() + 1);
        for seed in 0..count {
            let p = ending(seeds + seed, sizes.start() + (seed % spread) as u32);
            with.clear();
            without.clear();
            let a = with.solve(&p, None).unwrap();
            let b = without.solve(&p, None).unwrap();
            assert_eq!(a.red_score, b.red_score, "{p:?}");
            changed |= a.nodes != b.nodes;
        }
        changed
    }

    /// Asserts that `with` and `without` give the same win answer on twelve endings of 12 to
    /// 14 empty cells from `seeds`.
    fn same_win_answers(mut with: Solver, mut without: Solver, seeds: u64) {
        for seed in 0..12 {
            let p = ending(seeds + seed, 12 + (seed % 3) as u32);
            with.clear();
            without.clear();
            let a = with.mover_wins(&p, None).unwrap();
            let b = without.mover_wins(&p, None).unwrap();
            assert_eq!(a.0, b.0, "{p:?}");
        }
    }

    /// Whether `player` reaches `alpha` from `p` under best play (by brute force).
    fn reaches(p: &Position, player: usize, alpha: i16) -> bool {
        let red = brute_force(p);
        (if player == RED { red } else { 150 - red }) >= alpha
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
    fn the_static_cutoffs_bound_the_exact_score_and_the_forced_fills_add_some() {
        // Every cutoff of `classify` is a fail-soft bound of the exact score; count those
        // that only the forced fills give (too few sure cells for the plain count). Endings of
        // 8 to 10 empty cells too: in smaller ones the hands were too small to catch a
        // candidate bounded with the side's best stones where only its least count.
        let small = (0..100).map(|seed| (seed, 4 + seed as u32 % 4));
        let larger = (0..60).map(|seed| (seed, 8 + seed as u32 % 3));
        let mut forced = 0;
        for (seed, empty) in small.chain(larger) {
            let p = ending(seed, empty);
            let exact = alpha_beta(&p, i16::MIN, i16::MAX);
            let b = p.stones_left(1 - RED);
            let r = p.stones_left(RED);
            for beta in exact - 6..=exact + 6 {
                let c = classify(&p, beta, hand_sums());
                let Some(v) = c.cut else { continue };
                if v >= beta {
                    assert!(exact >= v, "seed {seed}, beta {beta}: {exact} < {v}");
                } else {
                    assert!(exact <= v, "seed {seed}, beta {beta}: {exact} > {v}");
                }
                let counted = c.good.count_ones() > b || c.bad.count_ones() > r;
                forced += usize::from(!counted);
            }
        }
        assert!(
            forced > 20,
            "the forced fills decided only {forced} questions"
        );
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

    #[test]
    fn an_expired_deadline_gives_up() {
        let p = ending(5, 25);
        let mut solver = Solver::new();
        let past = Instant::now();
        assert_eq!(solver.solve(&p, Some(past)), None);
        assert_eq!(solver.mover_wins(&p, Some(past)), None);
    }
}
