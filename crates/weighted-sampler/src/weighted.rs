//! [`WeightedSampler`]: any `Hash + Eq` key, found through a hash table.

use core::fmt;
use core::hash::{BuildHasher, Hash};
use std::collections::hash_map::RandomState;

use hashbrown::HashTable;
use rand_core::Rng;

use crate::tree::{MAX_SLOTS, SumTree};
use crate::{Error, Weight};

/// A weighted sampler over keys of any `Hash + Eq` type.
///
/// Keys are stored once, in slot order; a hash table maps each key to its slot. Every
/// operation is one hash look-up plus one walk of the sum tree (two for
/// [`remove`](Self::remove), which also re-points the key moved into the freed slot). For
/// small integer keys, [`DenseSampler`](crate::DenseSampler) avoids the hashing.
///
/// Errors name the offending key, so the fallible methods need `K: Debug`.
///
/// ```
/// use weighted_sampler::WeightedSampler;
/// use rand::SeedableRng;
///
/// // Prioritized replay: sample transitions by priority, update the priority after learning.
/// let mut replay: WeightedSampler<&str, f64> =
///     WeightedSampler::try_from_iter([("t0", 0.5), ("t1", 2.0), ("t2", 1.5)])?;
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let picked = *replay.sample(&mut rng).expect("total is positive");
/// replay.update(&picked, 0.1)?;
/// replay.insert("t3", 3.0)?;
/// assert_eq!(replay.len(), 4);
/// assert!(replay.probability(&"t3").unwrap() > 0.4);
/// # Ok::<(), weighted_sampler::Error>(())
/// ```
pub struct WeightedSampler<K, W, S = RandomState> {
    tree: SumTree<W>,
    /// Slot -> key.
    keys: Vec<K>,
    /// The slots, hashed by their key.
    table: HashTable<u32>,
    hasher: S,
}

impl<K: Clone, W: Weight, S: Clone> Clone for WeightedSampler<K, W, S> {
    fn clone(&self) -> Self {
        Self {
            tree: self.tree.clone(),
            keys: self.keys.clone(),
            table: self.table.clone(),
            hasher: self.hasher.clone(),
        }
    }

    /// Makes `self` a copy of `source`, reusing `self`'s tree and key allocations.
    fn clone_from(&mut self, source: &Self) {
        self.tree.clone_from(&source.tree);
        self.keys.clone_from(&source.keys);
        self.table.clone_from(&source.table);
        self.hasher.clone_from(&source.hasher);
    }
}

impl<K, W: Weight, S: Default> Default for WeightedSampler<K, W, S> {
    fn default() -> Self {
        Self::with_hasher(S::default())
    }
}

impl<K: fmt::Debug, W: Weight, S> fmt::Debug for WeightedSampler<K, W, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Hash + Eq, W: Weight, S: BuildHasher> PartialEq for WeightedSampler<K, W, S> {
    /// Equal when both hold the same keys with the same weights (slot order does not matter).
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().all(|(k, w)| other.get(k) == Some(w))
    }
}

impl<K: Hash + Eq, W: Weight> WeightedSampler<K, W> {
    /// An empty sampler; allocates nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty sampler with room for `capacity` keys.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityOverflow`] when `capacity` exceeds `u32::MAX - 1`.
    pub fn with_capacity(capacity: usize) -> Result<Self, Error> {
        Self::with_capacity_and_hasher(capacity, RandomState::new())
    }
}

