//! The match options every game's `selfplay` takes ([`MatchArgs`], a clap [`Args`] struct)
//! and the typed values behind them: a positive number of seconds ([`Seconds`]) and a player
//! specification ([`PlayerSpec`]). With the feature `cli`.
//!
//! A game's program flattens [`MatchArgs`] into its own options and adds its rules (a swap
//! rule, a value network); [`crate::program::selfplay`] plays the match. Bad values are
//! refused by clap's parser with the value named and exit status 2, never a panic:
//!
//! ```
//! use clap::Parser;
//! use game_harness::cli::{MatchArgs, PlayerSpec, Seconds};
//!
//! #[derive(Parser)]
//! struct Opts {
//!     #[command(flatten)]
//!     matches: MatchArgs,
//! }
//!
//! let opts = Opts::try_parse_from(["x", "--time-per-move", "0.5", "--player-a", "best:c=0.3"])?;
//! assert_eq!(opts.matches.time_per_move, Some("0.5".parse::<Seconds>()?));
//! let a = opts.matches.player_a.as_ref().unwrap();
//! assert_eq!(a, &PlayerSpec::Named { name: "best".into(), params: vec![("c".into(), "0.3".into())] });
//! for bad in ["--time-per-move=-1", "--time-per-move=nan", "--games=x", "--sprt=30,0"] {
//!     let err = Opts::try_parse_from(["x", bad]).err().unwrap();
//!     assert_eq!(err.exit_code(), 2);
//!     assert!(err.to_string().contains(bad.split('=').nth(1).unwrap()), "{err}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::num::{NonZeroU64, NonZeroUsize};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::Args;

use crate::shard::Shard;
use crate::sprt::Sprt;
use crate::time::Clock;

/// A positive, finite number of seconds, as `--time-per-move 0.5` gives it.
///
/// ```
/// use game_harness::cli::Seconds;
/// use std::time::Duration;
///
/// assert_eq!("0.25".parse::<Seconds>()?.duration(), Duration::from_millis(250));
/// for bad in ["-1", "0", "nan", "inf", "1e300", "x", ""] {
///     let err = bad.parse::<Seconds>().unwrap_err();
///     assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
/// }
/// # Ok::<(), game_harness::cli::ParseSecondsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seconds(Duration);

impl Seconds {
    /// `duration` if it is not zero.
    #[must_use]
    pub fn new(duration: Duration) -> Option<Seconds> {
        (!duration.is_zero()).then_some(Seconds(duration))
    }

    /// The duration.
    #[must_use]
    pub const fn duration(self) -> Duration {
        self.0
    }
}

impl From<Seconds> for Duration {
    fn from(seconds: Seconds) -> Duration {
        seconds.0
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.as_secs_f64())
    }
}

/// A number of seconds that may be zero (a margin, a reserve), for clap's `value_parser`.
///
/// ```
/// use game_harness::cli::seconds_or_zero;
/// use std::time::Duration;
///
/// assert_eq!(seconds_or_zero("0"), Ok(Duration::ZERO));
/// assert_eq!(seconds_or_zero("0.3"), Ok(Duration::from_millis(300)));
/// assert!(seconds_or_zero("-1").unwrap_err().to_string().contains("\"-1\""));
/// ```
///
/// # Errors
/// [`ParseSecondsError`] naming text that is not a finite number of seconds at least 0.
pub fn seconds_or_zero(text: &str) -> Result<Duration, ParseSecondsError> {
    if text.trim().parse::<f64>() == Ok(0.0) {
        return Ok(Duration::ZERO);
    }
    text.parse::<Seconds>().map(Seconds::duration)
}

/// Why text is not a [`Seconds`]: not a number, or not a positive, finite one that a
/// [`Duration`] holds. The message names the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a positive number of seconds")]
pub struct ParseSecondsError {
    /// The text received.
    pub text: String,
}

impl FromStr for Seconds {
    type Err = ParseSecondsError;

    fn from_str(text: &str) -> Result<Seconds, ParseSecondsError> {
        text.trim()
            .parse::<f64>()
            .ok()
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .filter(|d| !d.is_zero())
            .map(Seconds)
            .ok_or_else(|| ParseSecondsError {
                text: text.to_string(),
            })
    }
}

/// A player as the command line names it: an external program speaking GTP
/// (`gtp:COMMAND`), or one of the game's own players by name with optional parameters
/// (`NAME[:key=value,...]`, as `best:c=0.3,expand=4`), which the game resolves.
///
/// ```
/// use game_harness::cli::PlayerSpec;
///
/// let spec: PlayerSpec = "rave:c=0.3,threads=2".parse()?;
/// assert_eq!(spec.name(), Some("rave"));
/// assert_eq!(spec.param("threads"), Some("2"));
/// assert_eq!(spec.to_string(), "rave:c=0.3,threads=2");
/// let program: PlayerSpec = "gtp:morat-havannah -t 1".parse()?;
/// assert_eq!(program, PlayerSpec::Program("morat-havannah -t 1".into()));
/// assert!("best:c".parse::<PlayerSpec>().unwrap_err().to_string().contains("\"c\""));
/// # Ok::<(), game_harness::cli::ParsePlayerSpecError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// `gtp:COMMAND`: the program's command line, split on whitespace.
    Program(String),
    /// `NAME[:key=value,...]`: a player of the game's own.
    Named {
        /// The player's name (a configuration, a preset).
        name: String,
        /// The parameters in the order given.
        params: Vec<(String, String)>,
    },
}

