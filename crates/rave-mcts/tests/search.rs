//! Properties of the search: determinism, budgets, tree reuse, threads, parameters, priors and
//! the optional features.

mod common;

use std::time::Duration;

use common::{Hex, HexPlayout, Nim, Synthetic, SyntheticPlayout, TicTacToe};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{
    AmafWeighting, Budget, Config, FinalMove, Game, Mcts, MctsError, NoPrior, Phase, Prior,
    PriorTarget, PriorValue, Proof, RaveSchedule, Rewards, SearchResult, Shortlist, StopReason,
    bytes_per_node,
};

fn all_configs() -> Vec<Config> {
    vec![
        Config::default(),
        Config::builder()
            .rave(RaveSchedule::default())
            .build()
            .unwrap(),
        Config::builder()
            .rave(RaveSchedule::Equivalence { k: 300.0 })
            .exploration(0.2)
            .build()
            .unwrap(),
        Config::builder().grave(30).build().unwrap(),
        Config::builder()
            .grave(30)
            .amaf_weighting(AmafWeighting::Playout)
            .amaf_horizon(Some(6))
            .playout_horizon(true)
            .build()
            .unwrap(),
        // A shortlist short enough for tic-tac-toe's nine moves (the Blackhole player's
        // selection, with 2 children kept instead of 8).
        Config::builder()
            .grave(30)
            .exploration(0.15)
            .shortlist(Some(Shortlist {
                size: 2,
                rescan_every: 4,
            }))
            .build()
            .unwrap(),
    ]
}

/// Everything but the timings.
fn same_search(a: &SearchResult<u8>, b: &SearchResult<u8>) -> bool {
    a.best_move == b.best_move
        && a.principal_variation == b.principal_variation
        && a.children == b.children
        && a.simulations == b.simulations
        && a.tree_nodes == b.tree_nodes
        && a.proven == b.proven
}

#[test]
fn one_thread_with_a_seed_is_deterministic() {
    for config in all_configs() {
        let run = |seed| {
            let mut mcts = Mcts::with_playout(Hex::new(5), config.clone(), HexPlayout::default());
            mcts.search(
                &Budget::simulations(3000),
                &mut Pcg64Mcg::seed_from_u64(seed),
            )
            .unwrap()
        };
        let (a, b, c) = (run(5), run(5), run(6));
        assert!(same_search(&a, &b), "{config:?}");
        assert!(!same_search(&a, &c), "another seed gives another search");
    }
}

#[test]
fn several_threads_search_one_tree_and_count_every_simulation() {
    // Several threads share one tree: their interleaving makes the search vary from run to
    // run (no determinism), but every simulation is counted once, in one tree.
    for threads in [2, 4] {
        let config = Config::builder()
            .grave(20)
            .threads(threads)
            .early_stop(false)
            .build()
            .unwrap();
        let mut mcts = Mcts::with_playout(Hex::new(5), config, HexPlayout::default());
        let r = mcts
            .search(&Budget::simulations(4000), &mut Pcg64Mcg::seed_from_u64(9))
            .unwrap();
        assert_eq!(r.simulations, 4000);
        let visits: u64 = r.children.iter().map(|c| c.visits).sum();
        assert_eq!(
            visits, 4000,
            "{threads} threads: one tree, no virtual loss left"
        );
        assert_eq!(r.root_visits, 4000);
        assert_eq!(mcts.tree_nodes(), r.tree_nodes);
        // The principal variation follows the tree from the best move.
        assert_eq!(r.principal_variation[0], r.best_move);
        assert!(r.principal_variation.len() > 1);
    }
}

#[test]
fn the_simulation_budget_is_exact_without_early_stop() {
    let config = Config::builder().early_stop(false).build().unwrap();
    let mut mcts = Mcts::with_playout(Hex::new(5), config, HexPlayout::default());
    let r = mcts
        .search(&Budget::simulations(1234), &mut Pcg64Mcg::seed_from_u64(1))
        .unwrap();
    assert_eq!(r.simulations, 1234);
    assert_eq!(r.root_visits, 1234);
    assert_eq!(r.stop, StopReason::Simulations);
    // The phase clock timed simulations 0, 64, ..., 1216: twenty of them. Each ran a
    // playout, and the shares of the five phases make the whole.
    assert_eq!(r.phases.sampled, 20);
    assert!(
        r.phases.nanos[Phase::Playout as usize] > 0,
        "{:?}",
        r.phases
    );
    let shares: f64 = Phase::ALL.iter().map(|&p| r.phases.share(p)).sum();
    assert!((shares - 1.0).abs() < 1e-9, "{:?}", r.phases);
}

