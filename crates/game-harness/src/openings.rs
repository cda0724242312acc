//! A suite of openings read from a text file, for matches of any [`MatchGame`].
//!
//! The file holds one opening per line: the moves in the game's own notation
//! ([`MatchGame::parse_move`]) separated by spaces, played from the start position. `#`
//! starts a comment (to the end of the line); blank lines and lines that hold only a comment
//! are skipped. A match over a suite of `N` openings plays pair `k` (games `2k` and `2k + 1`,
//! which the runner gives to A and B with the sides swapped) on opening `k mod N`
//! ([`Openings::game`]), so every opening is played once with each player on each side.
//!
//! ```
//! use game_harness::openings::{Openings, OpeningsError};
//! # use game_harness::{MatchGame, Verdict};
//! # #[derive(Clone, Debug, Default)]
//! # struct Race(Vec<u8>);
//! # impl MatchGame for Race {
//! #     type Move = u8;
//! #     type Error = std::fmt::Error;
//! #     fn moves(&self) -> &[u8] { &self.0 }
//! #     fn try_play(&mut self, mv: u8) -> Result<(), std::fmt::Error> {
//! #         if !(1..=2).contains(&mv) { return Err(std::fmt::Error); }
//! #         self.0.push(mv);
//! #         Ok(())
//! #     }
//! #     fn verdict(&self) -> Option<Verdict> { None }
//! #     fn move_name(&self, mv: u8) -> String { mv.to_string() }
//! #     fn parse_move(&self, text: &str) -> Result<u8, std::fmt::Error> {
//! #         text.parse().map_err(|_| std::fmt::Error)
//! #     }
//! # }
//!
//! // `Race`: players add 1 or 2 to a count; moves are the numbers.
//! let text = "# two openings\n1 2   # a comment\n\n2\n";
//! let suite = Openings::parse(text, &Race::default(), "race.txt")?;
//! assert_eq!(suite.len(), 2);
//! assert_eq!(suite.game(0).moves(), [1, 2]);
//! assert_eq!(suite.game(1).moves(), [1, 2]);
//! assert_eq!(suite.game(2).moves(), [2]);
//! assert_eq!(suite.game(4).moves(), [1, 2]);
//!
//! let err = Openings::parse("1\n1 3\n", &Race::default(), "race.txt").unwrap_err();
//! assert!(matches!(err, OpeningsError::Move { line: 2, .. }));
//! assert!(err.to_string().contains("race.txt line 2"));
//! assert!(err.to_string().contains("\"3\""));
//! # Ok::<(), OpeningsError>(())
//! ```

use std::path::Path;

use crate::agent::MatchGame;

/// Why a suite of openings could not be read. Every message names the file, and the line and
/// text where there is one.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpeningsError {
    /// The file could not be read.
    #[error("cannot read the openings file {file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// The reason.
        source: std::io::Error,
    },
    /// A move of an opening is not a move of the game, or cannot be played where it stands.
    #[error("{file} line {line}: move {text:?} of opening {opening:?}: {reason}")]
    Move {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The move as written.
        text: String,
        /// The whole opening as written (without its comment).
        opening: String,
        /// The game's error.
        reason: String,
    },
    /// An opening ends the game: it leaves nothing to play.
    #[error("{file} line {line}: opening {opening:?} ends the game")]
    Over {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// The opening as written.
        opening: String,
    },
    /// The file holds no opening.
    #[error("the openings file {file} holds no opening")]
    Empty {
        /// The file.
        file: String,
    },
}

/// One opening of a suite: the game after its moves, and where it was written.
#[derive(Debug, Clone)]
pub struct Opening<G> {
    /// The line of the file it was read from, from 1.
    pub line: usize,
    /// The comment after `#` on its line, trimmed (empty without one).
    pub comment: String,
    /// The game with the opening's moves played from the start position.
    pub game: G,
}

/// A suite of openings: at least one, in the order of the file.
#[derive(Debug, Clone)]
pub struct Openings<G> {
    openings: Vec<Opening<G>>,
}

