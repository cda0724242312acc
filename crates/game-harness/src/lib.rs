//! # game-harness
//!
//! What every game-playing program needs around its search, for any game:
//!
//! - [`agent`]: the game as a referee sees it ([`MatchGame`]: turn, checked moves, verdict,
//!   moves as text) and a program that plays it ([`Agent`]);
//! - [`pentanomial`]: a match counted by game pairs (the two games of an opening), with the
//!   score's interval from the pairs' variance ([`Pentanomial`]);
//! - [`sprt`]: the sequential probability ratio test on those pairs, which stops a match
//!   once its answer is clear ([`Sprt`]);
//! - `cli` (feature `cli`): the match options every game's `selfplay` takes (`MatchArgs`) with
//!   typed seconds and player specifications;
//! - `program` (feature `cli`): the match program every game shares (`program::selfplay`):
//!   players, openings, parts, the table and the match file, the game supplying its rules and
//!   players through `MatchProgram`;
//! - [`stats`]: a score with draws counted half, its Wilson interval and the Elo difference it
//!   implies, and formatting for result tables;
//! - [`time`]: time control: the time a player may spend on a move ([`Clock`]), main time and
//!   Canadian byo-yomi ([`TimeSettings`]), both players' clocks ([`TimeControl`]);
//! - [`gtp`]: a GTP v2 server loop over an engine trait ([`GtpEngine`]): ids, errors,
//!   comments, `list_commands`, `known_command`, `quit`, end of input; and the engine for any
//!   game ([`GtpSession`] over a [`GtpGame`]) with the standard commands (`boardsize`, `play`,
//!   `genmove`, `undo`, `showboard`, `final_score`, the clock), a game adding its own through
//!   a [`GtpExtension`];
//! - [`process`]: an external program over pipes ([`Process`]), started from a command line
//!   split on whitespace or by `sh -c` ([`Launch`]): lines in and out, reads with a deadline,
//!   a polite quit, a kill on timeout and on drop;
//! - [`gtp_client`]: a GTP v2 client over a [`Process`] ([`GtpClient`]): a command and its
//!   whole answer, `=` or `?`, with a timeout and a restart of an engine that died;
//! - [`gtp_agent`]: an external GTP program as an [`Agent`] of any [`GtpGame`]
//!   ([`GtpAgent`]);
//! - [`mod@matches`]: matches between two players: paired openings, the score by who moved
//!   first, the results table with Wilson interval and Elo ([`Tally`]), a match in shards, a
//!   progress bar;
//! - [`openings`]: a suite of openings read from a text file (one opening a line, in the
//!   game's notation), each played once with each player on each side ([`Openings`]);
//! - [`runner`]: the match runner: two [`Agent`]s play a series of games of a [`MatchGame`]
//!   ([`run_match`]) with paired openings, alternating sides, reseeding per game, checked and
//!   timed moves and forfeits;
//! - [`record`]: what a match leaves: the record of each game ([`GameRecord`], [`Forfeit`])
//!   and the whole match with its scores and results table ([`MatchResult`]);
//! - `search_agent` (feature `search`): one tree-search player for every game, with tree
//!   reuse, the budget from the clock and typed failures; the game supplies its position,
//!   tree, budget and report; `search_params` (feature `search`): the search settings a
//!   player may change by name (`rave:ravebase=500,stop=0`) over the game's defaults;
//! - [`shard`]: a part of a match ([`Shard`]), the game pairs it plays;
//! - [`match_file`]: a match or its part written as text (`match.tsv`), read back, replayed and merged;
//! - [`fingerprint`]: a running FNV-1a hash of a bench's results ([`Fingerprint`]), so two
//!   runs compare in one line;
//! - `output`: `outln!`, `println!` that survives a closed pipe (`selfplay | head`).
//!
//! It knows nothing of Havannah or of any other game; the Havannah engine, Hex and Blackhole
//! of this workspace use it.
//!
//! Features: `terminal` (on by default) holds what only a program on a terminal needs: the
//! progress bar of a match (`matches::progress_bar`, with the `indicatif` crate) and the
//! `output` module with `outln!`; a library that turns default features off gets neither.
//! `serde` derives `Serialize` and `Deserialize` for the statistics, the time settings,
//! [`PlayerId`], [`Tally`], [`Shard`], [`MatchSettings`] and [`Forfeit`].
//!
//! ```
//! use game_harness::stats::Score;
//!
//! let score = Score::new(30, 10, 0);
//! assert_eq!(score.elo().value.round(), 191.0);
//! ```
#![deny(missing_docs)]

pub mod agent;
#[cfg(feature = "cli")]
pub mod cli;
pub mod fingerprint;
pub mod gtp;
pub mod gtp_agent;
pub mod gtp_client;
pub mod match_file;
pub mod matches;
pub mod openings;
#[cfg(feature = "terminal")]
pub mod output;
pub mod pentanomial;
pub mod process;
#[cfg(feature = "cli")]
pub mod program;
pub mod record;
pub mod runner;
#[cfg(feature = "search")]
pub mod search_agent;
#[cfg(feature = "search")]
pub mod search_params;
pub mod shard;
pub mod sprt;
pub mod stats;
pub mod time;

pub use agent::{Agent, AgentFailure, MatchGame, Side, Verdict};
pub use fingerprint::Fingerprint;
pub use gtp::{CommandError, GtpColour, GtpEngine, GtpExtension, GtpGame, GtpSession, Response};
pub use gtp_agent::GtpAgent;
pub use gtp_client::{GtpClient, GtpError};
pub use match_file::{ShardError, ShardFile};
pub use matches::{MatchSettings, PlayerId, Tally};
pub use openings::{Openings, OpeningsError};
pub use pentanomial::Pentanomial;
pub use process::{ErrorOutput, Launch, Process, ProcessError};
pub use record::{Forfeit, GameRecord, MatchResult};
pub use runner::run_match;
pub use shard::{ParseShardError, Shard};
pub use sprt::{ParseSprtError, Sprt, SprtDecision, SprtError, SprtStatus};
pub use stats::{Elo, Score, WinRate};
pub use time::{Clock, PlayerClock, TimeControl, TimeSettings};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
