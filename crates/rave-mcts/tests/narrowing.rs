//! `Prior::narrow`: threats found at expansion prune the children and prove nodes.

mod common;

use std::collections::HashMap;

use common::{TicTacToe, ttt_value};
use proptest::prelude::{ProptestConfig, any, prop, prop_assert_eq, proptest};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{
    Budget, Config, Game, Mcts, Narrowing, Prior, PriorValue, Proof, RaveSchedule, StopReason,
    UniformPlayout,
};

/// Tic-tac-toe knowledge: win at once if possible, block a single threat, give up against two.
struct Threats;

/// The empty cells where `player` would complete a line at once.
fn winning_cells(t: &TicTacToe, player: usize) -> Vec<u8> {
    let mut moves = Vec::new();
    t.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&m| {
            let mut c = *t;
            c.cells[usize::from(m)] = player as u8 + 1;
            c.result().is_some_and(|o| o.winner() == Some(player))
        })
        .collect()
}

impl Prior<TicTacToe> for Threats {
    fn priors(&self, _game: &TicTacToe, _moves: &[u8], _out: &mut [PriorValue]) {}

    fn is_active(&self) -> bool {
        false
    }

    fn narrow(&self, game: &TicTacToe, moves: &mut Vec<u8>) -> Narrowing {
        let me = game.to_move();
        if let Some(&win) = winning_cells(game, me).first() {
            *moves = vec![win];
            return Narrowing::Win;
        }
        let threats = winning_cells(game, 1 - me);
        match threats.as_slice() {
            [] => Narrowing::Open,
            [block] => {
                *moves = vec![*block];
                Narrowing::Open
            }
            [block, ..] => {
                *moves = vec![*block];
                Narrowing::Loss
            }
        }
    }
}

/// A prior that breaks the contract by removing every move.
struct Empties;

impl Prior<TicTacToe> for Empties {
    fn priors(&self, _game: &TicTacToe, _moves: &[u8], _out: &mut [PriorValue]) {}

    fn narrow(&self, _game: &TicTacToe, moves: &mut Vec<u8>) -> Narrowing {
        moves.clear();
        Narrowing::Open
    }
}

fn config() -> Config {
    Config::builder()
        .rave(RaveSchedule::MinimumMse { bias: 0.05 })
        .build()
        .unwrap()
}

fn search(t: TicTacToe, prior: impl Prior<TicTacToe>, sims: u64) -> rave_mcts::SearchResult<u8> {
    let mut mcts = Mcts::with_policies(t, config(), UniformPlayout::new(), prior);
    mcts.search(&Budget::simulations(sims), &mut Pcg64Mcg::seed_from_u64(5))
        .unwrap()
}

#[test]
fn a_win_at_once_proves_the_root_without_a_simulation() {
    // X to move wins at 2 (top row).
    let t = TicTacToe::from_str("XX. OO. ...");
    let r = search(t, Threats, 1_000);
    assert_eq!(r.proven, Some(Proof::Win));
    assert_eq!(r.best_move, 2);
    assert_eq!(r.simulations, 0);
    assert_eq!(r.stop, StopReason::Proven);
}

#[test]
fn two_threats_prove_the_root_lost_and_a_single_threat_is_blocked() {
    // O to move; X threatens 2 and 6 (top row, left column).
    let lost = TicTacToe::from_str("XX. XO. ..O");
    let r = search(lost, Threats, 1_000);
    assert_eq!(r.proven, Some(Proof::Loss));
    assert_eq!(r.children.len(), 1);
    // X threatens 2 only: O must block there.
    let forced = TicTacToe::from_str("XX. O.. ...");
    let r = search(forced, Threats, 200);
    assert_eq!(r.best_move, 2);
    assert_eq!(r.children.len(), 1);
}

