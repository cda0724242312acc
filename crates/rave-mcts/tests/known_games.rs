//! The search against games whose values are known exactly: tic-tac-toe, a subtraction game
//! and small Hex boards, each checked against an exact solver written here.

mod common;

use std::collections::HashMap;

use common::{Hex, HexPlayout, HexSolver, Nim, TicTacToe, ttt_value};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rave_mcts::{
    Budget, Config, Game, Mcts, Narrowing, Player, Prior, PriorValue, Proof, RaveSchedule, Rewards,
    UniformPlayout,
};

/// The tic-tac-toe configurations, each with one thread and with four (one shared tree).
fn ttt_configs() -> Vec<(String, Config)> {
    let one_thread = [
        ("uct", Config::default()),
        (
            "rave",
            Config::builder()
                .rave(RaveSchedule::default())
                .build()
                .unwrap(),
        ),
        ("grave", Config::builder().grave(20).build().unwrap()),
    ];
    [1, 4]
        .into_iter()
        .flat_map(|threads| {
            one_thread.iter().map(move |(name, config)| {
                let config = config.to_builder().threads(threads).build().unwrap();
                (format!("{name}, {threads} threads"), config)
            })
        })
        .collect()
}

/// An optimal tic-tac-toe player that picks at random among the optimal moves.
fn perfect_move(t: &TicTacToe, memo: &mut HashMap<TicTacToe, f32>, rng: &mut Pcg64Mcg) -> u8 {
    let mut moves = Vec::new();
    t.legal_moves(&mut moves);
    let value = |m: u8, memo: &mut HashMap<TicTacToe, f32>| {
        let mut c = *t;
        c.play(m);
        1.0 - ttt_value(&c, memo)
    };
    let best = moves.iter().map(|&m| value(m, memo)).fold(0.0, f32::max);
    let optimal: Vec<u8> = moves
        .iter()
        .copied()
        .filter(|&m| value(m, memo) == best)
        .collect();
    optimal[rng.random_range(0..optimal.len())]
}

#[test]
fn tic_tac_toe_never_loses_from_the_empty_board() {
    let mut memo = HashMap::new();
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for (name, config) in ttt_configs() {
        for game_no in 0..12 {
            let mcts_side = game_no % 2;
            let perfect_opponent = game_no % 4 < 2;
            let mut t = TicTacToe::default();
            let mut mcts = Mcts::new(t, config.clone());
            while t.result().is_none() {
                let mv = if t.to_move() == mcts_side {
                    // Several threads get 30,000 simulations each, enough for the solver to
                    // prove the root: a search of several threads is not deterministic.
                    let per_thread = if config.threads() > 1 { 30_000 } else { 3000 };
                    let budget = Budget::simulations(per_thread * config.threads() as u64);
                    let r = mcts.search(&budget, &mut rng).unwrap();
                    // Every proof is true (several threads race to prove nodes).
                    for c in &r.children {
                        let mut after = t;
                        after.play(c.mv);
                        // The value for the player who moved.
                        let v = 1.0 - ttt_value(&after, &mut memo);
                        let ok = match c.proof {
                            Some(Proof::Win) => v == 1.0,
                            Some(Proof::Loss) => v == 0.0,
                            Some(Proof::Draw) => v == 0.5,
                            None => true,
                        };
                        assert!(
                            ok,
                            "{name}: a wrong proof in {:?}: {c:?}, value {v}",
                            t.cells
                        );
                    }
                    r.best_move
                } else if perfect_opponent {
                    perfect_move(&t, &mut memo, &mut rng)
                } else {
                    random_move(&t, &mut rng)
                };
                t.play(mv);
                mcts.advance(mv).unwrap();
            }
            let reward = t.result().unwrap().reward(mcts_side);
            assert!(
                reward >= 0.5,
                "{name}: the search lost game {game_no} as player {mcts_side}: {:?}",
                t.cells
            );
        }
    }
}

/// A uniformly random legal move.
fn random_move<G: Game>(game: &G, rng: &mut Pcg64Mcg) -> G::Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves[rng.random_range(0..moves.len())]
}

