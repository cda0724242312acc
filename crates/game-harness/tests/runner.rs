//! The match runner, the records and the shard files over a tiny game: players add 1 or 2 to
//! a count; reaching the goal exactly wins, passing it is a draw.

use std::fmt;
use std::time::Duration;

use game_harness::MatchSettings;
use game_harness::Shard;
use game_harness::match_file::{self, Description, ShardError, ShardFile};
use game_harness::matches::game_seed;
use game_harness::openings::Openings;
use game_harness::record::MatchResult;
use game_harness::runner::{opening_seed, run_match};
use game_harness::stats::Score;
use game_harness::{Agent, AgentFailure, Clock, MatchGame, PlayerId, Side, Verdict};
use game_harness::{Pentanomial, Sprt, SprtDecision};

#[derive(Debug, Clone, PartialEq, Eq)]
struct Count {
    goal: u8,
    moves: Vec<u8>,
}

#[derive(Debug, PartialEq, Eq)]
struct BadMove(String);

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadMove {}

impl Count {
    fn new(goal: u8) -> Count {
        Count {
            goal,
            moves: Vec::new(),
        }
    }

    fn total(&self) -> u8 {
        self.moves.iter().sum()
    }

    /// The program's description of the game, and its inverse.
    fn description(&self) -> Description {
        Description::new("count").with("goal", self.goal)
    }

    fn from_description(description: &Description) -> Result<Count, String> {
        match description.number("goal") {
            Ok(goal) if description.game() == "count" => Ok(Count::new(goal)),
            _ => Err(format!("{:?} is not a count game", description.to_string())),
        }
    }
}

impl MatchGame for Count {
    type Move = u8;
    type Error = BadMove;

    fn moves(&self) -> &[u8] {
        &self.moves
    }

    fn try_play(&mut self, mv: u8) -> Result<(), BadMove> {
        if self.verdict().is_some() {
            return Err(BadMove(format!("move {mv}: the game is over")));
        }
        if !(1..=2).contains(&mv) {
            return Err(BadMove(format!("move {mv} is not 1 or 2")));
        }
        self.moves.push(mv);
        Ok(())
    }

    fn verdict(&self) -> Option<Verdict> {
        let mover = self.side_to_move().other();
        match self.total() {
            t if t == self.goal => Some(Verdict::Win(mover)),
            t if t > self.goal => Some(Verdict::Draw),
            _ => None,
        }
    }

    fn move_name(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, BadMove> {
        text.parse()
            .map_err(|_| BadMove(format!("{text:?} is not a number")))
    }
}

/// What an agent was told: resets (with the moves of the game it was reset to), moves
/// observed, seeds.
#[derive(Debug, Default)]
struct Log {
    resets: Vec<Vec<u8>>,
    observed: usize,
    seeds: Vec<u64>,
}

/// Adds 1 or 2 at random from its seed; logs what it is told; reports `simulations` for
/// every move when set, as a searching agent would.
struct Random {
    name: &'static str,
    state: u64,
    log: Log,
    simulations: Option<u64>,
}

impl Random {
    fn new(name: &'static str) -> Random {
        Random {
            name,
            state: 1,
            log: Log::default(),
            simulations: None,
        }
    }

