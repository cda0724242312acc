//! # game-harness
//!
//! What every game-playing program needs around its search, for any game: match statistics
//! (a score with its Wilson interval and the Elo difference it implies) and formatting for
//! result tables. It knows nothing of Havannah or of any other game; the Havannah engine, Hex
//! and Blackhole of this workspace all use it.
//!
//! ```
//! use game_harness::stats::Score;
//!
//! let score = Score::new(30, 10, 0);
//! assert_eq!(score.elo().value.round(), 191.0);
//! ```
#![deny(missing_docs)]

pub mod stats;

pub use stats::{Elo, Score, WinRate};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
