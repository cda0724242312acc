//! Temporal-difference learning of a Havannah value network.
//!
//! This module reproduces and extends the study "Temporal difference learning applied to
//! Havannah": a multilayer perceptron with `n + 1` inputs (one per cell: `+1` for a White
//! stone, `-1` for a Black stone, `0` for an empty cell, plus the side to move: `+1` White,
//! `-1` Black), one hidden layer of `tanh` units (150 by default) and one `tanh` output in
//! `[-1, 1]`: the value of the position for White, the first player. It is trained by
//! self-play with temporal differences (discount `gamma`, about `0.99`, and `lambda`),
//! exploring by a Gibbs (softmax) choice over the values of the next positions, and the 12
//! symmetries of the hexagon and the colour swap multiply the training data by up to 24.
//!
//! - [`ValueNet`]: the network; [`ValueNet::evaluate`] (no allocation, `&self`, so it can be
//!   shared by search threads) and [`ValueNet::evaluate_moves`] (all children of a position
//!   at the cost of about one evaluation each); [`ValueNet::save`] and [`ValueNet::load`]
//!   (JSON with a format version, the board size and the layer sizes, checked on load).
//! - [`Trainer`] and [`TrainConfig`]: self-play TD(lambda) training, deterministic for a seed
//!   whatever the number of threads.
//! - [`augment`]: the symmetry and colour-swap augmentation of one training position.
//! - [`play_match`], [`Opponent`]: evaluation games against a uniform-random player, a
//!   1-ply "win if you can" player and a fixed-simulation MCTS (`rave-mcts` with uniform
//!   playouts); [`greedy_wins_against_every_reply`] proves small cases exhaustively.
//! - [`LearningCurve`]: win rates against games, written as CSV and as an SVG plot.
//!
//! # Using the value in a search
//!
//! [`ValueNet::evaluate`] takes a [`Position`](havannah_rules::Position) of the board size
//! the net was trained for and returns the value for White in `[-1, 1]`. The value of a
//! position for the player `p` who just moved into it is `v` for White and `-v` for Black; a
//! search that wants a reward in `[0, 1]` maps it with `(1 + v) / 2`. Two uses:
//!
//! - **Prior for new nodes**: when a node is expanded, call [`ValueNet::evaluate_moves`] with
//!   the node's position and its legal moves to get the value of every child at once (one
//!   incremental pass, about the cost of one evaluation per child), and give each child
//!   `k` virtual visits with `k * (1 + v_mover) / 2` virtual wins for the player making the
//!   move. The net does not look for wins: test [`Position::winning_kinds`] first and treat
//!   a winning move as a proven win.
//! - **Leaf evaluation mixed with playouts**: at a new leaf, back up
//!   `(1 - a) * playout_reward + a * (1 + v) / 2` with a mixing weight `a` (as AlphaGo mixes
//!   its value network and rollouts).
//!
//! Both need only `&ValueNet`, which is `Sync`: share one net (e.g. in an `Arc`) between
//! search threads. Load it with [`ValueNet::load_for`] so that a net of the wrong board size
//! is a [`TdError::SizeMismatch`] rather than wrong values.
//!
//! [`Position::winning_kinds`]: havannah_rules::Position::winning_kinds
//!
//! # Example
//!
//! ```
//! use havannah::board::Board;
//! use havannah::rules::{Position, RingDetection};
//! use havannah::td::{TrainConfig, Trainer};
//!
//! let board = Board::new(2)?;
//! let config = TrainConfig { hidden: 16, ..TrainConfig::new(board.size()) };
//! let mut trainer = Trainer::new(config)?;
//! trainer.train(50, |_| {});
//! let pos = Position::new(board, RingDetection::Online);
//! let v = trainer.net().evaluate(&pos);
//! assert!((-1.0..=1.0).contains(&v));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod augment;
mod curve;
mod error;
mod file;
mod mcts_opponent;
mod net;
mod play;
mod train;

pub use augment::{Augmentation, Sample, augment, encode};
pub use curve::{CurvePoint, LearningCurve};
pub use error::TdError;
pub use file::{FORMAT_NAME, FORMAT_VERSION};
pub use net::ValueNet;
pub use play::{MatchResult, Opponent, greedy_move, greedy_wins_against_every_reply, play_match};
pub use train::{TrainConfig, TrainStats, Trainer};
