//! Havannah matches on the generic runner: game counts, alternating colours, records that
//! replay, outputs, forfeits.

use std::path::PathBuf;

use game_harness::MatchSettings;
use game_harness::record::{GameRecord, MatchResult};
use game_harness::runner::run_match;
use game_harness::{Agent, Clock, PlayerId};
use havannah::RandomAgent;
use havannah_cli::match_files::{
    Table, kinds, player_of, sgf_result, winner_colour, wins_by_colour, write_outputs,
};
use havannah_cli::match_setup::Setup;
use havannah_rules::{Colour, GameState, Move, Outcome, Record};

/// Plays a match of `settings` on `setup` between `a` and `b`.
fn play(
    a: &mut dyn Agent<GameState>,
    b: &mut dyn Agent<GameState>,
    setup: &Setup,
    settings: &MatchSettings,
) -> MatchResult<GameState> {
    run_match(
        [a, b],
        settings,
        |i| setup.opening(settings.seed, i),
        |_| {},
    )
    .unwrap()
}

/// A board of `size` without the pie rule or an opening.
fn board(size: u8) -> Setup {
    Setup::new(size, false, 0).unwrap()
}

/// A fresh folder under the system temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    std::env::temp_dir().join(format!(
        "havannah-selfplay-{tag}-{}-{nanos}",
        std::process::id()
    ))
}

/// Plays the centre every time: illegal from its second move on.
struct CentreOnly;

impl Agent<GameState> for CentreOnly {
    fn name(&self) -> String {
        "centre".into()
    }
    fn reset(&mut self, _game: &GameState) {}
    fn observe(&mut self, _game: &GameState, _mv: Move) {}
    fn choose(&mut self, game: &GameState, _clock: &Clock) -> Option<Move> {
        Some(Move::Cell(game.board().centre()))
    }
}

/// Never finds a move.
struct Silent;

impl Agent<GameState> for Silent {
    fn name(&self) -> String {
        "silent".into()
    }
    fn reset(&mut self, _game: &GameState) {}
    fn observe(&mut self, _game: &GameState, _mv: Move) {}
    fn choose(&mut self, _game: &GameState, _clock: &Clock) -> Option<Move> {
        None
    }
}

/// Swaps as the second move (even with the pie rule off), otherwise plays randomly; counts the moves it is told about.
struct Swapper {
    random: RandomAgent,
    observed: usize,
    resets: usize,
}

impl Agent<GameState> for Swapper {
    fn name(&self) -> String {
        "swapper".into()
    }
    fn reset(&mut self, _game: &GameState) {
        self.resets += 1;
    }
    fn observe(&mut self, _game: &GameState, _mv: Move) {
        self.observed += 1;
    }
    fn choose(&mut self, game: &GameState, clock: &Clock) -> Option<Move> {
        if game.moves().len() == 1 {
            Some(Move::Swap)
        } else {
            self.random.choose(game, clock)
        }
    }
}

/// Checks game `k` of a finished ten-game match between two random players, A first in
/// the even games: its first player, its outcome and winner, and its move counts and times.
fn check_played_game(k: usize, g: &GameRecord<GameState>) {
    let expected = if k.is_multiple_of(2) {
        PlayerId::A
    } else {
        PlayerId::B
    };
    assert_eq!(g.first_player, expected);
    assert!(g.forfeit.is_none());
    assert!(g.game.outcome().is_over());
    assert_eq!(winner_colour(g), g.game.outcome().winner());
    assert_eq!(kinds(g), g.game.outcome().kinds());
    // Without swap the first player holds White.
    let owner = winner_colour(g).map(|c| {
        if c == Colour::White {
            g.first_player
        } else {
            g.first_player.other()
        }
    });
    assert_eq!(g.winner, owner);
    // Every ply was chosen by one of the players.
    assert_eq!(g.moves_chosen[0] + g.moves_chosen[1], g.plies() as u32);
    // The longest move is at most the total and at least the mean.
    for i in 0..2 {
        let n = g.moves_chosen[i].max(1);
        assert!(g.longest_move[i] <= g.time[i], "{:?}", g.longest_move);
        assert!(g.longest_move[i] >= g.time[i] / n, "{:?}", g.longest_move);
    }
}