impl PlayerSpec {
    /// The name of a player of the game's own; `None` for an external program.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        match self {
            PlayerSpec::Program(_) => None,
            PlayerSpec::Named { name, .. } => Some(name),
        }
    }

    /// The value of parameter `key` (the last one given), if any.
    #[must_use]
    pub fn param(&self, key: &str) -> Option<&str> {
        match self {
            PlayerSpec::Program(_) => None,
            PlayerSpec::Named { params, .. } => params
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str()),
        }
    }

    /// Refuses a parameter whose key is in none of the lists `known`: a misspelt setting
    /// must be refused, not ignored.
    ///
    /// # Errors
    /// A message naming the player, the first unknown key and the known ones.
    ///
    /// ```
    /// use game_harness::cli::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "rave:bridge=1,brige=0".parse()?;
    /// let e = spec.check_keys(&[&["bridge", "threats"], &["stop"]]).unwrap_err();
    /// assert_eq!(e, "player rave:bridge=1,brige=0: unknown key brige (bridge, threats, stop)");
    /// assert!(spec.check_keys(&[&["bridge", "brige"]]).is_ok());
    /// # Ok::<(), game_harness::cli::ParsePlayerSpecError>(())
    /// ```
    pub fn check_keys(&self, known: &[&[&str]]) -> Result<(), String> {
        let PlayerSpec::Named { params, .. } = self else {
            return Ok(());
        };
        let known = known.concat();
        match params.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            Some((key, _)) => Err(format!(
                "player {self}: unknown key {key} ({})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Program(command) => write!(f, "gtp:{command}"),
            PlayerSpec::Named { name, params } => {
                f.write_str(name)?;
                for (i, (key, value)) in params.iter().enumerate() {
                    write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
                }
                Ok(())
            }
        }
    }
}

/// Why text is not a [`PlayerSpec`]; the message names the text and the bad part.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("player {text:?}: {part:?} is not {expected}")]
pub struct ParsePlayerSpecError {
    /// The text received.
    pub text: String,
    /// The part that is wrong.
    pub part: String,
    /// What it should be.
    pub expected: &'static str,
}

impl FromStr for PlayerSpec {
    type Err = ParsePlayerSpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, ParsePlayerSpecError> {
        let bad = |part: &str, expected| ParsePlayerSpecError {
            text: text.to_string(),
            part: part.to_string(),
            expected,
        };
        if let Some(command) = text.strip_prefix("gtp:") {
            if command.trim().is_empty() {
                return Err(bad(command, "a command line"));
            }
            return Ok(PlayerSpec::Program(command.to_string()));
        }
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',') {
            return Err(bad(name, "a player's name"));
        }
        let mut params = Vec::new();
        for param in rest.into_iter().flat_map(|r| r.split(',')) {
            match param.split_once('=') {
                Some((key, value)) if !key.trim().is_empty() => {
                    params.push((key.trim().to_string(), value.trim().to_string()));
                }
                _ => return Err(bad(param, "key=value")),
            }
        }
        Ok(PlayerSpec::Named {
            name: name.to_string(),
            params,
        })
    }
}