#[test]
fn proofs_with_narrowing_match_the_exact_values() {
    let mut memo = HashMap::new();
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let mut checked = 0;
    for _ in 0..200 {
        // A random position a few plies in.
        let mut t = TicTacToe::default();
        for _ in 0..rand::RngExt::random_range(&mut rng, 0..6) {
            let mut moves = Vec::new();
            t.legal_moves(&mut moves);
            if t.result().is_some() || moves.is_empty() {
                break;
            }
            t.play(moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]);
        }
        if t.result().is_some() {
            continue;
        }
        let r = search(t, Threats, 20_000);
        let exact = ttt_value(&t, &mut memo);
        if let Some(proof) = r.proven {
            let value = match proof {
                Proof::Win => 1.0,
                Proof::Draw => 0.5,
                Proof::Loss => 0.0,
            };
            assert_eq!(value, exact, "{t:?}");
            checked += 1;
        }
        // A position proven won must be played to a win.
        if r.proven == Some(Proof::Win) {
            let mut after = t;
            after.play(r.best_move);
            assert_eq!(1.0 - ttt_value(&after, &mut memo), 1.0, "{t:?}");
        }
    }
    assert!(checked > 50, "only {checked} positions proven");
}

#[test]
fn a_prior_that_removes_every_move_is_ignored() {
    let r = search(TicTacToe::default(), Empties, 500);
    assert_eq!(r.children.len(), 9);
}

/// The value of a proof for the player to move.
fn proof_value(proof: Proof) -> f32 {
    match proof {
        Proof::Win => 1.0,
        Proof::Draw => 0.5,
        Proof::Loss => 0.0,
    }
}

#[test]
fn a_win_at_once_after_tree_reuse_proves_the_root_for_the_player_to_move() {
    // X to move plays 4, O answers 2 (missing the block at 8), and X to move wins at once at
    // 8. The tree kept no node for O's 2 (the prior left O only the block), so the next
    // search expands the root anew, where the prior proves it: for X, whoever made the last
    // move of the simulations before.
    let start = TicTacToe::from_str("XO. ... ...");
    let mut after = start;
    after.play(4);
    after.play(2);
    assert_eq!(winning_cells(&after, after.to_move()), vec![8]);
    for seed in 0..16 {
        for sims in [1, 2, 5, 30] {
            let mut mcts = Mcts::with_policies(start, config(), UniformPlayout::new(), Threats);
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            mcts.search(&Budget::simulations(sims), &mut rng).unwrap();
            mcts.advance(4).unwrap();
            mcts.advance(2).unwrap();
            let r = mcts.search(&Budget::simulations(sims), &mut rng).unwrap();
            assert_eq!(
                r.proven,
                Some(Proof::Win),
                "seed {seed}, {sims} simulations"
            );
            assert_eq!(r.best_move, 8, "seed {seed}, {sims} simulations");
        }
    }
}

#[test]
fn a_win_at_once_in_a_new_position_proves_the_root_for_the_player_to_move() {
    // The same search object, moved to another position: the root is expanded anew.
    let won = TicTacToe::from_str("XX. OO. ...");
    for seed in 0..16 {
        let mut mcts = Mcts::with_policies(
            TicTacToe::default(),
            config(),
            UniformPlayout::new(),
            Threats,
        );
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        mcts.search(&Budget::simulations(50), &mut rng).unwrap();
        mcts.set_position(won);
        let r = mcts.search(&Budget::simulations(50), &mut rng).unwrap();
        assert_eq!(r.proven, Some(Proof::Win), "seed {seed}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Along a game whose moves are followed in the tree, every proof of the root, and of
    /// each root child, is the exact value of its position.
    #[test]
    fn proofs_after_tree_reuse_match_the_exact_values(
        seed in any::<u64>(),
        sims in 1u64..400,
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 9),
    ) {
        let mut memo = HashMap::new();
        let mut t = TicTacToe::default();
        let mut mcts = Mcts::with_policies(t, config(), UniformPlayout::new(), Threats);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        for pick in picks {
            if t.result().is_some() {
                break;
            }
            let r = mcts.search(&Budget::simulations(sims), &mut rng).unwrap();
            if let Some(proof) = r.proven {
                prop_assert_eq!(proof_value(proof), ttt_value(&t, &mut memo), "{:?}", t);
            }
            for c in &r.children {
                let mut child = t;
                child.play(c.mv);
                if let Some(proof) = c.proof {
                    // A child's proof is for the player who moved into it.
                    let exact = if child.result().is_some() {
                        child.result().unwrap().reward(t.to_move())
                    } else {
                        1.0 - ttt_value(&child, &mut memo)
                    };
                    prop_assert_eq!(proof_value(proof), exact, "{:?} {}", t, c.mv);
                }
            }
            let mut moves = Vec::new();
            t.legal_moves(&mut moves);
            let mv = *pick.get(&moves);
            t.play(mv);
            mcts.advance(mv).unwrap();
        }
    }
}
