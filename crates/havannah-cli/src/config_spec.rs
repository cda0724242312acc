//! Engine configurations as the command lines name them: a [`Preset`]'s name, optionally
//! followed by `:` and comma-separated `key=value` parameters that replace the preset's own,
//! for tuning matches, such as `best:bias=0.02,expand=4`.
//!
//! Every key is declared once, in the table [`PARAMETERS`]: its name, the values it accepts,
//! a short help text and what it sets. The list of keys ([`PARAMETER_KEYS`]), the command
//! lines' help text ([`PARAMETER_HELP`]) and the parser ([`engine_config`]) all come from
//! that table; its documentation lists every key with its values.
//!
//! The keys set the search settings, the tree knowledge of
//! [`PriorConfig::tree`](havannah::PriorConfig::tree) (with the learned patterns of
//! [`havannah::patterns`]), the playout rules of [`PlayoutConfig`](havannah::PlayoutConfig),
//! and the first-stone table of [`havannah::first_stone`]. One pair acts together:
//! `ravebase` and `ravemove` set the fading RAVE schedule `k = base + per_move` per legal
//! move (the one not given is 500 or 200).
//!
//! ```
//! use havannah_cli::config_spec::engine_config;
//!
//! let tuned = engine_config("best:expand=4,c=0.1")?;
//! assert_eq!(tuned.search.expand_threshold(), 4);
//! assert_eq!(tuned.search.exploration(), 0.1);
//! assert_eq!(tuned.name, "best:expand=4,c=0.1");
//! assert!(engine_config("best:depth=3").unwrap_err().to_string().contains("depth"));
//! # Ok::<(), havannah_cli::config_spec::SpecError>(())
//! ```

use havannah::mcts::{AmafWeighting, ConfigBuilder, FinalMove, MctsError, RaveSchedule};
use havannah::{EngineConfig, Preset};

/// Declares the parameter table [`PARAMETERS`] and the texts made from it,
/// [`PARAMETER_KEYS`] and [`PARAMETER_HELP`], so that a key is named in one place only.
///
/// Each entry reads `key: kind, "help", setter;`. The kind is `number` (any number),
/// `switch` (0 is off, any other number on), `weight` (a number `>= 0`) or
/// `count(min, max, "expected")` (a whole number in `min..=max`, `expected` saying so in
/// messages); the setter is a closure taking the [`Settings`] and the value as its kind
/// reads it (`f64`, `bool`, `f32` or `u32`).
macro_rules! parameters {
    ($($key:ident: $kind:ident $(($($range:expr),+))?, $help:literal, $set:expr;)+) => {
        /// The parameters [`engine_config`] accepts after a preset's name, each with the
        /// values it accepts and what it sets:
        ///
        #[doc = concat!($(
            "- `", stringify!($key), "=", parameters!(@value $kind), "`: ", $help, " (",
            parameters!(@expected $kind $(($($range),+))?), ")\n",
        )+)]
        pub static PARAMETERS: &[Parameter] = &[$(Parameter {
            key: stringify!($key),
            help: $help,
            kind: parameters!(@kind $kind $(($($range),+))?, $set),
        }),+];

        /// The parameter keys [`engine_config`] accepts after a preset's name, comma-separated
        /// (the keys of [`PARAMETERS`]).
        pub const PARAMETER_KEYS: &str = parameters!(@join $(stringify!($key)),+);

        /// The parameters after a preset's name, as the command lines' help texts describe
        /// them: every key of [`PARAMETERS`] with its values and help text.
        pub const PARAMETER_HELP: &str = concat!(
            "`best:bias=0.02,expand=4`; keys ",
            parameters!(@join $(concat!(
                stringify!($key), "=", parameters!(@value $kind), " (", $help, ")"
            )),+),
        );
    };
    (@join $first:expr $(, $rest:expr)*) => { concat!($first $(, ", ", $rest)*) };
    (@value number) => { "X" };
    (@value switch) => { "0|1" };
    (@value weight) => { "W" };
    (@value count) => { "N" };
    (@expected number) => { "a number" };
    (@expected switch) => { "0 is off, any other number on" };
    (@expected weight) => { "a weight >= 0" };
    (@expected count($min:expr, $max:expr, $expected:expr)) => { $expected };
    (@kind number, $set:expr) => { Kind::Number($set) };
    (@kind switch, $set:expr) => { Kind::Switch($set) };
    (@kind weight, $set:expr) => { Kind::Weight($set) };
    (@kind count($min:expr, $max:expr, $expected:expr), $set:expr) => {
        Kind::Count { min: $min, max: $max, expected: $expected, set: $set }
    };
}

