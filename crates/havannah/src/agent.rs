//! The random player: [`RandomAgent`], and [`random_cell`], the move it makes.
//!
//! Every Havannah player of this crate is a [`game_harness::Agent`] of
//! [`GameState`] (re-exported as [`crate::Agent`]), so the generic match runner
//! ([`game_harness::runner`]) and the GTP session ([`crate::gtp`]) play with any of them.

use game_harness::{Agent, Clock};
use havannah_rules::{GameState, Move};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

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

impl Agent<GameState> for RandomAgent {
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
