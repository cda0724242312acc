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
    use rave_mcts::{Game, Narrowing, Prior};
    use y_mcts::YPrior;

    let wins_by_playing = |game: &Y, mv: u8| {
        let mut copy = *game;
        let player = Game::to_move(&copy);
        Game::play(&mut copy, mv);
        copy.result().and_then(|r| r.winner()) == Some(player)
    };
    let prior = YPrior { threats: true };
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
