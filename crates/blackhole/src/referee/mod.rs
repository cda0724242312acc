//! The referee: games between two CodeCup-protocol programs on the harness's match runner
//! ([`game_harness::run_match`]), in pairs on the same random blocked cells with the colours
//! swapped, with each program's thinking time per game enforced.
//!
//! - [`BlackholeGame`]: a game as the runner sees it (blocked cells, position, moves; Red
//!   opens); [`score_of`] a player's score in a finished game, a forfeit counting 0 for the
//!   offender and 150 for the other.
//! - [`CodeCupProgram`]: an external program as an [`Agent`].
//! - [`play_match`]: the games of a match, or the rest of a broken-off one, on the blocked
//!   cells of [`match_blocked`]; [`ScoreSummary`]: A's mean score with its standard error,
//!   its wins, draws and losses, the forfeits and the thinking times, from the records.

mod game;
mod program;

use std::fmt;
use std::ops::Range;
use std::time::Duration;

use game_harness::matches::{PlayerId, Tally};
use game_harness::record::{GameRecord, MatchResult};
use game_harness::{Agent, MatchSettings, run_match};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

pub use game::{BlackholeGame, MAX_SCORE, score_of};
pub use program::CodeCupProgram;

use crate::board::{CELLS, Cell};
use crate::error::BlackholeError;
use crate::rules::BLOCKED;

/// Five distinct random cells.
pub fn random_blocked<R: Rng + ?Sized>(rng: &mut R) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Cell::all().collect();
    for i in 0..BLOCKED {
        let j = i + (rng.next_u64() as usize) % (CELLS - i);
        cells.swap(i, j);
    }
    cells.truncate(BLOCKED);
    cells
}

/// The blocked cells of game `game` (counted from 0) of a match with this seed: games `2k` and
/// `2k + 1` share the cells of the `k`-th draw, so a match resumed at any game plays the cells it
/// would have played unbroken.
pub fn match_blocked(seed: u64, game: usize) -> Vec<Cell> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut blocked = random_blocked(&mut rng);
    for _ in 0..game / 2 {
        blocked = random_blocked(&mut rng);
    }
    blocked
}

/// Plays the games `games` (counted from 0) of a match between `a` and `b` with the match
/// runner: game `g` is played on [`match_blocked`]`(seed, g)`, A plays Red in even games and
/// Blue in odd ones, so each pair of games shares its cells with the colours swapped. A range
/// that starts after 0 resumes a broken-off match with the games it would have played.
/// `on_game` is called after every game with its record, numbered in the whole match.
///
/// The result's records are numbered in the whole match too, with A and B as given.
///
/// # Errors
/// [`BlackholeError::BadBlocked`] if blocked cells cannot be set up (not for cells of
/// [`match_blocked`]).
pub fn play_match(
    a: &mut dyn Agent<BlackholeGame>,
    b: &mut dyn Agent<BlackholeGame>,
    games: Range<usize>,
    seed: u64,
    mut on_game: impl FnMut(&GameRecord<BlackholeGame>),
) -> Result<MatchResult<BlackholeGame>, BlackholeError> {
    let offset = games.start;
    // The runner numbers the games from 0 and gives its first player the first side in even
    // games: after an odd number of games skipped, B is the runner's first player.
    let swapped = offset % 2 == 1;
    let agents: [&mut dyn Agent<BlackholeGame>; 2] = if swapped { [b, a] } else { [a, b] };
    let settings = MatchSettings::new(games.len()).seed(seed);
    let mut result = run_match(
        agents,
        &settings,
        |index| BlackholeGame::new(&match_blocked(seed, index + offset)),
        |record| on_game(&in_whole_match(record.clone(), offset, swapped)),
    )?;
    if swapped {
        result.names.swap(0, 1);
    }
    result.games = result
        .games
        .into_iter()
        .map(|record| in_whole_match(record, offset, swapped))
        .collect();
    Ok(result)
}