impl<G: MatchGame> Openings<G> {
    /// Reads the suite in `path`, its moves played from `start`.
    ///
    /// # Errors
    /// [`OpeningsError::Read`] when the file cannot be read, and those of [`Openings::parse`].
    pub fn read(path: &Path, start: &G) -> Result<Openings<G>, OpeningsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
            file: file.clone(),
            source,
        })?;
        Openings::parse(&text, start, &file)
    }

    /// The suite written in `text` (named `file` in errors), its moves played from `start`.
    ///
    /// # Errors
    /// [`OpeningsError::Move`] naming the line and the move that is not a move of the game or
    /// cannot be played, [`OpeningsError::Over`] for an opening that ends the game, and
    /// [`OpeningsError::Empty`] when no line holds an opening.
    pub fn parse(text: &str, start: &G, file: &str) -> Result<Openings<G>, OpeningsError> {
        let mut openings = Vec::new();
        for (number, raw) in text.lines().enumerate() {
            let line = number + 1;
            let (body, comment) = raw.split_once('#').unwrap_or((raw, ""));
            let body = body.trim();
            if body.is_empty() {
                continue;
            }
            let mut game = start.clone();
            for word in body.split_whitespace() {
                let played = game.parse_move(word).and_then(|mv| game.try_play(mv));
                if let Err(e) = played {
                    return Err(OpeningsError::Move {
                        file: file.to_string(),
                        line,
                        text: word.to_string(),
                        opening: body.to_string(),
                        reason: e.to_string(),
                    });
                }
            }
            if game.verdict().is_some() {
                return Err(OpeningsError::Over {
                    file: file.to_string(),
                    line,
                    opening: body.to_string(),
                });
            }
            openings.push(Opening {
                line,
                comment: comment.trim().to_string(),
                game,
            });
        }
        if openings.is_empty() {
            return Err(OpeningsError::Empty {
                file: file.to_string(),
            });
        }
        Ok(Openings { openings })
    }
}

impl<G: Clone> Openings<G> {
    /// The start of game `index` of a match: opening `(index / 2) mod len`, so both games of
    /// a pair start alike and the suite is played round in order.
    #[must_use]
    pub fn game(&self, index: usize) -> G {
        self.openings[(index / 2) % self.openings.len()]
            .game
            .clone()
    }
}

impl<G> Openings<G> {
    /// The number of openings (at least 1).
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Always `false`: a suite holds at least one opening.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The openings in the order of the file.
    #[must_use]
    pub fn openings(&self) -> &[Opening<G>] {
        &self.openings
    }

    /// The number of games that plays every opening once with each player on each side:
    /// twice the number of openings.
    #[must_use]
    pub fn games(&self) -> usize {
        2 * self.openings.len()
    }
}

/// The moves of `game` from its start position as one line of a suite: their names
/// ([`MatchGame::move_name`]) separated by spaces, which [`Openings::parse`] reads back.
///
/// ```
/// use game_harness::openings::{Openings, line};
/// # use game_harness::{MatchGame, Verdict};
/// # #[derive(Clone, Debug, Default)]
/// # struct Race(Vec<u8>);
/// # impl MatchGame for Race {
/// #     type Move = u8;
/// #     type Error = std::fmt::Error;
/// #     fn moves(&self) -> &[u8] { &self.0 }
/// #     fn try_play(&mut self, mv: u8) -> Result<(), std::fmt::Error> { self.0.push(mv); Ok(()) }
/// #     fn verdict(&self) -> Option<Verdict> { None }
/// #     fn move_name(&self, mv: u8) -> String { format!("m{mv}") }
/// #     fn parse_move(&self, text: &str) -> Result<u8, std::fmt::Error> {
/// #         text.trim_start_matches('m').parse().map_err(|_| std::fmt::Error)
/// #     }
/// # }
///
/// let game = Race(vec![1, 2, 2]);
/// assert_eq!(line(&game), "m1 m2 m2");
/// let suite = Openings::parse(&line(&game), &Race::default(), "suite.txt")?;
/// assert_eq!(suite.game(0).moves(), [1, 2, 2]);
/// # Ok::<(), game_harness::openings::OpeningsError>(())
/// ```
pub fn line<G: MatchGame>(game: &G) -> String {
    move_names(game).join(" ")
}

/// The names of the moves of `game`, named on the final game (a suite line's words, a shard
/// file's moves).
pub(crate) fn move_names<G: MatchGame>(game: &G) -> Vec<String> {
    game.moves().iter().map(|&m| game.move_name(m)).collect()
}