/// Every move of a one-thread RAVE or GRAVE search (no exploration, so deterministic) keeps
/// the exact value of the position, over 200 games against a random opponent. Without the
/// rule that skips proven draws in selection, a search could settle on a proven draw below a
/// losing move and never see the winning reply (this test fails without the rule).
#[test]
fn rave_searches_never_give_away_value_in_tic_tac_toe() {
    let mut memo = HashMap::new();
    let configs = [
        Config::builder()
            .rave(RaveSchedule::default())
            .build()
            .unwrap(),
        Config::builder().grave(20).build().unwrap(),
    ];
    for config in configs {
        for seed in 0..200u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mcts_side = (seed % 2) as usize;
            let mut t = TicTacToe::default();
            let mut mcts = Mcts::new(t, config.clone());
            while t.result().is_none() {
                let mv = if t.to_move() == mcts_side {
                    let r = mcts.search(&Budget::simulations(3000), &mut rng).unwrap();
                    let mut after = t;
                    after.play(r.best_move);
                    let kept = 1.0 - ttt_value(&after, &mut memo);
                    assert_eq!(
                        kept,
                        ttt_value(&t, &mut memo),
                        "{config:?}, seed {seed}: {} in {:?} gives value away: {:?}",
                        r.best_move,
                        t.cells,
                        r.children
                    );
                    r.best_move
                } else {
                    random_move(&t, &mut rng)
                };
                t.play(mv);
                mcts.advance(mv).unwrap();
            }
        }
    }
}

#[test]
fn tic_tac_toe_forced_wins_are_found_and_proven() {
    // Positions where the player to move has a forced win (checked by the exact solver below).
    let positions = [
        "XX. OO. ...", // X wins at once
        "X.. .O. ..X", // O to move must block... X to move? (counts decide)
        "X.. ... ..O", // X to move: opposite corners, X forces a win
        "O.. .X. ...", // X to move? no: X1 O1 -> X to move, a forced draw position is excluded
        "XO. .X. ..O", // X to move
        "X.O .X. O..", // X to move
        ".O. .X. ..X", // O to move
    ];
    let mut memo = HashMap::new();
    let mut checked = 0;
    for (name, config) in ttt_configs() {
        for s in positions {
            let t = TicTacToe::from_str(s);
            if t.result().is_some() || ttt_value(&t, &mut memo) != 1.0 {
                continue; // not a forced win: not part of this test
            }
            checked += 1;
            let mut mcts = Mcts::new(t, config.clone());
            let mut rng = Pcg64Mcg::seed_from_u64(3);
            let r = mcts.search(&Budget::simulations(20_000), &mut rng).unwrap();
            let mut after = t;
            after.play(r.best_move);
            assert_eq!(
                ttt_value(&after, &mut memo),
                0.0,
                "{name}: {s}: {:?} does not win",
                r.best_move
            );
            assert_eq!(r.proven, Some(Proof::Win), "{name}: {s}: not proven");
            assert_eq!(
                r.children
                    .iter()
                    .find(|c| c.mv == r.best_move)
                    .and_then(|c| c.proof),
                Some(Proof::Win)
            );
            assert!(
                r.simulations < 20_000,
                "{name}: {s}: a proven root stops the search"
            );
        }
    }
    assert!(checked >= 6 * 4, "too few forced-win positions: {checked}");
}

#[test]
fn tic_tac_toe_losses_are_proven_too() {
    // X to move, O threatens two lines at once (cells 2 and 6): X loses whatever it does.
    let t = TicTacToe::from_str("OO. OXX .X.");
    let mut memo = HashMap::new();
    assert_eq!(ttt_value(&t, &mut memo), 0.0);
    for threads in [1, 4] {
        let config = Config::builder().threads(threads).build().unwrap();
        let mut mcts = Mcts::new(t, config);
        let r = mcts
            .search(&Budget::simulations(5_000), &mut Pcg64Mcg::seed_from_u64(1))
            .unwrap();
        assert_eq!(r.proven, Some(Proof::Loss), "{threads} threads");
        assert!(r.children.iter().all(|c| c.proof == Some(Proof::Loss)));
    }
}

