//! The worker's choice of a child on the way down ([`Worker::select`]): the scoring of one
//! parent's children worked out once, then the fast pass over their own or kept statistics
//! where the schedule has a fast blend, else the general pass (UCT, any RAVE schedule,
//! GRAVE's reference statistics, the progressive bias); the shortlists are in `shortlist`,
//! GRAVE's references in `grave`.

use super::grave::{GRAVE_SLOTS, grave_slot, rave_source};
use super::{
    Blend, FastScoring, InvSqrt, kept_score, own_score, progressive_bias, rave_value,
    score_with_amaf, select_fast, select_fast_unproven,
};
use crate::config::{Config, RaveSchedule};
use crate::game::{Game, Player, Playout};
use crate::search::worker::Worker;
use crate::tree::{Arena, DRAW, LOSS, NONE, Node, NodeId, WIN};

impl<G: Game, P: Playout<G>> Worker<G, P> {
    /// Chooses the child of `node` to descend into.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn select(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        parent: &Node<G::Move>,
        player: Player,
        config: &Config,
        grave_ref: &mut [NodeId; GRAVE_SLOTS],
        game: &G,
    ) -> NodeId {
        let range = parent.children();
        let parent_visits = parent.visits();
        let last_mover = self.trace.raw().last().map(|&(_, p)| p as Player);
        let (schedule, reference) = rave_source(
            config.selection(),
            node,
            parent_visits,
            &mut grave_ref[grave_slot(player, last_mover)],
        );
        if reference != NONE && self.grave_owner != reference {
            self.build_grave_map(tree, reference, game);
        }
        let scoring = Scoring {
            schedule,
            reference,
            blend: schedule.and_then(|s| Blend::of(s, range.len())),
            c: config.exploration() as f32,
            bonus: (config.exploration() * f64::from(parent_visits.max(1)).ln().sqrt()) as f32,
            inv_sqrt: InvSqrt::table(),
            fpu: config.first_play_urgency() as f32,
            moves: range.len(),
            bias_cutoff: config.bias_cutoff().unwrap_or(u32::MAX),
        };
        if let Some(shortlist) = config.shortlist()
            && range.len() > 2 * shortlist.size
        {
            return self.select_shortlisted(
                tree,
                node,
                range,
                parent_visits,
                &scoring,
                game,
                shortlist,
            );
        }
        #[cfg(test)]
        if GENERAL_ONLY.with(std::cell::Cell::get) {
            return self.select_general(tree, range, &scoring, game);
        }
        if let Some(blend) = scoring.blend {
            let fast = FastScoring {
                blend,
                fpu: scoring.fpu,
                // `child_score` adds no bonus without exploration.
                bonus: if scoring.c > 0.0 { scoring.bonus } else { 0.0 },
                inv_sqrt: scoring.inv_sqrt,
                bias_cutoff: scoring.bias_cutoff,
            };
            if reference == NONE {
                return self.select_fast(tree, range, fast, parent.child_proven());
            }
            // GRAVE: the reference's AMAF statistics, `child_score`'s operations.
            return self.select_by(tree, range, |ch| {
                let (an, aw) = self.grave_stats(tree, game.move_index(ch.mv()));
                score_with_amaf(ch, an, aw, fast)
            });
        }
        self.select_general(tree, range, &scoring, game)
    }

    /// `select` in the general case: a proven win at once, proven losses skipped, else the
    /// best score (see [`Worker::child_score`]) plus the progressive bias.
    ///
    /// Proven draws are skipped too while an unproven child is left: a draw's value is
    /// known, and only an unproven child can still be better. Without this, a search without
    /// exploration could settle on a proven draw for good, and never learn that a sibling
    /// wins (tic-tac-toe games were lost that way, `tests/known_games.rs`); with it, every
    /// simulation goes through unproven nodes, so a solver search of a finite game whose
    /// finished positions are won, lost or drawn proves its root in the end.
    #[inline]
    fn select_general(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        scoring: &Scoring,
        game: &G,
    ) -> NodeId {
        self.select_by(tree, range, |ch| {
            self.child_score(tree, ch, scoring, game) + progressive_bias(ch, scoring.bias_cutoff)
        })
    }

    /// `select_general`'s choice with the children scored by `score`.
    #[inline(always)]
    fn select_by(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        score: impl Fn(&Node<G::Move>) -> f32,
    ) -> NodeId {
        let mut best = NONE;
        let mut best_score = f32::NEG_INFINITY;
        let mut draw = NONE;
        for (ch, i) in tree.slice(range.clone()).iter().zip(range.clone()) {
            match ch.proof() {
                WIN => return i as NodeId,
                LOSS => continue,
                DRAW => {
                    draw = i as NodeId;
                    continue;
                }
                _ => {}
            }
            let score = score(ch);
            if score > best_score {
                best_score = score;
                best = i as NodeId;
            }
        }
        if best == NONE {
            best = draw;
        }
        if best == NONE {
            best = most_visited(tree, range);
        }
        best
    }

    /// A child's UCT value (without a RAVE schedule), else its RAVE value on its own or the
    /// GRAVE reference's AMAF statistics, plus the UCT bonus when exploration is on.
    #[inline]
    pub(super) fn child_score(
        &self,
        tree: &Arena<G::Move>,
        ch: &Node<G::Move>,
        s: &Scoring,
        game: &G,
    ) -> f32 {
        let visits = ch.visits();
        let (n, wins) = (visits as f32, ch.wins());
        let Some(schedule) = s.schedule else {
            return if visits == 0 {
                s.fpu
            } else {
                wins / n + s.bonus * s.inv_sqrt.of(visits)
            };
        };
        let (an, aw) = if s.reference == NONE {
            (ch.amaf_visits(), ch.amaf_wins())
        } else {
            self.grave_stats(tree, game.move_index(ch.mv()))
        };
        let mut v = match s.blend {
            Some(blend) => blend.value(n, wins, an, aw, s.fpu),
            None => rave_value(schedule, n, wins, an, aw, s.moves, s.fpu),
        };
        if s.c > 0.0 && (visits > 0 || an > 0.0) {
            v += s.bonus * s.inv_sqrt.of(visits.max(1));
        }
        v
    }

    /// `select` in its most common case (see [`select_fast`]): the children scored by their
    /// own statistics, through their kept scores where the tree keeps them.
    #[inline]
    fn select_fast(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        scoring: FastScoring,
        child_proven: bool,
    ) -> NodeId {
        if self.kept.is_some() {
            return select_kept(tree, range, scoring, child_proven);
        }
        let children = tree.slice(range.clone());
        let score = |_, ch: &Node<G::Move>| own_score(ch, scoring);
        if !child_proven {
            return (range.start + select_fast_unproven(children, score)) as NodeId;
        }
        match select_fast(children, score) {
            Some(j) => (range.start + j) as NodeId,
            None => most_visited(tree, range),
        }
    }
}

