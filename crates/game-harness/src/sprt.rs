//! The sequential probability ratio test (SPRT) of engine testing, on the pentanomial counts
//! of a paired match ([`Pentanomial`]).
//!
//! **What it decides.** A match of player A (a change) against player B (the base) goes on
//! until the results favour one of two hypotheses about the Elo difference A − B: H0, that it
//! is `elo0`, or H1, that it is `elo1` (`elo0 < elo1`). After each pair the log-likelihood
//! ratio (LLR) of H1 against H0 is compared with two bounds: below the lower one the test
//! accepts H0 (the change is not an improvement of `elo1`), above the upper one it accepts
//! H1, and between them the match goes on. `alpha` is the chance of accepting H1 when the
//! difference is `elo0` (a false positive) and `beta` the chance of accepting H0 when it is
//! `elo1`; the bounds are `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
//!
//! **The model.** The bounds are in logistic Elo (a difference `e` means an expected score of
//! `1 / (1 + 10^(-e/400))` per game), the model that fastchess calls `logistic` and that
//! fishtest used before it moved to normalized Elo. The five probabilities of a pair's result
//! are not known, so the test is the generalized SPRT of Michel Van den Bergh (fishtest's
//! `LLR_logistic`): under each hypothesis the five probabilities are the maximum-likelihood
//! distribution whose mean score is that hypothesis's expected score, and the LLR is the
//! number of pairs times the mean log ratio of the two distributions over the observed pairs.
//! It gives the same numbers as fishtest's test pages of that time.
//!
//! ```
//! use game_harness::pentanomial::Pentanomial;
//! use game_harness::sprt::{Sprt, SprtDecision};
//!
//! let sprt: Sprt = "0,30".parse()?; // H0: Elo 0, H1: Elo +30, alpha = beta = 0.05
//! let (lower, upper) = sprt.bounds();
//! assert!((upper - 2.944).abs() < 1e-3 && (lower + upper).abs() < 1e-12);
//!
//! let even = Pentanomial::new([3, 10, 40, 12, 5]);
//! assert_eq!(sprt.status(&even).decision, None); // not enough evidence either way
//! let strong = Pentanomial::new([2, 10, 40, 30, 18]);
//! let status = sprt.status(&strong);
//! assert_eq!(status.decision, Some(SprtDecision::H1));
//! assert_eq!(
//!     status.to_string(),
//!     "SPRT [0, 30] (alpha 0.05, beta 0.05): LLR 6.39 [-2.94, 2.94], H1 accepted"
//! );
//! # Ok::<(), game_harness::sprt::ParseSprtError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::pentanomial::Pentanomial;
use crate::stats::score_from_elo;

/// The error probabilities of [`Sprt::new`].
const DEFAULT_ALPHA_BETA: f64 = 0.05;

/// The count that stands in for an empty bin of the pentanomial, as fishtest's `regularize`
/// does (`epsilon = 1e-3` in `LLRcalc.py`): the maximum-likelihood distributions need every
/// bin to have a positive probability.
const EMPTY_BIN: f64 = 1e-3;

/// An SPRT of the Elo difference A − B: H0 (`elo0`) against H1 (`elo1`) in logistic Elo, with
/// error probabilities `alpha` (accepting H1 under H0) and `beta` (accepting H0 under H1).
///
/// [`Sprt::new`] and [`Sprt::with_alpha_beta`] check the values; a test built from its
/// fields can be checked with [`Sprt::validate`]. Its LLR is never NaN whatever the values.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sprt {
    /// The Elo difference of H0, the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of H1, the alternative (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds, in (0, 0.5).
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds, in (0, 0.5).
    pub beta: f64,
}

/// Why an [`Sprt`] is not valid; the message names the bad value.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// An Elo bound is infinite or NaN.
    #[error("SPRT {name} is not a finite Elo difference: {value}")]
    NotFinite {
        /// `elo0` or `elo1`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// `elo0` is not below `elo1`.
    #[error("SPRT elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order {
        /// The Elo difference of H0.
        elo0: f64,
        /// The Elo difference of H1.
        elo1: f64,
    },
    /// `alpha` or `beta` is not strictly between 0 and 0.5.
    #[error("SPRT {name} ({value}) must be in (0, 0.5)")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
}

/// Which hypothesis an SPRT accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SprtDecision {
    /// H0 accepted: the difference is `elo0` or less; the change is not better by `elo1`.
    H0,
    /// H1 accepted: the difference is `elo1` or more.
    H1,
}

impl fmt::Display for SprtDecision {
    /// `H0 accepted` or `H1 accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::H0 => "H0 accepted",
            SprtDecision::H1 => "H1 accepted",
        })
    }
}

