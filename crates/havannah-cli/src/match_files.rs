//! What a Havannah match writes: the results table with Havannah's colours and winning
//! figures ([`Table`]), one record per game (`games.txt`), the games as SGF (`games.sgf`), the
//! last game's final position (`last_game.svg`) and the table with the forfeits
//! (`results.txt`).
//!
//! The generic records know sides; Havannah's colours follow from them: White is the side
//! that opened the game unless the other side took its stone with `swap`
//! ([`GameState::side_of`]).

use std::fmt;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use game_harness::PlayerId;
use game_harness::record::{GameRecord, MatchResult};
use game_harness::stats::Score;
use havannah_rules::svg::{SvgOptions, position_svg};
use havannah_rules::{Colour, GameState, Kinds, Record};

use game_harness::match_file::Description;

use crate::match_setup::Setup;

/// The colour that won `g` (on the board, or the colour of the forfeiting player's opponent);
/// `None` for a draw.
#[must_use]
pub fn winner_colour(g: &GameRecord<GameState>) -> Option<Colour> {
    let side = g.verdict.winner()?;
    Some(if g.game.side_of(Colour::White) == side {
        Colour::White
    } else {
        Colour::Black
    })
}

/// The player who owns the stones of `colour` at the end of `g`.
#[must_use]
pub fn player_of(g: &GameRecord<GameState>, colour: Colour) -> PlayerId {
    g.player_on(g.game.side_of(colour))
}

/// The figures of the winning move (empty for a draw or a forfeit).
#[must_use]
pub fn kinds(g: &GameRecord<GameState>) -> Kinds {
    g.game.outcome().kinds()
}

/// The result as SGF's `RE` writes it: `W+`, `B+`, `W+F`/`B+F` for a forfeit, `0` for a draw.
#[must_use]
pub fn sgf_result(g: &GameRecord<GameState>) -> String {
    match winner_colour(g) {
        None => "0".to_string(),
        Some(c) => {
            let letter = if c == Colour::White { 'W' } else { 'B' };
            let f = if g.forfeit.is_some() { "F" } else { "" };
            format!("{letter}+{f}")
        }
    }
}

/// Games won by each colour (White, Black) and draws.
#[must_use]
pub fn wins_by_colour(result: &MatchResult<GameState>) -> (u32, u32, u32) {
    let (mut w, mut b, mut d) = (0, 0, 0);
    for g in &result.games {
        match winner_colour(g) {
            Some(Colour::White) => w += 1,
            Some(Colour::Black) => b += 1,
            None => d += 1,
        }
    }
    (w, b, d)
}

/// How many won games completed each figure: bridge, fork, ring (a move completing two
/// figures counts for both).
#[must_use]
pub fn kind_counts(result: &MatchResult<GameState>) -> [u32; 3] {
    let mut counts = [0; 3];
    for g in &result.games {
        let won = kinds(g);
        for (k, kind) in [Kinds::BRIDGE, Kinds::FORK, Kinds::RING]
            .into_iter()
            .enumerate()
        {
            if won.contains(kind) {
                counts[k] += 1;
            }
        }
    }
    counts
}

/// The results table of a Havannah match: the generic table of the harness with the board
/// size and pie rule in its first line, White's share of the games with its Wilson interval
/// (White moves first; after a swap the second player holds White), and the winning figures.
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    /// The match.
    pub result: &'a MatchResult<GameState>,
    /// Its board and rules.
    pub setup: &'a Setup,
}

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = self.result;
        let [a, b] = &result.names;
        writeln!(
            f,
            "Match: A = {a}, B = {b}; size {}, {} games, pie rule {}",
            self.setup.size,
            result.games.len(),
            if self.setup.pie { "on" } else { "off" }
        )?;
        f.write_str(&result.tally().table())?;
        let (w, bl, d) = wins_by_colour(result);
        writeln!(
            f,
            "By colour: White won {w}/{}, share {} (draws count half); Black won {bl}, draws {d}",
            result.games.len(),
            Score::new(w, bl, d).win_rate()
        )?;
        let [br, fo, ri] = kind_counts(result);
        writeln!(
            f,
            "Win kinds: bridge {br}, fork {fo}, ring {ri}; forfeits {}",
            result.forfeits()
        )?;
        writeln!(f, "{}", result.length_line())?;
        f.write_str(&result.score_lines())
    }
}