impl<K, W: Weight, S> WeightedSampler<K, W, S> {
    /// An empty sampler that hashes keys with `hasher`.
    pub const fn with_hasher(hasher: S) -> Self {
        Self {
            tree: SumTree::new(),
            keys: Vec::new(),
            table: HashTable::new(),
            hasher,
        }
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

    /// The number of keys that fit without reallocating the tree.
    pub fn capacity(&self) -> usize {
        self.tree.capacity()
    }

    /// The hasher.
    pub fn hasher(&self) -> &S {
        &self.hasher
    }

    /// Removes every key, keeping the allocations.
    pub fn clear(&mut self) {
        self.tree.clear();
        self.keys.clear();
        self.table.clear();
    }

    /// A random key, chosen with probability weight / total. `None` when the total is zero
    /// (no key, or only keys of weight zero).
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<&K> {
        self.tree.sample(rng).map(|slot| &self.keys[slot])
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
    #[inline]
    pub fn sample_with(&self, u: W) -> Result<&K, Error> {
        self.tree.sample_with(u).map(|slot| &self.keys[slot])
    }

    /// The `(key, weight)` pairs in slot order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&K, W)> + '_ {
        self.keys.iter().zip(self.tree.leaves().iter().copied())
    }

    /// The keys in slot order.
    pub fn keys(&self) -> &[K] {
        &self.keys
    }

    /// The weights in slot order.
    pub fn weights(&self) -> &[W] {
        self.tree.leaves()
    }
}

impl<K: Hash + Eq, W: Weight, S: BuildHasher> WeightedSampler<K, W, S> {
    /// An empty sampler with room for `capacity` keys that hashes keys with `hasher`.
    ///
    /// # Errors
    ///
    /// [`Error::CapacityOverflow`] when `capacity` exceeds `u32::MAX - 1`.
    pub fn with_capacity_and_hasher(capacity: usize, hasher: S) -> Result<Self, Error> {
        Ok(Self {
            tree: SumTree::with_capacity(capacity)?,
            keys: Vec::with_capacity(capacity),
            table: HashTable::with_capacity(capacity),
            hasher,
        })
    }

    /// The slot of `key`, if held.
    #[inline]
    fn slot(&self, key: &K) -> Option<usize> {
        let hash = self.hasher.hash_one(key);
        self.table
            .find(hash, |&s| self.keys[s as usize] == *key)
            .map(|&s| s as usize)
    }

    /// The weight of `key`, or `None` when it is not held.
    #[inline]
    pub fn get(&self, key: &K) -> Option<W> {
        self.slot(key).map(|s| self.tree.weight(s))
    }

    /// Whether `key` is held (a key of weight zero is held, but never sampled).
    #[inline]
    pub fn contains(&self, key: &K) -> bool {
        self.slot(key).is_some()
    }

    /// The probability that [`sample`](Self::sample) returns `key`: weight / total, as `f64`.
    /// `None` when the key is not held or the total is zero.
    pub fn probability(&self, key: &K) -> Option<f64> {
        let total = self.total();
        if total > W::ZERO {
            self.get(key).map(|w| w.to_f64() / total.to_f64())
        } else {
            None
        }
    }

    /// Adds a key that is known to be absent.
    fn push_new(&mut self, hash: u64, key: K, weight: W) -> Result<(), Error> {
        if self.len() >= MAX_SLOTS {
            return Err(Error::CapacityOverflow {
                requested: self.len() + 1,
                max: MAX_SLOTS,
            });
        }
        let slot = self.tree.push(weight)?;
        self.keys.push(key);
        let (keys, hasher) = (&self.keys, &self.hasher);
        self.table
            .insert_unique(hash, slot as u32, |&s| hasher.hash_one(&keys[s as usize]));
        Ok(())
    }

    /// Removes slot `slot` from the tree, the keys and the table; returns the key and weight.
    fn remove_slot(&mut self, hash: u64, slot: usize) -> (K, W) {
        let last = self.keys.len() - 1;
        if let Ok(entry) = self.table.find_entry(hash, |&s| s as usize == slot) {
            entry.remove();
        }
        if slot != last {
            // Re-point the moved key's entry from `last` to `slot` (found by slot, no key
            // comparison).
            let moved_hash = self.hasher.hash_one(&self.keys[last]);
            if let Some(s) = self.table.find_mut(moved_hash, |&s| s as usize == last) {
                *s = slot as u32;
            }
        }
        let weight = self.tree.swap_remove(slot);
        (self.keys.swap_remove(slot), weight)
    }

    /// A random key as [`sample`](Self::sample), removed from the sampler, with its weight:
    /// sampling without replacement.
    pub fn sample_remove<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<(K, W)> {
        let slot = self.tree.sample(rng)?;
        let hash = self.hasher.hash_one(&self.keys[slot]);
        Some(self.remove_slot(hash, slot))
    }

