//! [`BlockSampler`]: `u64` weights in blocks of 16 with one sum per block, so that a change of
//! weight costs three additions and a draw two short scans.

use rand_core::Rng;

use crate::{Error, Weight};

/// Keys per block. With the sums of the blocks scanned first and the chosen block's weights
/// second, a draw reads about `n / 16 + 16` numbers: few for the hundreds of keys this is
/// made for.
const BLOCK: usize = 16;

/// A weighted sampler over the keys `0..key_capacity` with `u64` weights, built for many
/// small changes between draws: [`set`](Self::set) and [`raise`](Self::raise) are O(1)
/// (the weight, its block's sum and the total change by the same difference), and
/// [`sample`](Self::sample) is O(n / 16 + 16), two scans without a branch on the data.
///
/// It draws exactly as a [`DenseSampler<u64>`](crate::DenseSampler) built with
/// [`from_weights`](crate::DenseSampler::from_weights) and changed only by `update` (keys in
/// slot order): the same uniform value in `[0, total)` from the same generator, mapped to the
/// key whose interval holds it when the keys' weights are laid end to end in key order. A
/// removed key is one of weight zero.
///
/// ```
/// use rand::SeedableRng;
/// use weighted_sampler::BlockSampler;
///
/// let mut s = BlockSampler::from_weights([1, 1, 8, 1])?;
/// assert_eq!(s.total(), 11);
/// s.set(2, 0)?; // take key 2 out
/// s.raise(3, 27)?; // at least 27: key 3 becomes likely
/// s.raise(2, 27)?; // a zero weight stays zero
/// assert_eq!((s.get(2), s.get(3), s.total()), (Some(0), Some(27), 29));
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let key = s.sample(&mut rng).unwrap();
/// assert_ne!(key, 2);
/// # Ok::<(), weighted_sampler::Error>(())
/// ```
#[derive(Debug, Default, PartialEq, Eq)]
pub struct BlockSampler {
    /// The weight of each key, padded with zeros to whole blocks.
    weights: Vec<u64>,
    /// The sum of each block of [`BLOCK`] weights.
    sums: Vec<u64>,
    total: u64,
    keys: usize,
}

impl Clone for BlockSampler {
    fn clone(&self) -> Self {
        Self {
            weights: self.weights.clone(),
            sums: self.sums.clone(),
            total: self.total,
            keys: self.keys,
        }
    }

    /// Makes `self` a copy of `source`, reusing `self`'s allocations when they are large
    /// enough: a playout can start from a prepared sampler without allocating.
    fn clone_from(&mut self, source: &Self) {
        self.weights.clone_from(&source.weights);
        self.sums.clone_from(&source.sums);
        self.total = source.total;
        self.keys = source.keys;
    }
}

impl BlockSampler {
    /// A sampler holding key `i` with weight `weights[i]` for every `i`. The key capacity is
    /// the number of weights.
    ///
    /// # Errors
    ///
    /// [`Error::Overflow`] when the weights add up to more than `u64::MAX`.
    pub fn from_weights<I: IntoIterator<Item = u64>>(weights: I) -> Result<Self, Error> {
        let mut weights: Vec<u64> = weights.into_iter().collect();
        let keys = weights.len();
        weights.resize(keys.div_ceil(BLOCK) * BLOCK, 0);
        let mut total = 0u64;
        for &w in &weights {
            total = total.checked_add(w).ok_or_else(|| Error::Overflow {
                total: total.to_string(),
                added: w.to_string(),
            })?;
        }
        // No block sum can overflow: each is at most the total.
        let sums = weights.chunks(BLOCK).map(|b| b.iter().sum()).collect();
        Ok(Self {
            weights,
            sums,
            total,
            keys,
        })
    }

    /// Keys must be below this.
    #[inline]
    #[must_use]
    pub fn key_capacity(&self) -> usize {
        self.keys
    }

    /// The sum of all weights.
    #[inline]
    #[must_use]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The weight of `key`, or `None` when `key` is not below the key capacity.
    #[inline]
    #[must_use]
    pub fn get(&self, key: usize) -> Option<u64> {
        (key < self.keys).then(|| self.weights[key])
    }

    /// Sets the weight of `key` and returns the old one.
    ///
    /// # Errors
    ///
    /// [`Error::KeyOutOfRange`], or [`Error::Overflow`] when the total would exceed
    /// `u64::MAX`; the sampler is unchanged then.
    #[inline]
    pub fn set(&mut self, key: usize, weight: u64) -> Result<u64, Error> {
        if key >= self.keys {
            return Err(self.out_of_range(key));
        }
        let old = self.weights[key];
        self.change(key, old, weight)?;
        Ok(old)
    }