    /// A random player that reports `simulations` for each of its moves.
    fn searching(name: &'static str, simulations: u64) -> Random {
        Random {
            simulations: Some(simulations),
            ..Random::new(name)
        }
    }
}

impl Agent<Count> for Random {
    fn name(&self) -> String {
        self.name.to_string()
    }
    fn reset(&mut self, game: &Count) {
        self.log.resets.push(game.moves.clone());
    }
    fn observe(&mut self, game: &Count, mv: u8) {
        assert_eq!(game.moves.last(), Some(&mv));
        self.log.observed += 1;
    }
    fn choose(&mut self, _game: &Count, _clock: &Clock) -> Option<u8> {
        // xorshift64
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        Some(1 + (self.state >> 32) as u8 % 2)
    }
    fn reseed(&mut self, seed: u64) {
        self.log.seeds.push(seed);
        self.state = seed | 1;
    }
    fn last_simulations(&self) -> Option<u64> {
        self.simulations
    }
}

/// Plays `mv` every time, with `why` as its failure when `mv` is `None`.
struct Fixed {
    mv: Option<u8>,
    why: Option<&'static str>,
}

impl Agent<Count> for Fixed {
    fn name(&self) -> String {
        "fixed".into()
    }
    fn reset(&mut self, _game: &Count) {}
    fn observe(&mut self, _game: &Count, _mv: u8) {}
    fn choose(&mut self, _game: &Count, _clock: &Clock) -> Option<u8> {
        self.mv
    }
    fn failure(&self) -> Option<AgentFailure> {
        self.why.map(|why| AgentFailure::Program(why.to_string()))
    }
}

/// An opening of game `index`: one forced move of 1 or 2 drawn from the opening seed.
fn opening(seed: u64, index: usize) -> Result<Count, BadMove> {
    opening_to(9, seed, index)
}

/// [`opening`] of a game with this goal.
fn opening_to(goal: u8, seed: u64, index: usize) -> Result<Count, BadMove> {
    let mut game = Count::new(goal);
    game.try_play(1 + (opening_seed(seed, index) % 2) as u8)?;
    Ok(game)
}

fn random_match(settings: &MatchSettings) -> MatchResult<Count> {
    let (mut a, mut b) = (Random::new("alpha"), Random::new("beta"));
    let seed = settings.seed;
    run_match([&mut a, &mut b], settings, |i| opening(seed, i), |_| {}).unwrap()
}

#[test]
fn pairs_share_openings_and_sides_alternate() {
    let (mut a, mut b) = (Random::new("alpha"), Random::new("beta"));
    let settings = MatchSettings::new(8).seed(12);
    let mut seen = Vec::new();
    let result = run_match(
        [&mut a, &mut b],
        &settings,
        |i| opening(12, i),
        |g| seen.push(g.index),
    )
    .unwrap();
    assert_eq!(seen, (0..8).collect::<Vec<_>>());
    assert_eq!(result.names, ["alpha".to_string(), "beta".to_string()]);
    for (i, g) in result.games.iter().enumerate() {
        let first = if i % 2 == 0 { PlayerId::A } else { PlayerId::B };
        assert_eq!(g.first_player, first);
        assert_eq!(g.player_on(Side::First), first);
        assert_eq!(g.side_of(first.other()), Side::Second);
        // The game ended on the board; the winner is the player of the winning side.
        assert_eq!(g.game.verdict(), Some(g.verdict));
        assert_eq!(g.winner, g.verdict.winner().map(|s| g.player_on(s)));
        // The opening's move is nobody's.
        assert_eq!(g.moves_chosen[0] + g.moves_chosen[1] + 1, g.plies() as u32);
        assert_eq!(g.moves()[0], opening(12, i).unwrap().moves[0]);
    }
    // Both games of a pair start from the same opening, and both agents were reset to it.
    for pair in a.log.resets.chunks(2) {
        assert_eq!(pair[0], pair[1]);
    }
    assert_eq!(a.log.resets, b.log.resets);
    assert_eq!(a.log.resets.len(), 8);
    // Each agent is reseeded before every game with its seed of that game.
    let seeds: Vec<u64> = (0..8).map(|g| game_seed(12, g, 0)).collect();
    assert_eq!(a.log.seeds, seeds);
    assert_eq!(b.log.seeds[3], game_seed(12, 3, 1));
    // Both agents are told every move the players chose.
    let chosen: usize = result.games.iter().map(|g| g.plies() - 1).sum();
    assert_eq!((a.log.observed, b.log.observed), (chosen, chosen));
    assert_eq!(opening_seed(12, 6), opening_seed(12, 7));
    assert_eq!(
        opening_seed(12, 6),
        12 ^ 3u64.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    );
}

#[test]
fn an_illegal_move_or_no_move_forfeits() {
    let mut random = Random::new("alpha");
    let mut illegal = Fixed {
        mv: Some(3),
        why: None,
    };
    let settings = MatchSettings::new(2);
    let result = run_match(
        [&mut random, &mut illegal],
        &settings,
        |_| Ok::<_, BadMove>(Count::new(9)),
        |_| {},
    )
    .unwrap();
    assert_eq!(result.forfeits(), 2);
    for g in &result.games {
        let f = g.forfeit.as_ref().unwrap();
        assert_eq!(f.player, PlayerId::B);
        assert_eq!(f.chosen.as_deref(), Some("3"));
        assert_eq!(f.reason, "move 3 is not 1 or 2");
        assert_eq!(g.winner, Some(PlayerId::A));
        assert_eq!(g.verdict, Verdict::Win(g.side_of(PlayerId::A)));
        // The game stops before the rejected move.
        assert_eq!(g.game.verdict(), None);
        assert!(!g.moves().contains(&3));
    }
    // B moved first in game 1: the forfeit is its first move.
    assert_eq!(result.games[1].plies(), 0);
    assert_eq!(result.games[1].verdict, Verdict::Win(Side::Second));
    assert_eq!(result.score(PlayerId::A).wins, 2);

    for (why, reason) in [
        (Some("it crashed"), "chose no move: it crashed"),
        (None, "chose no move while the game goes on"),
    ] {
        let mut silent = Fixed { mv: None, why };
        let result = run_match(
            [&mut silent, &mut random],
            &MatchSettings::new(1),
            |_| Ok::<_, BadMove>(Count::new(9)),
            |_| {},
        )
        .unwrap();
        let f = result.games[0].forfeit.as_ref().unwrap();
        assert_eq!((f.player, f.chosen.as_deref()), (PlayerId::A, None));
        assert_eq!(f.reason, reason);
        assert_eq!(result.games[0].winner, Some(PlayerId::B));
    }
}

#[test]
fn an_opening_error_stops_the_match() {
    let (mut a, mut b) = (Random::new("alpha"), Random::new("beta"));
    let mut played = 0;
    let err = run_match(
        [&mut a, &mut b],
        &MatchSettings::new(6),
        |i| {
            if i < 3 {
                Ok(Count::new(5))
            } else {
                Err(format!("no opening for game {i}"))
            }
        },
        |_| played += 1,
    )
    .unwrap_err();
    assert_eq!(err, "no opening for game 3");
    assert_eq!(played, 3);
}

#[test]
fn the_results_table() {
    let result = random_match(&MatchSettings::new(10).seed(4));
    let table = result.to_string();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines[0], "Match: A = alpha, B = beta; 10 games");
    let (first, second, draws) = result.wins_by_side();
    assert_eq!(first + second + draws, 10);
    let share = f64::from(2 * first + draws) / 20.0;
    assert!(
        lines[5].starts_with(&format!(
            "First side: won {first}/10, share {:.1}% [",
            100.0 * share
        )),
        "{table}"
    );
    assert!(
        lines[5].ends_with(&format!(
            "(draws count half); second side won {second}, draws {draws}"
        )),
        "{table}"
    );
    assert_eq!(lines[6], "Forfeits: 0");
    let plies: usize = result.games.iter().map(|g| g.plies()).sum();
    assert_eq!(
        lines[7],
        format!("Mean game length: {:.1} plies", plies as f64 / 10.0)
    );
    assert!(lines[8].starts_with("Score of A: "), "{table}");
    assert!(lines[9].starts_with("Elo A - B: "), "{table}");
    // The same match by its 5 pairs.
    let pairs = result.pentanomial();
    assert_eq!(pairs.pairs(), 5);
    assert_eq!(lines[10], pairs.to_string());
    assert!(lines[11].starts_with("Score of A by pairs: "), "{table}");
    assert!(lines[11].ends_with("(5 pairs)"), "{table}");
    assert!(lines[12].starts_with("Mean time per move: A "), "{table}");
    // Random players do not search: no simulations to report.
    assert_eq!(lines[13], "Simulations a second: A -, B -");
    assert_eq!(lines.len(), 14);
    let a = result.score(PlayerId::A);
    assert_eq!(
        lines[4],
        format!(
            "{:<18}{:>7}{:>8}{:>8}{:>8}",
            "total", 10, a.wins, a.losses, a.draws
        )
    );
    let empty = random_match(&MatchSettings::new(0));
    assert!(
        empty
            .to_string()
            .contains("First side: won 0/0, share 50.0% [0.0%, 100.0%]")
    );
}

