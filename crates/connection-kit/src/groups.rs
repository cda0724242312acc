//! Groups of stones by union-find with an edge mask at each root.

/// An index of the union-find: `u8` for boards of at most 256 cells, `u16` up to 65,536,
/// `u32` beyond. Sealed: these three only.
pub trait Node: Copy + Eq + sealed::Sealed {
    /// The node of cell `index` (which fits the type: the storage has that many cells).
    fn of(index: usize) -> Self;
    /// The cell this node stands for.
    fn index(self) -> usize;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
}

macro_rules! node {
    ($t:ty) => {
        impl Node for $t {
            #[inline]
            fn of(index: usize) -> $t {
                debug_assert!(
                    <$t>::try_from(index).is_ok(),
                    "cell {index} beyond the node type"
                );
                index as $t
            }
            #[inline]
            fn index(self) -> usize {
                self as usize
            }
        }
    };
}
node!(u8);
node!(u16);
node!(u32);

/// The storage of a forest's parents: an array or a vector of [`Node`]s, one per cell.
pub trait Parents: AsRef<[Self::Node]> + AsMut<[Self::Node]> {
    /// The index type.
    type Node: Node;
}

impl<N: Node, const K: usize> Parents for [N; K] {
    type Node = N;
}

impl<N: Node> Parents for Vec<N> {
    type Node = N;
}

impl<N: Node> Parents for Box<[N]> {
    type Node = N;
}

/// The groups of a board's stones: a union-find forest over its cells (path halving, union by
/// rank) in which each root holds the bit mask of the edges, sides or corners its group
/// touches. `P` holds the parents (`[u16; N]`, `Vec<u16>`, ...), `M` the masks and the ranks
/// (`[u32; N]`, `Vec<u32>`); the two have one entry per cell.
///
/// A cell that holds no stone is a group of its own; the game unions a new stone with its
/// neighbours of the same colour and adds the edges the cell lies on ([`Groups::add_edges`]).
/// Masks are 24 bits (the ranks share their word): Havannah's six corners and six sides fit.
#[derive(Debug, Copy, PartialEq, Eq, Hash)]
pub struct Groups<P, M> {
    parent: P,
    /// The edge mask in the low 24 bits and the rank above them, valid at a root.
    masks: M,
}

/// The bits of a [`Groups`] word that hold the mask (the rank is above them).
const MASK_BITS: u32 = (1 << 24) - 1;
/// One rank, in a [`Groups`] word (ranks stay below 32: a rank `r` group has `2^r` cells).
const RANK_ONE: u32 = 1 << 24;

impl<P, M> Groups<P, M>
where
    P: Parents,
    M: AsRef<[u32]> + AsMut<[u32]>,
{
    /// Groups over this storage, every cell a group of its own with no edges (the storage's
    /// contents are overwritten; `parent` and `masks` have one entry per cell).
    #[must_use]
    pub fn new(parent: P, masks: M) -> Groups<P, M> {
        debug_assert_eq!(parent.as_ref().len(), masks.as_ref().len());
        let mut groups = Groups { parent, masks };
        groups.reset();
        groups
    }

    /// Every cell a group of its own again, with no edges.
    pub fn reset(&mut self) {
        for (i, p) in self.parent.as_mut().iter_mut().enumerate() {
            *p = P::Node::of(i);
        }
        self.masks.as_mut().fill(0);
    }

    /// The number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.parent.as_ref().len()
    }

    /// Whether there are no cells.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The root of `cell`'s group, halving the path on the way.
    #[inline]
    pub fn find(&mut self, cell: usize) -> usize {
        let parent = self.parent.as_mut();
        let mut x = cell;
        loop {
            let p = parent[x].index();
            if p == x {
                return x;
            }
            let grand = parent[p];
            parent[x] = grand;
            x = grand.index();
        }
    }

    /// Joins the groups of `a` and `b` (the higher rank keeps its root) and their masks;
    /// the root.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) -> usize {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        let masks = self.masks.as_mut();
        let (rank_a, rank_b) = (masks[ra] & !MASK_BITS, masks[rb] & !MASK_BITS);
        if rank_a < rank_b {
            std::mem::swap(&mut ra, &mut rb);
        }
        let bump = if rank_a == rank_b { RANK_ONE } else { 0 };
        masks[ra] = (masks[ra] | (masks[rb] & MASK_BITS)) + bump;
        self.parent.as_mut()[rb] = P::Node::of(ra);
        ra
    }

    /// Adds the edges of `mask` (24 bits at most) to `cell`'s group.
    #[inline]
    pub fn add_edges(&mut self, cell: usize, mask: u32) {
        debug_assert_eq!(mask & !MASK_BITS, 0, "masks have 24 bits");
        let root = self.find(cell);
        self.masks.as_mut()[root] |= mask & MASK_BITS;
    }

    /// The edges `cell`'s group touches.
    #[inline]
    pub fn edges(&mut self, cell: usize) -> u32 {
        let root = self.find(cell);
        self.masks.as_ref()[root] & MASK_BITS
    }

    /// The edges `cell`'s group touches, without compressing the path (for a shared
    /// reference, as the threat test has).
    #[must_use]
    pub fn root_edges(&self, cell: usize) -> u32 {
        let parent = self.parent.as_ref();
        let mut x = cell;
        while parent[x].index() != x {
            x = parent[x].index();
        }
        self.masks.as_ref()[x] & MASK_BITS
    }

    /// Whether `a` and `b` are in one group.
    #[inline]
    pub fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }
}

