//! Pruning a full tree: the children of the least visited expanded nodes are dropped, so
//! that the search can go on growing the tree where it spends its visits.

use super::Arena;
use crate::tree::{NONE, NodeId, ROOT};

impl<M: Copy> Arena<M> {
    /// Drops the children of every expanded node below the root with fewer than a threshold
    /// of visits (with its whole subtree), the threshold the least that keeps at most
    /// `keep_at_most` nodes; the root and its children are always kept. The dropped nodes'
    /// parents become leaves that keep their own statistics and proofs. Returns the
    /// threshold, or `None` when no threshold above 0 keeps so few nodes while dropping any
    /// (the tree is left as it was).
    pub(crate) fn prune(&mut self, keep_at_most: usize) -> Option<u32> {
        let below = self.expanded_below_root();
        let threshold = threshold(&below, 1 + self.node(ROOT).children().len(), keep_at_most)?;
        let root = self.node(ROOT);
        let mut groups = vec![(root.first_child(), 0, NodeId::from(root.num_children()))];
        for e in &below {
            if e.path_min >= threshold {
                groups.push((e.first_child, 0, e.count));
            } else if e.parent_min >= threshold {
                let n = self.node_mut(e.id);
                *n.num_children.get_mut() = 0;
                *n.first_child.get_mut() = NONE;
            }
        }
        self.compact(groups);
        Some(threshold)
    }

    /// Every expanded node below the root, in one pass over the tree (which reads every
    /// expanded node's children: the whole tree).
    fn expanded_below_root(&self) -> Vec<Expanded> {
        let mut below = Vec::new();
        let mut stack: Vec<(NodeId, u32)> = vec![(ROOT, u32::MAX)];
        while let Some((i, parent_min)) = stack.pop() {
            let range = self.node(i).children();
            let first = range.start;
            for (k, c) in self.slice(range).iter().enumerate() {
                if c.is_expanded() {
                    let id = (first + k) as NodeId;
                    let path_min = parent_min.min(c.visits());
                    below.push(Expanded {
                        id,
                        first_child: c.first_child(),
                        count: NodeId::from(c.num_children()),
                        path_min,
                        parent_min,
                    });
                    stack.push((id, path_min));
                }
            }
        }
        below
    }
}

/// An expanded node below the root, for pruning.
struct Expanded {
    id: NodeId,
    first_child: NodeId,
    /// Its children's count.
    count: NodeId,
    /// The fewest visits on its path from the root's child (the node itself included): it
    /// keeps its children exactly when this is at or above the threshold.
    path_min: u32,
    /// The same for its parent (`u32::MAX` for a child of the root): it is kept (as a leaf
    /// or not) exactly when this is at or above the threshold.
    parent_min: u32,
}

/// The least visit threshold that keeps at most `keep_at_most` nodes (`kept` of them always
/// kept), if one drops anything.
fn threshold(below: &[Expanded], mut kept: usize, keep_at_most: usize) -> Option<u32> {
    if below.is_empty() || kept > keep_at_most {
        return None;
    }
    let mut by_visits: Vec<(u32, usize)> = below
        .iter()
        .map(|e| (e.path_min, e.count as usize))
        .collect();
    by_visits.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    for &(m, count) in &by_visits {
        kept += count;
        if kept > keep_at_most {
            // Every node with `m` visits or fewer on its path goes.
            return (m < u32::MAX).then_some(m + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::CHUNK;
    use super::super::test_trees::{add_group, subtree};
    use super::*;

    /// A root with three children of 100, 10 and 3 visits; the first has a group of 4 with
    /// a grandchild group of 5 under its 40-visit child, the second a group of 6, the third
    /// a group of 2.
    fn tree() -> (Arena<u32>, NodeId) {
        let mut arena: Arena<u32> = Arena::new();
        arena.set_limit(2 * CHUNK);
        assert!(arena.push_root(0));
        let kids = add_group(&arena, ROOT, &[100, 10, 3], 1);
        let g1 = add_group(&arena, kids, &[40, 30, 20, 9], 10);
        add_group(&arena, kids + 1, &[2, 2, 2, 1, 1, 1], 20);
        add_group(&arena, kids + 2, &[1, 1], 30);
        add_group(&arena, g1, &[7, 7, 7, 7, 7], 40);
        (arena, kids)
    }

    #[test]
    fn pruning_drops_the_least_visited_subtrees_first_and_keeps_the_rest_intact() {
        let (mut arena, kids) = tree();
        assert_eq!(arena.nodes(), 1 + 3 + 4 + 6 + 2 + 5);
        // Room for the root, its children and the biggest node's two groups (4 and 5):
        // the 10- and 3-visit nodes lose their children.
        let first_kept = subtree(&arena, kids);
        assert_eq!(arena.prune(13), Some(11));
        assert_eq!(arena.nodes(), 1 + 3 + 4 + 5);
        let now = arena.node(ROOT).first_child();
        assert_eq!(
            subtree(&arena, now),
            first_kept,
            "the 100-visit subtree, untouched"
        );
        for (k, (mv, visits)) in [(2, 10), (3, 3)].into_iter().enumerate() {
            let n = arena.node(now + 1 + k as NodeId);
            assert_eq!((n.mv(), n.visits(), n.children().len()), (mv, visits, 0));
            assert_eq!(n.wins(), visits as f32 / 2.0);
        }
        // The arena goes on allocating after the kept nodes, and a pruned node can be
        // expanded again.
        let again = arena.node(now + 1);
        assert!(again.claim().is_ok());
        let first = arena.alloc(2).expect("room");
        assert_eq!(first as usize, arena.nodes() - 2);
    }

    #[test]
    fn the_threshold_counts_a_node_by_the_fewest_visits_on_its_path() {
        let (mut arena, _) = tree();
        // Keeping 16 nodes: the 100-visit node's group (4) and its 40-visit child's group (5)
        // and the 10-visit node's group (6) need 19; dropping the 3-visit node's group (2)
        // leaves 17: the 10-visit node goes too (threshold 11), not the 3-visit one alone.
        assert_eq!(arena.prune(16), Some(11));
        assert_eq!(arena.nodes(), 13);
        let (mut arena, _) = tree();
        assert_eq!(
            arena.prune(19),
            Some(4),
            "only the 3-visit node's group goes"
        );
        assert_eq!(arena.nodes(), 19);
    }

    #[test]
    fn nothing_is_pruned_when_nothing_can_be_dropped_or_too_little_is_asked() {
        let (mut arena, _) = tree();
        let before = subtree(&arena, ROOT);
        assert_eq!(arena.prune(100), None, "everything fits");
        assert_eq!(arena.prune(3), None, "not even the root's children fit");
        assert_eq!(subtree(&arena, ROOT), before);
        assert_eq!(arena.nodes(), 21);
    }
}
