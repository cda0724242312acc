//! # blackhole
//!
//! A player for Blackhole, the game of CodeCup 2018, on [`rave_mcts`]: the techniques of
//! EventHorizon (Ansell, "EventHorizon: a Monte-Carlo Blackhole Player", 2019) — UCT-RAVE
//! with GRAVE priming, pruning and lottery playouts, searching by default for a win, a draw or
//! a loss (the paper searches per target score, which the player also offers) — and an exact
//! end-game solver, plus a random player, the CodeCup protocol and a referee that plays
//! programs against each other.
//!
//! - [`board`]: the 36 cells, their names and neighbours; [`rules`]: positions, moves,
//!   scoring and dead cells; [`error`]: the error type.
//! - [`search`]: Blackhole as a `rave_mcts::Game` for a target score, the lottery playout;
//!   [`engine`]: the players; [`solver`]: the exact solver.
//! - [`protocol`]: the CodeCup protocol; [`referee`]: matches between programs; [`review`]:
//!   game records and what each move gave away; [`mod@bench`]: how far the solver reaches;
//!   [`search_bench`]: how fast the player searches.
//! - [`cli`]: the command line of the `blackhole` program (`cargo install --path
//!   crates/blackhole`), which the workspace's `blackhole` example also runs.
//!
//! See `docs/blackhole.md`.
//!
//! ```
//! use blackhole::referee::random_blocked;
//! use blackhole::rules::{Position, reasonable_moves};
//! use rand::SeedableRng;
//!
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
//! let mut position = Position::new(&random_blocked(&mut rng))?;
//! assert!(!position.is_over());
//! let mut moves = Vec::new();
//! reasonable_moves(&position, &mut moves);
//! position.try_play(moves[0])?;
//! assert_eq!(position.moves_played(), 1);
//! # Ok::<(), blackhole::error::BlackholeError>(())
//! ```
#![deny(missing_docs)]

pub mod bench;
pub mod board;
pub mod cli;
pub mod engine;
pub mod error;
pub mod protocol;
pub mod referee;
pub mod review;
pub mod rules;
pub mod search;
pub mod search_bench;
pub mod solver;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
