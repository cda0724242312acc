//! Every row of `havannah playout-table` (the paper's table 1 plus the engine's knowledge
//! playout, with the table's own code, `havannah_cli::playout_table::rows`), the engine's
//! playout policies from the empty board (each playout stops at the first win), and MCTS
//! simulations.
//!
//! `cargo bench --bench playouts -- --warm-up-time 1 --measurement-time 3`
//! (`cargo bench --bench playouts -- paper_row` for the table's rows only)

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use havannah::rules::Move;
use havannah::{HavannahGame, HavannahPlayout, PlayoutConfig, Policy, RingCheck};
use havannah_board::Board;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, Playout, RaveSchedule, Trace};

// The table's rows, as `havannah playout-table` times them.
use havannah_cli::playout_table::rows;

fn bench_paper_rows(c: &mut Criterion) {
    let mut group = c.benchmark_group("paper_row");
    for size in [4u8, 6, 8, 10] {
        let board = Board::new(size).expect("valid size");
        let mut bench = rows::Bench::new(board, 1);
        for row in 1..=rows::ROWS.len() {
            group.bench_with_input(
                BenchmarkId::new(format!("row{row}"), size),
                &size,
                |b, _| {
                    b.iter(|| bench.run(row));
                },
            );
        }
    }
    group.finish();
}

fn policies() -> Vec<(&'static str, PlayoutConfig)> {
    let with = |policy: Policy, rings: RingCheck| {
        let mut config = PlayoutConfig::default();
        config.policy = policy;
        config.rings = rings;
        config
    };
    vec![
        ("uniform_online", with(Policy::Uniform, RingCheck::Online)),
        ("uniform_offline", with(Policy::Uniform, RingCheck::Offline)),
        ("weighted_online", with(Policy::Weighted, RingCheck::Online)),
        (
            "weighted_offline",
            with(Policy::Weighted, RingCheck::Offline),
        ),
        ("uniform_knowledge", PlayoutConfig::strong()),
    ]
}

fn bench_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    for size in [4u8, 6, 8, 10] {
        let board = Board::new(size).expect("valid size");
        let start = HavannahGame::new(board, false);
        for (name, config) in policies() {
            let mut policy = HavannahPlayout::new(config);
            let mut game = start.clone();
            let mut rng = Pcg64Mcg::seed_from_u64(1);
            let mut trace: Trace<Move> = Trace::new();
            group.bench_with_input(BenchmarkId::new(name, size), &size, |b, _| {
                b.iter(|| {
                    game.clone_from(&start);
                    trace.clear();
                    policy.playout(&mut game, &mut rng, usize::MAX, &mut trace)
                });
            });
        }
    }
    group.finish();
}

fn bench_mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts_1000_simulations");
    group.sample_size(10);
    for size in [4u8, 8] {
        let board = Board::new(size).expect("valid size");
        for (name, config) in [
            ("uct", Config::builder().uct().early_stop(false).build()),
            (
                "rave",
                Config::builder()
                    .rave(RaveSchedule::MinimumMse { bias: 0.05 })
                    .early_stop(false)
                    .build(),
            ),
        ] {
            let config = config.expect("valid config");
            let mut rng = Pcg64Mcg::seed_from_u64(2);
            group.bench_with_input(BenchmarkId::new(name, size), &size, |b, _| {
                b.iter(|| {
                    let mut search = Mcts::with_playout(
                        HavannahGame::new(board, false),
                        config.clone(),
                        HavannahPlayout::new(PlayoutConfig::default()),
                    );
                    search.search(&Budget::simulations(1000), &mut rng)
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_paper_rows, bench_playouts, bench_mcts);
criterion_main!(benches);
