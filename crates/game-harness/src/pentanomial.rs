//! The pentanomial score of a paired match: game pairs counted by the points player A scored
//! in the pair.
//!
//! **A pair** is games `2k` and `2k + 1` of a paired match: they share an opening (the same
//! random first moves, blocked cells, ...) and each player takes each side of it once (see
//! [`crate::runner`]). A pair gives A 0, 1/2, 1, 3/2 or 2 points, so a match is five counts:
//! `LL`, `LD` (a loss and a draw, in either order), `DD` or `WL` (one point), `WD` and `WW`.
//!
//! **Why pairs.** The two games of a pair are not independent: a lopsided opening tends to be
//! won by whoever holds the strong side, once by each player, and those two results cancel.
//! Counting games as if they were independent ([`Score`](crate::stats::Score)) ignores this
//! and overstates the noise; the variance of the score per pair measures it honestly, and
//! with openings that favour one side the interval is usually narrower for the same games.
//! Engine testers (fishtest, fastchess, cutechess-cli) report the same five counts as
//! `Ptnml(0-2)`, and the SPRT of [`crate::sprt`] runs on them.
//!
//! ```
//! use game_harness::pentanomial::Pentanomial;
//! use game_harness::PlayerId::{A, B};
//!
//! // Games 0 and 1 are a pair, 2 and 3 another; game 4 has no partner yet.
//! let games = [(0, Some(A)), (1, None), (3, Some(B)), (2, Some(A)), (4, Some(A))];
//! let p = Pentanomial::of_games(games);
//! assert_eq!(p.counts, [0, 0, 1, 1, 0]); // a win and a loss; a win and a draw
//! assert_eq!(p.pairs(), 2);
//! assert!((p.score() - 0.625).abs() < 1e-12);
//! assert_eq!(p.to_string(), "Pairs (LL, LD, DD+WL, WD, WW): 0, 0, 1, 1, 0");
//! println!("{}", p.summary());
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Add, AddAssign};

use crate::matches::PlayerId;
use crate::stats::{Elo, WinRate, Z_95};

/// Counts of game pairs by the points A scored in the pair: `counts[i]` pairs gave A `i / 2`
/// points, that is `[LL, LD, DD or WL, WD, WW]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pentanomial {
    /// The number of pairs in which A scored 0, 1/2, 1, 3/2 and 2 points.
    pub counts: [u32; 5],
}

/// A's half-points in one game won by `winner` (`None`: a draw).
const fn half_points(winner: Option<PlayerId>) -> usize {
    match winner {
        Some(PlayerId::A) => 2,
        None => 1,
        Some(PlayerId::B) => 0,
    }
}

