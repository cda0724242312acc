//! Criterion benches: `DenseSampler` against `rand_distr::weighted::WeightedTreeIndex` and
//! (sampling only) `rand::distr::weighted::WeightedIndex`.
//!
//! Groups `sample/<W>`, `update_sample/<W>` and `churn/<W>` for `W` in `u32`, `f64`, at
//! n = 37, 169, 271 (Havannah boards of size 4, 8, 10), 4096 and 65536. Every operation draws
//! its keys and weights from a precomputed table, the same for every implementation; all use
//! a `Pcg64Mcg` seeded with `SEED`.
//!
//! Run with short settings, then write the table:
//!
//! ```sh
//! cargo bench -p weighted-sampler --bench sampler -- --warm-up-time 0.5 --measurement-time 1
//! python3 crates/weighted-sampler/benches/table.py "$CARGO_TARGET_DIR/criterion"
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::distr::Distribution;
use rand::distr::uniform::SampleUniform;
use rand::distr::weighted::{Weight as RandWeight, WeightedIndex};
use rand::{Rng, SeedableRng};
use rand_distr::weighted::WeightedTreeIndex;
use rand_pcg::Pcg64Mcg;
use weighted_sampler::{DenseSampler, Weight};

const SEED: u64 = 20100;
const SIZES: [usize; 5] = [37, 169, 271, 4096, 65536];
/// Length of the precomputed operation table (a power of two, indexed with a mask).
const OPS: usize = 4096;

/// A weight type both libraries accept, with a generator of random weights.
trait BenchWeight:
    Weight + RandWeight + SampleUniform + PartialOrd + core::ops::SubAssign + Clone
{
    const NAME: &'static str;
    fn random(rng: &mut Pcg64Mcg) -> Self;
}

impl BenchWeight for u32 {
    const NAME: &'static str = "u32";
    fn random(rng: &mut Pcg64Mcg) -> Self {
        1 + rng.next_u32() % 1000
    }
}

impl BenchWeight for f64 {
    const NAME: &'static str = "f64";
    fn random(rng: &mut Pcg64Mcg) -> Self {
        1.0 + (rng.next_u64() >> 11) as f64 * (999.0 / (1u64 << 53) as f64)
    }
}

/// Initial weights and a table of (key, weight) operations for size `n`.
fn setup<W: BenchWeight>(n: usize) -> (Vec<W>, Vec<(usize, W)>) {
    let mut rng = Pcg64Mcg::seed_from_u64(SEED ^ n as u64);
    let weights = (0..n).map(|_| W::random(&mut rng)).collect();
    let ops = (0..OPS)
        .map(|_| ((rng.next_u64() % n as u64) as usize, W::random(&mut rng)))
        .collect();
    (weights, ops)
}

fn bench_sample<W: BenchWeight>(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("sample/{}", W::NAME));
    for n in SIZES {
        let (weights, _) = setup::<W>(n);
        let dense = DenseSampler::from_weights(weights.iter().copied()).unwrap();
        let tree = WeightedTreeIndex::new(&weights).unwrap();
        let index = WeightedIndex::new(&weights).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(SEED);
        group.bench_function(BenchmarkId::new("dense", n), |b| {
            b.iter(|| black_box(dense.sample(&mut rng)))
        });
        group.bench_function(BenchmarkId::new("tree_index", n), |b| {
            b.iter(|| black_box(tree.sample(&mut rng)))
        });
        group.bench_function(BenchmarkId::new("weighted_index", n), |b| {
            b.iter(|| black_box(index.sample(&mut rng)))
        });
    }
    group.finish();
}

fn bench_update_sample<W: BenchWeight>(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("update_sample/{}", W::NAME));
    for n in SIZES {
        let (weights, ops) = setup::<W>(n);
        let mut dense = DenseSampler::from_weights(weights.iter().copied()).unwrap();
        let mut tree = WeightedTreeIndex::new(&weights).unwrap();
        let mut rng = Pcg64Mcg::seed_from_u64(SEED);
        let mut i = 0;
        group.bench_function(BenchmarkId::new("dense", n), |b| {
            b.iter(|| {
                let (k, w) = ops[i & (OPS - 1)];
                i += 1;
                dense.update(k, w).unwrap();
                black_box(dense.sample(&mut rng))
            })
        });
        group.bench_function(BenchmarkId::new("tree_index", n), |b| {
            b.iter(|| {
                let (k, w) = ops[i & (OPS - 1)];
                i += 1;
                tree.update(k, w).unwrap();
                black_box(tree.sample(&mut rng))
            })
        });
    }
    group.finish();
}

/// Remove a random key and insert a new one (n stays constant). `WeightedTreeIndex` has only
/// `pop` and `push`, so its removal moves the last weight into the removed index first (the
/// same swap-with-last that `DenseSampler` does inside).
fn bench_churn<W: BenchWeight>(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("churn/{}", W::NAME));
    for n in SIZES {
        let (weights, ops) = setup::<W>(n);
        // Keys 0..2n, n of them held at a time; an operation evicts `held[pos]` and brings in
        // `free[pos]`.
        let mut dense = DenseSampler::with_capacity(2 * n).unwrap();
        for (k, &w) in weights.iter().enumerate() {
            dense.insert(k, w).unwrap();
        }
        let mut held: Vec<usize> = (0..n).collect();
        let mut free: Vec<usize> = (n..2 * n).collect();
        let mut i = 0;
        group.bench_function(BenchmarkId::new("dense", n), |b| {
            b.iter(|| {
                let (pos, w) = ops[i & (OPS - 1)];
                i += 1;
                let victim = held[pos];
                dense.remove(victim).unwrap();
                let fresh = free[pos];
                dense.insert(fresh, w).unwrap();
                held[pos] = fresh;
                free[pos] = victim;
            })
        });
        let mut tree = WeightedTreeIndex::new(&weights).unwrap();
        group.bench_function(BenchmarkId::new("tree_index", n), |b| {
            b.iter(|| {
                let (pos, w) = ops[i & (OPS - 1)];
                i += 1;
                let last = tree.len() - 1;
                let moved = tree.get(last);
                tree.update(pos, moved).unwrap();
                tree.pop();
                tree.push(w).unwrap();
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_sample::<u32>(c);
    bench_sample::<f64>(c);
    bench_update_sample::<u32>(c);
    bench_update_sample::<f64>(c);
    bench_churn::<u32>(c);
    bench_churn::<f64>(c);
}

criterion_group!(sampler, benches);
criterion_main!(sampler);
