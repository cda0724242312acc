//! Match statistics: the score of a player with a Wilson score interval, the Elo difference it
//! implies, and formatting helpers for result tables.
//!
//! **Draws count half.** A match of `w` wins, `d` draws and `l` losses is scored
//! `(w + d/2) / n` with `n = w + d + l`, and the interval is the Wilson score interval of that
//! proportion with `n` trials, as if a draw were half a win. This is the usual convention of
//! engine testing; it makes the interval a little wider than a trinomial model would when
//! draws are frequent (in Havannah draws need a full board and are rare).
//!
//! ```
//! use game_harness::stats::{Score, elo_from_score};
//!
//! let score = Score::new(15, 5, 0); // 15 wins, 5 losses, no draws
//! assert_eq!(score.games(), 20);
//! assert!((score.fraction() - 0.75).abs() < 1e-12);
//! let rate = score.win_rate();
//! assert!(rate.lower < 0.75 && 0.75 < rate.upper);
//! assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
//! println!("{rate}, Elo {}", score.elo());
//! ```

use std::fmt;
use std::time::Duration;

/// The normal quantile of a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of one player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Score {
    /// A score of `wins`, `losses` and `draws`.
    #[must_use]
    pub const fn new(wins: u32, losses: u32, draws: u32) -> Score {
        Score {
            wins,
            losses,
            draws,
        }
    }

    /// The number of games.
    #[must_use]
    pub const fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points scored: a win is 1, a draw 1/2.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// The score as a fraction of the games, `(wins + draws/2) / games`; 0.5 with no games.
    #[must_use]
    pub fn fraction(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / f64::from(n)
        }
    }

    /// The score with its 95% Wilson interval (draws count half).
    #[must_use]
    pub fn win_rate(&self) -> WinRate {
        WinRate::wilson(self.points(), f64::from(self.games()), Z_95)
    }

    /// The Elo difference the score implies, with the 95% interval mapped through
    /// [`elo_from_score`] from the Wilson interval.
    #[must_use]
    pub fn elo(&self) -> Elo {
        Elo::from_win_rate(&self.win_rate())
    }
}

/// A proportion with a confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WinRate {
    /// The observed proportion (0.5 when there were no trials).
    pub value: f64,
    /// The lower end of the interval.
    pub lower: f64,
    /// The upper end of the interval.
    pub upper: f64,
    /// The number of trials (games).
    pub trials: f64,
}

impl WinRate {
    /// The Wilson score interval of `successes` out of `trials` with normal quantile `z`
    /// ([`Z_95`] for 95%).
    ///
    /// With `p = successes / trials` and `n = trials` the interval is
    /// `(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)`. Fractional successes are allowed
    /// (draws count half). Bad input never panics: with no trials (or a non-finite or
    /// non-positive count) the value is 0.5 and the interval `[0, 1]`; successes are clamped to
    /// `[0, trials]` and a non-finite or negative `z` is taken as 0.
    #[must_use]
    pub fn wilson(successes: f64, trials: f64, z: f64) -> WinRate {
        if !(trials.is_finite() && trials > 0.0) {
            return WinRate {
                value: 0.5,
                lower: 0.0,
                upper: 1.0,
                trials: 0.0,
            };
        }
        let n = trials;
        let s = if successes.is_finite() {
            successes.clamp(0.0, n)
        } else {
            0.0
        };
        let z = if z.is_finite() && z > 0.0 { z } else { 0.0 };
        let p = s / n;
        let z2 = z * z;
        let denom = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denom;
        let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // At p = 0 and p = 1 one end is exactly 0 or 1; rounding must not move it.
        let lower = if s == 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        };
        let upper = if s == n {
            1.0
        } else {
            (centre + half).min(1.0)
        };
        WinRate {
            value: p,
            lower,
            upper,
            trials: n,
        }
    }
}

impl fmt::Display for WinRate {
    /// `62.5% [40.9%, 80.2%]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}, {}]",
            percent(self.value),
            percent(self.lower),
            percent(self.upper)
        )
    }
}

/// An Elo difference with an interval; the ends may be infinite (a score of 0% or 100%).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Elo {
    /// The difference the observed score implies.
    pub value: f64,
    /// The difference at the lower end of the score interval.
    pub lower: f64,
    /// The difference at the upper end of the score interval.
    pub upper: f64,
}

impl Elo {
    /// Maps a score interval to Elo with [`elo_from_score`] (which is increasing, so the ends
    /// map to the ends).
    #[must_use]
    pub fn from_win_rate(rate: &WinRate) -> Elo {
        Elo {
            value: elo_from_score(rate.value),
            lower: elo_from_score(rate.lower),
            upper: elo_from_score(rate.upper),
        }
    }
}

impl fmt::Display for Elo {
    /// `+191 [+41, +409]`; infinite ends are written `-inf` and `+inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}, {}]",
            format_elo(self.value),
            format_elo(self.lower),
            format_elo(self.upper)
        )
    }
}