impl Pentanomial {
    /// The pentanomial of the given counts `[LL, LD, DD+WL, WD, WW]`.
    #[must_use]
    pub const fn new(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Counts one pair from the winners of its two games (`None`: a draw); the order of the
    /// two games does not matter.
    pub fn add_pair(&mut self, first: Option<PlayerId>, second: Option<PlayerId>) {
        self.counts[half_points(first) + half_points(second)] += 1;
    }

    /// The pentanomial of the games of a paired match, given as (game index, winner) in any
    /// order: games `2k` and `2k + 1` are pair `k`. A game whose partner is missing (the odd
    /// last game of a match, or a partner in another shard) is not counted; a game given twice
    /// counts once, with the winner given last.
    pub fn of_games(games: impl IntoIterator<Item = (usize, Option<PlayerId>)>) -> Pentanomial {
        let mut pairs: BTreeMap<usize, [Option<Option<PlayerId>>; 2]> = BTreeMap::new();
        for (index, winner) in games {
            pairs.entry(index / 2).or_default()[index % 2] = Some(winner);
        }
        let mut p = Pentanomial::default();
        for [first, second] in pairs.into_values() {
            if let (Some(first), Some(second)) = (first, second) {
                p.add_pair(first, second);
            }
        }
        p
    }

    /// The number of pairs.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The number of games, two a pair.
    #[must_use]
    pub fn games(&self) -> u32 {
        2 * self.pairs()
    }

    /// A's mean score per game (draws count half); 0.5 with no pairs.
    #[must_use]
    pub fn score(&self) -> f64 {
        self.mean_and_variance().0
    }

    /// The mean and the (population) variance of A's score per pair scaled to `[0, 1]`
    /// (0, 1/4, 1/2, 3/4 or 1); (0.5, 0) with no pairs.
    fn mean_and_variance(&self) -> (f64, f64) {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let weighted = || {
            self.counts
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 / 4.0, f64::from(c)))
        };
        let mean = weighted().map(|(v, c)| v * c).sum::<f64>() / n;
        let var = weighted().map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / n;
        (mean, var)
    }

    /// A's score with its 95% interval from the variance between pairs: with `N` pairs and
    /// the mean `m` and variance `v` of the score per pair scaled to `[0, 1]`, the normal
    /// interval `m ± Z_95 · sqrt(v / N)` clamped to `[0, 1]`; `trials` is the number of games.
    ///
    /// With no pairs the value is 0.5 and the interval `[0, 1]`. When every pair scored the
    /// same the pairs show no spread and the normal interval would have no width: the interval
    /// is then the Wilson interval of the games (draws count half), as the per-game figure.
    #[must_use]
    pub fn win_rate(&self) -> WinRate {
        let pairs = self.pairs();
        if pairs == 0 {
            return WinRate::wilson(0.0, 0.0, Z_95);
        }
        let (mean, var) = self.mean_and_variance();
        if var == 0.0 {
            let games = f64::from(self.games());
            return WinRate::wilson(mean * games, games, Z_95);
        }
        let half = Z_95 * (var / f64::from(pairs)).sqrt();
        WinRate {
            value: mean,
            lower: (mean - half).max(0.0),
            upper: (mean + half).min(1.0),
            trials: f64::from(self.games()),
        }
    }

    /// The Elo difference A − B the score implies, with the pentanomial 95% interval
    /// ([`Pentanomial::win_rate`]) mapped to Elo.
    #[must_use]
    pub fn elo(&self) -> Elo {
        Elo::from_win_rate(&self.win_rate())
    }

    /// A one-line summary (no newline): the score by pairs with its 95% interval and the Elo
    /// difference, as `Score of A by pairs: 52.1% [48.0%, 56.2%], Elo +15 [-14, +43] (60 pairs)`.
    #[must_use]
    pub fn summary(&self) -> String {
        let rate = self.win_rate();
        let elo = Elo::from_win_rate(&rate);
        format!(
            "Score of A by pairs: {rate}, Elo {elo} ({} pairs)",
            self.pairs()
        )
    }
}

impl From<[u32; 5]> for Pentanomial {
    fn from(counts: [u32; 5]) -> Pentanomial {
        Pentanomial::new(counts)
    }
}

impl AddAssign for Pentanomial {
    /// Adds the counts of another part of the match (a shard).
    fn add_assign(&mut self, other: Pentanomial) {
        for (c, o) in self.counts.iter_mut().zip(other.counts) {
            *c += o;
        }
    }
}

impl Add for Pentanomial {
    type Output = Pentanomial;

    /// The counts of two parts of a match together.
    fn add(mut self, other: Pentanomial) -> Pentanomial {
        self += other;
        self
    }
}

