//! [`DenseSampler`]: keys are small integers, found through a slot table (no hashing).

use core::fmt;

use rand_core::Rng;

use crate::tree::{MAX_SLOTS, SumTree};
use crate::{Error, Weight};

/// Marks a key that has no slot.
const NO_SLOT: u32 = u32::MAX;

/// A weighted sampler over the keys `0..key_capacity`, for dense integer keys such as cell,
/// action or item indices.
///
/// A key is found through a slot table (`Vec<u32>`), not a hash map, so every operation is a
/// table look-up plus one walk of the sum tree (two for [`remove`](Self::remove)). Memory is
/// about `4 * key_capacity + (4 + 2 * size_of::<W>()) * len` bytes (the tree rounds `len` up
/// to a power of two).
///
/// [`clone_from`](Clone::clone_from) reuses the allocations of `self`, so a loop that starts
/// each round from a prepared sampler (a game playout, an episode) does not allocate:
///
/// ```
/// use weighted_sampler::DenseSampler;
/// use rand::SeedableRng;
///
/// let prepared = DenseSampler::<u32>::from_weights([1, 2, 3, 4])?;
/// let mut work = prepared.clone();
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
/// for _round in 0..3 {
///     work.clone_from(&prepared); // no allocation
///     while let Some((key, _weight)) = work.sample_remove(&mut rng) {
///         assert!(key < 4);
///     }
///     assert!(work.is_empty());
/// }
/// # Ok::<(), weighted_sampler::Error>(())
/// ```
pub struct DenseSampler<W> {
    tree: SumTree<W>,
    /// Key -> slot, or `NO_SLOT`. Its length is the key capacity.
    slot_of: Vec<u32>,
    /// Slot -> key, for slots `0..len`.
    key_at: Vec<u32>,
}

impl<W: Weight> Clone for DenseSampler<W> {
    fn clone(&self) -> Self {
        Self {
            tree: self.tree.clone(),
            slot_of: self.slot_of.clone(),
            key_at: self.key_at.clone(),
        }
    }

    /// Makes `self` a copy of `source`, reusing `self`'s allocations when they are large
    /// enough.
    fn clone_from(&mut self, source: &Self) {
        self.tree.clone_from(&source.tree);
        self.slot_of.clone_from(&source.slot_of);
        self.key_at.clone_from(&source.key_at);
    }
}

impl<W: Weight> Default for DenseSampler<W> {
    /// An empty sampler with key capacity zero.
    fn default() -> Self {
        Self {
            tree: SumTree::new(),
            slot_of: Vec::new(),
            key_at: Vec::new(),
        }
    }
}

impl<W: Weight> fmt::Debug for DenseSampler<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<W: Weight> PartialEq for DenseSampler<W> {
    /// Equal when both hold the same keys with the same weights and have the same key
    /// capacity (slot order does not matter).
    fn eq(&self, other: &Self) -> bool {
        self.key_capacity() == other.key_capacity()
            && self.len() == other.len()
            && self.iter().all(|(k, w)| other.get(k) == Some(w))
    }
}

impl<W: Weight> DenseSampler<W> {
    /// An empty sampler for the keys `0..key_capacity`.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityOverflow`] when `key_capacity` exceeds `u32::MAX - 1`.
    pub fn new(key_capacity: usize) -> Result<Self, Error> {
        let mut s = Self::default();
        s.reserve_keys(key_capacity)?;
        Ok(s)
    }

    /// An empty sampler for the keys `0..key_capacity`, with room for `key_capacity` keys in
    /// the tree, so that filling it does not reallocate.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityOverflow`] when `key_capacity` exceeds `u32::MAX - 1`.
    pub fn with_capacity(key_capacity: usize) -> Result<Self, Error> {
        let mut s = Self::new(key_capacity)?;
        s.tree = SumTree::with_capacity(key_capacity)?;
        s.key_at.reserve(key_capacity);
        Ok(s)
    }

    /// A sampler holding key `i` with weight `weights[i]` for every `i`, built in O(n). The key
    /// capacity is the number of weights.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidWeight`], [`Error::Overflow`] or [`Error::CapacityOverflow`].
    ///
    /// ```
    /// let s = weighted_sampler::DenseSampler::from_weights([3u32, 0, 5])?;
    /// assert_eq!((s.len(), s.total(), s.get(1)), (3, 8, Some(0)));
    /// # Ok::<(), weighted_sampler::Error>(())
    /// ```
    pub fn from_weights<I: IntoIterator<Item = W>>(weights: I) -> Result<Self, Error> {
        let weights: Vec<W> = weights.into_iter().collect();
        let n = weights.len();
        if n > MAX_SLOTS {
            return Err(Error::CapacityOverflow {
                requested: n,
                max: MAX_SLOTS,
            });
        }
        let tree = SumTree::from_weights(weights)?;
        let ids: Vec<u32> = (0..n as u32).collect();
        Ok(Self {
            tree,
            slot_of: ids.clone(),
            key_at: ids,
        })
    }

