//! # havannah
//!
//! A Havannah engine. It composes [`havannah_board`] (geometry), [`havannah_rules`] (the
//! rules), [`weighted_sampler`] (weighted playouts) and the generic search [`rave_mcts`] into a
//! Havannah player, and uses the generic [`game_harness`] for time control, the GTP loop and
//! match statistics:
//!
//! - [`game`]: Havannah as a `rave_mcts::Game` ([`HavannahGame`], whose move type [`HMove`]
//!   is the engine's two-byte move, converted from and to the rules' [`rules::Move`]);
//!   [`playout`]: the playout policies;
//!   [`prior`]: knowledge at node expansion; [`engine`]: the agent with time management,
//!   node budget, tree reuse and named configurations;
//! - [`agent`]: the [`Agent`] trait (a player that follows the game and chooses moves under a
//!   [`game_harness::Clock`]) and [`RandomAgent`];
//! - [`gtp`]: the harness's GTP session over Havannah, played by any [`Agent`], with
//!   Havannah's own commands; [`external`]: another GTP program as an agent; [`selfplay`]:
//!   matches with records, SGF and SVG; [`svg`]: pictures of positions;
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
//! let search: &havannah::SearchResult<havannah::HMove> = engine.last_result().expect("searched");
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
pub mod engine;
mod error;
pub mod external;
pub mod game;
pub mod gtp;
mod pattern;
pub mod playout;
pub mod prior;
pub mod selfplay;
pub mod shard;
pub mod svg;
pub mod td;

pub use agent::{Agent, RandomAgent};
pub use engine::{CONFIG_NAMES, Engine, EngineConfig};
pub use error::ConfigError;
pub use external::GtpProgram;
pub use game::{HMove, HavannahGame};
pub use gtp::HavannahSession;
pub use playout::{HavannahPlayout, PlayoutConfig, Policy, RingCheck};
pub use prior::{HavannahPrior, PriorConfig};
pub use selfplay::{MatchConfig, MatchResult, run_match};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
