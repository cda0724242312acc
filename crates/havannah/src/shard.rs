//! Matches in parts: a shard's games written to `match.tsv`, read back and merged into one
//! [`MatchResult`], so that a long match can run as [`Shard`]s on several machines (a Ray
//! cluster, a Kubernetes indexed job) and give the same table as one run.
//!
//! The file is tab-separated text: a version line, the players' names, the match settings,
//! then one line per game with its number, who moved first, the winner, the winning figures,
//! the thinking times, the forfeit (if any) and the moves. The moves are replayed under the
//! rules when the file is read, so a merged result is checked game by game.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::Duration;

use game_harness::Clock;
use game_harness::matches::{PlayerId, Shard};
use havannah_rules::{Colour, GameState, Kinds, Move, Rules};

use crate::selfplay::{Forfeit, GameRecord, MatchConfig, MatchResult};

/// The first line of a shard file.
const VERSION: &str = "havannah-match\t1";

/// The name of the shard file in an output folder.
pub const SHARD_FILE: &str = "match.tsv";

/// Writes `result` to `dir/match.tsv`.
///
/// # Errors
/// The folder or the file cannot be written.
pub fn write_shard(result: &MatchResult, dir: &Path) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::write(dir.join(SHARD_FILE), shard_text(result))
}

/// The text of a shard file for `result`.
#[must_use]
pub fn shard_text(result: &MatchResult) -> String {
    let c = &result.config;
    let per_move = c
        .clock
        .per_move
        .map_or("-".into(), |t| t.as_nanos().to_string());
    let mut text = format!(
        "{VERSION}\nnames\t{}\t{}\nconfig\t{}\t{}\t{}\t{}\t{}\t{per_move}\t{}\n",
        clean(&result.names[0]),
        clean(&result.names[1]),
        c.size,
        c.games,
        u8::from(c.pie),
        c.opening_plies,
        c.seed,
        c.shard
    );
    for g in &result.games {
        let _ = writeln!(text, "{}", game_line(g));
    }
    text
}

/// Tabs and line breaks would break the format: names and reasons get spaces instead.
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

fn colour_text(c: Option<Colour>) -> &'static str {
    match c {
        Some(Colour::White) => "w",
        Some(Colour::Black) => "b",
        None => "-",
    }
}

fn move_text(game: &GameState, mv: Move) -> String {
    match mv {
        Move::Cell(cell) => game.board().cell_name(cell).to_string(),
        Move::Swap => "swap".into(),
    }
}

fn game_line(g: &GameRecord) -> String {
    let forfeit = g.forfeit.as_ref().map_or("-".to_string(), |f| {
        format!(
            "{}|{}|{}",
            player_text(Some(f.player)),
            f.chosen.as_deref().map_or("-".into(), clean),
            clean(&f.reason).replace('|', "/")
        )
    });
    let moves: Vec<String> = g
        .game
        .moves()
        .iter()
        .map(|&m| move_text(&g.game, m))
        .collect();
    format!(
        "game\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{forfeit}\t{}",
        g.index,
        player_text(Some(g.first_player)),
        player_text(g.winner_player),
        colour_text(g.winner),
        g.kinds.bits(),
        g.time[0].as_nanos(),
        g.time[1].as_nanos(),
        g.moves_chosen[0],
        g.moves_chosen[1],
        g.longest_move[0].as_nanos(),
        g.longest_move[1].as_nanos(),
        moves.join(" ")
    )
}

