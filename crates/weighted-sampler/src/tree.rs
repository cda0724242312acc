//! The sum tree shared by both samplers: leaves in slots `0..len`, all inner sums in one flat
//! array.

use rand_core::Rng;

use crate::{Error, Weight};

/// The largest number of slots (keys) a tree holds: slots are stored as `u32` by the samplers,
/// and `u32::MAX` marks "no slot".
pub(crate) const MAX_SLOTS: usize = u32::MAX as usize - 1;

/// An array-backed sum tree over the weights of slots `0..len`.
///
/// Layout: `cap` is a power of two (or zero when nothing was ever allocated) and
/// `nodes.len() == 2 * cap`. Node 1 is the root, node `i` has children `2i` and `2i + 1`, and
/// the leaf of slot `s` is node `cap + s`. Node 0 is unused. Leaves at and after `len` hold
/// zero, so each inner node holds the sum of the leaves below it.
///
/// Integer weights: every inner node is the exact sum of its children, and a change adds the
/// (wrapping) difference along the path; the total is checked first, so no node overflows.
/// Float weights: a change recomputes each node on the path as `left + right`, so every inner
/// node equals the rounded sum of its current children and errors do not accumulate.
#[derive(Debug)]
pub(crate) struct SumTree<W> {
    nodes: Vec<W>,
    cap: usize,
    len: usize,
}

impl<W: Weight> Clone for SumTree<W> {
    fn clone(&self) -> Self {
        Self {
            nodes: self.nodes.clone(),
            cap: self.cap,
            len: self.len,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.nodes.clone_from(&source.nodes);
        self.cap = source.cap;
        self.len = source.len;
    }
}

impl<W: Weight> Default for SumTree<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<W: Weight> SumTree<W> {
    /// An empty tree; allocates nothing.
    pub(crate) const fn new() -> Self {
        Self {
            nodes: Vec::new(),
            cap: 0,
            len: 0,
        }
    }

    /// An empty tree with room for `slots` leaves.
    pub(crate) fn with_capacity(slots: usize) -> Result<Self, Error> {
        let mut tree = Self::new();
        tree.reserve_total(slots)?;
        Ok(tree)
    }

    /// The leaf capacity for `slots` leaves: the next power of two.
    fn cap_for(slots: usize) -> Result<usize, Error> {
        if slots > MAX_SLOTS {
            return Err(Error::CapacityOverflow {
                requested: slots,
                max: MAX_SLOTS,
            });
        }
        Ok(slots.max(1).next_power_of_two())
    }

    /// Makes room for `slots` leaves in total (rebuilds the inner nodes when it grows).
    pub(crate) fn reserve_total(&mut self, slots: usize) -> Result<(), Error> {
        if slots <= self.cap {
            return Ok(());
        }
        let cap = Self::cap_for(slots)?;
        let mut nodes = vec![W::ZERO; 2 * cap];
        if self.cap > 0 {
            nodes[cap..cap + self.len].copy_from_slice(self.leaves());
        }
        self.nodes = nodes;
        self.cap = cap;
        self.rebuild_inner();
        Ok(())
    }

    /// Builds a tree from weights in slot order, in O(n).
    pub(crate) fn from_weights(weights: Vec<W>) -> Result<Self, Error> {
        let len = weights.len();
        let cap = Self::cap_for(len)?;
        let mut nodes = Vec::with_capacity(2 * cap);
        nodes.resize(cap, W::ZERO);
        for w in weights {
            nodes.push(w.check()?);
        }
        nodes.resize(2 * cap, W::ZERO);
        let mut tree = Self { nodes, cap, len };
        // Check the total before building, so the wrapping inner sums cannot be wrong.
        let mut total = W::ZERO;
        for &w in tree.leaves() {
            total = total.checked_add(w).ok_or_else(|| Error::Overflow {
                total: total.to_string(),
                added: w.to_string(),
            })?;
        }
        tree.rebuild_inner();
        Ok(tree)
    }

