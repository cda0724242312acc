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
///
/// Reads and writes go through [`Parents::parent`] and [`Parents::set_parent`], which index
/// the slice; a game with its own storage overrides them (Havannah's fixed-capacity arrays
/// mask the index with their power-of-two length, so that its hot path has no bounds check).
pub trait Parents: AsRef<[Self::Node]> + AsMut<[Self::Node]> {
    /// The index type.
    type Node: Node;

    /// The parent of `cell`.
    #[inline(always)]
    fn parent(&self, cell: usize) -> usize {
        self.as_ref()[cell].index()
    }

    /// Makes `parent` the parent of `cell`.
    #[inline(always)]
    fn set_parent(&mut self, cell: usize, parent: usize) {
        self.as_mut()[cell] = Self::Node::of(parent);
    }
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

/// The storage of a forest's words: at each root, its group's edge mask and number of stones
/// (another cell's word is stale). `u32` arrays, vectors and boxed slices hold both in one
/// word per cell (the mask in the low 16 bits); a game may lay them out as its hot path
/// prefers (Havannah keeps two `u16` arrays, read without a shift).
pub trait Words {
    /// The number of cells.
    fn len(&self) -> usize;
    /// Whether there are no cells.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The mask of `cell`.
    fn mask(&self, cell: usize) -> u32;
    /// The number of stones of `cell`.
    fn stones(&self, cell: usize) -> usize;
    /// Sets both for `cell` (`mask` of 16 bits, `stones` below 65,536).
    fn set(&mut self, cell: usize, stones: usize, mask: u32);
    /// Every cell with no stone and no edges.
    fn clear(&mut self);
    /// Copies `source`'s first `len` cells (the caller keeps `len` within both).
    fn copy_prefix_from(&mut self, source: &Self, len: usize);
}

/// The bits of a packed word that hold the mask (the number of stones is above them).
pub const MASK_BITS: u32 = 0xffff;

macro_rules! packed_words {
    ($($t:ty $(, const $k:ident)?);*) => {$(
        impl$(<const $k: usize>)? Words for $t {
            #[inline]
            fn len(&self) -> usize {
                <[u32]>::len(self)
            }
            #[inline(always)]
            fn mask(&self, cell: usize) -> u32 {
                self[cell] & MASK_BITS
            }
            #[inline(always)]
            fn stones(&self, cell: usize) -> usize {
                (self[cell] >> 16) as usize
            }
            #[inline(always)]
            fn set(&mut self, cell: usize, stones: usize, mask: u32) {
                debug_assert!(stones <= 0xffff && mask <= MASK_BITS);
                self[cell] = ((stones as u32) << 16) | (mask & MASK_BITS);
            }
            fn clear(&mut self) {
                self.fill(0);
            }
            #[inline]
            fn copy_prefix_from(&mut self, source: &Self, len: usize) {
                self[..len].copy_from_slice(&source[..len]);
            }
        }
    )*};
}
packed_words!([u32; K], const K; Vec<u32>; Box<[u32]>);

/// The groups of a board's stones: a union-find forest over its cells (path halving, union by
/// size) in which each root holds the bit mask of the edges, sides or corners its group
/// touches and the number of its stones. `P` holds the parents (`[u16; N]`, `Vec<u16>`, ...),
/// `W` the words (`[u32; N]`, `Vec<u32>`); the two have one entry per cell.
///
/// A cell that holds no stone is a group of its own with no stone and no edges. The game
/// either makes a new stone a group of one ([`Groups::place`]) and unions it with its
/// neighbours of the same colour ([`Groups::union`]), or joins it with the roots of its
/// neighbours' groups in one step ([`Groups::join`]).
/// Masks have 16 bits (Havannah's six corners and six sides fit); counts have 16 bits too,
/// so a board has at most 65,535 cells.
#[derive(Debug, Copy, PartialEq, Eq, Hash)]
pub struct Groups<P, W> {
    parent: P,
    /// The edge mask and the number of stones, valid at a root.
    words: W,
}

impl<P: Parents, W: Words> Groups<P, W> {
    /// Groups over this storage, every cell a group of its own with no stone and no edges
    /// (the storage's contents are overwritten; `parent` and `words` have one entry per cell).
    #[must_use]
    pub fn new(parent: P, words: W) -> Groups<P, W> {
        debug_assert_eq!(parent.as_ref().len(), words.len());
        let mut groups = Groups { parent, words };
        groups.reset();
        groups
    }

