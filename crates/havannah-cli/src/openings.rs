//! `openings`: a suite of balanced openings for matches, and the first-stone table of the
//! pie rule.
//!
//! Random openings of a few stones are often decided before the players take over, which
//! compresses every strength difference a match measures. This command draws candidate
//! openings of 1 to 3 stones at random (seeded), skips those that are an image of one already
//! drawn under the twelve symmetries of the board, and keeps the balanced ones in two steps:
//!
//! 1. a screen: one seeded search of `--screen-simulations` simulations of the position;
//!    White's root value (the best move's mean reward, seen from White) must lie within
//!    `--low..=--high`;
//! 2. a check: `--games` self-play games of the engine (`best` against `best`, both at
//!    `--simulations` simulations a move, the two engines' seeds alternating White and
//!    Black); White's score (draws count half) must lie within `--low..=--high`.
//!
//! It writes the suite (one opening a line, as `havannah selfplay --openings` reads it) with a
//! comment per line giving the search value and the self-play score, and a header naming the
//! command that made it and White's share over all the checks with its 95% Wilson interval.
//! The pie rule is off in every search and game: the suite is for matches without it.
//!
//! With `--first-stones FILE` it writes instead the first-stone table of the engine
//! (`havannah::first_stone`): White's value of every first stone up to symmetry, each from a
//! search of `--screen-simulations` simulations of the position after it.
//!
//! ```sh
//! havannah openings --size 8 --want 60 --out openings/havannah-8.txt
//! havannah openings --size 8 --first-stones crates/havannah/src/first_stone/size-8.txt \
//!     --screen-simulations 200000
//! ```

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use game_harness::MatchSettings;
use game_harness::cli::Seconds;
use game_harness::openings::line;
use game_harness::runner::run_match;
use game_harness::stats::Score;
use game_harness::{Agent, Clock};
use havannah::{Engine, EngineConfig};
use havannah_board::{Board, Cell};
use havannah_rules::{Colour, GameState, Move, Rules};
use indicatif::ProgressBar;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A positive number of minutes, as `--max-minutes 1.5` gives it.
fn minutes(text: &str) -> Result<Duration, String> {
    let bad = || format!("{text:?} is not a positive number of minutes");
    let seconds: Seconds = text.parse().map_err(|_| bad())?;
    seconds.duration().checked_mul(60).ok_or_else(bad)
}

