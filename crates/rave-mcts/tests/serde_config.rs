//! A deserialized `Config` is checked as the builder checks it.
#![cfg(feature = "serde")]

use rave_mcts::{AmafWeighting, Config, FinalMove, PriorTarget, RaveSchedule, Shortlist};
use serde_json::{Value, json};

fn grave_config() -> Config {
    Config::builder()
        .rave(RaveSchedule::MinimumMse { bias: 0.05 })
        .grave(40)
        .exploration(0.15)
        .amaf_horizon(Some(12))
        .threads(2)
        .shortlist(Some(Shortlist {
            size: 8,
            rescan_every: 8,
        }))
        .build()
        .unwrap()
}

/// Plain RAVE with every other value away from its default.
fn rave_config() -> Config {
    Config::builder()
        .rave(RaveSchedule::Fading {
            base: 0.9,
            per_move: 0.01,
        })
        .exploration(0.3)
        .first_play_urgency(0.8)
        .amaf_weighting(AmafWeighting::Playout)
        .prior_target(PriorTarget::Amaf)
        .playout_horizon(true)
        .horizon_growth(1.5)
        .solver(false)
        .expand_threshold(3)
        .final_move(FinalMove::BestValue)
        .early_stop(false)
        .expand_forced(true)
        .build()
        .unwrap()
}

/// `config` as JSON with `field` set to `value`, read back.
fn with_field(config: &Config, field: &str, value: Value) -> Result<Config, String> {
    let mut v = serde_json::to_value(config).unwrap();
    v[field] = value;
    serde_json::from_value(v).map_err(|e| e.to_string())
}

#[test]
fn a_valid_config_reads_back_equal() {
    for config in [Config::default(), grave_config(), rave_config()] {
        let text = serde_json::to_string(&config).unwrap();
        let back: Config = serde_json::from_str(&text).unwrap();
        assert_eq!(back, config);
    }
}

#[test]
fn a_value_out_of_range_is_an_error_naming_it() {
    let config = grave_config();
    let cases = [
        ("threads", json!(0), "threads"),
        ("exploration", json!(-1.0), "exploration"),
        ("first_play_urgency", json!(-0.5), "first_play_urgency"),
        ("amaf_horizon", json!(0), "amaf_horizon"),
        ("horizon_growth", json!(1.0), "horizon_growth"),
        ("shortlist", json!({"size": 9, "rescan_every": 8}), "9"),
        (
            "shortlist",
            json!({"size": 4, "rescan_every": 0}),
            "rescan_every",
        ),
    ];
    for (field, value, named) in cases {
        let err = with_field(&config, field, value.clone()).unwrap_err();
        assert!(err.contains(named), "{field} = {value}: {err}");
    }
    // A RAVE schedule's constants too.
    let mut v = serde_json::to_value(&config).unwrap();
    v["selection"]["Grave"]["schedule"]["MinimumMse"]["bias"] = json!(-0.1);
    let err = serde_json::from_value::<Config>(v).unwrap_err().to_string();
    assert!(err.contains("rave bias"), "{err}");
}

#[test]
fn the_newer_fields_read_as_off_when_missing() {
    let config = rave_config();
    assert!(config.expand_forced());
    let mut v = serde_json::to_value(&config).unwrap();
    for field in ["expand_forced", "prune_when_full", "bias_cutoff"] {
        assert!(
            v.as_object_mut().unwrap().remove(field).is_some(),
            "{field}"
        );
    }
    let back: Config = serde_json::from_value(v).unwrap();
    assert!(!back.expand_forced());
    assert!(!back.prune_when_full());
    assert_eq!(back.bias_cutoff(), None);
    assert_eq!(back.expand_threshold(), config.expand_threshold());
}