/// What identifies a game: number, first player, winner, verdict, forfeit and moves.
type GameKey = (usize, PlayerId, Option<PlayerId>, Verdict, bool, Vec<u8>);

fn keys(result: &MatchResult<Count>) -> Vec<GameKey> {
    result
        .games
        .iter()
        .map(|g| {
            (
                g.index,
                g.first_player,
                g.winner,
                g.verdict,
                g.forfeit.is_some(),
                g.game.moves.clone(),
            )
        })
        .collect()
}

fn round_trip(result: &MatchResult<Count>) -> ShardFile<Count> {
    let text = match_file::text(result, &Count::new(9).description());
    match_file::parse(&text, Count::from_description).unwrap()
}

#[test]
fn shards_round_trip_and_merge_into_one_run() {
    let clock = Clock {
        per_move: Some(Duration::from_millis(250)),
        remaining: Some(Duration::from_secs(90)),
        moves_to_go: Some(7),
    };
    let settings = MatchSettings::new(11).seed(31).clock(clock);
    let whole = random_match(&settings);
    let back = round_trip(&whole);
    assert_eq!(back.description.to_string(), "count goal=9");
    assert_eq!(back.result.names, whole.names);
    assert_eq!(back.result.settings, settings);
    assert_eq!(keys(&back.result), keys(&whole));
    for (x, y) in back.result.games.iter().zip(&whole.games) {
        assert_eq!(
            (x.time, x.moves_chosen, x.longest_move),
            (y.time, y.moves_chosen, y.longest_move)
        );
        assert_eq!(
            (x.simulations, x.search_time),
            (y.simulations, y.search_time)
        );
    }
    assert_eq!(back.result.to_string(), whole.to_string());

    let parts: Vec<ShardFile<Count>> = (0..3)
        .map(|k| round_trip(&random_match(&settings.shard(Shard { index: k, count: 3 }))))
        .collect();
    assert_eq!(parts[1].result.settings.shard.to_string(), "1/3");
    let merged = match_file::merge(parts).unwrap();
    assert_eq!(keys(&merged.result), keys(&whole));
    assert_eq!(merged.result.settings, settings);
    // The games differ: the agents are reseeded per game, not restarted alike.
    let distinct: std::collections::HashSet<Vec<u8>> =
        whole.games.iter().map(|g| g.game.moves.clone()).collect();
    assert!(distinct.len() > 3, "{distinct:?}");

    // Forfeits survive the trip, with `|` and tabs in the reason.
    let mut random = Random::new("alpha");
    let mut silent = Fixed {
        mv: None,
        why: Some("a|b\tc"),
    };
    let lost = run_match(
        [&mut random, &mut silent],
        &MatchSettings::new(2),
        |_| Ok::<_, BadMove>(Count::new(9)),
        |_| {},
    )
    .unwrap();
    let back = round_trip(&lost);
    let f = back.result.games[0].forfeit.as_ref().unwrap();
    assert_eq!((f.player, f.chosen.as_deref()), (PlayerId::B, None));
    assert_eq!(f.reason, "chose no move: a/b c");
    assert_eq!(keys(&back.result), keys(&lost));
}