    /// Every cell a group of its own again, with no stone and no edges.
    pub fn reset(&mut self) {
        for (i, p) in self.parent.as_mut().iter_mut().enumerate() {
            *p = P::Node::of(i);
        }
        self.words.clear();
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

    /// The root of `cell`'s group, halving the path on the way. Two steps up are taken
    /// without a test (a root is its own parent): union by size and path halving keep the
    /// trees shallow, so the loop seldom runs and its branch is predictable.
    #[inline(always)]
    pub fn find(&mut self, cell: usize) -> usize {
        let p = &mut self.parent;
        let mut x = p.parent(p.parent(cell));
        while p.parent(x) != x {
            let grand = p.parent(p.parent(x));
            p.set_parent(x, grand);
            x = grand;
        }
        x
    }

    /// The root of `cell`'s group without compressing the path (for a shared reference).
    #[inline(always)]
    #[must_use]
    pub fn root(&self, cell: usize) -> usize {
        let p = &self.parent;
        let mut x = p.parent(p.parent(cell));
        while p.parent(x) != x {
            x = p.parent(x);
        }
        x
    }

    /// Makes the empty `cell` a group of one stone touching the edges of `mask` (16 bits at
    /// most); [`Groups::union`] then joins it with its neighbours.
    #[inline]
    pub fn place(&mut self, cell: usize, mask: u32) {
        debug_assert_eq!(mask & !MASK_BITS, 0, "masks have 16 bits");
        self.parent.set_parent(cell, cell);
        self.words.set(cell, 1, mask);
    }

    /// Joins the groups of `a` and `b` (the larger keeps its root, `a`'s on a tie), their
    /// stones and their masks; the root.
    #[inline]
    pub fn union(&mut self, a: usize, b: usize) -> usize {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        let w = &mut self.words;
        let (sa, sb) = (w.stones(ra), w.stones(rb));
        let (root, child) = if sb > sa { (rb, ra) } else { (ra, rb) };
        let mask = w.mask(ra) | w.mask(rb);
        w.set(root, sa + sb, mask);
        self.parent.set_parent(child, root);
        root
    }

    /// Puts a stone on the empty `cell` and joins it with the groups at `roots` into one
    /// group whose whole mask is `mask` (the cell's own edges with the roots' masks, which a
    /// game has at hand to test a win); the new root, the largest group's.
    ///
    /// On a grid of hexagons the same-coloured neighbours of a cell form at most three runs,
    /// and a run is one group already, so three roots cover every placement. Repeats are
    /// allowed, and a root may be `cell` itself (a group with no stone: a missing run). The
    /// writes do not depend on how many different groups there are, so this has no branch.
    ///
    /// ```
    /// use connection_kit::Groups;
    ///
    /// // A row of three cells: stones on the two ends, each touching an edge.
    /// let mut groups = Groups::new([0u8; 3], [0u32; 3]);
    /// groups.place(0, 0b01);
    /// groups.place(2, 0b10);
    /// // The middle stone joins both (the third run is missing: the cell itself).
    /// let mask = groups.mask_at(0) | groups.mask_at(2);
    /// let root = groups.join(1, [0, 2, 1], mask);
    /// assert_eq!((groups.stones_at(root), groups.root_edges(1)), (3, 0b11));
    /// ```
    #[inline(always)]
    pub fn join(&mut self, cell: usize, roots: [usize; 3], mask: u32) -> usize {
        let [r0, r1, r2] = roots;
        let (s0, s1, s2) = (self.stones_at(r0), self.stones_at(r1), self.stones_at(r2));
        let distinct1 = r1 != r0;
        let distinct2 = (r2 != r0) & (r2 != r1);
        let stones = 1 + s0 + select(distinct1, s1, 0) + select(distinct2, s2, 0);
        let big01 = select(s1 > s0, r1, r0);
        let big = select(s2 > self.stones_at(big01), r2, big01);
        let p = &mut self.parent;
        p.set_parent(r0, big);
        p.set_parent(r1, big);
        p.set_parent(r2, big);
        p.set_parent(cell, big);
        self.words.set(big, stones, mask);
        big
    }

    /// Adds the edges of `mask` (16 bits at most) to `cell`'s group.
    #[inline]
    pub fn add_edges(&mut self, cell: usize, mask: u32) {
        debug_assert_eq!(mask & !MASK_BITS, 0, "masks have 16 bits");
        let root = self.find(cell);
        let stones = self.words.stones(root);
        let mask = self.words.mask(root) | (mask & MASK_BITS);
        self.words.set(root, stones, mask);
    }

    /// The edges `cell`'s group touches.
    #[inline]
    pub fn edges(&mut self, cell: usize) -> u32 {
        let root = self.find(cell);
        self.mask_at(root)
    }

    /// The edges `cell`'s group touches, without compressing the path (for a shared
    /// reference, as the threat test has).
    #[must_use]
    pub fn root_edges(&self, cell: usize) -> u32 {
        self.mask_at(self.root(cell))
    }

    /// The mask at `root` (a root, as [`Groups::find`] returns; another cell's word is stale).
    #[inline(always)]
    #[must_use]
    pub fn mask_at(&self, root: usize) -> u32 {
        self.words.mask(root)
    }

    /// The number of stones of the group at `root` (a root, as for [`Groups::mask_at`]).
    #[inline(always)]
    #[must_use]
    pub fn stones_at(&self, root: usize) -> usize {
        self.words.stones(root)
    }

    /// The number of stones in `cell`'s group (0 for an empty cell).
    #[must_use]
    pub fn stones(&self, cell: usize) -> usize {
        self.stones_at(self.root(cell))
    }

    /// Whether `a` and `b` are in one group.
    #[inline]
    pub fn same(&mut self, a: usize, b: usize) -> bool {
        self.find(a) == self.find(b)
    }

    /// Copies `source`'s first `len` cells (a search that copies its root position once per
    /// simulation copies only the cells in use when the storage is larger than the board).
    #[inline]
    pub fn copy_prefix_from(&mut self, source: &Groups<P, W>, len: usize) {
        let len = len.min(self.len()).min(source.len());
        self.parent.as_mut()[..len].copy_from_slice(&source.parent.as_ref()[..len]);
        self.words.copy_prefix_from(&source.words, len);
    }
}

/// `a` if `take`, else `b`, without a branch.
#[inline(always)]
fn select<T>(take: bool, a: T, b: T) -> T {
    std::hint::select_unpredictable(take, a, b)
}

/// `clone_from` reuses the storage (what a search does once per simulation).
impl<P: Clone, W: Clone> Clone for Groups<P, W> {
    fn clone(&self) -> Self {
        Groups {
            parent: self.parent.clone(),
            words: self.words.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.parent.clone_from(&source.parent);
        self.words.clone_from(&source.words);
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
            for c in 0..cells {
                groups.place(c, 0);
            }
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
                // Each step, every cell's group, mask and size as the reference has them.
                let reference = naive(cells, &unions, &edges);
                for (c, &(label, mask)) in reference.iter().enumerate() {
                    let size = reference.iter().filter(|(l, _)| *l == label).count();
                    prop_assert_eq!(groups.edges(c), mask, "cell {}", c);
                    prop_assert_eq!(groups.stones(c), size, "cell {}", c);
                    prop_assert_eq!(groups.same(c, label), true, "cell {} with {}", c, label);
                    for (d, &(other, _)) in reference.iter().enumerate() {
                        prop_assert_eq!(groups.same(c, d), other == label, "{} and {}", c, d);
                    }
                }
            }
        }

