use super::*;
use game_harness::{Clock, ErrorOutput, MatchGame};

use crate::rules::{GAME_MOVES, Move, RED};

/// Puts its lowest stone on the first empty cell (or the last, for `last`).
struct Sweeper {
    last: bool,
}

impl Agent<BlackholeGame> for Sweeper {
    fn name(&self) -> String {
        format!("sweeper last={}", self.last)
    }
    fn reset(&mut self, _game: &BlackholeGame) {}
    fn observe(&mut self, _game: &BlackholeGame, _mv: Move) {}
    fn choose(&mut self, game: &BlackholeGame, _clock: &Clock) -> Option<Move> {
        let pos = game.position();
        let mut empty = Cell::all().filter(|c| pos.empty() & (1 << c.index()) != 0);
        let cell = if self.last {
            empty.last()
        } else {
            empty.next()
        }?;
        Some(Move::new(cell, pos.lowest_stone(pos.mover())))
    }
}

#[test]
fn the_mean_score_has_its_standard_error() {
    let (mean, se) = mean_and_error(&[80, 70, 75]);
    assert!((mean - 75.0).abs() < 1e-9);
    // sd = 5, se = 5 / sqrt(3)
    assert!((se - 5.0 / 3f64.sqrt()).abs() < 1e-9);
    assert_eq!(mean_and_error(&[90]), (90.0, 0.0));
    assert_eq!(mean_and_error(&[]), (0.0, 0.0));
}

#[test]
fn the_report_names_scores_results_forfeits_and_times() {
    let mut tally = Tally::default();
    tally.add(PlayerId::A, Some(PlayerId::A));
    tally.add(PlayerId::B, Some(PlayerId::B));
    tally.add(PlayerId::A, None);
    let summary = ScoreSummary {
        scores: vec![80, 70, 75],
        tally,
        forfeits: [0, 1],
        think_total: [Duration::from_millis(30), Duration::from_millis(50)],
        think_max: [Duration::from_millis(10), Duration::from_millis(20)],
    };
    let report = summary.to_string();
    assert!(
        report.starts_with("games: 3\nA mean score: 75.00 +- 2.89"),
        "{report}"
    );
    assert!(
        report.contains("A wins/draws/losses: 1/1/1\nScore of A: 50.0% ["),
        "{report}"
    );
    assert!(report.contains("forfeits: A 0, B 1"), "{report}");
    assert!(
        report.contains("thinking time B: mean 0.017 s per game, max 0.020 s"),
        "{report}"
    );
}

#[test]
fn a_match_pairs_the_cells_and_swaps_the_colours() {
    let (mut a, mut b) = (Sweeper { last: false }, Sweeper { last: true });
    let mut seen = Vec::new();
    let result = play_match(&mut a, &mut b, 0..4, 9, |r| seen.push(r.index)).unwrap();
    assert_eq!(seen, [0, 1, 2, 3]);
    assert_eq!(result.names, ["sweeper last=false", "sweeper last=true"]);
    for (g, record) in result.games.iter().enumerate() {
        assert_eq!(record.index, g);
        assert_eq!(record.game.blocked(), match_blocked(9, g));
        assert_eq!(record.plies(), usize::from(GAME_MOVES));
        assert!(record.forfeit.is_none());
        let red = if g % 2 == 0 { PlayerId::A } else { PlayerId::B };
        assert_eq!(record.first_player, red);
        assert_eq!(
            score_of(record, red),
            record.game.red_score().unwrap(),
            "game {g}"
        );
    }
    let summary = ScoreSummary::of_match(&result);
    assert_eq!(summary.scores.len(), 4);
    assert_eq!(summary.tally, result.tally());
    assert_eq!(summary.forfeits, [0, 0]);
}

#[test]
fn a_resumed_match_plays_the_games_of_the_unbroken_one() {
    let whole = {
        let (mut a, mut b) = (Sweeper { last: false }, Sweeper { last: true });
        play_match(&mut a, &mut b, 0..5, 4, |_| {}).unwrap()
    };
    let (mut a, mut b) = (Sweeper { last: false }, Sweeper { last: true });
    let mut seen = Vec::new();
    let rest = play_match(&mut a, &mut b, 3..5, 4, |r| {
        seen.push((r.index, r.first_player));
    })
    .unwrap();
    assert_eq!(seen, [(3, PlayerId::B), (4, PlayerId::A)]);
    assert_eq!(rest.names, whole.names);
    for (resumed, unbroken) in rest.games.iter().zip(&whole.games[3..]) {
        assert_eq!(resumed.index, unbroken.index);
        assert_eq!(resumed.first_player, unbroken.first_player);
        assert_eq!(resumed.winner, unbroken.winner);
        assert_eq!(resumed.game, unbroken.game);
    }
    assert_eq!(
        ScoreSummary::of_match(&rest).scores,
        ScoreSummary::of_games(&whole.games[3..]).scores
    );
}

