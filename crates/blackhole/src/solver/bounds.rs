//! The static bounds on Red's score, from the empty cells alone: each cell's interval if it
//! ends as the hole and their order statistics (`static_bounds`), the cells sure for one
//! question "does Red reach `beta`?" (`classify`), the forced fills when the opponent has
//! barely enough stones to fill one side's sure cells (`forced_fills`), and the static
//! verdicts built on them.

use crate::board::{Cell, NEIGHBOURS, cells_of};
use crate::rules::{DRAW_SCORE, Position, RED};

use super::{better, cuts_off};

/// The most stones to spare for which `classify` tries the forced fills (`forced_fills`): at
/// 15-17 empty cells 1 took 11-15% fewer nodes than 0 (geometric mean by ending, with one
/// round of candidates), 2 about 1% fewer than 1.
const MAX_SPARE: usize = 1;

/// The static bounds on Red's score.
pub(super) struct Analysis {
    pub(super) lo: i16,
    pub(super) hi: i16,
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
pub(super) fn red_beta(player: usize, alpha: i16) -> i16 {
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
pub(super) fn static_bounds(pos: &Position) -> Analysis {
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
pub(super) struct Classes {
    /// Cells with `low(c) >= beta`: Red reaches `beta` if one ends as the hole.
    pub(super) good: u64,
    /// Cells with `high(c) < beta`: Red misses `beta` if one ends as the hole.
    pub(super) bad: u64,
    /// The static bound (fail-soft) when it already answers: `lo >= beta` or `hi < beta`.
    pub(super) cut: Option<i16>,
}

/// `static_bounds` for one `beta`, cheaper: the order statistics are only needed when they
/// answer the question, and counting decides that. `lo >= beta` iff at least `b + 1` cells
/// have `low(c) >= beta` (the `(b+1)`-th largest `low` is `>= beta` exactly then), and
/// `hi < beta` iff at least `r + 1` cells have `high(c) < beta`; only then is the order
/// statistic selected, among those cells (the `(b+1)`-th largest `low` overall is the
/// `(b+1)`-th largest among the cells at or above `beta` when there are `b + 1` of them).
#[inline]
pub(super) fn classify(pos: &Position, beta: i16, sums: &[HandSums]) -> Classes {
    let [c] = classify_each(pos, [beta], sums);
    c
}

/// [`classify`] for several `betas` at once: each cell's empty neighbours and delta are read
/// once for all of them (the win-draw-loss search asks two questions of every position).
#[inline]
pub(super) fn classify_each<const N: usize>(
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
    pub(super) fn of_mover(&self, mover: usize) -> (u64, u64) {
        if mover == RED {
            (self.good, self.bad)
        } else {
            (self.bad, self.good)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Solver;
    use super::super::reference::{alpha_beta, brute_force, ending};
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
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
}
