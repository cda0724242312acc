//! # y-mcts
//!
//! The game of Y on the workspace's generic crates: [`Y`] is the board and its rules
//! (a union-find that knows which sides each group touches) and implements both
//! `rave_mcts::Game` (for the search) and `game_harness::MatchGame` (for the referee);
//! [`Engine`] (the harness's search agent with [`YSearch`]) plays it, and [`selfplay`] gives
//! the harness's match program Y's players.
//! The `y` program adds a GTP engine and self-play matches, all from `game-harness`; what is here is only what is particular to Y.
//!
//! Y: two players take turns putting a stone on an empty cell of a triangle of hexagons; the
//! first to join all three sides with one group wins (a corner touches two sides). A full
//! board always has exactly one winner, so there are no draws.
//!
//! ```
//! use game_harness::{MatchGame, Side, Verdict};
//! use y_mcts::Y;
//!
//! let mut game = Y::new(3)?;
//! for name in ["a1", "a2", "b1", "b2", "c1"] {
//!     let mv = game.parse_move(name)?;
//!     game.try_play(mv)?;
//! }
//! // White's a1-b1-c1 runs along y = 0, touches x = 0 at a1 and x + y = 2 at c1.
//! assert_eq!(game.verdict(), Some(Verdict::Win(Side::First)));
//! # Ok::<(), y_mcts::YError>(())
//! ```
#![deny(missing_docs)]

mod agent;
mod board;
mod gtp;
pub mod selfplay;

pub use agent::{Engine, YSearch, search_player};
pub use board::{MAX_SIZE, MIN_SIZE, Y, YError};

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
