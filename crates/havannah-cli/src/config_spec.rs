//! Engine configurations as the command lines name them: a [`Preset`]'s name, optionally
//! followed by `:` and comma-separated `key=value` parameters that replace the preset's own,
//! for tuning matches, such as `best:bias=0.02,expand=4`.
//!
//! The keys ([`PARAMETER_KEYS`]): `bias=B` (the minimum-MSE RAVE bias; turns RAVE on), `ravebase=K`
//! and `ravemove=K` (the fading RAVE schedule `k = base + per_move` per legal move; the one not
//! given is 500 or 200), `c=C` (the UCT exploration constant), `expand=N` (the expansion
//! threshold), `fpu=F` (first-play urgency), `stop=0|1` (early stop), `threads=N` (search threads,
//! so that one match can pit thread counts against each other), `nodes=N` (tree nodes a thread),
//! `memory=MiB` (a memory budget for the tree all threads share), `prune=0|1` (prune a full tree
//! and go on growing it), `biascut=N` (the visits from which the progressive bias stops; 0: never),
//! `mostwins=0|1` (the final move by the most wins instead of the most visits), `forced=0|1` (a
//! node's only child expanded on its first visit: forcing sequences walked to their end in one
//! simulation), `grave=N` (GRAVE: nodes with fewer than `N` visits take the AMAF statistics of
//! their nearest ancestor with `N` or more), `horizon=H` (the AMAF horizon: moves within `H` plies
//! below a node count; 0: all), `wamaf=0|1` (AMAF samples weighted by the playout, short playouts
//! counting more), `pietable=0|1` (the first-stone table for the pie rule's first two plies, see
//! [`havannah::first_stone`]); the tree knowledge of
//! [`PriorConfig::tree`](havannah::PriorConfig::tree): `reach=W`, `reply=W` (weights `>= 0`),
//! `threats=0|1`; `patterns=W` (the weight of the learned patterns' progressive bias, see
//! [`havannah::patterns`]); and the playout rules of [`PlayoutConfig`]: `decisive`, `block`
//! (anti-decisive), `save` (bridge saving), `lgr` (last-good-reply), each `0|1`, `kmoves=N`
//! (the playout moves they apply to) and `ruleamaf=0|1` (their moves in the AMAF statistics);
//! `ringmoves=N` (rings win in the first `N` playout moves only; 0: in all);
//! the playout pool (PoolRAVE, [`havannah::mcts::PlayoutPool`]): `pool=K` (the pool's moves;
//! 0: none) and `poolshare=P` (the percentage of free playout moves drawn from it), each
//! turning it on with the other's default ([`POOL_SIZE`], [`POOL_SHARE`]).
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

use havannah::mcts::{
    AmafWeighting, ConfigBuilder, FinalMove, MctsError, PlayoutPool, RaveSchedule,
};
use havannah::{EngineConfig, PlayoutConfig, Preset, PriorConfig};

/// The parameter keys [`engine_config`] accepts after a preset's name.
pub const PARAMETER_KEYS: &str = "bias, ravebase, ravemove, c, expand, fpu, stop, threads, nodes, memory, prune, biascut, mostwins, forced, grave, horizon, wamaf, pietable, reach, reply, patterns, threats, decisive, block, save, lgr, kmoves, ruleamaf, ringmoves, pool, poolshare";

