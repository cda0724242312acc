//! Model tests: random sequences of operations against a plain `Vec` model.
//!
//! After every step the sampler and the model agree on `len`, `total` and `get` for every key,
//! failed operations leave the sampler unchanged, and with integer weights `sample_with(u)` over
//! every `u` in `[0, total)` hits each key exactly `weight(key)` times.

use std::collections::HashMap;

use proptest::prelude::*;
use weighted_sampler::{DenseSampler, Error, WeightedSampler};

const KEYS: usize = 24;

#[derive(Debug, Clone)]
enum Op {
    Insert(usize, u32),
    Update(usize, u32),
    Set(usize, u32),
    Remove(usize),
    SampleRemove(u64),
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    // Keys up to KEYS + 1 so that out-of-range keys are exercised on the dense sampler.
    let key = 0..KEYS + 2;
    let w = prop_oneof![Just(0u32), 0u32..20];
    prop_oneof![
        6 => (key.clone(), w.clone()).prop_map(|(k, w)| Op::Insert(k, w)),
        4 => (key.clone(), w.clone()).prop_map(|(k, w)| Op::Update(k, w)),
        2 => (key.clone(), w).prop_map(|(k, w)| Op::Set(k, w)),
        4 => key.prop_map(Op::Remove),
        1 => any::<u64>().prop_map(Op::SampleRemove),
        1 => Just(Op::Clear),
    ]
}

/// The plain model: `model[key]` is the key's weight, if held.
type Model = Vec<Option<u64>>;

/// A little common interface over the samplers under test, with weights seen as `u64`.
trait Under {
    fn insert(&mut self, k: usize, w: u32) -> Result<(), Error>;
    fn update(&mut self, k: usize, w: u32) -> Result<u64, Error>;
    fn set(&mut self, k: usize, w: u32) -> Result<Option<u64>, Error>;
    fn remove(&mut self, k: usize) -> Result<u64, Error>;
    fn sample_remove_with(&mut self, u: u64) -> Option<usize>;
    fn clear(&mut self);
    fn len(&self) -> usize;
    fn total(&self) -> u64;
    fn get(&self, k: usize) -> Option<u64>;
    fn sample_with(&self, u: u64) -> Result<usize, Error>;
    fn pairs(&self) -> Vec<(usize, u64)>;
}

macro_rules! dense_under {
    ($w:ty) => {
        impl Under for DenseSampler<$w> {
            fn insert(&mut self, k: usize, w: u32) -> Result<(), Error> {
                DenseSampler::insert(self, k, w.into())
            }
            fn update(&mut self, k: usize, w: u32) -> Result<u64, Error> {
                DenseSampler::update(self, k, w.into()).map(u64::from)
            }
            fn set(&mut self, k: usize, w: u32) -> Result<Option<u64>, Error> {
                DenseSampler::set(self, k, w.into()).map(|o| o.map(u64::from))
            }
            fn remove(&mut self, k: usize) -> Result<u64, Error> {
                DenseSampler::remove(self, k).map(u64::from)
            }
            fn sample_remove_with(&mut self, u: u64) -> Option<usize> {
                let k = DenseSampler::sample_with(self, u.try_into().ok()?).ok()?;
                DenseSampler::remove(self, k).unwrap();
                Some(k)
            }
            fn clear(&mut self) {
                DenseSampler::clear(self)
            }
            fn len(&self) -> usize {
                DenseSampler::len(self)
            }
            fn total(&self) -> u64 {
                DenseSampler::total(self).into()
            }
            fn get(&self, k: usize) -> Option<u64> {
                DenseSampler::get(self, k).map(u64::from)
            }
            fn sample_with(&self, u: u64) -> Result<usize, Error> {
                DenseSampler::sample_with(self, u.try_into().unwrap())
            }
            fn pairs(&self) -> Vec<(usize, u64)> {
                self.iter().map(|(k, w)| (k, w.into())).collect()
            }
        }
    };
}
dense_under!(u32);
dense_under!(u64);

impl Under for WeightedSampler<u16, u64> {
    fn insert(&mut self, k: usize, w: u32) -> Result<(), Error> {
        WeightedSampler::insert(self, k as u16, w.into())
    }
    fn update(&mut self, k: usize, w: u32) -> Result<u64, Error> {
        WeightedSampler::update(self, &(k as u16), w.into())
    }
    fn set(&mut self, k: usize, w: u32) -> Result<Option<u64>, Error> {
        WeightedSampler::set(self, k as u16, w.into())
    }
    fn remove(&mut self, k: usize) -> Result<u64, Error> {
        WeightedSampler::remove(self, &(k as u16)).map(|(key, w)| {
            assert_eq!(key, k as u16);
            w
        })
    }
    fn sample_remove_with(&mut self, u: u64) -> Option<usize> {
        let k = *WeightedSampler::sample_with(self, u).ok()?;
        WeightedSampler::remove(self, &k).unwrap();
        Some(k.into())
    }
    fn clear(&mut self) {
        WeightedSampler::clear(self)
    }
    fn len(&self) -> usize {
        WeightedSampler::len(self)
    }
    fn total(&self) -> u64 {
        WeightedSampler::total(self)
    }
    fn get(&self, k: usize) -> Option<u64> {
        WeightedSampler::get(self, &(k as u16))
    }
    fn sample_with(&self, u: u64) -> Result<usize, Error> {
        WeightedSampler::sample_with(self, u).map(|&k| k.into())
    }
    fn pairs(&self) -> Vec<(usize, u64)> {
        self.iter().map(|(&k, w)| (k.into(), w)).collect()
    }
}

