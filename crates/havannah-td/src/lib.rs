//! # havannah-td
//!
//! Temporal-difference learning of a Havannah value network: self-play TD(lambda) training,
//! the symmetry and colour-swap augmentation of its data, evaluation matches and the learning
//! curve. The network itself, [`ValueNet`], and its weights files are in the engine crate
//! [`havannah`] (module [`havannah::td`]), which evaluates it in its prior; this crate
//! re-exports them.
//!
//! This crate reproduces and extends the study "Temporal difference learning applied to
//! Havannah": a multilayer perceptron with `n + 1` inputs (one per cell: `+1` for a White
//! stone, `-1` for a Black stone, `0` for an empty cell, plus the side to move: `+1` White,
//! `-1` Black), one hidden layer of `tanh` units (150 by default) and one `tanh` output in
//! `[-1, 1]`: the value of the position for White, the first player. It is trained by
//! self-play with temporal differences (discount `gamma`, about `0.99`, and `lambda`),
//! exploring by a Gibbs (softmax) choice over the values of the next positions, and the 12
//! symmetries of the hexagon and the colour swap multiply the training data by up to 24.
//!
//! - [`Trainer`] and [`TrainConfig`]: self-play TD(lambda) training, deterministic for a seed
//!   whatever the number of threads.
//! - [`augment`]: the symmetry and colour-swap augmentation of one training position;
//!   [`encode`]: the net's inputs for a position.
//! - [`play_match`], [`Opponent`]: evaluation games against a uniform-random player, a
//!   1-ply "win if you can" player and a fixed-simulation MCTS (`rave-mcts` with uniform
//!   playouts); [`greedy_wins_against_every_reply`] proves small cases exhaustively.
//! - [`LearningCurve`]: win rates against games, written as CSV and as an SVG plot.
//!
//! The optional `serde` feature derives `Serialize` and `Deserialize` for the training
//! settings and statistics, the match results and the learning curve.
//!
//! # Example
//!
//! ```
//! use havannah::board::Board;
//! use havannah::rules::{Position, RingDetection};
//! use havannah_td::{TrainConfig, Trainer};
//!
//! let board = Board::new(2)?;
//! let mut config = TrainConfig::new(board.size());
//! config.hidden = 16;
//! let mut trainer = Trainer::new(config)?;
//! trainer.train(50, |_| {});
//! let pos = Position::new(board, RingDetection::Online);
//! let v = trainer.net().evaluate(&pos);
//! assert!((-1.0..=1.0).contains(&v));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod augment;
mod curve;
mod gradient;
mod mcts_opponent;
mod play;
mod train;

pub use augment::{Augmentation, Sample, augment, encode};
pub use curve::{CurvePoint, LearningCurve};
pub use havannah::td::{TdError, ValueNet};
pub use play::{MatchResult, Opponent, greedy_move, greedy_wins_against_every_reply, play_match};
pub use train::{TrainConfig, TrainStats, Trainer};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