/// The parameters after a preset's name, as the command lines' help texts describe them (every
/// key of [`PARAMETER_KEYS`], with its values where a name alone would not say).
pub const PARAMETER_HELP: &str = "`best:bias=0.02,expand=4`; keys bias, ravebase, ravemove, c, \
expand, fpu, stop, threads, nodes, memory (MiB), prune (0|1: prune a full tree), biascut (visits \
from which the progressive bias stops), mostwins (0|1: the final move by most wins), forced \
(0|1: forced moves expanded at once), grave (GRAVE's reference visits), horizon (AMAF horizon \
in plies), wamaf (0|1), pietable (0|1: the pie rule from the first-stone table), reach, reply, \
patterns, threats, the playout rules decisive, block, save, lgr, kmoves, ruleamaf (0|1: \
their moves in AMAF), ringmoves (playout moves in which rings win, 0: all), and the playout pool: pool (its moves, 0: none), poolshare (percent of \
free playout moves from it)";

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

    /// The value as a whole number `>= 0`, where 0 means none.
    fn count_or_none(&self, expected: &'static str) -> Result<Option<u32>, SpecError> {
        Ok(Some(self.count(0, u32::MAX, expected)?).filter(|&n| n > 0))
    }

    /// The value as a weight: finite and not negative.
    fn weight(&self) -> Result<f32, SpecError> {
        if self.number.is_finite() && self.number >= 0.0 {
            Ok(self.number as f32)
        } else {
            Err(self.bad("a weight >= 0"))
        }
    }

    /// The value as a switch: 0 is off, anything else on.
    fn on(&self) -> bool {
        self.number != 0.0
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

/// The engine configuration `spec` names: a preset, with the parameters after `:` applied;
/// its [`EngineConfig::name`] is `spec`.
///
/// # Errors
/// A [`SpecError`] naming the unknown name or key, the malformed parameter, or the value
/// out of range.
pub fn engine_config(spec: &str) -> Result<EngineConfig, SpecError> {
    let (name, params) = match spec.split_once(':') {
        Some((name, params)) => (name, Some(params)),
        None => (spec, None),
    };
    let mut config = EngineConfig::preset(preset(name)?);
    let Some(params) = params else {
        return Ok(config);
    };
    let mut builder = config.search.to_builder();
    // `ravebase` and `ravemove` set the fading schedule together (500 and 200 for the one
    // not given, as in `EngineConfig::best`).
    let mut fading: Option<(f64, f64)> = None;
    // `pool` and `poolshare` set the playout pool together (see `set_pool`).
    let mut pool: (Option<u32>, Option<u32>) = (None, None);
    for param in params.split(',') {
        let (key, text) = param
            .split_once('=')
            .ok_or_else(|| SpecError::NotKeyValue {
                param: param.to_string(),
            })?;
        let key = key.trim();
        let value = Value {
            key,
            text,
            number: text.trim().parse().unwrap_or(f64::NAN),
        };
        if value.number.is_nan() {
            return Err(value.bad("a number"));
        }
        builder = match key {
            "ravebase" => {
                fading = Some((value.number, fading.map_or(200.0, |f| f.1)));
                builder
            }
            "ravemove" => {
                fading = Some((fading.map_or(500.0, |f| f.0), value.number));
                builder
            }
            "pool" => {
                pool.0 = Some(value.count(0, u32::MAX, "a count of moves >= 0")?);
                builder
            }
            "poolshare" => {
                pool.1 = Some(value.count(0, 100, "a percentage from 0 to 100")?);
                builder
            }
            _ => apply(&mut config, builder, &value)?,
        };
    }
    if let Some((base, per_move)) = fading {
        builder = builder.rave(RaveSchedule::Fading { base, per_move });
    }
    if pool != (None, None) {
        builder = set_pool(&mut config.playout, builder, pool);
    }
    config.search = builder.build().map_err(|source| SpecError::Search {
        spec: spec.to_string(),
        source,
    })?;
    config.name = spec.to_string();
    Ok(config)
}

/// The playout pool's moves when only `poolshare` is given.
pub const POOL_SIZE: u32 = 10;
/// The percentage of free playout moves drawn from the pool when only `pool` is given.
pub const POOL_SHARE: u32 = 50;
/// The visits a node needs to make the playout pool.
pub const POOL_MIN_VISITS: u32 = 50;

/// The playout pool of `pool=K` and `poolshare=P` (`pool` = (K, P) as given): a pool of `K`
/// moves (0: none; [`POOL_SIZE`] if only `poolshare` is given) from nodes of
/// [`POOL_MIN_VISITS`] visits, played for `P` percent of the free moves ([`POOL_SHARE`]
/// if only `pool` is given).
fn set_pool(
    playout: &mut PlayoutConfig,
    builder: ConfigBuilder,
    pool: (Option<u32>, Option<u32>),
) -> ConfigBuilder {
    let size = pool.0.unwrap_or(POOL_SIZE) as usize;
    let share = pool.1.unwrap_or(POOL_SHARE);
    if size == 0 {
        playout.pool_percent = 0;
        return builder.playout_pool(None);
    }
    playout.pool_percent = share as u8;
    builder.playout_pool(Some(PlayoutPool {
        size,
        min_visits: POOL_MIN_VISITS,
    }))
}

/// Applies one parameter other than the fading schedule's and the pool's: to the search
/// `builder` (which it returns) or to `config`'s other settings.
fn apply(
    config: &mut EngineConfig,
    builder: ConfigBuilder,
    value: &Value<'_>,
) -> Result<ConfigBuilder, SpecError> {
    let number = value.number;
    let builder = match value.key {
        "bias" => builder.rave(RaveSchedule::MinimumMse { bias: number }),
        "c" => builder.exploration(number),
        "fpu" => builder.first_play_urgency(number),
        "expand" => builder.expand_threshold(value.count(1, u32::MAX, "a count >= 1")?),
        "stop" => builder.early_stop(value.on()),
        "prune" => builder.prune_when_full(value.on()),
        "biascut" => builder.bias_cutoff(value.count_or_none("a count of visits >= 0")?),
        "mostwins" => builder.final_move(if value.on() {
            FinalMove::MostWins
        } else {
            FinalMove::MostVisits
        }),
        "forced" => builder.expand_forced(value.on()),
        "grave" => builder.grave(value.count(1, u32::MAX, "a count of visits >= 1")?),
        "horizon" => builder.amaf_horizon(value.count_or_none("a count of plies >= 0")?),
        "wamaf" => builder.amaf_weighting(if value.on() {
            AmafWeighting::Playout
        } else {
            AmafWeighting::Uniform
        }),
        "threads" => builder.threads(value.count(1, 1024, "a count from 1 to 1024")? as usize),
        "nodes" => {
            config.max_nodes = value.count(2, u32::MAX, "a count >= 2")? as usize;
            builder
        }
        "pietable" => {
            config.pie_table = value.on();
            builder
        }
        "memory" => {
            let mib = value.count(1, 1 << 20, "a count of MiB >= 1")?;
            config.max_memory = Some(mib as usize * (1 << 20));
            builder
        }
        _ => {
            set_knowledge(&mut config.prior, &mut config.playout, value)?;
            builder
        }
    };
    Ok(builder)
}

/// Applies a parameter of the tree knowledge or of the playout rules.
fn set_knowledge(
    prior: &mut PriorConfig,
    playout: &mut PlayoutConfig,
    value: &Value<'_>,
) -> Result<(), SpecError> {
    match value.key {
        "reach" => prior.reach = value.weight()?,
        "reply" => prior.bridge_reply = value.weight()?,
        "patterns" => prior.patterns = value.weight()?,
        "threats" => prior.threats = value.weight()? != 0.0,
        "decisive" => playout.decisive = value.on(),
        "block" => playout.anti_decisive = value.on(),
        "save" => playout.save_bridge = value.on(),
        "lgr" => playout.last_good_reply = value.on(),
        "kmoves" => playout.knowledge_moves = value.count(0, u32::MAX, "a count >= 0")?,
        "ruleamaf" => playout.amaf_rule_moves = value.on(),
        "ringmoves" => {
            playout.ring_moves =
                value.count(0, u32::from(u16::MAX), "a count from 0 to 65535")? as u16;
        }
        other => {
            return Err(SpecError::UnknownKey {
                key: other.to_string(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use havannah::mcts::Selection;

    use super::*;

    #[test]
    fn pool_and_poolshare_set_the_playout_pool_together() {
        let pool = |spec: &str| {
            let c = engine_config(spec).unwrap();
            (
                c.search.playout_pool().map(|p| (p.size, p.min_visits)),
                c.playout.pool_percent,
            )
        };
        assert_eq!(pool("best"), (None, 0));
        assert_eq!(pool("best:pool=12"), (Some((12, POOL_MIN_VISITS)), 50));
        assert_eq!(pool("best:poolshare=30"), (Some((10, POOL_MIN_VISITS)), 30));
        assert_eq!(pool("best:poolshare=30,pool=4"), (Some((4, 50)), 30));
        assert_eq!(pool("best:pool=0,poolshare=30"), (None, 0));
        let too_many = engine_config("best:pool=65").unwrap_err().to_string();
        assert!(
            too_many.contains("pool") && too_many.contains("65"),
            "{too_many}"
        );
        assert!(matches!(
            engine_config("best:poolshare=101"),
            Err(SpecError::BadValue { key, .. }) if key == "poolshare"
        ));
    }

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
}