#[test]
fn early_stop_ends_when_the_best_move_is_fixed() {
    let mut mcts = Mcts::with_playout(Hex::new(3), Config::default(), HexPlayout::default());
    let r = mcts
        .search(
            &Budget::simulations(100_000),
            &mut Pcg64Mcg::seed_from_u64(1),
        )
        .unwrap();
    assert!(r.simulations < 100_000);
    assert!(matches!(
        r.stop,
        StopReason::BestMoveFixed | StopReason::Proven
    ));
    let (best, second) = (r.children[0].visits, r.children[1].visits);
    if r.stop == StopReason::BestMoveFixed {
        assert!(best - second > 100_000 - r.simulations);
    }
}

/// A 7x7 Hex search with `config` on `threads` threads, expanding leaves at once and never
/// stopping early, and its result within 3,000 nodes and 20,000 simulations.
fn search_in_3000_nodes(
    config: &Config,
    threads: usize,
) -> (Mcts<Hex, HexPlayout>, Pcg64Mcg, SearchResult<u8>) {
    let config = config
        .to_builder()
        .threads(threads)
        .expand_threshold(0)
        .early_stop(false)
        .build()
        .unwrap();
    let mut mcts = Mcts::with_playout(Hex::new(7), config, HexPlayout::default());
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let r = mcts
        .search(&Budget::nodes(3000).with_simulations(20_000), &mut rng)
        .unwrap();
    (mcts, rng, r)
}

#[test]
fn the_node_budget_is_never_exceeded() {
    for threads in [1, 2] {
        for config in all_configs() {
            let (mut mcts, mut rng, r) = search_in_3000_nodes(&config, threads);
            assert!(r.tree_nodes <= 3000, "{} nodes", r.tree_nodes);
            assert!(r.tree_nodes > 2000, "the tree fills up: {}", r.tree_nodes);
            assert_eq!(r.simulations, 20_000, "the search goes on with a full tree");
            let r = mcts.search(&Budget::nodes(3000), &mut rng).unwrap();
            assert!(r.tree_nodes <= 3000);
            assert_eq!(r.stop, StopReason::Nodes);
            // The memory held is within the budget too (no doubling past it).
            let per_node = bytes_per_node::<u8>(mcts.config());
            let bytes = mcts.tree_bytes();
            assert!(bytes <= 3000 * per_node, "{bytes} bytes");
            assert!(bytes >= r.tree_nodes * per_node);
            // After a move, the memory held stays within the budget.
            let best = r.children[0].mv;
            mcts.advance(best).unwrap();
            assert!(mcts.tree_bytes() <= 3000 * per_node);
        }
    }
    let mut mcts = Mcts::new(Hex::new(5), Config::default());
    let err = mcts
        .search(&Budget::nodes(10), &mut Pcg64Mcg::seed_from_u64(2))
        .unwrap_err();
    assert!(matches!(err, MctsError::InvalidParameter { .. }), "{err}");
}

#[test]
fn a_full_tree_is_pruned_and_the_search_goes_on_growing_it() {
    for threads in [1, 2] {
        let depth = |prune: bool| {
            let config = Config::builder()
                .grave(30)
                .prune_when_full(prune)
                .build()
                .unwrap();
            let (mut mcts, mut rng, r) = search_in_3000_nodes(&config, threads);
            assert_eq!(r.simulations, 20_000, "the whole budget is spent");
            assert!(r.tree_nodes <= 3000, "{} nodes", r.tree_nodes);
            // The root's statistics and its children's survive every pruning.
            assert_eq!(r.root_visits, 20_000);
            let below: u64 = r.children.iter().map(|c| c.visits).sum();
            assert!(below + 1 >= r.root_visits, "{below} below the root");
            // A node budget alone still stops the search when the tree is full.
            let r2 = mcts.search(&Budget::nodes(3000), &mut rng).unwrap();
            assert_eq!(r2.stop, StopReason::Nodes);
            r.max_depth
        };
        let (plain, pruned) = (depth(false), depth(true));
        assert!(
            pruned > plain + 2,
            "{threads} threads: a pruned tree grows deeper ({pruned} against {plain})"
        );
    }
}

