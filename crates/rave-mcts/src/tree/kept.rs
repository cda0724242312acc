//! The score kept beside each node for the fast selection: its RAVE value under its parent's
//! blend and the multiplier of its UCT bonus, read and written with `Relaxed` atomics.

use std::sync::atomic::{AtomicU32, Ordering};

use Ordering::Relaxed;

/// What the fast selection reads of a node instead of its statistics: its RAVE value under
/// its parent's blend and the multiplier of the UCT bonus (`f32` bits; see
/// `search::select::Kept`). Stored beside the nodes, in chunks of their own, only in searches
/// that keep them ([`Arena::keep_scores`]): the node stays at 32 bytes, and the selection's
/// pass over a node's children reads 8 bytes a child. With several threads a kept score may
/// miss a racing update of its node's statistics until the next one, as the statistics
/// themselves may lose one (see the concurrency notes of [`tree`](super)).
///
/// [`Arena::keep_scores`]: super::Arena::keep_scores
#[derive(Default)]
pub(crate) struct KeptScore {
    value: AtomicU32,
    explore: AtomicU32,
}

impl KeptScore {
    /// The RAVE value.
    #[inline]
    pub(crate) fn value(&self) -> f32 {
        f32::from_bits(self.value.load(Relaxed))
    }
    /// The multiplier of the UCT bonus: `1 / sqrt(n)` for `n` visits (at least 1), 0
    /// without statistics.
    #[inline]
    pub(crate) fn explore(&self) -> f32 {
        f32::from_bits(self.explore.load(Relaxed))
    }
    #[inline]
    pub(crate) fn set(&self, value: f32, explore: f32) {
        self.value.store(value.to_bits(), Relaxed);
        self.explore.store(explore.to_bits(), Relaxed);
    }
}