    /// A sampler for the keys `0..key_capacity` holding the given `(key, weight)` pairs, built
    /// in O(key_capacity + n). Slots follow the order of the pairs.
    ///
    /// # Errors
    ///
    /// [`Error::KeyOutOfRange`], [`Error::DuplicateKey`], [`Error::InvalidWeight`],
    /// [`Error::Overflow`] or [`Error::CapacityOverflow`].
    pub fn try_from_iter<I>(key_capacity: usize, pairs: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (usize, W)>,
    {
        let mut s = Self::new(key_capacity)?;
        let mut weights = Vec::new();
        for (key, w) in pairs {
            let slot = s.key_at.len() as u32;
            match s.slot_of.get_mut(key) {
                None => return Err(s.out_of_range(key)),
                Some(entry) if *entry != NO_SLOT => {
                    return Err(Error::DuplicateKey {
                        key: key.to_string(),
                    });
                }
                Some(entry) => *entry = slot,
            }
            s.key_at.push(key as u32);
            weights.push(w);
        }
        s.tree = SumTree::from_weights(weights)?;
        Ok(s)
    }

    /// Raises the key capacity to at least `key_capacity` (it never shrinks).
    ///
    /// # Errors
    ///
    /// [`Error::CapacityOverflow`] when `key_capacity` exceeds `u32::MAX - 1`.
    pub fn reserve_keys(&mut self, key_capacity: usize) -> Result<(), Error> {
        if key_capacity > MAX_SLOTS {
            return Err(Error::CapacityOverflow {
                requested: key_capacity,
                max: MAX_SLOTS,
            });
        }
        if key_capacity > self.slot_of.len() {
            self.slot_of.resize(key_capacity, NO_SLOT);
        }
        Ok(())
    }

    /// Keys must be below this.
    #[inline]
    pub fn key_capacity(&self) -> usize {
        self.slot_of.len()
    }

    /// The number of keys held.
    #[inline]
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// Whether no key is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.tree.len() == 0
    }

    /// The sum of all weights. Sampling is possible when it is greater than zero.
    #[inline]
    pub fn total(&self) -> W {
        self.tree.total()
    }

    #[cold]
    fn out_of_range(&self, key: usize) -> Error {
        Error::KeyOutOfRange {
            key,
            key_capacity: self.key_capacity(),
        }
    }

    #[cold]
    fn not_found(key: usize) -> Error {
        Error::KeyNotFound {
            key: key.to_string(),
        }
    }

    /// The slot of `key`, if held.
    #[inline]
    fn slot(&self, key: usize) -> Option<usize> {
        match self.slot_of.get(key) {
            Some(&s) if s != NO_SLOT => Some(s as usize),
            _ => None,
        }
    }

    /// The weight of `key`, or `None` when it is not held (or out of range).
    #[inline]
    pub fn get(&self, key: usize) -> Option<W> {
        self.slot(key).map(|s| self.tree.weight(s))
    }

    /// Whether `key` is held (a key of weight zero is held, but never sampled).
    #[inline]
    pub fn contains(&self, key: usize) -> bool {
        self.slot(key).is_some()
    }

    /// The probability that [`sample`](Self::sample) returns `key`: weight / total, as `f64`.
    /// `None` when the key is not held or the total is zero.
    pub fn probability(&self, key: usize) -> Option<f64> {
        let total = self.total();
        if total > W::ZERO {
            self.get(key).map(|w| w.to_f64() / total.to_f64())
        } else {
            None
        }
    }

    /// Adds `key` with `weight`.
    ///
    /// # Errors
    ///
    /// [`Error::KeyOutOfRange`], [`Error::DuplicateKey`], [`Error::InvalidWeight`] or
    /// [`Error::Overflow`]; the sampler is unchanged then.
    #[inline]
    pub fn insert(&mut self, key: usize, weight: W) -> Result<(), Error> {
        match self.slot_of.get(key) {
            None => Err(self.out_of_range(key)),
            Some(&s) if s != NO_SLOT => Err(Error::DuplicateKey {
                key: key.to_string(),
            }),
            Some(_) => {
                let slot = self.tree.push(weight)?;
                self.slot_of[key] = slot as u32;
                self.key_at.push(key as u32);
                Ok(())
            }
        }
    }

