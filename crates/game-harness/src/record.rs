//! What a match leaves behind: one [`GameRecord`] per game (the final game, who moved first,
//! the winner, a [`Forfeit`] if a player broke the rules, the thinking times, the simulations
//! the players reported) and the [`MatchResult`] of the whole match, with its scores and its
//! results table.
//!
//! The records know the game only as a [`MatchGame`]: sides, verdicts and moves. What a game
//! adds (colours, winning figures, its record formats) the program computes from
//! [`GameRecord::game`], and it builds its own table from the pieces of the generic one
//! ([`MatchResult::sides_line`], [`MatchResult::length_line`], ...).

use std::fmt;
use std::time::Duration;

use crate::agent::{MatchGame, Side, Verdict};
use crate::matches::{MatchSettings, PlayerId, Tally};
use crate::pentanomial::Pentanomial;
use crate::sprt::SprtStatus;
use crate::stats::{Score, format_duration, mean_duration, percent, thousands};

/// A game lost by a rule breach rather than on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Forfeit {
    /// The player who forfeited.
    pub player: PlayerId,
    /// The move it chose, in the game's notation ([`MatchGame::move_name`]), or `None` if it
    /// chose none.
    pub chosen: Option<String>,
    /// Why the move was rejected: the game's error for an illegal move, the agent's
    /// [`failure`](crate::Agent::failure) for no move.
    pub reason: String,
}

/// The record of one finished game.
#[derive(Debug, Clone)]
pub struct GameRecord<G> {
    /// The game's number in the match, from 0.
    pub index: usize,
    /// The player who took [`Side::First`] (moved at plies 0, 2, 4, ..., an opening's moves
    /// counted).
    pub first_player: PlayerId,
    /// The final game. A forfeited game stops before the rejected move.
    pub game: G,
    /// The winning player, `None` for a draw.
    pub winner: Option<PlayerId>,
    /// How the game ended by side: on the board, or a win of the side of the forfeiting
    /// player's opponent.
    pub verdict: Verdict,
    /// Set when the game was lost by an illegal move or no move.
    pub forfeit: Option<Forfeit>,
    /// Thinking time of A and B in this game.
    pub time: [Duration; 2],
    /// Moves chosen by A and B in this game (an opening's moves are nobody's).
    pub moves_chosen: [u32; 2],
    /// The longest thinking time of one move of A and of B in this game.
    pub longest_move: [Duration; 2],
    /// The simulations A and B reported for their moves in this game
    /// ([`Agent::last_simulations`](crate::Agent::last_simulations)), summed over the moves
    /// that reported them.
    pub simulations: [u64; 2],
    /// The thinking time of the moves of A and of B that reported their simulations; zero
    /// when none did.
    pub search_time: [Duration; 2],
}

impl<G: MatchGame> GameRecord<G> {
    /// The number of moves played.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[G::Move] {
        self.game.moves()
    }
}

impl<G> GameRecord<G> {
    /// The player who played `side`.
    #[must_use]
    pub fn player_on(&self, side: Side) -> PlayerId {
        match side {
            Side::First => self.first_player,
            Side::Second => self.first_player.other(),
        }
    }

