//! The selection: here its arithmetic (the RAVE blends in their fast forms, the fast
//! selection pass over a node's children, and the progressive bias); the worker's choice of
//! a child on the way down in `choice`, with its shortlists in `shortlist` and GRAVE's
//! references in `grave`.

mod choice;
mod grave;
mod shortlist;

#[cfg(test)]
pub(super) use choice::GENERAL_ONLY;
pub(super) use grave::GRAVE_SLOTS;
pub(super) use shortlist::ShortlistEntry;

use crate::config::{Config, RaveSchedule, Selection};
use crate::tree::{Arena, KeptScore, LOSS, Node, NodeId, ROOT, UNPROVEN, WIN};

/// A RAVE schedule with its constant worked out for one parent, for the fast selection pass.
#[derive(Clone, Copy, Debug)]
pub(super) enum Blend {
    /// Minimum-MSE with `k = 4 bias^2`.
    Mse(f32),
    /// Fading with `k = base + per_move * moves`.
    Fading(f32),
}

impl Blend {
    /// The blend of `schedule` at a parent with `moves` children (`None`: no fast form).
    pub(super) fn of(schedule: RaveSchedule, moves: usize) -> Option<Blend> {
        match schedule {
            RaveSchedule::MinimumMse { bias } => Some(Blend::Mse((4.0 * bias * bias) as f32)),
            RaveSchedule::Fading { base, per_move } => {
                Some(Blend::Fading((base + per_move * moves as f64) as f32))
            }
            _ => None,
        }
    }

    /// `(1 - beta) w/n + beta aw/an`, or `fpu` without any statistics.
    #[inline(always)]
    pub(super) fn value(self, n: f32, w: f32, an: f32, aw: f32, fpu: f32) -> f32 {
        match self {
            Blend::Mse(k) => mse_value(n, w, an, aw, k, fpu),
            Blend::Fading(k) => fading_value(n, w, an, aw, k, fpu),
        }
    }
}

/// What the tree keeps of each node for the fast selection pass (a [`KeptScore`]): the RAVE
/// schedule (one with a fast [`Blend`]) and the first-play urgency it is worked out under. Two searches under the same `Kept` share the values;
/// under another, every node's are worked out again ([`Kept::refresh_tree`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Kept {
    schedule: RaveSchedule,
    fpu: f32,
}

impl Kept {
    /// What `config`'s selection keeps: `None` without an AMAF horizon, or where its schedule
    /// has no fast blend (plain UCT, the equivalence schedule).
    ///
    /// Keeping the values pays where a node's AMAF update touches few of its children while
    /// the selection scores them all: with a short horizon over wide nodes (Blackhole: at
    /// most 12 moves against up to 465 children, 1.16 times the simulations a second). Without
    /// a horizon about half the children of every node on the path get a sample, each would
    /// be worked out again as often as the selection scores it, and in Havannah keeping the
    /// values (in the node) runs the search a fifth slower.
    pub(crate) fn of(config: &Config) -> Option<Kept> {
        config.amaf_horizon()?;
        let schedule = match config.selection() {
            Selection::Uct => return None,
            Selection::Rave(s) | Selection::Grave { schedule: s, .. } => s,
        };
        Blend::of(schedule, 0)?;
        Some(Kept {
            schedule,
            fpu: config.first_play_urgency() as f32,
        })
    }

    /// Works out the kept score `score` of `ch`, a child of a node with `moves` children,
    /// from its statistics: the operations of [`score_with_amaf`] on the child's own AMAF
    /// statistics, so the same bits.
    #[inline]
    pub(crate) fn refresh<M: Copy>(self, ch: &Node<M>, score: &KeptScore, moves: usize) {
        self.of_parent(moves).refresh(ch, score);
    }

    /// What the children of a node with `moves` children keep (for several of them).
    #[inline]
    pub(crate) fn of_parent(self, moves: usize) -> KeptBlend {
        KeptBlend {
            // `Kept::of` checked that the schedule has a fast blend.
            blend: Blend::of(self.schedule, moves).unwrap_or(Blend::Mse(0.0)),
            fpu: self.fpu,
            inv_sqrt: InvSqrt::table(),
        }
    }