    /// Recomputes every inner node from the leaves.
    fn rebuild_inner(&mut self) {
        for i in (1..self.cap).rev() {
            self.nodes[i] = self.nodes[2 * i].tree_add(self.nodes[2 * i + 1]);
        }
    }

    /// The number of slots in use.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The number of slots that fit without reallocating.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.cap
    }

    /// The sum of all weights.
    #[inline]
    pub(crate) fn total(&self) -> W {
        match self.nodes.get(1) {
            Some(&t) => t,
            None => W::ZERO,
        }
    }

    /// The weights of slots `0..len`.
    #[inline]
    pub(crate) fn leaves(&self) -> &[W] {
        if self.cap == 0 {
            &[]
        } else {
            &self.nodes[self.cap..self.cap + self.len]
        }
    }

    /// The weight of slot `slot < len`.
    #[inline]
    pub(crate) fn weight(&self, slot: usize) -> W {
        debug_assert!(slot < self.len);
        self.nodes[self.cap + slot]
    }

    /// Removes every slot, keeping the allocation.
    pub(crate) fn clear(&mut self) {
        self.nodes.fill(W::ZERO);
        self.len = 0;
    }

    /// Frees memory beyond what `len` slots need.
    pub(crate) fn shrink_to_fit(&mut self) {
        let cap = if self.len == 0 {
            0
        } else {
            self.len.next_power_of_two()
        };
        if cap < self.cap {
            let mut nodes = vec![W::ZERO; 2 * cap];
            if cap > 0 {
                nodes[cap..cap + self.len].copy_from_slice(self.leaves());
            }
            self.nodes = nodes;
            self.cap = cap;
            self.rebuild_inner();
        }
    }

    /// The error for adding `added` to the current total, if that overflows.
    #[cold]
    fn overflow(&self, added: W) -> Error {
        Error::Overflow {
            total: self.total().to_string(),
            added: added.to_string(),
        }
    }

    /// Writes `new` into leaf node `leaf` (whose weight is `old`) and fixes the path to the
    /// root. The caller has checked that the new total fits.
    #[inline]
    fn write_leaf(&mut self, leaf: usize, old: W, new: W) {
        let nodes = &mut self.nodes[..];
        nodes[leaf] = new;
        if W::EXACT {
            // Each node on the path changes by the same (wrapping) difference: the updates are
            // independent of each other.
            let delta = new.tree_sub(old);
            let mut i = leaf >> 1;
            while i >= 1 {
                nodes[i] = nodes[i].tree_add(delta);
                i >>= 1;
            }
        } else {
            // Recompute each node as the sum of its children, carrying the running sum in a
            // register (float addition is commutative, so `v + sibling` is `left + right`).
            let mut i = leaf;
            let mut v = new;
            while i > 1 {
                v = v.tree_add(nodes[i ^ 1]);
                i >>= 1;
                nodes[i] = v;
            }
        }
    }

    /// Sets the weight of slot `slot < len` and returns the old one.
    #[inline]
    pub(crate) fn set(&mut self, slot: usize, weight: W) -> Result<W, Error> {
        debug_assert!(slot < self.len);
        let weight = weight.check()?;
        let leaf = self.cap + slot;
        let old = self.nodes[leaf];
        if W::EXACT {
            // The new total is (total - old) + weight; total - old cannot underflow.
            if self.total().tree_sub(old).checked_add(weight).is_none() {
                return Err(self.overflow(weight.tree_sub(old)));
            }
            self.write_leaf(leaf, old, weight);
        } else {
            self.write_leaf(leaf, old, weight);
            if self.total().checked_add(W::ZERO).is_none() {
                // The total became infinite: put the old weight back.
                self.write_leaf(leaf, weight, old);
                return Err(self.overflow(weight));
            }
        }
        Ok(old)
    }