parameters! {
    bias: number, "the minimum-MSE RAVE bias; turns RAVE on",
        |s, bias| s.search(|b| b.rave(RaveSchedule::MinimumMse { bias }));
    ravebase: number, "the fading RAVE schedule's base, with ravemove",
        |s, base| s.fading = Some((base, s.fading.map_or(FADING_PER_MOVE, |f| f.1)));
    ravemove: number, "the fading RAVE schedule's growth per legal move, with ravebase",
        |s, per_move| s.fading = Some((s.fading.map_or(FADING_BASE, |f| f.0), per_move));
    c: number, "the UCT exploration constant",
        |s, c| s.search(|b| b.exploration(c));
    expand: count(1, u32::MAX, "a count >= 1"), "the expansion threshold",
        |s, n| s.search(|b| b.expand_threshold(n));
    fpu: number, "first-play urgency",
        |s, fpu| s.search(|b| b.first_play_urgency(fpu));
    stop: switch, "early stop",
        |s, on| s.search(|b| b.early_stop(on));
    threads: count(1, 1024, "a count from 1 to 1024"), "search threads",
        |s, n| s.search(|b| b.threads(n as usize));
    nodes: count(2, u32::MAX, "a count >= 2"), "tree nodes a thread",
        |s, n| s.config.max_nodes = n as usize;
    memory: count(1, 1 << 20, "a count of MiB >= 1"),
        "a memory budget in MiB for the tree all threads share",
        |s, mib| s.config.max_memory = Some(mib as usize * (1 << 20));
    prune: switch, "prune a full tree and go on growing it",
        |s, on| s.search(|b| b.prune_when_full(on));
    biascut: count(0, u32::MAX, "a count of visits >= 0"),
        "the visits from which the progressive bias stops; 0: never",
        |s, n| s.search(|b| b.bias_cutoff(none_if_zero(n)));
    mostwins: switch, "the final move by the most wins instead of the most visits",
        |s, on| {
            let by = if on { FinalMove::MostWins } else { FinalMove::MostVisits };
            s.search(|b| b.final_move(by));
        };
    forced: switch, "a node's only child expanded on its first visit",
        |s, on| s.search(|b| b.expand_forced(on));
    grave: count(1, u32::MAX, "a count of visits >= 1"),
        "GRAVE: nodes with fewer visits take the AMAF statistics of their nearest ancestor \
        with as many",
        |s, n| s.search(|b| b.grave(n));
    horizon: count(0, u32::MAX, "a count of plies >= 0"),
        "the AMAF horizon: moves within so many plies below a node count; 0: all",
        |s, n| s.search(|b| b.amaf_horizon(none_if_zero(n)));
    wamaf: switch, "AMAF samples weighted by the playout, short playouts counting more",
        |s, on| {
            let by = if on { AmafWeighting::Playout } else { AmafWeighting::Uniform };
            s.search(|b| b.amaf_weighting(by));
        };
    pietable: switch, "the pie rule's first two plies from the first-stone table",
        |s, on| s.config.pie_table = on;
    reach: weight, "the tree knowledge's bias towards corners and sides",
        |s, w| s.config.prior.reach = w;
    reply: weight, "the tree knowledge's bias for the reply that saves a bridge",
        |s, w| s.config.prior.bridge_reply = w;
    patterns: weight, "the learned patterns' progressive bias",
        |s, w| s.config.prior.patterns = w;
    threats: weight, "new nodes narrowed by immediate threats; 0: off",
        |s, w| s.config.prior.threats = w != 0.0;
    decisive: switch, "the playouts' decisive rule: a winning move played",
        |s, on| s.config.playout.decisive = on;
    block: switch, "the playouts' anti-decisive rule: the opponent's winning cell blocked",
        |s, on| s.config.playout.anti_decisive = on;
    save: switch, "the playouts' bridge saving",
        |s, on| s.config.playout.save_bridge = on;
    lgr: switch, "the playouts' last good reply",
        |s, on| s.config.playout.last_good_reply = on;
    kmoves: count(0, u32::MAX, "a count >= 0"),
        "the playout moves the playout rules apply to; 0: all",
        |s, n| s.config.playout.knowledge_moves = n;
    ruleamaf: switch, "the playout rules' moves in the AMAF statistics",
        |s, on| s.config.playout.amaf_rule_moves = on;
}