    /// Raises the weight of `key` to `weight` if it is positive and smaller; a weight of zero
    /// (a key taken out) stays zero. Returns the old weight. No branch on the weights.
    ///
    /// # Errors
    ///
    /// As [`set`](Self::set).
    #[inline]
    pub fn raise(&mut self, key: usize, weight: u64) -> Result<u64, Error> {
        if key >= self.keys {
            return Err(self.out_of_range(key));
        }
        let old = self.weights[key];
        let new = if old == 0 { 0 } else { old.max(weight) };
        self.change(key, old, new)?;
        Ok(old)
    }

    /// [`raise`](Self::raise) for each of `keys` (repeats allowed), with the total written
    /// once: the usual change after a draw touches several keys, and the total is what the
    /// next draw reads first. `keys` is walked twice (checked, then changed).
    ///
    /// # Errors
    ///
    /// [`Error::KeyOutOfRange`] for the first key out of range, or [`Error::Overflow`] when
    /// the total would exceed `u64::MAX`; the sampler is unchanged then.
    ///
    /// ```
    /// let mut s = weighted_sampler::BlockSampler::from_weights([1, 0, 1, 20])?;
    /// s.raise_all([0, 1, 3], 10)?;
    /// assert_eq!((s.get(0), s.get(1), s.get(3), s.total()), (Some(10), Some(0), Some(20), 31));
    /// # Ok::<(), weighted_sampler::Error>(())
    /// ```
    #[inline]
    pub fn raise_all<I>(&mut self, keys: I, weight: u64) -> Result<(), Error>
    where
        I: IntoIterator<Item = usize> + Clone,
    {
        let mut count = 0u64;
        for key in keys.clone() {
            if key >= self.keys {
                return Err(self.out_of_range(key));
            }
            count += 1;
        }
        // Each key adds at most `weight`: if even that fits, no step can overflow.
        if count
            .checked_mul(weight)
            .and_then(|most| self.total.checked_add(most))
            .is_none()
        {
            // Rare: raise one by one, each exactly checked, and undo all on failure.
            let before = self.clone();
            for key in keys {
                if let Err(e) = self.raise(key, weight) {
                    *self = before;
                    return Err(e);
                }
            }
            return Ok(());
        }
        let mut added = 0u64;
        for key in keys {
            let old = self.weights[key];
            let new = if old == 0 { 0 } else { old.max(weight) };
            let delta = new - old;
            self.weights[key] = new;
            self.sums[key / BLOCK] += delta;
            added += delta;
        }
        self.total += added;
        Ok(())
    }

    /// Replaces the weight `old` of key `key < keys` by `new` in the weight, its block's sum
    /// and the total, after checking that the total fits.
    #[inline(always)]
    fn change(&mut self, key: usize, old: u64, new: u64) -> Result<(), Error> {
        // total - old cannot underflow: the total includes old.
        if (self.total - old).checked_add(new).is_none() {
            return Err(self.overflow(new - old));
        }
        let delta = new.wrapping_sub(old);
        self.weights[key] = new;
        let block = &mut self.sums[key / BLOCK];
        *block = block.wrapping_add(delta);
        self.total = self.total.wrapping_add(delta);
        Ok(())
    }

    #[cold]
    fn out_of_range(&self, key: usize) -> Error {
        Error::KeyOutOfRange {
            key,
            key_capacity: self.keys,
        }
    }

    #[cold]
    fn overflow(&self, added: u64) -> Error {
        Error::Overflow {
            total: self.total.to_string(),
            added: added.to_string(),
        }
    }

    /// A random key, chosen with probability weight / total; `None` when the total is zero.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<usize> {
        (self.total > 0).then(|| self.find(u64::uniform_below(self.total, rng)))
    }

    /// The key that `u` falls into when the keys' weights are laid end to end on
    /// `[0, total)` in key order.
    ///
    /// # Errors
    ///
    /// [`Error::SampleOutOfRange`] unless `u < total`.
    pub fn sample_with(&self, u: u64) -> Result<usize, Error> {
        if u < self.total {
            Ok(self.find(u))
        } else {
            Err(Error::SampleOutOfRange {
                value: u.to_string(),
                total: self.total.to_string(),
            })
        }
    }

    /// The key for `u < total`: the number of whole blocks that end at or before `u`, then
    /// the number of weights in the next block that end at or before the rest of `u`. Each
    /// scan counts with selects rather than stopping at the answer, so no branch depends on
    /// the weights.
    #[inline]
    fn find(&self, u: u64) -> usize {
        let (block, before) = count_ends_at_or_below(&self.sums, u);
        let start = (block * BLOCK).min(self.weights.len() - BLOCK);
        let (key, _) = count_ends_at_or_below(&self.weights[start..start + BLOCK], u - before);
        start + key
    }
}