    /// Frees memory beyond what the current keys need.
    pub fn shrink_to_fit(&mut self) {
        self.tree.shrink_to_fit();
        self.keys.shrink_to_fit();
        let (keys, hasher) = (&self.keys, &self.hasher);
        self.table
            .shrink_to_fit(|&s| hasher.hash_one(&keys[s as usize]));
    }
}

impl<K: Hash + Eq + fmt::Debug, W: Weight, S: BuildHasher> WeightedSampler<K, W, S> {
    /// A sampler holding the given `(key, weight)` pairs, built in O(n) (the tree is summed
    /// bottom-up once). Slots follow the order of the pairs.
    ///
    /// # Errors
    ///
    /// [`Error::DuplicateKey`], [`Error::InvalidWeight`], [`Error::Overflow`] or
    /// [`Error::CapacityOverflow`].
    pub fn try_from_iter<I>(pairs: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (K, W)>,
        S: Default,
    {
        Self::try_from_iter_with_hasher(pairs, S::default())
    }

    /// [`try_from_iter`](Self::try_from_iter) with a given hasher.
    ///
    /// # Errors
    ///
    /// As [`try_from_iter`](Self::try_from_iter).
    pub fn try_from_iter_with_hasher<I>(pairs: I, hasher: S) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (K, W)>,
    {
        let pairs = pairs.into_iter();
        let mut keys = Vec::with_capacity(pairs.size_hint().0);
        let mut weights = Vec::with_capacity(pairs.size_hint().0);
        let mut table = HashTable::with_capacity(pairs.size_hint().0);
        for (key, w) in pairs {
            if keys.len() >= MAX_SLOTS {
                return Err(Error::CapacityOverflow {
                    requested: keys.len() + 1,
                    max: MAX_SLOTS,
                });
            }
            let hash = hasher.hash_one(&key);
            if table
                .find(hash, |&s: &u32| keys[s as usize] == key)
                .is_some()
            {
                return Err(Error::DuplicateKey {
                    key: format!("{key:?}"),
                });
            }
            let slot = keys.len() as u32;
            keys.push(key);
            table.insert_unique(hash, slot, |&s| hasher.hash_one(&keys[s as usize]));
            weights.push(w);
        }
        Ok(Self {
            tree: SumTree::from_weights(weights)?,
            keys,
            table,
            hasher,
        })
    }

    /// Adds `key` with `weight`.
    ///
    /// # Errors
    ///
    /// [`Error::DuplicateKey`], [`Error::InvalidWeight`], [`Error::Overflow`] or
    /// [`Error::CapacityOverflow`]; the sampler is unchanged then.
    pub fn insert(&mut self, key: K, weight: W) -> Result<(), Error> {
        let hash = self.hasher.hash_one(&key);
        let keys = &self.keys;
        if self
            .table
            .find(hash, |&s| keys[s as usize] == key)
            .is_some()
        {
            return Err(Error::DuplicateKey {
                key: format!("{key:?}"),
            });
        }
        self.push_new(hash, key, weight)
    }

    /// Changes the weight of a held `key` and returns the old weight.
    ///
    /// # Errors
    ///
    /// [`Error::KeyNotFound`], [`Error::InvalidWeight`] or [`Error::Overflow`]; the sampler is
    /// unchanged then.
    pub fn update(&mut self, key: &K, weight: W) -> Result<W, Error> {
        match self.slot(key) {
            Some(slot) => self.tree.set(slot, weight),
            None => Err(Error::KeyNotFound {
                key: format!("{key:?}"),
            }),
        }
    }

    /// Inserts `key` or changes its weight; returns the old weight, if any.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidWeight`], [`Error::Overflow`] or [`Error::CapacityOverflow`]; the
    /// sampler is unchanged then.
    pub fn set(&mut self, key: K, weight: W) -> Result<Option<W>, Error> {
        let hash = self.hasher.hash_one(&key);
        let keys = &self.keys;
        match self.table.find(hash, |&s| keys[s as usize] == key) {
            Some(&slot) => self.tree.set(slot as usize, weight).map(Some),
            None => self.push_new(hash, key, weight).map(|()| None),
        }
    }

    /// Removes `key` and returns it with its weight. The last slot moves into the freed one
    /// (two walks to the root), so slots stay contiguous.
    ///
    /// # Errors
    ///
    /// [`Error::KeyNotFound`].
    pub fn remove(&mut self, key: &K) -> Result<(K, W), Error> {
        let hash = self.hasher.hash_one(key);
        let keys = &self.keys;
        match self.table.find(hash, |&s| keys[s as usize] == *key) {
            Some(&slot) => Ok(self.remove_slot(hash, slot as usize)),
            None => Err(Error::KeyNotFound {
                key: format!("{key:?}"),
            }),
        }
    }

    #[cfg(test)]
    pub(crate) fn assert_consistent(&self) {
        self.tree.assert_consistent();
        assert_eq!(self.keys.len(), self.tree.len());
        assert_eq!(self.table.len(), self.keys.len());
        for (slot, k) in self.keys.iter().enumerate() {
            assert_eq!(self.slot(k), Some(slot));
        }
    }
}

impl<'a, K, W: Weight, S> IntoIterator for &'a WeightedSampler<K, W, S> {
    type Item = (&'a K, W);
    type IntoIter =
        core::iter::Zip<core::slice::Iter<'a, K>, core::iter::Copied<core::slice::Iter<'a, W>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.keys.iter().zip(self.tree.leaves().iter().copied())
    }
}

impl<K, W: Weight, S> IntoIterator for WeightedSampler<K, W, S> {
    type Item = (K, W);
    type IntoIter = core::iter::Zip<std::vec::IntoIter<K>, std::vec::IntoIter<W>>;