/// Applies `op` to both and checks that they agree on the outcome.
fn step(s: &mut impl Under, model: &mut Model, op: &Op, key_range: usize) {
    let in_range = |k: usize| k < key_range;
    match *op {
        Op::Insert(k, w) => {
            let r = s.insert(k, w);
            match model.get(k).copied() {
                _ if !in_range(k) => assert!(
                    matches!(r, Err(Error::KeyOutOfRange { key, .. }) if key == k),
                    "{r:?}"
                ),
                Some(Some(_)) => assert!(matches!(r, Err(Error::DuplicateKey { .. })), "{r:?}"),
                _ => {
                    r.unwrap();
                    model[k] = Some(w.into());
                }
            }
        }
        Op::Update(k, w) => {
            let r = s.update(k, w);
            match model.get(k).copied().flatten() {
                Some(old) => {
                    assert_eq!(r.unwrap(), old);
                    model[k] = Some(w.into());
                }
                None => assert!(matches!(r, Err(Error::KeyNotFound { .. })), "{r:?}"),
            }
        }
        Op::Set(k, w) => {
            let r = s.set(k, w);
            if in_range(k) {
                assert_eq!(r.unwrap(), model[k]);
                model[k] = Some(w.into());
            } else {
                assert!(r.is_err());
            }
        }
        Op::Remove(k) => {
            let r = s.remove(k);
            match model.get(k).copied().flatten() {
                Some(old) => {
                    assert_eq!(r.unwrap(), old);
                    model[k] = None;
                }
                None => assert!(matches!(r, Err(Error::KeyNotFound { .. })), "{r:?}"),
            }
        }
        Op::SampleRemove(x) => {
            let total = s.total();
            let picked = s.sample_remove_with(if total == 0 { 0 } else { x % total });
            match picked {
                Some(k) => {
                    assert!(model[k].unwrap() > 0, "sampled key {k} of weight zero");
                    model[k] = None;
                }
                None => assert_eq!(total, 0),
            }
        }
        Op::Clear => {
            s.clear();
            model.iter_mut().for_each(|m| *m = None);
        }
    }
}

/// Checks `len`, `total`, `get` and the exact coverage of `sample_with`.
fn check(s: &impl Under, model: &Model) {
    let held: Vec<(usize, u64)> = model
        .iter()
        .enumerate()
        .filter_map(|(k, w)| w.map(|w| (k, w)))
        .collect();
    assert_eq!(s.len(), held.len());
    let total: u64 = held.iter().map(|&(_, w)| w).sum();
    assert_eq!(s.total(), total);
    for k in 0..model.len() + 3 {
        assert_eq!(s.get(k), model.get(k).copied().flatten(), "get({k})");
    }
    let mut hits: HashMap<usize, u64> = HashMap::new();
    for u in 0..total {
        *hits.entry(s.sample_with(u).unwrap()).or_default() += 1;
    }
    for &(k, w) in &held {
        assert_eq!(hits.get(&k).copied().unwrap_or(0), w, "key {k} hit count");
    }
    assert_eq!(hits.values().sum::<u64>(), total);
    assert!(matches!(
        s.sample_with(total),
        Err(Error::SampleOutOfRange { .. })
    ));
    // Slot order is the order of `sample_with`'s intervals.
    let mut pairs = s.pairs();
    let mut u = 0;
    for &(k, w) in &pairs {
        if w > 0 {
            assert_eq!(s.sample_with(u).unwrap(), k);
            assert_eq!(s.sample_with(u + w - 1).unwrap(), k);
        }
        u += w;
    }
    pairs.sort_unstable();
    assert_eq!(pairs, held);
}

