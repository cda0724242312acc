//! A searching agent for any game that both the referee and the search understand: the search
//! keeps its tree from move to move (tree reuse) and stops at the clock's allowance.

use game_harness::{Agent, Clock, MatchGame};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Game, Mcts, SearchResult};

/// An MCTS player: `rave_mcts::Mcts` over `G`, with tree reuse between moves.
pub struct SearchAgent<G: Game + MatchGame<Move = <G as Game>::Move>> {
    name: String,
    mcts: Mcts<G>,
    /// The budget when the clock sets no time.
    simulations: u64,
    rng: Pcg64Mcg,
    last: Option<SearchResult<<G as Game>::Move>>,
}

impl<G: Game + MatchGame<Move = <G as Game>::Move>> SearchAgent<G> {
    /// An agent named `name` searching with `config` from `start`; it spends `simulations`
    /// simulations a move when the clock gives no time.
    #[must_use]
    pub fn new(name: &str, start: G, config: Config, simulations: u64) -> Self {
        SearchAgent {
            name: name.to_string(),
            mcts: Mcts::new(start, config),
            simulations,
            rng: Pcg64Mcg::seed_from_u64(0),
            last: None,
        }
    }

    /// The statistics of the last search.
    #[must_use]
    pub fn last_search(&self) -> Option<&SearchResult<<G as Game>::Move>> {
        self.last.as_ref()
    }
}

impl<G> Agent<G> for SearchAgent<G>
where
    G: Game + MatchGame<Move = <G as Game>::Move>,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn reset(&mut self, game: &G) {
        self.mcts.set_position(game.clone());
        self.last = None;
    }

    fn observe(&mut self, game: &G, mv: <G as MatchGame>::Move) {
        if self.mcts.advance(mv).is_err() {
            self.mcts.set_position(game.clone());
        }
    }

    fn choose(&mut self, game: &G, clock: &Clock) -> Option<<G as MatchGame>::Move> {
        if MatchGame::moves(self.mcts.game()) != MatchGame::moves(game) {
            self.mcts.set_position(game.clone());
        }
        let budget = match clock.allowance() {
            Some(time) => Budget::time(time),
            None => Budget::simulations(self.simulations),
        };
        let result = self.mcts.search(&budget, &mut self.rng).ok()?;
        let best = result.best_move;
        self.last = Some(result);
        Some(best)
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    fn search_report(&self) -> Option<String> {
        self.last.as_ref().map(|r| {
            format!(
                "{} simulations, win rate {:.1}%",
                r.simulations,
                100.0 * r.value
            )
        })
    }
}