/// The fading schedule's base when only `ravemove` is given (as in [`EngineConfig::best`]).
const FADING_BASE: f64 = 500.0;
/// The fading schedule's growth per legal move when only `ravebase` is given.
const FADING_PER_MOVE: f64 = 200.0;

/// One parameter of [`PARAMETERS`]: its key, its help text, and (for the parser) the values
/// it accepts and what it sets.
#[derive(Debug, Clone, Copy)]
pub struct Parameter {
    /// The key, as in `key=value`.
    pub key: &'static str,
    /// What the key sets, for help texts.
    pub help: &'static str,
    /// The values the key accepts, and what it sets.
    kind: Kind,
}

/// The values a parameter accepts, each with the setter that takes the value so read.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Any number.
    Number(fn(&mut Settings, f64)),
    /// A switch: 0 is off, any other number on.
    Switch(fn(&mut Settings, bool)),
    /// A weight: finite and not negative.
    Weight(fn(&mut Settings, f32)),
    /// A whole number in `min..=max`; `expected` says so in messages.
    Count {
        min: u32,
        max: u32,
        expected: &'static str,
        set: fn(&mut Settings, u32),
    },
}

impl Kind {
    /// Checks `value` against the kind and sets it.
    fn set(self, settings: &mut Settings, value: &Value<'_>) -> Result<(), SpecError> {
        match self {
            Self::Number(set) => set(settings, value.number),
            Self::Switch(set) => set(settings, value.number != 0.0),
            Self::Weight(set) => set(settings, value.weight()?),
            Self::Count {
                min,
                max,
                expected,
                set,
            } => set(settings, value.count(min, max, expected)?),
        }
        Ok(())
    }
}

/// 0 as none, for the counts where 0 turns a limit off.
fn none_if_zero(n: u32) -> Option<u32> {
    Some(n).filter(|&n| n > 0)
}

/// What the parameters set: the configuration and its search settings' builder, and the pair
/// that takes effect together once every parameter is read.
#[derive(Debug)]
struct Settings {
    config: EngineConfig,
    builder: ConfigBuilder,
    /// `ravebase` and `ravemove`: the fading schedule, if either is given.
    fading: Option<(f64, f64)>,
}

impl Settings {
    /// Applies `set` to the search settings' builder.
    fn search(&mut self, set: impl FnOnce(ConfigBuilder) -> ConfigBuilder) {
        self.builder = set(std::mem::take(&mut self.builder));
    }

    /// The configuration with the pair applied and the search settings built; its name is
    /// `spec`.
    fn finish(mut self, spec: &str) -> Result<EngineConfig, SpecError> {
        if let Some((base, per_move)) = self.fading {
            self.search(|b| b.rave(RaveSchedule::Fading { base, per_move }));
        }
        let mut config = self.config;
        config.search = self.builder.build().map_err(|source| SpecError::Search {
            spec: spec.to_string(),
            source,
        })?;
        config.name = spec.to_string();
        Ok(config)
    }
}

/// The help text of an option naming an engine configuration: the presets, then
/// [`PARAMETER_HELP`].
#[must_use]
pub fn engine_help() -> String {
    format!(
        "The engine configuration: {}; optionally with search parameters ({PARAMETER_HELP})",
        preset_names()
    )
}

/// The preset names, comma-separated (for messages and help texts).
#[must_use]
pub fn preset_names() -> String {
    Preset::ALL.map(Preset::name).join(", ")
}

