//! A Hex player over `rave_mcts::Mcts`: the three named configurations (UCT, RAVE, GRAVE), the
//! budget per move, and tree reuse between moves; it is a `game_harness::Agent`, so the match
//! runner and the GTP session play it.

use std::time::Duration;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, MctsError, RaveSchedule, SearchResult};

use game_harness::{Agent, Clock};

use crate::board::HexMove;
use crate::game::HexGame;
use crate::harness::Hex;
use crate::playout::HexPlayout;

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

    /// The rave-mcts configuration (rave-mcts defaults otherwise).
    pub fn config(self, threads: usize) -> Result<Config, MctsError> {
        let builder = match self {
            Algorithm::Uct => Config::builder().uct(),
            Algorithm::Rave => Config::builder().rave(RaveSchedule::default()),
            Algorithm::Grave => Config::builder()
                .rave(RaveSchedule::default())
                .grave(GRAVE_REF),
        };
        builder.threads(threads).build()
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
    /// Bridge-save replies in the playouts.
    pub bridge_save: bool,
}

impl Settings {
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

/// A searching player that keeps its tree between moves: `game_harness::Agent` of [`Hex`].
pub struct Engine {
    mcts: Mcts<HexGame, HexPlayout>,
    settings: Settings,
    rng: Pcg64Mcg,
    /// The last search's result (`hex-stats`, the search log).
    last: Option<SearchResult<HexMove>>,
    /// Why the last search failed, if it did.
    failure: Option<String>,
    /// Simulations and searches since the engine was made.
    totals: (u64, u32),
}

impl Engine {
    /// A player for games starting at `start`, with a seeded generator.
    ///
    /// # Errors
    /// The search's refusal of the settings (no threads, too many).
    pub fn new(start: &HexGame, settings: Settings, seed: u64) -> Result<Engine, MctsError> {
        let config = settings.algorithm.config(settings.threads)?;
        Ok(Engine {
            mcts: Mcts::with_playout(start.clone(), config, HexPlayout::new(settings.bridge_save)),
            settings,
            rng: Pcg64Mcg::seed_from_u64(seed),
            last: None,
            failure: None,
            totals: (0, 0),
        })
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Changes the settings (the tree is kept when the algorithm stays the same).
    ///
    /// # Errors
    /// The search's refusal of the settings; the engine is then unchanged.
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), MctsError> {
        let config = settings.algorithm.config(settings.threads)?;
        if settings.algorithm != self.settings.algorithm
            || settings.bridge_save != self.settings.bridge_save
        {
            let playout = HexPlayout::new(settings.bridge_save);
            self.mcts = Mcts::with_playout(self.mcts.game().clone(), config, playout);
        } else {
            self.mcts.set_config(config);
        }
        self.settings = settings;
        Ok(())
    }

    /// The last search's result.
    pub fn last_search(&self) -> Option<&SearchResult<HexMove>> {
        self.last.as_ref()
    }

    /// The mean simulations of a search since the engine was made (0 before the first).
    pub fn simulations_per_search(&self) -> f64 {
        let (simulations, searches) = self.totals;
        simulations as f64 / f64::from(searches.max(1))
    }
}

impl Agent<Hex> for Engine {
    fn name(&self) -> String {
        self.settings.algorithm.name().to_string()
    }

    fn reset(&mut self, game: &Hex) {
        self.mcts.set_position(game.position().clone());
        self.last = None;
    }

    /// Tree reuse: the move is played into the tree when its colour was the tree's colour to
    /// move; anything else (a colour playing twice) starts a fresh tree.
    fn observe(&mut self, game: &Hex, mv: HexMove) {
        let mover = game.colours().last().copied();
        if mover != Some(self.mcts.game().colour_to_move()) || self.mcts.advance(mv).is_err() {
            self.mcts.set_position(game.position().clone());
        }
    }

    /// Searches within the settings' budget, the time capped by the clock's allowance.
    fn choose(&mut self, game: &Hex, clock: &Clock) -> Option<HexMove> {
        if !self.mcts.game().same_position(game.position()) {
            self.mcts.set_position(game.position().clone());
        }
        let budget = self.settings.budget(clock.allowance());
        let searched = self.mcts.search(&budget, &mut self.rng);
        self.failure = searched
            .as_ref()
            .err()
            .map(|e| format!("search failed: {e}"));
        let result = searched.ok()?;
        self.totals = (self.totals.0 + result.simulations, self.totals.1 + 1);
        let best = result.best_move;
        self.last = Some(result);
        Some(best)
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    /// Simulations and their rate, time, win rate or proof, principal variation, tree size
    /// and depth, why the search stopped.
    fn search_report(&self) -> Option<String> {
        self.last.as_ref().map(|r| r.report(ToString::to_string))
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_harness::MatchGame;

    fn settings(algorithm: Algorithm, sims: u64) -> Settings {
        Settings {
            algorithm,
            simulations: Some(sims),
            time: None,
            threads: 1,
            bridge_save: false,
        }
    }

    #[test]
    fn configurations_differ_as_named() {
        use rave_mcts::Selection;
        assert_eq!(
            Algorithm::Uct.config(1).unwrap().selection(),
            Selection::Uct
        );
        assert!(matches!(
            Algorithm::Rave.config(1).unwrap().selection(),
            Selection::Rave(_)
        ));
        assert!(matches!(
            Algorithm::Grave.config(2).unwrap().selection(),
            Selection::Grave {
                min_visits: GRAVE_REF,
                ..
            }
        ));
        assert!(Algorithm::Uct.config(0).is_err());
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
        let mut engine = Engine::new(game.position(), settings(Algorithm::Rave, 2000), 1).unwrap();
        let mv = engine.choose(&game, &Clock::unlimited()).unwrap();
        assert!(engine.search_report().unwrap().contains("simulations"));
        game.try_play(mv).unwrap();
        engine.observe(&game, mv);
        // The subtree of the move played survives: its visits are the new root's.
        assert!(engine.mcts.root_visits() > 0);
        assert!(engine.mcts.game().same_position(game.position()));
        // A colour playing twice starts afresh.
        game.play_as(crate::board::Colour::Black, HexMove::cell(0, 0))
            .unwrap();
        engine.observe(&game, HexMove::cell(0, 0));
        assert_eq!(engine.mcts.root_visits(), 0);
        assert!(engine.mcts.game().same_position(game.position()));
        // A reset (a new game, an undo) starts afresh from the game given.
        let start = Hex::new(5, false).unwrap();
        engine.reset(&start);
        assert!(engine.mcts.game().same_position(start.position()));
        assert!(engine.last_search().is_none());
        assert!(engine.simulations_per_search() > 0.0);
    }
}