#[test]
fn merge_dirs_reads_each_folder_and_joins_the_parts() {
    let settings = MatchSettings::new(6).seed(8);
    let whole = random_match(&settings);
    let root = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("merge-dirs");
    let _ = std::fs::remove_dir_all(&root);
    let dirs: Vec<_> = (0..2).map(|k| root.join(format!("part{k}"))).collect();
    for (k, dir) in dirs.iter().enumerate() {
        let part = random_match(&settings.shard(Shard { index: k, count: 2 }));
        match_file::write(&part, &Count::new(9).description(), dir).unwrap();
    }
    let merged = match_file::merge_dirs(&dirs, Count::from_description).unwrap();
    assert_eq!(keys(&merged.result), keys(&whole));
    let missing = match_file::merge_dirs(&[root.join("none")], Count::from_description)
        .unwrap_err()
        .to_string();
    assert!(missing.contains("none"), "{missing}");
}

#[test]
fn runs_with_different_seeds_pool_into_one_row() {
    // Seed 9 in two parts, seed 4 whole: pooled in increasing order of seed, seed 9's games
    // numbered after seed 4's six.
    let (four, nine) = (MatchSettings::new(6).seed(4), MatchSettings::new(6).seed(9));
    let parts: Vec<ShardFile<Count>> = vec![
        round_trip(&random_match(&nine.shard(Shard { index: 1, count: 2 }))),
        round_trip(&random_match(&four)),
        round_trip(&random_match(&nine.shard(Shard { index: 0, count: 2 }))),
    ];
    let pooled = match_file::pool(parts).unwrap();
    assert_eq!(pooled.seeds, [4, 9]);
    let mut expected = keys(&random_match(&four));
    expected.extend(keys(&random_match(&nine)).into_iter().map(|mut k| {
        k.0 += 6;
        k
    }));
    assert_eq!(keys(&pooled.file.result), expected);
    assert_eq!(pooled.file.result.settings.games, 12);
    assert_eq!(pooled.file.result.settings.seed, 4);
    assert_eq!(pooled.file.result.games.len(), 12);

    // One seed: what `merge` gives.
    let one = match_file::pool(vec![round_trip(&random_match(&four))]).unwrap();
    assert_eq!(one.seeds, [4]);
    assert_eq!(keys(&one.file.result), keys(&random_match(&four)));

    // Runs that differ in more than the seed are refused, naming what differs.
    let mut renamed = round_trip(&random_match(&nine));
    renamed.result.names[1] = "gamma".into();
    let longer = round_trip(&random_match(&MatchSettings::new(8).seed(9)));
    for (other, differs) in [(longer, "settings"), (renamed, "players")] {
        let err = match_file::pool(vec![round_trip(&random_match(&four)), other]).unwrap_err();
        let what = match &err {
            ShardError::Mismatch { what, .. } => *what,
            _ => "",
        };
        assert_eq!(what, differs, "{err}");
    }
    assert!(matches!(
        match_file::pool::<Count>(vec![]),
        Err(ShardError::NoShards)
    ));
}

/// The shard text of a two-game match between random players.
fn small_text() -> String {
    match_file::text(
        &random_match(&MatchSettings::new(2).seed(5)),
        &Count::new(9).description(),
    )
}

