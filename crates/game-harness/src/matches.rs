//! Matches between two players A and B, for any two-player game.
//!
//! - Paired openings: A moves first in games 0, 2, 4, ... and B in the others
//!   ([`first_player`]), so that games `2k` and `2k + 1` can share an opening (the same random
//!   first moves, the same blocked cells, ...) with the colours swapped.
//! - [`Tally`]: A's wins, losses and draws split by who moved first, and the results table
//!   with the score's 95% Wilson interval and the Elo difference ([`crate::stats`]).
//! - [`MatchSettings`]: the number of games, the clock, the seed, the [`Shard`] to play and
//!   the [`Sprt`] that may stop the match early; [`game_seed`] seeds the players per game so
//!   that a match's shards merge into the same games as one run.
//! - `progress_bar` is the bar the programs show (with the default feature `terminal`).
//!
//! The match runner over these ([`crate::runner`]) plays games of any
//! [`MatchGame`](crate::MatchGame) between two [`Agent`](crate::Agent)s.
//!
//! ```
//! use game_harness::matches::{PlayerId, Tally, first_player};
//!
//! // Four games that the first mover wins.
//! let mut tally = Tally::default();
//! for i in 0..4 {
//!     tally.add(first_player(i), Some(first_player(i)));
//! }
//! assert_eq!(tally.score(PlayerId::A).wins, 2);
//! assert_eq!(tally.score_moving(PlayerId::A, true).wins, 2);
//! assert!(tally.summary().contains("Elo A - B: 0 "));
//! # Ok::<(), String>(())
//! ```

use std::fmt;
use std::fmt::Write as _;

#[cfg(feature = "terminal")]
use indicatif::{ProgressBar, ProgressStyle};

use crate::shard::Shard;
use crate::sprt::Sprt;
use crate::stats::Score;
use crate::time::Clock;

/// One of the two players of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PlayerId {
    /// The first player of the match.
    A,
    /// The second player of the match.
    B,
}

impl PlayerId {
    /// The other player.
    #[must_use]
    pub const fn other(self) -> PlayerId {
        match self {
            PlayerId::A => PlayerId::B,
            PlayerId::B => PlayerId::A,
        }
    }

    /// 0 for A, 1 for B.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayerId::A => "A",
            PlayerId::B => "B",
        })
    }
}

/// Who moves first in game `index` of a paired match: A in even games, B in odd ones.
#[must_use]
pub const fn first_player(index: usize) -> PlayerId {
    if index.is_multiple_of(2) {
        PlayerId::A
    } else {
        PlayerId::B
    }
}

/// A's results in a match, split by who moved first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tally {
    /// A's wins, losses and draws in the games A moved first.
    pub a_first: Score,
    /// A's wins, losses and draws in the games B moved first.
    pub b_first: Score,
}

impl Tally {
    /// Counts one game: who moved first and who won (`None`: a draw).
    pub fn add(&mut self, first: PlayerId, winner: Option<PlayerId>) {
        let score = match first {
            PlayerId::A => &mut self.a_first,
            PlayerId::B => &mut self.b_first,
        };
        match winner {
            None => score.draws += 1,
            Some(PlayerId::A) => score.wins += 1,
            Some(PlayerId::B) => score.losses += 1,
        }
    }

    /// The tally of games given as (who moved first, who won).
    pub fn of_games(games: impl IntoIterator<Item = (PlayerId, Option<PlayerId>)>) -> Tally {
        let mut tally = Tally::default();
        for (first, winner) in games {
            tally.add(first, winner);
        }
        tally
    }

    /// The number of games.
    #[must_use]
    pub const fn games(&self) -> u32 {
        self.a_first.games() + self.b_first.games()
    }

    /// The wins, losses and draws of `player` over the whole match.
    #[must_use]
    pub fn score(&self, player: PlayerId) -> Score {
        let a = Score::new(
            self.a_first.wins + self.b_first.wins,
            self.a_first.losses + self.b_first.losses,
            self.a_first.draws + self.b_first.draws,
        );
        of_player(a, player)
    }

