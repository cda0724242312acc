//! Simulations per second of the search on a synthetic game (almost free to play, so this
//! measures the search's own overhead) and on 7x7 Hex (`examples/small_hex/game.rs`), with one and
//! two threads.
//!
//! `cargo bench -p rave-mcts --bench simulations -- --warm-up-time 1 --measurement-time 3`

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;

use common::{Hex, HexPlayout, Synthetic, SyntheticPlayout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rave_mcts::{Budget, Config, Mcts, RaveSchedule, Shortlist};

const SIMULATIONS: u64 = 20_000;

fn configs(threads: usize) -> Vec<(&'static str, Config)> {
    let b = || Config::builder().threads(threads).early_stop(false);
    vec![
        ("uct", b().build().unwrap()),
        ("rave", b().rave(RaveSchedule::default()).build().unwrap()),
        ("grave", b().grave(50).build().unwrap()),
        // With the UCT bonus, as the Blackhole player searches.
        (
            "grave-uct",
            b().grave(40).exploration(0.15).build().unwrap(),
        ),
        // The same with a shortlist of 8, rescanned every 8 visits.
        (
            "grave-uct-shortlist",
            b().grave(40)
                .exploration(0.15)
                .shortlist(Some(Shortlist {
                    size: 8,
                    rescan_every: 8,
                }))
                .build()
                .unwrap(),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulations");
    group.throughput(Throughput::Elements(SIMULATIONS));
    group.sample_size(10);
    for threads in [1, 2] {
        for (name, config) in configs(threads) {
            if threads == 2 && name != "grave" {
                continue;
            }
            group.bench_function(format!("synthetic-32x48/{name}/{threads}t"), |bench| {
                let mut seed = 0;
                bench.iter(|| {
                    seed += 1;
                    let mut mcts = Mcts::with_playout(
                        Synthetic::new(32, 48),
                        config.clone(),
                        SyntheticPlayout,
                    );
                    let mut rng = Pcg64Mcg::seed_from_u64(seed);
                    black_box(
                        mcts.search(&Budget::simulations(SIMULATIONS), &mut rng)
                            .unwrap(),
                    )
                })
            });
            group.bench_function(format!("hex-7x7/{name}/{threads}t"), |bench| {
                let mut seed = 0;
                bench.iter(|| {
                    seed += 1;
                    let mut mcts =
                        Mcts::with_playout(Hex::new(7), config.clone(), HexPlayout::default());
                    let mut rng = Pcg64Mcg::seed_from_u64(seed);
                    black_box(
                        mcts.search(&Budget::simulations(SIMULATIONS), &mut rng)
                            .unwrap(),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
