//! Interleaved timing of `DenseSampler` against `rand_distr`'s `WeightedTreeIndex` at one size:
//! `sample` and `update`-then-`sample`, `u32` and `f64` weights. The implementations take
//! turns in short rounds and each keeps its fastest round, which is robust when other work
//! shares the cores and criterion's back-to-back runs see different loads.
//!
//! `cargo run --release -p weighted-sampler --example ratio -- [n] [rounds] [seed]`
//! (defaults: 271, 30, 20100).

use std::hint::black_box;
use std::time::Instant;

use rand::distr::Distribution;
use rand::{Rng, SeedableRng};
use rand_distr::weighted::WeightedTreeIndex;
use rand_pcg::Pcg64Mcg;
use weighted_sampler::DenseSampler;

const OPS: usize = 4096;
const PER_ROUND: usize = 200_000;

/// Nanoseconds per call of `f`, the fastest of the rounds it was given.
struct Best(f64);

impl Best {
    fn time(&mut self, mut f: impl FnMut(usize)) {
        let t = Instant::now();
        for k in 0..PER_ROUND {
            f(k);
        }
        let ns = t.elapsed().as_nanos() as f64 / PER_ROUND as f64;
        self.0 = self.0.min(ns);
    }
}

macro_rules! compare {
    ($t:ty, $name:expr, $gen:expr, $n:expr, $rounds:expr, $seed:expr) => {{
        let mut rng = Pcg64Mcg::seed_from_u64($seed);
        let weights: Vec<$t> = (0..$n).map(|_| $gen(&mut rng)).collect();
        let ops: Vec<(usize, $t)> = (0..OPS)
            .map(|_| ((rng.next_u64() % $n as u64) as usize, $gen(&mut rng)))
            .collect();
        let mut dense = DenseSampler::from_weights(weights.iter().copied()).unwrap();
        let mut tree = WeightedTreeIndex::new(&weights).unwrap();
        let (mut ds, mut ts, mut du, mut tu) = (
            Best(f64::MAX),
            Best(f64::MAX),
            Best(f64::MAX),
            Best(f64::MAX),
        );
        for _ in 0..$rounds {
            ds.time(|_| {
                black_box(dense.sample(&mut rng));
            });
            ts.time(|_| {
                black_box(tree.sample(&mut rng));
            });
            du.time(|k| {
                let (key, w) = ops[k % OPS];
                dense.update(key, w).unwrap();
                black_box(dense.sample(&mut rng));
            });
            tu.time(|k| {
                let (key, w) = ops[k % OPS];
                tree.update(key, w).unwrap();
                black_box(tree.sample(&mut rng));
            });
        }
        println!(
            "| sample | {} | {} | {:.1} | {:.1} | {:.2} |",
            $name,
            $n,
            ds.0,
            ts.0,
            ds.0 / ts.0
        );
        println!(
            "| update_sample | {} | {} | {:.1} | {:.1} | {:.2} |",
            $name,
            $n,
            du.0,
            tu.0,
            du.0 / tu.0
        );
    }};
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(271);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20100);
    println!("| operation | weight | n | DenseSampler (ns) | WeightedTreeIndex (ns) | ratio |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    compare!(
        u32,
        "u32",
        |r: &mut Pcg64Mcg| 1 + r.next_u32() % 1000,
        n,
        rounds,
        seed
    );
    compare!(
        f64,
        "f64",
        |r: &mut Pcg64Mcg| 1.0 + (r.next_u64() >> 11) as f64 * (999.0 / (1u64 << 53) as f64),
        n,
        rounds,
        seed
    );
}
