//! Matches in parts: a [`MatchResult`] written as text (`match.tsv`), read back and merged,
//! so that a long match can run as [`Shard`]s on several machines and give the same games as
//! one run.
//!
//! The file is tab-separated text:
//!
//! ```text
//! game-harness-match  1
//! description         <the program's description of the game, e.g. havannah size=8 pie=1>
//! names               <A>  <B>
//! settings            <games>  <seed>  <shard K/N>  <per move>  <remaining>  <moves to go>
//! game                <number>  <first: A|B>  <winner: A|B|->  <verdict: first|second|draw>
//!                     <time A>  <time B>  <moves A>  <moves B>  <longest A>  <longest B>
//!                     <forfeit: -|PLAYER|MOVE|REASON>  <moves, space-separated>
//! ```
//!
//! Times are in nanoseconds, `-` for a clock field that is not set. The description is the
//! program's: it names the game and every setting that makes two matches different (a board
//! size, the rules, the opening), and [`read`] and [`parse`] hand it to the program's closure,
//! which builds the starting empty game from it. The moves are replayed from there with
//! [`MatchGame::parse_move`] and [`MatchGame::play`], so a merged result is checked move by
//! move and game by game. Moves are named on the final game ([`MatchGame::move_name`]), so a
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
//! #     fn play(&mut self, mv: u8) -> Result<(), std::fmt::Error> {
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
//! use game_harness::runner::{MatchSettings, run_match};
//! use game_harness::shard::{merge, parse, text};
//!
//! // `Race` is the count-to-5 game of the runner's example, `Adder` its player.
//! let settings = MatchSettings::new(6).seed(1);
//! let new_game = |description: &str| match description {
//!     "race goal=5" => Ok(Race::default()),
//!     _ => Err("not a race to 5"),
//! };
//! let mut parts = Vec::new();
//! for k in 0..2 {
//!     let (mut a, mut b) = (Adder(1), Adder(2));
//!     let shard = settings.shard(format!("{k}/2").parse()?);
//!     let opening = |_| Ok::<_, std::convert::Infallible>(Race::default());
//!     let part = run_match([&mut a, &mut b], &shard, opening, |_| {})?;
//!     // Written on one machine, read back on another.
//!     parts.push(parse(&text(&part, "race goal=5"), new_game)?);
//! }
//! let whole = merge(parts)?;
//! let numbers: Vec<usize> = whole.result.games.iter().map(|g| g.index).collect();
//! assert_eq!(numbers, [0, 1, 2, 3, 4, 5]);
//! assert!(parse(&text(&whole.result, "chess"), new_game).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::agent::{MatchGame, Side, Verdict};
use crate::matches::{PlayerId, Shard};
use crate::record::{Forfeit, GameRecord, MatchResult};
use crate::runner::MatchSettings;
use crate::time::Clock;

/// The first line of a shard file.
const VERSION: &str = "game-harness-match\t1";

/// The name of the shard file in an output folder.
pub const SHARD_FILE: &str = "match.tsv";

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

/// The contents of a shard file: the program's description of the game and the games played.
#[derive(Debug, Clone)]
pub struct ShardFile<G> {
    /// The program's description of the game (see the module's documentation).
    pub description: String,
    /// The players, the settings and the games of the part.
    pub result: MatchResult<G>,
}

/// Writes `result` with `description` to `dir/match.tsv` ([`SHARD_FILE`]), creating `dir`.
///
/// # Errors
/// The folder or the file cannot be written.
pub fn write<G: MatchGame>(
    result: &MatchResult<G>,
    description: &str,
    dir: &Path,
) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::write(dir.join(SHARD_FILE), text(result, description))
}

/// The text of a shard file for `result` and `description`.
#[must_use]
pub fn text<G: MatchGame>(result: &MatchResult<G>, description: &str) -> String {
    let s = &result.settings;
    let nanos = |d: Option<Duration>| d.map_or("-".into(), |t| t.as_nanos().to_string());
    let mut text = format!(
        "{VERSION}\ndescription\t{}\nnames\t{}\t{}\nsettings\t{}\t{}\t{}\t{}\t{}\t{}\n",
        clean(description),
        clean(&result.names[0]),
        clean(&result.names[1]),
        s.games,
        s.seed,
        s.shard,
        nanos(s.clock.per_move),
        nanos(s.clock.remaining),
        s.clock.moves_to_go.map_or("-".into(), |n| n.to_string()),
    );
    for g in &result.games {
        let _ = writeln!(text, "{}", game_line(g));
    }
    text
}