#[test]
fn subtraction_game_winner_is_proven_for_many_counts() {
    for (stones, threads) in (1..=20u32).flat_map(|s| [(s, 1), (s, 4)]) {
        let game = Nim { stones, player: 0 };
        // Early stop off: with one legal move the best move is fixed at once, but we want the proof.
        let config = Config::builder()
            .grave(10)
            .early_stop(false)
            .threads(threads)
            .build()
            .unwrap();
        let mut mcts = Mcts::new(game, config);
        let r = mcts
            .search(
                &Budget::simulations(300_000),
                &mut Pcg64Mcg::seed_from_u64(u64::from(stones)),
            )
            .unwrap();
        let expected = if stones % 4 == 0 {
            Proof::Loss
        } else {
            Proof::Win
        };
        assert_eq!(
            r.proven,
            Some(expected),
            "stones {stones}, {threads} threads: {r:?}"
        );
        if expected == Proof::Win {
            assert_eq!(
                (stones - u32::from(r.best_move)) % 4,
                0,
                "stones {stones}: take {}",
                r.best_move
            );
        }
    }
}

/// Random 4x4 Hex positions with `stones` stones and no winner yet.
fn random_hex_positions(count: usize, stones: usize, seed: u64) -> Vec<Hex> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut h = Hex::new(4);
        for _ in 0..stones {
            let mut moves = Vec::new();
            h.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            h.play(moves[rng.random_range(0..moves.len())]);
        }
        if h.result().is_none() {
            out.push(h);
        }
    }
    out
}

#[test]
fn hex_4x4_moves_match_the_exact_solver() {
    for threads in [1, 4] {
        hex_4x4_moves_match_the_exact_solver_with(threads);
    }
}

fn hex_4x4_moves_match_the_exact_solver_with(threads: usize) {
    let mut solver = HexSolver::new();
    let config = Config::builder()
        .rave(RaveSchedule::default())
        .threads(threads)
        .build()
        .unwrap();
    let mut interesting = 0;
    let mut correct = 0;
    for (i, h) in random_hex_positions(40, 6, 11).into_iter().enumerate() {
        let winning = solver.winning_moves(&h);
        let mut moves = Vec::new();
        h.legal_moves(&mut moves);
        let mut mcts = Mcts::with_playout(h, config.clone(), HexPlayout::default());
        let r = mcts
            .search(
                &Budget::simulations(20_000),
                &mut Pcg64Mcg::seed_from_u64(i as u64),
            )
            .unwrap();
        // Whatever is proven must be true.
        match r.proven {
            Some(Proof::Win) => assert!(winning.contains(&r.best_move), "position {i}"),
            Some(Proof::Loss) => assert!(winning.is_empty(), "position {i}"),
            _ => {}
        }
        for c in &r.children {
            match c.proof {
                Some(Proof::Win) => assert!(winning.contains(&c.mv), "position {i}"),
                Some(Proof::Loss) => assert!(!winning.contains(&c.mv), "position {i}"),
                _ => {}
            }
        }
        if !winning.is_empty() && winning.len() < moves.len() {
            interesting += 1;
            if winning.contains(&r.best_move) {
                correct += 1;
            }
        }
    }
    println!(
        "hex 4x4, {threads} threads: {correct} of {interesting} winning positions played correctly"
    );
    assert!(interesting >= 10, "too few test positions: {interesting}");
    assert!(
        correct * 10 >= interesting * 9,
        "only {correct} of {interesting} winning moves found"
    );
}

/// A game in which a player moves twice in a row: a turn is two takes of one or two stones
/// from a pile (the second only if stones are left). Taking the last stone with a take of two
/// wins; with a take of one it is a draw.
#[derive(Clone, Copy, Debug)]
struct TwoTakes {
    stones: u32,
    player: Player,
    /// Whether the next take is the first of the turn.
    first: bool,
    /// The last take's size.
    last_take: u8,
}

impl TwoTakes {
    fn new(stones: u32) -> Self {
        TwoTakes {
            stones,
            player: 0,
            first: true,
            last_take: 0,
        }
    }

    /// The exact value for the player to move, by plain recursion.
    fn value(stones: u32, first: bool) -> f32 {
        (1..=2u32.min(stones))
            .map(|k| match (stones - k, first) {
                (0, _) if k == 2 => 1.0,
                (0, _) => 0.5,
                (left, true) => TwoTakes::value(left, false),
                (left, false) => 1.0 - TwoTakes::value(left, true),
            })
            .fold(0.0, f32::max)
    }
}

