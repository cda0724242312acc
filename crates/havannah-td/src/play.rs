//! Playing with a value net: the greedy player, evaluation matches, exhaustive checks.

use havannah_board::Cell;
use havannah_rules::{Colour, Position, RingDetection};
use rand::{Rng, RngExt};

use crate::mcts_opponent::mcts_move;
use crate::train::{best_index, game_rng, value_moves};
use havannah::td::{TdError, ValueNet};

/// An opponent for evaluation games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Opponent {
    /// Plays a uniformly random empty cell.
    Random,
    /// Plays a winning move if it has one, else a random empty cell (a 1-ply player).
    WinIfYouCan,
    /// A plain UCT search from `rave-mcts` with uniform random playouts and the
    /// MCTS-solver, with a fixed number of simulations per move.
    Mcts {
        /// Simulations per move.
        simulations: u64,
    },
}

impl Opponent {
    /// A short name for tables and plots: `random`, `win-if-you-can`, `mcts-<simulations>`.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Opponent::Random => "random".to_owned(),
            Opponent::WinIfYouCan => "win-if-you-can".to_owned(),
            Opponent::Mcts { simulations } => format!("mcts-{simulations}"),
        }
    }

    fn choose<R: Rng + ?Sized>(&self, pos: &Position, rng: &mut R) -> Result<Cell, TdError> {
        let empty = || pos.board().cells().filter(|&c| pos.is_empty(c));
        match self {
            Opponent::Random => Ok(random_cell(empty(), rng)),
            Opponent::WinIfYouCan => {
                let mover = pos.to_move();
                match empty().find(|&c| !pos.winning_kinds(c, mover).is_empty()) {
                    Some(c) => Ok(c),
                    None => Ok(random_cell(empty(), rng)),
                }
            }
            Opponent::Mcts { simulations } => mcts_move(pos, *simulations, rng),
        }
    }
}

fn random_cell<R: Rng + ?Sized>(cells: impl Iterator<Item = Cell> + Clone, rng: &mut R) -> Cell {
    let n = cells.clone().count();
    let k = rng.random_range(0..n);
    cells.clone().nth(k).unwrap_or_default()
}

/// The net's greedy move for the side to move in `pos`: a winning move if there is one
/// (the first in cell order), else the move to the position the net values best for the
/// mover (the first of equal ones). `None` if the game is over.
#[must_use]
pub fn greedy_move(net: &ValueNet, pos: &Position) -> Option<Cell> {
    if pos.win().is_some() || pos.is_full() {
        return None;
    }
    let mut moves = Vec::new();
    let mut values = Vec::new();
    Some(greedy_with(net, pos, &mut moves, &mut values))
}

fn greedy_with(
    net: &ValueNet,
    pos: &Position,
    moves: &mut Vec<Cell>,
    values: &mut Vec<f32>,
) -> Cell {
    value_moves(net, pos, moves, values);
    moves[best_index(values, pos.to_move())]
}

/// The results of an evaluation match, from the net's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MatchResult {
    /// Games played.
    pub games: u64,
    /// Games the net won.
    pub wins: u64,
    /// Games the net lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the net played as White (it plays White in even-numbered games).
    pub games_as_white: u64,
    /// Games the net won as White.
    pub wins_as_white: u64,
}

impl MatchResult {
    /// The share of games won, in `[0, 1]` (0 when no game was played).
    #[must_use]
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// Counts one game the net played as `net_colour`, won by `winner` (`None`: a draw).
    fn record(&mut self, net_colour: Colour, winner: Option<Colour>) {
        self.games += 1;
        if net_colour == Colour::White {
            self.games_as_white += 1;
        }
        match winner {
            Some(w) if w == net_colour => {
                self.wins += 1;
                if w == Colour::White {
                    self.wins_as_white += 1;
                }
            }
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    fn add(&mut self, other: &MatchResult) {
        self.games += other.games;
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.games_as_white += other.games_as_white;
        self.wins_as_white += other.wins_as_white;
    }
}

/// Plays `games` games of the net's greedy player ([`greedy_move`]) against `opponent` from
/// the empty board, the net playing White in even-numbered games and Black in odd ones, on
/// `threads` threads. Game `k` draws its randomness from a generator seeded by
/// `(seed, k)`, so the result does not depend on the number of threads.
///
/// # Errors
///
/// [`TdError::InvalidConfig`] for zero threads or an MCTS opponent with zero simulations.
pub fn play_match(
    net: &ValueNet,
    opponent: Opponent,
    games: u64,
    seed: u64,
    threads: usize,
) -> Result<MatchResult, TdError> {
    check_match(opponent, threads)?;
    let threads = (threads as u64).min(games.max(1));
    // Thread `t` plays games t, t + threads, t + 2 threads, ...
    let run = |t: u64| -> Result<MatchResult, TdError> {
        let mut total = MatchResult::default();
        let mut buffers = (Vec::new(), Vec::new());
        for k in (t..games).step_by(threads as usize) {
            let net_colour = if k.is_multiple_of(2) {
                Colour::White
            } else {
                Colour::Black
            };
            let mut rng = game_rng(seed, k);
            let winner = play_one(net, net_colour, opponent, &mut rng, &mut buffers)?;
            total.record(net_colour, winner);
        }
        Ok(total)
    };
    let parts: Vec<Result<MatchResult, TdError>> = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || run(t))).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    let mut total = MatchResult::default();
    for p in parts {
        total.add(&p?);
    }
    Ok(total)
}