fn parse_err(text: &str) -> String {
    match_file::parse(text, Count::from_description)
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_shard_files_are_errors_naming_line_and_field() {
    let text = small_text();
    assert_eq!(parse_err(""), "the file ends before the version line");
    assert!(parse_err("havannah-match\t1\n").starts_with("line 1: "));
    let lines: Vec<&str> = text.lines().collect();
    assert!(parse_err(&lines[..3].join("\n")).contains("settings line"));
    // The program refuses the description.
    let err = parse_err(&text.replace("count goal=9", "chess"));
    assert!(
        err.starts_with("line 2: ") && err.contains("\"chess\" is not a count game"),
        "{err}"
    );
    // A bad field.
    let line = lines[4];
    let fields: Vec<&str> = line.split('\t').collect();
    let bad_first = text.replacen(&format!("game\t0\t{}\t", fields[2]), "game\t0\tC\t", 1);
    let err = parse_err(&bad_first);
    assert_eq!(err, "line 5: first player \"C\" is not A or B");
    let err = parse_err(&text.replacen("game\t0\t", "game\t7\t", 1));
    assert!(err.starts_with("line 5: game number \"7\""), "{err}");
    // A move that is not legal.
    let with_three = text.replacen(line, &format!("{line} 3"), 1);
    let err = parse_err(&with_three);
    assert!(err.starts_with("line 5: move \"3\": "), "{err}");
    // Moves that do not end the way the line says.
    let other = if fields[4] == "draw" { "first" } else { "draw" };
    let winner = if other == "draw" {
        "-".to_string()
    } else {
        fields[2].to_string()
    };
    let relabelled = format!(
        "game\t0\t{}\t{winner}\t{other}\t{}",
        fields[2],
        fields[5..].join("\t")
    );
    let err = parse_err(&text.replacen(line, &relabelled, 1));
    assert!(err.starts_with("line 5: the line says "), "{err}");
    let err = parse_err(&text.replacen(line, &format!("{line}\textra"), 1));
    assert!(err.contains("a game line of 17 fields"), "{err}");
    // A file that cannot be read names the file.
    let missing = std::path::Path::new("/nonexistent/match.tsv");
    let err = match_file::read(missing, Count::from_description).unwrap_err();
    assert!(matches!(err, ShardError::Io { .. }));
    assert!(
        err.to_string().starts_with("/nonexistent/match.tsv: "),
        "{err}"
    );
}

#[test]
fn shards_of_different_matches_or_the_same_games_do_not_merge() {
    let part = |seed: u64, goal: u8, names: [&'static str; 2]| {
        let (mut a, mut b) = (Random::new(names[0]), Random::new(names[1]));
        let result = run_match(
            [&mut a, &mut b],
            &MatchSettings::new(4)
                .seed(seed)
                .shard("0/2".parse().unwrap()),
            |i| opening_to(goal, seed, i),
            |_| {},
        )
        .unwrap();
        let description = Count::new(goal).description();
        match_file::parse(
            &match_file::text(&result, &description),
            Count::from_description,
        )
        .unwrap()
    };
    let one = || part(1, 9, ["alpha", "beta"]);
    assert!(matches!(
        match_file::merge::<Count>(vec![]),
        Err(ShardError::NoShards)
    ));
    let twice = match_file::merge(vec![one(), one()]).unwrap_err();
    assert_eq!(twice.to_string(), "game 1 is in two shards");
    let err = match_file::merge(vec![one(), part(1, 8, ["alpha", "beta"])]).unwrap_err();
    assert!(
        err.to_string().contains("different matches: descriptions"),
        "{err}"
    );
    let err = match_file::merge(vec![one(), part(1, 9, ["alpha", "gamma"])]).unwrap_err();
    assert!(
        err.to_string().contains("different matches: players"),
        "{err}"
    );
    let err = match_file::merge(vec![one(), part(2, 9, ["alpha", "beta"])]).unwrap_err();
    assert!(
        err.to_string().contains("different matches: settings"),
        "{err}"
    );
    assert!(err.to_string().contains("seed: 2"), "{err}");
}

#[test]
fn a_shard_file_is_written_into_its_folder() {
    let dir = std::env::temp_dir().join(format!("game-harness-shard-{}", std::process::id()));
    let result = random_match(&MatchSettings::new(3).seed(2));
    match_file::write(&result, &Count::new(9).description(), &dir).unwrap();
    let path = dir.join(match_file::SHARD_FILE);
    let back = match_file::read(&path, Count::from_description).unwrap();
    assert_eq!(keys(&back.result), keys(&result));
    std::fs::write(&path, "nonsense\n").unwrap();
    let err = match_file::read(&path, Count::from_description).unwrap_err();
    assert!(err.to_string().contains("match.tsv: line 1: "), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A suite of three openings of the count to 9, with a comment, a blank line and spaces.
fn suite() -> Openings<Count> {
    let text = "# a suite of three\n1 1 # one\n\n  2 2 2  \n2\n";
    Openings::parse(text, &Count::new(9), "count.txt").unwrap()
}

#[test]
fn openings_files_parse_and_errors_name_the_line_and_the_move() {
    let s = suite();
    assert_eq!(s.len(), 3);
    assert_eq!(s.games(), 6);
    let lines: Vec<usize> = s.openings().iter().map(|o| o.line).collect();
    assert_eq!(lines, [2, 4, 5]);
    assert_eq!(s.openings()[0].comment, "one");
    assert_eq!(s.openings()[1].game.moves, [2, 2, 2]);
    let err = |text: &str| {
        Openings::parse(text, &Count::new(5), "f.txt")
            .unwrap_err()
            .to_string()
    };
    let e = err("1\n\n1 x 2\n");
    assert!(
        e.starts_with("f.txt line 3: move \"x\" of opening \"1 x 2\""),
        "{e}"
    );
    assert!(e.contains("\"x\" is not a number"), "{e}");
    let e = err("2 7\n");
    assert!(e.starts_with("f.txt line 1: move \"7\""), "{e}");
    assert!(e.contains("move 7 is not 1 or 2"), "{e}");
    // 2 + 2 + 1 reaches the goal 5: nothing left to play.
    let e = err("1\n2 2 1 # over\n");
    assert_eq!(e, "f.txt line 2: opening \"2 2 1\" ends the game");
    assert_eq!(
        err("# nothing\n\n"),
        "the openings file f.txt holds no opening"
    );
    let missing = Openings::read(
        std::path::Path::new("/no/such/openings.txt"),
        &Count::new(5),
    );
    assert!(
        missing
            .unwrap_err()
            .to_string()
            .starts_with("cannot read the openings file /no/such/openings.txt: ")
    );
}

#[test]
fn a_match_over_a_suite_plays_each_opening_once_with_each_player_first() {
    let s = suite();
    let (mut a, mut b) = (Random::new("alpha"), Random::new("beta"));
    let result = run_match(
        [&mut a, &mut b],
        &MatchSettings::new(8).seed(3),
        |i| Ok::<_, BadMove>(s.game(i)),
        |_| {},
    )
    .unwrap();
    let starts: Vec<Vec<u8>> = a.log.resets.clone();
    let want: [&[u8]; 8] = [
        &[1, 1],
        &[1, 1],
        &[2, 2, 2],
        &[2, 2, 2],
        &[2],
        &[2],
        &[1, 1],
        &[1, 1],
    ];
    assert_eq!(starts, want);
    assert_eq!(b.log.resets, a.log.resets);
    for (i, g) in result.games.iter().enumerate() {
        assert!(g.game.moves.starts_with(want[i]), "game {i}");
    }
}

#[test]
fn the_first_sides_share_is_counted_by_side_not_by_player() {
    // Both players add 1, so the opening alone decides which side reaches 9.
    let play = |openings: &str, games: usize| {
        let s = Openings::parse(openings, &Count::new(9), "x").unwrap();
        let mut a = Fixed {
            mv: Some(1),
            why: None,
        };
        let mut b = Fixed {
            mv: Some(1),
            why: None,
        };
        run_match(
            [&mut a, &mut b],
            &MatchSettings::new(games),
            |i| Ok::<_, BadMove>(s.game(i)),
            |_| {},
        )
        .unwrap()
    };
    // Total 6, the second side to move adds 1 (7), the first 1 (8), the second 1 (9): the
    // second side wins every game, whoever plays it.
    let result = play("2 2 2\n2 2 2\n", 4);
    assert_eq!(result.wins_by_side(), (0, 4, 0));
    assert_eq!(result.first_side_score(), Score::new(0, 4, 0));
    assert_eq!(result.score(PlayerId::A), Score::new(2, 2, 0));
    let line = result.sides_line();
    assert!(
        line.starts_with("First side: won 0/4, share 0.0% [0.0%, 49.0%]"),
        "{line}"
    );
    // From `2 2`, total 4: the first side adds 1 (5), ..., and reaches 9 at its third move.
    let result = play("2 2\n", 2);
    assert_eq!(result.first_side_score(), Score::new(2, 0, 0));
    assert!(
        result
            .sides_line()
            .starts_with("First side: won 2/2, share 100.0% [")
    );
}

#[test]
fn an_sprt_stops_the_match_at_a_decision_on_a_pair() {
    // B plays an illegal move every time, so A wins every game: every pair is WW.
    let (mut random, mut illegal) = (
        Random::new("alpha"),
        Fixed {
            mv: Some(3),
            why: None,
        },
    );
    let sprt: Sprt = "0,30".parse().unwrap();
    let settings = MatchSettings::new(400).sprt(sprt);
    let result = run_match(
        [&mut random, &mut illegal],
        &settings,
        |_| Ok::<_, BadMove>(Count::new(9)),
        |_| {},
    )
    .unwrap();
    let played = result.games.len();
    assert!(played < 100 && played.is_multiple_of(2), "{played} games");
    let status = result.sprt_status().unwrap();
    assert_eq!(status.decision, Some(SprtDecision::H1));
    // One pair fewer had not decided yet: the match stopped at the first decision.
    let before = Pentanomial::new([0, 0, 0, 0, result.pentanomial().pairs() - 1]);
    assert_eq!(sprt.status(&before).decision, None);
    let table = result.to_string();
    assert!(
        table.contains(&format!(
            "Pairs (LL, LD, DD+WL, WD, WW): 0, 0, 0, 0, {}",
            played / 2
        )),
        "{table}"
    );
    assert!(table.contains("H1 accepted"), "{table}");
    // Without the test every game is played.
    let all = run_match(
        [&mut random, &mut illegal],
        &MatchSettings::new(40),
        |_| Ok::<_, BadMove>(Count::new(9)),
        |_| {},
    )
    .unwrap();
    assert_eq!(all.games.len(), 40);
    assert!(all.sprt_status().is_none());
}

/// A match between a player reporting `simulations` a move (A) and one that reports none (B).
fn searching_match(settings: &MatchSettings, simulations: u64) -> MatchResult<Count> {
    let (mut a, mut b) = (
        Random::searching("search", simulations),
        Random::new("beta"),
    );
    let seed = settings.seed;
    run_match([&mut a, &mut b], settings, |i| opening(seed, i), |_| {}).unwrap()
}

#[test]
fn reported_simulations_are_summed_per_player_with_their_moves_time() {
    let result = searching_match(&MatchSettings::new(6).seed(3), 1_500);
    for g in &result.games {
        // Every move of A reported 1,500 simulations and counts its time; B reported none.
        assert_eq!(g.simulations, [1_500 * u64::from(g.moves_chosen[0]), 0]);
        assert_eq!(g.search_time, [g.time[0], Duration::ZERO]);
    }
    let (simulations, time) = result.search_used(PlayerId::A);
    let moves = result.time_used(PlayerId::A).1;
    assert_eq!(simulations, 1_500 * moves);
    assert_eq!(time, result.time_used(PlayerId::A).0);
    let rate = result.simulations_per_second(PlayerId::A).unwrap();
    assert!(
        (rate - simulations as f64 / time.as_secs_f64()).abs() <= 1e-6 * rate,
        "{rate}"
    );
    assert_eq!(result.simulations_per_second(PlayerId::B), None);
    assert_eq!(result.search_used(PlayerId::B), (0, Duration::ZERO));

    // The line follows the time line, the rate rounded with thousands separators.
    let table = result.to_string();
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("Mean time per move: A "));
    assert_eq!(lines[lines.len() - 1], result.simulations_line());
    assert!(
        lines[lines.len() - 1].starts_with("Simulations a second: A ")
            && lines[lines.len() - 1].ends_with(", B -"),
        "{table}"
    );
    let mut fixed = result.clone();
    for g in &mut fixed.games {
        g.simulations = [0, 0];
        g.search_time = [Duration::ZERO; 2];
    }
    fixed.games[0].simulations = [4_000_000, 0];
    fixed.games[0].search_time = [Duration::from_secs(2), Duration::ZERO];
    fixed.games[1].simulations = [561_234, 30];
    fixed.games[1].search_time = [Duration::from_millis(500), Duration::from_secs(3)];
    assert_eq!(
        fixed.simulations_per_second(PlayerId::A),
        Some(4_561_234.0 / 2.5)
    );
    assert_eq!(fixed.simulations_per_second(PlayerId::B), Some(10.0));
    assert_eq!(
        fixed.simulations_line(),
        "Simulations a second: A 1,824,494, B 10"
    );
    assert!(
        fixed
            .to_string()
            .ends_with("\nSimulations a second: A 1,824,494, B 10")
    );

    // A boxed agent reports what the agent in the box reports.
    let boxed: Box<dyn Agent<Count>> = Box::new(Random::searching("boxed", 7));
    assert_eq!(boxed.last_simulations(), Some(7));
    assert_eq!(
        Fixed {
            mv: Some(1),
            why: None
        }
        .last_simulations(),
        None
    );
}

#[test]
fn simulations_survive_the_shard_file_and_the_merge() {
    let settings = MatchSettings::new(6).seed(21);
    let whole = searching_match(&settings, 250);
    let text = match_file::text(&whole, &Count::new(9).description());
    assert!(text.starts_with("game-harness-match\t2\n"), "{text}");
    // Game lines: ..., longest A, longest B, simulations A, simulations B, search time A,
    // search time B, forfeit, moves.
    let g = &whole.games[0];
    let line = text.lines().nth(4).unwrap();
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields.len(), 17, "{line}");
    let search = [
        g.simulations[0].to_string(),
        g.simulations[1].to_string(),
        g.search_time[0].as_nanos().to_string(),
        g.search_time[1].as_nanos().to_string(),
    ];
    assert_eq!(fields[11..15], search, "{line}");
    assert_eq!(fields[15], "-");

    let back = round_trip(&whole);
    for (x, y) in back.result.games.iter().zip(&whole.games) {
        assert_eq!(
            (x.simulations, x.search_time),
            (y.simulations, y.search_time)
        );
    }
    assert_eq!(back.result.simulations_line(), whole.simulations_line());

    // Shards played apart merge into the whole match's simulations (the games are the same;
    // the times are not).
    let parts: Vec<ShardFile<Count>> = (0..2)
        .map(|k| {
            let shard = settings.shard(Shard { index: k, count: 2 });
            round_trip(&searching_match(&shard, 250))
        })
        .collect();
    let merged = match_file::merge(parts).unwrap();
    assert_eq!(keys(&merged.result), keys(&whole));
    let sims = |r: &MatchResult<Count>| r.games.iter().map(|g| g.simulations).collect::<Vec<_>>();
    assert_eq!(sims(&merged.result), sims(&whole));
    assert!(merged.result.simulations_per_second(PlayerId::A).is_some());
    assert_eq!(merged.result.simulations_per_second(PlayerId::B), None);
    for g in &merged.result.games {
        assert_eq!(g.search_time[0], g.time[0]);
    }
}

/// `text` as version 1 wrote it: the old version line, and game lines without the four
/// search fields.
fn as_version_1(text: &str) -> String {
    text.lines()
        .map(|line| {
            if line == "game-harness-match\t2" {
                "game-harness-match\t1".to_string()
            } else if line.starts_with("game\t") {
                let fields: Vec<&str> = line.split('\t').collect();
                [&fields[..11], &fields[15..]].concat().join("\t")
            } else {
                line.to_string()
            }
        })
        .map(|line| line + "\n")
        .collect()
}

#[test]
fn a_version_1_file_reads_without_simulations() {
    let result = searching_match(&MatchSettings::new(4).seed(5), 100);
    let description = Count::new(9).description();
    let text = match_file::text(&result, &description);
    let old = as_version_1(&text);
    assert!(old.starts_with("game-harness-match\t1\n"), "{old}");
    let line = old.lines().nth(4).unwrap();
    assert_eq!(line.split('\t').count(), 13, "{line}");
    let back = match_file::parse(&old, Count::from_description).unwrap();
    assert_eq!(keys(&back.result), keys(&result));
    for (x, y) in back.result.games.iter().zip(&result.games) {
        assert_eq!(
            (x.time, x.moves_chosen, x.longest_move),
            (y.time, y.moves_chosen, y.longest_move)
        );
        assert_eq!(
            (x.simulations, x.search_time),
            ([0; 2], [Duration::ZERO; 2])
        );
    }
    assert_eq!(back.result.simulations_per_second(PlayerId::A), None);
    assert!(
        back.result
            .to_string()
            .ends_with("\nSimulations a second: A -, B -")
    );
    // Written again, it is version 2 with zeros; a version 1 file merges with a version 2 one.
    let again = match_file::text(&back.result, &description);
    assert!(again.starts_with("game-harness-match\t2\n"), "{again}");
    assert!(again.lines().nth(4).unwrap().contains("\t0\t0\t0\t0\t"));
    let other = searching_match(
        &MatchSettings::new(4).seed(5).shard("1/2".parse().unwrap()),
        100,
    );
    let old_part = as_version_1(&match_file::text(
        &searching_match(
            &MatchSettings::new(4).seed(5).shard("0/2".parse().unwrap()),
            100,
        ),
        &description,
    ));
    let merged = match_file::merge(vec![
        match_file::parse(&old_part, Count::from_description).unwrap(),
        round_trip(&other),
    ])
    .unwrap();
    assert_eq!(
        merged.result.search_used(PlayerId::A),
        other.search_used(PlayerId::A)
    );

    // Each version has its own number of fields.
    let long_in_1 = text.replacen("game-harness-match\t2", "game-harness-match\t1", 1);
    assert!(parse_err(&long_in_1).contains("a game line of 13 fields"));
    let short_in_2 = old.replacen("game-harness-match\t1", "game-harness-match\t2", 1);
    assert!(parse_err(&short_in_2).contains("a game line of 17 fields"));
    let err = parse_err(&text.replacen("game-harness-match\t2", "game-harness-match\t3", 1));
    assert!(err.starts_with("line 1: "), "{err}");
    // A bad simulation count names its field.
    let line = text.lines().nth(4).unwrap();
    let mut fields: Vec<&str> = line.split('\t').collect();
    fields[11] = "many";
    let err = parse_err(&text.replacen(line, &fields.join("\t"), 1));
    assert_eq!(err, "line 5: simulations of A \"many\" is not a number");
}