/// A record of the runner numbered from game `offset` of the whole match, its players
/// exchanged if the runner's A was B.
fn in_whole_match(
    mut record: GameRecord<BlackholeGame>,
    offset: usize,
    swapped: bool,
) -> GameRecord<BlackholeGame> {
    record.index += offset;
    if swapped {
        record.first_player = record.first_player.other();
        record.winner = record.winner.map(PlayerId::other);
        if let Some(forfeit) = &mut record.forfeit {
            forfeit.player = forfeit.player.other();
        }
        record.time.swap(0, 1);
        record.moves_chosen.swap(0, 1);
        record.longest_move.swap(0, 1);
        record.simulations.swap(0, 1);
        record.search_time.swap(0, 1);
    }
    record
}

/// Mean of `scores` and its standard error (0 with fewer than two scores).
#[must_use]
pub fn mean_and_error(scores: &[i16]) -> (f64, f64) {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return (0.0, 0.0);
    }
    let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
    if scores.len() < 2 {
        return (mean, 0.0);
    }
    let var = scores
        .iter()
        .map(|&s| (f64::from(s) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// The referee's summary of a match from A's side, computed from the runner's records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScoreSummary {
    /// A's score in each game (forfeits 0 or 150).
    pub scores: Vec<i16>,
    /// A's wins (score above 75), losses and draws, by who moved first (Red).
    pub tally: Tally,
    /// Forfeits by A and by B.
    pub forfeits: [usize; 2],
    /// Thinking time of A and B summed over the games.
    pub think_total: [Duration; 2],
    /// Longest thinking time in one game of A and of B.
    pub think_max: [Duration; 2],
}

impl ScoreSummary {
    /// The summary of these records.
    pub fn of_games<'a>(records: impl IntoIterator<Item = &'a GameRecord<BlackholeGame>>) -> Self {
        let mut summary = ScoreSummary::default();
        for record in records {
            summary.scores.push(score_of(record, PlayerId::A));
            summary.tally.add(record.first_player, record.winner);
            if let Some(forfeit) = &record.forfeit {
                summary.forfeits[forfeit.player.index()] += 1;
            }
            for k in 0..2 {
                summary.think_total[k] += record.time[k];
                summary.think_max[k] = summary.think_max[k].max(record.time[k]);
            }
        }
        summary
    }

    /// The summary of a whole match.
    #[must_use]
    pub fn of_match(result: &MatchResult<BlackholeGame>) -> Self {
        ScoreSummary::of_games(&result.games)
    }

    /// Mean score of A and its standard error.
    #[must_use]
    pub fn mean_and_error(&self) -> (f64, f64) {
        mean_and_error(&self.scores)
    }
}

impl fmt::Display for ScoreSummary {
    /// The referee's report: games, A's mean score with its standard error, A's wins, draws
    /// and losses with the Wilson interval and Elo of the harness, forfeits, thinking times.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mean, se) = self.mean_and_error();
        let n = u32::try_from(self.scores.len().max(1)).unwrap_or(u32::MAX);
        writeln!(f, "games: {}", self.scores.len())?;
        writeln!(f, "A mean score: {mean:.2} +- {se:.2} (standard error)")?;
        let score = self.tally.score(PlayerId::A);
        writeln!(
            f,
            "A wins/draws/losses: {}/{}/{}",
            score.wins, score.draws, score.losses
        )?;
        writeln!(f, "{}", self.tally.summary())?;
        write!(
            f,
            "forfeits: A {}, B {}",
            self.forfeits[0], self.forfeits[1]
        )?;
        for (k, name) in ["A", "B"].into_iter().enumerate() {
            write!(
                f,
                "\nthinking time {name}: mean {:.3} s per game, max {:.3} s",
                (self.think_total[k] / n).as_secs_f64(),
                self.think_max[k].as_secs_f64()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
