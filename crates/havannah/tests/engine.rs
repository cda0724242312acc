//! The engine as a player: legal moves, tactics it must not miss, determinism, time limits,
//! tree reuse, and strength against a random player.

use std::time::{Duration, Instant};

use game_harness::Clock;
use havannah::mcts::{Proof, StopReason};
use havannah::{Agent, Engine, EngineConfig, Preset, RandomAgent};
use havannah_rules::{Colour, GameState, Move, Rules};

fn engine(preset: Preset, simulations: u64, seed: u64) -> Engine {
    let mut config = EngineConfig::preset(preset);
    config.simulations = simulations;
    Engine::new(config, seed)
}

/// Plays a game between two players; returns the finished game.
fn play_game(
    size: u8,
    white: &mut dyn Agent<GameState>,
    black: &mut dyn Agent<GameState>,
    pie: bool,
) -> GameState {
    let mut game = GameState::new(size, Rules { pie }).unwrap();
    white.reset(&game);
    black.reset(&game);
    while !game.outcome().is_over() {
        let mover: &mut dyn Agent<GameState> = if game.moves().len().is_multiple_of(2) {
            &mut *white
        } else {
            &mut *black
        };
        let mv = mover
            .choose(&game, &Clock::unlimited())
            .expect("a move while the game is on");
        game.play(mv).expect("the engine plays legal moves");
        white.observe(&game, mv);
        black.observe(&game, mv);
    }
    game
}

fn setup(size: u8, moves: &[&str]) -> GameState {
    let mut game = GameState::new(size, Rules { pie: false }).unwrap();
    for m in moves {
        game.play_str(m).unwrap();
    }
    game
}

#[test]
fn engine_plays_legal_games_against_random() {
    for preset in [
        Preset::Best,
        Preset::Uct,
        Preset::Grave,
        Preset::Weighted,
        Preset::Offline,
        Preset::Horizon,
        Preset::LastGoodReply,
    ] {
        let mut e = engine(preset, 200, 1);
        let mut r = RandomAgent::new(2);
        let game = play_game(5, &mut e, &mut r, true);
        assert!(game.outcome().is_over(), "{preset}");
    }
}

#[test]
fn takes_a_win_in_one() {
    // Size 4: White a1 b1 c1 (d1 completes the bridge a1-d1); Black elsewhere. White to move.
    let game = setup(4, &["a1", "g7", "b1", "g5", "c1", "e7"]);
    let d1 = Move::Cell(game.board().parse_cell("d1").unwrap());
    for preset in [Preset::Best, Preset::Uct, Preset::Rave] {
        let mut e = engine(preset, 2_000, 3);
        e.reset(&game);
        assert_eq!(e.choose(&game, &Clock::unlimited()), Some(d1), "{preset}");
    }
}

#[test]
fn blocks_a_win_in_one() {
    // Size 4: White threatens d1 (bridge); Black to move must block it.
    let game = setup(4, &["a1", "g7", "b1", "g5", "c1"]);
    assert_eq!(game.to_move(), Colour::Black);
    let d1 = Move::Cell(game.board().parse_cell("d1").unwrap());
    for preset in [Preset::Best, Preset::Rave] {
        let mut e = engine(preset, 4_000, 5);
        e.reset(&game);
        assert_eq!(e.choose(&game, &Clock::unlimited()), Some(d1), "{preset}");
    }
}

#[test]
fn one_thread_with_a_seed_is_deterministic() {
    let mut a = engine(Preset::Best, 300, 42);
    let mut b = engine(Preset::Best, 300, 42);
    let mut ra = RandomAgent::new(9);
    let mut rb = RandomAgent::new(9);
    let ga = play_game(5, &mut a, &mut ra, false);
    let gb = play_game(5, &mut b, &mut rb, false);
    assert_eq!(ga.moves(), gb.moves());
}

#[test]
fn time_per_move_is_respected() {
    // The search is given the move's time less the engine's margin, and it is the clock that
    // stops it, not the simulation budget (200,000: over a second at size 8, so an engine that
    // ignored its time would stop on simulations and fail here at once). Other work on the
    // same cores may stretch 60 ms a lot: how close the engine keeps to its time is measured by
    // `clock_check`, not asserted here.
    let mut e = engine(Preset::Best, 200_000, 1);
    let game = setup(8, &["h8", "g7"]);
    let clock = Clock::per_move(Duration::from_millis(60));
    let given = e.budget(&game, &clock).time.expect("a time budget");
    assert!(given < Duration::from_millis(60), "{given:?}");
    assert!(given >= Duration::from_millis(50), "{given:?}");
    e.reset(&game);
    let start = Instant::now();
    let mv = e.choose(&game, &clock);
    let took = start.elapsed();
    assert!(mv.is_some());
    assert!(took < Duration::from_secs(3), "took {took:?}");
    let result = e.last_result().unwrap();
    assert!(
        matches!(
            result.stop,
            StopReason::Time | StopReason::BestMoveFixed | StopReason::Proven
        ),
        "stopped by {:?}",
        result.stop
    );
    assert!(result.simulations > 0);
}