/// The options of a match that every game's `selfplay` takes; flatten it into the program's
/// options (`#[command(flatten)]`) beside the game's own rules.
#[derive(Args, Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct MatchArgs {
    /// Board size (the game's default without it).
    #[arg(long)]
    pub size: Option<usize>,
    /// Number of games (colours alternate); 20 by default, or with --openings twice the
    /// number of openings (each played once with each player moving first).
    #[arg(long)]
    pub games: Option<NonZeroUsize>,
    /// The random seed (players and openings).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Time per move in seconds (given to the players as their clock).
    #[arg(long, value_name = "SECONDS")]
    pub time_per_move: Option<Seconds>,
    /// Simulations per move for search players (with --time-per-move, the first limit reached
    /// stops a search).
    #[arg(long)]
    pub simulations: Option<NonZeroU64>,
    /// Search threads of both search players (each configuration's own without it).
    #[arg(long)]
    pub threads: Option<NonZeroUsize>,
    /// Player A: NAME[:key=value,...] (one of the game's players, see the program's help) or
    /// gtp:COMMAND (an external GTP program, see --gtp-setup).
    #[arg(long, value_name = "SPEC")]
    pub player_a: Option<PlayerSpec>,
    /// Player B (as player A).
    #[arg(long, value_name = "SPEC")]
    pub player_b: Option<PlayerSpec>,
    /// Random stones played before the players take over (the same for both games of a
    /// pair).
    #[arg(long, default_value_t = 0)]
    pub opening: usize,
    /// A suite of openings (one a line, moves separated by spaces, `#` comments): game pair
    /// k starts from opening k mod N.
    #[arg(long, value_name = "FILE", conflicts_with = "opening")]
    pub openings: Option<PathBuf>,
    /// Play only part K of N (`0/4` to `3/4`): the game pairs p with p mod N = K. The parts
    /// together play the same games as one run; join their --out folders with --merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// The output folder: the match file (`match.tsv`) and the game's records.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Join the parts of a match instead of playing: the --out folders of its --shard runs.
    /// Runs with different --seed values are pooled into one table (and no match file).
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with = "shard")]
    pub merge: Vec<PathBuf>,
    /// Stop at a decision of the sequential probability ratio test on game pairs: ELO0,ELO1
    /// (logistic Elo of A over B, as 0,30 for "is A at least 30 better?").
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<Sprt>,
    /// GTP commands sent to external players after each new game (repeatable), e.g.
    /// `--gtp-setup "time -m 0.5 -g 0 -f 0"`.
    #[arg(long, value_name = "COMMAND")]
    pub gtp_setup: Vec<String>,
    /// Seconds an external program may take to answer one command before it forfeits the game
    /// as hung (it is then restarted); 60 without it.
    #[arg(long, value_name = "SECONDS")]
    pub gtp_timeout: Option<Seconds>,
    /// Wait for external programs' answers for ever.
    #[arg(long, conflicts_with = "gtp_timeout")]
    pub gtp_no_timeout: bool,
    /// A file that collects the standard error of external programs (appended); discarded
    /// without it.
    #[arg(long, value_name = "FILE")]
    pub gtp_stderr: Option<PathBuf>,
    /// Call each colour by the other's name to external programs: for one whose first player
    /// has the other colour (morat-hex: White moves first).
    #[arg(long)]
    pub gtp_swap_colours: bool,
    /// Print every game's moves.
    #[arg(long)]
    pub verbose: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl MatchArgs {
    /// The clock of every move: --time-per-move, else `default` when no --simulations are
    /// given either, else unlimited.
    #[must_use]
    pub fn clock(&self, default: Option<Duration>) -> Clock {
        let time = self.time_per_move.map(Seconds::duration);
        match time.or(default.filter(|_| self.simulations.is_none())) {
            Some(t) => Clock::per_move(t),
            None => Clock::unlimited(),
        }
    }

    /// How long an external program may take for one answer: `None` with
    /// `--gtp-no-timeout`, else --gtp-timeout or 60 s.
    #[must_use]
    pub fn gtp_timeout(&self) -> Option<Duration> {
        if self.gtp_no_timeout {
            None
        } else {
            Some(
                self.gtp_timeout
                    .map_or(Duration::from_secs(60), Seconds::duration),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_refuse_what_is_not_a_positive_duration() {
        assert_eq!(
            "1.5".parse::<Seconds>().map(Seconds::duration),
            Ok(Duration::from_millis(1500))
        );
        for bad in [
            "-1", "-0", "0", "nan", "NaN", "inf", "-inf", "1e30", "1s", "",
        ] {
            assert_eq!(
                bad.parse::<Seconds>(),
                Err(ParseSecondsError {
                    text: bad.to_string()
                }),
                "{bad}"
            );
        }
    }

    #[test]
    fn player_specs_round_trip_and_name_their_faults() {
        for text in ["uct", "best:c=0.3,expand=4", "gtp:morat -x 1", "a:k=v=w"] {
            assert_eq!(text.parse::<PlayerSpec>().unwrap().to_string(), text);
        }
        let spec: PlayerSpec = "rave:threads=2,threads=3".parse().unwrap();
        assert_eq!(spec.param("threads"), Some("3"));
        assert_eq!(spec.param("c"), None);
        for (bad, part) in [
            ("", ""),
            ("gtp:", ""),
            ("best:", ""),
            ("best:c=1,", ""),
            ("best:=1", "=1"),
            ("a b", "a b"),
        ] {
            let err = bad.parse::<PlayerSpec>().unwrap_err();
            assert_eq!(err.part, part, "{bad:?}: {err}");
            assert_eq!(err.text, bad);
        }
    }

    #[test]
    fn the_clock_and_the_gtp_timeout() {
        let mut args = MatchArgs::default();
        let default = Some(Duration::from_millis(50));
        assert_eq!(
            args.clock(default),
            Clock::per_move(Duration::from_millis(50))
        );
        args.simulations = NonZeroU64::new(100);
        assert_eq!(args.clock(default), Clock::unlimited());
        args.time_per_move = Some("2".parse().unwrap());
        assert_eq!(args.clock(default), Clock::per_move(Duration::from_secs(2)));
        assert_eq!(args.gtp_timeout(), Some(Duration::from_secs(60)));
        args.gtp_no_timeout = true;
        assert_eq!(args.gtp_timeout(), None);
    }
}