/// The Elo difference that gives an expected score `score`: `-400 · log10(1/score - 1)`.
///
/// 0.5 gives 0, 0.75 gives about +190.85; 0 and below give `-inf`, 1 and above `+inf`,
/// NaN gives NaN.
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    if score.is_nan() {
        f64::NAN
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A fraction as a percentage with one decimal: `0.625` is `62.5%`.
#[must_use]
pub fn percent(fraction: f64) -> String {
    format!("{:.1}%", fraction * 100.0)
}

/// An Elo difference rounded to a whole number with its sign: `+191`, `-35`, `0`, `+inf`.
#[must_use]
pub fn format_elo(elo: f64) -> String {
    if elo.is_nan() {
        "nan".to_string()
    } else if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else {
        let rounded = elo.round();
        if rounded == 0.0 {
            "0".to_string()
        } else {
            format!("{rounded:+.0}")
        }
    }
}

/// A duration in a unit that suits its size: `420 ns`, `850 µs`, `12.3 ms`, `4.56 s`, `2 min 05 s`.
#[must_use]
pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs < 1e-6 {
        format!("{} ns", d.as_nanos())
    } else if secs < 1e-3 {
        format!("{:.0} µs", secs * 1e6)
    } else if secs < 1.0 {
        format!("{:.1} ms", secs * 1e3)
    } else if secs < 60.0 {
        format!("{secs:.2} s")
    } else {
        let total = d.as_secs();
        format!("{} min {:02} s", total / 60, total % 60)
    }
}

/// A whole number with commas between groups of three digits: `57123` is `57,123`.
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The mean of a total over a count, or zero for a count of zero.
#[must_use]
pub fn mean_duration(total: Duration, count: u64) -> Duration {
    if count == 0 {
        Duration::ZERO
    } else {
        Duration::from_secs_f64(total.as_secs_f64() / count as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_known_values() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 0.75: -400 log10(1/3) = 400 log10 3 = 190.848...
        assert!(close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9));
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        // 10/11: 1/p - 1 = 0.1, so +400.
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert!(elo_from_score(f64::NAN).is_nan());
        for e in [-500.0, -35.0, 0.0, 12.5, 300.0] {
            assert!(close(elo_from_score(score_from_elo(e)), e, 1e-9));
        }
    }

    #[test]
    fn wilson_eight_of_ten() {
        // By hand with z = 1.96: z² = 3.8416, denominator 1.38416,
        // centre (0.8 + 0.19208) / 1.38416 = 0.716738,
        // half 1.96 / 1.38416 · sqrt(0.016 + 0.009604) = 0.226583.
        let r = WinRate::wilson(8.0, 10.0, 1.96);
        assert!(close(r.value, 0.8, 1e-12));
        assert!(close(r.lower, 0.490155, 1e-5), "{}", r.lower);
        assert!(close(r.upper, 0.943321, 1e-5), "{}", r.upper);
    }

    #[test]
    fn wilson_edges() {
        let none = WinRate::wilson(0.0, 0.0, Z_95);
        assert_eq!((none.value, none.lower, none.upper), (0.5, 0.0, 1.0));
        let zero = WinRate::wilson(0.0, 10.0, Z_95);
        assert_eq!(zero.lower, 0.0);
        // 0/n: upper end z²/n / (1 + z²/n) = 3.8415/13.8415 for n = 10.
        let z2 = Z_95 * Z_95;
        assert!(close(zero.upper, z2 / (10.0 + z2), 1e-12));
        let all = WinRate::wilson(10.0, 10.0, Z_95);
        assert!(close(all.lower, 10.0 / (10.0 + z2), 1e-12));
        assert_eq!(all.upper, 1.0);
        // Bad input is clamped, never a panic or NaN.
        let bad = WinRate::wilson(f64::NAN, 4.0, f64::INFINITY);
        assert!(bad.lower <= bad.upper);
        let over = WinRate::wilson(12.0, 10.0, Z_95);
        assert_eq!(over.value, 1.0);
    }

    #[test]
    fn draws_count_half() {
        let s = Score::new(6, 2, 4);
        assert_eq!(s.games(), 12);
        assert!(close(s.points(), 8.0, 1e-12));
        assert!(close(s.fraction(), 8.0 / 12.0, 1e-12));
        let r = s.win_rate();
        let direct = WinRate::wilson(8.0, 12.0, Z_95);
        assert_eq!(r, direct);
        let e = s.elo();
        assert!(e.lower < e.value && e.value < e.upper);
        assert!(close(e.value, elo_from_score(8.0 / 12.0), 1e-12));
        assert_eq!(Score::default().fraction(), 0.5);
    }

    #[test]
    fn formatting() {
        assert_eq!(percent(0.625), "62.5%");
        assert_eq!(format_elo(190.85), "+191");
        assert_eq!(format_elo(-35.2), "-35");
        assert_eq!(format_elo(0.3), "0");
        assert_eq!(format_elo(f64::INFINITY), "+inf");
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
        let r = WinRate {
            value: 0.625,
            lower: 0.409,
            upper: 0.802,
            trials: 16.0,
        };
        assert_eq!(r.to_string(), "62.5% [40.9%, 80.2%]");
        let e = Elo {
            value: 190.85,
            lower: 41.0,
            upper: f64::INFINITY,
        };
        assert_eq!(e.to_string(), "+191 [+41, +inf]");
        assert_eq!(format_duration(Duration::from_nanos(420)), "420 ns");
        assert_eq!(format_duration(Duration::from_micros(850)), "850 µs");
        assert_eq!(format_duration(Duration::from_micros(12_300)), "12.3 ms");
        assert_eq!(format_duration(Duration::from_millis(4_560)), "4.56 s");
        assert_eq!(format_duration(Duration::from_secs(125)), "2 min 05 s");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(57_123), "57,123");
        assert_eq!(thousands(123_456_789), "123,456,789");
        assert_eq!(mean_duration(Duration::from_secs(3), 0), Duration::ZERO);
        assert_eq!(
            mean_duration(Duration::from_secs(3), 2),
            Duration::from_millis(1500)
        );
    }
}
