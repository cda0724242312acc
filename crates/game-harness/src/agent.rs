//! The two traits everything else in the harness works over: a game as a referee sees it
//! ([`MatchGame`]) and a program that plays it ([`Agent`]).
//!
//! A game implements [`MatchGame`] once (whose turn, checked moves, the verdict, moves as
//! text); then the match runner, the records, the shards and the GTP front end work for it,
//! and every agent of that game (a search, a random player, an external program) plays in them.

use std::fmt;

use crate::time::Clock;

/// The side that moves at even plies (0, 2, 4, ...: the side that opened the game) or at odd
/// plies. A rule that swaps colours (the pie rule) changes who owns which stones, not the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// Moves at plies 0, 2, 4, ...
    First,
    /// Moves at plies 1, 3, 5, ...
    Second,
}

impl Side {
    /// The side that moves at `ply` (counted from 0).
    #[must_use]
    pub const fn of_ply(ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for [`Side::First`], 1 for [`Side::Second`].
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// How a finished game ended, by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Verdict {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Verdict {
    /// The winning side, `None` for a draw.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Verdict::Win(side) => Some(side),
            Verdict::Draw => None,
        }
    }
}

/// Why an agent gave no move ([`Agent::failure`]); the message says what happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AgentFailure {
    /// The game is over: there is no move to choose.
    #[error("the game is over")]
    GameOver,
    /// The agent resigned.
    #[error("the program resigned")]
    Resigned,
    /// It used up its time for the game.
    #[error("ran out of time ({0:?})")]
    OutOfTime(std::time::Duration),
    /// An external program could not be started, died, hung or answered an error.
    #[error("{0}")]
    Program(String),
    /// An external program answered something that is not a move of the game.
    #[error("{0}")]
    BadAnswer(String),
    /// The agent's own search failed (a budget or a configuration it refuses).
    #[error("search failed: {0}")]
    Search(String),
}

/// A game as a referee sees it: whose turn it is, checked moves, the verdict, moves as text.
///
/// The value is the authoritative state of one game, moves played included. Implement it once
/// per game; the match runner, the records and the GTP front end work over it.
pub trait MatchGame: Clone {
    /// A move (a cell, a pass, a swap, ...).
    type Move: Copy + PartialEq + fmt::Debug;
    /// Why a move was refused or a name not understood; its message names the bad value.
    type Error: std::error::Error;

    /// The moves played so far, in order (a game set up by a program's opening included).
    fn moves(&self) -> &[Self::Move];

    /// The side to move: [`Side::of_ply`] of the number of moves played.
    fn side_to_move(&self) -> Side {
        Side::of_ply(self.moves().len())
    }

    /// Plays `mv` for the side to move after checking it.
    ///
    /// # Errors
    /// The game's error when `mv` is not legal here (the game is unchanged).
    fn try_play(&mut self, mv: Self::Move) -> Result<(), Self::Error>;

    /// `None` while the game goes on, else how it ended.
    fn verdict(&self) -> Option<Verdict>;

    /// The move's name in the game's notation (as written in records and sent over GTP).
    fn move_name(&self, mv: Self::Move) -> String;

    /// The move a name stands for in this position.
    ///
    /// # Errors
    /// The game's error when `text` names no move of this game.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::Error>;
}

/// A program that plays a [`MatchGame`]: it follows the game and chooses moves.
///
/// The caller owns the authoritative game and checks every move; an agent keeps whatever state
/// it likes (a search tree to reuse) and is told about every move played.
pub trait Agent<G: MatchGame>: Send {
    /// A short name for tables and logs.
    fn name(&self) -> String;

    /// Forgets everything and starts from `game` (a new game, a set-up opening, or a position
    /// after an undo).
    fn reset(&mut self, game: &G);

    /// `mv` has just been played in `game` (which already contains it), by either side.
    fn observe(&mut self, game: &G, mv: G::Move);

    /// Chooses a move for the side to move in `game` within `clock`; `None` when the game is
    /// over or the agent cannot move (then [`Agent::failure`] may say why).
    fn choose(&mut self, game: &G, clock: &Clock) -> Option<G::Move>;

    /// Restarts the agent's random generator from `seed`. The match runner calls it before
    /// every game with a seed of that game ([`game_seed`](crate::matches::game_seed)), so a
    /// match split into shards plays the same games as in one piece. Agents without randomness
    /// of their own (external programs) ignore it.
    fn reseed(&mut self, _seed: u64) {}

    /// A few human-readable lines about the last search (simulations, speed, win rate,
    /// principal variation, ...); `None` for agents that do not search.
    fn search_report(&self) -> Option<String> {
        None
    }

    /// The simulations of the last [`Agent::choose`]: `Some(0)` for a move chosen without a
    /// search (a book move, a forced or proven move), `None` for agents that do not count
    /// simulations (external programs, players that do not search) and before the first
    /// choice. The match runner sums them with the thinking time of the moves that report
    /// them, for each player's simulations a second
    /// ([`MatchResult::simulations_per_second`](crate::MatchResult::simulations_per_second)).
    fn last_simulations(&self) -> Option<u64> {
        None
    }

    /// Why the last [`Agent::choose`] gave no move or a bad one, if the agent knows (an
    /// external program that died, answered an error or resigned); the match runner writes it
    /// into the forfeit's reason.
    fn failure(&self) -> Option<AgentFailure> {
        None
    }
}

impl<G: MatchGame, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn reset(&mut self, game: &G) {
        (**self).reset(game);
    }
    fn observe(&mut self, game: &G, mv: G::Move) {
        (**self).observe(game, mv);
    }
    fn choose(&mut self, game: &G, clock: &Clock) -> Option<G::Move> {
        (**self).choose(game, clock)
    }
    fn reseed(&mut self, seed: u64) {
        (**self).reseed(seed);
    }
    fn search_report(&self) -> Option<String> {
        (**self).search_report()
    }
    fn last_simulations(&self) -> Option<u64> {
        (**self).last_simulations()
    }
    fn failure(&self) -> Option<AgentFailure> {
        (**self).failure()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_alternate_by_ply() {
        assert_eq!(Side::of_ply(0), Side::First);
        assert_eq!(Side::of_ply(3), Side::Second);
        assert_eq!(Side::First.other(), Side::Second);
        assert_eq!(Side::Second.index(), 1);
        assert_eq!(Verdict::Win(Side::Second).winner(), Some(Side::Second));
        assert_eq!(Verdict::Draw.winner(), None);
    }
}