/// Why a configuration text was refused. Every message names the text, key or value at
/// fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The name before the parameters is no preset's.
    #[error("unknown engine configuration {name:?}; known: {}", preset_names())]
    UnknownName {
        /// The name given.
        name: String,
    },
    /// A parameter without `=`.
    #[error("parameter {param:?} is not key=value")]
    NotKeyValue {
        /// The parameter as given.
        param: String,
    },
    /// A key that is not one of [`PARAMETER_KEYS`].
    #[error("unknown search parameter {key:?}; known: {PARAMETER_KEYS}")]
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// A value that is not a number, or not one the key accepts.
    #[error("parameter {key}: {value:?} is not {expected}")]
    BadValue {
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the value must be, such as `a count >= 1`.
        expected: &'static str,
    },
    /// The search settings that the parameters make are inconsistent or out of range.
    #[error("{spec:?}: {source}")]
    Search {
        /// The whole configuration text.
        spec: String,
        /// What the search refused.
        #[source]
        source: MctsError,
    },
}

/// One parameter's value: its text and the number it reads as.
struct Value<'a> {
    key: &'a str,
    text: &'a str,
    number: f64,
}

impl Value<'_> {
    fn bad(&self, expected: &'static str) -> SpecError {
        SpecError::BadValue {
            key: self.key.to_string(),
            value: self.text.to_string(),
            expected,
        }
    }

    /// The value as a whole number in `min..=max`.
    fn count(&self, min: u32, max: u32, expected: &'static str) -> Result<u32, SpecError> {
        let n = self.number;
        if n.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&n) {
            Ok(n as u32)
        } else {
            Err(self.bad(expected))
        }
    }

    /// The value as a weight: finite and not negative.
    fn weight(&self) -> Result<f32, SpecError> {
        if self.number.is_finite() && self.number >= 0.0 {
            Ok(self.number as f32)
        } else {
            Err(self.bad("a weight >= 0"))
        }
    }
}

/// The preset named `name`.
///
/// # Errors
/// [`SpecError::UnknownName`] when no preset has that name.
pub fn preset(name: &str) -> Result<Preset, SpecError> {
    Preset::ALL
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| SpecError::UnknownName {
            name: name.to_string(),
        })
}

/// The engine configuration `spec` names: a preset, with the parameters after `:` applied
/// in turn (each looked up in [`PARAMETERS`]); its [`EngineConfig::name`] is `spec`.
///
/// # Errors
/// A [`SpecError`] naming the unknown name or key, the malformed parameter, or the value
/// out of range.
pub fn engine_config(spec: &str) -> Result<EngineConfig, SpecError> {
    let (name, params) = match spec.split_once(':') {
        Some((name, params)) => (name, Some(params)),
        None => (spec, None),
    };
    let config = EngineConfig::preset(preset(name)?);
    let Some(params) = params else {
        return Ok(config);
    };
    let mut settings = Settings {
        builder: config.search.to_builder(),
        config,
        fading: None,
    };
    for param in params.split(',') {
        let (key, text) = param
            .split_once('=')
            .ok_or_else(|| SpecError::NotKeyValue {
                param: param.to_string(),
            })?;
        let value = Value {
            key: key.trim(),
            text,
            number: text.trim().parse().unwrap_or(f64::NAN),
        };
        // Every value is a number first, whatever the key.
        if value.number.is_nan() {
            return Err(value.bad("a number"));
        }
        let parameter = PARAMETERS
            .iter()
            .find(|p| p.key == value.key)
            .ok_or_else(|| SpecError::UnknownKey {
                key: value.key.to_string(),
            })?;
        parameter.kind.set(&mut settings, &value)?;
    }
    settings.finish(spec)
}

#[cfg(test)]
mod tests {
    use havannah::mcts::Selection;

    use super::*;

    #[test]
    fn every_preset_is_found_by_its_name() {
        for p in Preset::ALL {
            assert_eq!(preset(p.name()), Ok(p));
            assert_eq!(engine_config(p.name()).unwrap().name, p.name());
        }
        let err = engine_config("nonsense").unwrap_err().to_string();
        assert!(
            err.contains("nonsense") && err.contains("best, uct"),
            "{err}"
        );
    }