/// Where an SPRT stands after some pairs: its LLR, its bounds and its decision if any.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SprtStatus {
    /// The test.
    pub sprt: Sprt,
    /// The log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// The lower bound: H0 is accepted below it.
    pub lower: f64,
    /// The upper bound: H1 is accepted above it.
    pub upper: f64,
    /// The hypothesis accepted, or `None` while the test goes on.
    pub decision: Option<SprtDecision>,
}

impl fmt::Display for SprtStatus {
    /// `SPRT [0, 30] (alpha 0.05, beta 0.05): LLR 1.23 [-2.94, 2.94], continue`, or
    /// `... H1 accepted` / `... H0 accepted` at the end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.sprt;
        write!(
            f,
            "SPRT [{}, {}] (alpha {}, beta {}): LLR {:.2} [{:.2}, {:.2}], ",
            s.elo0, s.elo1, s.alpha, s.beta, self.llr, self.lower, self.upper
        )?;
        match self.decision {
            Some(decision) => write!(f, "{decision}"),
            None => f.write_str("continue"),
        }
    }
}

impl Sprt {
    /// The test of `elo0` against `elo1` with `alpha = beta = 0.05`.
    ///
    /// # Errors
    /// [`SprtError`] when a bound is not finite or `elo0 >= elo1`.
    pub fn new(elo0: f64, elo1: f64) -> Result<Sprt, SprtError> {
        let sprt = Sprt {
            elo0,
            elo1,
            alpha: DEFAULT_ALPHA_BETA,
            beta: DEFAULT_ALPHA_BETA,
        };
        sprt.validate()?;
        Ok(sprt)
    }

    /// The same test with error probabilities `alpha` and `beta`.
    ///
    /// # Errors
    /// [`SprtError`] when `alpha` or `beta` is not in (0, 0.5) (or the Elo bounds are bad).
    pub fn with_alpha_beta(self, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let sprt = Sprt {
            alpha,
            beta,
            ..self
        };
        sprt.validate()?;
        Ok(sprt)
    }