/// Tabs and line breaks would break the format: they become spaces.
fn clean(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

fn player_text(p: Option<PlayerId>) -> &'static str {
    match p {
        Some(PlayerId::A) => "A",
        Some(PlayerId::B) => "B",
        None => "-",
    }
}

/// `first`, `second` or `draw`.
fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::Win(Side::First) => "first",
        Verdict::Win(Side::Second) => "second",
        Verdict::Draw => "draw",
    }
}

fn game_line<G: MatchGame>(g: &GameRecord<G>) -> String {
    let forfeit = g.forfeit.as_ref().map_or("-".to_string(), |f| {
        format!(
            "{}|{}|{}",
            player_text(Some(f.player)),
            f.chosen
                .as_deref()
                .map_or("-".into(), |m| clean(m).replace('|', "/")),
            clean(&f.reason).replace('|', "/")
        )
    });
    let moves: Vec<String> = crate::openings::move_names(&g.game)
        .iter()
        .map(|m| clean(m))
        .collect();
    format!(
        "game\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{forfeit}\t{}",
        g.index,
        player_text(Some(g.first_player)),
        player_text(g.winner),
        verdict_text(g.verdict),
        g.time[0].as_nanos(),
        g.time[1].as_nanos(),
        g.moves_chosen[0],
        g.moves_chosen[1],
        g.longest_move[0].as_nanos(),
        g.longest_move[1].as_nanos(),
        moves.join(" ")
    )
}

/// Reads a shard file written by [`write()`]; `new_game` builds the starting empty game from
/// the description (see [`parse`]).
///
/// # Errors
/// [`ShardError::Io`] when the file cannot be read, else [`ShardError::File`] naming the file
/// around the fault [`parse`] finds.
pub fn read<G: MatchGame, E: fmt::Display>(
    path: &Path,
    new_game: impl FnOnce(&str) -> Result<G, E>,
) -> Result<ShardFile<G>, ShardError> {
    let text = fs::read_to_string(path).map_err(|source| ShardError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text, new_game).map_err(|e| ShardError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    })
}

/// Parses the text of a shard file. `new_game` builds the starting empty game from the
/// description (its error, shown with [`fmt::Display`], refuses the description); every game
/// line replays its moves from a copy of that game.
///
/// # Errors
/// A line that is missing or malformed, a bad field, a description the program refuses, a
/// move that is not legal, or moves that do not end as the line says: each names the line.
pub fn parse<G: MatchGame, E: fmt::Display>(
    text: &str,
    new_game: impl FnOnce(&str) -> Result<G, E>,
) -> Result<ShardFile<G>, ShardError> {
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    let mut next = |what: &'static str| lines.next().ok_or(ShardError::Truncated(what));
    let (_, version) = next("version")?;
    if version != VERSION {
        return Err(line_error(
            1,
            version,
            "the version line `game-harness-match<TAB>1`",
        ));
    }
    let (n, line) = next("description")?;
    let Some(description) = line.strip_prefix("description\t") else {
        return Err(line_error(n, line, "`description<TAB>TEXT`"));
    };
    let empty = new_game(description).map_err(|e| ShardError::Game {
        line: n,
        description: description.to_string(),
        message: e.to_string(),
    })?;
    let (n, line) = next("names")?;
    let names = match line.split('\t').collect::<Vec<_>>()[..] {
        ["names", a, b] => [a.to_string(), b.to_string()],
        _ => return Err(line_error(n, line, "`names<TAB>A<TAB>B`")),
    };
    let (n, line) = next("settings")?;
    let settings = parse_settings(n, line)?;
    let mut games = Vec::new();
    for (n, line) in lines {
        games.push(parse_game(n, line, &settings, &empty)?);
    }
    Ok(ShardFile {
        description: description.to_string(),
        result: MatchResult {
            names,
            settings,
            games,
        },
    })
}

fn line_error(line: usize, text: &str, expected: &'static str) -> ShardError {
    ShardError::Line {
        line,
        text: text.to_string(),
        expected,
    }
}

fn field_error(
    line: usize,
    field: &'static str,
    value: &str,
    expected: &'static str,
) -> ShardError {
    ShardError::Field {
        line,
        field,
        value: value.to_string(),
        expected,
    }
}

