//! One search agent for every game (feature `search`): a [`SearchAgent`] plays any
//! [`MatchGame`] with `rave_mcts`'s tree search, keeping its tree from move to move, and the
//! game supplies only what is its own through [`SearchSetup`]: the search's position, a fresh
//! tree (its configuration, playout and prior), the budget under a clock, an opening book and
//! the report.
//!
//! - **Tree reuse.** Moves observed are followed in the tree at the next choice, all at once
//!   (one compaction, [`Mcts::advance_all`]), so the time it takes counts against that move's
//!   budget; when they cannot be followed, or the search's position is not the game's
//!   ([`SearchSetup::follows`]), the tree starts afresh.
//! - **Budget.** The game turns the clock into a budget ([`SearchSetup::budget`]; the time
//!   already spent following moves is taken off it).
//! - **Statistics and failures.** The last [`SearchResult`] is kept ([`SearchAgent::last_result`],
//!   [`Agent::search_report`]) and its simulations reported to the match runner
//!   ([`Agent::last_simulations`], 0 for a book move); a choice that gives no move says why
//!   ([`AgentFailure`]).
//!
//! ```
//! use game_harness::search_agent::{SearchAgent, SearchSetup};
//! use game_harness::{Agent, Clock, MatchGame, Verdict};
//! use rave_mcts::{Budget, Config, Game, Mcts, NoPrior, Player, Rewards, UniformPlayout};
//!
//! /// Players add 1 or 2 to a count; whoever reaches 5 wins.
//! #[derive(Clone, Default, PartialEq, Debug)]
//! struct Race(Vec<u8>);
//!
//! impl Race {
//!     fn total(&self) -> u8 {
//!         self.0.iter().sum()
//!     }
//! }
//!
//! impl MatchGame for Race {
//!     type Move = u8;
//!     type Error = std::fmt::Error;
//!     fn moves(&self) -> &[u8] {
//!         &self.0
//!     }
//!     fn try_play(&mut self, mv: u8) -> Result<(), std::fmt::Error> {
//!         if self.total() >= 5 || !(1..=2).contains(&mv) {
//!             return Err(std::fmt::Error);
//!         }
//!         self.0.push(mv);
//!         Ok(())
//!     }
//!     fn verdict(&self) -> Option<Verdict> {
//!         (self.total() >= 5).then(|| Verdict::Win(self.side_to_move().other()))
//!     }
//!     fn move_name(&self, mv: u8) -> String {
//!         mv.to_string()
//!     }
//!     fn parse_move(&self, text: &str) -> Result<u8, std::fmt::Error> {
//!         text.parse().map_err(|_| std::fmt::Error)
//!     }
//! }
//!
//! impl Game for Race {
//!     type Move = u8;
//!     fn to_move(&self) -> Player {
//!         self.0.len() % 2
//!     }
//!     fn legal_moves(&self, moves: &mut Vec<u8>) {
//!         if self.total() < 5 {
//!             moves.extend([1, 2]);
//!         }
//!     }
//!     fn play(&mut self, mv: u8) {
//!         self.0.push(mv);
//!     }
//!     fn result(&self) -> Option<Rewards> {
//!         // The player who moved last reached 5.
//!         (self.total() >= 5).then(|| Rewards::win((self.0.len() + 1) % 2))
//!     }
//!     fn move_index(&self, mv: u8) -> usize {
//!         usize::from(mv)
//!     }
//!     fn move_bound(&self) -> usize {
//!         3
//!     }
//! }
//!
//! /// Race's part: the search's position is the game itself, 200 simulations a move.
//! struct RaceSearch;
//!
//! impl SearchSetup<Race> for RaceSearch {
//!     type State = Race;
//!     type Playout = UniformPlayout<Race>;
//!     type Prior = NoPrior;
//!     fn name(&self) -> String {
//!         "race-mcts".into()
//!     }
//!     fn root(&self, game: &Race) -> Race {
//!         game.clone()
//!     }
//!     fn tree(&self, root: Race) -> Mcts<Race> {
//!         Mcts::new(root, Config::default())
//!     }
//!     fn follows(&self, state: &Race, game: &Race) -> bool {
//!         state == game
//!     }
//!     fn budget(&self, _game: &Race, _clock: &Clock) -> Budget {
//!         Budget::simulations(200)
//!     }
//! }
//!
//! let mut agent = SearchAgent::new(RaceSearch, 7);
//! let mut game = Race::default();
//! agent.reset(&game);
//! for mv in [1, 2] {
//!     game.try_play(mv)?;
//!     agent.observe(&game, mv);
//! }
//! // At 3, adding 2 reaches 5 and wins; adding 1 leaves the opponent the win.
//! assert_eq!(agent.choose(&game, &Clock::unlimited()), Some(2));
//! assert!(agent.last_result().is_some_and(|r| r.simulations > 0));
//! assert_eq!(agent.last_simulations(), agent.last_result().map(|r| r.simulations));
//! # Ok::<(), std::fmt::Error>(())
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use rand_pcg::Pcg64Mcg;
use rave_mcts::rand::SeedableRng;
use rave_mcts::{Budget, Game, Mcts, MctsError, Playout, Prior, SearchResult};

