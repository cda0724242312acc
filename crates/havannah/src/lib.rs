//! # havannah
//!
//! A Havannah engine. It composes [`havannah_board`] (geometry), [`havannah_rules`] (the
//! rules), [`weighted_sampler`] (weighted playouts) and the generic search [`rave_mcts`] into a
//! Havannah player, and uses the generic [`game_harness`] for time control, the GTP loop and
//! match statistics:
//!
//! - [`game`]: Havannah as a `rave_mcts::Game` ([`HavannahGame`], whose moves are the
//!   rules' [`rules::Move`]); [`playout`]: the playout policies;
//!   [`prior`]: knowledge at node expansion; [`engine`]: the agent with time management,
//!   node budget, tree reuse, and its configurations ([`EngineConfig`], the [`Preset`]s);
//! - [`Agent`]: the players: the engine and [`RandomAgent`] ([`agent`]) are
//!   [`game_harness::Agent`]s of the rules' [`GameState`](rules::GameState) (a player that
//!   follows the game and chooses moves under a [`game_harness::Clock`]), so the generic match
//!   runner ([`game_harness::runner`]) plays them;
//! - [`first_stone`]: the first-stone table of the pie rule (White's value of every first
//!   stone, from deep searches), with which the engine opens close to even and swaps exactly
//!   when the first stone favours White;
//! - [`patterns`]: learned local patterns (the shape of the twelve cells around a move and
//!   its distance to the previous move, fitted to game records by minorization–maximization),
//!   a progressive bias the prior can add ([`PriorConfig::patterns`]);
//! - [`gtp`]: the harness's GTP session over Havannah, played by any [`Agent`], with
//!   Havannah's own commands; positions are drawn by [`rules::svg`];
//! - [`td`]: the value network learned by temporal-difference self-play, as the prior
//!   evaluates it (its training is the `havannah-td` crate).
//!
//! The crates it composes are re-exported ([`board`], [`rules`], [`mcts`], [`stats`]), and so
//! are the search types that appear in its own API ([`Config`] of
//! [`EngineConfig::search`], [`SearchResult`], [`Budget`], [`MctsError`], the [`Playout`] and
//! [`Prior`] traits, ...).
//!
//! ```
//! use game_harness::Clock;
//! use havannah::{Agent, Engine, EngineConfig};
//! use havannah::rules::{GameState, Rules};
//!
//! let mut config = EngineConfig::best();
//! config.simulations = 300;
//! let mut engine = Engine::new(config, 1);
//! let game = GameState::new(4, Rules::default())?;
//! engine.reset(&game);
//! let mv = engine.choose(&game, &Clock::unlimited()).expect("the game is on");
//! assert!(game.check(mv).is_ok());
//! let search: &havannah::SearchResult<havannah::rules::Move> = engine.last_result().expect("searched");
//! assert!(search.simulations > 0);
//! # Ok::<(), havannah::rules::RulesError>(())
//! ```
#![deny(missing_docs)]

/// Match statistics (Wilson interval, Elo), from the generic crate [`game_harness`].
pub use game_harness::stats;
pub use havannah_board as board;
pub use havannah_rules as rules;
/// The generic search crate the engine runs on.
pub use rave_mcts as mcts;
/// The search types that appear in the engine's API.
pub use rave_mcts::{
    Budget, Config, ConfigBuilder, MctsError, Playout, PlayoutResult, Prior, PriorValue,
    RaveSchedule, SearchResult, Trace,
};

pub mod agent;
mod bridge;
pub mod engine;
mod error;
pub mod first_stone;
pub mod game;
pub mod gtp;
pub mod patterns;
pub mod playout;
pub mod prior;
pub mod td;

pub use agent::RandomAgent;
pub use engine::{Engine, EngineConfig, Preset};
pub use error::ConfigError;
pub use game::HavannahGame;
/// The generic player trait of [`game_harness`]; the engine and [`RandomAgent`] implement it
/// for the rules' [`GameState`](rules::GameState).
pub use game_harness::Agent;
pub use gtp::HavannahSession;
pub use playout::{HavannahPlayout, PlayoutConfig, Policy, RingCheck};
pub use prior::{HavannahPrior, PriorConfig};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