/// A field that is a number.
fn number<T: std::str::FromStr>(
    line: usize,
    field: &'static str,
    value: &str,
) -> Result<T, ShardError> {
    value
        .parse()
        .map_err(|_| field_error(line, field, value, "a number"))
}

/// A duration in nanoseconds.
fn nanos(line: usize, field: &'static str, value: &str) -> Result<Duration, ShardError> {
    Ok(Duration::from_nanos(number(line, field, value)?))
}

/// A field that is a number or `-` for none.
fn optional<T: std::str::FromStr>(
    line: usize,
    field: &'static str,
    value: &str,
) -> Result<Option<T>, ShardError> {
    if value == "-" {
        Ok(None)
    } else {
        number(line, field, value).map(Some)
    }
}

fn parse_settings(n: usize, line: &str) -> Result<MatchSettings, ShardError> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [
        "settings",
        games,
        seed,
        shard,
        per_move,
        remaining,
        moves_to_go,
    ] = fields[..]
    else {
        return Err(line_error(n, line, "a settings line of 7 fields"));
    };
    let shard: Shard = shard
        .parse()
        .map_err(|_| field_error(n, "shard", shard, "K/N with 0 <= K < N"))?;
    let clock = Clock {
        per_move: optional(n, "time per move", per_move)?.map(Duration::from_nanos),
        remaining: optional(n, "time remaining", remaining)?.map(Duration::from_nanos),
        moves_to_go: optional(n, "moves to go", moves_to_go)?,
    };
    Ok(MatchSettings::new(number(n, "games", games)?)
        .seed(number(n, "seed", seed)?)
        .shard(shard)
        .clock(clock))
}

/// `A` or `B`.
fn parse_player(n: usize, field: &'static str, value: &str) -> Result<PlayerId, ShardError> {
    match value {
        "A" => Ok(PlayerId::A),
        "B" => Ok(PlayerId::B),
        _ => Err(field_error(n, field, value, "A or B")),
    }
}

/// `A`, `B` or `-` for nobody.
fn parse_winner(n: usize, value: &str) -> Result<Option<PlayerId>, ShardError> {
    match value {
        "-" => Ok(None),
        _ => parse_player(n, "winner", value)
            .map(Some)
            .map_err(|_| field_error(n, "winner", value, "A, B or -")),
    }
}

fn parse_verdict(n: usize, value: &str) -> Result<Verdict, ShardError> {
    match value {
        "first" => Ok(Verdict::Win(Side::First)),
        "second" => Ok(Verdict::Win(Side::Second)),
        "draw" => Ok(Verdict::Draw),
        _ => Err(field_error(n, "verdict", value, "first, second or draw")),
    }
}

fn parse_forfeit(n: usize, value: &str) -> Result<Option<Forfeit>, ShardError> {
    if value == "-" {
        return Ok(None);
    }
    let bad = || field_error(n, "forfeit", value, "- or PLAYER|MOVE|REASON");
    let mut parts = value.splitn(3, '|');
    let (Some(player), Some(chosen), Some(reason)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    Ok(Some(Forfeit {
        player: parse_player(n, "forfeit", player).map_err(|_| bad())?,
        chosen: (chosen != "-").then(|| chosen.to_string()),
        reason: reason.to_string(),
    }))
}

/// Replays `moves` (space-separated names) from `game`.
fn replay<G: MatchGame>(n: usize, game: &mut G, moves: &str) -> Result<(), ShardError> {
    for name in moves.split_whitespace() {
        let fault = |e: G::Error| ShardError::Move {
            line: n,
            name: name.to_string(),
            message: e.to_string(),
        };
        let mv = game.parse_move(name).map_err(fault)?;
        game.play(mv).map_err(fault)?;
    }
    Ok(())
}

fn parse_game<G: MatchGame>(
    n: usize,
    line: &str,
    settings: &MatchSettings,
    empty: &G,
) -> Result<GameRecord<G>, ShardError> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [
        "game",
        index,
        first,
        winner,
        verdict,
        ta,
        tb,
        ma,
        mb,
        la,
        lb,
        forfeit,
        moves,
    ] = fields[..]
    else {
        return Err(line_error(n, line, "a game line of 13 fields"));
    };
    let game_number: usize = number(n, "game number", index)?;
    if game_number >= settings.games || !settings.shard.contains(game_number) {
        return Err(field_error(n, "game number", index, "a game of this shard"));
    }
    let mut game = empty.clone();
    replay(n, &mut game, moves)?;
    let record = GameRecord {
        index: game_number,
        first_player: parse_player(n, "first player", first)?,
        game,
        winner: parse_winner(n, winner)?,
        verdict: parse_verdict(n, verdict)?,
        forfeit: parse_forfeit(n, forfeit)?,
        time: [nanos(n, "time of A", ta)?, nanos(n, "time of B", tb)?],
        moves_chosen: [number(n, "moves of A", ma)?, number(n, "moves of B", mb)?],
        longest_move: [
            nanos(n, "longest move of A", la)?,
            nanos(n, "longest move of B", lb)?,
        ],
    };
    check_result(n, &record, winner)?;
    Ok(record)
}

