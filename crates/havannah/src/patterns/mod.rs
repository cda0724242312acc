//! Learned local patterns: how likely a strong player is to play a cell, from the stones on
//! the twelve cells around it and its distance to the previous move.
//!
//! A move's *strength* (its "gamma" in the generalized Bradley–Terry model) is the product of
//! two factors: one for its [shape](shape()) — the six neighbours and the six bridge cells,
//! each empty, own, the opponent's or off the board, up to the twelve symmetries of the grid —
//! and one for its distance to the previous move (1, 2, 3, or 4 and more). The probability
//! that a move is the one played is its strength divided by the sum over all empty cells.
//! [`PatternDataset::fit`] finds the factors that make the moves of game records most likely,
//! by minorization–maximization (Hunter 2004, as Coulom fitted Go patterns in 2007 and MoHex
//! 2.0 Hex patterns).
//!
//! The engine uses them in the prior ([`PriorConfig::patterns`](crate::PriorConfig::patterns)):
//! a new child's progressive bias grows with its share of the strengths of all legal moves.
//!
//! The weights file format, version 1 (a weight is a finite number > 0; a shape is the
//! hexadecimal code of [`shape()`], any image of its class; shapes without a line count 1):
//!
//! ```text
//! havannah-patterns 1
//! # comments anywhere; blank lines are skipped
//! distance 1 2.0512
//! distance 2 1.1250
//! distance 3 0.7303
//! distance 4 0.3127
//! shape 000001 1.9830
//! ...
//! ```
//!
//! The built-in weights ([`PatternWeights::builtin`]) are made by `havannah pattern-train`
//! from game records of `havannah selfplay`.
//!
//! ```
//! use havannah::board::Board;
//! use havannah::patterns::PatternWeights;
//! use havannah::rules::{GameState, Rules};
//!
//! let weights = PatternWeights::builtin();
//! let mut game = GameState::new(8, Rules::default())?;
//! game.play_str("h8")?;
//! let b = game.board();
//! let (h8, contact, far) = (b.parse_cell("h8")?, b.parse_cell("h9")?, b.parse_cell("b2")?);
//! // A reply in contact with the stone just played is more likely than one far from it.
//! assert!(weights.gamma(game.position(), contact, Some(h8)) > weights.gamma(game.position(), far, Some(h8)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod shape;
mod train;
mod weights;

pub use shape::{
    EMPTY, OFF_BOARD, OPPONENT, OWN, SHAPE_CELLS, SHAPE_CODES, canonical, images, shape, transform,
};
pub use train::{FitProgress, PatternDataset};
pub use weights::{DISTANCE_CLASSES, PatternError, PatternWeights, VERSION_LINE};