    #[test]
    fn parameters_replace_the_presets_own() {
        let tuned = engine_config("best:bias=0.02,expand=4,fpu=0.9").unwrap();
        assert_eq!(tuned.name, "best:bias=0.02,expand=4,fpu=0.9");
        assert_eq!(
            tuned.search.selection(),
            Selection::Rave(RaveSchedule::MinimumMse { bias: 0.02 })
        );
        assert_eq!(tuned.search.expand_threshold(), 4);
        assert_eq!(tuned.search.first_play_urgency(), 0.9);
        // Everything else is the preset's.
        let best = EngineConfig::best();
        assert_eq!(tuned.playout, best.playout);
        assert_eq!(tuned.prior, best.prior);
        assert_eq!(tuned.search.exploration(), best.search.exploration());
        let uct = engine_config("uct:c=0.3").unwrap();
        assert_eq!(uct.search.exploration(), 0.3);
        assert_eq!(uct.search.selection(), Selection::Uct);
    }

    #[test]
    fn pietable_turns_the_first_stone_table_off_and_on() {
        assert!(!engine_config("best").unwrap().pie_table);
        assert!(engine_config("best:pietable=1").unwrap().pie_table);
        assert!(!engine_config("best:pietable=0").unwrap().pie_table);
        assert!(
            engine_config("best:pietable=0,pietable=1")
                .unwrap()
                .pie_table
        );
    }

    #[test]
    fn every_key_sets_its_setting() {
        let c = engine_config("best:threads=2,stop=1,nodes=16000000,memory=64").unwrap();
        assert_eq!(c.search.threads(), 2);
        assert!(c.search.early_stop());
        assert_eq!((c.max_nodes, c.max_memory), (16_000_000, Some(64 << 20)));
        let c = engine_config("best:threats=0,reach=0.5,reply=0").unwrap();
        assert!(!c.prior.threats);
        assert_eq!((c.prior.reach, c.prior.bridge_reply), (0.5, 0.0));
        assert_eq!(c.prior.patterns, 0.0);
        assert_eq!(
            engine_config("best:patterns=2").unwrap().prior.patterns,
            2.0
        );
        assert!(engine_config("best:patterns=-1").is_err());
        let c = engine_config("best:decisive=1,block=1,kmoves=10,save=0").unwrap();
        assert!(c.playout.decisive && c.playout.anti_decisive);
        assert!(!c.playout.save_bridge && !c.playout.last_good_reply);
        assert!(engine_config("best").unwrap().playout.save_bridge);
        assert!(engine_config("best").unwrap().playout.amaf_rule_moves);
        assert!(
            !engine_config("best:ruleamaf=0")
                .unwrap()
                .playout
                .amaf_rule_moves
        );
        assert_eq!(c.playout.knowledge_moves, 10);
        let c = engine_config("rave:save=1,lgr=1").unwrap();
        assert!(c.playout.save_bridge && c.playout.last_good_reply);
        let fading = engine_config("best:ravemove=100").unwrap();
        assert_eq!(
            fading.search.selection(),
            Selection::Rave(RaveSchedule::Fading {
                base: 500.0,
                per_move: 100.0
            })
        );
        let fading = engine_config("rave:ravebase=300").unwrap();
        assert_eq!(
            fading.search.selection(),
            Selection::Rave(RaveSchedule::Fading {
                base: 300.0,
                per_move: 200.0
            })
        );
        let morat = engine_config("best:biascut=1000,mostwins=1").unwrap();
        assert_eq!(morat.search.bias_cutoff(), Some(1000));
        assert_eq!(morat.search.final_move(), FinalMove::MostWins);
        let plain = engine_config("best:biascut=0,mostwins=0").unwrap();
        assert_eq!(plain.search.bias_cutoff(), None);
        assert_eq!(plain.search.final_move(), FinalMove::MostVisits);
    }

