//! The shard file: a [`MatchResult`] written as text and read back, game by game.

use std::fmt;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;
use std::time::Duration;

use super::{Description, ShardError};
use crate::agent::{MatchGame, Side, Verdict};
use crate::matches::{MatchSettings, PlayerId};
use crate::record::{Forfeit, GameRecord, MatchResult};
use crate::shard::Shard;
use crate::time::Clock;

/// The first line of a shard file as [`text`] writes it: version 2, whose game lines carry
/// each player's simulations and search time.
const VERSION: &str = "game-harness-match\t2";

/// The first line of a shard file of version 1, whose game lines have no simulations (read as
/// zero: no player reported any).
const VERSION_1: &str = "game-harness-match\t1";

/// The name of the shard file in an output folder.
pub const SHARD_FILE: &str = "match.tsv";

/// The contents of a shard file: the program's description of the game and the games played.
#[derive(Debug, Clone)]
pub struct ShardFile<G> {
    /// The program's description of the game (see the module's documentation).
    pub description: Description,
    /// The players, the settings and the games of the part.
    pub result: MatchResult<G>,
}

/// Writes `result` with `description` to `dir/match.tsv` ([`SHARD_FILE`]), creating `dir`.
///
/// # Errors
/// The folder or the file cannot be written.
pub fn write<G: MatchGame>(
    result: &MatchResult<G>,
    description: &Description,
    dir: &Path,
) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::write(dir.join(SHARD_FILE), text(result, description))
}

/// The text of a shard file for `result` and `description`.
#[must_use]
pub fn text<G: MatchGame>(result: &MatchResult<G>, description: &Description) -> String {
    let s = &result.settings;
    let nanos = |d: Option<Duration>| d.map_or("-".into(), |t| t.as_nanos().to_string());
    let mut text = format!(
        "{VERSION}\ndescription\t{}\nnames\t{}\t{}\nsettings\t{}\t{}\t{}\t{}\t{}\t{}\n",
        clean(&description.to_string()),
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
        "game\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{forfeit}\t{}",
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
        g.simulations[0],
        g.simulations[1],
        g.search_time[0].as_nanos(),
        g.search_time[1].as_nanos(),
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
    new_game: impl FnOnce(&Description) -> Result<G, E>,
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
    new_game: impl FnOnce(&Description) -> Result<G, E>,
) -> Result<ShardFile<G>, ShardError> {
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    let mut next = |what: &'static str| lines.next().ok_or(ShardError::Truncated(what));
    let (_, version) = next("version")?;
    let version = match version {
        VERSION => Version::Two,
        VERSION_1 => Version::One,
        _ => {
            return Err(line_error(
                1,
                version,
                "the version line `game-harness-match<TAB>2` (or 1)",
            ));
        }
    };
    let (n, line) = next("description")?;
    let Some(text) = line.strip_prefix("description\t") else {
        return Err(line_error(n, line, "`description<TAB>GAME key=value ...`"));
    };
    let description: Description =
        (text.parse()).map_err(|_| line_error(n, line, "`description<TAB>GAME key=value ...`"))?;
    let empty = new_game(&description).map_err(|e| ShardError::Game {
        line: n,
        description: text.to_string(),
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
        games.push(parse_game(n, line, version, &settings, &empty)?);
    }
    Ok(ShardFile {
        description,
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
        game.try_play(mv).map_err(fault)?;
    }
    Ok(())
}

/// The versions of the file [`parse`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    /// Game lines of 13 fields, without simulations.
    One,
    /// Game lines of 17 fields: version 1's with each player's simulations and search time
    /// before the forfeit.
    Two,
}

impl Version {
    /// The fields of a game line between the longest moves and the forfeit.
    const fn search_fields(self) -> usize {
        match self {
            Version::One => 0,
            Version::Two => 4,
        }
    }

    /// What a game line of this version is, for errors.
    const fn game_line(self) -> &'static str {
        match self {
            Version::One => "a game line of 13 fields",
            Version::Two => "a game line of 17 fields",
        }
    }
}

/// The simulations and search times of A and B in a game line's search fields (`[SA, SB, TA,
/// TB]`; none in version 1, read as zero).
fn parse_search(n: usize, fields: &[&str]) -> Result<([u64; 2], [Duration; 2]), ShardError> {
    match *fields {
        [sa, sb, ta, tb] => Ok((
            [
                number(n, "simulations of A", sa)?,
                number(n, "simulations of B", sb)?,
            ],
            [
                nanos(n, "search time of A", ta)?,
                nanos(n, "search time of B", tb)?,
            ],
        )),
        _ => Ok(([0; 2], [Duration::ZERO; 2])),
    }
}

fn parse_game<G: MatchGame>(
    n: usize,
    line: &str,
    version: Version,
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
        search @ ..,
        forfeit,
        moves,
    ] = &fields[..]
    else {
        return Err(line_error(n, line, version.game_line()));
    };
    if search.len() != version.search_fields() {
        return Err(line_error(n, line, version.game_line()));
    }
    let (simulations, search_time) = parse_search(n, search)?;
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
        simulations,
        search_time,
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

#[cfg(test)]
mod tests {
    use super::Version;

    /// The errors name each version's field count: the 13 fields that `parse_game` takes
    /// in every version, and the version's search fields.
    #[test]
    fn a_game_line_error_names_its_versions_field_count() {
        for version in [Version::One, Version::Two] {
            let want = format!("a game line of {} fields", 13 + version.search_fields());
            assert_eq!(version.game_line(), want, "{version:?}");
        }
    }
}
