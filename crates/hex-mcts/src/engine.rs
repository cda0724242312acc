//! A Hex player over `rave_mcts::Mcts`: the three named configurations (UCT, RAVE, GRAVE), the
//! budget per move, and tree reuse between moves.

use std::time::Duration;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, MctsError, RaveSchedule, SearchResult};

use crate::board::{Colour, HexMove};
use crate::game::HexGame;
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

/// A searching player that keeps its tree between moves.
pub struct Engine {
    mcts: Mcts<HexGame, HexPlayout>,
    settings: Settings,
    /// The moves from the start position to the position the tree is for.
    known: Vec<(Colour, HexMove)>,
    start: HexGame,
    rng: Pcg64Mcg,
}

impl Engine {
    /// A player for games starting at `start`, with a seeded generator.
    pub fn new(start: &HexGame, settings: Settings, seed: u64) -> Result<Engine, MctsError> {
        let config = settings.algorithm.config(settings.threads)?;
        Ok(Engine {
            mcts: Mcts::with_playout(start.clone(), config, HexPlayout::new(settings.bridge_save)),
            settings,
            known: Vec::new(),
            start: start.clone(),
            rng: Pcg64Mcg::seed_from_u64(seed),
        })
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Changes the settings (the tree is kept when the algorithm stays the same).
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

    /// Brings the tree to `game`, reached from `start` by `history`: the moves since the last
    /// synchronisation are played into the tree (tree reuse) when they follow on from it in
    /// turn; anything else (another start, undo, a colour playing twice) starts a fresh tree.
    pub fn sync(&mut self, start: &HexGame, history: &[(Colour, HexMove)], game: &HexGame) {
        let same_start = start.size() == self.start.size()
            && start.swap_rule() == self.start.swap_rule()
            && start.stones() == self.start.stones()
            && start.colour_to_move() == self.start.colour_to_move();
        let follows = same_start
            && history.len() >= self.known.len()
            && history[..self.known.len()] == self.known[..];
        if follows {
            let mut ok = true;
            for &(colour, mv) in &history[self.known.len()..] {
                if colour != self.mcts.game().colour_to_move() || self.mcts.advance(mv).is_err() {
                    ok = false;
                    break;
                }
            }
            if ok && self.mcts.game().colour_to_move() == game.colour_to_move() {
                self.known = history.to_vec();
                return;
            }
        }
        self.start = start.clone();
        self.known = history.to_vec();
        self.mcts.set_position(game.clone());
    }

    /// Searches `game` (see [`Engine::sync`]) and returns the search result; the move is not
    /// played into the tree (the next `sync` does that).
    pub fn search(
        &mut self,
        start: &HexGame,
        history: &[(Colour, HexMove)],
        game: &HexGame,
        time_cap: Option<Duration>,
    ) -> Result<SearchResult<HexMove>, MctsError> {
        self.sync(start, history, game);
        let budget = self.settings.budget(time_cap);
        self.mcts.search(&budget, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let start = HexGame::new(5, false).unwrap();
        let mut engine = Engine::new(&start, settings(Algorithm::Rave, 2000), 1).unwrap();
        let mut game = start.clone();
        let mut history = Vec::new();
        let r = engine.search(&start, &history, &game, None).unwrap();
        game.try_play(r.best_move).unwrap();
        history.push((Colour::Black, r.best_move));
        engine.sync(&start, &history, &game);
        // The subtree of the move played survives: its visits are the new root's.
        assert!(engine.mcts.root_visits() > 0);
        assert_eq!(engine.mcts.game().stones(), game.stones());
        // An undo (shorter history) starts afresh.
        history.clear();
        engine.sync(&start, &history, &start);
        assert_eq!(engine.mcts.root_visits(), 0);
        assert_eq!(engine.mcts.game().stones(), start.stones());
    }
}