    /// Changes the weight of a held `key` and returns the old weight.
    ///
    /// # Errors
    ///
    /// [`Error::KeyNotFound`] (also for a key out of range), [`Error::InvalidWeight`] or
    /// [`Error::Overflow`]; the sampler is unchanged then.
    #[inline]
    pub fn update(&mut self, key: usize, weight: W) -> Result<W, Error> {
        match self.slot(key) {
            Some(slot) => self.tree.set(slot, weight),
            None => Err(Self::not_found(key)),
        }
    }

    /// Inserts `key` or changes its weight; returns the old weight, if any.
    ///
    /// # Errors
    ///
    /// [`Error::KeyOutOfRange`], [`Error::InvalidWeight`] or [`Error::Overflow`]; the sampler
    /// is unchanged then.
    #[inline]
    pub fn set(&mut self, key: usize, weight: W) -> Result<Option<W>, Error> {
        match self.slot(key) {
            Some(slot) => self.tree.set(slot, weight).map(Some),
            None => self.insert(key, weight).map(|()| None),
        }
    }

    /// Removes `key` and returns its weight. The last slot moves into the freed one (two walks
    /// to the root), so slots stay contiguous.
    ///
    /// # Errors
    ///
    /// [`Error::KeyNotFound`] (also for a key out of range).
    #[inline]
    pub fn remove(&mut self, key: usize) -> Result<W, Error> {
        match self.slot(key) {
            Some(slot) => Ok(self.remove_slot(slot)),
            None => Err(Self::not_found(key)),
        }
    }

    #[inline]
    fn remove_slot(&mut self, slot: usize) -> W {
        let w = self.tree.swap_remove(slot);
        let key = self.key_at.swap_remove(slot);
        self.slot_of[key as usize] = NO_SLOT;
        if let Some(&moved) = self.key_at.get(slot) {
            self.slot_of[moved as usize] = slot as u32;
        }
        w
    }

    /// Removes every key, keeping the key capacity and the allocations.
    pub fn clear(&mut self) {
        for &k in &self.key_at {
            self.slot_of[k as usize] = NO_SLOT;
        }
        self.key_at.clear();
        self.tree.clear();
    }

    /// Frees tree memory beyond what the current keys need (the key capacity stays).
    pub fn shrink_to_fit(&mut self) {
        self.tree.shrink_to_fit();
        self.key_at.shrink_to_fit();
    }

    /// A random key, chosen with probability weight / total. `None` when the total is zero
    /// (no key, or only keys of weight zero).
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        self.tree.sample(rng).map(|slot| self.key_at[slot] as usize)
    }

    /// A random key as [`sample`](Self::sample), removed from the sampler, with its weight:
    /// sampling without replacement.
    #[inline]
    pub fn sample_remove<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<(usize, W)> {
        let slot = self.tree.sample(rng)?;
        let key = self.key_at[slot] as usize;
        Some((key, self.remove_slot(slot)))
    }

    /// The key that the value `u` maps to, for callers that bring their own randomness: lay
    /// the keys end to end on `[0, total)` in slot order (the order of [`iter`](Self::iter)),
    /// each taking its weight's length, and return the key whose interval holds `u`. A uniform
    /// `u` gives the distribution of [`sample`](Self::sample); with integer weights, the
    /// values `0..total` hit each key exactly `weight` times.
    ///
    /// # Errors
    ///
    /// [`Error::SampleOutOfRange`] when `u` is not in `[0, total)` (so always when the total
    /// is zero).
    ///
    /// ```
    /// let s = weighted_sampler::DenseSampler::from_weights([2u32, 0, 1])?;
    /// let keys: Vec<usize> = (0..3).map(|u| s.sample_with(u)).collect::<Result<_, _>>()?;
    /// assert_eq!(keys, [0, 0, 2]);
    /// assert!(s.sample_with(3).is_err());
    /// # Ok::<(), weighted_sampler::Error>(())
    /// ```
    #[inline]
    pub fn sample_with(&self, u: W) -> Result<usize, Error> {
        self.tree
            .sample_with(u)
            .map(|slot| self.key_at[slot] as usize)
    }

    /// The `(key, weight)` pairs in slot order.
    pub fn iter(&self) -> Iter<'_, W> {
        Iter {
            keys: self.key_at.iter(),
            weights: self.tree.leaves().iter(),
        }
    }

    /// The keys in slot order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.key_at.iter().map(|&k| k as usize)
    }

    /// The weights in slot order.
    pub fn weights(&self) -> &[W] {
        self.tree.leaves()
    }

    #[cfg(test)]
    pub(crate) fn assert_consistent(&self) {
        self.tree.assert_consistent();
        assert_eq!(self.key_at.len(), self.tree.len());
        for (slot, &k) in self.key_at.iter().enumerate() {
            assert_eq!(self.slot_of[k as usize] as usize, slot);
        }
        let held = self.slot_of.iter().filter(|&&s| s != NO_SLOT).count();
        assert_eq!(held, self.len());
    }
}

