//! The match runner: two [`Agent`]s play a series of games of any [`MatchGame`].
//!
//! - Paired openings: the program's opening closure gets the game's number and returns the
//!   starting game (an empty board, random first moves, blocked cells, ...). Games `2k` and
//!   `2k + 1` are a pair: A takes the first side in even games and B in odd ones
//!   ([`first_player`]), and an opening drawn from [`opening_seed`] is the same for both games
//!   of a pair, so both players get both sides of it.
//! - Before every game both agents are reseeded with [`game_seed`], then reset to the opening;
//!   seeded agents play the same games whether the match runs in one piece or in [`Shard`]s
//!   ([`MatchSettings::shard`], and the [`shard`](crate::shard) file format to merge them).
//! - Every chosen move is checked by the game: an agent that returns an illegal move, or no
//!   move while the game goes on, forfeits the game (its opponent wins; the [`Forfeit`] says
//!   why). Both agents are told every move played.
//! - The clock of the settings is passed to every [`Agent::choose`] as advice; thinking time is
//!   measured and recorded, never enforced. The simulations an agent reports for a move
//!   ([`Agent::last_simulations`]) are summed with that move's thinking time, for the players'
//!   simulations a second.
//!
//! ```
//! use game_harness::runner::run_match;
//! use game_harness::{Agent, Clock, MatchGame, MatchSettings, PlayerId, Side, Verdict};
//!
//! /// Players add 1 or 2 to a count; whoever reaches 5 wins.
//! #[derive(Clone, Default)]
//! struct Race(Vec<u8>);
//!
//! impl MatchGame for Race {
//!     type Move = u8;
//!     // Any error type will do; a real game's names the bad move.
//!     type Error = std::fmt::Error;
//!     fn moves(&self) -> &[u8] {
//!         &self.0
//!     }
//!     fn try_play(&mut self, mv: u8) -> Result<(), std::fmt::Error> {
//!         if self.verdict().is_some() || !(1..=2).contains(&mv) {
//!             return Err(std::fmt::Error);
//!         }
//!         self.0.push(mv);
//!         Ok(())
//!     }
//!     fn verdict(&self) -> Option<Verdict> {
//!         let total: u8 = self.0.iter().sum();
//!         // The side that moved last reached the goal.
//!         (total >= 5).then(|| Verdict::Win(self.side_to_move().other()))
//!     }
//!     fn move_name(&self, mv: u8) -> String {
//!         mv.to_string()
//!     }
//!     fn parse_move(&self, text: &str) -> Result<u8, std::fmt::Error> {
//!         text.parse().map_err(|_| std::fmt::Error)
//!     }
//! }
//!
//! /// Always adds `self.0`.
//! struct Adder(u8);
//!
//! impl Agent<Race> for Adder {
//!     fn name(&self) -> String {
//!         format!("adds {}", self.0)
//!     }
//!     fn reset(&mut self, _game: &Race) {}
//!     fn observe(&mut self, _game: &Race, _mv: u8) {}
//!     fn choose(&mut self, _game: &Race, _clock: &Clock) -> Option<u8> {
//!         Some(self.0)
//!     }
//! }
//!
//! let (mut ones, mut twos) = (Adder(1), Adder(2));
//! let settings = MatchSettings::new(4).seed(7);
//! let result = run_match(
//!     [&mut ones, &mut twos],
//!     &settings,
//!     |_index| Ok::<_, std::convert::Infallible>(Race::default()),
//!     |record| println!("game {} won by {:?}", record.index, record.winner),
//! )?;
//! // 2 + 1 + 2 = 5: B wins when it moves first; 1 + 2 + 1 + 2 = 6: B wins moving second.
//! assert_eq!(result.score(PlayerId::B).wins, 4);
//! assert_eq!(result.games[1].first_player, PlayerId::B);
//! assert_eq!(result.games[1].verdict, Verdict::Win(Side::First));
//! println!("{result}");
//! # Ok::<(), std::convert::Infallible>(())
//! ```

use std::time::{Duration, Instant};

use crate::agent::{Agent, MatchGame, Side, Verdict};
use crate::matches::{MatchSettings, PlayerId, first_player, game_seed};
use crate::pentanomial::Pentanomial;
use crate::record::{Forfeit, GameRecord, MatchResult};
use crate::shard::Shard;
use crate::time::Clock;