    /// [`Kept::refresh`] for the children `range` of a node.
    #[inline]
    pub(crate) fn refresh_all<M: Copy>(self, tree: &Arena<M>, range: std::ops::Range<usize>) {
        let k = self.of_parent(range.len());
        for (ch, score) in tree.slice(range.clone()).iter().zip(tree.scores(range)) {
            k.refresh(ch, score);
        }
    }

    /// Works out the kept scores of every node below the root of `tree` (which keeps them).
    pub(crate) fn refresh_tree<M: Copy>(self, tree: &Arena<M>) {
        if tree.is_empty() {
            return;
        }
        let mut stack = vec![ROOT];
        while let Some(id) = stack.pop() {
            let range = tree.node(id).children();
            let first = range.start as NodeId;
            self.refresh_all(tree, range.clone());
            let children = tree.slice(range);
            for (k, ch) in children.iter().enumerate() {
                if ch.is_expanded() {
                    stack.push(first + k as NodeId);
                }
            }
        }
    }
}

/// [`Kept`] worked out for the children of one node.
#[derive(Clone, Copy)]
pub(crate) struct KeptBlend {
    blend: Blend,
    fpu: f32,
    inv_sqrt: &'static InvSqrt,
}

impl KeptBlend {
    /// Works out the kept score `score` of `ch` (see [`Kept::refresh`]).
    #[inline]
    pub(crate) fn refresh<M: Copy>(self, ch: &Node<M>, score: &KeptScore) {
        let visits = ch.visits();
        let an = ch.amaf_visits();
        let value = self
            .blend
            .value(visits as f32, ch.wins(), an, ch.amaf_wins(), self.fpu);
        let explore = if visits > 0 || an > 0.0 {
            self.inv_sqrt.of(visits.max(1))
        } else {
            0.0
        };
        score.set(value, explore);
    }
}

/// The kept scores of `children` under `blend` and first-play urgency `fpu` (for tests of
/// the selection, which make their own blends).
#[cfg(test)]
fn kept_scores<M: Copy>(children: &[Node<M>], blend: Blend, fpu: f32) -> Vec<KeptScore> {
    let inv_sqrt = InvSqrt::table();
    let k = KeptBlend {
        blend,
        fpu,
        inv_sqrt,
    };
    children
        .iter()
        .map(|ch| {
            let score = KeptScore::default();
            k.refresh(ch, &score);
            score
        })
        .collect()
}

/// What the fast selection pass scores a child by: a RAVE blend on the child's own AMAF
/// statistics, plus the UCT bonus (`bonus / sqrt(n)` for a child with `n` visits, at least 1,
/// and any statistics; `bonus` 0 without exploration) and the progressive bias.
#[derive(Clone, Copy)]
pub(super) struct FastScoring {
    /// The parent's blend.
    pub(super) blend: Blend,
    /// First-play urgency: the value of a child without statistics.
    pub(super) fpu: f32,
    /// `c sqrt(ln N)` for the parent's `N` visits; 0 without exploration.
    pub(super) bonus: f32,
    /// `1 / sqrt(n)` by look-up.
    pub(super) inv_sqrt: &'static InvSqrt,
    /// The visits from which the progressive bias stops ([`Config::bias_cutoff`];
    /// `u32::MAX` without a cut-off).
    pub(super) bias_cutoff: u32,
}

