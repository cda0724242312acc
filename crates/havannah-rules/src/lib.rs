//! The rules of Havannah: bridges, forks and rings found on-line by union-find and off-line by a (max,min)-semiring search, the pie rule, game records.
//!
//! Work in progress: see the workspace issues.
