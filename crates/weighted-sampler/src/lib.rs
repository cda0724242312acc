#![doc = include_str!("../README.md")]
//!
//! # How it works
//!
//! The weights sit in the leaves of a complete binary tree stored in one flat array (the root
//! at index 1, the children of node `i` at `2i` and `2i + 1`, the leaves after the inner nodes);
//! each inner node holds the sum of the leaves below it, so the root holds the total.
//!
//! - **sample**: draw `u` uniformly in `[0, total)` and walk down from the root: if `u` is
//!   below the left child's sum go left, otherwise subtract that sum and go right. The walk
//!   takes two levels per step (the sums of a node's left child and of two grandchildren load
//!   together, and three comparisons pick the grandchild), with no division and no branch on
//!   the data (on x86-64 the float version uses SSE2 masks).
//! - **update**: change a leaf and fix the sums on its path to the root.
//! - **insert**: append a leaf after the last one (the array doubles when full).
//! - **remove**: move the last leaf into the removed one's slot, so the leaves stay
//!   contiguous: two walks to the root, as the paper describes.
//!
//! [`BlockSampler`] trades the tree for two levels (`u64` weights in blocks of 16, one sum per
//! block): a change of weight is O(1) and a draw scans the block sums and one block, which is
//! cheaper when every draw comes with several changes, as in the weighted playouts below.
//!
//! Each key owns one slot; [`DenseSampler`] maps keys to slots with a `Vec<u32>`,
//! [`WeightedSampler`] with a hash table. Both share the same tree code.
//!
//! | operation | cost |
//! | --- | --- |
//! | `sample`, `sample_with` | O(log n) |
//! | `insert`, `update`, `set` | O(log n) (amortised for `insert`) |
//! | `remove`, `sample_remove` | O(log n), two root walks |
//! | `get`, `contains`, `len`, `total` | O(1) |
//! | `from_weights`, `try_from_iter` | O(n) |
//! | `clone_from` | O(n), no allocation when `self` is large enough |
//!
//! # Weights
//!
//! See [`Weight`]. Integer sums are exact: `sample_with(u)` over every `u` in `0..total`
//! returns each key exactly `weight` times, and `sample` draws `u` exactly uniformly. With
//! floats, every inner sum is recomputed from its two children when a leaf below it changes
//! (not adjusted by a difference), so each sum carries the rounding of one path only, however
//! many updates came before: there is no drift to repair and no `rebuild` is needed.
//!
//! # The paper's use: weighted playouts
//!
//! Könnecke & Waldmann make Havannah playouts less random by weighting the empty cells: the
//! playout starts with the weight on the centre cell, and after the `n`-th move the empty
//! neighbours of that move get weight `n³`, so play stays near recent moves. Each move is one
//! `sample_remove` and a handful of `update`s, all O(log n). A sketch on a board of size 4
//! (37 cells; an engine would use its own board tables). Note `u64`: on a size-10 board (271
//! cells) the weights reach 271³ and their sum can exceed `u32::MAX`.
//!
//! ```
//! use rand::SeedableRng;
//! use weighted_sampler::DenseSampler;
//!
//! // Cells (x, y) with 0 <= x, y <= 2s-2 and |x - y| <= s-1, numbered row by row.
//! let s = 4i32;
//! let cells: Vec<(i32, i32)> = (0..2 * s - 1)
//!     .flat_map(|y| (0..2 * s - 1).map(move |x| (x, y)))
//!     .filter(|&(x, y)| (x - y).abs() <= s - 1)
//!     .collect();
//! let index = |x: i32, y: i32| cells.iter().position(|&c| c == (x, y));
//! let neighbours = |c: usize| {
//!     let (x, y) = cells[c];
//!     [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1)]
//!         .into_iter()
//!         .filter_map(move |(dx, dy)| index(x + dx, y + dy))
//!         .collect::<Vec<_>>()
//! };
//! let centre = index(s - 1, s - 1).unwrap();
//!
//! // Prepared once: every cell weight 1, the centre much more.
//! let mut start = DenseSampler::<u64>::from_weights(vec![1; cells.len()])?;
//! start.update(centre, 1000)?;
//!
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(2010);
//! let mut playout = start.clone();
//! for _game in 0..10 {
//!     playout.clone_from(&start); // reuses the allocation
//!     let mut moves = Vec::new();
//!     while let Some((cell, _)) = playout.sample_remove(&mut rng) {
//!         moves.push(cell);
//!         let n = moves.len() as u64;
//!         for nb in neighbours(cell) {
//!             if let Some(w) = playout.get(nb) {
//!                 playout.update(nb, w.max(n * n * n))?;
//!             }
//!         }
//!     }
//!     assert_eq!(moves.len(), cells.len()); // every cell played once
//! }
//! # Ok::<(), weighted_sampler::Error>(())
//! ```
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for both samplers, stored as their `(key, weight)`
//!   pairs in slot order; loading checks every key and weight.
#![deny(missing_docs)]
// One `unsafe` block: calling the SSE2 float descent, see `weight.rs`.
#![deny(unsafe_code)]

mod block;
mod dense;
mod error;
#[cfg(feature = "serde")]
mod serde_impls;
mod tree;
mod weight;
mod weighted;

pub use block::BlockSampler;
pub use dense::{DenseSampler, Iter};
pub use error::Error;
pub use weight::Weight;
pub use weighted::WeightedSampler;

/// The `rand_core` this crate is built against (0.10): sampling takes its
/// [`Rng`](rand_core::Rng). A generator from another `rand` major version does not implement
/// it; use `weighted_sampler::rand_core` to name the right one.
pub use rand_core;