/// Checks that the winner is the player of the winning side, and that the replayed moves end
/// as the line says: in its verdict, or unfinished for a forfeit.
fn check_result<G: MatchGame>(n: usize, g: &GameRecord<G>, winner: &str) -> Result<(), ShardError> {
    if g.winner != g.verdict.winner().map(|side| g.player_on(side)) {
        return Err(field_error(
            n,
            "winner",
            winner,
            "the player of the winning side",
        ));
    }
    let (recorded, expected) = match &g.forfeit {
        Some(f) => (format!("a forfeit by {}", f.player), None),
        None => (verdict_text(g.verdict).to_string(), Some(g.verdict)),
    };
    let replayed = g.game.verdict();
    if replayed == expected {
        return Ok(());
    }
    Err(ShardError::Verdict {
        line: n,
        recorded,
        replayed: replayed.map_or("an unfinished game".into(), |v| verdict_text(v).to_string()),
    })
}

/// Reads the shard file ([`SHARD_FILE`]) in each of `dirs` (the `--out` folders of a match's
/// parts) and joins them into the whole match ([`merge`]); `new_game` is [`read`]'s.
///
/// # Errors
/// The first error of [`read`] (naming the file) or of [`merge`].
pub fn merge_dirs<G: MatchGame, E: fmt::Display, D: AsRef<Path>>(
    dirs: &[D],
    new_game: impl Fn(&str) -> Result<G, E>,
) -> Result<ShardFile<G>, ShardError> {
    merge(read_dirs(dirs, new_game)?)
}

/// The shard file of each of `dirs`, read with [`read`].
fn read_dirs<G: MatchGame, E: fmt::Display, D: AsRef<Path>>(
    dirs: &[D],
    new_game: impl Fn(&str) -> Result<G, E>,
) -> Result<Vec<ShardFile<G>>, ShardError> {
    dirs.iter()
        .map(|dir| read(&dir.as_ref().join(SHARD_FILE), &new_game))
        .collect()
}

/// Joins the parts of one match into the whole match, games in order (the result's shard is
/// [`Shard::ALL`]).
///
/// # Errors
/// No parts, parts of different matches (descriptions, players or settings differ), or a game
/// that two parts both played.
pub fn merge<G>(parts: Vec<ShardFile<G>>) -> Result<ShardFile<G>, ShardError> {
    let mut parts = parts.into_iter();
    let mut merged = parts.next().ok_or(ShardError::NoShards)?;
    let whole = |s: &MatchSettings| s.shard(Shard::ALL);
    for part in parts {
        same_match(&merged, &part, whole)?;
        merged.result.games.extend(part.result.games);
    }
    let games = &mut merged.result.games;
    games.sort_by_key(|g| g.index);
    if let Some(w) = games.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(ShardError::Duplicate(w[0].index + 1));
    }
    merged.result.settings = whole(&merged.result.settings);
    Ok(merged)
}

/// Whether `other` is a part of the same match as `first`: the same description, players,
/// and settings once `settings` has set aside what may differ.
fn same_match<G>(
    first: &ShardFile<G>,
    other: &ShardFile<G>,
    settings: impl Fn(&MatchSettings) -> MatchSettings,
) -> Result<(), ShardError> {
    let mismatch = |what, first: String, other: String| ShardError::Mismatch { what, first, other };
    if other.description != first.description {
        return Err(mismatch(
            "descriptions",
            format!("{:?}", first.description),
            format!("{:?}", other.description),
        ));
    }
    let (m, p) = (&first.result, &other.result);
    if p.names != m.names {
        return Err(mismatch(
            "players",
            format!("{:?}", m.names),
            format!("{:?}", p.names),
        ));
    }
    if settings(&p.settings) != settings(&m.settings) {
        return Err(mismatch(
            "settings",
            format!("{:?}", settings(&m.settings)),
            format!("{:?}", settings(&p.settings)),
        ));
    }
    Ok(())
}

