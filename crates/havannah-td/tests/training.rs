//! Integration tests of the TD training: augmentation, settings, training, evaluation matches.

use havannah::board::Board;
use havannah::rules::{Colour, Position, RingDetection};
use havannah_td::{
    Augmentation, Opponent, TrainConfig, Trainer, ValueNet, augment, encode, greedy_move,
    greedy_wins_against_every_reply, play_match,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn random_net(size: u8, hidden: usize, seed: u64) -> ValueNet {
    ValueNet::new(size, hidden, &mut Pcg64Mcg::seed_from_u64(seed)).unwrap()
}

fn position(size: u8, moves: &[&str]) -> Position {
    let board = Board::new(size).unwrap();
    let mut pos = Position::new(board, RingDetection::Online);
    for m in moves {
        assert!(pos.place(board.parse_cell(m).unwrap()).is_empty());
    }
    pos
}

#[test]
fn augmentation_gives_24_distinct_images_of_an_asymmetric_position() {
    // White a1 and c2, Black b1 and e4: no symmetry of the hexagon maps these stones to
    // themselves, with or without the colour swap.
    let moves = ["a1", "b1", "c2", "e4"];
    let pos = position(3, &moves);
    let board = pos.board();
    let inputs = encode(&pos);
    let target = 0.375;

    let images = augment(board, &inputs, target, Augmentation::ALL).unwrap();
    assert_eq!(images.len(), 24);
    assert_eq!(images[0].inputs, inputs, "the position itself comes first");
    for (i, a) in images.iter().enumerate() {
        for b in &images[i + 1..] {
            assert_ne!(a.inputs, b.inputs, "two images coincide");
        }
    }
    let only_symmetries = augment(
        board,
        &inputs,
        target,
        Augmentation {
            symmetries: true,
            colour_swap: false,
        },
    )
    .unwrap();
    assert_eq!(only_symmetries.len(), 12);
    assert!(only_symmetries.iter().all(|s| s.target == target));
    assert_eq!(
        augment(board, &inputs, target, Augmentation::NONE).unwrap(),
        vec![images[0].clone()]
    );

    // Each symmetric image is the position reached by playing the mapped moves, with the
    // same target; each colour-swapped image is the position with every stone and the side
    // to move swapped, with the negated target.
    for sym in board.symmetries() {
        let mut mapped = Position::new(board, RingDetection::Online);
        for m in moves {
            mapped.place(sym.apply(board.parse_cell(m).unwrap()));
        }
        let expected = encode(&mapped);
        assert!(
            images
                .iter()
                .any(|s| s.inputs == expected && s.target == target),
            "symmetry {} missing",
            sym.index()
        );
        let swapped: Vec<f32> = expected.iter().map(|x| -x).collect();
        assert!(
            images
                .iter()
                .any(|s| s.inputs == swapped && s.target == -target),
            "colour swap of symmetry {} missing",
            sym.index()
        );
    }
    // Side to move: White moved twice, Black twice, so White is to move (+1); in the
    // colour-swapped images Black is to move.
    let n = board.num_cells();
    assert_eq!(pos.to_move(), Colour::White);
    assert_eq!(images.iter().filter(|s| s.inputs[n] == 1.0).count(), 12);
    assert!(
        images
            .iter()
            .all(|s| (s.inputs[n] == 1.0) == (s.target == target))
    );
}

#[test]
fn augmentation_of_the_empty_board_repeats_one_position() {
    let pos = position(4, &[]);
    let images = augment(pos.board(), &encode(&pos), 0.5, Augmentation::ALL).unwrap();
    assert_eq!(images.len(), 24);
    let with_target = images.iter().filter(|s| s.target == 0.5).count();
    assert_eq!(with_target, 12);
    assert!(
        images
            .iter()
            .all(|s| s.inputs == images[0].inputs || s.target == -0.5)
    );
}

#[test]
fn augment_rejects_bad_input() {
    let board = Board::new(3).unwrap();
    assert!(augment(board, &[0.0; 5], 0.0, Augmentation::ALL).is_err());
    let mut inputs = vec![0.0; board.num_cells() + 1];
    assert!(augment(board, &inputs, 1.5, Augmentation::ALL).is_err());
    inputs[3] = 0.5;
    assert!(augment(board, &inputs, 0.0, Augmentation::ALL).is_err());
}

#[test]
fn invalid_settings_are_errors() {
    let base = TrainConfig::new(3);
    let with = |change: fn(&mut TrainConfig)| {
        let mut config = base.clone();
        change(&mut config);
        config
    };
    for bad in [
        with(|c| c.size = 1),
        with(|c| c.hidden = 0),
        with(|c| c.lambda = 1.5),
        with(|c| c.gamma = 0.0),
        with(|c| c.learning_rate = f32::NAN),
        with(|c| c.temperature = -1.0),
        with(|c| c.batch = 0),
        with(|c| c.threads = 0),
    ] {
        assert!(Trainer::new(bad.clone()).is_err(), "{bad:?}");
    }
    let net = random_net(3, 4, 1);
    assert!(play_match(&net, Opponent::Mcts { simulations: 0 }, 2, 1, 1).is_err());
    assert!(play_match(&net, Opponent::Random, 2, 1, 0).is_err());
}

#[test]
fn training_is_deterministic_and_independent_of_threads() {
    let mut config = TrainConfig::new(3);
    config.hidden = 16;
    config.batch = 4;
    let train = |threads| {
        let mut threaded = config.clone();
        threaded.threads = threads;
        let mut t = Trainer::new(threaded).unwrap();
        t.train(24, |_| {});
        (t.net().clone(), t.stats())
    };
    let one = train(1);
    assert_eq!(one, train(1));
    assert_eq!(one, train(3));
    let other_seed = {
        let mut reseeded = config.clone();
        reseeded.seed = 2;
        let mut t = Trainer::new(reseeded).unwrap();
        t.train(24, |_| {});
        t.into_net()
    };
    assert_ne!(one.0, other_seed);
    assert_eq!(one.1.games, 24);
    assert_eq!(one.1.white_wins + one.1.black_wins + one.1.draws, 24);
}

#[test]
fn size_2_training_learns_the_first_player_win() {
    let board = Board::new(2).unwrap();
    let empty = Position::new(board, RingDetection::Online);
    // Seeds whose untrained net (the trainer's initial weights) does NOT win against every
    // reply: training must fix that.
    for seed in [2, 3, 20] {
        let mut config = TrainConfig::new(2);
        config.hidden = 32;
        config.seed = seed;
        let mut trainer = Trainer::new(config).unwrap();
        assert!(!greedy_wins_against_every_reply(trainer.net(), &empty));
        trainer.train(400, |_| {});
        let net = trainer.net();
        let first = greedy_move(net, &empty).unwrap();
        assert!(
            greedy_wins_against_every_reply(net, &empty),
            "seed {seed}: the net's first move {} does not win against every reply",
            board.cell_name(first)
        );
        // The net also knows it: the empty board and every reply to its first move are
        // valued as White wins.
        assert!(net.evaluate(&empty) > 0.5, "seed {seed}");
        let mut after = empty.clone();
        after.place(first);
        for reply in board.cells().filter(|&c| after.is_empty(c)) {
            let mut next = after.clone();
            next.place(reply);
            assert!(
                net.evaluate(&next) > 0.0,
                "seed {seed}, reply {}",
                board.cell_name(reply)
            );
        }
    }
}

#[test]
fn match_counts_add_up_and_the_net_beats_random_on_size_3() {
    let mut config = TrainConfig::new(3);
    config.hidden = 32;
    let mut trainer = Trainer::new(config).unwrap();
    trainer.train(400, |_| {});
    let net = trainer.net();
    let r = play_match(net, Opponent::Random, 100, 5, 2).unwrap();
    assert_eq!(r.games, 100);
    assert_eq!(r.games_as_white, 50);
    assert_eq!(r.wins + r.losses + r.draws, 100);
    assert!(r.win_rate() >= 0.9, "{r:?}");
    assert_eq!(r, play_match(net, Opponent::Random, 100, 5, 1).unwrap());
    let m = play_match(net, Opponent::Mcts { simulations: 50 }, 4, 5, 1).unwrap();
    assert_eq!(m.games, 4);
    assert_eq!(m.wins + m.losses + m.draws, 4);
}
