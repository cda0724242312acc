//! # hex
//!
//! Hex on [`rave_mcts`]: the generic search crate reused for a second connection game, with
//! [`game_harness`] for match statistics. It is the worked example of what another game has to
//! write to get UCT, RAVE, GRAVE, the solver, tree reuse and threads for free.
//!
//! Hex is played on an n x n rhombus (1 to 19; 11 and 13 are the common sizes). Black moves
//! first and connects the top and bottom rows, White the left and right columns; cells are
//! written `a1` (a corner) to `k11`, and the optional swap rule is the move `swap-pieces`
//! (White takes Black's first stone, reflected across the long diagonal, as a White stone;
//! Black moves next).
//!
//! What Hex had to write: the board and its notation ([`board`]), the position with its
//! union-find win detection and the `rave_mcts::Game` implementation ([`game`]), a fast
//! playout policy ([`playout`]), a player with budgets and tree reuse ([`engine`]), GTP
//! ([`gtp`]) and self-play ([`selfplay`]). The search itself is rave-mcts, unchanged. The
//! program's command line is [`cli`]: the `hex` binary (`cargo install --path crates/hex-mcts`) and
//! the workspace's `hex` example; see `docs/hex.md`.
//!
//! ```
//! use hex_mcts::engine::{Algorithm, Engine, Settings};
//! use hex_mcts::game::HexGame;
//!
//! let start = HexGame::new(5, false)?;
//! let settings = Settings {
//!     algorithm: Algorithm::Rave,
//!     simulations: Some(500),
//!     time: None,
//!     threads: 1,
//!     bridge_save: false,
//! };
//! let mut engine = Engine::new(&start, settings, 1)?;
//! let result = engine.search(&start, &[], &start, None)?;
//! let mut game = start.clone();
//! game.try_play(result.best_move)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod engine;
pub mod game;
pub mod gtp;
pub mod playout;
pub mod search_bench;
pub mod selfplay;
#[cfg(test)]
mod solver;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