    /// The side `player` played.
    #[must_use]
    pub fn side_of(&self, player: PlayerId) -> Side {
        if player == self.first_player {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// The outcome of a match: the players' names, the settings and every game.
#[derive(Debug, Clone)]
pub struct MatchResult<G> {
    /// The names of A and B.
    pub names: [String; 2],
    /// The settings the match ran with.
    pub settings: MatchSettings,
    /// The games in the order they were played.
    pub games: Vec<GameRecord<G>>,
}

impl<G: MatchGame> MatchResult<G> {
    /// The mean game length in plies (0 with no games).
    #[must_use]
    pub fn mean_plies(&self) -> f64 {
        if self.games.is_empty() {
            0.0
        } else {
            self.games.iter().map(GameRecord::plies).sum::<usize>() as f64 / self.games.len() as f64
        }
    }

    /// `Mean game length: 31.5 plies`.
    #[must_use]
    pub fn length_line(&self) -> String {
        format!("Mean game length: {:.1} plies", self.mean_plies())
    }
}

impl<G> MatchResult<G> {
    /// Wins, losses and draws of `player`.
    #[must_use]
    pub fn score(&self, player: PlayerId) -> Score {
        self.tally().score(player)
    }

    /// A's results by who moved first.
    #[must_use]
    pub fn tally(&self) -> Tally {
        Tally::of_games(self.games.iter().map(|g| (g.first_player, g.winner)))
    }

    /// The score of `player` in the games where it took the first side (`first = true`) or
    /// the second.
    #[must_use]
    pub fn score_moving(&self, player: PlayerId, first: bool) -> Score {
        self.tally().score_moving(player, first)
    }

    /// Games won by the first side, by the second side, and draws (forfeits count for the
    /// side that won them).
    #[must_use]
    pub fn wins_by_side(&self) -> (u32, u32, u32) {
        let (mut first, mut second, mut draws) = (0, 0, 0);
        for g in &self.games {
            match g.verdict {
                Verdict::Win(Side::First) => first += 1,
                Verdict::Win(Side::Second) => second += 1,
                Verdict::Draw => draws += 1,
            }
        }
        (first, second, draws)
    }

    /// The number of forfeited games.
    #[must_use]
    pub fn forfeits(&self) -> usize {
        self.games.iter().filter(|g| g.forfeit.is_some()).count()
    }

    /// The total thinking time and moves chosen of `player`.
    #[must_use]
    pub fn time_used(&self, player: PlayerId) -> (Duration, u64) {
        let i = player.index();
        self.games.iter().fold((Duration::ZERO, 0), |(t, n), g| {
            (t + g.time[i], n + u64::from(g.moves_chosen[i]))
        })
    }

    /// The mean thinking time per move of `player`.
    #[must_use]
    pub fn mean_time_per_move(&self, player: PlayerId) -> Duration {
        let (total, n) = self.time_used(player);
        mean_duration(total, n)
    }

    /// The longest thinking time of one move of `player` in the match.
    #[must_use]
    pub fn longest_move(&self, player: PlayerId) -> Duration {
        let i = player.index();
        self.games
            .iter()
            .map(|g| g.longest_move[i])
            .max()
            .unwrap_or_default()
    }

    /// The simulations `player` reported over the match, and the thinking time of the moves
    /// that reported them.
    #[must_use]
    pub fn search_used(&self, player: PlayerId) -> (u64, Duration) {
        let i = player.index();
        self.games.iter().fold((0, Duration::ZERO), |(n, t), g| {
            (n + g.simulations[i], t + g.search_time[i])
        })
    }

    /// The simulations a second of `player` over the match: its simulations over the thinking
    /// time of the moves that reported them ([`MatchResult::search_used`]); `None` when no
    /// move of it reported its simulations (an agent that does not search, or records read
    /// from a file without them).
    #[must_use]
    pub fn simulations_per_second(&self, player: PlayerId) -> Option<f64> {
        let (simulations, time) = self.search_used(player);
        (!time.is_zero()).then(|| simulations as f64 / time.as_secs_f64())
    }

    /// `count` as a percentage of the games (`-` with no games), as the table writes shares.
    #[must_use]
    pub fn share(&self, count: u32) -> String {
        if self.games.is_empty() {
            "-".to_string()
        } else {
            percent(f64::from(count) / self.games.len() as f64)
        }
    }

    /// The first side's share of the games (draws count half) with its 95% Wilson interval:
    /// how much moving first is worth in this match, or how balanced its openings are.
    #[must_use]
    pub fn first_side_score(&self) -> Score {
        let (first, second, draws) = self.wins_by_side();
        Score::new(first, second, draws)
    }

    /// `First side: won 6/10, share 60.0% [31.3%, 83.2%] (draws count half); second side won
    /// 4, draws 0`: the share of the side that moved first (ply 0), with its Wilson interval.
    #[must_use]
    pub fn sides_line(&self) -> String {
        let (first, second, draws) = self.wins_by_side();
        format!(
            "First side: won {first}/{}, share {} (draws count half); second side won {second}, draws {draws}",
            self.games.len(),
            self.first_side_score().win_rate()
        )
    }

    /// A's results counted by game pairs (games `2k` and `2k + 1`, one opening with the sides
    /// swapped); a game whose partner was not played is left out.
    #[must_use]
    pub fn pentanomial(&self) -> Pentanomial {
        Pentanomial::of_games(self.games.iter().map(|g| (g.index, g.winner)))
    }

    /// The state of the settings' SPRT on the pairs played; `None` without one.
    #[must_use]
    pub fn sprt_status(&self) -> Option<SprtStatus> {
        let pairs = self.pentanomial();
        self.settings.sprt.map(|sprt| sprt.status(&pairs))
    }

    /// The match by game pairs, each line ending in `\n`: the pair counts and A's score with
    /// its interval from them ([`MatchResult::pentanomial`]; nothing without a whole pair),
    /// then the SPRT's state when the settings have one.
    #[must_use]
    pub fn pairs_lines(&self) -> String {
        let mut lines = String::new();
        let pairs = self.pentanomial();
        if pairs.pairs() > 0 {
            lines.push_str(&format!("{pairs}\n{}\n", pairs.summary()));
        }
        if let Some(status) = self.sprt_status() {
            lines.push_str(&format!("{status}\n"));
        }
        lines
    }

    /// The results table's closing lines, which every game's table ends with: A's score with
    /// its Wilson interval and Elo ([`Tally::summary`]), the same by game pairs and the SPRT's
    /// state ([`MatchResult::pairs_lines`]), the thinking times
    /// ([`MatchResult::time_line`]) and the simulations a second
    /// ([`MatchResult::simulations_line`]), each line but the last ending in `\n`.
    #[must_use]
    pub fn score_lines(&self) -> String {
        format!(
            "{}\n{}{}\n{}",
            self.tally().summary(),
            self.pairs_lines(),
            self.time_line(),
            self.simulations_line()
        )
    }

    /// `Mean time per move: A 12.0 ms, B 11.5 ms; longest move: A 40.1 ms, B 38.0 ms`.
    #[must_use]
    pub fn time_line(&self) -> String {
        format!(
            "Mean time per move: A {}, B {}; longest move: A {}, B {}",
            format_duration(self.mean_time_per_move(PlayerId::A)),
            format_duration(self.mean_time_per_move(PlayerId::B)),
            format_duration(self.longest_move(PlayerId::A)),
            format_duration(self.longest_move(PlayerId::B))
        )
    }

    /// `Simulations a second: A 57,123, B -`: each player's
    /// [`MatchResult::simulations_per_second`] rounded to a whole number, `-` for a player
    /// whose moves never reported their simulations.
    #[must_use]
    pub fn simulations_line(&self) -> String {
        let rate = |player| {
            self.simulations_per_second(player)
                .map_or("-".to_string(), |r| thousands(r.round() as u64))
        };
        format!(
            "Simulations a second: A {}, B {}",
            rate(PlayerId::A),
            rate(PlayerId::B)
        )
    }
}

impl<G: MatchGame> fmt::Display for MatchResult<G> {
    /// The results table: the players, A's and B's wins by who moved first
    /// ([`Tally::table`]), the first side's share ([`MatchResult::sides_line`]), forfeits, the
    /// mean game length, then [`MatchResult::score_lines`] (no final newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.names;
        writeln!(f, "Match: A = {a}, B = {b}; {} games", self.games.len())?;
        f.write_str(&self.tally().table())?;
        writeln!(f, "{}", self.sides_line())?;
        writeln!(f, "Forfeits: {}", self.forfeits())?;
        writeln!(f, "{}", self.length_line())?;
        f.write_str(&self.score_lines())
    }
}