    /// The score of `player` in the games where it moved first (`first = true`) or second.
    #[must_use]
    pub fn score_moving(&self, player: PlayerId, first: bool) -> Score {
        let a = if (player == PlayerId::A) == first {
            self.a_first
        } else {
            self.b_first
        };
        of_player(a, player)
    }

    /// The table of the games by who moved first, with A's wins, B's wins and the draws:
    /// a header, `A moves first`, `B moves first` and `total`, each line ending with `\n`.
    #[must_use]
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<18}{:>7}{:>8}{:>8}{:>8}",
            "", "games", "A wins", "B wins", "draws"
        );
        for (label, s) in [
            ("A moves first", self.a_first),
            ("B moves first", self.b_first),
            ("total", self.score(PlayerId::A)),
        ] {
            let _ = writeln!(
                out,
                "{label:<18}{:>7}{:>8}{:>8}{:>8}",
                s.games(),
                s.wins,
                s.losses,
                s.draws
            );
        }
        out
    }

    /// A's score with its 95% Wilson interval and the Elo difference it implies, on two lines
    /// (no final newline).
    #[must_use]
    pub fn summary(&self) -> String {
        let s = self.score(PlayerId::A);
        format!(
            "Score of A: {} (95% Wilson interval, draws count half)\nElo A - B: {}",
            s.win_rate(),
            s.elo()
        )
    }
}

/// A's score seen from `player`.
fn of_player(a: Score, player: PlayerId) -> Score {
    match player {
        PlayerId::A => a,
        PlayerId::B => Score::new(a.losses, a.wins, a.draws),
    }
}

/// The settings of a match that the runner needs; what the game needs (a board size, its
/// rules, an opening) goes into the program's opening closure.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MatchSettings {
    /// The number of games of the whole match.
    pub games: usize,
    /// The clock given to each [`Agent::choose`](crate::Agent::choose) (advice; not enforced).
    pub clock: Clock,
    /// The match seed: the agents' seeds per game ([`game_seed`]) and the openings'
    /// ([`opening_seed`](crate::runner::opening_seed)).
    pub seed: u64,
    /// The part of the match to play (all of it by default): see [`Shard`].
    pub shard: Shard,
    /// A sequential probability ratio test that stops the match at the first game pair where
    /// it decides (none by default: every game is played).
    pub sprt: Option<Sprt>,
}

impl MatchSettings {
    /// `games` games, unlimited clock, seed 0, the whole match.
    #[must_use]
    pub const fn new(games: usize) -> MatchSettings {
        MatchSettings {
            games,
            clock: Clock::unlimited(),
            seed: 0,
            shard: Shard::ALL,
            sprt: None,
        }
    }

    /// With this clock for every move.
    #[must_use]
    pub const fn clock(mut self, clock: Clock) -> MatchSettings {
        self.clock = clock;
        self
    }

    /// With this match seed.
    #[must_use]
    pub const fn seed(mut self, seed: u64) -> MatchSettings {
        self.seed = seed;
        self
    }

    /// Stops the match at the first game pair where `sprt` decides.
    #[must_use]
    pub const fn sprt(mut self, sprt: Sprt) -> MatchSettings {
        self.sprt = Some(sprt);
        self
    }

    /// Plays only the games of `shard`; [`match_file::merge`](crate::match_file::merge) joins the parts.
    #[must_use]
    pub const fn shard(mut self, shard: Shard) -> MatchSettings {
        self.shard = shard;
        self
    }
}