        /// Stones of two colours placed on a 6x6 rhombus of hexagons, each joined with the
        /// roots of its same-coloured neighbours in one step, against a flood fill.
        #[test]
        fn join_agrees_with_a_flood_fill(order in Just((0..36usize).collect::<Vec<_>>()).prop_shuffle()) {
            const N: usize = 6;
            const DIRS: [(isize, isize); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
            // The neighbour in each of the six directions, in circular order.
            let around = |c: usize| {
                let (x, y) = ((c % N) as isize, (c / N) as isize);
                DIRS.map(|(dx, dy)| {
                    let (a, b) = (x + dx, y + dy);
                    let on = (0..N as isize).contains(&a) && (0..N as isize).contains(&b);
                    on.then(|| b as usize * N + a as usize)
                })
            };
            let neighbours = |c: usize| around(c).into_iter().flatten();
            // The left column touches edge 0, the right one edge 1.
            let edge = |c: usize| u32::from(c.is_multiple_of(N)) | (u32::from(c % N == N - 1) << 1);
            let mut groups = Groups::new([0u8; N * N], [0u32; N * N]);
            let mut colour = [0u8; N * N];
            for (k, &cell) in order.iter().enumerate() {
                let me = 1 + (k % 2) as u8;
                colour[cell] = me;
                // One root per run of same-coloured neighbours, as Havannah passes them: two
                // runs may be one group (repeats), a missing run is the cell itself.
                let nbs = around(cell);
                let same = |d: usize| nbs[d].is_some_and(|nb| colour[nb] == me);
                let mut roots = [cell; 3];
                for (found, d) in (0..6).filter(|&d| same(d) && !same((d + 5) % 6)).enumerate() {
                    prop_assert!(found < 3, "more than three runs around a hexagon");
                    roots[found] = groups.find(nbs[d].unwrap());
                }
                if (0..6).all(same) {
                    roots[0] = groups.find(nbs[0].unwrap());
                }
                let mask = roots.iter().fold(edge(cell), |m, &r| m | groups.mask_at(r));
                groups.join(cell, roots, mask);
                // The reference: same-coloured adjacent stones, by flood fill.
                let unions: Vec<(usize, usize)> = (0..N * N)
                    .flat_map(|a| neighbours(a).map(move |b| (a, b)))
                    .filter(|&(a, b)| colour[a] != 0 && colour[a] == colour[b])
                    .collect();
                let edges: Vec<(usize, u32)> =
                    (0..N * N).filter(|&c| colour[c] != 0).map(|c| (c, edge(c))).collect();
                let reference = naive(N * N, &unions, &edges);
                for c in (0..N * N).filter(|&c| colour[c] != 0) {
                    let (label, mask) = reference[c];
                    let size = (0..N * N)
                        .filter(|&d| colour[d] != 0 && reference[d].0 == label)
                        .count();
                    prop_assert_eq!(groups.root_edges(c), mask, "cell {}", c);
                    prop_assert_eq!(groups.stones(c), size, "cell {}", c);
                    prop_assert_eq!(groups.root(c), groups.root(label), "cell {}", c);
                }
            }
        }
    }

    #[test]
    fn arrays_keep_groups_copy_and_reset_clears_them() {
        let mut a = Groups::new([0u16; 4], [0u32; 4]);
        for c in 0..4 {
            a.place(c, 0);
        }
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
        assert_eq!((a.stones(0), b.stones(0), b.stones(3)), (2, 0, 0));
        let mut c = Groups::new([0u16; 4], [0u32; 4]);
        c.copy_prefix_from(&a, 2);
        assert!(c.same(0, 1) && c.stones(1) == 2 && c.edges(0) == 0b100);
        let mut v = Groups::new(vec![0u32; 3], vec![0u32; 3]);
        let mut w = Groups::new(vec![0u32; 3], vec![0u32; 3]);
        v.union(0, 2);
        w.clone_from(&v);
        assert!(w.same(0, 2));
    }
}
