//! The search settings a game's players may change by name (`rave:ravebase=500,stop=0`):
//! the RAVE schedule, when a leaf is expanded, first-play urgency and the early stop, each
//! left to the game's own default unless given.

use rave_mcts::{ConfigBuilder, RaveSchedule};

#[cfg(feature = "cli")]
use crate::cli::PlayerSpec;

/// Search settings over a game's defaults; `None` keeps the configuration's own value.
///
/// ```
/// use game_harness::search_params::SearchParams;
/// use rave_mcts::{Config, RaveSchedule};
///
/// let tuned = SearchParams { fading: Some((500.0, 200.0)), early_stop: Some(false), ..SearchParams::default() };
/// let config = tuned.apply(Config::builder().rave(RaveSchedule::default())).build()?;
/// assert!(!config.early_stop());
/// # Ok::<(), rave_mcts::MctsError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SearchParams {
    /// The fading RAVE schedule (`base`, `per_move`, see [`RaveSchedule::Fading`]); only
    /// for a RAVE configuration.
    pub fading: Option<(f64, f64)>,
    /// The visits a leaf needs before it is expanded.
    pub expand: Option<u32>,
    /// The value of a child not yet visited (first-play urgency).
    pub fpu: Option<f64>,
    /// Whether a search stops once its best move cannot change.
    pub early_stop: Option<bool>,
}

impl SearchParams {
    /// The keys [`SearchParams::of_player`] reads.
    pub const KEYS: [&'static str; 5] = ["ravebase", "ravemove", "expand", "fpu", "stop"];

    /// `builder` with the settings given here (a fading schedule turns a UCT configuration
    /// into RAVE).
    #[must_use]
    pub fn apply(self, mut builder: ConfigBuilder) -> ConfigBuilder {
        if let Some((base, per_move)) = self.fading {
            builder = builder.rave(RaveSchedule::Fading { base, per_move });
        }
        if let Some(visits) = self.expand {
            builder = builder.expand_threshold(visits);
        }
        if let Some(fpu) = self.fpu {
            builder = builder.first_play_urgency(fpu);
        }
        if let Some(on) = self.early_stop {
            builder = builder.early_stop(on);
        }
        builder
    }

    /// `defaults` with what `spec` sets: `ravebase=B` and `ravemove=M` (a fading schedule,
    /// the other taken from `defaults` or 500 and 200), `expand=N`, `fpu=F`, `stop=0|1`.
    ///
    /// # Errors
    /// A message naming the player and the key whose value is malformed or out of range.
    #[cfg(feature = "cli")]
    pub fn of_player(spec: &PlayerSpec, defaults: SearchParams) -> Result<SearchParams, String> {
        let number = |key: &str, range: std::ops::RangeInclusive<f64>| -> Result<_, String> {
            spec.param(key)
                .map(|text| match text.parse::<f64>() {
                    Ok(x) if range.contains(&x) => Ok(x),
                    _ => Err(format!(
                        "player {spec}: {key}={text} is not a number in [{}, {}]",
                        range.start(),
                        range.end()
                    )),
                })
                .transpose()
        };
        let mut params = defaults;
        let (base, per_move) = (
            number("ravebase", 0.0..=1e9)?,
            number("ravemove", 0.0..=1e9)?,
        );
        if base.is_some() || per_move.is_some() {
            let (b, m) = defaults.fading.unwrap_or((500.0, 200.0));
            params.fading = Some((base.unwrap_or(b), per_move.unwrap_or(m)));
        }
        let bad = |key: &str, text: &str, expected: &str| {
            format!("player {spec}: {key}={text} is not {expected}")
        };
        if let Some(text) = spec.param("expand") {
            let visits = text.parse::<u32>().ok().filter(|&n| n <= 1_000_000);
            params.expand =
                Some(visits.ok_or_else(|| bad("expand", text, "a count from 0 to 1000000"))?);
        }
        params.fpu = number("fpu", 0.0..=10.0)?.or(params.fpu);
        params.early_stop = match spec.param("stop") {
            None => params.early_stop,
            Some("0") => Some(false),
            Some("1") => Some(true),
            Some(text) => return Err(bad("stop", text, "0 or 1")),
        };
        Ok(params)
    }
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use rave_mcts::Config;

    fn spec(text: &str) -> PlayerSpec {
        text.parse().unwrap()
    }

    #[test]
    fn a_player_sets_what_it_names_over_the_defaults() {
        let defaults = SearchParams {
            fading: Some((400.0, 100.0)),
            expand: Some(1),
            ..SearchParams::default()
        };
        let p = SearchParams::of_player(&spec("rave:ravemove=50,fpu=0.8,stop=0"), defaults);
        let p = p.unwrap();
        assert_eq!(p.fading, Some((400.0, 50.0)));
        assert_eq!(
            (p.expand, p.fpu, p.early_stop),
            (Some(1), Some(0.8), Some(false))
        );
        let none = SearchParams::of_player(&spec("rave"), SearchParams::default()).unwrap();
        assert_eq!(none, SearchParams::default());
        let base = SearchParams::of_player(&spec("rave:ravebase=300"), SearchParams::default());
        assert_eq!(base.unwrap().fading, Some((300.0, 200.0)));
        let config = p.apply(Config::builder().rave(RaveSchedule::default()));
        let config = config.build().unwrap();
        assert_eq!(config.expand_threshold(), 1);
        assert!(!config.early_stop());
        assert_eq!(config.first_play_urgency(), 0.8);
    }

    #[test]
    fn a_bad_value_names_the_player_and_the_key() {
        for (text, key) in [
            ("rave:stop=2", "stop=2"),
            ("rave:fpu=x", "fpu=x"),
            ("rave:expand=-1", "expand=-1"),
            ("rave:expand=1.5", "expand=1.5"),
            ("rave:stop=0.5", "stop=0.5"),
        ] {
            let e = SearchParams::of_player(&spec(text), SearchParams::default()).unwrap_err();
            assert!(e.contains(key) && e.contains(text), "{e}");
        }
    }
}
