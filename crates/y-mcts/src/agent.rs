//! Y's part of the harness's search agent ([`game_harness::search_agent::SearchAgent`]): the
//! search plays on [`Y`] itself, with a configuration and a budget of simulations when the
//! clock gives no time.

use connection_kit::{BridgePlayout, ConnectionPrior, Knowledge};
use game_harness::Clock;
use game_harness::cli::PlayerSpec;
use game_harness::search_agent::{SearchAgent, SearchSetup};
use game_harness::search_params::SearchParams;
use rave_mcts::{Budget, Config, Mcts, RaveSchedule};

use crate::Y;

/// A search of Y: its name, its configuration and the simulations a move when the clock
/// gives no time.
#[derive(Debug, Clone)]
pub struct YSearch {
    /// The name for tables and logs: the algorithm and the knowledge on (`rave+bridge`).
    pub name: String,
    /// The search's configuration.
    pub config: Config,
    /// Simulations a move when the clock gives no time.
    pub simulations: u64,
    /// The knowledge: bridge-saving playouts, threats at expansion, biases for reaching sides
    /// and saving bridges.
    pub knowledge: Knowledge,
}

/// The search player `spec` names (`rave` or `uct`, with connection-kit's [`Knowledge`]
/// settings, bridge-saving playouts on by default, and the harness's [`SearchParams`]),
/// spending `simulations` a move when the clock gives no time.
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
    spec.check_keys(&[&Knowledge::KEYS, &SearchParams::KEYS])?;
    let defaults = Knowledge {
        bridge_save: true,
        ..Knowledge::default()
    };
    let knowledge =
        (defaults.with_params(|key| spec.param(key))).map_err(|e| format!("player {spec}: {e}"))?;
    let params = SearchParams::of_player(spec, SearchParams::default())?;
    let config = params.apply(builder).build().map_err(|e| e.to_string())?;
    let setup = YSearch {
        name: format!("{name}{}", knowledge.suffix()),
        config,
        simulations,
        knowledge,
    };
    Ok(Engine::new(setup, 0))
}

/// A player of Y by tree search.
pub type Engine = SearchAgent<Y, YSearch>;

impl SearchSetup<Y> for YSearch {
    type State = Y;
    type Playout = BridgePlayout<Y>;
    type Prior = ConnectionPrior;

    fn name(&self) -> String {
        self.name.clone()
    }
    fn root(&self, game: &Y) -> Y {
        *game
    }
    fn tree(&self, root: Y) -> Mcts<Y, BridgePlayout<Y>, ConnectionPrior> {
        let playout = BridgePlayout::new(self.knowledge.bridge_save);
        Mcts::with_policies(root, self.config.clone(), playout, self.knowledge.prior)
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
