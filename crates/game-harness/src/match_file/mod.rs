//! Matches in parts: a [`MatchResult`](crate::MatchResult) written as text (`match.tsv`),
//! read back and merged, so that a long match can run as [`Shard`](crate::Shard)s on several machines and
//! give the same games as one run.
//!
//! The file is tab-separated text:
//!
//! ```text
//! game-harness-match  2
//! description         <the program's description of the game, e.g. havannah size=8 pie=1>
//! names               <A>  <B>
//! settings            <games>  <seed>  <shard K/N>  <per move>  <remaining>  <moves to go>
//! game                <number>  <first: A|B>  <winner: A|B|->  <verdict: first|second|draw>
//!                     <time A>  <time B>  <moves A>  <moves B>  <longest A>  <longest B>
//!                     <simulations A>  <simulations B>  <search time A>  <search time B>
//!                     <forfeit: -|PLAYER|MOVE|REASON>  <moves, space-separated>
//! ```
//!
//! Times are in nanoseconds, `-` for a clock field that is not set. A player's simulations
//! and search time are those of its moves that reported their simulations
//! ([`GameRecord::simulations`](crate::GameRecord::simulations),
//! [`GameRecord::search_time`](crate::GameRecord::search_time)); both are 0 when none did.
//! Files of version 1 (`game-harness-match  1`, game lines without these four fields) are
//! read too, their simulations and search times as 0. The description
//! ([`Description`]: `GAME key=value ...`) is the program's: it names the game and every
//! setting that makes two matches different (a board size, the rules, the opening), and
//! [`read`] and [`parse`] hand it to the program's closure,
//! which builds the starting empty game from it. The moves are replayed from there with
//! [`MatchGame::parse_move`](crate::MatchGame::parse_move) and [`MatchGame::try_play`](crate::MatchGame::try_play), so a merged result is checked move by
//! move and game by game. Moves are named on the final game ([`MatchGame::move_name`](crate::MatchGame::move_name)), so a
//! move's name must not depend on the position, and must not contain whitespace; tabs and line
//! breaks in names and reasons become spaces.
//!
//! ```
//! # use game_harness::{Agent, Clock, MatchGame, Verdict};
//! # /// Players add 1 or 2 to a count; whoever reaches 5 wins.
//! # #[derive(Clone, Default)]
//! # struct Race(Vec<u8>);
//! # impl MatchGame for Race {
//! #     type Move = u8;
//! #     type Error = std::fmt::Error;
//! #     fn moves(&self) -> &[u8] { &self.0 }
//! #     fn try_play(&mut self, mv: u8) -> Result<(), std::fmt::Error> {
//! #         if self.verdict().is_some() || !(1..=2).contains(&mv) { return Err(std::fmt::Error); }
//! #         self.0.push(mv);
//! #         Ok(())
//! #     }
//! #     fn verdict(&self) -> Option<Verdict> {
//! #         (self.0.iter().sum::<u8>() >= 5).then(|| Verdict::Win(self.side_to_move().other()))
//! #     }
//! #     fn move_name(&self, mv: u8) -> String { mv.to_string() }
//! #     fn parse_move(&self, text: &str) -> Result<u8, std::fmt::Error> {
//! #         text.parse().map_err(|_| std::fmt::Error)
//! #     }
//! # }
//! # struct Adder(u8);
//! # impl Agent<Race> for Adder {
//! #     fn name(&self) -> String { format!("adds {}", self.0) }
//! #     fn reset(&mut self, _game: &Race) {}
//! #     fn observe(&mut self, _game: &Race, _mv: u8) {}
//! #     fn choose(&mut self, _game: &Race, _clock: &Clock) -> Option<u8> { Some(self.0) }
//! # }
//! use game_harness::MatchSettings;
//! use game_harness::runner::run_match;
//! use game_harness::match_file::{Description, merge, parse, text};
//!
//! // `Race` is the count-to-5 game of the runner's example, `Adder` its player.
//! let settings = MatchSettings::new(6).seed(1);
//! let race = Description::new("race").with("goal", 5);
//! let new_game = |description: &Description| match description.number::<u8>("goal") {
//!     Ok(5) if description.game() == "race" => Ok(Race::default()),
//!     _ => Err("not a race to 5"),
//! };
//! let mut parts = Vec::new();
//! for k in 0..2 {
//!     let (mut a, mut b) = (Adder(1), Adder(2));
//!     let shard = settings.shard(format!("{k}/2").parse()?);
//!     let opening = |_| Ok::<_, std::convert::Infallible>(Race::default());
//!     let part = run_match([&mut a, &mut b], &shard, opening, |_| {})?;
//!     // Written on one machine, read back on another.
//!     parts.push(parse(&text(&part, &race), new_game)?);
//! }
//! let whole = merge(parts)?;
//! let numbers: Vec<usize> = whole.result.games.iter().map(|g| g.index).collect();
//! assert_eq!(numbers, [0, 1, 2, 3, 4, 5]);
//! assert!(parse(&text(&whole.result, &Description::new("chess")), new_game).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod description;
mod file;
mod merge;

use std::io;
use std::path::PathBuf;

pub use description::{Description, DescriptionError};
pub use file::{SHARD_FILE, ShardFile, parse, read, text, write};
pub use merge::{Pool, merge, merge_dirs, pool, pool_dirs, pooled_line};

/// Why a shard file cannot be read or shards cannot be merged. Every message names the line
/// and the field, or what differs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// The file cannot be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A fault in the text of a file.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The fault.
        source: Box<ShardError>,
    },
    /// The text ends before a line every file has.
    #[error("the file ends before the {0} line")]
    Truncated(&'static str),
    /// A line that is not what its place requires.
    #[error("line {line}: {text:?} is not {expected}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// The line.
        text: String,
        /// What it should be.
        expected: &'static str,
    },
    /// A field of a line with a bad value.
    #[error("line {line}: {field} {value:?} is not {expected}")]
    Field {
        /// The line's number, from 1.
        line: usize,
        /// The field.
        field: &'static str,
        /// Its value.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// The program cannot set up a game from the description.
    #[error("line {line}: the game {description:?} cannot be set up: {message}")]
    Game {
        /// The line's number, from 1.
        line: usize,
        /// The description.
        description: String,
        /// The program's error.
        message: String,
    },
    /// A move that does not parse or is not legal where it is played.
    #[error("line {line}: move {name:?}: {message}")]
    Move {
        /// The line's number, from 1.
        line: usize,
        /// The move's name.
        name: String,
        /// The game's error.
        message: String,
    },
    /// The moves do not end the way the line says.
    #[error("line {line}: the line says {recorded} but the moves end in {replayed}")]
    Verdict {
        /// The line's number, from 1.
        line: usize,
        /// What the line says: a verdict, or a forfeit.
        recorded: String,
        /// How the replayed moves end.
        replayed: String,
    },
    /// [`merge`] got no parts.
    #[error("no shards to merge")]
    NoShards,
    /// Parts of different matches.
    #[error("shards of different matches: {what} {first} and {other}")]
    Mismatch {
        /// What differs: `descriptions`, `players` or `settings`.
        what: &'static str,
        /// The first part's.
        first: String,
        /// The other part's.
        other: String,
    },
    /// A game that two parts both played (numbered from 1).
    #[error("game {0} is in two shards")]
    Duplicate(usize),
}