impl Game for TwoTakes {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.player
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.extend((1..=2u8).filter(|&k| u32::from(k) <= self.stones));
    }

    fn play(&mut self, mv: u8) {
        self.stones -= u32::from(mv);
        self.last_take = mv;
        if self.stones > 0 {
            if !self.first {
                self.player = 1 - self.player;
            }
            self.first = !self.first;
        }
    }

    fn result(&self) -> Option<Rewards> {
        (self.stones == 0).then(|| {
            if self.last_take == 2 {
                Rewards::win(self.player)
            } else {
                Rewards::DRAW
            }
        })
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv) - 1
    }

    fn move_bound(&self) -> usize {
        2
    }
}

/// Knowledge for [`TwoTakes`]: with two stones left, taking both wins at once. The solver
/// turns it into proofs of nodes where the second take of a turn is to be made, whose mover
/// is the player to move.
struct TakeTheLastTwo;

impl Prior<TwoTakes> for TakeTheLastTwo {
    fn priors(&self, _game: &TwoTakes, _moves: &[u8], _out: &mut [PriorValue]) {}

    fn narrow(&self, game: &TwoTakes, moves: &mut Vec<u8>) -> Narrowing {
        if game.stones != 2 {
            return Narrowing::Open;
        }
        moves.retain(|&k| k == 2);
        Narrowing::Win
    }
}

/// The solver's proofs where a player moves twice in a row: a child's win is then the same
/// player's win, not the opponent's, and so is a win the prior proves.
#[test]
fn proofs_hold_where_a_player_moves_twice_in_a_row() {
    let mut kinds = [0; 3];
    for (stones, threads) in (1..=24u32).flat_map(|s| [(s, 1), (s, 4)]) {
        let config = Config::builder()
            .early_stop(false)
            .threads(threads)
            .build()
            .unwrap();
        let mut mcts = Mcts::with_policies(
            TwoTakes::new(stones),
            config,
            UniformPlayout::new(),
            TakeTheLastTwo,
        );
        let r = mcts
            .search(
                &Budget::simulations(100_000),
                &mut Pcg64Mcg::seed_from_u64(u64::from(stones)),
            )
            .unwrap();
        let exact = TwoTakes::value(stones, true);
        let expected = match exact {
            1.0 => Proof::Win,
            0.0 => Proof::Loss,
            _ => Proof::Draw,
        };
        kinds[(exact * 2.0) as usize] += 1;
        assert_eq!(
            r.proven,
            Some(expected),
            "{stones} stones, {threads} threads: {r:?}"
        );
        let mut after = TwoTakes::new(stones);
        after.play(r.best_move);
        let kept = match after.result() {
            Some(o) => o.reward(0),
            None => TwoTakes::value(after.stones, false),
        };
        assert_eq!(kept, exact, "{stones} stones, {threads} threads: {r:?}");
        // The principal variation's second take, the same player's, keeps the value too.
        if let (None, Some(&second)) = (after.result(), r.principal_variation.get(1)) {
            after.play(second);
            let kept = match after.result() {
                Some(o) => o.reward(0),
                None => 1.0 - TwoTakes::value(after.stones, true),
            };
            assert_eq!(kept, exact, "{stones} stones, {threads} threads: {r:?}");
        }
    }
    // The counts cover wins, draws and losses.
    assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
}

/// A tree kept through a move after which the same player moves again still gives that
/// player's proof (the kept root's statistics were the player's own, the search reads them
/// as the opponent's).
#[test]
fn a_kept_tree_proves_for_a_player_who_moves_again() {
    for stones in 3..=12u32 {
        let config = Config::builder().early_stop(false).build().unwrap();
        let mut mcts = Mcts::new(TwoTakes::new(stones), config);
        let mut rng = Pcg64Mcg::seed_from_u64(u64::from(stones));
        let first = mcts.search(&Budget::simulations(50_000), &mut rng).unwrap();
        assert!(first.proven.is_some(), "{stones} stones: {first:?}");
        mcts.advance(first.best_move).unwrap();
        assert_eq!(mcts.game().to_move(), 0, "the first take keeps the turn");
        let kept = mcts.search(&Budget::simulations(1), &mut rng).unwrap();
        let expected = match TwoTakes::value(mcts.game().stones, false) {
            1.0 => Proof::Win,
            0.0 => Proof::Loss,
            _ => Proof::Draw,
        };
        assert_eq!(kept.proven, Some(expected), "{stones} stones: {kept:?}");
    }
}
