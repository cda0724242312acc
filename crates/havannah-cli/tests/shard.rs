//! Havannah matches in shards: the shards of a match together play the same games as one
//! run, and a shard file reads back to the same result.

use std::time::Duration;

use game_harness::MatchSettings;
use game_harness::match_file::{self, ShardFile};
use game_harness::record::MatchResult;
use game_harness::runner::run_match;
use game_harness::{Agent, PlayerId};
use havannah::{Engine, EngineConfig, RandomAgent};
use havannah_cli::match_files::{Table, kinds, winner_colour};
use havannah_cli::match_setup::Setup;
use havannah_rules::{GameState, Move};

fn engine() -> Box<dyn Agent<GameState>> {
    let config = EngineConfig::best().with_simulations(60).unwrap();
    Box::new(Engine::new(config, 1))
}

/// A match of the engine (60 simulations a move) against the random player.
fn play(setup: &Setup, settings: &MatchSettings) -> MatchResult<GameState> {
    let mut a = engine();
    let mut b: Box<dyn Agent<GameState>> = Box::new(RandomAgent::new(2));
    run_match(
        [a.as_mut(), b.as_mut()],
        settings,
        |i| setup.opening(settings.seed, i),
        |_| {},
    )
    .unwrap()
}

/// The shard file's text of `result`, read back as the program reads it.
fn round_trip(result: &MatchResult<GameState>, setup: &Setup) -> ShardFile<GameState> {
    let text = match_file::text(result, &setup.description());
    parse(&text).unwrap()
}

fn parse(text: &str) -> Result<ShardFile<GameState>, match_file::ShardError> {
    match_file::parse(text, |description| {
        Setup::of(description)?
            .empty_game()
            .map_err(|e| e.to_string())
    })
}

/// What identifies a game: its number, the first player, the winner and the moves.
fn games(result: &MatchResult<GameState>) -> Vec<(usize, PlayerId, Option<PlayerId>, Vec<Move>)> {
    result
        .games
        .iter()
        .map(|g| (g.index, g.first_player, g.winner, g.game.moves().to_vec()))
        .collect()
}

#[test]
fn shards_merge_into_the_games_of_one_run() {
    let setup = Setup::new(4, false, 1).unwrap();
    let settings = MatchSettings::new(10).seed(5);
    let whole = play(&setup, &settings);
    let parts: Vec<MatchResult<GameState>> = (0..3)
        .map(|k| play(&setup, &settings.shard(format!("{k}/3").parse().unwrap())))
        .collect();
    assert_eq!(parts.iter().map(|p| p.games.len()).sum::<usize>(), 10);
    // Through the file format, as the shards of a cluster run come back.
    let parts = parts.iter().map(|p| round_trip(p, &setup)).collect();
    let merged = match_file::merge(parts).unwrap();
    assert_eq!(
        merged.description.to_string(),
        "havannah size=4 pie=0 opening=1"
    );
    let merged = merged.result;
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(merged.settings, whole.settings);
    let table = |result| {
        Table {
            result,
            setup: &setup,
        }
        .to_string()
    };
    assert_eq!(table(&merged).lines().nth(1), table(&whole).lines().nth(1));
    // Games differ from one another (the players are reseeded per game, not restarted alike).
    let distinct: std::collections::HashSet<_> = whole
        .games
        .iter()
        .map(|g| g.game.moves().to_vec())
        .collect();
    assert!(distinct.len() > 5, "{} distinct games", distinct.len());
}

#[test]
fn a_shard_file_reads_back_to_the_same_result() {
    let setup = Setup::new(5, true, 2).unwrap();
    let result = play(&setup, &MatchSettings::new(4).seed(9));
    let back = round_trip(&result, &setup);
    assert_eq!(Setup::of(&back.description), Ok(setup));
    let back = back.result;
    assert_eq!(back.names, result.names);
    assert_eq!(games(&back), games(&result));
    for (x, y) in back.games.iter().zip(&result.games) {
        assert_eq!(winner_colour(x), winner_colour(y));
        assert_eq!(kinds(x), kinds(y));
        assert_eq!(x.moves_chosen, y.moves_chosen);
        assert_eq!(x.time, y.time);
        assert_eq!(
            (x.simulations, x.search_time),
            (y.simulations, y.search_time)
        );
        // The engine reports at most its 60 simulations a move; the random player none.
        assert!(y.simulations[0] <= 60 * u64::from(y.moves_chosen[0]));
        assert_eq!((y.simulations[1], y.search_time[1]), (0, Duration::ZERO));
    }
    assert!(result.search_used(PlayerId::A).0 > 0);
    let table = |result| {
        Table {
            result,
            setup: &setup,
        }
        .to_string()
    };
    assert_eq!(table(&back), table(&result));
    // The table ends with the players' simulations a second, after the time line.
    let text = table(&result);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("Mean time per move: A "));
    assert_eq!(lines[lines.len() - 1], result.simulations_line());
    assert!(lines[lines.len() - 1].ends_with(", B -"), "{text}");
    assert!(!lines[lines.len() - 1].contains("A -"), "{text}");
}

#[test]
fn bad_shard_files_and_merges_are_errors_naming_the_fault() {
    let setup = Setup::new(4, false, 0).unwrap();
    let result = play(&setup, &MatchSettings::new(2));
    let text = match_file::text(&result, &setup.description());
    // An illegal move: the first cell played twice.
    let line = text.lines().nth(4).unwrap();
    let first_move = line.rsplit('\t').next().unwrap().split(' ').next().unwrap();
    let doubled = text.replacen(line, &format!("{line} {first_move}"), 1);
    let err = parse(&doubled).unwrap_err().to_string();
    assert!(err.contains("line 5") && err.contains(first_move), "{err}");
    // A cell off the board.
    let off = text.replacen(line, &format!("{line} z99"), 1);
    let err = parse(&off).unwrap_err().to_string();
    assert!(err.contains("line 5") && err.contains("z99"), "{err}");
    // A description the program does not know.
    let err = parse(&text.replace("havannah size=4", "havannah size=40"))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("line 2: ") && err.contains("size=40"),
        "{err}"
    );
    // A game played by two shards, and shards of different matches.
    let part = || round_trip(&result, &setup);
    let twice = match_file::merge(vec![part(), part()]).unwrap_err();
    assert!(twice.to_string().contains("two shards"), "{twice}");
    let other_setup = Setup::new(5, false, 0).unwrap();
    let other = round_trip(&play(&other_setup, &MatchSettings::new(2)), &other_setup);
    let err = match_file::merge(vec![part(), other])
        .unwrap_err()
        .to_string();
    assert!(err.contains("different matches"), "{err}");
}