/// The files [`write_outputs`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFiles {
    /// One record per line: `<size> <white|black|draw> <kinds> <moves...>`.
    pub games_txt: PathBuf,
    /// One SGF game tree per line, with player names and results.
    pub games_sgf: PathBuf,
    /// The last game's final position, if there was a game.
    pub last_game_svg: Option<PathBuf>,
    /// The results table.
    pub results_txt: PathBuf,
}

/// Escapes an SGF property value.
fn sgf_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The SGF of one game: [`Record::to_sgf`] with `PW`/`PB` (the players holding White and Black
/// at the start), `RE` and, for a forfeit, a comment `GC` naming the rejected move.
#[must_use]
pub fn game_sgf(record: &GameRecord<GameState>, names: &[String; 2]) -> String {
    let sgf = Record::of_game(&record.game).to_sgf();
    let white = &names[record.first_player.index()];
    let black = &names[record.first_player.other().index()];
    let mut props = format!(
        "PW[{}]PB[{}]RE[{}]",
        sgf_escape(white),
        sgf_escape(black),
        sgf_result(record)
    );
    if let Some(f) = &record.forfeit {
        let _ = write!(
            props,
            "GC[{}]",
            sgf_escape(&format!(
                "{} forfeits: {} {}",
                names[f.player.index()],
                f.chosen.as_deref().unwrap_or("no move"),
                f.reason
            ))
        );
    }
    // The root node ends where the first move node starts (or at the closing parenthesis).
    let split = sgf[2..].find(';').map_or(sgf.len() - 1, |k| k + 2);
    format!("{}{props}{}", &sgf[..split], &sgf[split..])
}

/// The text of `results.txt`: the [`Table`], an empty line, and a line per forfeit.
#[must_use]
pub fn results_text(result: &MatchResult<GameState>, setup: &Setup) -> String {
    let mut text = Table { result, setup }.to_string();
    text.push('\n');
    for g in &result.games {
        if let Some(f) = &g.forfeit {
            let _ = writeln!(
                text,
                "Game {}: {} ({}) forfeits: {} ({})",
                g.index + 1,
                result.names[f.player.index()],
                f.player,
                f.chosen.as_deref().unwrap_or("no move"),
                f.reason
            );
        }
    }
    text
}

/// Writes `games.txt`, `games.sgf`, `last_game.svg` and `results.txt` into `dir` (created if
/// needed).
///
/// `games.txt` has one line per game as the fixtures write records
/// ([`Record::to_fixture_line`]). A forfeited game did not end on the board, so its line is the
/// plain record `<size> <moves...>`; `results.txt` and the SGF name the forfeit.
///
/// # Errors
/// Any error creating the folder or writing a file.
pub fn write_outputs(
    result: &MatchResult<GameState>,
    setup: &Setup,
    dir: &Path,
) -> io::Result<OutputFiles> {
    fs::create_dir_all(dir)?;
    let mut txt = String::new();
    let mut sgf = String::new();
    for g in &result.games {
        txt.push_str(&Record::to_fixture_line(&g.game));
        txt.push('\n');
        sgf.push_str(&game_sgf(g, &result.names));
        sgf.push('\n');
    }
    let files = OutputFiles {
        games_txt: dir.join("games.txt"),
        games_sgf: dir.join("games.sgf"),
        last_game_svg: result.games.last().map(|_| dir.join("last_game.svg")),
        results_txt: dir.join("results.txt"),
    };
    fs::write(&files.games_txt, txt)?;
    fs::write(&files.games_sgf, sgf)?;
    if let (Some(path), Some(last)) = (&files.last_game_svg, result.games.last()) {
        let names = &result.names;
        let white = &names[player_of(last, Colour::White).index()];
        let black = &names[player_of(last, Colour::Black).index()];
        let title = format!(
            "Game {}: {white} (White) - {black} (Black): {}",
            last.index + 1,
            result_words(last)
        );
        let options = SvgOptions::with_title(title).move_numbers(true);
        fs::write(path, position_svg(&last.game, &options))?;
    }
    fs::write(&files.results_txt, results_text(result, setup))?;
    Ok(files)
}

fn result_words(g: &GameRecord<GameState>) -> String {
    match (winner_colour(g), &g.forfeit) {
        (None, _) => "draw".to_string(),
        (Some(c), Some(_)) => format!("{c} wins by forfeit"),
        (Some(c), None) => format!("{c} wins ({})", kinds(g)),
    }
}

/// The results table of a match its description names ([`Table`]); the description's
/// fault when it is not a Havannah match.
#[must_use]
pub fn table(result: &MatchResult<GameState>, description: &Description) -> String {
    match Setup::of(description) {
        Ok(setup) => Table {
            result,
            setup: &setup,
        }
        .to_string(),
        Err(e) => e,
    }
}

/// [`write_outputs`] for a match its description names; the names of the files written.
///
/// # Errors
/// A description that is not a Havannah match, or a file that cannot be written.
pub fn write_named(
    result: &MatchResult<GameState>,
    description: &Description,
    dir: &Path,
) -> io::Result<Vec<String>> {
    let setup = Setup::of(description).map_err(io::Error::other)?;
    let files = write_outputs(result, &setup, dir)?;
    let paths = [
        Some(&files.games_txt),
        Some(&files.games_sgf),
        files.last_game_svg.as_ref(),
    ];
    Ok(paths
        .into_iter()
        .flatten()
        .chain([&files.results_txt])
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use game_harness::{Forfeit, Side, Verdict};
    use havannah_rules::Rules;

    use super::*;

    fn record(game: GameState, first_player: PlayerId, verdict: Verdict) -> GameRecord<GameState> {
        GameRecord {
            index: 0,
            first_player,
            winner: verdict.winner().map(|side| match side {
                Side::First => first_player,
                Side::Second => first_player.other(),
            }),
            game,
            verdict,
            forfeit: None,
            time: [Duration::ZERO; 2],
            moves_chosen: [0; 2],
            longest_move: [Duration::ZERO; 2],
            simulations: [0; 2],
            search_time: [Duration::ZERO; 2],
        }
    }

    #[test]
    fn sgf_properties_go_into_the_root() {
        let mut game = GameState::new(3, Rules::default()).unwrap();
        game.play_str("c3").unwrap();
        let mut record = record(game, PlayerId::B, Verdict::Draw);
        record.forfeit = Some(Forfeit {
            player: PlayerId::A,
            chosen: Some("c3".into()),
            reason: "bad]".into(),
        });
        let names = ["x".to_string(), "y\\z".to_string()];
        let sgf = game_sgf(&record, &names);
        assert_eq!(
            sgf,
            "(;FF[4]GM[havannah]SZ[3]PW[y\\\\z]PB[x]RE[0]GC[x forfeits: c3 bad\\]];W[c3])"
        );
        let parsed = Record::parse_sgf(&sgf).unwrap();
        assert_eq!(parsed.moves, record.game.moves());
    }

    #[test]
    fn owner_of_colours_after_swap() {
        let mut game = GameState::new(3, Rules::default()).unwrap();
        game.play_str("c3").unwrap();
        game.play_str("swap").unwrap();
        // A forfeit won by the second side: B, who swapped and holds White.
        let record = record(game, PlayerId::A, Verdict::Win(Side::Second));
        assert_eq!(player_of(&record, Colour::White), PlayerId::B);
        assert_eq!(player_of(&record, Colour::Black), PlayerId::A);
        assert_eq!(winner_colour(&record), Some(Colour::White));
        assert_eq!(sgf_result(&record), "W+");
        assert_eq!(kinds(&record), Kinds::NONE);
    }
}