use crate::agent::{Agent, AgentFailure, MatchGame};
use crate::time::Clock;

/// What a game gives the [`SearchAgent`].
pub trait SearchSetup<G: MatchGame>: Send {
    /// The position the search plays on (the game itself, or a faster form of it).
    type State: Game<Move = G::Move>;
    /// The playout policy of the search.
    type Playout: Playout<Self::State>;
    /// The prior of new nodes.
    type Prior: Prior<Self::State> + Send;

    /// The agent's name for tables and logs.
    fn name(&self) -> String;

    /// The search's position of `game`.
    fn root(&self, game: &G) -> Self::State;

    /// A fresh search from `root`: its configuration, playout and prior.
    fn tree(&self, root: Self::State) -> Mcts<Self::State, Self::Playout, Self::Prior>;

    /// Whether the search's position `state` is `game`'s, after following the moves
    /// observed (a game whose moves may come out of turn compares positions, not plies).
    fn follows(&self, state: &Self::State, game: &G) -> bool;

    /// The budget of the next move of `game` under `clock`.
    fn budget(&self, game: &G, clock: &Clock) -> Budget;

    /// A move without a search, or a position to search from instead of `game`'s (an opening
    /// book); `None` to search as usual.
    fn opening(&mut self, _game: &G) -> Option<Opening<G::Move, Self::State>> {
        None
    }

    /// The lines the agent writes about a search of `state`; rave-mcts's report with the
    /// moves' `Debug` names by default.
    fn report(&self, result: &SearchResult<G::Move>, _state: &Self::State) -> String {
        result.report(|m| format!("{m:?}"))
    }
}

/// What [`SearchSetup::opening`] decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opening<M, S> {
    /// Play this move without a search.
    Play(M),
    /// Search from this position (a fresh tree) instead of the game's.
    SearchFrom(S),
}

/// A player of any [`MatchGame`] by tree search, with tree reuse: see the module's
/// documentation.
pub struct SearchAgent<G: MatchGame, S: SearchSetup<G>> {
    setup: S,
    search: Option<Mcts<S::State, S::Playout, S::Prior>>,
    rng: Pcg64Mcg,
    last: Option<SearchResult<G::Move>>,
    /// Moves observed and not yet followed in the tree.
    pending: Vec<G::Move>,
    failure: Option<AgentFailure>,
    /// The simulations of the last choice: 0 for a book move, `None` before the first choice
    /// and after one that gave no move.
    simulations: Option<u64>,
    /// Simulations and searches since the agent was made.
    totals: (u64, u32),
}

impl<G: MatchGame, S: SearchSetup<G>> fmt::Debug for SearchAgent<G, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchAgent")
            .field("name", &self.setup.name())
            .field("tree_nodes", &self.tree_nodes())
            .finish_non_exhaustive()
    }
}

impl<G: MatchGame, S: SearchSetup<G>> SearchAgent<G, S> {
    /// An agent searching as `setup` says, its generator seeded by `seed` (one thread: fully
    /// deterministic for a seed and a simulation budget). The tree is made at the first
    /// choice, or by [`Agent::reset`].
    #[must_use]
    pub fn new(setup: S, seed: u64) -> SearchAgent<G, S> {
        SearchAgent {
            setup,
            search: None,
            rng: Pcg64Mcg::seed_from_u64(seed),
            last: None,
            pending: Vec::new(),
            failure: None,
            simulations: None,
            totals: (0, 0),
        }
    }