/// Checks the longest moves, the scores and the table of a ten-game match on size 4;
/// returns the table.
fn check_totals(result: &MatchResult<GameState>) -> String {
    for p in [PlayerId::A, PlayerId::B] {
        let longest = result.games.iter().map(|g| g.longest_move[p.index()]).max();
        assert_eq!(Some(result.longest_move(p)), longest);
    }
    let score = result.score(PlayerId::A);
    assert_eq!(score.games(), 10);
    let b_score = result.score(PlayerId::B);
    assert_eq!((score.wins, score.draws), (b_score.losses, b_score.draws));
    let (w, bl, d) = wins_by_colour(result);
    assert_eq!(w + bl + d, 10);
    let table = Table {
        result,
        setup: &board(4),
    }
    .to_string();
    assert!(
        table.contains("A = random, B = random; size 4, 10 games, pie rule off"),
        "{table}"
    );
    assert!(table.contains(&format!(
        "{:<18}{:>7}{:>8}{:>8}{:>8}",
        "total", 10, score.wins, score.losses, score.draws
    )));
    assert!(table.contains("Elo A - B: "));
    // Random players do not search: the last line has no simulations to show.
    assert!(
        table.ends_with("\nSimulations a second: A -, B -"),
        "{table}"
    );
    table
}