/// The `(key, weight)` pairs of a [`DenseSampler`] in slot order; see
/// [`DenseSampler::iter`].
#[derive(Debug, Clone)]
pub struct Iter<'a, W> {
    keys: core::slice::Iter<'a, u32>,
    weights: core::slice::Iter<'a, W>,
}

impl<W: Copy> Iterator for Iter<'_, W> {
    type Item = (usize, W);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        Some((*self.keys.next()? as usize, *self.weights.next()?))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.keys.size_hint()
    }
}

impl<W: Copy> ExactSizeIterator for Iter<'_, W> {}

impl<'a, W: Weight> IntoIterator for &'a DenseSampler<W> {
    type Item = (usize, W);
    type IntoIter = Iter<'a, W>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_key() {
        let mut s = DenseSampler::<u32>::new(4).unwrap();
        assert_eq!(
            s.insert(4, 1),
            Err(Error::KeyOutOfRange {
                key: 4,
                key_capacity: 4
            })
        );
        s.insert(2, 1).unwrap();
        assert_eq!(
            s.insert(2, 5).unwrap_err().to_string(),
            "key 2 is already in the sampler"
        );
        assert_eq!(
            s.update(3, 1).unwrap_err().to_string(),
            "key 3 is not in the sampler"
        );
        assert!(matches!(s.remove(9), Err(Error::KeyNotFound { .. })));
        assert_eq!(s.get(2), Some(1));
        s.assert_consistent();
        assert!(DenseSampler::<u32>::new(usize::MAX).is_err());
    }

    #[test]
    fn remove_moves_last_key() {
        let mut s = DenseSampler::from_weights([5u64, 6, 7, 8]).unwrap();
        assert_eq!(s.remove(1).unwrap(), 6);
        s.assert_consistent();
        assert_eq!(s.keys().collect::<Vec<_>>(), [0, 3, 2]);
        assert_eq!(s.iter().collect::<Vec<_>>(), [(0, 5), (3, 8), (2, 7)]);
        assert_eq!(s.remove(2).unwrap(), 7);
        assert_eq!(s.remove(0).unwrap(), 5);
        assert_eq!(s.remove(3).unwrap(), 8);
        assert!(s.is_empty());
        s.assert_consistent();
        assert_eq!(s.total(), 0);
        assert_eq!(s.set(1, 4).unwrap(), None);
        assert_eq!(s.set(1, 9).unwrap(), Some(4));
        s.assert_consistent();
    }

    #[test]
    fn try_from_iter_checks_keys() {
        let s = DenseSampler::try_from_iter(10, [(7, 1.5f64), (2, 0.5)]).unwrap();
        s.assert_consistent();
        assert_eq!(s.total(), 2.0);
        assert_eq!(s.probability(7), Some(0.75));
        assert!(matches!(
            DenseSampler::try_from_iter(10, [(7, 1u32), (7, 2)]),
            Err(Error::DuplicateKey { .. })
        ));
        assert!(matches!(
            DenseSampler::try_from_iter(10, [(10, 1u32)]),
            Err(Error::KeyOutOfRange { .. })
        ));
        assert!(matches!(
            DenseSampler::try_from_iter(10, [(1, -1.0f32)]),
            Err(Error::InvalidWeight { .. })
        ));
    }

    #[test]
    fn clear_and_clone_from() {
        let prepared = DenseSampler::try_from_iter(8, [(1, 3u32), (5, 4)]).unwrap();
        let mut work = DenseSampler::with_capacity(8).unwrap();
        work.insert(0, 10).unwrap();
        work.clone_from(&prepared);
        assert_eq!(work, prepared);
        work.clear();
        work.assert_consistent();
        assert!(work.is_empty() && work.key_capacity() == 8);
        assert_ne!(work, prepared);
        assert_eq!(format!("{prepared:?}"), "{1: 3, 5: 4}");
    }
}