/// Reads a shard file written by [`write_shard`].
///
/// # Errors
/// The file cannot be read, or a line is malformed or holds an illegal move (the message
/// names the file, the line and the bad field).
pub fn read_shard(path: &Path) -> Result<MatchResult, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_shard(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of a shard file.
///
/// # Errors
/// As [`read_shard`], naming the line.
pub fn parse_shard(text: &str) -> Result<MatchResult, String> {
    let mut lines = text.lines().enumerate();
    let mut next = |what: &str| {
        lines
            .next()
            .ok_or_else(|| format!("the file ends before the {what} line"))
    };
    let (_, version) = next("version")?;
    if version != VERSION {
        return Err(format!("line 1: {version:?} is not {VERSION:?}"));
    }
    let (_, names) = next("names")?;
    let names = match names.split('\t').collect::<Vec<_>>()[..] {
        ["names", a, b] => [a.to_string(), b.to_string()],
        _ => return Err(format!("line 2: {names:?} is not `names<TAB>A<TAB>B`")),
    };
    let (_, config) = next("config")?;
    let config = parse_config(config).map_err(|e| format!("line 3: {e}"))?;
    let mut games = Vec::new();
    for (i, line) in lines {
        games.push(parse_game(line, &config).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(MatchResult {
        names,
        config,
        games,
    })
}

fn number<T: std::str::FromStr>(field: &str, what: &str) -> Result<T, String> {
    field
        .parse()
        .map_err(|_| format!("{what} {field:?} is not a number"))
}

fn parse_config(line: &str) -> Result<MatchConfig, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let ["config", size, games, pie, opening, seed, per_move, shard] = fields[..] else {
        return Err(format!("{line:?} is not a config line of 8 fields"));
    };
    let mut config = MatchConfig::new(number(size, "size")?, number(games, "games")?)
        .pie(pie == "1")
        .opening(number(opening, "opening")?, number(seed, "seed")?)
        .shard(shard.parse()?);
    if per_move != "-" {
        let nanos: u64 = number(per_move, "time per move")?;
        config = config.clock(Clock::per_move(Duration::from_nanos(nanos)));
    }
    Ok(config)
}

fn parse_player(field: &str) -> Result<Option<PlayerId>, String> {
    match field {
        "A" => Ok(Some(PlayerId::A)),
        "B" => Ok(Some(PlayerId::B)),
        "-" => Ok(None),
        _ => Err(format!("player {field:?} is not A, B or -")),
    }
}

fn parse_colour(field: &str) -> Result<Option<Colour>, String> {
    match field {
        "w" => Ok(Some(Colour::White)),
        "b" => Ok(Some(Colour::Black)),
        "-" => Ok(None),
        _ => Err(format!("colour {field:?} is not w, b or -")),
    }
}

fn parse_forfeit(field: &str) -> Result<Option<Forfeit>, String> {
    if field == "-" {
        return Ok(None);
    }
    let mut parts = field.splitn(3, '|');
    let (Some(player), Some(chosen), Some(reason)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("forfeit {field:?} is not PLAYER|MOVE|REASON"));
    };
    Ok(Some(Forfeit {
        player: parse_player(player)?.ok_or("a forfeit without a player")?,
        chosen: (chosen != "-").then(|| chosen.to_string()),
        reason: reason.to_string(),
    }))
}

fn nanos(field: &str, what: &str) -> Result<Duration, String> {
    Ok(Duration::from_nanos(number(field, what)?))
}

fn parse_game(line: &str, config: &MatchConfig) -> Result<GameRecord, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [
        "game",
        index,
        first,
        winner_player,
        winner,
        kinds,
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
        return Err(format!("{line:?} is not a game line of 14 fields"));
    };
    let mut game =
        GameState::new(config.size, Rules { pie: config.pie }).map_err(|e| e.to_string())?;
    for mv in moves.split_whitespace() {
        game.play_str(mv).map_err(|e| format!("move {mv:?}: {e}"))?;
    }
    Ok(GameRecord {
        index: number(index, "game number")?,
        first_player: parse_player(first)?.ok_or("a game without a first player")?,
        game,
        winner: parse_colour(winner)?,
        winner_player: parse_player(winner_player)?,
        kinds: Kinds::from_bits(number(kinds, "kinds")?),
        forfeit: parse_forfeit(forfeit)?,
        time: [nanos(ta, "time of A")?, nanos(tb, "time of B")?],
        moves_chosen: [number(ma, "moves of A")?, number(mb, "moves of B")?],
        longest_move: [
            nanos(la, "longest move of A")?,
            nanos(lb, "longest move of B")?,
        ],
    })
}

/// Joins the shards of one match into the result of the whole match, games in order.
///
/// # Errors
/// No parts, parts of different matches (players or settings differ), or a game that two
/// parts both played.
pub fn merge_results(parts: Vec<MatchResult>) -> Result<MatchResult, String> {
    let mut parts = parts.into_iter();
    let mut merged = parts.next().ok_or("no shards to merge")?;
    let whole = |c: &MatchConfig| c.shard(Shard::ALL);
    for part in parts {
        if part.names != merged.names {
            return Err(format!(
                "shards of different players: {:?} and {:?}",
                merged.names, part.names
            ));
        }
        if whole(&part.config) != whole(&merged.config) {
            return Err(format!(
                "shards of different matches: {:?} and {:?}",
                merged.config, part.config
            ));
        }
        merged.games.extend(part.games);
    }
    merged.games.sort_by_key(|g| g.index);
    if let Some(w) = merged.games.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(format!("game {} is in two shards", w[0].index + 1));
    }
    merged.config = whole(&merged.config);
    Ok(merged)
}
