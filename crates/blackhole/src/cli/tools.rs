//! The tools of the `blackhole` program: the referee, the review of recorded games, and the
//! solver and search benches.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;

use super::options::SearchOptions;
use game_harness::cli::Seconds;

use super::GameClock;
use game_harness::GameRecord;
use game_harness::matches::PlayerId;
use game_harness::process::ErrorOutput;

use crate::referee::{BlackholeGame, CodeCupProgram};
use crate::review::{RecordedGame, Review, costly_moves, review_game};
use crate::solver::Solver;
use crate::{bench, referee};

#[derive(Debug, Args)]
pub(super) struct ReviewArgs {
    /// The game records, one game a line (`referee --record FILE` writes them).
    file: std::path::PathBuf,
    /// Review the moves from this many empty cells on, down to the end (2..=31; the most
    /// empty cells reviewed, where `solver-bench --from` is the fewest).
    #[arg(long, default_value_t = 15)]
    from: u32,
    /// Seconds per solve; a position not solved in time is left out.
    #[arg(long, default_value = "10")]
    limit: Seconds,
    /// Also print each move that gave away points: its game, empty cells, move and A's
    /// value before and after it.
    #[arg(long)]
    list: bool,
}

#[derive(Debug, Args)]
pub(super) struct BenchArgs {
    /// Games played to build endings (one ending per game at each empty count); with
    /// `--records`, the recorded games used.
    #[arg(short = 'n', long, default_value_t = 20)]
    games: usize,
    /// Seed of the first game (game k uses seed + k).
    #[arg(long, default_value_t = 1, conflicts_with = "records")]
    seed: u64,
    /// Endings from lottery playouts instead of self-play of a small search.
    #[arg(long)]
    lottery: bool,
    /// Endings from the first `--games` recorded games of this file (`referee --record`)
    /// instead of self-play: positions from real play.
    #[arg(long, conflicts_with = "lottery")]
    records: Option<std::path::PathBuf>,
    /// Simulations per move of the self-play search.
    #[arg(long, default_value_t = 2000, conflicts_with = "records")]
    simulations: u64,
    /// Fewest empty cells.
    #[arg(long, default_value_t = 10)]
    from: u32,
    /// Most empty cells.
    #[arg(long, default_value_t = 20)]
    to: u32,
    /// Seconds per solve.
    #[arg(long, default_value = "3")]
    limit: Seconds,
    /// Only decide whether the player to move wins (one null window), not the exact score.
    #[arg(long)]
    win: bool,
}

#[derive(Debug, Args)]
pub(super) struct SearchBenchArgs {
    /// Games whose positions are searched (one position per game at each empty count): the
    /// first games of `--records`, else lottery playouts seeded 1, 2, ...
    #[arg(short = 'n', long, default_value_t = 10)]
    games: usize,
    /// Positions from these recorded games (`referee --record`) instead of lottery playouts.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// Simulations per search (each target's search, without a clock).
    #[arg(long, default_value_t = 20_000)]
    simulations: u64,
    /// Fewest empty cells.
    #[arg(long, default_value_t = 20)]
    from: u32,
    /// Most empty cells.
    #[arg(long, default_value_t = 31)]
    to: u32,
    /// Seed of the first position's search (the k-th position's search uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The player's search (its flags; the solver and the clock are not used).
    #[command(flatten)]
    search: SearchOptions,
}

#[derive(Debug, Args)]
pub(super) struct RefereeArgs {
    /// Number of games (pairs on the same blocked cells, colours swapped).
    #[arg(short = 'n', long, default_value_t = 10)]
    games: usize,
    /// Seed of the blocked cells.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// First game to play (from 1): resumes a broken-off match on the cells it would have
    /// played, up to game `--games`.
    #[arg(long, default_value_t = 1)]
    first_game: usize,
    #[command(flatten)]
    clock: GameClock,
    /// Show the programs' stderr.
    #[arg(long)]
    show_stderr: bool,
    /// Append every game's record (blocked cells and moves, one line) to this file, for
    /// `blackhole review`.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Print every game.
    #[arg(short, long)]
    verbose: bool,
    /// Program A (a shell command).
    cmd_a: String,
    /// Program B (a shell command).
    cmd_b: String,
}

