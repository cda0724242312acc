//! # connection-kit
//!
//! What connection games on a hex-cell grid (Hex, Y, Havannah) share, written once:
//!
//! - [`Groups`]: the stones' groups by union-find (path halving, union by size), each group
//!   carrying its number of stones and a bit mask of the edges, sides or corners it touches, so that "does this group
//!   join top and bottom" or "all three sides" is one mask test at its root. The storage is
//!   the game's: fixed arrays keep a small board a plain `Copy` value, vectors suit boards of
//!   any size, and `clone_from` reuses them (a search copies its root position once
//!   per simulation).
//! - [`threats`](mod@threats): a cell that wins at once, else the cells where the opponent would (one to
//!   block, two that lose), over a small trait a game implements ([`Connection`]): the
//!   knowledge that proves or forces a node when the search expands it.
//! - [`bridge`]: two-bridges around an intruding stone and the cell that saves each, from
//!   three 6-bit masks of its ring of neighbours; [`BridgePlayout`] (feature `search`) is a
//!   random playout for any game implementing [`Placement`] that answers every intrusion.
//! - [`triangle`]: the triangle of hexagons Y is played on (cells, neighbours in circular
//!   order, sides, names, a text picture).
//! - [`ConnectionPrior`] (feature `search`): the tree knowledge as a `rave_mcts::Prior`, each
//!   part switched on or weighed by the game: threats at expansion, a progressive bias for
//!   cells that carry a group to new edges and one for the reply that saves a bridge.
//!
//! ```
//! use connection_kit::Groups;
//!
//! // A row of three cells; cell 0 touches the left edge (bit 0), cell 2 the right (bit 1).
//! let mut groups = Groups::new(vec![0u16; 3], vec![0u32; 3]);
//! groups.place(0, 0b01);
//! groups.place(1, 0);
//! groups.place(2, 0b10);
//! groups.union(0, 1);
//! assert_eq!(groups.edges(1), 0b01);
//! groups.union(1, 2);
//! assert_eq!(groups.edges(0), 0b11); // one group from edge to edge
//! assert!(groups.same(0, 2));
//! ```
#![deny(missing_docs)]

pub mod bridge;
mod groups;
#[cfg(feature = "search")]
mod playout;
#[cfg(feature = "search")]
mod prior;
pub mod threats;
pub mod triangle;

pub use groups::{Groups, MASK_BITS, Node, Parents, Words};
#[cfg(feature = "search")]
pub use playout::{BridgePlayout, Placement};
#[cfg(feature = "search")]
pub use prior::{ConnectionPrior, Knowledge, KnowledgeError};
pub use threats::{Connection, Threats, threats};

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