/// The child to descend into in the most common case, in one tight pass over the children
/// scored by `score` (by index and child; see [`own_score`] and [`kept_score`]); a proven win
/// is taken at once, proven losses are skipped, and proven draws too while an unproven child
/// is left (see [`Worker::select`](super::Worker)). The same choice, score for score, as the
/// general loop of `Worker::select`; `None` when every child is a proven loss.
#[inline(always)]
pub(super) fn select_fast<M: Copy>(
    children: &[Node<M>],
    score: impl Fn(usize, &Node<M>) -> f32,
) -> Option<usize> {
    let mut best = None;
    let mut best_score = f32::NEG_INFINITY;
    let mut draw = None;
    for (j, ch) in children.iter().enumerate() {
        let proof = ch.proof();
        if proof != UNPROVEN {
            match proof {
                WIN => return Some(j),
                LOSS => continue,
                _ => {
                    draw = Some(j);
                    continue;
                }
            }
        }
        let score = score(j, ch);
        if score > best_score {
            best_score = score;
            best = Some(j);
        }
    }
    best.or(draw)
}

/// [`select_fast`] when no child is proven: the same choice without the proof tests. The
/// children must not be empty.
#[inline(always)]
pub(super) fn select_fast_unproven<M: Copy>(
    children: &[Node<M>],
    score: impl Fn(usize, &Node<M>) -> f32,
) -> usize {
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (j, ch) in children.iter().enumerate() {
        let score = score(j, ch);
        if score > best_score {
            best_score = score;
            best = j;
        }
    }
    best
}

/// A child's score by `s` (see [`FastScoring`]) from its own statistics: the operations of
/// `Worker::child_score` plus the progressive bias, in the same order, so the same bits.
#[inline(always)]
pub(super) fn own_score<M: Copy>(ch: &Node<M>, s: FastScoring) -> f32 {
    score_with_amaf(ch, ch.amaf_visits(), ch.amaf_wins(), s)
}

/// [`own_score`] from the child's kept score ([`Kept`]): the value and the bonus's
/// multiplier read instead of worked out, the same choice. (Without statistics the
/// multiplier is 0, and adding `0.0`, like adding no bias, changes no comparison.)
#[inline(always)]
pub(super) fn kept_score<M: Copy>(ch: &Node<M>, kept: &KeptScore, s: FastScoring) -> f32 {
    let v = kept.value() + s.bonus * kept.explore();
    match ch.bias() {
        0 => v,
        bias => v + bias_value(bias, ch.visits(), s.bias_cutoff),
    }
}

/// [`own_score`] with the AMAF statistics `an` samples and `aw` wins in place of the
/// child's own (GRAVE's reference's).
#[inline(always)]
pub(super) fn score_with_amaf<M: Copy>(ch: &Node<M>, an: f32, aw: f32, s: FastScoring) -> f32 {
    // Each statistic loaded once (the compiler does not merge atomic loads).
    let visits = ch.visits();
    let (n, w) = (visits as f32, ch.wins());
    let mut v = s.blend.value(n, w, an, aw, s.fpu);
    if visits > 0 || an > 0.0 {
        // Adding 0 without exploration leaves the value as it is.
        v += s.bonus * s.inv_sqrt.of(visits.max(1));
    }
    v + bias_value(ch.bias(), visits, s.bias_cutoff)
}

/// The prior's bonus for a child, fading with the square root of its visits, 0 from
/// `cutoff` visits on.
#[inline(always)]
pub(super) fn progressive_bias<M: Copy>(ch: &Node<M>, cutoff: u32) -> f32 {
    bias_value(ch.bias(), ch.visits(), cutoff)
}

/// The progressive bias of a child with prior bias `bias` (hundredths) and `visits` visits;
/// 0 from `cutoff` visits on ([`Config::bias_cutoff`]). Without a bias it is 0 at once: the
/// square root and the division would otherwise cost as much as the rest of a child's score
/// (the selection loop is bound by the divider).
#[inline(always)]
pub(super) fn bias_value(bias: u8, visits: u32, cutoff: u32) -> f32 {
    if bias == 0 || visits >= cutoff {
        return 0.0;
    }
    f32::from(bias) * 0.01 / (visits.max(1) as f32).sqrt()
}

/// `1 / sqrt(n)` for the visits of a child, looked up below [`InvSqrt::LEN`]: the
/// selection scores every child of every node on the way down, and a square root and a
/// division each cost as much as the rest of a score.
pub(super) struct InvSqrt([f32; InvSqrt::LEN]);