    /// The `(key, weight)` pairs in slot order.
    fn into_iter(self) -> Self::IntoIter {
        let weights = self.tree.leaves().to_vec();
        self.keys.into_iter().zip(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_operations() {
        let mut s = WeightedSampler::<String, u32>::new();
        s.insert("a".into(), 3).unwrap();
        s.insert("b".into(), 4).unwrap();
        s.insert("c".into(), 5).unwrap();
        assert_eq!(
            s.insert("b".into(), 1).unwrap_err().to_string(),
            "key \"b\" is already in the sampler"
        );
        assert_eq!(s.total(), 12);
        assert_eq!(s.remove(&"a".to_string()).unwrap(), ("a".to_string(), 3));
        s.assert_consistent();
        assert_eq!(s.keys(), ["c".to_string(), "b".to_string()]);
        assert_eq!(s.update(&"b".into(), 0).unwrap(), 4);
        assert_eq!(s.sample_with(0).unwrap(), "c");
        assert_eq!(s.sample_with(4).unwrap(), "c");
        assert!(s.sample_with(5).is_err());
        assert!(matches!(
            s.update(&"z".into(), 1),
            Err(Error::KeyNotFound { .. })
        ));
        assert_eq!(s.set("z".into(), 2).unwrap(), None);
        assert_eq!(s.set("z".into(), 6).unwrap(), Some(2));
        s.assert_consistent();
        assert_eq!(s.get(&"z".into()), Some(6));
        let owned: Vec<(String, u32)> = s.clone().into_iter().collect();
        assert_eq!(owned.len(), 3);
        s.clear();
        assert!(s.is_empty() && s.total() == 0 && !s.contains(&"z".into()));
    }

    #[test]
    fn try_from_iter_rejects_duplicates() {
        let r = WeightedSampler::<_, u64>::try_from_iter([(1u8, 1), (2, 2), (1, 3)]);
        assert_eq!(
            r.unwrap_err(),
            Error::DuplicateKey {
                key: "1".to_string()
            }
        );
        let s =
            WeightedSampler::<_, u64>::try_from_iter((0u16..1000).map(|k| (k, k as u64))).unwrap();
        s.assert_consistent();
        assert_eq!(s.total(), 999 * 1000 / 2);
    }

    #[test]
    fn sample_remove_empties() {
        let mut s = WeightedSampler::<_, f32>::try_from_iter((0..50).map(|k| (k, 1.0))).unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::new(3);
        let mut seen = Vec::new();
        while let Some((k, w)) = s.sample_remove(&mut rng) {
            assert_eq!(w, 1.0);
            seen.push(k);
            s.assert_consistent();
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..50).collect::<Vec<_>>());
    }
}