    #[test]
    fn the_amaf_keys_set_grave_the_horizon_and_the_weighting() {
        let c = engine_config("best:grave=50,horizon=12,wamaf=1").unwrap();
        let best = EngineConfig::best();
        let Selection::Rave(schedule) = best.search.selection() else {
            panic!("best is RAVE: {:?}", best.search.selection());
        };
        assert_eq!(
            c.search.selection(),
            Selection::Grave {
                schedule,
                min_visits: 50
            }
        );
        assert_eq!(c.search.amaf_horizon(), Some(12));
        assert_eq!(c.search.amaf_weighting(), AmafWeighting::Playout);
        assert!(!c.search.expand_forced());
        assert!(
            engine_config("best:forced=1")
                .unwrap()
                .search
                .expand_forced()
        );
        let plain = engine_config("best:horizon=0,wamaf=0").unwrap();
        assert_eq!(plain.search.amaf_horizon(), None);
        assert_eq!(plain.search.amaf_weighting(), AmafWeighting::Uniform);
        assert_eq!(plain.search.selection(), best.search.selection());
    }

    #[test]
    fn errors_name_what_is_wrong() {
        for (spec, needle) in [
            ("best:depth=3", "depth"),
            ("best:bias", "bias"),
            ("best:c=lots", "lots"),
            ("best:expand=0", "expand"),
            ("best:expand=2.5", "expand"),
            ("best:c=-1", "best:c=-1"),
            ("nonsense:c=1", "nonsense"),
            ("best:threads=0", "threads"),
            ("best:reach=-1", "reach"),
            ("best:ravebase=-1", "base"),
            ("best:nodes=1.5", "nodes"),
            ("best:memory=0", "memory"),
            ("best:kmoves=-1", "kmoves"),
            ("best:biascut=2.5", "biascut"),
            ("best:grave=0", "grave"),
            ("best:horizon=-2", "horizon"),
        ] {
            let err = engine_config(spec).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
        }
        assert_eq!(
            engine_config("best:bias").unwrap_err(),
            SpecError::NotKeyValue {
                param: "bias".to_string()
            }
        );
        assert!(matches!(
            engine_config("best:c=-1"),
            Err(SpecError::Search { .. })
        ));
    }

    #[test]
    fn every_key_is_declared_once_with_a_help_text() {
        let mut seen = std::collections::HashSet::new();
        for p in PARAMETERS {
            assert!(seen.insert(p.key), "{} is declared twice", p.key);
            assert!(!p.help.trim().is_empty(), "{} has no help text", p.key);
            assert!(
                PARAMETER_HELP.contains(&format!(" {}=", p.key)),
                "the help text lacks {}: {PARAMETER_HELP}",
                p.key
            );
        }
        let keys: Vec<_> = PARAMETERS.iter().map(|p| p.key).collect();
        assert_eq!(PARAMETER_KEYS, keys.join(", "));
    }

    /// A value `kind` accepts, and values it refuses.
    fn examples(kind: Kind) -> (String, Vec<String>) {
        match kind {
            Kind::Number(_) => ("0.5".to_string(), vec![]),
            Kind::Switch(_) => ("1".to_string(), vec![]),
            Kind::Weight(_) => ("0.5".to_string(), vec!["-1".into(), "inf".into()]),
            Kind::Count { min, max, .. } => {
                let mut refused = vec![format!("{min}.5")];
                if min > 0 {
                    refused.push((min - 1).to_string());
                }
                if max < u32::MAX {
                    refused.push((u64::from(max) + 1).to_string());
                }
                (min.to_string(), refused)
            }
        }
    }

    #[test]
    fn every_key_takes_a_value_of_its_kind_and_names_itself_in_refusals() {
        for p in PARAMETERS {
            let (accepted, refused) = examples(p.kind);
            let spec = format!("best:{}={accepted}", p.key);
            assert!(engine_config(&spec).is_ok(), "{spec}");
            for value in refused.iter().map(String::as_str).chain(["x", "nan"]) {
                let spec = format!("best:{}={value}", p.key);
                let err = engine_config(&spec).unwrap_err();
                assert!(
                    matches!(&err, SpecError::BadValue { key, value: v, .. }
                        if key == p.key && v == value),
                    "{spec}: {err:?}"
                );
                assert!(err.to_string().contains(p.key), "{spec}: {err}");
            }
        }
    }

    #[test]
    fn an_unknown_key_is_refused_with_the_known_ones() {
        let err = engine_config("best:depth=3").unwrap_err();
        assert_eq!(
            err,
            SpecError::UnknownKey {
                key: "depth".to_string()
            }
        );
        assert!(err.to_string().contains(PARAMETER_KEYS), "{err}");
    }
}
