//! Tree reuse: keeps the subtree below a child of the root as the new tree, its children
//! groups moved down in place (with their kept scores) to the start of the arena and its
//! nodes pointed at their children's new places.

use std::sync::OnceLock;

use super::chunk::unallocated;
use super::{Arena, CHUNK, CHUNK_BITS};
use crate::tree::{Node, NodeId, ROOT};

impl<M: Copy> Arena<M> {
    /// Keeps only the subtree below `child` (any node but the root), which becomes the root,
    /// compacted in place to the start of the arena; the chunks are kept.
    pub(crate) fn keep_subtree(&mut self, child: NodeId) {
        let groups = self.subtree_groups(child);
        let root = self.node(child).data();
        self.node_mut(ROOT).set_data(&root);
        self.compact(groups);
    }

    /// Moves the children `groups` (first child, new place (filled in here), count) down to
    /// the start of the arena after the root, in address order, and points every node of the
    /// root and the groups at its children group's new place. The nodes outside the groups
    /// (but the root) are dropped; every expanded node of the root and the groups must have
    /// its children group among them.
    pub(super) fn compact(&mut self, mut groups: Vec<(NodeId, NodeId, NodeId)>) {
        // Groups never overlap and all lie at index 1 or above (0 is the root), so the groups
        // before one in address order fill at most the space below it (a group that would
        // straddle a chunk's end moves to the next chunk's start, which is at most its old
        // place, since the old group did not straddle it): each group moves down or stays.
        groups.sort_unstable_by_key(|g| g.0);
        let mut next = 1usize;
        let mut skipped = 0;
        for g in &mut groups {
            let (old, len) = (g.0 as usize, g.2 as usize);
            if (next & (CHUNK - 1)) + len > CHUNK {
                let start = (next | (CHUNK - 1)) + 1;
                skipped += start - next;
                next = start;
            }
            debug_assert!(next <= old);
            if next != old {
                self.move_nodes(old, next, len);
            }
            g.1 = next as NodeId;
            next += len;
        }
        *self.len.get_mut() = next;
        *self.skipped.get_mut() = skipped;
        // Re-point every kept expanded node (the root and the moved groups) at its children
        // group's new place.
        let ranges =
            std::iter::once((0, 1)).chain(groups.iter().map(|g| (g.1 as usize, g.2 as usize)));
        let ranges: Vec<(usize, usize)> = ranges.collect();
        for (start, len) in ranges {
            for i in start..start + len {
                let n = self.node_mut(i as NodeId);
                if *n.num_children.get_mut() > 0 {
                    let fc = *n.first_child.get_mut();
                    let at = groups.partition_point(|gr| gr.0 < fc);
                    debug_assert_eq!(groups[at].0, fc, "a kept group");
                    *n.first_child.get_mut() = groups[at].1;
                }
            }
        }
    }

    /// Moves the nodes `from .. from + len` (within one chunk) to `to .. to + len` (within
    /// one chunk, at or below `from`), with their kept scores where the arena keeps them.
    fn move_nodes(&mut self, from: usize, to: usize, len: usize) {
        move_within(&mut self.chunks, from, to, len);
        if self.keeps_scores {
            move_within(&mut self.scores, from, to, len);
        }
    }

    pub(super) fn node_mut(&mut self, id: NodeId) -> &mut Node<M> {
        let id = id as usize;
        let chunk = self.chunks[id >> CHUNK_BITS]
            .get_mut()
            .unwrap_or_else(|| unallocated());
        &mut chunk[id & (CHUNK - 1)]
    }

    /// The children groups (first child, new place (filled in later), count) below `top`,
    /// in no particular order.
    fn subtree_groups(&self, top: NodeId) -> Vec<(NodeId, NodeId, NodeId)> {
        let mut groups = Vec::new();
        let mut stack = vec![top];
        while let Some(i) = stack.pop() {
            let n = self.node(i);
            if n.is_expanded() {
                groups.push((n.first_child(), 0, NodeId::from(n.num_children())));
                // Only the expanded children: most are leaves, and the stack stays small.
                let range = n.children();
                let first = range.start;
                for (k, c) in self.slice(range).iter().enumerate() {
                    if c.is_expanded() {
                        stack.push((first + k) as NodeId);
                    }
                }
            }
        }
        groups
    }
}

