//! Y's win detection checked against an independent flood fill on coordinates.

use game_harness::{MatchGame, Side, Verdict};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use y_mcts::{Y, YError};

/// Whether `side`'s stones hold a group touching x = 0, y = 0 and x + y = n - 1, by flood fill
/// over (x, y) coordinates parsed from the cell names.
fn connects_all_sides(game: &Y, side: Side) -> bool {
    let n = game.size();
    let mut own = vec![vec![false; n]; n];
    for cell in game.cells() {
        if game.stone(cell) == Some(side) {
            let name = Y::cell_name(cell);
            let x = usize::from(name.as_bytes()[0] - b'a');
            let y: usize = name[1..].parse::<usize>().unwrap() - 1;
            own[x][y] = true;
        }
    }
    let mut seen = vec![vec![false; n]; n];
    for sx in 0..n {
        for sy in 0..n - sx {
            if !own[sx][sy] || seen[sx][sy] {
                continue;
            }
            let (mut stack, mut sides) = (vec![(sx, sy)], 0u8);
            seen[sx][sy] = true;
            while let Some((x, y)) = stack.pop() {
                sides |= u8::from(x == 0) | u8::from(y == 0) << 1 | u8::from(x + y == n - 1) << 2;
                let (x, y) = (x as i64, y as i64);
                for (nx, ny) in [
                    (x, y - 1),
                    (x + 1, y - 1),
                    (x + 1, y),
                    (x, y + 1),
                    (x - 1, y + 1),
                    (x - 1, y),
                ] {
                    if nx < 0 || ny < 0 || (nx + ny) as usize >= n {
                        continue;
                    }
                    let (ux, uy) = (nx as usize, ny as usize);
                    if own[ux][uy] && !seen[ux][uy] {
                        seen[ux][uy] = true;
                        stack.push((ux, uy));
                    }
                }
            }
            if sides == 0b111 {
                return true;
            }
        }
    }
    false
}

#[test]
fn random_games_end_exactly_when_the_flood_fill_finds_a_winner() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for game_index in 0..300 {
        let size = 3 + game_index % 9;
        let mut game = Y::new(size).unwrap();
        loop {
            let empty: Vec<u8> = game.cells().filter(|&c| game.stone(c).is_none()).collect();
            assert!(!empty.is_empty(), "a full board without a winner");
            let mover = game.side_to_move();
            let cell = empty[rng.random_range(0..empty.len())];
            MatchGame::try_play(&mut game, cell).unwrap();
            assert!(!connects_all_sides(&game, mover.other()));
            let won = connects_all_sides(&game, mover);
            assert_eq!(game.verdict(), won.then_some(Verdict::Win(mover)));
            if won {
                assert_eq!(
                    MatchGame::try_play(&mut game, empty[0]),
                    Err(YError::GameOver)
                );
                break;
            }
        }
    }
}

#[test]
fn names_and_errors() {
    let mut game = Y::new(5).unwrap();
    assert_eq!(Y::new(2), Err(YError::Size(2)));
    assert_eq!(Y::new(17), Err(YError::Size(17)));
    assert_eq!(game.cells().count(), 15);
    let e5 = game.parse_move("e1").unwrap();
    assert_eq!(game.move_name(e5), "e1");
    assert!(matches!(game.parse_move("e2"), Err(YError::NotACell(_))));
    assert!(matches!(game.parse_move("a0"), Err(YError::NotACell(_))));
    assert!(matches!(game.parse_move("swap"), Err(YError::NotACell(_))));
    MatchGame::try_play(&mut game, e5).unwrap();
    assert_eq!(
        MatchGame::try_play(&mut game, e5),
        Err(YError::Occupied("e1".into()))
    );
    assert_eq!(game.moves(), &[e5]);
    assert_eq!(game.side_to_move(), Side::Second);
}

/// The threats at expansion agree with playing every cell: a win found is a win, none is
/// missed, and a forced block is the opponent's only winning cell.
#[test]
fn the_threat_narrowing_agrees_with_playing_every_cell() {
    use connection_kit::ConnectionPrior;
    use rave_mcts::{Game, Narrowing, Prior};

    let wins_by_playing = |game: &Y, mv: u8| {
        let mut copy = *game;
        let player = Game::to_move(&copy);
        Game::play(&mut copy, mv);
        copy.result().and_then(|r| r.winner()) == Some(player)
    };
    let prior = ConnectionPrior {
        threats: true,
        ..ConnectionPrior::default()
    };
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let (mut wins, mut blocks) = (0, 0);
    for size in [3, 4, 5, 7] {
        for _ in 0..40 {
            let mut game = Y::new(size).unwrap();
            while game.result().is_none() {
                let mut legal = Vec::new();
                game.legal_moves(&mut legal);
                let mut moves = legal.clone();
                let narrowing = prior.narrow(&game, &mut moves);
                let winning: Vec<u8> = legal
                    .iter()
                    .copied()
                    .filter(|&m| wins_by_playing(&game, m))
                    .collect();
                match narrowing {
                    Narrowing::Win => {
                        assert!(winning.contains(&moves[0]), "{moves:?}");
                        wins += 1;
                    }
                    _ if !winning.is_empty() => panic!("missed the win {winning:?}"),
                    Narrowing::Open if moves.len() == 1 && legal.len() > 1 => blocks += 1,
                    _ => {}
                }
                Game::play(&mut game, legal[rng.random_range(0..legal.len())]);
            }
        }
    }
    assert!(
        wins > 20 && blocks > 10,
        "{wins} wins, {blocks} blocks seen"
    );
}

