//! Hand-built trees for the arena's tests (tree reuse and pruning).

use super::Arena;
use crate::tree::NodeId;

/// Gives `parent` a fresh group of children with these visits (and half as many wins),
/// moves numbered from `tag`; returns the first child.
pub(super) fn add_group(arena: &Arena<u32>, parent: NodeId, visits: &[u32], tag: u32) -> NodeId {
    let first = arena.alloc(visits.len()).expect("room");
    for (k, &v) in visits.iter().enumerate() {
        let n = arena.node(first + k as NodeId);
        n.init(tag + k as u32, 0);
        n.set_visits(v);
        n.set_wins(v as f32 / 2.0);
    }
    arena.node(parent).publish(first, visits.len() as u16);
    first
}

/// `count` visits counts numbered from `tag` (each child of a group told apart by them).
pub(super) fn numbered(count: usize, tag: u32) -> Vec<u32> {
    (0..count as u32).map(|k| tag + k).collect()
}

/// A node and everything below it, depth first (move, visits, wins, children's count; no
/// addresses).
pub(super) fn subtree(arena: &Arena<u32>, id: NodeId) -> Vec<(u32, u32, f32, usize)> {
    let n = arena.node(id);
    let mut out = vec![(n.mv(), n.visits(), n.wins(), n.children().len())];
    for c in n.children() {
        out.extend(subtree(arena, c as NodeId));
    }
    out
}
