//! The value network learned by temporal-difference self-play, as the engine uses it: to
//! evaluate positions in its prior. Training, self-play data, evaluation matches and the
//! learning curve are in the `havannah-td` crate.
//!
//! The net is a multilayer perceptron with `n + 1` inputs (one per cell: `+1` for a White
//! stone, `-1` for a Black stone, `0` for an empty cell, plus the side to move: `+1` White,
//! `-1` Black), one hidden layer of `tanh` units and one `tanh` output in `[-1, 1]`: the value
//! of the position for White, the first player.
//!
//! - [`ValueNet`]: the network; [`ValueNet::evaluate`] (no allocation, `&self`, so it can be
//!   shared by search threads) and [`ValueNet::evaluate_moves`] (all children of a position
//!   at the cost of about one evaluation each).
//! - With the `weights-file` feature (on by default): [`ValueNet::save`],
//!   [`ValueNet::load`] and [`ValueNet::load_for`] (JSON with a format version, the board
//!   size and the layer sizes, checked on load).
//!
//! # Using the value in a search
//!
//! [`ValueNet::evaluate`] takes a [`Position`](havannah_rules::Position) of the board size
//! the net was trained for and returns the value for White in `[-1, 1]`. The value of a
//! position for the player `p` who just moved into it is `v` for White and `-v` for Black; a
//! search that wants a reward in `[0, 1]` maps it with `(1 + v) / 2`. Two uses:
//!
//! - **Prior for new nodes** (what [`HavannahPrior::with_value_net`] does): when a node is
//!   expanded, call [`ValueNet::evaluate_moves`] with the node's position and its legal moves
//!   to get the value of every child at once (one incremental pass, about the cost of one
//!   evaluation per child), and give each child `k` virtual visits with `k * (1 + v_mover) /
//!   2` virtual wins for the player making the move. The net does not look for wins: test
//!   [`Position::winning_kinds`] first and treat a winning move as a proven win.
//! - **Leaf evaluation mixed with playouts**: at a new leaf, back up
//!   `(1 - a) * playout_reward + a * (1 + v) / 2` with a mixing weight `a` (as AlphaGo mixes
//!   its value network and rollouts).
//!
//! Both need only `&ValueNet`, which is `Sync`: share one net (e.g. in an `Arc`) between
//! search threads. Load it with [`ValueNet::load_for`] so that a net of the wrong board size
//! is a [`TdError::SizeMismatch`] rather than wrong values.
//!
//! [`Position::winning_kinds`]: havannah_rules::Position::winning_kinds
//! [`HavannahPrior::with_value_net`]: crate::HavannahPrior::with_value_net
//!
//! # Example
//!
//! ```
//! use havannah::board::Board;
//! use havannah::rules::{Position, RingDetection};
//! use havannah::td::ValueNet;
//! use rand::SeedableRng;
//!
//! let net = ValueNet::new(3, 16, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1))?;
//! let pos = Position::new(Board::new(3)?, RingDetection::Online);
//! let v = net.evaluate(&pos);
//! assert!((-1.0..=1.0).contains(&v));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
#[cfg(feature = "weights-file")]
mod file;
mod net;

pub use error::TdError;
#[cfg(feature = "weights-file")]
pub use file::{FORMAT_NAME, FORMAT_VERSION};
pub use net::{ParametersMut, SparseInput, ValueNet};
