#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod config;
mod error;
mod game;
mod result;
mod search;
mod tree;

pub use config::{
    AmafWeighting, Budget, Config, ConfigBuilder, DEFAULT_EXPAND_THRESHOLD,
    DEFAULT_FIRST_PLAY_URGENCY, DEFAULT_HORIZON_GROWTH, DEFAULT_RAVE_BIAS,
    DEFAULT_RAVE_EXPLORATION, DEFAULT_UCT_EXPLORATION, FinalMove, PlayoutPool, PriorTarget,
    RaveSchedule, Selection, Shortlist,
};
pub use error::MctsError;
pub use game::{
    Game, Narrowing, NoPrior, Player, Playout, PlayoutResult, Prior, PriorValue, Rewards, Trace,
    UniformPlayout,
};
pub use result::{ChildStats, Phase, PhaseTimes, Proof, SearchResult, StopReason};
pub use search::{Mcts, bytes_per_node};

/// The `rand` this crate is built against (0.10): [`Mcts::search`] and [`Playout`] take its
/// [`Rng`](rand::Rng). A generator from another `rand` major version does not implement it;
/// use `rave_mcts::rand` to name the right one.
pub use rand;
