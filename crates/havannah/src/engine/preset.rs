//! The engine's preset configurations: its best one, plain UCT, and plain RAVE engines that
//! differ from each other in one feature, so that a match between two of them measures that
//! feature alone.

use std::fmt;

use rave_mcts::{AmafWeighting, Config, ConfigBuilder, PriorTarget, RaveSchedule};

use super::EngineConfig;
use crate::playout::{PlayoutConfig, Policy, RingCheck};
use crate::prior::PriorConfig;

/// A preset configuration of the engine (see [`EngineConfig::preset`]).
///
/// Apart from [`Preset::Best`] and [`Preset::Uct`], each is a plain RAVE engine (the
/// minimum-MSE schedule with bias 0.05, uniform playouts, no prior, no knowledge) with one
/// feature changed. [`Preset::name`] is its short name (`best`, `grave`, `lgr`, ...), which
/// [`EngineConfig::name`] starts as.
///
/// ```
/// use havannah::engine::Preset;
/// use havannah::EngineConfig;
///
/// let grave = EngineConfig::preset(Preset::Grave);
/// assert_eq!(grave.name, "grave");
/// assert!(matches!(
///     grave.search.selection(),
///     havannah::mcts::Selection::Grave { min_visits: 50, .. }
/// ));
/// assert_eq!(Preset::ALL.iter().filter(|p| p.name() == "lgr").count(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// `best`: [`EngineConfig::best`].
    Best,
    /// `uct`: [`EngineConfig::plain_uct`].
    Uct,
    /// `rave`: the plain RAVE engine itself.
    Rave,
    /// `grave`: GRAVE with a reference threshold of 50 visits instead of RAVE.
    Grave,
    /// `wamaf`: AMAF samples weighted by how early in the playout the move was played.
    WeightedAmaf,
    /// `horizon`: the playout horizon (playouts stop early, scored as draws).
    Horizon,
    /// `weighted`: the weighted playouts of Könnecke & Waldmann ([`Policy::Weighted`]).
    Weighted,
    /// `offline`: rings found once at the end of each playout ([`RingCheck::Offline`]).
    Offline,
    /// `prior`: the Havannah prior ([`PriorConfig::default`]), its virtual visits in the
    /// UCT and AMAF statistics.
    Prior,
    /// `prior-uct`: the prior's virtual visits in the UCT statistics only.
    PriorUct,
    /// `prior-amaf`: the prior's virtual visits in the AMAF statistics only.
    PriorAmaf,
    /// `knowledge`: the decisive, anti-decisive and bridge-saving playout rules
    /// ([`PlayoutConfig::strong`]).
    Knowledge,
    /// `decisive`: the decisive and anti-decisive playout rules alone.
    Decisive,
    /// `bridge`: bridge saving in playouts alone.
    Bridge,
    /// `lgr`: last-good-reply in playouts.
    LastGoodReply,
}

impl Preset {
    /// Every preset: [`Preset::Best`], [`Preset::Uct`], then the plain RAVE engine and its
    /// one-feature variants.
    pub const ALL: [Preset; 15] = [
        Preset::Best,
        Preset::Uct,
        Preset::Rave,
        Preset::Grave,
        Preset::WeightedAmaf,
        Preset::Horizon,
        Preset::Weighted,
        Preset::Offline,
        Preset::Prior,
        Preset::PriorUct,
        Preset::PriorAmaf,
        Preset::Knowledge,
        Preset::Decisive,
        Preset::Bridge,
        Preset::LastGoodReply,
    ];

