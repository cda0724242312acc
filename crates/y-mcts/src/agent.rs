//! Y's part of the harness's search agent ([`game_harness::search_agent::SearchAgent`]): the
//! search plays on [`Y`] itself, with a configuration and a budget of simulations when the
//! clock gives no time.

use connection_kit::{BridgePlayout, ConnectionPrior};
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
    /// The tree knowledge: threats at expansion, biases for reaching sides and saving bridges.
    pub knowledge: ConnectionPrior,
    /// Playouts save intruded two-bridges (connection-kit's [`BridgePlayout`]).
    pub bridge_save: bool,
}

/// The search player `spec` names (`rave` or `uct`, with `threats=0|1`, `bridge=0|1` for
/// bridge-saving playouts (on by default), the bias weights `reach=W` and `reply=W`, and the
/// harness's [`SearchParams`]), spending `simulations` a move when the clock gives no time.
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
    let switch = |key: &str, default: bool| match spec.param(key) {
        None => Ok(default),
        Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(other) => Err(format!("player {spec}: {key}={other} is not 0 or 1")),
    };
    let weight = |key: &str| match spec.param(key).map(str::parse::<f32>) {
        None => Ok(0.0),
        Some(Ok(w)) if (0.0..=2.55).contains(&w) => Ok(w),
        Some(_) => Err(format!("player {spec}: {key} is not a weight in [0, 2.55]")),
    };
    let knowledge = ConnectionPrior {
        threats: switch("threats", false)?,
        reach: weight("reach")?,
        bridge_reply: weight("reply")?,
    };
    let bridge_save = switch("bridge", true)?;
    let params = SearchParams::of_player(spec, SearchParams::default())?;
    let config = params.apply(builder).build().map_err(|e| e.to_string())?;
    let setup = YSearch {
        name: knowledge_name(name, &knowledge, bridge_save),
        config,
        simulations,
        knowledge,
        bridge_save,
    };
    Ok(Engine::new(setup, 0))
}

/// `algorithm` with `+bridge`, `+threats`, `+reach`, `+reply` for each part of the knowledge on.
fn knowledge_name(algorithm: &str, k: &ConnectionPrior, bridge_save: bool) -> String {
    let parts = [
        (bridge_save, "+bridge"),
        (k.threats, "+threats"),
        (k.reach > 0.0, "+reach"),
        (k.bridge_reply > 0.0, "+reply"),
    ];
    let on = parts.iter().filter(|(on, _)| *on).map(|(_, part)| *part);
    std::iter::once(algorithm).chain(on).collect()
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
        let playout = BridgePlayout::new(self.bridge_save);
        Mcts::with_policies(root, self.config.clone(), playout, self.knowledge)
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