fn run(s: &mut impl Under, ops: &[Op], key_range: usize) {
    let mut model: Model = vec![None; key_range];
    for op in ops {
        step(s, &mut model, op, key_range);
        check(s, &model);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn dense_u32_matches_model(ops in prop::collection::vec(op(), 0..80)) {
        run(&mut DenseSampler::<u32>::new(KEYS).unwrap(), &ops, KEYS);
    }

    #[test]
    fn dense_u64_matches_model(ops in prop::collection::vec(op(), 0..80)) {
        run(&mut DenseSampler::<u64>::new(KEYS).unwrap(), &ops, KEYS);
    }

    #[test]
    fn keyed_matches_model(ops in prop::collection::vec(op(), 0..80)) {
        // Any key is in range for the hash-keyed sampler.
        run(&mut WeightedSampler::<u16, u64>::new(), &ops, KEYS + 2);
    }

    /// Built in O(n) from an iterator, the sampler agrees with one built by inserts.
    #[test]
    fn built_equals_inserted(weights in prop::collection::vec(0u32..50, 0..100)) {
        let built = DenseSampler::from_weights(weights.iter().copied()).unwrap();
        let mut inserted = DenseSampler::new(weights.len()).unwrap();
        for (k, &w) in weights.iter().enumerate() {
            inserted.insert(k, w).unwrap();
        }
        prop_assert_eq!(&built, &inserted);
        for u in 0..built.total() {
            prop_assert_eq!(built.sample_with(u).unwrap(), inserted.sample_with(u).unwrap());
        }
        let keyed = WeightedSampler::<usize, u32>::try_from_iter(weights.iter().copied().enumerate()).unwrap();
        for u in 0..built.total() {
            prop_assert_eq!(built.sample_with(u).unwrap(), *keyed.sample_with(u).unwrap());
        }
    }

    /// Integer totals near the type's limit: an operation fails with `Overflow` exactly when
    /// the true total would not fit, and then changes nothing.
    #[test]
    fn overflow_is_an_error(ops in prop::collection::vec((0..8usize, prop_oneof![0u32..4, (u32::MAX - 4)..=u32::MAX], any::<bool>()), 0..40)) {
        let mut s = DenseSampler::<u32>::new(8).unwrap();
        let mut model = [None::<u64>; 8];
        for (k, w, insert) in ops {
            let before: u64 = model.iter().flatten().sum();
            let after = before - model[k].unwrap_or(0) + u64::from(w);
            let r = if insert { s.set(k, w).map(|_| ()) } else { s.update(k, w).map(|_| ()) };
            if !insert && model[k].is_none() {
                prop_assert!(matches!(r, Err(Error::KeyNotFound { .. })), "{:?}", r);
            } else if after > u64::from(u32::MAX) {
                prop_assert!(matches!(r, Err(Error::Overflow { .. })), "{:?}", r);
            } else {
                prop_assert!(r.is_ok());
                model[k] = Some(w.into());
            }
            prop_assert_eq!(u64::from(s.total()), model.iter().flatten().sum::<u64>());
            for (key, m) in model.iter().enumerate() {
                prop_assert_eq!(s.get(key).map(u64::from), *m);
            }
        }
    }

    /// Float weights: len, total (up to rounding) and get agree, zero-weight keys are never
    /// returned by `sample_with`, and every inner sum stays the sum of its children.
    #[test]
    fn dense_f64_matches_model(ops in prop::collection::vec((0..KEYS, prop_oneof![Just(0.0f64), 0.0f64..1e6, Just(1e-300)], 0..3u8), 0..120), probes in prop::collection::vec(0.0f64..1.0, 16)) {
        let mut s = DenseSampler::<f64>::new(KEYS).unwrap();
        let mut model = vec![None::<f64>; KEYS];
        for (k, w, kind) in ops {
            match kind {
                0 => { s.set(k, w).unwrap(); model[k] = Some(w); }
                1 => { let _ = s.remove(k); model[k] = None; }
                _ => {
                    let r = s.update(k, -w - 1.0);
                    prop_assert!(matches!(r, Err(Error::InvalidWeight { .. }) | Err(Error::KeyNotFound { .. })), "{:?}", r);
                }
            }
            prop_assert_eq!(s.len(), model.iter().flatten().count());
            for (key, m) in model.iter().enumerate() {
                prop_assert_eq!(s.get(key), *m);
            }
            let exact: f64 = model.iter().flatten().sum();
            prop_assert!((s.total() - exact).abs() <= 1e-9 * exact.max(1.0));
            for &p in &probes {
                match s.sample_with(p * s.total()) {
                    Ok(key) => prop_assert!(model[key].unwrap() > 0.0),
                    Err(_) => prop_assert!(s.total() == 0.0),
                }
            }
        }
    }
}

#[test]
fn float_errors_name_the_value() {
    let mut s = DenseSampler::<f32>::new(3).unwrap();
    let err = s.insert(0, -2.5).unwrap_err();
    assert_eq!(err, Error::InvalidWeight { weight: -2.5 });
    assert_eq!(
        err.to_string(),
        "invalid weight -2.5: a weight must be finite and not negative"
    );
    assert!(s.insert(0, f32::INFINITY).is_err());
    assert!(s.insert(0, f32::NAN).is_err());
    assert!(s.is_empty());
    s.insert(0, f32::MAX).unwrap();
    let err = s.insert(1, f32::MAX).unwrap_err();
    assert!(matches!(err, Error::Overflow { .. }));
    assert_eq!(s.len(), 1);
    assert!(s.sample_with(f32::NAN).is_err());
    assert!(s.sample_with(-1.0).is_err());
}