#[test]
fn remaining_time_is_shared_out() {
    let e = engine(Preset::Best, 1_000, 1);
    let game = setup(8, &[]);
    // 60 s for the game, nothing said about moves to go: a share well below the whole.
    let clock = Clock {
        per_move: None,
        remaining: Some(Duration::from_secs(60)),
        moves_to_go: None,
    };
    let budget = e.budget(&game, &clock);
    let t = budget.time.expect("a time budget");
    assert!(
        t > Duration::from_millis(100) && t < Duration::from_secs(15),
        "{t:?}"
    );
    // With 2 moves to go in 10 s, about 5 s each.
    let clock = Clock {
        per_move: None,
        remaining: Some(Duration::from_secs(10)),
        moves_to_go: Some(2),
    };
    let t = e.budget(&game, &clock).time.unwrap();
    assert!(
        t <= Duration::from_secs(5) && t > Duration::from_millis(4900),
        "{t:?}"
    );
    // A per-move limit tighter than the share wins.
    let clock = Clock {
        per_move: Some(Duration::from_millis(200)),
        remaining: Some(Duration::from_secs(10)),
        moves_to_go: Some(2),
    };
    assert!(e.budget(&game, &clock).time.unwrap() <= Duration::from_millis(200));
}

#[test]
fn tree_is_reused_after_the_expected_answer() {
    let mut e = engine(Preset::Best, 3_000, 11);
    let mut game = setup(5, &["e5"]);
    e.reset(&game);
    let mv = e.choose(&game, &Clock::unlimited()).unwrap();
    let before = e.tree_nodes();
    game.play(mv).unwrap();
    e.observe(&game, mv);
    // The tree follows the move at the next search, which starts from the kept subtree.
    e.choose(&game, &Clock::unlimited()).unwrap();
    let result = e.last_result().unwrap();
    assert!(
        result.root_visits > result.simulations,
        "{} root visits after {} simulations: nothing kept",
        result.root_visits,
        result.simulations
    );
    assert!(e.tree_nodes() > 1, "{before} nodes before");
}

#[test]
fn node_budget_is_honoured() {
    let mut config = EngineConfig::best();
    config.simulations = 20_000;
    config.max_nodes = 2_000;
    let mut e = Engine::new(config, 1);
    let game = setup(8, &[]);
    e.reset(&game);
    e.choose(&game, &Clock::unlimited()).unwrap();
    assert!(e.tree_nodes() <= 2_000, "{}", e.tree_nodes());
}

#[test]
fn node_budget_is_per_thread() {
    let mut config = EngineConfig::best().with_threads(2).unwrap();
    config.max_nodes = 3_000;
    let e = Engine::new(config, 1);
    let game = setup(8, &[]);
    assert_eq!(e.budget(&game, &Clock::unlimited()).nodes, Some(6_000));
}

#[test]
fn engine_beats_random_at_size_5() {
    let mut wins = 0;
    let games = 12;
    for g in 0..games {
        let mut e = engine(Preset::Best, 1_000, g);
        let mut r = RandomAgent::new(100 + g);
        let engine_white = g % 2 == 0;
        let game = if engine_white {
            play_game(5, &mut e, &mut r, false)
        } else {
            play_game(5, &mut r, &mut e, false)
        };
        let engine_colour = if engine_white {
            Colour::White
        } else {
            Colour::Black
        };
        if game.outcome().winner() == Some(engine_colour) {
            wins += 1;
        }
    }
    assert!(
        wins >= 11,
        "the engine won only {wins} of {games} games against random"
    );
}

#[test]
fn a_win_at_once_after_followed_moves_is_proven_for_the_side_to_move() {
    // Size 4, Black to move. Black plays f4 and White b2; then Black wins at once at d2 (the
    // threats knowledge narrows the root to it and proves it). The search before the two
    // moves never expanded f4, so the tree is started again below them, on the engine's
    // search object, whose last simulation may have ended with a move of either side.
    let start = setup(4, &["a1", "g4", "b1", "d1", "c1", "e3", "a2"]);
    let cell = |g: &GameState, s: &str| Move::Cell(g.board().parse_cell(s).unwrap());
    for simulations in [100, 3_000] {
        for seed in 0..4 {
            let mut e = engine(Preset::Best, simulations, seed);
            let mut game = start.clone();
            e.reset(&game);
            e.choose(&game, &Clock::unlimited()).unwrap();
            for m in ["f4", "b2"] {
                let mv = cell(&game, m);
                game.play(mv).unwrap();
                e.observe(&game, mv);
            }
            assert_eq!(game.to_move(), Colour::Black);
            let mv = e.choose(&game, &Clock::unlimited()).unwrap();
            let result = e.last_result().unwrap();
            let context = format!("{simulations} simulations, seed {seed}");
            assert_eq!(mv, cell(&game, "d2"), "{context}");
            assert_eq!(result.proven, Some(Proof::Win), "{context}");
            // A fresh tree gives the same proof.
            let mut fresh = engine(Preset::Best, simulations, seed);
            fresh.reset(&game);
            fresh.choose(&game, &Clock::unlimited()).unwrap();
            assert_eq!(
                fresh.last_result().unwrap().proven,
                Some(Proof::Win),
                "{context}"
            );
        }
    }
}

#[test]
fn the_engine_reports_the_simulations_of_its_last_choice() {
    let mut e = engine(Preset::Best, 300, 4);
    assert_eq!(e.last_simulations(), None);
    let game = setup(4, &["a1", "g7"]);
    e.reset(&game);
    assert!(e.choose(&game, &Clock::unlimited()).is_some());
    let searched = e.last_result().map(|r| r.simulations);
    assert!(searched.is_some_and(|n| n > 0), "{searched:?}");
    assert_eq!(e.last_simulations(), searched);
    // The first stone of the pie rule's table is played without a search.
    let mut config = EngineConfig::preset(Preset::Best);
    config.pie_table = true;
    let mut e = Engine::new(config, 4);
    let game = GameState::new(8, Rules { pie: true }).unwrap();
    e.reset(&game);
    assert!(e.choose(&game, &Clock::unlimited()).is_some());
    assert!(e.last_result().is_none());
    assert_eq!(e.last_simulations(), Some(0));
}