/// Runs of one match with different seeds, pooled into one result ([`pool`]).
#[derive(Debug, Clone)]
pub struct Pool<G> {
    /// The pooled games: each seed's games numbered after the previous seed's, the
    /// settings' `games` their sum and its `seed` the first seed's (a pool of several seeds
    /// is not one match: written as a shard file it would replay with one seed).
    pub file: ShardFile<G>,
    /// The seeds of the runs, in increasing order.
    pub seeds: Vec<u64>,
}

/// Joins the parts of runs of one match that differ only in their seed: each seed's parts
/// into its whole run ([`merge`]), then the runs one after the other (in increasing order of
/// seed, each one's game `k` numbered `k` plus the games of the runs before it), so that
/// two runs with disjoint seeds give one row of results. Parts of one seed only give what
/// [`merge`] gives.
///
/// ```
/// use game_harness::shard::{self, ShardError};
/// # use game_harness::{MatchResult, MatchSettings};
/// # let run = |seed: u64| shard::ShardFile::<u8> {
/// #     description: "a game".into(),
/// #     result: MatchResult { names: ["A".into(), "B".into()],
/// #         settings: MatchSettings::new(0).seed(seed), games: vec![] },
/// # };
/// let pooled = shard::pool(vec![run(6), run(5)])?;
/// assert_eq!(pooled.seeds, [5, 6]);
/// # Ok::<(), ShardError>(())
/// ```
///
/// # Errors
/// No parts, parts that differ in more than their seed (descriptions, players or the other
/// settings), or a game that two parts of one seed both played.
pub fn pool<G>(parts: Vec<ShardFile<G>>) -> Result<Pool<G>, ShardError> {
    let mut seeds: Vec<u64> = parts.iter().map(|p| p.result.settings.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    let mut by_seed: Vec<Vec<ShardFile<G>>> = seeds.iter().map(|_| Vec::new()).collect();
    for part in parts {
        let at = seeds.partition_point(|&s| s < part.result.settings.seed);
        by_seed[at].push(part);
    }
    let mut runs = by_seed.into_iter().map(merge);
    let mut pooled = runs.next().ok_or(ShardError::NoShards)??;
    let unseeded = |s: &MatchSettings| s.seed(0);
    let mut offset = pooled.result.settings.games;
    for run in runs {
        let run = run?;
        same_match(&pooled, &run, unseeded)?;
        let games = run.result.settings.games;
        pooled
            .result
            .games
            .extend(run.result.games.into_iter().map(|mut g| {
                g.index += offset;
                g
            }));
        offset += games;
    }
    pooled.result.settings.games = offset;
    Ok(Pool {
        file: pooled,
        seeds,
    })
}

/// [`merge_dirs`], pooling runs with different seeds ([`pool`]).
///
/// # Errors
/// The first error of [`read`] (naming the file) or of [`pool`].
pub fn pool_dirs<G: MatchGame, E: fmt::Display, D: AsRef<Path>>(
    dirs: &[D],
    new_game: impl Fn(&str) -> Result<G, E>,
) -> Result<Pool<G>, ShardError> {
    pool(read_dirs(dirs, new_game)?)
}

/// The line a program prints under the table of a pool of runs with these `seeds` (see
/// [`Pool::seeds`]); `None` for one seed (one match).
///
/// ```
/// assert_eq!(
///     game_harness::shard::pooled_line(&[5, 6]).as_deref(),
///     Some("Pooled runs with seeds 5, 6 (each seed's games numbered after the previous seed's)")
/// );
/// assert_eq!(game_harness::shard::pooled_line(&[5]), None);
/// ```
#[must_use]
pub fn pooled_line(seeds: &[u64]) -> Option<String> {
    (seeds.len() > 1).then(|| {
        let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
        format!(
            "Pooled runs with seeds {} (each seed's games numbered after the previous seed's)",
            list.join(", ")
        )
    })
}