#[test]
fn tree_reuse_keeps_the_visited_subtree() {
    let config = Config::builder().grave(20).build().unwrap();
    let mut mcts = Mcts::with_playout(Hex::new(5), config, HexPlayout::default());
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let r = mcts.search(&Budget::simulations(5000), &mut rng).unwrap();
    let best = r.children[0];
    let nodes_before = mcts.tree_nodes();
    mcts.advance(best.mv).unwrap();
    assert_eq!(
        mcts.root_visits(),
        best.visits,
        "the child's visits are kept"
    );
    assert!(mcts.tree_nodes() > 1 && mcts.tree_nodes() < nodes_before);
    // The kept subtree is the same as searching the child position: its children's visits add
    // up to the child's visits (minus the simulation that expanded it).
    let r2 = mcts.search(&Budget::simulations(1000), &mut rng).unwrap();
    assert_eq!(r2.root_visits, best.visits + r2.simulations);
    let reply = r2.children[0].mv;
    assert!(mcts.game().is_empty(usize::from(reply)));
    // An unknown move (not in the tree) starts afresh; an illegal one is refused.
    let err = mcts.advance(best.mv).unwrap_err();
    assert!(matches!(err, MctsError::IllegalMove(_)), "{err}");
    let mut fresh = Mcts::with_playout(Hex::new(5), Config::default(), HexPlayout::default());
    fresh.advance(3).unwrap();
    assert_eq!(fresh.tree_nodes(), 0);
    assert_eq!(fresh.root_visits(), 0);
}

#[test]
fn advancing_through_a_move_and_its_reply_at_once_keeps_what_two_advances_keep() {
    let config = Config::builder().grave(20).build().unwrap();
    // The same seeded search on two trees; then a move and its reply, each at once or both
    // together (one compaction), and another seeded search from there on each.
    let run = |together: bool| {
        let mut mcts = Mcts::with_playout(Hex::new(5), config.clone(), HexPlayout::default());
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let first = mcts.search(&Budget::simulations(5000), &mut rng).unwrap();
        let (mv, reply) = (first.best_move, first.principal_variation[1]);
        let move_visits = mcts_child_visits(&first, mv);
        if together {
            mcts.advance_all(&[mv, reply]).unwrap();
        } else {
            mcts.advance(mv).unwrap();
            mcts.advance(reply).unwrap();
        }
        let kept = (mcts.tree_nodes(), mcts.root_visits());
        let second = mcts.search(&Budget::simulations(2000), &mut rng).unwrap();
        (kept, move_visits, second)
    };
    let (kept_apart, visits, apart) = run(false);
    let (kept_together, _, together) = run(true);
    assert!(
        visits > kept_apart.1,
        "the reply's subtree is a part of the move's"
    );
    assert!(kept_apart.0 > 1, "a subtree is kept: {kept_apart:?}");
    assert_eq!(kept_together, kept_apart);
    assert!(same_search(&apart, &together), "{apart:?}\n{together:?}");
    // An illegal move among them changes nothing; no moves change nothing.
    let mut mcts = Mcts::with_playout(Hex::new(5), config, HexPlayout::default());
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    mcts.search(&Budget::simulations(500), &mut rng).unwrap();
    let nodes = mcts.tree_nodes();
    let err = mcts.advance_all(&[3, 3]).unwrap_err();
    assert!(
        matches!(err, MctsError::IllegalMove(ref m) if m == "3"),
        "{err}"
    );
    mcts.advance_all(&[]).unwrap();
    assert_eq!((mcts.tree_nodes(), mcts.game().is_empty(3)), (nodes, true));
}

/// The visits of the root child of `result` with move `mv`.
fn mcts_child_visits(result: &SearchResult<u8>, mv: u8) -> u64 {
    result
        .children
        .iter()
        .find(|c| c.mv == mv)
        .map_or(0, |c| c.visits)
}