/// `clone_from` reuses the storage (what a search does once per simulation).
impl<P: Clone, M: Clone> Clone for Groups<P, M> {
    fn clone(&self) -> Self {
        Groups {
            parent: self.parent.clone(),
            masks: self.masks.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.parent.clone_from(&source.parent);
        self.masks.clone_from(&source.masks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The groups and edge masks by flood fill over the union edges given: the reference.
    fn naive(cells: usize, unions: &[(usize, usize)], edges: &[(usize, u32)]) -> Vec<(usize, u32)> {
        let mut label: Vec<usize> = (0..cells).collect();
        // Relabel until no union edge joins two labels (fine for small inputs).
        loop {
            let mut changed = false;
            for &(a, b) in unions {
                let m = label[a].min(label[b]);
                for l in [label[a], label[b]] {
                    if l != m {
                        for x in label.iter_mut().filter(|x| **x == l) {
                            *x = m;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut mask = vec![0u32; cells];
        for &(c, m) in edges {
            mask[label[c]] |= m;
        }
        (0..cells).map(|c| (label[c], mask[label[c]])).collect()
    }

    proptest! {
        #[test]
        fn groups_agree_with_a_flood_fill(
            cells in 1usize..40,
            ops in prop::collection::vec((0usize..40, 0usize..40, 0u32..(1 << 12), any::<bool>()), 0..80),
        ) {
            let mut groups = Groups::new(vec![0u8; cells], vec![0u32; cells]);
            let (mut unions, mut edges) = (Vec::new(), Vec::new());
            for (a, b, m, is_union) in ops {
                let (a, b) = (a % cells, b % cells);
                if is_union {
                    groups.union(a, b);
                    unions.push((a, b));
                } else {
                    groups.add_edges(a, m);
                    edges.push((a, m));
                }
                // Each step, every cell's group and mask as the reference has them.
                let reference = naive(cells, &unions, &edges);
                for (c, &(label, mask)) in reference.iter().enumerate() {
                    prop_assert_eq!(groups.edges(c), mask, "cell {}", c);
                    prop_assert_eq!(groups.same(c, label), true, "cell {} with {}", c, label);
                    for (d, &(other, _)) in reference.iter().enumerate() {
                        prop_assert_eq!(groups.same(c, d), other == label, "{} and {}", c, d);
                    }
                }
            }
        }
    }

    #[test]
    fn arrays_keep_groups_copy_and_reset_clears_them() {
        let mut a = Groups::new([0u16; 4], [0u32; 4]);
        a.union(0, 1);
        a.add_edges(1, 0b100);
        let mut b = a; // Copy
        b.union(2, 3);
        assert!(!a.same(2, 3) && b.same(2, 3));
        assert_eq!(b.edges(0), 0b100);
        b.reset();
        assert!(!b.same(0, 1));
        assert_eq!(b.edges(0), 0);
        assert_eq!((b.len(), b.is_empty()), (4, false));
        let mut v = Groups::new(vec![0u32; 3], vec![0u32; 3]);
        let mut w = Groups::new(vec![0u32; 3], vec![0u32; 3]);
        v.union(0, 2);
        w.clone_from(&v);
        assert!(w.same(0, 2));
    }
}