/// How many of the running sums of `weights` are at most `u`, and the sum of the weights
/// those are the ends of (the running sums are not decreasing, so they come first).
#[inline(always)]
fn count_ends_at_or_below(weights: &[u64], u: u64) -> (usize, u64) {
    let mut end = 0u64;
    let mut count = 0usize;
    let mut before = 0u64;
    for &w in weights {
        end += w;
        let below = end <= u;
        count += usize::from(below);
        before = core::hint::select_unpredictable(below, end, before);
    }
    (count, before)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_maps_to_its_key() {
        // Weights across three blocks, zeros included; each key must get exactly its weight's
        // share of the values 0..total.
        let weights: Vec<u64> = (0..40).map(|k| (k * 7 + 3) % 5).collect();
        let s = BlockSampler::from_weights(weights.iter().copied()).unwrap();
        let mut hits = vec![0u64; weights.len()];
        for u in 0..s.total() {
            hits[s.sample_with(u).unwrap()] += 1;
        }
        assert_eq!(hits, weights);
        assert!(s.sample_with(s.total()).is_err());
    }

    #[test]
    fn changes_keep_the_sums() {
        let mut s = BlockSampler::from_weights(vec![1; 37]).unwrap();
        assert_eq!(s.set(20, 9).unwrap(), 1);
        assert_eq!(s.raise(20, 5).unwrap(), 9);
        assert_eq!(s.raise(21, 5).unwrap(), 1);
        assert_eq!(s.set(22, 0).unwrap(), 1);
        assert_eq!(s.raise(22, 100).unwrap(), 0);
        assert_eq!(s.get(20), Some(9));
        assert_eq!(s.get(21), Some(5));
        assert_eq!(s.get(22), Some(0));
        assert_eq!(s.get(37), None);
        assert_eq!(s.total(), 37 - 3 + 9 + 5);
        assert_eq!(s.sums.iter().sum::<u64>(), s.total());
        assert_eq!(s.sums[1], 16 - 3 + 9 + 5);
        assert!(matches!(s.set(37, 1), Err(Error::KeyOutOfRange { .. })));
        let before = s.clone();
        assert!(matches!(s.set(0, u64::MAX), Err(Error::Overflow { .. })));
        assert_eq!(s, before);
    }

    #[test]
    fn raising_many_keys_at_once_is_raising_each() {
        let weights: Vec<u64> = (0..50).map(|k| k % 4).collect();
        let keys = [3usize, 17, 17, 20, 49, 0];
        let mut one_by_one = BlockSampler::from_weights(weights.iter().copied()).unwrap();
        for &k in &keys {
            one_by_one.raise(k, 2).unwrap();
        }
        let mut at_once = BlockSampler::from_weights(weights).unwrap();
        at_once.raise_all(keys.iter().copied(), 2).unwrap();
        assert_eq!(at_once, one_by_one);
        // Errors leave the sampler as it was: a key out of range, a total that overflows
        // (even when only the exact check can tell: the first key would fit).
        assert!(matches!(
            at_once.raise_all([1, 50], 9),
            Err(Error::KeyOutOfRange { key: 50, .. })
        ));
        assert_eq!(at_once, one_by_one);
        let mut near = BlockSampler::from_weights([1, 1, u64::MAX - 10]).unwrap();
        let before = near.clone();
        assert!(matches!(
            near.raise_all([0, 1], 6),
            Err(Error::Overflow { .. })
        ));
        assert_eq!(near, before);
        near.raise_all([0, 1], 5).unwrap();
        assert_eq!(near.total(), u64::MAX - 10 + 10);
    }

    #[test]
    fn the_total_must_fit() {
        assert!(BlockSampler::from_weights([u64::MAX, 1]).is_err());
        let empty = BlockSampler::from_weights([0, 0]).unwrap();
        let mut rng = rand_pcg::Pcg64Mcg::new(3);
        assert_eq!(empty.sample(&mut rng), None);
    }
}
