//! A Hex player over `rave_mcts::Mcts`: the three named configurations (UCT, RAVE, GRAVE), the
//! budget per move, and tree reuse between moves; it is a `game_harness::Agent`, so the match
//! runner and the GTP session play it.

use std::time::Duration;

use clap::ValueEnum;
use game_harness::Clock;
use game_harness::cli::{MatchArgs, PlayerSpec};
use game_harness::search_agent::{SearchAgent, SearchSetup};
use rave_mcts::{Budget, Config, Mcts, MctsError, RaveSchedule, SearchResult};

use crate::board::HexMove;
use crate::game::HexGame;
use crate::harness::Hex;
use crate::playout::HexPlayout;
use connection_kit::{ConnectionPrior, Knowledge};
use game_harness::search_params::SearchParams;

/// The GRAVE reference threshold `r` of the `grave` configuration.
pub const GRAVE_REF: u32 = 50;

/// The search algorithm of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// Plain UCT (exploration 0.7).
    Uct,
    /// UCT-RAVE, Gelly-Silver minimum-MSE schedule (bias 0.032), no UCT bonus.
    Rave,
    /// GRAVE (r = 50) with the same schedule.
    Grave,
}

impl Algorithm {
    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Uct => "uct",
            Algorithm::Rave => "rave",
            Algorithm::Grave => "grave",
        }
    }

    /// The rave-mcts configuration with `search` over it (rave-mcts defaults otherwise).
    pub fn config(self, threads: usize, search: SearchParams) -> Result<Config, MctsError> {
        let builder = match self {
            Algorithm::Uct => Config::builder().uct(),
            Algorithm::Rave => Config::builder().rave(RaveSchedule::default()),
            Algorithm::Grave => Config::builder()
                .rave(RaveSchedule::default())
                .grave(GRAVE_REF),
        };
        search.apply(builder).threads(threads).build()
    }
}

/// How a player searches: algorithm, budget per move, threads, playout policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The selection rule.
    pub algorithm: Algorithm,
    /// Simulations per move (with `time`, the first limit reached stops the search).
    pub simulations: Option<u64>,
    /// Time per move.
    pub time: Option<Duration>,
    /// Search threads (one shared tree).
    pub threads: usize,
    /// The knowledge (connection-kit's): bridge-save replies in the playouts, threats at
    /// expansion, the biases for reaching edges and for the reply that saves a bridge.
    pub knowledge: Knowledge,
    /// The search settings over the algorithm's (RAVE schedule, expansion, early stop).
    pub search: SearchParams,
}

/// Bridge-saving playouts as `bridge_save` says, the threats at expansion as `threats` says,
/// no bias: the knowledge the command lines' switches set.
pub fn knowledge(bridge_save: bool, threats: bool) -> Knowledge {
    Knowledge {
        bridge_save,
        prior: ConnectionPrior {
            threats,
            ..ConnectionPrior::default()
        },
    }
}

impl Settings {
    /// The settings of a player of `hex selfplay`: the algorithm `spec` names (`uct`, `rave`,
    /// `grave`, with connection-kit's [`Knowledge`] settings over `defaults` and the harness's
    /// [`SearchParams`] over `search`) and the match's budget and threads.
    ///
    /// # Errors
    /// A message naming an unknown algorithm or a bad setting.
    pub fn of_player(
        spec: &PlayerSpec,
        args: &MatchArgs,
        defaults: Knowledge,
        search: SearchParams,
    ) -> Result<Settings, String> {
        let unknown = || format!("unknown player {spec}: uct, rave, grave or gtp:COMMAND");
        let algorithm =
            Algorithm::from_str(spec.name().ok_or_else(unknown)?, true).map_err(|_| unknown())?;
        spec.check_keys(&[&Knowledge::KEYS, &SearchParams::KEYS])?;
        let knowledge = (defaults.with_params(|key| spec.param(key)))
            .map_err(|e| format!("player {spec}: {e}"))?;
        Ok(Settings {
            algorithm,
            simulations: args.simulations.map(u64::from),
            time: args.time_per_move.map(Into::into),
            threads: args.threads.map_or(1, usize::from),
            knowledge,
            search: SearchParams::of_player(spec, search)?,
        })
    }

    /// The budget of one move, with the time capped by `time_cap` (from a GTP clock) when
    /// given. Without any limit: 10,000 simulations.
    pub fn budget(&self, time_cap: Option<Duration>) -> Budget {
        let time = match (self.time, time_cap) {
            (Some(t), Some(c)) => Some(t.min(c)),
            (t, c) => t.or(c),
        }
        .map(|t| t.max(Duration::from_millis(1)));
        let mut budget = Budget {
            time,
            simulations: self.simulations.map(|s| s.max(1)),
            ..Budget::default()
        };
        if budget.time.is_none() && budget.simulations.is_none() {
            budget.simulations = Some(10_000);
        }
        budget
    }
}

/// Hex's part of the harness's search agent: the [`Settings`] and the configuration they
/// name. The search plays on [`HexGame`], the position of a [`Hex`] game.
#[derive(Debug, Clone)]
pub struct HexSearch {
    settings: Settings,
    config: Config,
}