    /// The game's setup.
    #[must_use]
    pub fn setup(&self) -> &S {
        &self.setup
    }

    /// The game's setup, to change; the tree is dropped (the next choice starts afresh).
    pub fn setup_mut(&mut self) -> &mut S {
        self.search = None;
        self.pending.clear();
        &mut self.setup
    }

    /// The result of the last search (best move, principal variation, child statistics).
    #[must_use]
    pub fn last_result(&self) -> Option<&SearchResult<G::Move>> {
        self.last.as_ref()
    }

    /// The nodes of the search tree (0 before the first search).
    #[must_use]
    pub fn tree_nodes(&self) -> usize {
        self.search.as_ref().map_or(0, Mcts::tree_nodes)
    }

    /// The mean simulations of the searches so far (0 before the first).
    #[must_use]
    pub fn simulations_per_search(&self) -> f64 {
        let (simulations, searches) = self.totals;
        simulations as f64 / f64::from(searches.max(1))
    }

    /// Makes sure the search stands at `game`'s position: follows the pending moves in the
    /// tree (keeping the subtree), or starts afresh.
    fn sync(&mut self, game: &G) {
        let pending = std::mem::take(&mut self.pending);
        if let Some(search) = self.search.as_mut()
            && search.advance_all(&pending).is_err()
        {
            self.search = None;
        }
        let follows = self
            .search
            .as_ref()
            .is_some_and(|s| self.setup.follows(s.game(), game));
        if !follows {
            self.search = Some(self.setup.tree(self.setup.root(game)));
        }
    }

    /// The move of a search of `game`, the time already spent (`start`) taken off its budget.
    fn search(&mut self, game: &G, clock: &Clock, start: Instant) -> Result<G::Move, AgentFailure> {
        self.sync(game);
        let mut budget = self.setup.budget(game, clock);
        if let Some(time) = budget.time.as_mut() {
            *time = time
                .saturating_sub(start.elapsed())
                .max(Duration::from_millis(1));
        }
        let Some(search) = self.search.as_mut() else {
            unreachable!("sync leaves a search")
        };
        let result = (search.search(&budget, &mut self.rng))
            .map_err(|e: MctsError| AgentFailure::Search(e.to_string()))?;
        self.totals = (self.totals.0 + result.simulations, self.totals.1 + 1);
        self.simulations = Some(result.simulations);
        let mv = result.best_move;
        self.last = Some(result);
        Ok(mv)
    }
}

impl<G, S> Agent<G> for SearchAgent<G, S>
where
    G: MatchGame,
    G::Move: Send,
    S: SearchSetup<G>,
{
    fn name(&self) -> String {
        self.setup.name()
    }

    fn reset(&mut self, game: &G) {
        self.search = Some(self.setup.tree(self.setup.root(game)));
        self.last = None;
        self.simulations = None;
        self.pending.clear();
    }

    fn observe(&mut self, _game: &G, mv: G::Move) {
        if self.search.is_some() {
            self.pending.push(mv);
        }
    }

    fn choose(&mut self, game: &G, clock: &Clock) -> Option<G::Move> {
        let start = Instant::now();
        self.failure = None;
        self.simulations = None;
        if game.verdict().is_some() {
            self.failure = Some(AgentFailure::GameOver);
            return None;
        }
        match self.setup.opening(game) {
            Some(Opening::Play(mv)) => {
                self.last = None;
                self.simulations = Some(0);
                return Some(mv);
            }
            Some(Opening::SearchFrom(root)) => {
                self.search = Some(self.setup.tree(root));
                self.pending.clear();
            }
            None => {}
        }
        self.search(game, clock, start)
            .map_err(|e| self.failure = Some(e))
            .ok()
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    fn search_report(&self) -> Option<String> {
        let state = self.search.as_ref()?.game();
        Some(self.setup.report(self.last.as_ref()?, state))
    }

    /// The simulations of the last search, 0 for a move of the opening book.
    fn last_simulations(&self) -> Option<u64> {
        self.simulations
    }

    fn failure(&self) -> Option<AgentFailure> {
        self.failure.clone()
    }
}
