//! # hex
//!
//! Hex on [`rave_mcts`] and [`game_harness`]: the generic search crate reused for a second
//! connection game, and the shared harness for everything around the search (the match
//! runner, its shard files, the GTP session). It is the worked example of what another game
//! has to write to get UCT, RAVE, GRAVE, the solver, tree reuse, threads, matches and GTP for
//! free.
//!
//! Hex is played on an n x n rhombus (1 to 19; 11 and 13 are the common sizes). Black moves
//! first and connects the top and bottom rows, White the left and right columns; cells are
//! written `a1` (a corner) to `k11`, and the optional swap rule is the move `swap-pieces`
//! (White takes Black's first stone, reflected across the long diagonal, as a White stone;
//! Black moves next).
//!
//! What Hex had to write: the board and its notation ([`board`]), the position with its
//! union-find win detection and the `rave_mcts::Game` implementation ([`game`]), a fast
//! playout policy ([`playout`]), Hex as connection-kit's `Placement` for its tree knowledge ([`prior`]), the game as the harness sees it ([`harness`]: `MatchGame`
//! and `GtpGame`), a player with budgets and tree reuse that is a `game_harness::Agent`
//! ([`engine`]), its own GTP commands ([`gtp`]), the match options ([`selfplay`]) and a
//! search fingerprint ([`search_bench`]). The program's command line is [`cli`]: the `hex`
//! binary (`cargo install --path crates/hex-mcts`) and the workspace's `hex` example; see
//! `docs/hex.md`.
//!
//! The README's examples (a search with `rave-mcts` directly, and the [`engine`] as a
//! `game_harness::Agent`) are compiled and run as doctests.
#![deny(missing_docs)]

pub mod board;
pub mod cli;
pub mod engine;
pub mod game;
pub mod gtp;
pub mod harness;
pub mod playout;
pub mod prior;
pub mod search_bench;
pub mod selfplay;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
