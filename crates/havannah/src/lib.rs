//! # havannah
//!
//! The engine of the havannah workspace: it composes [`havannah_board`], [`havannah_rules`],
//! [`weighted_sampler`] and [`rave_mcts`] into a Havannah player (playout policies, time
//! management, GTP, self-play). The engine is being built; for now this crate re-exports the
//! crates it composes.
//!
//! ```
//! // The board crate is available through the engine crate.
//! assert_eq!(havannah::board::MIN_SIZE, 2);
//! ```
#![deny(missing_docs)]

/// Match statistics (Wilson interval, Elo), from the generic crate [`game_harness`].
pub use game_harness::stats;
pub use havannah_board as board;
pub use havannah_rules as rules;

pub mod engine;
pub mod external;
pub mod game;
pub mod gtp;
mod pattern;
pub mod player;
pub mod playout;
pub mod prior;
pub mod selfplay;
pub mod svg;
pub mod td;

pub use engine::{CONFIG_NAMES, Engine, EngineConfig};
pub use external::GtpProgram;
pub use game::{HMove, HavannahGame};
pub use gtp::GtpSession;
pub use player::{Clock, Player, RandomPlayer};
pub use playout::{HavannahPlayout, PlayoutConfig, Policy, RingCheck};
pub use prior::{HavannahPrior, PriorConfig};
pub use selfplay::{MatchConfig, MatchResult, run_match};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
