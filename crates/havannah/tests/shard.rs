//! Matches in shards: the shards of a match together play the same games as one run, and a
//! shard file reads back to the same result.

use havannah::selfplay::{MatchConfig, MatchResult, PlayerId, run_match};
use havannah::shard::{merge_results, parse_shard, shard_text};
use havannah::{Agent, Engine, EngineConfig, RandomAgent};
use havannah_rules::Move;

fn engine() -> Box<dyn Agent> {
    let config = EngineConfig::best().with_simulations(60).unwrap();
    Box::new(Engine::new(config, 1))
}

/// A match of our engine (60 simulations a move) against the random player.
fn play(config: &MatchConfig) -> MatchResult {
    let mut a = engine();
    let mut b: Box<dyn Agent> = Box::new(RandomAgent::new(2));
    run_match(a.as_mut(), b.as_mut(), config, |_| {}).unwrap()
}

/// What identifies a game: its number, the first player, the winner and the moves.
fn games(result: &MatchResult) -> Vec<(usize, PlayerId, Option<PlayerId>, Vec<Move>)> {
    result
        .games
        .iter()
        .map(|g| {
            (
                g.index,
                g.first_player,
                g.winner_player,
                g.game.moves().to_vec(),
            )
        })
        .collect()
}

#[test]
fn shards_merge_into_the_games_of_one_run() {
    let config = MatchConfig::new(4, 10).opening(1, 5);
    let whole = play(&config);
    let parts: Vec<MatchResult> = (0..3)
        .map(|k| play(&config.shard(format!("{k}/3").parse().unwrap())))
        .collect();
    assert_eq!(parts.iter().map(|p| p.games.len()).sum::<usize>(), 10);
    // Through the file format, as the shards of a cluster run come back.
    let parts = parts
        .iter()
        .map(|p| parse_shard(&shard_text(p)).unwrap())
        .collect();
    let merged = merge_results(parts).unwrap();
    assert_eq!(games(&merged), games(&whole));
    assert_eq!(merged.config, whole.config);
    assert_eq!(
        merged.to_string().lines().nth(1),
        whole.to_string().lines().nth(1)
    );
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
    let result = play(&MatchConfig::new(5, 4).opening(2, 9));
    let back = parse_shard(&shard_text(&result)).unwrap();
    assert_eq!(back.names, result.names);
    assert_eq!(games(&back), games(&result));
    for (x, y) in back.games.iter().zip(&result.games) {
        assert_eq!(x.winner, y.winner);
        assert_eq!(x.kinds, y.kinds);
        assert_eq!(x.moves_chosen, y.moves_chosen);
        assert_eq!(x.time, y.time);
    }
    assert_eq!(back.to_string(), result.to_string());
}

#[test]
fn bad_shard_files_and_merges_are_errors_naming_the_fault() {
    let result = play(&MatchConfig::new(4, 2));
    let text = shard_text(&result);
    assert!(parse_shard("").unwrap_err().contains("version"));
    assert!(
        parse_shard("something else\n")
            .unwrap_err()
            .contains("line 1")
    );
    // An illegal move: the first cell played twice.
    let line = text.lines().nth(3).unwrap();
    let first_move = line.rsplit('\t').next().unwrap().split(' ').next().unwrap();
    let doubled = text.replacen(line, &format!("{line} {first_move}"), 1);
    let err = parse_shard(&doubled).unwrap_err();
    assert!(err.contains("line 4") && err.contains(first_move), "{err}");
    let truncated: String = text.lines().take(3).collect::<Vec<_>>().join("\n") + "\ngame\t0\n";
    assert!(parse_shard(&truncated).unwrap_err().contains("line 4"));
    // A game played by two shards, and shards of different matches.
    let twice = merge_results(vec![result.clone(), result.clone()]).unwrap_err();
    assert!(twice.contains("two shards"), "{twice}");
    let other = play(&MatchConfig::new(5, 2));
    assert!(
        merge_results(vec![result, other])
            .unwrap_err()
            .contains("different matches")
    );
    assert!(merge_results(vec![]).is_err());
}
