//! # havannah-rules
//!
//! The rules of [Havannah](https://en.wikipedia.org/wiki/Havannah), fast and proven: a
//! player wins by completing a *bridge* (a chain joining two corners), a *fork* (a chain
//! joining three sides; corners are not sides) or a *ring* (a chain around at least one cell,
//! whatever the enclosed cells hold).
//!
//! - [`GameState`]: the checked game state (moves parsed and checked, the pie rule, undo, the
//!   outcome with the winning chain). Errors name the move and never change the game.
//! - [`Position`]: the hot path for playouts. Bridges and forks are found on-line by a
//!   disjoint-set forest (union by size, path halving) whose roots carry the 12-bit
//!   corner/side mask of their chain, read through a 4096-entry table (Könnecke & Waldmann,
//!   section 7). Rings are found by an incremental finder that runs only when the new stone
//!   touches a chain more than once, after a table lookup on its six neighbours.
//! - [`RingFinder`]: the off-line ring finder of section 8: Dijkstra in the (max,min) semiring
//!   over move numbers with a bucket queue, giving the move at which every cell was first
//!   surrounded, hence the earliest ring. Playouts can check bridges and forks on-line and
//!   rings once at the end ([`RingDetection::Offline`]).
//! - [`reference`](mod@reference): a slow literal transcription of the formal rules, to test against.
//! - [`Record`]: one-line records (`<size> <moves...>`, optionally with the result) and SGF.
//! - [`svg`]: a game's position as an SVG picture (the stones, coordinates, the last move and
//!   the winning chain), the graphical counterpart of
//!   [`Board::render`](havannah_board::Board::render)'s text.
//!
//! Colours: White moves first. With the pie rule the second move may be `swap`: the second
//! player takes over the first stone, which stays White, and Black moves next.
//!
//! ```
//! use havannah_rules::{Colour, GameState, Kinds, Outcome, Rules};
//!
//! let mut game = GameState::new(4, Rules { pie: false })?;
//! // White: a1 b1 c1 d1 along a side joins the corners a1 and d1.
//! for mv in ["a1", "d7", "b1", "e7", "c1", "f7"] {
//!     game.play_str(mv)?;
//! }
//! let kinds = game.play_str("d1")?;
//! assert_eq!(kinds, Kinds::BRIDGE);
//! match game.outcome() {
//!     Outcome::Win { winner, chain, .. } => {
//!         assert_eq!(*winner, Colour::White);
//!         assert_eq!(chain.len(), 4);
//!     }
//!     other => panic!("expected a win, got {other:?}"),
//! }
//! // The game is over: further moves are refused and change nothing.
//! assert!(game.play_str("g7").is_err());
//! # Ok::<(), havannah_rules::RulesError>(())
//! ```
#![deny(missing_docs)]

mod error;
mod game;
#[cfg(feature = "harness")]
mod harness;
mod position;
mod record;
pub mod reference;
mod ring;
pub mod svg;
mod types;

pub use error::RulesError;
pub use game::GameState;
pub use position::{Position, RingDetection, Win, figures_of_mask};
pub use record::{Record, RecordedResult};
pub use ring::{NEVER, RingFinder, RingInfo};
pub use types::{Colour, Kinds, Move, Outcome, Rules};

pub use havannah_board::{Board, Cell, CellSet};

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