/// Moves the items `from .. from + len` (within one chunk) of `chunks` to `to .. to + len`
/// (within one chunk, at or below `from`), as `memmove` does: tree reuse moves a large part
/// of the tree, and copying field by field took twice as long. The items are nodes or kept
/// scores, whose bitwise copies are valid values of them.
fn move_within<T>(chunks: &mut [OnceLock<Box<[T]>>], from: usize, to: usize, len: usize) {
    let (fc, tc) = (from >> CHUNK_BITS, to >> CHUNK_BITS);
    let (fo, to_offset) = (from & (CHUNK - 1), to & (CHUNK - 1));
    let src_len = chunks[fc].get().map_or(0, |c| c.len());
    let dst_len = chunks[tc].get().map_or(0, |c| c.len());
    assert!(
        fo + len <= src_len && to_offset + len <= dst_len,
        "nodes out of their chunks"
    );
    let dst = chunks[tc]
        .get_mut()
        .unwrap_or_else(|| unallocated())
        .as_mut_ptr();
    let src = if fc == tc {
        dst.cast_const()
    } else {
        chunks[fc].get().unwrap_or_else(|| unallocated()).as_ptr()
    };
    // SAFETY: both ranges lie within allocated chunks (checked above); the chunks are held
    // through `&mut`, so no other thread reads or writes any of them now; `ptr::copy` allows
    // the ranges to overlap (within one chunk both pointers come from the one mutable
    // borrow). A bitwise copy of a node is a valid node (atomics, plain integers, and a
    // `MaybeUninit<M>` of a `Copy` move), and of a kept score a valid score (two atomics).
    unsafe { std::ptr::copy(src.add(fo), dst.add(to_offset), len) };
}

#[cfg(test)]
mod tests {
    use super::super::test_trees::{add_group, numbered, subtree};
    use super::*;

    #[test]
    fn tree_reuse_moves_groups_across_and_past_chunk_ends() {
        // (size of a dropped group, size of the kept child's group, size of the group below
        // it): the last group lies at the start of the second chunk; after compaction it does
        // not fit in the first chunk's end (it stays), or it does (it moves back into the
        // first chunk).
        for (dropped, big, last, moves_back) in [
            (0, CHUNK - 100, 1000, false),
            (500, CHUNK - 1000, 990, true),
        ] {
            let mut arena: Arena<u32> = Arena::new();
            arena.set_limit(3 * CHUNK);
            assert!(arena.push_root(0));
            let kids = add_group(&arena, ROOT, &numbered(3, 1), 1);
            if dropped > 0 {
                add_group(&arena, kids + 1, &numbered(dropped, 100_000), 100_000);
            }
            let kept = kids;
            let g1 = add_group(&arena, kept, &numbered(big, 200_000), 200_000);
            let g2 = add_group(&arena, g1 + 7, &numbered(last, 300_000), 300_000) as usize;
            assert_eq!(g2, CHUNK, "the last group starts the second chunk");
            add_group(&arena, g2 as NodeId + 3, &numbered(2, 400_000), 400_000);
            let expected = subtree(&arena, kept);
            arena.keep_subtree(kept);
            assert_eq!(subtree(&arena, ROOT), expected);
            assert_eq!(arena.nodes(), expected.len());
            let g2_now = arena.node(arena.node(ROOT).first_child() + 7).first_child() as usize;
            assert_eq!(g2_now < CHUNK, moves_back, "group at {g2_now}");
            // The arena goes on allocating after the kept nodes.
            assert!(arena.alloc(10).is_some());
        }
    }
}