/// Every child is a proven loss: the most visited one (the first child if none).
pub(super) fn most_visited<M: Copy>(tree: &Arena<M>, range: std::ops::Range<usize>) -> NodeId {
    let first = range.start;
    let children = tree.slice(range.clone());
    range
        .zip(children)
        .max_by_key(|(_, c)| c.visits())
        .map_or(first, |(i, _)| i) as NodeId
}

/// What [`Worker::select`] scores the children of one parent with.
#[derive(Clone, Copy)]
pub(super) struct Scoring {
    /// The RAVE schedule (`None`: plain UCT).
    schedule: Option<RaveSchedule>,
    /// The GRAVE reference node whose AMAF statistics stand in for the children's own
    /// (`NONE`: their own).
    reference: NodeId,
    /// The schedule's fast form, if it has one.
    blend: Option<Blend>,
    /// The UCT exploration constant.
    c: f32,
    /// The UCT bonus of a child with one visit: `c sqrt(ln N)` for the parent's `N` visits
    /// (at least 1); a child with `n` visits gets it over `sqrt(n)`.
    bonus: f32,
    /// `1 / sqrt(n)` by look-up: one child's score is otherwise bound by the divider.
    inv_sqrt: &'static InvSqrt,
    /// First-play urgency: the value of a child without statistics.
    fpu: f32,
    /// The parent's number of children.
    moves: usize,
    /// The visits from which the progressive bias stops (`u32::MAX`: never).
    pub(super) bias_cutoff: u32,
}

/// `Worker::select_fast` through the children's kept scores. A function of its own: inlined
/// beside the pass over the statistics, it slowed that pass by a twentieth (Havannah).
#[inline(never)]
fn select_kept<M: Copy>(
    tree: &Arena<M>,
    range: std::ops::Range<usize>,
    scoring: FastScoring,
    child_proven: bool,
) -> NodeId {
    let children = tree.slice(range.clone());
    let kept = tree.scores(range.clone());
    let score = |j: usize, ch: &Node<M>| kept_score(ch, &kept[j], scoring);
    if !child_proven {
        return (range.start + select_fast_unproven(children, score)) as NodeId;
    }
    match select_fast(children, score) {
        Some(j) => (range.start + j) as NodeId,
        None => most_visited(tree, range),
    }
}

#[cfg(test)]
thread_local! {
    /// Every selection of this thread's searches through `select_general` (the scoring
    /// of `child_score`), the reference that the fast passes must match bit for bit.
    pub(crate) static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