/// The cell names of a move list.
fn names(moves: &[u8]) -> Vec<String> {
    moves.iter().map(|&m| Y::cell_name(m)).collect()
}

/// A game of Y after the named moves.
fn after(size: usize, moves: &[&str]) -> Y {
    let mut game = Y::new(size).unwrap();
    for name in moves {
        let mv = game.parse_move(name).unwrap();
        game.try_play(mv).unwrap();
    }
    game
}

/// The cells that save a bridge the last stone (on `last`) intruded into, by name.
fn saving_replies(game: &Y, last: &str) -> Vec<String> {
    use connection_kit::Placement;
    let last = usize::from(game.parse_move(last).unwrap());
    let saves = game.ring(last).saves();
    let replies: Vec<u8> = (0..6)
        .filter(|d| saves & (1 << d) != 0)
        .filter_map(|d| game.neighbour(last, d))
        .map(|c| c as u8)
        .collect();
    names(&replies)
}

/// The ring around a cell names each neighbour as the player to move sees it, and the
/// carrier cell left is the saving reply, also for a bridge to a side.
#[test]
fn the_ring_finds_the_cell_that_saves_a_bridge() {
    // White c3 and d4 share the carrier d3, c4 (c3 + (1,0) and c3 + (0,1)); Black takes d3.
    let game = after(10, &["c3", "a9", "d4", "d3"]);
    assert_eq!(saving_replies(&game, "d3"), ["c4"]);
    // White b2 reaches the side y = 0 through the carrier b1, c1; Black takes b1.
    let game = after(10, &["b2", "a9", "e5", "b1"]);
    assert_eq!(saving_replies(&game, "b1"), ["c1"]);
    // No stone of the player to move (Black) around White's e5: nothing to save.
    let game = after(10, &["b2", "a9", "e5"]);
    assert!(saving_replies(&game, "e5").is_empty());
}

/// The bridge-saving playout answers every intrusion into a bridge of the player to move,
/// and its result is the winner of a replay of its trace.
#[test]
fn the_bridge_playout_answers_intrusions_and_ends_with_the_right_winner() {
    use connection_kit::{BridgePlayout, Placement};
    use rave_mcts::{Game, Playout, Trace};
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut playout = BridgePlayout::<Y>::new(true);
    let mut answered = 0;
    for size in [4, 7, 10, 13] {
        for _ in 0..30 {
            let start = Y::new(size).unwrap();
            let mut game = start;
            let mut trace = Trace::default();
            let result = playout.playout(&mut game, &mut rng, usize::MAX, &mut trace);
            let mut replay = start;
            for (_, mv) in trace.iter() {
                let saves = replay.last_cell().map_or(0, |c| replay.ring(c).saves());
                if saves != 0 {
                    let last = replay.last_cell().unwrap();
                    let replies: Vec<usize> = (0..6)
                        .filter(|d| saves & (1 << d) != 0)
                        .filter_map(|d| replay.neighbour(last, d))
                        .collect();
                    assert!(replies.contains(&usize::from(mv)), "{replies:?}, not {mv}");
                    answered += 1;
                }
                replay.try_play(mv).unwrap();
            }
            assert_eq!(Some(result.outcome), replay.result());
            assert_eq!(replay, game);
        }
    }
    assert!(answered > 50, "{answered} intrusions answered");
}

/// The reach bias counts the sides of the groups a cell joins, the cell's own included; the
/// bridge reply gets its own weight.
#[test]
fn the_biases_count_sides_and_reward_the_saving_reply() {
    use connection_kit::ConnectionPrior;
    use rave_mcts::{Prior, PriorValue};
    // White a3 (side x = 0) and c1 (side y = 0), Black far away; b2 touches both stones.
    let game = after(10, &["a3", "h1", "c1", "e5"]);
    let prior = ConnectionPrior {
        threats: false,
        reach: 0.1,
        bridge_reply: 0.5,
    };
    let moves: Vec<u8> = ["b2", "e3", "a1"]
        .iter()
        .map(|n| game.parse_move(n).unwrap())
        .collect();
    let mut out = vec![PriorValue::default(); moves.len()];
    prior.priors(&game, &moves, &mut out);
    let bias: Vec<f32> = out.iter().map(|v| (v.bias * 10.0).round()).collect();
    // b2 joins a3 (x = 0) and c1 (y = 0): two sides; e3 none; a1 is a corner: two sides.
    assert_eq!(bias, [2.0, 0.0, 2.0]);
    // After White c3, d4 and Black's d3 intrusion, White's c4 gets the reply's weight.
    let game = after(10, &["c3", "a9", "d4", "d3"]);
    let moves = vec![
        game.parse_move("c4").unwrap(),
        game.parse_move("e3").unwrap(),
    ];
    let mut out = vec![PriorValue::default(); 2];
    prior.priors(&game, &moves, &mut out);
    assert!(
        (out[0].bias - 0.5).abs() < 1e-6 && out[1].bias == 0.0,
        "{out:?}"
    );
}