impl InvSqrt {
    /// Visits with a stored value (16 KiB of `f32`).
    const LEN: usize = 4096;

    /// The table, worked out on first use.
    pub(super) fn table() -> &'static InvSqrt {
        static TABLE: std::sync::OnceLock<InvSqrt> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| {
            let mut t = [0.0; Self::LEN];
            for (n, x) in t.iter_mut().enumerate() {
                *x = Self::computed(n as u32);
            }
            InvSqrt(t)
        })
    }

    /// `1 / sqrt(n)` (`n` at least 1).
    #[inline(always)]
    pub(super) fn of(&self, n: u32) -> f32 {
        match self.0.get(n as usize) {
            Some(&x) => x,
            None => Self::computed(n),
        }
    }

    fn computed(n: u32) -> f32 {
        1.0 / (n as f32).sqrt()
    }
}

/// The minimum-MSE RAVE value `(1 - b) w/n + b aw/an` with `b = an / (n + an + k n an)`, in
/// one division, from `n` visits with `w` wins and `an` AMAF samples with `aw` wins; `fpu`
/// without any statistics.
#[inline(always)]
fn mse_value(n: f32, w: f32, an: f32, aw: f32, k: f32, fpu: f32) -> f32 {
    let d = n + an + k * n * an;
    if d > 0.0 {
        (w * (1.0 + k * an) + aw) / d
    } else {
        fpu
    }
}

/// The fading RAVE value `(1 - beta) w/n + beta aw/an` with `beta = k / (k + n)`, as
/// `(k aw/an + w) / (k + n)`; the plain mean without AMAF samples, `fpu` without any
/// statistics.
#[inline(always)]
fn fading_value(n: f32, w: f32, an: f32, aw: f32, k: f32, fpu: f32) -> f32 {
    if an > 0.0 {
        if n > 0.0 {
            (k * aw / an + w) / (k + n)
        } else {
            aw / an
        }
    } else if n > 0.0 {
        w / n
    } else {
        fpu
    }
}

