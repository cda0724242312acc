//! GRAVE's references: the node whose AMAF statistics stand in for those of the children of
//! less visited nodes below it, kept per player on the way down, and the map from a move to
//! the reference's child that holds its statistics.

use crate::config::{RaveSchedule, Selection};
use crate::game::{Game, Player, Playout};
use crate::search::worker::Worker;
use crate::tree::{Arena, NONE, NodeId};

impl<G: Game, P: Playout<G>> Worker<G, P> {
    pub(super) fn build_grave_map(&mut self, tree: &Arena<G::Move>, reference: NodeId, game: &G) {
        self.grave_stamp = self.grave_stamp.wrapping_add(1);
        if self.grave_stamp == 0 {
            self.grave_map.fill(0);
            self.grave_stamp = 1;
        }
        let stamp = u64::from(self.grave_stamp) << 32;
        let range = tree.node(reference).children();
        for (c, i) in tree.slice(range.clone()).iter().zip(range) {
            let idx = game.move_index(c.mv());
            if let Some(slot) = self.grave_map.get_mut(idx) {
                *slot = stamp | i as u64;
            }
        }
        self.grave_owner = reference;
    }

    #[inline]
    pub(super) fn grave_stats(&self, tree: &Arena<G::Move>, idx: usize) -> (f32, f32) {
        match self.grave_map.get(idx) {
            Some(&v) if (v >> 32) as u32 == self.grave_stamp => {
                let n = tree.node((v & 0xffff_ffff) as NodeId);
                (n.amaf_visits(), n.amaf_wins())
            }
            _ => (0.0, 0.0),
        }
    }
}

/// The GRAVE references kept on the way down: one per player, and one more per player for
/// the nodes where that player also made the move into the node.
pub(crate) const GRAVE_SLOTS: usize = 4;

/// The GRAVE reference slot of a node where `player` is to move and `last_mover` made the
/// move into it (`None` at the root). A player who moves twice in a row (a game that splits a
/// move in two) chooses a different kind of move the second time, which its reference for
/// the first kind would not know.
pub(super) fn grave_slot(player: Player, last_mover: Option<Player>) -> usize {
    let again = last_mover == Some(player);
    player.min(1) + 2 * usize::from(again)
}

/// The RAVE schedule of `selection` (`None` for plain UCT) and the GRAVE reference for the
/// children of `node` with `visits` visits: a node with at least GRAVE's `min_visits`
/// becomes the reference (`reference`, kept per slot down the path, see [`grave_slot`]) and
/// uses its own AMAF statistics (`NONE`); one with fewer uses the last reference above it.
pub(super) fn rave_source(
    selection: Selection,
    node: NodeId,
    visits: u32,
    reference: &mut NodeId,
) -> (Option<RaveSchedule>, NodeId) {
    match selection {
        Selection::Uct => (None, NONE),
        Selection::Rave(s) => (Some(s), NONE),
        Selection::Grave {
            schedule,
            min_visits,
        } => {
            if visits >= min_visits {
                *reference = node;
                (Some(schedule), NONE)
            } else {
                (Some(schedule), *reference)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_moving_again_has_grave_references_of_its_own() {
        // Alternating moves: one slot per player.
        assert_eq!(grave_slot(0, None), 0);
        assert_eq!(grave_slot(1, Some(0)), 1);
        assert_eq!(grave_slot(0, Some(1)), 0);
        // The same player again: other slots.
        assert_eq!(grave_slot(0, Some(0)), 2);
        assert_eq!(grave_slot(1, Some(1)), 3);
    }

    #[test]
    fn a_well_visited_node_becomes_the_grave_reference_of_those_below() {
        let schedule = RaveSchedule::MinimumMse { bias: 0.1 };
        let grave = Selection::Grave {
            schedule,
            min_visits: 50,
        };
        let mut reference = NONE;
        assert_eq!(
            rave_source(grave, 0, 10, &mut reference),
            (Some(schedule), NONE)
        );
        assert_eq!(
            rave_source(grave, 3, 50, &mut reference),
            (Some(schedule), NONE)
        );
        assert_eq!(reference, 3);
        assert_eq!(
            rave_source(grave, 7, 49, &mut reference),
            (Some(schedule), 3)
        );
        let rave = Selection::Rave(schedule);
        assert_eq!(
            rave_source(rave, 7, 0, &mut reference),
            (Some(schedule), NONE)
        );
        assert_eq!(
            rave_source(Selection::Uct, 7, 0, &mut reference),
            (None, NONE)
        );
    }
}
