//! The interface every Havannah agent of this crate offers to match runners and to GTP.

use game_harness::Clock;
use havannah_rules::{GameState, Move};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A Havannah agent: a player that follows the game and chooses moves.
///
/// The caller owns the authoritative [`GameState`] and checks every move; an agent keeps whatever
/// state it likes (a search tree to reuse) and is told about every move played.
pub trait Agent: Send {
    /// A short name for tables and logs.
    fn name(&self) -> String;

    /// Forgets everything and starts from `game` (a new game, or a position after `undo`).
    fn reset(&mut self, game: &GameState);

    /// `mv` has just been played in `game` (which already contains it), by either side.
    fn observe(&mut self, game: &GameState, mv: Move);

    /// Chooses a legal move for the side to move in `game`; `None` when the game is over.
    fn choose(&mut self, game: &GameState, clock: &Clock) -> Option<Move>;

    /// Restarts the agent's random generator from `seed`. Match runners call it before
    /// every game with a seed of that game ([`game_seed`](game_harness::matches::game_seed)),
    /// so that a match split into shards plays the same games as in one piece. Agents
    /// without randomness of their own (external programs) ignore it.
    fn reseed(&mut self, _seed: u64) {}

    /// A few human-readable lines about the last search (simulations, speed, win rate,
    /// principal variation, ...), for logs and GUIs; `None` for agents that do not search.
    fn search_report(&self) -> Option<String> {
        None
    }

    /// Why the agent's last [`Agent::choose`] gave no move or a bad one, if it knows (an
    /// external program that died, answered an error or resigned); the match runner writes it
    /// into the forfeit's reason. `None` for agents that cannot fail that way.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// A uniformly random empty cell of `game` (never `swap`); `None` on a full board.
pub fn random_cell<R: rand::Rng + ?Sized>(game: &GameState, rng: &mut R) -> Option<Move> {
    let empty: Vec<_> = game
        .board()
        .cells()
        .filter(|&c| game.stone(c).is_none())
        .collect();
    if empty.is_empty() {
        return None;
    }
    Some(Move::Cell(empty[rng.random_range(0..empty.len())]))
}

/// An agent that picks a uniformly random legal cell (it never plays `swap`).
#[derive(Debug, Clone)]
pub struct RandomAgent {
    rng: Pcg64Mcg,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    #[must_use]
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn reset(&mut self, _game: &GameState) {}

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    fn observe(&mut self, _game: &GameState, _mv: Move) {}

    fn choose(&mut self, game: &GameState, _clock: &Clock) -> Option<Move> {
        if game.outcome().is_over() {
            return None;
        }
        random_cell(game, &mut self.rng)
    }
}
