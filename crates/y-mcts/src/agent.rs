//! Y's part of the harness's search agent ([`game_harness::search_agent::SearchAgent`]): the
//! search plays on [`Y`] itself, with a configuration and a budget of simulations when the
//! clock gives no time.

use connection_kit::threats;
use game_harness::Clock;
use game_harness::search_agent::{SearchAgent, SearchSetup};
use rave_mcts::{Budget, Config, Game, Mcts, Narrowing, Prior, PriorValue, UniformPlayout};

use crate::Y;

/// A search of Y: its name, its configuration and the simulations a move when the clock
/// gives no time.
#[derive(Debug, Clone)]
pub struct YSearch {
    /// The name for tables and logs (`rave`, `uct`).
    pub name: String,
    /// The search's configuration.
    pub config: Config,
    /// Simulations a move when the clock gives no time.
    pub simulations: u64,
    /// The threats at expansion ([`YPrior`]).
    pub threats: bool,
}

/// Y's prior: connection-kit's threats at expansion when `threats` is on (a win at once
/// proves a node, a block of the opponent's is its only move); no virtual visits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct YPrior {
    /// Narrow new nodes by the threat test.
    pub threats: bool,
}

impl Prior<Y> for YPrior {
    fn priors(&self, _game: &Y, _moves: &[u8], _out: &mut [PriorValue]) {}

    fn narrow(&self, game: &Y, moves: &mut Vec<u8>) -> Narrowing {
        if !self.threats {
            return Narrowing::Open;
        }
        threats(game, game.to_move()).narrow(moves, |cell| cell as u8)
    }

    fn is_active(&self) -> bool {
        false
    }
}

/// A player of Y by tree search.
pub type Engine = SearchAgent<Y, YSearch>;

impl SearchSetup<Y> for YSearch {
    type State = Y;
    type Playout = UniformPlayout<Y>;
    type Prior = YPrior;

    fn name(&self) -> String {
        self.name.clone()
    }
    fn root(&self, game: &Y) -> Y {
        *game
    }
    fn tree(&self, root: Y) -> Mcts<Y, UniformPlayout<Y>, YPrior> {
        let prior = YPrior {
            threats: self.threats,
        };
        Mcts::with_policies(root, self.config.clone(), UniformPlayout::default(), prior)
    }
    fn follows(&self, state: &Y, game: &Y) -> bool {
        state == game
    }
    fn budget(&self, _game: &Y, clock: &Clock) -> Budget {
        clock
            .allowance()
            .map_or(Budget::simulations(self.simulations), Budget::time)
    }
}
