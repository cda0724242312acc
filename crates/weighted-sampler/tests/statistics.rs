//! Statistical tests of `sample`: chi-square goodness of fit at fixed seeds.
//!
//! The threshold is the chi-square quantile at p = 0.001 (Wilson-Hilferty approximation), so
//! a correct sampler passes (at these fixed seeds it does, deterministically) and a sampler
//! whose distribution is off by a few percent on some keys fails; `threshold_has_power`
//! checks the latter on purpose.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use weighted_sampler::{BlockSampler, DenseSampler, Weight, WeightedSampler};

const DRAWS: usize = 300_000;

/// The chi-square statistic of `counts` against the expected shares `weights / sum`,
/// over the keys of positive weight; also returns the degrees of freedom.
fn chi_square(counts: &[u64], weights: &[f64]) -> (f64, usize) {
    let sum: f64 = weights.iter().sum();
    let n: u64 = counts.iter().sum();
    let mut stat = 0.0;
    let mut cells = 0;
    for (&c, &w) in counts.iter().zip(weights) {
        if w > 0.0 {
            let e = n as f64 * w / sum;
            stat += (c as f64 - e).powi(2) / e;
            cells += 1;
        } else {
            assert_eq!(c, 0, "a key of weight zero was sampled");
        }
    }
    (stat, cells - 1)
}

/// The upper 0.1% point of the chi-square distribution with `df` degrees of freedom
/// (Wilson-Hilferty; z = 3.0902 is the normal 0.999 quantile).
fn critical(df: usize) -> f64 {
    let k = df as f64;
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + 3.0902 * a.sqrt()).powi(3)
}

fn counts_dense<W: Weight>(s: &DenseSampler<W>, seed: u64) -> Vec<u64> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut counts = vec![0u64; s.key_capacity()];
    for _ in 0..DRAWS {
        counts[s.sample(&mut rng).unwrap()] += 1;
    }
    counts
}

fn assert_fits(counts: &[u64], weights: &[f64]) {
    let (stat, df) = chi_square(counts, weights);
    let limit = critical(df);
    assert!(
        stat < limit,
        "chi-square {stat:.1} over {df} degrees of freedom exceeds {limit:.1}"
    );
}

#[test]
fn critical_values_match_tables() {
    // Published 0.999 quantiles: df 10 -> 29.59, df 49 -> 85.35, df 100 -> 149.45.
    assert!((critical(10) - 29.59).abs() < 0.3);
    assert!((critical(49) - 85.35).abs() < 0.3);
    assert!((critical(100) - 149.45).abs() < 0.3);
}

#[test]
fn dense_u32_sample_fits() {
    let weights: Vec<u32> = (0..60).map(|k| (k % 7) * (k + 1)).collect();
    let s = DenseSampler::from_weights(weights.iter().copied()).unwrap();
    let w: Vec<f64> = weights.iter().map(|&w| w.into()).collect();
    assert_fits(&counts_dense(&s, 1), &w);
}

#[test]
fn dense_u64_after_churn_fits() {
    // Reach a state through inserts, updates and removals, then sample.
    let mut s = DenseSampler::<u64>::new(100).unwrap();
    for k in 0..100 {
        s.insert(k, (k as u64 * 37) % 101 + 1).unwrap();
    }
    for k in (0..100).step_by(3) {
        s.remove(k).unwrap();
    }
    for k in (1..100).step_by(5) {
        if s.contains(k) {
            s.update(k, 1 + k as u64 * k as u64).unwrap();
        }
    }
    let w: Vec<f64> = (0..100).map(|k| s.get(k).unwrap_or(0) as f64).collect();
    assert_fits(&counts_dense(&s, 2), &w);
}

#[test]
fn dense_f64_sample_fits() {
    let weights: Vec<f64> = (0..40)
        .map(|k| {
            if k == 5 {
                0.0
            } else {
                0.25 + (k as f64).sqrt()
            }
        })
        .collect();
    let s = DenseSampler::from_weights(weights.iter().copied()).unwrap();
    assert_fits(&counts_dense(&s, 3), &weights);
}

