//! The crate's error type.

/// Everything that can go wrong when changing or querying a sampler.
///
/// A failed operation leaves the sampler exactly as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A float weight was negative, NaN or infinite.
    #[error("invalid weight {weight}: a weight must be finite and not negative")]
    InvalidWeight {
        /// The rejected weight (as `f64`).
        weight: f64,
    },
    /// The total weight would exceed the weight type's range (integers) or become infinite
    /// (floats).
    #[error("total weight overflows: the total {total} plus {added} does not fit the weight type")]
    Overflow {
        /// The total before the operation.
        total: String,
        /// What the operation would have added to it.
        added: String,
    },
    /// `update` or `remove` of a key that the sampler does not hold.
    #[error("key {key} is not in the sampler")]
    KeyNotFound {
        /// The key, as `Debug` writes it.
        key: String,
    },
    /// `insert` of a key that the sampler already holds.
    #[error("key {key} is already in the sampler")]
    DuplicateKey {
        /// The key, as `Debug` writes it.
        key: String,
    },
    /// A key of a [`DenseSampler`](crate::DenseSampler) at or above its key capacity.
    #[error("key {key} is out of range: the sampler takes keys below {key_capacity}")]
    KeyOutOfRange {
        /// The rejected key.
        key: usize,
        /// The sampler's key capacity.
        key_capacity: usize,
    },
    /// More keys (or a larger key capacity) than a sampler supports.
    #[error("capacity {requested} is too large: a sampler holds at most {max} keys")]
    CapacityOverflow {
        /// The requested number of keys or key capacity.
        requested: usize,
        /// The largest supported value.
        max: usize,
    },
    /// `sample_with(u)` with `u` outside `[0, total)` (or not a number).
    #[error("value {value} is outside [0, {total}), the range sample_with maps to keys")]
    SampleOutOfRange {
        /// The rejected value.
        value: String,
        /// The sampler's total weight.
        total: String,
    },
}