    /// Appends a slot with `weight` and returns its index.
    #[inline]
    pub(crate) fn push(&mut self, weight: W) -> Result<usize, Error> {
        let weight = weight.check()?;
        if W::EXACT && self.total().checked_add(weight).is_none() {
            return Err(self.overflow(weight));
        }
        if self.len == self.cap {
            let want = self.len.saturating_add(1);
            self.reserve_total(want.max(2 * self.cap))?;
        }
        let slot = self.len;
        self.write_leaf(self.cap + slot, W::ZERO, weight);
        if !W::EXACT && self.total().checked_add(W::ZERO).is_none() {
            // The float total became infinite: take the weight out again.
            self.write_leaf(self.cap + slot, weight, W::ZERO);
            return Err(self.overflow(weight));
        }
        self.len += 1;
        Ok(slot)
    }

    /// Removes slot `slot < len` by moving the last slot into it (two walks to the root) and
    /// returns the removed weight. The caller moves its key bookkeeping the same way.
    #[inline]
    pub(crate) fn swap_remove(&mut self, slot: usize) -> W {
        debug_assert!(slot < self.len);
        let last = self.len - 1;
        let removed = self.nodes[self.cap + slot];
        let moved = self.nodes[self.cap + last];
        // Zero the last leaf first, so the total never counts `moved` twice.
        self.write_leaf(self.cap + last, moved, W::ZERO);
        if slot != last {
            self.write_leaf(self.cap + slot, removed, moved);
        }
        self.len = last;
        removed
    }

    /// The slot that the value `u` falls into when slots are laid end to end on `[0, total)`,
    /// each taking its weight's length. For integers `u < total` must hold; a float `u` at or
    /// past the total maps to the last slot of positive weight. Requires `total > 0`.
    #[inline]
    pub(crate) fn find(&self, u: W) -> usize {
        let slot = self.descend(u);
        if W::EXACT || (slot < self.len && self.nodes[self.cap + slot] > W::ZERO) {
            slot
        } else {
            // Floats only, and rare: rounding led past the last positive leaf of a subtree.
            self.descend_guarded(u)
        }
    }

    /// The plain descent: one comparison per level, without branches.
    #[inline]
    fn descend(&self, u: W) -> usize {
        W::descend(&self.nodes[..2 * self.cap], self.cap, u)
    }

    /// The descent for rounded float sums: never step into a subtree of weight zero, where
    /// `u` may reach past the left subtree's sum although the right one is empty.
    #[cold]
    #[inline(never)]
    fn descend_guarded(&self, mut u: W) -> usize {
        let cap = self.cap;
        let nodes = &self.nodes[..2 * cap];
        let mut i = 1;
        while i < cap {
            let left = nodes[2 * i];
            let right = u >= left && nodes[2 * i + 1] > W::ZERO;
            if right {
                u = u.tree_sub(left);
            }
            i = 2 * i + right as usize;
        }
        i - cap
    }

