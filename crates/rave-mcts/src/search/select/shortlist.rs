//! Shortlist selection: a wide node's best children kept from its last full scoring, the
//! choice made among them alone until the node's visits reach their due count, in a small
//! table direct-mapped by node.

use super::choice::{Scoring, most_visited};
use super::progressive_bias;
use crate::config::Shortlist;
use crate::game::{Game, Playout};
use crate::search::worker::Worker;
use crate::tree::{Arena, DRAW, LOSS, NONE, NodeId, WIN};

/// One node's shortlist: the best children of its last full scoring, best first.
#[derive(Clone, Copy)]
pub(crate) struct ShortlistEntry {
    /// The node (`NONE`: a free slot).
    node: NodeId,
    /// The node's visits at which it is scored in full again.
    due: u32,
    len: u8,
    children: [NodeId; Shortlist::MAX_SIZE],
}

impl ShortlistEntry {
    pub(crate) const FREE: ShortlistEntry = ShortlistEntry {
        node: NONE,
        due: 0,
        len: 0,
        children: [NONE; Shortlist::MAX_SIZE],
    };
}

/// Shortlist slots: 2^12, about 200 KiB.
const SHORTLIST_BITS: u32 = 12;

/// The shortlist slot of `node` (a multiplicative hash: node ids come in runs).
fn shortlist_slot(node: NodeId) -> usize {
    (node.wrapping_mul(0x9E37_79B1) >> (32 - SHORTLIST_BITS)) as usize
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    /// `select` with a shortlist: the best child of the node's shortlist while it is fresh
    /// (the node's visits below its due count) and holds an unproven child or a proven win,
    /// else a full pass (the general one) that makes a new shortlist.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn select_shortlisted(
        &mut self,
        tree: &Arena<G::Move>,
        node: NodeId,
        range: std::ops::Range<usize>,
        visits: u32,
        scoring: &Scoring,
        game: &G,
        shortlist: Shortlist,
    ) -> NodeId {
        if self.shortlists.is_empty() {
            self.shortlists = vec![ShortlistEntry::FREE; 1 << SHORTLIST_BITS];
        }
        let slot = shortlist_slot(node);
        let entry = self.shortlists[slot];
        if entry.node == node && visits < entry.due {
            let listed = &entry.children[..usize::from(entry.len)];
            if let Some(best) = self.best_listed(tree, listed, scoring, game) {
                return best;
            }
        }
        let (best, mut entry) = self.select_and_list(tree, range, scoring, game, shortlist.size);
        entry.node = node;
        entry.due = visits.saturating_add(shortlist.rescan_every);
        self.shortlists[slot] = entry;
        best
    }

    /// The best unproven child of `listed` (a proven win at once), as `select_general`
    /// scores them; `None` if all are proven losses or draws.
    #[inline]
    fn best_listed(
        &self,
        tree: &Arena<G::Move>,
        listed: &[NodeId],
        scoring: &Scoring,
        game: &G,
    ) -> Option<NodeId> {
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for &id in listed {
            let ch = tree.node(id);
            match ch.proof() {
                WIN => return Some(id),
                LOSS | DRAW => continue,
                _ => {}
            }
            let score = self.child_score(tree, ch, scoring, game)
                + progressive_bias(ch, scoring.bias_cutoff);
            if score > best_score {
                best_score = score;
                best = Some(id);
            }
        }
        best
    }

    /// `select_general`'s choice, and the `size` best unproven children, best first (ties in
    /// the children's order, so the first is `select_general`'s choice when it is unproven).
    /// The proof rules are `select_general`'s, written out again: one loop for both, with a
    /// closure for what each does with a score, ran the player 8% slower without a shortlist
    /// (89,000 against 97,000 simulations a second, five four-game runs each).
    fn select_and_list(
        &self,
        tree: &Arena<G::Move>,
        range: std::ops::Range<usize>,
        scoring: &Scoring,
        game: &G,
        size: usize,
    ) -> (NodeId, ShortlistEntry) {
        let mut list = ShortlistEntry::FREE;
        let mut scores = [f32::NEG_INFINITY; Shortlist::MAX_SIZE];
        let mut len = 0;
        let mut draw = NONE;
        for (ch, i) in tree.slice(range.clone()).iter().zip(range.clone()) {
            match ch.proof() {
                WIN => return (i as NodeId, ShortlistEntry::FREE),
                LOSS => continue,
                DRAW => {
                    draw = i as NodeId;
                    continue;
                }
                _ => {}
            }
            let score = self.child_score(tree, ch, scoring, game)
                + progressive_bias(ch, scoring.bias_cutoff);
            // Only above the last listed (minus infinity until the list is full): like
            // `select_general`, never a NaN or minus infinity.
            if score <= scores[size - 1] || score.is_nan() {
                continue;
            }
            // After every child at least as good: the earlier of equals stays first.
            let at = scores[..len].partition_point(|&s| s >= score);
            len = (len + 1).min(size);
            for k in (at + 1..len).rev() {
                scores[k] = scores[k - 1];
                list.children[k] = list.children[k - 1];
            }
            scores[at] = score;
            list.children[at] = i as NodeId;
        }
        list.len = len as u8;
        let best = if len > 0 {
            list.children[0]
        } else if draw != NONE {
            draw
        } else {
            most_visited(tree, range)
        };
        (best, list)
    }
}