pub(super) fn referee(args: &RefereeArgs) -> Result<ExitCode, String> {
    let limit = args.clock.time.duration();
    if args.first_game == 0 || args.first_game > args.games.max(1) {
        return Err(format!(
            "--first-game {} must lie between 1 and --games {}",
            args.first_game, args.games
        ));
    }
    let games = args.first_game - 1..args.games;
    let mut record = match &args.record {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write the records to {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let stderr = if args.show_stderr {
        ErrorOutput::Inherit
    } else {
        ErrorOutput::Discard
    };
    let mut a = CodeCupProgram::new(&args.cmd_a, limit, stderr.clone());
    let mut b = CodeCupProgram::new(&args.cmd_b, limit, stderr);
    let bar = game_harness::matches::progress_bar(games.len(), false);
    let verbose = args.verbose;
    let result = referee::play_match(&mut a, &mut b, games, args.seed, |r| {
        bar.inc(1);
        if let Some(file) = &mut record {
            // One write per line: a referee killed mid-game leaves no half line.
            if let Err(e) = file.write_all(format!("{}\n", review_record(r)).as_bytes()) {
                game_harness::matches::print_above(&bar, &format!("record not written: {e}"));
            }
        }
        if verbose || r.forfeit.is_some() {
            game_harness::matches::print_above(&bar, &game_line(r));
        }
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    game_harness::outln!("{}", referee::ScoreSummary::of_match(&result));
    Ok(ExitCode::SUCCESS)
}

/// The line of `blackhole review`'s records for a game of the referee.
fn review_record(r: &GameRecord<BlackholeGame>) -> RecordedGame {
    RecordedGame {
        game: r.index + 1,
        a_is_red: r.first_player == PlayerId::A,
        blocked: r.game.blocked().to_vec(),
        moves: r.moves().to_vec(),
    }
}

/// `game 3 A Blue: A scores 0 after 11 moves (forfeit by A: ...)`.
fn game_line(r: &GameRecord<BlackholeGame>) -> String {
    let a_red = r.first_player == PlayerId::A;
    let forfeit = r
        .forfeit
        .as_ref()
        .map(|f| match &f.chosen {
            Some(mv) => format!(
                " (forfeit by {}: illegal move `{mv}`: {})",
                f.player, f.reason
            ),
            None => format!(" (forfeit by {}: {})", f.player, f.reason),
        })
        .unwrap_or_default();
    format!(
        "game {} A {}: A scores {} after {} moves{forfeit}",
        r.index + 1,
        if a_red { "Red" } else { "Blue" },
        referee::score_of(r, PlayerId::A),
        r.plies(),
    )
}

/// The game records of `path`, one a line (blank lines skipped); an error names the file and
/// the line.
fn read_records(path: &std::path::Path) -> Result<Vec<RecordedGame>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            l.parse::<RecordedGame>()
                .map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

pub(super) fn review(args: &ReviewArgs) -> Result<ExitCode, String> {
    let limit = args.limit.duration();
    if !(2..=31).contains(&args.from) {
        return Err(format!("--from {} must lie in 2..=31", args.from));
    }
    let records = read_records(&args.file)?;
    let bar = game_harness::matches::progress_bar(records.len(), false);
    let mut solver = Solver::new();
    let mut summary = Review::new(args.from);
    for r in &records {
        bar.inc(1);
        if !r.is_complete() {
            game_harness::matches::print_above(
                &bar,
                &format!("game {}: not finished, left out", r.game),
            );
            continue;
        }
        let values = review_game(r, &mut solver, args.from, limit).map_err(|e| e.to_string())?;
        if args.list {
            for c in costly_moves(r, &values) {
                game_harness::matches::print_above(&bar, &c.to_string());
            }
        }
        summary.add(r, &values);
    }
    bar.finish_and_clear();
    game_harness::outln!("{}", summary.table());
    Ok(ExitCode::SUCCESS)
}

pub(super) fn solver_bench(args: &BenchArgs) -> Result<ExitCode, String> {
    let limit = args.limit.duration();
    if args.from < 2 || args.to > 31 || args.from > args.to {
        return Err(format!(
            "empty counts {}..={} must lie in 2..=31",
            args.from, args.to
        ));
    }
    let source = if args.lottery {
        bench::Source::Lottery
    } else {
        bench::Source::SelfPlay
    };
    let settings = bench::Settings {
        games: args.games,
        seed: args.seed,
        source,
        simulations: args.simulations,
        lowest: args.from,
        highest: args.to,
        limit,
        win_only: args.win,
    };
    match &args.records {
        Some(path) => {
            let mut records = read_records(path)?;
            records.truncate(args.games);
            let endings = bench::endings_of_records(&records, args.to, args.from);
            bench::run_endings(&endings, &settings, std::io::stdout().lock());
        }
        None => {
            bench::run(&settings, std::io::stdout().lock());
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn search_bench(args: &SearchBenchArgs) -> Result<ExitCode, String> {
    if args.simulations == 0 {
        return Err("--simulations 0: a search needs at least one simulation".to_string());
    }
    if args.from < 2 || args.to > 31 || args.from > args.to {
        return Err(format!(
            "empty counts {}..={} must lie in 2..=31",
            args.from, args.to
        ));
    }
    let by_empty = match &args.records {
        Some(path) => {
            let mut records = read_records(path)?;
            records.truncate(args.games);
            bench::endings_of_records(&records, args.to, args.from)
        }
        None => {
            let mut by_empty = vec![Vec::new(); args.to as usize + 1];
            for g in 1..=args.games as u64 {
                let game = bench::endings_of_game(g, bench::Source::Lottery, 0, args.to, args.from);
                for p in game {
                    by_empty[p.empty_count() as usize].push(p);
                }
            }
            by_empty
        }
    };
    let config = args.search.engine_config();
    crate::search_bench::run(
        &by_empty,
        &config,
        args.simulations,
        args.seed,
        std::io::stdout().lock(),
    )
    .map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::super::{Cli, Command};
    use super::*;
    use crate::engine::EngineConfig;
    use clap::Parser;

    #[test]
    fn the_referees_command_line_parses() {
        let cli = Cli::try_parse_from(["blackhole", "referee", "-n", "4", "a", "b"]).unwrap();
        match cli.command {
            Some(Command::Referee(r)) => {
                assert_eq!(r.games, 4);
                assert_eq!((r.cmd_a.as_str(), r.cmd_b.as_str()), ("a", "b"));
            }
            other => panic!("{other:?}"),
        }
        assert!(Cli::try_parse_from(["blackhole", "referee", "a"]).is_err());
    }

    #[test]
    fn a_first_game_beyond_the_match_is_refused_before_any_game() {
        let args = |first: &str| match Cli::parse_from([
            "blackhole",
            "referee",
            "-n",
            "4",
            "--first-game",
            first,
            "a",
            "b",
        ])
        .command
        {
            Some(Command::Referee(r)) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!(args("3").first_game, 3);
        for bad in ["0", "5"] {
            let err = referee(&args(bad)).unwrap_err();
            assert!(err.contains(&format!("--first-game {bad}")), "{err}");
        }
    }

    #[test]
    fn a_review_names_the_bad_line_or_option() {
        let dir = std::env::temp_dir().join(format!("bh-review-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("games.txt");
        std::fs::write(
            &file,
            "\ngame 1 A Red blocked A1 B2 C3 D4 E4 moves A2=15 A2=14\n",
        )
        .unwrap();
        let args = |from: &str| match Cli::parse_from([
            "blackhole",
            "review",
            file.to_str().unwrap(),
            "--from",
            from,
        ])
        .command
        {
            Some(Command::Review(r)) => r,
            other => panic!("{other:?}"),
        };
        let err = review(&args("12")).unwrap_err();
        assert!(err.contains("line 2") && err.contains("A2"), "{err}");
        let err = review(&args("40")).unwrap_err();
        assert!(err.contains("--from 40"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn search_bench_args(extra: &[&str]) -> Result<SearchBenchArgs, clap::Error> {
        let cli = ["blackhole", "search-bench", "-n", "1"];
        match Cli::try_parse_from(cli.iter().chain(extra))?.command {
            Some(Command::SearchBench(a)) => Ok(a),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_search_bench_takes_the_search_options_and_refuses_bad_ranges_by_value() {
        let args = |extra: &[&str]| search_bench_args(extra).unwrap();
        let a = args(&[
            "--simulations",
            "50",
            "--from",
            "26",
            "--to",
            "27",
            "--exploration",
            "0.3",
            "--seed",
            "4",
        ]);
        assert_eq!((a.games, a.simulations, a.from, a.to), (1, 50, 26, 27));
        assert_eq!(a.search.engine_config().search.exploration, 0.3);
        assert_eq!(a.seed, 4);
        assert!(search_bench(&a).is_ok());
        assert_eq!(args(&[]).seed, 1);
        assert_eq!(args(&[]).search.engine_config(), EngineConfig::best());
        let err = search_bench(&args(&["--simulations", "0"])).unwrap_err();
        assert!(err.contains("--simulations 0"), "{err}");
        let err = search_bench(&args(&["--from", "25", "--to", "40"])).unwrap_err();
        assert!(err.contains("25..=40"), "{err}");
        let err = search_bench(&args(&["--records", "/nonexistent/games.txt"])).unwrap_err();
        assert!(err.contains("/nonexistent/games.txt"), "{err}");
        let err = search_bench(&args(&["--exploration=-1"])).unwrap_err();
        assert!(err.contains("-1"), "{err}");
    }

    /// The bench runs the searches alone: the solver's, the clock's and the log's options
    /// would change nothing there, and are refused.
    #[test]
    fn the_search_bench_refuses_the_players_other_options() {
        for option in [
            &["--solver-empty", "10"][..],
            &["--no-swindle"],
            &["--min-share", "0.25"],
            &["--time-per-game", "2"],
            &["--margin", "0.1"],
            &["-v"],
        ] {
            assert!(search_bench_args(option).is_err(), "{option:?}");
        }
    }
}
