//! An array-backed sum tree: pick a key with probability proportional to its weight, with O(log n) insert, update, remove and sample.
//!
//! Work in progress: see the workspace issues.