/// Checks the files written for a ten-game match: the records replay, the SGF lines
/// carry the moves and results, the last game's picture and the results table.
fn check_outputs(result: &MatchResult<GameState>, table: &str) {
    let dir = temp_dir("random");
    let files = write_outputs(result, &board(4), &dir).unwrap();
    let txt = std::fs::read_to_string(&files.games_txt).unwrap();
    let lines: Vec<&str> = txt.lines().collect();
    assert_eq!(lines.len(), 10);
    for (line, g) in lines.iter().zip(&result.games) {
        let record = Record::parse_line(line, 1).unwrap();
        let claimed = record.result.expect("finished games carry their result");
        let replayed = record.replay().unwrap();
        assert_eq!(replayed.moves(), g.moves());
        assert_eq!(replayed.outcome(), g.game.outcome());
        assert_eq!(claimed.winner, winner_colour(g));
        assert_eq!(claimed.kinds, kinds(g));
    }
    let sgf = std::fs::read_to_string(&files.games_sgf).unwrap();
    let sgf_lines: Vec<&str> = sgf.lines().collect();
    assert_eq!(sgf_lines.len(), 10);
    for (line, g) in sgf_lines.iter().zip(&result.games) {
        let record = Record::parse_sgf(line).unwrap();
        assert_eq!(record.moves, g.moves());
        assert!(line.contains(&format!("RE[{}]", sgf_result(g))));
    }
    let svg = std::fs::read_to_string(files.last_game_svg.as_ref().unwrap()).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let last = result.games.last().unwrap();
    assert_eq!(svg.matches("<circle").count(), last.plies());
    assert!(svg.contains("Game 10: "));
    let results = std::fs::read_to_string(&files.results_txt).unwrap();
    assert!(results.starts_with(table));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_match_records_replay_and_outputs_are_written() {
    let mut a = RandomAgent::new(5);
    let mut b = RandomAgent::new(6);
    let mut seen = Vec::new();
    let result = run_match(
        [&mut a, &mut b],
        &MatchSettings::new(10),
        |_| board(4).empty_game(),
        |g| seen.push(g.index),
    )
    .unwrap();
    assert_eq!(result.games.len(), 10);
    assert_eq!(seen, (0..10).collect::<Vec<_>>());
    for (k, g) in result.games.iter().enumerate() {
        check_played_game(k, g);
    }
    let table = check_totals(&result);
    check_outputs(&result, &table);
}

#[test]
fn illegal_moves_forfeit() {
    let mut a = CentreOnly;
    let mut b = RandomAgent::new(1);
    let result = play(&mut a, &mut b, &board(4), &MatchSettings::new(2));
    for g in &result.games {
        let f = g.forfeit.as_ref().expect("the centre player forfeits");
        assert_eq!(f.player, PlayerId::A);
        assert_eq!(f.chosen.as_deref(), Some("d4"));
        assert!(f.reason.contains("d4"), "{}", f.reason);
        assert_eq!(g.winner, Some(PlayerId::B));
        // B's colour: White when B moved first.
        let b_colour = if g.first_player == PlayerId::B {
            Colour::White
        } else {
            Colour::Black
        };
        assert_eq!(winner_colour(g), Some(b_colour));
        assert_eq!(
            sgf_result(g),
            format!("{}+F", if b_colour == Colour::White { 'W' } else { 'B' })
        );
        assert!(!g.game.outcome().is_over());
    }
    // Game 0: A plays d4 first, B answers, A plays d4 again: 2 plies. Game 1: B, A (d4), B, A.
    assert_eq!(result.games[0].plies(), 2);
    let d4 = Move::Cell(result.games[1].game.board().centre());
    let expected = if result.games[1].moves()[0] == d4 {
        1
    } else {
        3
    };
    assert_eq!(result.games[1].plies(), expected);
    assert_eq!(result.score(PlayerId::B).wins, 2);
    assert_eq!(result.forfeits(), 2);

    let dir = temp_dir("forfeit");
    let files = write_outputs(&result, &board(4), &dir).unwrap();
    let results = std::fs::read_to_string(&files.results_txt).unwrap();
    assert!(
        results.contains("Game 1: centre (A) forfeits: d4"),
        "{results}"
    );
    let sgf = std::fs::read_to_string(&files.games_sgf).unwrap();
    assert!(sgf.contains("GC[centre forfeits: d4"));
    // A forfeited game is written as a plain record that still replays.
    let txt = std::fs::read_to_string(&files.games_txt).unwrap();
    for line in txt.lines() {
        let record = Record::parse_line(line, 1).unwrap();
        assert!(record.result.is_none());
        assert!(record.replay().is_ok());
    }
    std::fs::remove_dir_all(&dir).unwrap();

    let mut silent = Silent;
    let mut random = RandomAgent::new(2);
    let result = play(&mut random, &mut silent, &board(3), &MatchSettings::new(2));
    for g in &result.games {
        let f = g.forfeit.as_ref().unwrap();
        assert_eq!((f.player, f.chosen.as_deref()), (PlayerId::B, None));
        assert_eq!(g.winner, Some(PlayerId::A));
    }
}

#[test]
fn swap_changes_the_owner_of_white() {
    let mut a = Swapper {
        random: RandomAgent::new(9),
        observed: 0,
        resets: 0,
    };
    let mut b = RandomAgent::new(10);
    let pie = Setup::new(4, true, 0).unwrap();
    let result = play(&mut a, &mut b, &pie, &MatchSettings::new(6));
    let mut observed = 0;
    for g in &result.games {
        observed += g.plies();
        if g.first_player == PlayerId::B {
            assert!(g.game.swapped());
            assert_eq!(g.game.moves()[1], Move::Swap);
            assert_eq!(player_of(g, Colour::White), PlayerId::A);
        } else {
            assert!(!g.game.swapped());
            assert_eq!(player_of(g, Colour::White), PlayerId::A);
        }
        if let Outcome::Win { winner, .. } = g.game.outcome() {
            assert_eq!(g.winner, Some(player_of(g, *winner)));
        }
    }
    assert_eq!(a.resets, 6);
    assert_eq!(a.observed, observed);
    // With the pie rule off, swapping is an illegal move.
    let result = play(&mut b, &mut a, &board(4), &MatchSettings::new(1));
    let f = result.games[0].forfeit.as_ref().unwrap();
    assert_eq!((f.player, f.chosen.as_deref()), (PlayerId::B, Some("swap")));
}

#[test]
fn random_openings_are_shared_by_pairs() {
    let mut a = RandomAgent::new(1);
    let mut b = RandomAgent::new(2);
    let setup = Setup::new(5, false, 3).unwrap();
    let result = play(&mut a, &mut b, &setup, &MatchSettings::new(4).seed(77));
    let opening = |k: usize| result.games[k].moves()[..3].to_vec();
    assert_eq!(opening(0), opening(1));
    assert_eq!(opening(2), opening(3));
    assert_ne!(opening(0), opening(2));
    // Opening moves are nobody's.
    for g in &result.games {
        assert_eq!(g.moves_chosen[0] + g.moves_chosen[1] + 3, g.plies() as u32);
    }
}

#[test]
fn bad_size_is_an_error_and_no_games_is_fine() {
    let err = Setup::new(14, false, 0).unwrap_err();
    assert!(err.to_string().contains("14"), "{err}");
    let mut a = RandomAgent::new(1);
    let mut b = RandomAgent::new(2);
    let empty = play(&mut a, &mut b, &board(4), &MatchSettings::new(0));
    assert!(empty.games.is_empty());
    let table = Table {
        result: &empty,
        setup: &board(4),
    };
    assert!(table.to_string().contains("0 games"));
    let dir = temp_dir("empty");
    let files = write_outputs(&empty, &board(4), &dir).unwrap();
    assert!(files.last_game_svg.is_none());
    assert_eq!(std::fs::read_to_string(&files.games_txt).unwrap(), "");
    std::fs::remove_dir_all(&dir).unwrap();
}
