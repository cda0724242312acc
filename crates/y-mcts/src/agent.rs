//! Y's part of the harness's search agent ([`game_harness::search_agent::SearchAgent`]): the
//! search plays on [`Y`] itself, with a configuration and a budget of simulations when the
//! clock gives no time.

use connection_kit::threats;
use game_harness::Clock;
use game_harness::cli::PlayerSpec;
use game_harness::search_agent::{SearchAgent, SearchSetup};
use rave_mcts::{
    Budget, Config, Game, Mcts, Narrowing, Prior, PriorValue, RaveSchedule, UniformPlayout,
};

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

/// The search player `spec` names (`rave` or `uct`, with `threats=0|1`), spending
/// `simulations` a move when the clock gives no time.
///
/// # Errors
/// A message naming an unknown player or a bad parameter.
pub fn search_player(spec: &PlayerSpec, simulations: u64) -> Result<Engine, String> {
    let name = spec.name().unwrap_or_default();
    let builder = match name {
        "rave" => Config::builder().rave(RaveSchedule::default()),
        "uct" => Config::builder().uct(),
        _ => return Err(format!("unknown player {spec}: rave, uct or gtp:COMMAND")),
    };
    let threats = match spec.param("threats") {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => return Err(format!("player {spec}: threats={other} is not 0 or 1")),
    };
    let config = builder.build().map_err(|e| e.to_string())?;
    let setup = YSearch {
        name: name.to_string(),
        config,
        simulations,
        threats,
    };
    Ok(Engine::new(setup, 0))
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