    /// Checks the values: finite Elo bounds with `elo0 < elo1`, `alpha` and `beta` in (0, 0.5).
    ///
    /// # Errors
    /// The first bad value, as a [`SprtError`].
    pub fn validate(&self) -> Result<(), SprtError> {
        for (name, value) in [("elo0", self.elo0), ("elo1", self.elo1)] {
            if !value.is_finite() {
                return Err(SprtError::NotFinite { name, value });
            }
        }
        if self.elo0 >= self.elo1 {
            return Err(SprtError::Order {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 0.5) {
                return Err(SprtError::Probability { name, value });
            }
        }
        Ok(())
    }

    /// The bounds of the LLR, `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`:
    /// about `(-2.944, 2.944)` at `alpha = beta = 0.05`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of H1 against H0 for the pairs `results`; 0 with
    /// no pairs.
    ///
    /// With `N` pairs whose scores `v = 0, 1/4, 1/2, 3/4, 1` (scaled to `[0, 1]`) have the
    /// observed frequencies `p(v)`, the maximum-likelihood distribution with mean `s` is
    /// `p(v) / (1 + x (v - s))`, where `x` solves `Σ p(v) (v - s) / (1 + x (v - s)) = 0`; the
    /// LLR is `N Σ p(v) ln(q1(v) / q0(v))` with `q0` and `q1` those of the expected scores of
    /// `elo0` and `elo1`. Empty bins count `1e-3` pairs, as in fishtest.
    #[must_use]
    pub fn llr(&self, results: &Pentanomial) -> f64 {
        if results.pairs() == 0 {
            return 0.0;
        }
        let counts = results
            .counts
            .map(|c| if c == 0 { EMPTY_BIN } else { f64::from(c) });
        let n: f64 = counts.iter().sum();
        let pdf: [(f64, f64); 5] = std::array::from_fn(|i| (i as f64 / 4.0, counts[i] / n));
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let (x0, x1) = (secular_root(&pdf, s0), secular_root(&pdf, s1));
        // ln(q1 / q0) = ln(1 + x0 (v - s0)) - ln(1 + x1 (v - s1)); the factors are positive
        // inside the root's bracket, and kept so against rounding at its ends.
        let log_factor = |x: f64, v: f64, s: f64| (1.0 + x * (v - s)).max(f64::MIN_POSITIVE).ln();
        let per_pair: f64 = pdf
            .iter()
            .map(|&(v, p)| p * (log_factor(x0, v, s0) - log_factor(x1, v, s1)))
            .sum();
        n * per_pair
    }

    /// The LLR of `results` against the bounds, and the decision it reaches if any: H0 below
    /// the lower bound, H1 above the upper one.
    #[must_use]
    pub fn status(&self, results: &Pentanomial) -> SprtStatus {
        let llr = self.llr(results);
        let (lower, upper) = self.bounds();
        let decision = if llr < lower {
            Some(SprtDecision::H0)
        } else if llr > upper {
            Some(SprtDecision::H1)
        } else {
            None
        };
        SprtStatus {
            sprt: *self,
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// The expected score of an Elo difference in the logistic model, kept strictly inside
/// (0, 1) so that a distribution on `[0, 1]` with that mean exists; 0.5 for NaN.
fn expected_score(elo: f64) -> f64 {
    const EDGE: f64 = 1e-12;
    let s = score_from_elo(elo);
    if s.is_nan() {
        0.5
    } else {
        s.clamp(EDGE, 1.0 - EDGE)
    }
}

/// The root `x` of `Σ p (v - s) / (1 + x (v - s)) = 0` over the distribution `pdf` of `(v, p)`
/// with `v` in `[0, 1]`, every `p > 0`, and `0 < s < 1`, by bisection.
///
/// The sum falls from `+∞` to `-∞` as `x` goes across `(-1 / (1 - s), 1 / s)`, the interval
/// where every `1 + x (v - s)` is positive, so it has exactly one root there.
fn secular_root(pdf: &[(f64, f64)], s: f64) -> f64 {
    let sum = |x: f64| -> f64 {
        let mut total = 0.0;
        for &(v, p) in pdf {
            let a = v - s;
            let d = 1.0 + x * a;
            if d <= 0.0 {
                // Past an end of the interval by rounding: the sum's sign there.
                return if a > 0.0 {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                };
            }
            total += p * a / d;
        }
        total
    };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    // 200 halvings leave under 1e-48 of a bracket at most 1e12 wide (s within 1e-12 of 0 or
    // 1), far below what the LLR can feel; stop early when the ends are adjacent doubles.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if sum(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

impl fmt::Display for Sprt {
    /// `ELO0,ELO1` (`0,30`), with `,ALPHA,BETA` added unless both are 0.05; [`FromStr`] reads
    /// it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.elo0, self.elo1)?;
        if self.alpha != DEFAULT_ALPHA_BETA || self.beta != DEFAULT_ALPHA_BETA {
            write!(f, ",{},{}", self.alpha, self.beta)?;
        }
        Ok(())
    }
}

/// Why text is not an [`Sprt`]; the message names the text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParseSprtError {
    /// Not two or four numbers separated by commas.
    #[error("SPRT {text:?}: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, as 0,5 or 0,5,0.05,0.05")]
    Syntax {
        /// The text received.
        text: String,
    },
    /// Numbers that do not make a valid test.
    #[error("{text:?}: {error}")]
    Invalid {
        /// The text received.
        text: String,
        /// What is wrong with the numbers.
        error: SprtError,
    },
}

impl ParseSprtError {
    /// The text that did not parse.
    #[must_use]
    pub fn text(&self) -> &str {
        match self {
            ParseSprtError::Syntax { text } | ParseSprtError::Invalid { text, .. } => text,
        }
    }
}

impl FromStr for Sprt {
    type Err = ParseSprtError;

    /// `ELO0,ELO1` (alpha = beta = 0.05) or `ELO0,ELO1,ALPHA,BETA`; spaces around the
    /// numbers are allowed.
    fn from_str(text: &str) -> Result<Sprt, ParseSprtError> {
        let syntax = || ParseSprtError::Syntax {
            text: text.to_string(),
        };
        let numbers = text
            .split(',')
            .map(|part| part.trim().parse::<f64>().map_err(|_| syntax()))
            .collect::<Result<Vec<f64>, _>>()?;
        let sprt = match numbers[..] {
            [elo0, elo1] => Sprt::new(elo0, elo1),
            [elo0, elo1, alpha, beta] => {
                Sprt::new(elo0, elo1).and_then(|s| s.with_alpha_beta(alpha, beta))
            }
            _ => return Err(syntax()),
        };
        sprt.map_err(|error| ParseSprtError::Invalid {
            text: text.to_string(),
            error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pentanomial results printed by fishtest (tests.stockfishchess.org) under logistic Elo
    /// bounds (written `{elo0,elo1}` there, before fishtest moved to normalized Elo in 2022),
    /// as quoted in the Stockfish commit messages that cite them: (counts, elo0, elo1, the LLR
    /// printed with two decimals, the LLR of fishtest's `LLRcalc.LLR_logistic` on the same
    /// counts, from `server/fishtest/stats/LLRcalc.py` at fishtest commit 93fe81eb run with
    /// Python 3.11 and SciPy 1.17).
    const FISHTEST_RUNS: [([u32; 5], f64, f64, f64, f64); 5] = [
        // tests/view/60735b3a8141753378960534, Stockfish 6ad4f485d (2021-04-24), STC.
        (
            [406, 8728, 41933, 8848, 493],
            -0.20,
            1.10,
            2.94,
            2.936952001408947,
        ),
        // tests/view/60749ea881417533789605a4, Stockfish 6ad4f485d, SMP LTC.
        ([2, 245, 4962, 291, 4], -0.70, 0.20, 2.95, 2.946876058121663),
        // tests/view/605128702433018de7a38ca1, Stockfish 508906165 (2021-03-15), failed LTC.
        (
            [13, 1176, 17184, 1178, 21],
            0.25,
            1.25,
            -3.00,
            -3.0031875273463906,
        ),
        // tests/view/6065b0772b2df919fd5f02ae, Stockfish 32d781769 (2021-04-22), LTC.
        (
            [87, 6272, 81610, 6175, 108],
            -0.70,
            0.20,
            2.98,
            2.97648809836471,
        ),
        // tests/view/60629e7ef183b42957b423b1, Stockfish c489df6f5 (2021-03-30), STC.
        (
            [57, 1047, 5710, 1159, 63],
            -1.00,
            0.20,
            2.94,
            2.9417871748245092,
        ),
    ];

    /// Counts run through fishtest's `LLRcalc.LLR_logistic` (same version as above), with
    /// empty bins that its `regularize` fills with 1e-3: (counts, elo0, elo1, LLR).
    const LLRCALC_RUNS: [([u32; 5], f64, f64, f64); 6] = [
        // The example of fishtest's `stat_util.py` (its `__main__` block).
        (
            [10789, 19328, 33806, 19402, 10543],
            -3.0,
            1.0,
            2.1310678117940807,
        ),
        ([0, 0, 0, 0, 10], 0.0, 30.0, 0.8263943900543115),
        ([0, 0, 7, 0, 0], 0.0, 30.0, -0.6237651284411211),
        ([1, 0, 0, 0, 0], -10.0, 10.0, -0.05767925790988478),
        ([0, 1, 0, 0, 2], 0.0, 5.0, 0.041439636092935446),
        ([5, 12, 40, 10, 3], 0.0, 30.0, -2.5668997081378113),
    ];

    fn test(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1).unwrap()
    }

    #[test]
    fn llr_matches_fishtest_pages() {
        for (counts, elo0, elo1, printed, exact) in FISHTEST_RUNS {
            let llr = test(elo0, elo1).llr(&Pentanomial::new(counts));
            // Printed with two decimals: within half a unit of the last one.
            assert!(
                (llr - printed).abs() <= 0.005,
                "{counts:?}: {llr} vs {printed}"
            );
            assert!((llr - exact).abs() < 1e-9, "{counts:?}: {llr} vs {exact}");
        }
    }

    #[test]
    fn llr_matches_fishtest_code_with_empty_bins() {
        for (counts, elo0, elo1, exact) in LLRCALC_RUNS {
            let llr = test(elo0, elo1).llr(&Pentanomial::new(counts));
            assert!((llr - exact).abs() < 1e-9, "{counts:?}: {llr} vs {exact}");
        }
    }

    #[test]
    fn bounds_at_five_percent() {
        let (lower, upper) = test(0.0, 5.0).bounds();
        // ln(0.05 / 0.95) = -ln 19 = -2.944439.
        assert!((lower + 19f64.ln()).abs() < 1e-12);
        assert!((upper - 19f64.ln()).abs() < 1e-12);
        assert!((upper - 2.944439).abs() < 1e-6);
        let (lower, upper) = test(0.0, 5.0).with_alpha_beta(0.1, 0.2).unwrap().bounds();
        assert!((lower - (0.2f64 / 0.9).ln()).abs() < 1e-12);
        assert!((upper - 8f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn decisions() {
        let sprt = test(0.0, 30.0);
        let winning = sprt.status(&Pentanomial::new([0, 10, 100, 300, 200]));
        assert_eq!(winning.decision, Some(SprtDecision::H1), "{winning}");
        let losing = sprt.status(&Pentanomial::new([200, 300, 100, 10, 0]));
        assert_eq!(losing.decision, Some(SprtDecision::H0), "{losing}");
        assert!(losing.to_string().ends_with(", H0 accepted"), "{losing}");
        let open = sprt.status(&Pentanomial::new([3, 10, 40, 12, 5]));
        assert_eq!(open.decision, None);
        assert_eq!(
            open.to_string(),
            "SPRT [0, 30] (alpha 0.05, beta 0.05): LLR -0.00 [-2.94, 2.94], continue"
        );
        // More of the same evidence moves the LLR further the same way.
        let half = sprt.llr(&Pentanomial::new([0, 5, 50, 150, 100]));
        assert!(0.0 < half && half < winning.llr);
    }

    #[test]
    fn degenerate_counts_give_finite_llrs() {
        let none = Pentanomial::default();
        assert_eq!(test(0.0, 5.0).llr(&none), 0.0);
        assert_eq!(test(0.0, 5.0).status(&none).decision, None);
        let weird = [
            test(0.0, 5.0),
            test(-5000.0, 5000.0),
            test(1e6, 1e7),
            Sprt {
                elo0: f64::NAN,
                elo1: f64::INFINITY,
                alpha: 0.05,
                beta: 0.05,
            },
            Sprt {
                elo0: 5.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
            },
        ];
        for sprt in weird {
            for i in 0..5 {
                let mut counts = [0; 5];
                counts[i] = 1000;
                let llr = sprt.llr(&Pentanomial::new(counts));
                assert!(llr.is_finite(), "{sprt:?} {counts:?}: {llr}");
            }
            let llr = sprt.llr(&Pentanomial::new([1, 2, 3, 2, 1]));
            assert!(llr.is_finite(), "{sprt:?}: {llr}");
        }
        // The same bounds give an LLR of 0.
        assert_eq!(weird[4].llr(&Pentanomial::new([1, 2, 3, 2, 1])), 0.0);
    }

    #[test]
    fn validation_names_the_bad_value() {
        let order = Sprt::new(30.0, 0.0).unwrap_err();
        assert_eq!(
            order,
            SprtError::Order {
                elo0: 30.0,
                elo1: 0.0
            }
        );
        assert_eq!(order.to_string(), "SPRT elo0 (30) must be below elo1 (0)");
        assert!(matches!(Sprt::new(1.0, 1.0), Err(SprtError::Order { .. })));
        let inf = Sprt::new(0.0, f64::INFINITY).unwrap_err();
        assert_eq!(
            inf.to_string(),
            "SPRT elo1 is not a finite Elo difference: inf"
        );
        for (alpha, beta, bad) in [(0.0, 0.05, "alpha (0)"), (0.05, 0.5, "beta (0.5)")] {
            let e = test(0.0, 5.0).with_alpha_beta(alpha, beta).unwrap_err();
            assert_eq!(e.to_string(), format!("SPRT {bad} must be in (0, 0.5)"));
        }
        assert!(test(0.0, 5.0).with_alpha_beta(f64::NAN, 0.05).is_err());
        assert_eq!(test(-1.5, 0.5).validate(), Ok(()));
    }

    #[test]
    fn parse_and_display() {
        let sprt: Sprt = "0,30".parse().unwrap();
        assert_eq!(sprt, test(0.0, 30.0));
        assert_eq!(sprt.to_string(), "0,30");
        let four: Sprt = " -1.5 , 0.5, 0.05, 0.1".parse().unwrap();
        assert_eq!(four, test(-1.5, 0.5).with_alpha_beta(0.05, 0.1).unwrap());
        assert_eq!(four.to_string(), "-1.5,0.5,0.05,0.1");
        assert_eq!(four.to_string().parse::<Sprt>(), Ok(four));
        for bad in ["", "5", "0,x", "0,5,0.05", "0,5,0.05,0.05,1", "0;5"] {
            let e = bad.parse::<Sprt>().unwrap_err();
            assert_eq!(
                e,
                ParseSprtError::Syntax {
                    text: bad.to_string()
                }
            );
            assert!(
                e.to_string()
                    .starts_with(&format!("SPRT {bad:?}: expected")),
                "{e}"
            );
        }
        let e = "5,0".parse::<Sprt>().unwrap_err();
        assert_eq!(e.text(), "5,0");
        assert_eq!(
            e.to_string(),
            "\"5,0\": SPRT elo0 (5) must be below elo1 (0)"
        );
        let e = "0,5,0.6,0.05".parse::<Sprt>().unwrap_err();
        assert!(e.to_string().contains("\"0,5,0.6,0.05\""), "{e}");
        assert!(e.to_string().contains("alpha (0.6)"), "{e}");
        assert!(matches!(
            "0,inf".parse::<Sprt>(),
            Err(ParseSprtError::Invalid { .. })
        ));
    }
}