impl fmt::Display for Pentanomial {
    /// `Pairs (LL, LD, DD+WL, WD, WW): 3, 10, 40, 12, 5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [ll, ld, dd, wd, ww] = self.counts;
        write!(
            f,
            "Pairs (LL, LD, DD+WL, WD, WW): {ll}, {ld}, {dd}, {wd}, {ww}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlayerId::{A, B};

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn pairs_by_points() {
        let mut p = Pentanomial::default();
        p.add_pair(Some(B), Some(B)); // 0 points
        p.add_pair(None, Some(B)); // 1/2
        p.add_pair(Some(B), None); // 1/2, either order
        p.add_pair(None, None); // 1
        p.add_pair(Some(A), Some(B)); // 1
        p.add_pair(Some(A), None); // 3/2
        p.add_pair(Some(A), Some(A)); // 2
        assert_eq!(p.counts, [1, 2, 2, 1, 1]);
        assert_eq!((p.pairs(), p.games()), (7, 14));
        // Points 0 + 1/2 + 1/2 + 1 + 1 + 3/2 + 2 = 6.5 of 14 games.
        assert!(close(p.score(), 6.5 / 14.0, 1e-12));
    }

    #[test]
    fn games_in_any_order_and_missing_partners() {
        let in_order = [
            (0, Some(A)),
            (1, Some(A)),
            (2, None),
            (3, Some(B)),
            (4, Some(B)),
            (5, Some(A)),
            (6, Some(A)), // no partner: an odd last game
        ];
        let p = Pentanomial::of_games(in_order);
        assert_eq!(p.counts, [0, 1, 1, 0, 1]);
        let mut shuffled = in_order;
        shuffled.reverse();
        shuffled.swap(1, 4);
        assert_eq!(Pentanomial::of_games(shuffled), p);
        // A shard holding games 1, 2 and 3 only: pair 0 is incomplete.
        let shard = Pentanomial::of_games([(3, Some(B)), (1, Some(A)), (2, None)]);
        assert_eq!(shard.counts, [0, 1, 0, 0, 0]);
        // A game given twice counts once, with its last winner.
        let twice = Pentanomial::of_games([(0, Some(B)), (1, None), (0, Some(A))]);
        assert_eq!(twice.counts, [0, 0, 0, 1, 0]);
        assert_eq!(Pentanomial::of_games([]), Pentanomial::default());
    }

    #[test]
    fn shards_add_up() {
        let games: Vec<(usize, Option<PlayerId>)> = (0..40)
            .map(|i| (i, [Some(A), None, Some(B)][(i * 7 + i / 3) % 3]))
            .collect();
        let whole = Pentanomial::of_games(games.iter().copied());
        let even = Pentanomial::of_games(games.iter().copied().filter(|(i, _)| i / 2 % 2 == 0));
        let odd = Pentanomial::of_games(games.iter().copied().filter(|(i, _)| i / 2 % 2 == 1));
        assert_eq!(even + odd, whole);
        let mut sum = odd;
        sum += even;
        assert_eq!(sum, whole);
        assert_eq!(whole.pairs(), 20);
        assert_eq!(
            Pentanomial::new([1, 2, 3, 4, 5]) + Pentanomial::from([5, 4, 3, 2, 1]),
            Pentanomial::new([6; 5])
        );
    }

    #[test]
    fn interval_by_hand() {
        // Counts [1, 0, 2, 3, 4], N = 10 pairs scored 0, 1/4, 1/2, 3/4, 1:
        // mean (0 + 2·0.5 + 3·0.75 + 4·1) / 10 = 7.25 / 10 = 0.725;
        // variance (1·0.725² + 2·0.225² + 3·0.025² + 4·0.275²) / 10
        //   = (0.525625 + 0.10125 + 0.001875 + 0.3025) / 10 = 0.093125;
        // half width 1.959964 · sqrt(0.093125 / 10) = 1.959964 · 0.0965013 = 0.189139;
        // interval [0.535861, 0.914139].
        let p = Pentanomial::new([1, 0, 2, 3, 4]);
        let r = p.win_rate();
        assert!(close(r.value, 0.725, 1e-12));
        assert!(close(r.lower, 0.535861, 1e-6), "{}", r.lower);
        assert!(close(r.upper, 0.914139, 1e-6), "{}", r.upper);
        assert_eq!(r.trials, 20.0);
        // Elo of 0.725: 400 · log10(0.725 / 0.275) = 400 · log10(2.63636) = 400 · 0.421005 = 168.40.
        let e = p.elo();
        assert!(close(e.value, 168.40, 0.01), "{}", e.value);
        assert!(e.lower < e.value && e.value < e.upper);
        assert_eq!(
            p.summary(),
            "Score of A by pairs: 72.5% [53.6%, 91.4%], Elo +168 [+25, +411] (10 pairs)"
        );
        assert_eq!(
            p.to_string(),
            "Pairs (LL, LD, DD+WL, WD, WW): 1, 0, 2, 3, 4"
        );
    }

    #[test]
    fn pairs_that_cancel_give_a_narrower_interval() {
        // 40 pairs each won once by each side: 50% per game with no variance per pair, where
        // the games counted one by one look like 40 wins and 40 losses.
        let p = Pentanomial::new([2, 0, 36, 0, 2]);
        let by_games = crate::stats::Score::new(40, 40, 0).win_rate();
        let by_pairs = p.win_rate();
        assert!(close(by_pairs.value, 0.5, 1e-12));
        assert!(by_pairs.upper - by_pairs.lower < (by_games.upper - by_games.lower) / 2.0);
    }

    #[test]
    fn degenerate_counts() {
        let none = Pentanomial::default();
        assert_eq!(none.score(), 0.5);
        let r = none.win_rate();
        assert_eq!((r.value, r.lower, r.upper, r.trials), (0.5, 0.0, 1.0, 0.0));
        assert_eq!(none.elo().value, 0.0);
        // Pairs without spread: the Wilson interval of the games, never a zero width.
        let all_won = Pentanomial::new([0, 0, 0, 0, 7]).win_rate();
        assert_eq!(all_won, WinRate::wilson(14.0, 14.0, Z_95));
        assert!(all_won.lower < 0.8 && all_won.upper == 1.0);
        let all_drawn = Pentanomial::new([0, 0, 5, 0, 0]).win_rate();
        assert_eq!(all_drawn, WinRate::wilson(5.0, 10.0, Z_95));
        assert!(all_drawn.lower < 0.5 && all_drawn.upper > 0.5);
    }
}