/// The seed of player `player` (0 for A, 1 for B) in game `game` of a match with seed
/// `seed`: players reseeded with it before every game play the same game whether the match
/// runs in one piece or in [`Shard`]s.
#[must_use]
pub fn game_seed(seed: u64, game: usize, player: usize) -> u64 {
    // SplitMix64 of a mix of the three, so that nearby games get unrelated seeds.
    let mut z = seed
        ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (player as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The progress bar of a match of `games` games: elapsed time, bar, games played, time to go
/// and a message; hidden when `quiet`.
#[cfg(feature = "terminal")]
#[must_use]
pub fn progress_bar(games: usize, quiet: bool) -> ProgressBar {
    progress_bar_of(games, "games", quiet)
}

/// The progress bar of `len` steps named `unit` (`games`, `rounds`, `kept`, ...): elapsed
/// time, bar, steps done, time to go and a message; hidden when `quiet`.
#[cfg(feature = "terminal")]
#[must_use]
pub fn progress_bar_of(len: usize, unit: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    let template =
        format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, eta {{eta}}  {{msg}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Prints `line` above `bar`, or on standard output when the bar is hidden (quiet, or standard
/// error is not a terminal), where [`ProgressBar::println`] would print nothing.
#[cfg(feature = "terminal")]
pub fn print_above(bar: &ProgressBar, line: &str) {
    if bar.is_hidden() {
        crate::outln!("{line}");
    } else {
        bar.println(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ_by_game_and_player() {
        let seeds: std::collections::HashSet<u64> = (0..100)
            .flat_map(|g| [game_seed(7, g, 0), game_seed(7, g, 1)])
            .collect();
        assert_eq!(seeds.len(), 200);
        assert_eq!(game_seed(7, 3, 1), game_seed(7, 3, 1));
        assert_ne!(game_seed(7, 3, 1), game_seed(8, 3, 1));
    }

    #[test]
    fn paired_colours() {
        let firsts: Vec<PlayerId> = (0..4).map(first_player).collect();
        assert_eq!(firsts, [PlayerId::A, PlayerId::B, PlayerId::A, PlayerId::B]);
        assert_eq!(PlayerId::A.other(), PlayerId::B);
        assert_eq!((PlayerId::A.index(), PlayerId::B.index()), (0, 1));
        assert_eq!(PlayerId::B.to_string(), "B");
    }

    #[test]
    fn tally_by_who_moved_first() {
        use PlayerId::{A, B};
        // A first: A wins twice, draws once; B first: B wins once, A once.
        let t = Tally::of_games([
            (A, Some(A)),
            (A, Some(A)),
            (A, None),
            (B, Some(B)),
            (B, Some(A)),
        ]);
        assert_eq!(t.games(), 5);
        assert_eq!(t.score(A), Score::new(3, 1, 1));
        assert_eq!(t.score(B), Score::new(1, 3, 1));
        assert_eq!(t.score_moving(A, true), Score::new(2, 0, 1));
        assert_eq!(t.score_moving(A, false), Score::new(1, 1, 0));
        assert_eq!(t.score_moving(B, true), Score::new(1, 1, 0));
        assert_eq!(t.score_moving(B, false), Score::new(0, 2, 1));
        let table = t.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[1],
            "A moves first           3       2       0       1"
        );
        assert_eq!(
            lines[3],
            "total                   5       3       1       1"
        );
    }

    #[test]
    fn summary_of_an_even_match() {
        let t = Tally::of_games([
            (PlayerId::A, Some(PlayerId::A)),
            (PlayerId::B, Some(PlayerId::B)),
        ]);
        let summary = t.summary();
        // 1 of 2: 50%, Elo 0; the Wilson interval of 1/2 at z = 1.96 is [9.5%, 90.5%].
        assert!(
            summary.starts_with("Score of A: 50.0% [9.5%, 90.5%]"),
            "{summary}"
        );
        assert!(summary.contains("\nElo A - B: 0 ["), "{summary}");
    }

    #[cfg(feature = "terminal")]
    #[test]
    fn a_quiet_progress_bar_is_hidden() {
        assert!(progress_bar(3, true).is_hidden());
        assert!(progress_bar_of(3, "rounds", true).is_hidden());
    }
}