/// The settings errors of [`play_match`]: no threads, or an MCTS opponent without
/// simulations.
fn check_match(opponent: Opponent, threads: usize) -> Result<(), TdError> {
    if threads == 0 {
        return Err(TdError::InvalidConfig {
            name: "threads",
            value: "0".into(),
            reason: "must be at least 1",
        });
    }
    if opponent == (Opponent::Mcts { simulations: 0 }) {
        return Err(TdError::InvalidConfig {
            name: "simulations",
            value: "0".into(),
            reason: "must be at least 1",
        });
    }
    Ok(())
}

/// One game from the empty board, the net's greedy player as `net_colour`: the winner, or
/// `None` for a draw. `buffers` are the greedy player's reusable move and value lists.
fn play_one<R: Rng + ?Sized>(
    net: &ValueNet,
    net_colour: Colour,
    opponent: Opponent,
    rng: &mut R,
    buffers: &mut (Vec<Cell>, Vec<f32>),
) -> Result<Option<Colour>, TdError> {
    let mut pos = Position::new(net.board(), RingDetection::Online);
    loop {
        let mover = pos.to_move();
        let cell = if mover == net_colour {
            greedy_with(net, &pos, &mut buffers.0, &mut buffers.1)
        } else {
            opponent.choose(&pos, rng)?
        };
        if !pos.place(cell).is_empty() {
            return Ok(Some(mover));
        }
        if pos.is_full() {
            return Ok(None);
        }
    }
}

/// Whether the net's greedy player ([`greedy_move`]), moving first from `pos`, wins against
/// every sequence of replies: the net's side plays its greedy move, the other side tries
/// every empty cell, and every line must end in a win for the net's side (a draw or a loss
/// anywhere makes it `false`). Exhaustive, so only for small boards (size 2, or late
/// positions of size 3). `false` if the game is already over.
#[must_use]
pub fn greedy_wins_against_every_reply(net: &ValueNet, pos: &Position) -> bool {
    if pos.win().is_some() || pos.is_full() {
        return false;
    }
    let side = pos.to_move();
    let mut moves = Vec::new();
    let mut values = Vec::new();
    wins_all(net, pos, side, &mut moves, &mut values)
}

fn wins_all(
    net: &ValueNet,
    pos: &Position,
    side: Colour,
    moves: &mut Vec<Cell>,
    values: &mut Vec<f32>,
) -> bool {
    let cell = greedy_with(net, pos, moves, values);
    let mut after = pos.clone();
    if !after.place(cell).is_empty() {
        return true;
    }
    if after.is_full() {
        return false;
    }
    let replies: Vec<Cell> = after
        .board()
        .cells()
        .filter(|&c| after.is_empty(c))
        .collect();
    replies.into_iter().all(|r| {
        let mut next = after.clone();
        if !next.place(r).is_empty() || next.is_full() {
            return false;
        }
        debug_assert_eq!(next.to_move(), side);
        wins_all(net, &next, side, moves, values)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_counts_from_the_nets_side() {
        let mut r = MatchResult::default();
        r.record(Colour::White, Some(Colour::White));
        r.record(Colour::Black, Some(Colour::Black));
        r.record(Colour::Black, Some(Colour::White));
        r.record(Colour::White, None);
        let expected = MatchResult {
            games: 4,
            wins: 2,
            losses: 1,
            draws: 1,
            games_as_white: 2,
            wins_as_white: 1,
        };
        assert_eq!(r, expected);
    }
}
