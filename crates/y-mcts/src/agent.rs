//! Y's part of the harness's search agent ([`game_harness::search_agent::SearchAgent`]): the
//! search plays on [`Y`] itself, with a configuration and a budget of simulations when the
//! clock gives no time.

use game_harness::Clock;
use game_harness::search_agent::{SearchAgent, SearchSetup};
use rave_mcts::{Budget, Config, Mcts, NoPrior, UniformPlayout};

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
}

/// A player of Y by tree search.
pub type Engine = SearchAgent<Y, YSearch>;

impl SearchSetup<Y> for YSearch {
    type State = Y;
    type Playout = UniformPlayout<Y>;
    type Prior = NoPrior;

    fn name(&self) -> String {
        self.name.clone()
    }
    fn root(&self, game: &Y) -> Y {
        *game
    }
    fn tree(&self, root: Y) -> Mcts<Y> {
        Mcts::new(root, self.config.clone())
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