#[test]
fn threads_search_and_merge() {
    let config = Config::builder()
        .rave(RaveSchedule::default())
        .threads(2)
        .early_stop(false)
        .build()
        .unwrap();
    let mut mcts = Mcts::with_playout(Synthetic::new(8, 30), config, SyntheticPlayout);
    let r = mcts
        .search(
            &Budget::time(Duration::from_millis(100)),
            &mut Pcg64Mcg::seed_from_u64(3),
        )
        .unwrap();
    assert!(r.simulations > 0);
    assert_eq!(r.stop, StopReason::Time);
    assert!(r.elapsed >= Duration::from_millis(100));
    let visits: u64 = r.children.iter().map(|c| c.visits).sum();
    assert_eq!(visits, r.simulations);
    // Tree reuse of the shared tree.
    let mv = r.best_move;
    mcts.advance(mv).unwrap();
    let kept = mcts.root_visits();
    assert_eq!(kept, r.children[0].visits);
}

#[test]
fn bad_parameters_are_errors() {
    let cases: Vec<(&str, Result<Config, MctsError>)> = vec![
        ("exploration", Config::builder().exploration(-0.1).build()),
        (
            "exploration",
            Config::builder().exploration(f64::NAN).build(),
        ),
        (
            "first_play_urgency",
            Config::builder().first_play_urgency(-1.0).build(),
        ),
        (
            "rave bias",
            Config::builder()
                .rave(RaveSchedule::MinimumMse { bias: -1.0 })
                .build(),
        ),
        (
            "rave equivalence k",
            Config::builder()
                .rave(RaveSchedule::Equivalence { k: 0.0 })
                .build(),
        ),
        ("threads", Config::builder().threads(0).build()),
        (
            "amaf_horizon",
            Config::builder().amaf_horizon(Some(0)).build(),
        ),
        (
            "horizon_growth",
            Config::builder().horizon_growth(1.0).build(),
        ),
        ("shortlist size", shortlist(0, 8)),
        ("shortlist size", shortlist(Shortlist::MAX_SIZE + 1, 8)),
        ("shortlist rescan_every", shortlist(4, 0)),
    ];
    for (name, r) in cases {
        match r {
            Err(MctsError::InvalidParameter { name: n, .. }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
    let mut mcts = Mcts::new(TicTacToe::default(), Config::default());
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    for (budget, expected) in [
        (Budget::default(), "empty budget"),
        (Budget::simulations(0), "simulations"),
        (Budget::time(Duration::ZERO), "time"),
        (Budget::nodes(0), "nodes"),
    ] {
        let err = mcts.search(&budget, &mut rng).unwrap_err();
        assert!(err.to_string().contains(expected), "{err}");
    }
    assert!(Rewards::from_rewards(1.5, 0.0).is_err());
    assert!(Rewards::from_rewards(0.25, 0.75).is_ok());
    let mut over = Mcts::new(
        Nim {
            stones: 0,
            player: 0,
        },
        Config::default(),
    );
    assert_eq!(
        over.search(&Budget::simulations(10), &mut rng).unwrap_err(),
        MctsError::GameOver
    );
}

fn shortlist(size: usize, rescan_every: u32) -> Result<Config, MctsError> {
    Config::builder()
        .shortlist(Some(Shortlist { size, rescan_every }))
        .build()
}

/// The selections that the shortlist tests use: GRAVE and RAVE with a UCT bonus, RAVE
/// without (whose full pass is the fast one), plain UCT.
fn shortlisted_configs() -> Vec<Config> {
    vec![
        Config::builder()
            .grave(40)
            .exploration(0.15)
            .build()
            .unwrap(),
        Config::builder()
            .rave(RaveSchedule::default())
            .build()
            .unwrap(),
        Config::builder()
            .rave(RaveSchedule::default())
            .exploration(0.3)
            .build()
            .unwrap(),
        Config::default(),
    ]
}

fn with_shortlist(config: &Config, size: usize, rescan_every: u32) -> Config {
    config
        .to_builder()
        .shortlist(Some(Shortlist { size, rescan_every }))
        .build()
        .unwrap()
}

/// A seeded search of 5x5 Hex (25 moves: wider than twice the shortlist), and another from
/// the position after its best move, on the same tree (tree reuse).
fn search_and_reuse(config: Config) -> (SearchResult<u8>, SearchResult<u8>) {
    let mut mcts = Mcts::with_playout(Hex::new(5), config, HexPlayout::default());
    let mut rng = Pcg64Mcg::seed_from_u64(12);
    let first = mcts.search(&Budget::simulations(3000), &mut rng).unwrap();
    mcts.advance(first.best_move).unwrap();
    let second = mcts.search(&Budget::simulations(2000), &mut rng).unwrap();
    (first, second)
}

#[test]
fn a_shortlist_rescanned_at_every_visit_chooses_as_the_full_selection() {
    for config in shortlisted_configs() {
        let (a, a_reused) = search_and_reuse(config.clone());
        let (b, b_reused) = search_and_reuse(with_shortlist(&config, 8, 1));
        assert!(same_search(&a, &b), "{config:?}");
        // After tree reuse, too: the lists of the old tree's nodes are forgotten.
        assert!(same_search(&a_reused, &b_reused), "{config:?}");
        // Rescanned every 8 visits, the shortlist changes the search.
        let (c, _) = search_and_reuse(with_shortlist(&config, 8, 8));
        assert!(!same_search(&a, &c), "{config:?}");
    }
}

#[test]
fn a_search_with_a_shortlist_still_finds_the_winning_move() {
    // 5x5 Hex, player 0 (top to bottom) to move: column 2 is filled but for row 2, and
    // player 1 has no chain close to one; cell 12 wins at once.
    let mut hex = Hex::new(5);
    for (own, theirs) in [(2, 0), (7, 5), (17, 9), (22, 19)] {
        hex.play(own);
        hex.play(theirs);
    }
    for config in shortlisted_configs() {
        let config = with_shortlist(&config, 4, 8);
        let mut mcts = Mcts::with_playout(hex, config.clone(), HexPlayout::default());
        let r = mcts
            .search(
                &Budget::simulations(20_000),
                &mut Pcg64Mcg::seed_from_u64(2),
            )
            .unwrap();
        assert_eq!(r.best_move, 12, "{config:?}");
        assert_eq!(r.proven, Some(Proof::Win), "{config:?}");
    }
}

/// A prior that tells the search to like one move.
struct Favour(u8);

impl Prior<Hex> for Favour {
    fn priors(&self, _game: &Hex, moves: &[u8], out: &mut [PriorValue]) {
        for (m, p) in moves.iter().zip(out) {
            if *m == self.0 {
                *p = PriorValue {
                    wins: 50.0,
                    visits: 50,
                    bias: 0.0,
                };
            } else {
                *p = PriorValue {
                    wins: 0.0,
                    visits: 50,
                    bias: 0.0,
                };
            }
        }
    }
}

#[test]
fn a_simulation_expands_at_most_one_node_even_with_prior_visits() {
    // Favour gives every new child 50 virtual visits, more than the expansion threshold: the
    // search must still expand one node per simulation and play out from its child.
    let game = Hex::new(5);
    let children = {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.len()
    };
    for config in all_configs() {
        let mut mcts = Mcts::with_policies(game, config.clone(), HexPlayout::default(), Favour(0));
        let sims = 20;
        let r = mcts
            .search(&Budget::simulations(sims), &mut Pcg64Mcg::seed_from_u64(3))
            .unwrap();
        // The root plus at most one set of children per simulation (and the root's own).
        let bound = 1 + (sims as usize + 1) * children;
        assert!(
            r.tree_nodes <= bound,
            "{} nodes > {bound}: {config:?}",
            r.tree_nodes
        );
        assert!(
            r.max_depth <= sims as usize + 1,
            "depth {}: {config:?}",
            r.max_depth
        );
    }
}

#[test]
fn priors_steer_new_nodes() {
    for config in all_configs() {
        let mut mcts = Mcts::with_policies(
            Hex::new(5),
            config.clone(),
            HexPlayout::default(),
            Favour(0),
        );
        let r = mcts
            .search(&Budget::simulations(200), &mut Pcg64Mcg::seed_from_u64(1))
            .unwrap();
        assert_eq!(r.best_move, 0, "{config:?}");
        assert!(r.children.iter().all(|c| c.visits >= 50));
        let mut plain = Mcts::with_policies(Hex::new(5), config, HexPlayout::default(), NoPrior);
        let r = plain
            .search(&Budget::simulations(200), &mut Pcg64Mcg::seed_from_u64(1))
            .unwrap();
        assert_ne!(
            r.best_move, 0,
            "a corner is not what the plain search likes"
        );
    }
}

#[test]
fn optional_features_still_solve_tic_tac_toe() {
    let t = TicTacToe::from_str("X.. ... ..O");
    for config in all_configs() {
        for final_move in [FinalMove::MostVisits, FinalMove::BestValue] {
            let config = config.to_builder().final_move(final_move).build().unwrap();
            let mut mcts = Mcts::new(t, config.clone());
            let r = mcts
                .search(
                    &Budget::simulations(30_000),
                    &mut Pcg64Mcg::seed_from_u64(8),
                )
                .unwrap();
            assert_eq!(r.proven, Some(Proof::Win), "{config:?}");
            let mut after = t;
            after.play(r.best_move);
            assert!(matches!(r.best_move, 2 | 6), "{config:?}: {}", r.best_move);
        }
    }
}

#[test]
fn the_playout_horizon_discards_long_playouts_and_adapts() {
    let config = Config::builder()
        .grave(20)
        .playout_horizon(true)
        .early_stop(false)
        .build()
        .unwrap();
    let mut mcts = Mcts::with_playout(Hex::new(7), config, HexPlayout::default());
    let r = mcts
        .search(&Budget::simulations(5000), &mut Pcg64Mcg::seed_from_u64(5))
        .unwrap();
    assert_eq!(r.simulations, 5000);
    assert!(r.discarded > 0, "some playouts exceed the horizon");
    assert!(
        r.discarded < 4000,
        "the horizon grows: {} discarded",
        r.discarded
    );
    assert_eq!(r.root_visits, r.simulations - r.discarded);
    // Off by default: nothing is discarded.
    let mut plain = Mcts::with_playout(Hex::new(7), Config::default(), HexPlayout::default());
    let r = plain
        .search(&Budget::simulations(2000), &mut Pcg64Mcg::seed_from_u64(5))
        .unwrap();
    assert_eq!(r.discarded, 0);
}

#[test]
fn results_are_consistent() {
    let config = Config::builder().grave(20).build().unwrap();
    let mut mcts = Mcts::with_playout(Hex::new(5), config, HexPlayout::default());
    let r = mcts
        .search(&Budget::simulations(3000), &mut Pcg64Mcg::seed_from_u64(7))
        .unwrap();
    assert_eq!(r.children.len(), 25);
    assert!(r.children.windows(2).all(|w| w[0].visits >= w[1].visits));
    assert_eq!(r.best_move, r.children[0].mv);
    assert_eq!(r.principal_variation[0], r.best_move);
    assert!(r.principal_variation.len() >= 2);
    for c in &r.children {
        assert!((0.0..=1.0).contains(&c.value));
        assert!((0.0..=1.0).contains(&c.amaf_value));
        assert!(c.amaf_visits >= 0.0);
    }
    // The PV is a legal line.
    let mut h = *mcts.game();
    for &mv in &r.principal_variation {
        assert!(h.is_empty(usize::from(mv)));
        h.play(mv);
    }
    assert!(r.simulations_per_second > 0.0);
    assert!(r.max_depth >= 2);
    assert!(bytes_per_node::<u8>(&Config::default()) <= 32);
}

#[test]
fn the_prior_target_picks_the_statistics_that_get_virtual_visits() {
    // Favour gives every root child 50 virtual visits. After one simulation a child holds at
    // most one real visit and one real AMAF sample on top of what the prior put there.
    for target in [PriorTarget::Both, PriorTarget::Uct, PriorTarget::Amaf] {
        let config = Config::builder()
            .rave(RaveSchedule::default())
            .prior_target(target)
            .build()
            .unwrap();
        assert_eq!(config.prior_target(), target);
        let mut mcts = Mcts::with_policies(Hex::new(4), config, HexPlayout::default(), Favour(0));
        let r = mcts
            .search(&Budget::simulations(1), &mut Pcg64Mcg::seed_from_u64(5))
            .unwrap();
        for c in &r.children {
            let uct_primed = c.visits >= 50;
            let amaf_primed = c.amaf_visits >= 50.0;
            assert!(c.visits <= 51 && c.amaf_visits <= 51.0, "{target:?}: {c:?}");
            match target {
                PriorTarget::Both => assert!(uct_primed && amaf_primed, "{c:?}"),
                PriorTarget::Uct => assert!(uct_primed && !amaf_primed, "{c:?}"),
                PriorTarget::Amaf => assert!(!uct_primed && amaf_primed, "{c:?}"),
                _ => unreachable!(),
            }
        }
    }
}