#[test]
fn blocked_cells_are_distinct() {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    for _ in 0..100 {
        let b = random_blocked(&mut rng);
        assert!(BlackholeGame::new(&b).is_ok());
    }
}

#[test]
fn match_cells_come_in_pairs_from_one_stream() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for pair in 0..6 {
        let drawn = random_blocked(&mut rng);
        assert_eq!(match_blocked(7, 2 * pair), drawn);
        assert_eq!(match_blocked(7, 2 * pair + 1), drawn);
    }
    assert_ne!(match_blocked(7, 0), match_blocked(8, 0));
}

/// One game between the shell programs `red` and `blue` with this much time each.
fn program_game(red: &str, blue: &str, ms: u64) -> GameRecord<BlackholeGame> {
    let limit = Duration::from_millis(ms);
    let mut a = CodeCupProgram::new(red, limit, ErrorOutput::Discard);
    let mut b = CodeCupProgram::new(blue, limit, ErrorOutput::Discard);
    let result = play_match(&mut a, &mut b, 0..1, 2, |_| {}).unwrap();
    result.games.into_iter().next().unwrap()
}

#[test]
fn a_silent_program_forfeits_and_a_crash_too() {
    // `cat >/dev/null` never answers: Red runs out of time.
    let r = program_game("cat >/dev/null", "cat >/dev/null", 200);
    let forfeit = r.forfeit.as_ref().unwrap();
    assert_eq!(forfeit.player, PlayerId::A);
    assert!(forfeit.reason.contains("ran out of time"), "{forfeit:?}");
    assert_eq!(score_of(&r, PlayerId::A), 0);
    assert_eq!(score_of(&r, PlayerId::B), 150);
    // `true` exits at once: a crash.
    let r = program_game("true", "true", 500);
    let forfeit = r.forfeit.unwrap();
    assert_eq!(forfeit.player, PlayerId::A);
    assert!(forfeit.reason.contains("crash"), "{forfeit:?}");
}

#[test]
fn an_illegal_answer_forfeits_with_the_move_named() {
    let blocked = match_blocked(2, 0);
    // Red puts a stone on a blocked cell.
    let red = format!("echo {}=1; cat >/dev/null", blocked[0]);
    let r = program_game(&red, "true", 500);
    let forfeit = r.forfeit.unwrap();
    assert_eq!(forfeit.player, PlayerId::A);
    assert_eq!(forfeit.chosen, Some(format!("{}=1", blocked[0])));
    assert!(
        forfeit.reason.contains(&blocked[0].to_string()),
        "{forfeit:?}"
    );
    // Red answers something that is not a move.
    let r = program_game("echo hello; cat >/dev/null", "true", 500);
    let forfeit = r.forfeit.unwrap();
    assert!(
        forfeit.reason.contains("illegal move `hello`"),
        "{forfeit:?}"
    );
}

#[test]
fn a_program_hears_the_cells_start_and_the_moves_and_quit() {
    let dir = std::env::temp_dir().join(format!("bh-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("blue.txt");
    // Blue writes what it hears to a file and never answers; Red opens with one move.
    let blocked = match_blocked(2, 0);
    let free = Cell::all().find(|c| !blocked.contains(c)).unwrap();
    let red =
        format!("read a; read b; read c; read d; read e; read s; echo {free}=3; cat >/dev/null");
    let blue = format!("cat > {}", log.display());
    let r = program_game(&red, &blue, 300);
    assert_eq!(r.plies(), 1);
    assert_eq!(r.forfeit.as_ref().map(|f| f.player), Some(PlayerId::B));
    let heard = std::fs::read_to_string(&log).unwrap();
    let mut expected: Vec<String> = blocked.iter().map(ToString::to_string).collect();
    expected.push(format!("{free}=3"));
    expected.push("Quit".to_string());
    assert_eq!(heard.lines().collect::<Vec<_>>(), expected);
    let game = &r.game;
    assert_eq!(game.position().mover(), 1 - RED);
    assert_eq!(game.move_name(game.moves()[0]), format!("{free}=3"));
    std::fs::remove_dir_all(&dir).unwrap();
}