    /// A random slot, chosen with probability weight / total; `None` when the total is zero.
    #[inline]
    pub(crate) fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        let total = self.total();
        if total > W::ZERO {
            Some(self.find(W::uniform_below(total, rng)))
        } else {
            None
        }
    }

    /// The slot for `u`, checking that `u` lies in `[0, total)`.
    pub(crate) fn sample_with(&self, u: W) -> Result<usize, Error> {
        let total = self.total();
        // Written so that a NaN `u` fails as well.
        if u >= W::ZERO && u < total {
            Ok(self.find(u))
        } else {
            Err(Error::SampleOutOfRange {
                value: u.to_string(),
                total: total.to_string(),
            })
        }
    }

    /// Checks the tree's invariants (tests only).
    #[cfg(test)]
    pub(crate) fn assert_consistent(&self) {
        assert_eq!(self.nodes.len(), 2 * self.cap);
        assert!(self.len <= self.cap);
        for s in self.len..self.cap {
            assert_eq!(
                self.nodes[self.cap + s],
                W::ZERO,
                "unused leaf {s} not zero"
            );
        }
        for i in 1..self.cap {
            let sum = self.nodes[2 * i].tree_add(self.nodes[2 * i + 1]);
            assert!(
                self.nodes[i] == sum,
                "node {i} is not the sum of its children"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_set_remove_keep_sums() {
        let mut t = SumTree::<u32>::new();
        assert_eq!(t.total(), 0);
        assert_eq!(t.leaves(), &[] as &[u32]);
        for w in 0..20 {
            assert_eq!(t.push(w).unwrap(), w as usize);
            t.assert_consistent();
        }
        assert_eq!(t.total(), (0..20).sum::<u32>());
        assert_eq!(t.set(3, 100).unwrap(), 3);
        t.assert_consistent();
        assert_eq!(t.swap_remove(3), 100);
        assert_eq!(t.weight(3), 19);
        assert_eq!(t.len(), 19);
        t.assert_consistent();
        assert_eq!(t.swap_remove(18), 18);
        t.assert_consistent();
        assert_eq!(t.total(), (0..18).sum::<u32>() - 3 + 19);
    }

    #[test]
    fn find_covers_each_slot_by_its_weight() {
        let t = SumTree::from_weights(vec![2u64, 0, 3, 1, 0]).unwrap();
        t.assert_consistent();
        let hits: Vec<usize> = (0..6).map(|u| t.find(u)).collect();
        assert_eq!(hits, [0, 0, 2, 2, 2, 3]);
        assert!(t.sample_with(6).is_err());
    }

    #[test]
    fn overflow_leaves_tree_unchanged() {
        let mut t = SumTree::from_weights(vec![u32::MAX - 1, 0]).unwrap();
        assert!(matches!(t.push(2), Err(Error::Overflow { .. })));
        assert!(matches!(t.set(1, 2), Err(Error::Overflow { .. })));
        assert_eq!(t.set(0, u32::MAX).unwrap(), u32::MAX - 1);
        assert_eq!(t.total(), u32::MAX);
        assert!(SumTree::from_weights(vec![u32::MAX, 1]).is_err());
        let mut f = SumTree::from_weights(vec![f64::MAX, 0.0]).unwrap();
        assert!(matches!(f.set(1, f64::MAX), Err(Error::Overflow { .. })));
        assert_eq!(f.weight(1), 0.0);
        assert_eq!(f.total(), f64::MAX);
        f.assert_consistent();
        assert!(f.push(f64::MAX).is_err());
        assert_eq!(f.len(), 2);
        f.assert_consistent();
    }

    #[test]
    fn float_find_skips_empty_subtrees() {
        let t = SumTree::from_weights(vec![1.0f64, 2.0, 0.0]).unwrap();
        // u at or past the total lands on the last positive slot, never on slot 2 or 3.
        assert_eq!(t.find(3.0), 1);
        assert_eq!(t.find(100.0), 1);
        assert_eq!(t.find(0.5), 0);
        assert_eq!(t.find(1.0), 1);
    }

    #[test]
    fn grow_and_shrink() {
        let mut t = SumTree::<u32>::with_capacity(5).unwrap();
        assert_eq!(t.capacity(), 8);
        for w in 1..=9 {
            t.push(w).unwrap();
        }
        assert_eq!(t.capacity(), 16);
        for _ in 0..6 {
            t.swap_remove(0);
        }
        t.shrink_to_fit();
        assert_eq!(t.capacity(), 4);
        t.assert_consistent();
        assert_eq!(t.total(), t.leaves().iter().sum::<u32>());
        t.clear();
        assert_eq!((t.len(), t.total()), (0, 0));
        t.shrink_to_fit();
        assert_eq!(t.capacity(), 0);
        assert_eq!(
            t.sample_with(0),
            Err(Error::SampleOutOfRange {
                value: "0".into(),
                total: "0".into()
            })
        );
    }
}