/// The RAVE value `(1 - beta) w/n + beta aw/an` of any schedule, with its `beta` for a parent
/// with `moves` children (the general form, for schedules without a [`Blend`]); the plain
/// mean without AMAF samples, `fpu` without any statistics.
#[inline]
pub(super) fn rave_value(
    schedule: RaveSchedule,
    n: f32,
    w: f32,
    an: f32,
    aw: f32,
    moves: usize,
    fpu: f32,
) -> f32 {
    if n == 0.0 && an <= 0.0 {
        return fpu;
    }
    let q = if n > 0.0 { w / n } else { 0.0 };
    if an > 0.0 {
        let beta = schedule.beta(f64::from(n), f64::from(an), moves) as f32;
        (1.0 - beta) * q + beta * (aw / an)
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{DRAW, NodeData};
    use proptest::prelude::*;

    /// A child with the given statistics (`proof` 0..=3 as in the tree).
    fn child(visits: u32, wins: f32, an: f32, aw: f32, proof: u8) -> Node<u16> {
        let mut n = NodeData::new(0u16, 0);
        n.visits = visits;
        n.wins = wins;
        n.amaf_visits = an;
        n.amaf_wins = aw;
        n.proof = proof;
        Node::from_data(&n)
    }

    #[test]
    fn the_inverse_square_roots_are_looked_up_right_on_both_sides_of_the_table() {
        let t = InvSqrt::table();
        for n in [1, 2, 3, 4, 100, 4095, 4096, 4097, 1 << 20] {
            let exact = 1.0 / f64::from(n).sqrt();
            assert!((f64::from(t.of(n)) - exact).abs() < 1e-6 * exact, "n = {n}");
        }
        assert_eq!(t.of(4), 0.5);
        assert_eq!(t.of(1 << 20), 1.0 / 1024.0);
    }

    #[test]
    fn no_bias_adds_nothing_and_a_bias_fades_with_the_visits() {
        assert_eq!(bias_value(0, 0, u32::MAX), 0.0);
        assert_eq!(bias_value(0, 9, u32::MAX), 0.0);
        assert!((bias_value(150, 9, u32::MAX) - 0.5).abs() < 1e-6);
        assert!((bias_value(150, 0, u32::MAX) - 1.5).abs() < 1e-6);
        // A cut-off at 1,000 visits: morat-havannah's knowledge stops there.
        assert!((bias_value(100, 999, 1000) - 1.0 / 999f32.sqrt()).abs() < 1e-6);
        assert_eq!(bias_value(100, 1000, 1000), 0.0);
        assert_eq!(bias_value(100, 5000, 1000), 0.0);
    }

    /// The fast pass's settings for `blend`, `fpu` and the UCT bonus `bonus`.
    fn scoring(blend: Blend, fpu: f32, bonus: f32) -> FastScoring {
        FastScoring {
            blend,
            fpu,
            bonus,
            inv_sqrt: InvSqrt::table(),
            bias_cutoff: u32::MAX,
        }
    }

    /// The RAVE value written out in f64, the textbook way: value = (1 - beta) w/n + beta
    /// aw/an, with Gelly and Silver's minimum-MSE beta = an / (n + an + 4 b^2 n an) when
    /// `fading_k` is `None`, else Castro's beta = k / (k + n) (1 without visits); the mean
    /// without AMAF samples; plus the UCT bonus `bonus / sqrt(max(n, 1))` with statistics.
    fn textbook(c: &Node<u16>, bias: f64, fading_k: Option<f64>, fpu: f64, bonus: f64) -> f64 {
        let (n, w) = (f64::from(c.visits()), f64::from(c.wins()));
        let (an, aw) = (f64::from(c.amaf_visits()), f64::from(c.amaf_wins()));
        if n == 0.0 && an == 0.0 {
            return fpu;
        }
        bonus / n.max(1.0).sqrt() + rave_mean(n, w, an, aw, bias, fading_k)
    }

    /// The textbook RAVE value of `textbook` without the bonus (some statistics).
    fn rave_mean(n: f64, w: f64, an: f64, aw: f64, bias: f64, fading_k: Option<f64>) -> f64 {
        let q = if n > 0.0 { w / n } else { 0.0 };
        if an == 0.0 {
            return q;
        }
        let beta = match fading_k {
            None => an / (n + an + 4.0 * bias * bias * n * an),
            Some(_) if n == 0.0 => 1.0,
            Some(k) => k / (k + n),
        };
        (1.0 - beta) * q + beta * aw / an
    }

    fn stats() -> impl Strategy<Value = (u32, f64, u32, f64, u8)> {
        (
            0u32..200,
            0.0f64..=1.0,
            0u32..400,
            0.0f64..=1.0,
            prop_oneof![8 => Just(UNPROVEN), 1 => Just(LOSS), 1 => Just(DRAW)],
        )
    }

    fn build(raw: &[(u32, f64, u32, f64, u8)]) -> Vec<Node<u16>> {
        raw.iter()
            .map(|&(n, q, an, qa, proof)| {
                let wins = (f64::from(n) * q) as f32;
                let amaf_wins = (f64::from(an) * qa) as f32;
                child(n, wins, an as f32, amaf_wins, proof)
            })
            .collect()
    }

    proptest! {
        #[test]
        fn the_fast_selection_takes_a_best_child_by_the_textbook_formula(
            raw in prop::collection::vec(stats(), 1..40),
            bias in 0.0f64..0.5,
            fading in prop::option::of(0.0f64..50_000.0),
            fpu in 0.0f64..=1.0,
            bonus in prop_oneof![Just(0.0f64), 0.0f64..1.0],
        ) {
            let children = build(&raw);
            let blend = match fading {
                None => Blend::Mse((4.0 * bias * bias) as f32),
                Some(k) => Blend::Fading(k as f32),
            };
            let s = scoring(blend, fpu as f32, bonus as f32);
            let kept = kept_scores(&children, blend, fpu as f32);
            let by_own = |_, ch: &Node<u16>| own_score(ch, s);
            let by_kept = |j: usize, ch: &Node<u16>| kept_score(ch, &kept[j], s);
            let chosen = select_fast(&children, by_own);
            // The kept scores make the same choice.
            prop_assert_eq!(select_fast(&children, by_kept), chosen);
            // Without proven children the proof-free pass makes the same choice.
            let unproven = children.clone();
            for c in &unproven {
                c.set_proof(UNPROVEN);
            }
            let free = select_fast_unproven(&unproven, by_own);
            prop_assert_eq!(Some(free), select_fast(&unproven, by_own));
            prop_assert_eq!(select_fast_unproven(&unproven, by_kept), free);
            // Proven draws only when no unproven child is left.
            let unproven_left: Vec<usize> = (0..children.len())
                .filter(|&j| children[j].proof() == UNPROVEN)
                .collect();
            let only_draws = unproven_left.is_empty();
            let open: Vec<usize> = if only_draws {
                (0..children.len()).filter(|&j| children[j].proof() == DRAW).collect()
            } else {
                unproven_left
            };
            match chosen {
                None => prop_assert!(open.is_empty()),
                Some(j) => {
                    prop_assert!(open.contains(&j), "chose {} of {:?}", j, open);
                    if only_draws {
                        // Only proven draws are left: each is worth exactly a draw, and both
                        // selection loops take one of them without scoring (the last).
                        return Ok(());
                    }
                    let best = open
                        .iter()
                        .map(|&i| textbook(&children[i], bias, fading, fpu, bonus))
                        .fold(f64::NEG_INFINITY, f64::max);
                    let got = textbook(&children[j], bias, fading, fpu, bonus);
                    prop_assert!(got >= best - 1e-5, "chose {got}, best {best}");
                }
            }
        }
    }

    #[test]
    fn the_bias_cutoff_stops_the_bias_of_a_child_with_that_many_visits() {
        // Both with 1,000 visits (plain means: no AMAF samples); the first's bias of 1.0 adds
        // 1/sqrt(1000) = 0.032 to its 0.50, more than the second's lead of 0.02.
        let children = vec![
            child(1000, 500.0, 0.0, 0.0, UNPROVEN),
            child(1000, 520.0, 0.0, 0.0, UNPROVEN),
        ];
        children[0].set_bias(100);
        let mut s = scoring(Blend::Fading(1000.0), 1.0, 0.0);
        let by_own = |s: FastScoring| move |_, ch: &Node<u16>| own_score(ch, s);
        assert_eq!(select_fast_unproven(&children, by_own(s)), 0);
        s.bias_cutoff = 1001;
        assert_eq!(select_fast_unproven(&children, by_own(s)), 0);
        s.bias_cutoff = 1000;
        assert_eq!(select_fast_unproven(&children, by_own(s)), 1);
    }

    #[test]
    fn a_proven_win_is_taken_and_proven_losses_are_skipped() {
        let children = vec![
            child(50, 50.0, 100.0, 100.0, LOSS),
            child(10, 1.0, 10.0, 1.0, UNPROVEN),
            child(10, 2.0, 10.0, 2.0, UNPROVEN),
        ];
        let s = scoring(Blend::Mse(0.01), 1.0, 0.0);
        let by_own = |_, ch: &Node<u16>| own_score(ch, s);
        assert_eq!(select_fast(&children, by_own), Some(2));
        let mut with_win = children.clone();
        with_win.push(child(1, 0.0, 0.0, 0.0, WIN));
        assert_eq!(select_fast(&with_win, by_own), Some(3));
        let lost = vec![child(3, 0.0, 0.0, 0.0, LOSS), child(9, 0.0, 0.0, 0.0, LOSS)];
        assert_eq!(select_fast(&lost, by_own), None);
    }
}