#[test]
fn keyed_f32_sample_fits() {
    let pairs: Vec<(String, f32)> = (0..30)
        .map(|k| (format!("k{k}"), 1.0 + (k % 4) as f32))
        .collect();
    let s: WeightedSampler<String, f32> = WeightedSampler::try_from_iter(pairs.clone()).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut counts = vec![0u64; pairs.len()];
    for _ in 0..DRAWS {
        let k = s.sample(&mut rng).unwrap();
        counts[k[1..].parse::<usize>().unwrap()] += 1;
    }
    let w: Vec<f64> = pairs.iter().map(|&(_, w)| w.into()).collect();
    assert_fits(&counts, &w);
}

/// The threshold rejects a distribution that is slightly off: the same draws, judged against
/// weights where two keys are 6% heavier and lighter, fail the test.
#[test]
fn threshold_has_power() {
    let weights: Vec<u32> = vec![100; 50];
    let s = DenseSampler::from_weights(weights.iter().copied()).unwrap();
    let counts = counts_dense(&s, 5);
    let fair: Vec<f64> = vec![100.0; 50];
    assert_fits(&counts, &fair);
    let mut off = fair.clone();
    off[0] = 106.0;
    off[1] = 94.0;
    let (stat, df) = chi_square(&counts, &off);
    assert!(stat > critical(df), "a 6% error went unnoticed: {stat:.1}");
}

/// A block sampler in the state a weighted Havannah-style playout leaves it in: some keys
/// taken out (weight 0), others raised to cubes, spread over several blocks.
fn churned_block_sampler() -> (BlockSampler, Vec<f64>) {
    let mut s = BlockSampler::from_weights((0..70).map(|k| if k == 35 { 8 } else { 1 })).unwrap();
    for (n, k) in [35usize, 3, 36, 50, 17, 69, 0, 34].into_iter().enumerate() {
        s.set(k, 0).unwrap();
        let w = (n as u64 + 1).pow(3);
        for nb in [k.wrapping_sub(1), k + 1, k + 10] {
            if nb < 70 {
                s.raise(nb, w).unwrap();
            }
        }
    }
    let weights = (0..70).map(|k| s.get(k).unwrap() as f64).collect();
    (s, weights)
}

#[test]
fn block_sampler_after_changes_fits() {
    let (s, weights) = churned_block_sampler();
    // The expected weights, worked out by hand for a few keys: taken out, raised, untouched.
    assert_eq!((weights[35], weights[36], weights[37]), (0.0, 0.0, 27.0));
    assert_eq!((weights[2], weights[4], weights[44]), (8.0, 8.0, 512.0));
    assert_eq!((weights[10], weights[68], weights[20]), (343.0, 216.0, 1.0));
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut counts = vec![0u64; 70];
    for _ in 0..DRAWS {
        counts[s.sample(&mut rng).unwrap()] += 1;
    }
    assert_fits(&counts, &weights);
    // The same counts against a distribution 6% off on two keys must fail.
    let mut off = weights.clone();
    off[68] *= 1.06;
    off[44] *= 0.94;
    let (stat, df) = chi_square(&counts, &off);
    assert!(stat > critical(df), "a 6% error went unnoticed: {stat:.1}");
}

#[test]
fn block_sampler_draws_as_the_dense_sampler() {
    // Same weights, same changes, same generator: the same keys, draw for draw.
    let (block, weights) = churned_block_sampler();
    let dense = DenseSampler::from_weights(weights.iter().map(|&w| w as u64)).unwrap();
    let mut a = Pcg64Mcg::seed_from_u64(12);
    let mut b = Pcg64Mcg::seed_from_u64(12);
    for _ in 0..10_000 {
        assert_eq!(block.sample(&mut a), dense.sample(&mut b));
    }
}