impl HexSearch {
    /// The search `settings` describe.
    ///
    /// # Errors
    /// The configuration's error (a thread count of 0).
    pub fn new(settings: Settings) -> Result<HexSearch, MctsError> {
        let config = settings
            .algorithm
            .config(settings.threads, settings.search)?;
        Ok(HexSearch { settings, config })
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }
}

impl SearchSetup<Hex> for HexSearch {
    type State = HexGame;
    type Playout = HexPlayout;
    type Prior = ConnectionPrior;

    /// The algorithm with the knowledge that is on: `rave+bridge+threats+reach+reply`.
    fn name(&self) -> String {
        let s = &self.settings;
        format!("{}{}", s.algorithm.name(), s.knowledge.suffix())
    }
    fn root(&self, game: &Hex) -> HexGame {
        game.position().clone()
    }
    fn tree(&self, root: HexGame) -> Mcts<HexGame, HexPlayout, ConnectionPrior> {
        let k = self.settings.knowledge;
        let playout = HexPlayout::new(k.bridge_save);
        Mcts::with_policies(root, self.config.clone(), playout, k.prior)
    }
    /// Positions, not plies: a GTP controller may play one colour twice.
    fn follows(&self, state: &HexGame, game: &Hex) -> bool {
        state.same_position(game.position())
    }
    fn budget(&self, _game: &Hex, clock: &Clock) -> Budget {
        self.settings.budget(clock.allowance())
    }
    fn report(&self, result: &SearchResult<HexMove>, _state: &HexGame) -> String {
        result.report(ToString::to_string)
    }
}

/// A Hex player: the harness's search agent with [`HexSearch`].
pub type Engine = SearchAgent<Hex, HexSearch>;

/// A player searching as `settings` say, its generator seeded by `seed`.
///
/// # Errors
/// The configuration's error (a thread count of 0).
pub fn engine(settings: Settings, seed: u64) -> Result<Engine, MctsError> {
    Ok(Engine::new(HexSearch::new(settings)?, seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_harness::{Agent, MatchGame};

    fn settings(algorithm: Algorithm, sims: u64) -> Settings {
        Settings {
            algorithm,
            simulations: Some(sims),
            time: None,
            threads: 1,
            knowledge: Knowledge::default(),
            search: SearchParams::default(),
        }
    }

    #[test]
    fn configurations_differ_as_named() {
        use rave_mcts::Selection;
        assert_eq!(
            Algorithm::Uct
                .config(1, SearchParams::default())
                .unwrap()
                .selection(),
            Selection::Uct
        );
        assert!(matches!(
            Algorithm::Rave
                .config(1, SearchParams::default())
                .unwrap()
                .selection(),
            Selection::Rave(_)
        ));
        assert!(matches!(
            Algorithm::Grave
                .config(2, SearchParams::default())
                .unwrap()
                .selection(),
            Selection::Grave {
                min_visits: GRAVE_REF,
                ..
            }
        ));
        assert!(Algorithm::Uct.config(0, SearchParams::default()).is_err());
    }

    #[test]
    fn budgets_combine_limits() {
        let mut s = settings(Algorithm::Uct, 500);
        assert_eq!(s.budget(None), Budget::simulations(500));
        s.time = Some(Duration::from_millis(300));
        let b = s.budget(Some(Duration::from_millis(100)));
        assert_eq!(b.time, Some(Duration::from_millis(100)));
        assert_eq!(b.simulations, Some(500));
        s.simulations = None;
        s.time = None;
        assert_eq!(s.budget(None), Budget::simulations(10_000));
    }

    #[test]
    fn tree_is_reused_when_the_game_goes_on() {
        let mut game = Hex::new(5, false).unwrap();
        let mut engine = engine(settings(Algorithm::Rave, 2000), 1).unwrap();
        let mv = engine.choose(&game, &Clock::unlimited()).unwrap();
        assert!(engine.search_report().unwrap().contains("simulations"));
        game.try_play(mv).unwrap();
        engine.observe(&game, mv);
        let reply = engine.choose(&game, &Clock::unlimited()).unwrap();
        // The subtree of the move played survived: the second search started with visits.
        let second = engine.last_result().unwrap();
        assert!(second.root_visits > second.simulations, "{second:?}");
        // The match runner is told this search's simulations, not the tree's visits.
        assert_eq!(engine.last_simulations(), Some(second.simulations));
        game.try_play(reply).unwrap();
        engine.observe(&game, reply);
        // A colour playing twice: the search follows the game's position, not its plies.
        let free = (0..25)
            .map(|c| game.position().geometry().move_of(c))
            .find(|&m| game.position().check(m).is_ok())
            .unwrap();
        game.play_as(crate::board::Colour::Black, free).unwrap();
        engine.observe(&game, free);
        let mv = engine.choose(&game, &Clock::unlimited()).unwrap();
        assert!(
            game.position().check(mv).is_ok(),
            "{mv} is legal where the game stands"
        );
        // A reset (a new game, an undo) starts afresh from the game given.
        let start = Hex::new(5, false).unwrap();
        engine.reset(&start);
        assert!(engine.last_result().is_none());
        assert!(engine.simulations_per_search() > 0.0);
    }
}