/// The seed of game `index`'s opening in a match with seed `seed`: the same for games `2k`
/// and `2k + 1`, so the two games of a pair start alike with the sides swapped.
///
/// ```
/// use game_harness::runner::opening_seed;
///
/// assert_eq!(opening_seed(3, 4), opening_seed(3, 5));
/// assert_ne!(opening_seed(3, 5), opening_seed(3, 6));
/// assert_eq!(opening_seed(3, 0), 3);
/// ```
#[must_use]
pub const fn opening_seed(seed: u64, index: usize) -> u64 {
    seed ^ (index as u64 / 2).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Plays a match between `agents` (A and B) with `settings`: game `index` starts from
/// `opening(index)`, and `on_game` is called after each finished game (for a progress bar).
/// Only the games of `settings.shard` are played; with [`MatchSettings::sprt`] the match
/// stops after the first game pair at which the test decides ([`MatchResult::sprt_status`]).
///
/// # Errors
/// The first error of `opening`; no game is played after it.
pub fn run_match<G: MatchGame, E>(
    mut agents: [&mut dyn Agent<G>; 2],
    settings: &MatchSettings,
    mut opening: impl FnMut(usize) -> Result<G, E>,
    mut on_game: impl FnMut(&GameRecord<G>),
) -> Result<MatchResult<G>, E> {
    let names = [agents[0].name(), agents[1].name()];
    let games = play_shard(
        settings.games,
        settings.shard,
        |index| {
            for (i, agent) in agents.iter_mut().enumerate() {
                agent.reseed(game_seed(settings.seed, index, i));
            }
            let game = opening(index)?;
            Ok(play_game(&mut agents, index, game, &settings.clock))
        },
        |_, record| on_game(record),
        |records| {
            settings.sprt.is_some_and(|sprt| {
                let pairs = Pentanomial::of_games(records.iter().map(|g| (g.index, g.winner)));
                sprt.status(&pairs).decision.is_some()
            })
        },
    )?;
    Ok(MatchResult {
        names,
        settings: *settings,
        games,
    })
}

/// Plays the games of `shard` of a match of `games` games in order with `play`, calling
/// `on_game` with each game's number and result as soon as it is known; stops at the first
/// error.
///
/// # Errors
/// The first error of `play`; the games played before it are lost.
fn play_shard<R, E>(
    games: usize,
    shard: Shard,
    mut play: impl FnMut(usize) -> Result<R, E>,
    mut on_game: impl FnMut(usize, &R),
    mut stop: impl FnMut(&[R]) -> bool,
) -> Result<Vec<R>, E> {
    let mut results = Vec::new();
    for index in shard.games(games) {
        let result = play(index)?;
        on_game(index, &result);
        results.push(result);
        if !index.is_multiple_of(2) && stop(&results) {
            break;
        }
    }
    Ok(results)
}

/// Plays game number `index` of a match from `game` to its end: the agents are reset to
/// `game`, [`first_player`]`(index)` plays [`Side::First`], every move is checked and timed,
/// and the simulations each agent reports for a move ([`Agent::last_simulations`]) are summed
/// with the time of the moves that report them. The agents are not reseeded ([`run_match`]
/// does that).
pub fn play_game<G: MatchGame>(
    agents: &mut [&mut dyn Agent<G>; 2],
    index: usize,
    mut game: G,
    clock: &Clock,
) -> GameRecord<G> {
    for agent in agents.iter_mut() {
        agent.reset(&game);
    }
    let first = first_player(index);
    let mut times = MoveTimes::default();
    let forfeit = play_out(&mut game, agents, first, clock, &mut times);
    let (verdict, forfeit) = match forfeit {
        Some(f) => {
            let side = if f.player == first {
                Side::Second
            } else {
                Side::First
            };
            (Verdict::Win(side), Some(f))
        }
        // `play_out` only returns without a forfeit at the end of the game.
        None => (game.verdict().unwrap_or(Verdict::Draw), None),
    };
    let winner = verdict.winner().map(|side| match side {
        Side::First => first,
        Side::Second => first.other(),
    });
    GameRecord {
        index,
        first_player: first,
        game,
        winner,
        verdict,
        forfeit,
        time: times.time,
        moves_chosen: times.moves_chosen,
        longest_move: times.longest_move,
        simulations: times.simulations,
        search_time: times.search_time,
    }
}

/// Each player's thinking time, moves chosen and longest move, and the simulations and
/// thinking time of its moves whose agent reported its simulations.
#[derive(Default)]
struct MoveTimes {
    time: [Duration; 2],
    moves_chosen: [u32; 2],
    longest_move: [Duration; 2],
    simulations: [u64; 2],
    search_time: [Duration; 2],
}

impl MoveTimes {
    /// Counts a choice of player `i` that took `spent` and, if its agent reported them,
    /// `simulations`.
    fn add(&mut self, i: usize, spent: Duration, simulations: Option<u64>) {
        self.time[i] += spent;
        self.longest_move[i] = self.longest_move[i].max(spent);
        self.moves_chosen[i] += 1;
        if let Some(n) = simulations {
            self.simulations[i] += n;
            self.search_time[i] += spent;
        }
    }
}

/// Plays `game` to its end, `first` playing the first side, timing each choice: the forfeit,
/// if a player chose no move or an illegal one.
fn play_out<G: MatchGame>(
    game: &mut G,
    agents: &mut [&mut dyn Agent<G>; 2],
    first: PlayerId,
    clock: &Clock,
    times: &mut MoveTimes,
) -> Option<Forfeit> {
    while game.verdict().is_none() {
        let mover = match game.side_to_move() {
            Side::First => first,
            Side::Second => first.other(),
        };
        let i = mover.index();
        let start = Instant::now();
        let chosen = agents[i].choose(game, clock);
        let spent = start.elapsed();
        times.add(i, spent, agents[i].last_simulations());
        let Some(mv) = chosen else {
            let reason = match agents[i].failure() {
                Some(why) => format!("chose no move: {why}"),
                None => "chose no move while the game goes on".to_string(),
            };
            return Some(Forfeit {
                player: mover,
                chosen: None,
                reason,
            });
        };
        if let Err(e) = game.try_play(mv) {
            return Some(Forfeit {
                player: mover,
                chosen: Some(game.move_name(mv)),
                reason: e.to_string(),
            });
        }
        for agent in agents.iter_mut() {
            agent.observe(game, mv);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_stops_at_the_first_error() {
        let mut seen = Vec::new();
        let r = play_shard(
            5,
            Shard::ALL,
            |i| {
                if i < 3 {
                    Ok(i * 10)
                } else {
                    Err(format!("game {i}"))
                }
            },
            |i, r| seen.push((i, *r)),
            |_| false,
        );
        assert_eq!(r, Err("game 3".to_string()));
        assert_eq!(seen, [(0, 0), (1, 10), (2, 20)]);
        assert_eq!(
            play_shard(2, Shard::ALL, Ok::<usize, ()>, |_, _| {}, |_| false),
            Ok(vec![0, 1])
        );
    }
}
