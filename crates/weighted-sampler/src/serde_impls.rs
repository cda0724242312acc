//! Serde support (feature `serde`): a sampler is stored as its `(key, weight)` pairs in slot
//! order, and loading rebuilds the tree in O(n) and checks every key and weight, so a stored
//! sampler reproduces the same `sample_with` mapping and a tampered one fails to load.

use core::fmt::Debug;
use core::hash::{BuildHasher, Hash};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{DenseSampler, Weight, WeightedSampler};

#[derive(Serialize)]
struct DenseOut<W> {
    key_capacity: usize,
    entries: Vec<(usize, W)>,
}

#[derive(Deserialize)]
struct DenseIn<W> {
    key_capacity: usize,
    entries: Vec<(usize, W)>,
}

/// Stored as `{ "key_capacity": n, "entries": [[key, weight], ...] }`.
impl<W: Weight + Serialize> Serialize for DenseSampler<W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DenseOut {
            key_capacity: self.key_capacity(),
            entries: self.iter().collect(),
        }
        .serialize(serializer)
    }
}

impl<'de, W: Weight + Deserialize<'de>> Deserialize<'de> for DenseSampler<W> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = DenseIn::<W>::deserialize(deserializer)?;
        DenseSampler::try_from_iter(repr.key_capacity, repr.entries).map_err(D::Error::custom)
    }
}

/// Stored as a sequence of `(key, weight)` pairs.
impl<K: Serialize, W: Weight + Serialize, S> Serialize for WeightedSampler<K, W, S> {
    fn serialize<Ser: Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, K, W, S> Deserialize<'de> for WeightedSampler<K, W, S>
where
    K: Deserialize<'de> + Hash + Eq + Debug,
    W: Weight + Deserialize<'de>,
    S: BuildHasher + Default,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let pairs = Vec::<(K, W)>::deserialize(deserializer)?;
        WeightedSampler::try_from_iter(pairs).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_round_trip_keeps_slot_order() {
        let mut s = DenseSampler::try_from_iter(6, [(4, 2u32), (1, 3), (5, 1)]).unwrap();
        s.remove(4).unwrap();
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"key_capacity":6,"entries":[[5,1],[1,3]]}"#);
        let back: DenseSampler<u32> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let a: Vec<_> = (0..4).map(|u| s.sample_with(u).unwrap()).collect();
        let b: Vec<_> = (0..4).map(|u| back.sample_with(u).unwrap()).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn bad_input_fails_to_load() {
        let dup = r#"{"key_capacity":6,"entries":[[5,1],[5,3]]}"#;
        let err = serde_json::from_str::<DenseSampler<u32>>(dup).unwrap_err();
        assert!(err.to_string().contains("key 5 is already"), "{err}");
        let range = r#"{"key_capacity":2,"entries":[[5,1]]}"#;
        assert!(serde_json::from_str::<DenseSampler<u32>>(range).is_err());
        let neg = r#"[["a",-1.0]]"#;
        let err = serde_json::from_str::<WeightedSampler<String, f64>>(neg).unwrap_err();
        assert!(err.to_string().contains("invalid weight -1"), "{err}");
        let over = r#"[["a",4294967295],["b",1]]"#;
        assert!(serde_json::from_str::<WeightedSampler<String, u32>>(over).is_err());
    }

    #[test]
    fn keyed_round_trip() {
        let s =
            WeightedSampler::<String, f64>::try_from_iter([("x".into(), 0.5), ("y".into(), 2.0)])
                .unwrap();
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"[["x",0.5],["y",2.0]]"#);
        let back: WeightedSampler<String, f64> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.keys(), s.keys());
    }
}