    /// The short name, such as `best`, `prior-uct` or `lgr`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Best => "best",
            Preset::Uct => "uct",
            Preset::Rave => "rave",
            Preset::Grave => "grave",
            Preset::WeightedAmaf => "wamaf",
            Preset::Horizon => "horizon",
            Preset::Weighted => "weighted",
            Preset::Offline => "offline",
            Preset::Prior => "prior",
            Preset::PriorUct => "prior-uct",
            Preset::PriorAmaf => "prior-amaf",
            Preset::Knowledge => "knowledge",
            Preset::Decisive => "decisive",
            Preset::Bridge => "bridge",
            Preset::LastGoodReply => "lgr",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl EngineConfig {
    /// The configuration of `preset`, named by [`Preset::name`].
    #[must_use]
    pub fn preset(preset: Preset) -> EngineConfig {
        let rave = || Config::builder().rave(RaveSchedule::MinimumMse { bias: 0.05 });
        // The builders below are constants that build: the default is never taken.
        let plain = |search: ConfigBuilder| EngineConfig {
            name: preset.name().to_string(),
            search: search.build().unwrap_or_default(),
            playout: PlayoutConfig::default(),
            prior: PriorConfig::off(),
            ..EngineConfig::best()
        };
        let with_playout = |playout: PlayoutConfig| EngineConfig {
            playout,
            ..plain(rave())
        };
        let with_prior = |search: ConfigBuilder| EngineConfig {
            prior: PriorConfig::default(),
            ..plain(search)
        };
        match preset {
            Preset::Best => EngineConfig::best(),
            Preset::Uct => EngineConfig::plain_uct(),
            Preset::Rave => plain(rave()),
            Preset::Grave => plain(Config::builder().grave(50)),
            Preset::WeightedAmaf => plain(rave().amaf_weighting(AmafWeighting::Playout)),
            Preset::Horizon => plain(rave().playout_horizon(true)),
            Preset::Weighted => with_playout(PlayoutConfig {
                policy: Policy::Weighted,
                ..PlayoutConfig::default()
            }),
            Preset::Offline => with_playout(PlayoutConfig {
                rings: RingCheck::Offline,
                ..PlayoutConfig::default()
            }),
            Preset::Prior => with_prior(rave()),
            Preset::PriorUct => with_prior(rave().prior_target(PriorTarget::Uct)),
            Preset::PriorAmaf => with_prior(rave().prior_target(PriorTarget::Amaf)),
            Preset::Knowledge => with_playout(PlayoutConfig::strong()),
            Preset::Decisive => with_playout(PlayoutConfig {
                decisive: true,
                anti_decisive: true,
                ..PlayoutConfig::default()
            }),
            Preset::Bridge => with_playout(PlayoutConfig::bridges()),
            Preset::LastGoodReply => with_playout(PlayoutConfig {
                last_good_reply: true,
                ..PlayoutConfig::default()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use rave_mcts::Selection;

    use super::*;

    #[test]
    fn names_are_distinct_and_name_the_configuration() {
        for (k, preset) in Preset::ALL.iter().enumerate() {
            assert_eq!(EngineConfig::preset(*preset).name, preset.name());
            assert_eq!(preset.to_string(), preset.name());
            assert!(
                Preset::ALL[..k].iter().all(|p| p.name() != preset.name()),
                "{preset}"
            );
        }
    }

    #[test]
    fn each_plain_preset_changes_one_feature_of_rave() {
        let rave = EngineConfig::preset(Preset::Rave);
        assert_eq!(
            rave.search.selection(),
            Selection::Rave(RaveSchedule::MinimumMse { bias: 0.05 })
        );
        assert_eq!(rave.playout, PlayoutConfig::default());
        assert_eq!(rave.prior, PriorConfig::off());
        let differences = |preset: Preset| {
            let c = EngineConfig::preset(preset);
            [
                c.search.selection() != rave.search.selection(),
                c.search.amaf_weighting() != rave.search.amaf_weighting(),
                c.search.playout_horizon() != rave.search.playout_horizon(),
                c.search.prior_target() != rave.search.prior_target(),
                c.playout != rave.playout,
                c.prior != rave.prior,
            ]
        };
        let one =
            |flags: [bool; 6], k: usize| flags.iter().enumerate().all(|(j, &f)| f == (j == k));
        assert!(one(differences(Preset::Grave), 0));
        assert!(one(differences(Preset::WeightedAmaf), 1));
        assert!(one(differences(Preset::Horizon), 2));
        for playout in [
            Preset::Weighted,
            Preset::Offline,
            Preset::Knowledge,
            Preset::Decisive,
            Preset::Bridge,
            Preset::LastGoodReply,
        ] {
            assert!(one(differences(playout), 4), "{playout}");
        }
        assert!(one(differences(Preset::Prior), 5));
        let both = differences(Preset::PriorUct);
        assert!(both[3] && both[5] && !both[4]);
        assert_ne!(
            EngineConfig::preset(Preset::PriorUct).search.prior_target(),
            EngineConfig::preset(Preset::PriorAmaf)
                .search
                .prior_target()
        );
    }
}