/// Command-line options.
#[derive(Debug, Parser)]
#[command(
    name = "openings",
    version,
    about = "Generates a suite of balanced openings (1-3 stones, screened by a search, checked by self-play), or the first-stone table of the pie rule"
)]
pub struct Opts {
    /// Cells per side.
    #[arg(long, default_value_t = 8)]
    pub size: u8,
    /// The random seed (candidates, searches and games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop once this many openings are kept.
    #[arg(long, default_value_t = 60)]
    pub want: usize,
    /// Stop after this many candidates (duplicates included).
    #[arg(long, default_value_t = 5000)]
    pub candidates: usize,
    /// Stop drawing candidates after this many minutes (the suite so far is written).
    #[arg(long, value_parser = minutes)]
    pub max_minutes: Option<Duration>,
    /// The fewest stones of a candidate.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub min_stones: u8,
    /// The most stones of a candidate.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub max_stones: u8,
    /// Simulations of the screening search (and of each first-stone search).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub screen_simulations: u64,
    /// Self-play games that check a candidate that passed the screen (an even number gives
    /// each engine seed White as often as Black).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Simulations a move in the self-play games.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub simulations: u64,
    /// The lowest value and score for White that count as balanced.
    #[arg(long, default_value_t = 0.40)]
    pub low: f64,
    /// The highest value and score for White that count as balanced.
    #[arg(long, default_value_t = 0.60)]
    pub high: f64,
    /// The suite's file.
    #[arg(long, default_value = "openings.txt")]
    pub out: PathBuf,
    /// Go on with the suite in this file (usually --out itself): its openings are kept first
    /// and their symmetric images skipped, its header is kept below the new one, and White's
    /// share adds its check games. Give another --seed than the run that made it.
    #[arg(long, value_name = "FILE", conflicts_with = "first_stones")]
    pub extend: Option<PathBuf>,
    /// Write the first-stone table to this file instead of a suite.
    #[arg(long, value_name = "FILE")]
    pub first_stones: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A position's stones up to the board's symmetries: the smallest, over the twelve
/// symmetries, of the sorted cell indices of White's stones and of Black's. Two positions
/// have the same key exactly when one is a symmetric image of the other.
#[must_use]
pub fn canonical_key(game: &GameState) -> (Vec<usize>, Vec<usize>) {
    let board = game.board();
    let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
    for symmetry in board.symmetries() {
        let mut key = (Vec::new(), Vec::new());
        for cell in board.cells() {
            match game.stone(cell) {
                Some(Colour::White) => key.0.push(symmetry.apply(cell).index()),
                Some(Colour::Black) => key.1.push(symmetry.apply(cell).index()),
                None => {}
            }
        }
        key.0.sort_unstable();
        key.1.sort_unstable();
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    best.unwrap_or_default()
}

/// White's value of `game` from one search of `simulations` simulations seeded `seed`: the
/// best move's mean reward, seen from White. The pie rule is off.
fn white_value(game: &GameState, simulations: u64, seed: u64) -> Result<f64, String> {
    let config = EngineConfig::best()
        .with_simulations(simulations)
        .map_err(|e| e.to_string())?;
    let mut engine = Engine::new(config, seed);
    engine.reset(game);
    engine.choose(game, &Clock::unlimited());
    let result = engine
        .last_result()
        .ok_or_else(|| format!("no search of {}", line(game)))?;
    Ok(match game.to_move() {
        Colour::White => result.value,
        Colour::Black => 1.0 - result.value,
    })
}

/// White's score in `games` self-play games from `game`: the engine (`best`, `simulations`
/// a move) against itself, the two engines' seeds taking White in turn.
fn white_score(game: &GameState, opts: &Opts, seed: u64) -> Result<Score, String> {
    let config = EngineConfig::best()
        .with_simulations(opts.simulations)
        .map_err(|e| e.to_string())?;
    let mut a = Engine::new(config.clone(), seed);
    let mut b = Engine::new(config, seed ^ 1);
    let games = usize::try_from(opts.games).map_err(|e| e.to_string())?;
    let settings = MatchSettings::new(games).seed(seed);
    let result = run_match(
        [&mut a, &mut b],
        &settings,
        |_| Ok::<_, String>(game.clone()),
        |_| {},
    )?;
    // The pie rule is off: the first side is White.
    Ok(result.first_side_score())
}

/// A candidate: `stones` random cells on the empty board of `board`.
fn candidate(board: &'static Board, stones: u8, rng: &mut Pcg64Mcg) -> Result<GameState, String> {
    let mut game = GameState::on_board(board, Rules { pie: false });
    for _ in 0..stones {
        let empty: Vec<Cell> = board.cells().filter(|&c| game.stone(c).is_none()).collect();
        let cell = empty[rng.random_range(0..empty.len())];
        game.play(Move::Cell(cell)).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// An opening kept: its line in the suite (moves and comment).
struct Kept {
    line: String,
}

/// A suite read back for `--extend`: its openings' lines, their keys, its header and the
/// score of White over its check games.
struct Earlier {
    kept: Vec<Kept>,
    keys: HashSet<(Vec<usize>, Vec<usize>)>,
    header: Vec<String>,
    white: Score,
}

/// White's wins, losses and draws (as points over games) from a header line
/// `# White's share over all N check games: P/N = ...`.
fn white_of_header(line: &str) -> Option<Score> {
    let rest = line.split_once("check games: ")?.1;
    let (points, rest) = rest.split_once('/')?;
    let games: u32 = rest.split_whitespace().next()?.parse().ok()?;
    let points: f64 = points.parse().ok()?;
    let half_points = (points * 2.0).round() as u32;
    // Draws are not told apart from a win and a loss: the same points and games.
    let wins = half_points / 2;
    let draws = half_points % 2;
    Some(Score::new(wins, games.checked_sub(wins + draws)?, draws))
}

/// Reads the suite of `--extend`.
fn earlier(path: &std::path::Path, board: &'static Board) -> Result<Earlier, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let start = GameState::on_board(board, Rules { pie: false });
    let suite = game_harness::openings::Openings::parse(&text, &start, &path.display().to_string())
        .map_err(|e| e.to_string())?;
    let lines: Vec<&str> = text.lines().collect();
    let kept = suite
        .openings()
        .iter()
        .map(|o| Kept {
            line: lines[o.line - 1].to_string(),
        })
        .collect();
    let keys = suite
        .openings()
        .iter()
        .map(|o| canonical_key(&o.game))
        .collect();
    let header: Vec<String> = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter(|l| !l.starts_with("# Line format"))
        .map(str::to_string)
        .collect();
    let white = header
        .iter()
        .filter_map(|l| white_of_header(l))
        .next_back()
        .ok_or_else(|| format!("{}: no line of White's share in its header", path.display()))?;
    Ok(Earlier {
        kept,
        keys,
        header,
        white,
    })
}

/// What a generation counted.
#[derive(Default)]
struct Counts {
    drawn: usize,
    duplicates: usize,
    screened_out: usize,
    checked: usize,
    /// White's score over every check.
    white: Score,
}

/// The progress bar: openings kept of those wanted, with the counts as its message.
fn bar(len: usize, quiet: bool) -> ProgressBar {
    game_harness::matches::progress_bar_of(len, "kept", quiet)
}

/// Draws, screens and checks candidates until enough are kept, the candidates or the time
/// run out.
fn generate(
    opts: &Opts,
    board: &'static Board,
    earlier: Option<&Earlier>,
) -> Result<(Vec<Kept>, Counts), String> {
    let mut rng = Pcg64Mcg::seed_from_u64(opts.seed);
    let mut seen = earlier.map(|e| e.keys.clone()).unwrap_or_default();
    let (mut kept, mut counts) = (Vec::new(), Counts::default());
    let before = earlier.map_or(0, |e| e.kept.len());
    let limit = opts.max_minutes;
    let start = Instant::now();
    let bar = bar(opts.want, opts.quiet);
    let balanced = |x: f64| (opts.low..=opts.high).contains(&x);
    bar.set_position(before as u64);
    while before + kept.len() < opts.want
        && counts.drawn < opts.candidates
        && limit.is_none_or(|l| start.elapsed() < l)
    {
        let stones = rng.random_range(opts.min_stones..=opts.max_stones);
        let game = candidate(board, stones, &mut rng)?;
        let seed = rng.random::<u64>();
        counts.drawn += 1;
        if game.outcome().is_over() || !seen.insert(canonical_key(&game)) {
            counts.duplicates += 1;
            continue;
        }
        let value = white_value(&game, opts.screen_simulations, seed)?;
        if balanced(value) {
            let score = white_score(&game, opts, seed)?;
            counts.checked += 1;
            counts.white = Score::new(
                counts.white.wins + score.wins,
                counts.white.losses + score.losses,
                counts.white.draws + score.draws,
            );
            if balanced(score.fraction()) {
                kept.push(Kept {
                    line: format!(
                        "{:<12}# v {value:.3}, w {:.1}/{}",
                        line(&game),
                        score.points(),
                        score.games()
                    ),
                });
                bar.inc(1);
            }
        } else {
            counts.screened_out += 1;
        }
        bar.set_message(format!(
            "drawn {}, screened out {}, checked {}",
            counts.drawn, counts.screened_out, counts.checked
        ));
    }
    bar.finish_and_clear();
    Ok((kept, counts))
}

/// The suite file: the header comments, then one opening a line with its comment.
fn suite_text(opts: &Opts, kept: &[Kept], counts: &Counts, earlier: Option<&Earlier>) -> String {
    let mut out = String::new();
    let before = earlier.map_or(0, |e| e.kept.len());
    let white = counts.white;
    let all = earlier.map_or(white, |e| {
        Score::new(
            white.wins + e.white.wins,
            white.losses + e.white.losses,
            white.draws + e.white.draws,
        )
    });
    let _ = writeln!(
        out,
        "# Balanced Havannah openings, size {}: {} openings, pie rule off.\n\
         # Made by: {}\n\
         # Each candidate (1-{} stones, distinct up to symmetry) was screened by a search of {} \
         simulations (White's value within [{:.2}, {:.2}]),\n\
         # then checked by {} self-play games, best against best at {} simulations a move \
         (White's score within [{:.2}, {:.2}]).\n\
         # Drawn {}, duplicates {}, screened out {}, checked {}; kept {}.\n\
         # White's share over all {} check games: {:.1}/{} = {} (95% Wilson interval, draws count half).",
        opts.size,
        before + kept.len(),
        crate::command_line(),
        opts.max_stones,
        opts.screen_simulations,
        opts.low,
        opts.high,
        opts.games,
        opts.simulations,
        opts.low,
        opts.high,
        counts.drawn,
        counts.duplicates,
        counts.screened_out,
        counts.checked,
        kept.len(),
        all.games(),
        all.points(),
        all.games(),
        all.win_rate()
    );
    if let Some(e) = earlier {
        let _ = writeln!(
            out,
            "# The first {before} openings (and White's share above) come from the run below:"
        );
        for line in e.header.iter().skip(1) {
            let _ = writeln!(out, "#  {}", line.trim_start_matches('#').trim_start());
        }
    }
    out.push_str(
        "# Line format: moves  # v = White's search value, w = White's self-play score.\n",
    );
    for k in earlier.into_iter().flat_map(|e| &e.kept).chain(kept) {
        let _ = writeln!(out, "{}", k.line);
    }
    out
}

/// The first-stone table: White's value of each first stone up to symmetry, in the format of
/// `havannah::first_stone` (a version line, the size, the simulations, `cell value` lines).
fn first_stone_text(opts: &Opts, board: &'static Board) -> Result<String, String> {
    let mut out = format!(
        "{}\n# White's value of each first stone (pie rule off), one search of {} simulations of the position after it.\n# Made by: {}\nsize {}\n",
        havannah::first_stone::VERSION_LINE,
        opts.screen_simulations,
        crate::command_line(),
        opts.size
    );
    let mut seen = HashSet::new();
    let cells: Vec<Cell> = board.cells().collect();
    let bar = bar(cells.len(), opts.quiet);
    for (i, &cell) in cells.iter().enumerate() {
        bar.inc(1);
        let mut game = GameState::on_board(board, Rules { pie: false });
        game.play(Move::Cell(cell)).map_err(|e| e.to_string())?;
        if !seen.insert(canonical_key(&game)) {
            continue;
        }
        let value = white_value(&game, opts.screen_simulations, opts.seed ^ i as u64)?;
        let _ = writeln!(out, "{} {value:.4}", board.cell_name(cell));
    }
    bar.finish_and_clear();
    Ok(out)
}

/// Generates the suite (or the first-stone table) and writes it; the exit status is 0, or 2
/// for bad options, a failed search or a file that cannot be written.
pub fn run(opts: &Opts) -> ExitCode {
    match generate_and_write(opts) {
        Ok(message) => {
            game_harness::outln!("{message}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("openings: {e}");
            ExitCode::from(2)
        }
    }
}

fn generate_and_write(opts: &Opts) -> Result<String, String> {
    if opts.min_stones > opts.max_stones || !(0.0..=1.0).contains(&opts.low) || opts.low > opts.high
    {
        return Err("need --min-stones <= --max-stones and 0 <= --low <= --high <= 1".to_string());
    }
    let board = Board::new(opts.size).map_err(|e| e.to_string())?;
    if let Some(path) = &opts.first_stones {
        let text = first_stone_text(opts, board)?;
        std::fs::write(path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(format!("Wrote the first-stone table to {}", path.display()));
    }
    let earlier = opts
        .extend
        .as_deref()
        .map(|path| earlier(path, board))
        .transpose()?;
    let (kept, counts) = generate(opts, board, earlier.as_ref())?;
    let text = suite_text(opts, &kept, &counts, earlier.as_ref());
    std::fs::write(&opts.out, &text).map_err(|e| format!("{}: {e}", opts.out.display()))?;
    Ok(format!(
        "Wrote {} openings to {}; White's share over this run's {} check games: {}",
        earlier.map_or(0, |e| e.kept.len()) + kept.len(),
        opts.out.display(),
        counts.white.games(),
        counts.white.win_rate()
    ))
}
