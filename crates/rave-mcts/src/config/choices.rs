//! The choices a [`Config`](super::Config) makes between named alternatives: the RAVE
//! schedule, the AMAF weighting, where a prior's visits go, the final move, the selection
//! rule, the shortlist and the playout pool.

use super::DEFAULT_RAVE_BIAS;

/// How RAVE mixes the AMAF value `Q~` (from `n~` AMAF samples) with the UCT value `Q` (from `n`
/// visits): `(1 - beta) Q + beta Q~`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum RaveSchedule {
    /// Gelly and Silver (2011), minimum-MSE schedule:
    /// `beta = n~ / (n + n~ + 4 b^2 n n~)`. The bias `b` must be `>= 0`; `1 / (4 b^2)` is the
    /// number of visits at which UCT and AMAF weigh the same. GRAVE (Cazenave 2015) writes the
    /// same formula with `bias = 4 b^2`.
    MinimumMse {
        /// The RAVE bias `b`.
        bias: f64,
    },
    /// Gelly and Silver's hand-selected schedule: `beta = sqrt(k / (3 n + k))`, `k > 0` the
    /// equivalence parameter.
    Equivalence {
        /// The equivalence parameter `k` (visits at which beta is 1/2).
        k: f64,
    },
    /// The schedule of Ewalds' Castro and morat: `beta = k / (k + n)` with
    /// `k = base + per_move * m`, `m` the number of moves at the parent. The AMAF count does
    /// not enter, so one unlucky visit cannot push a child out of favour while AMAF still
    /// says it is good, and the AMAF value fades sooner as the game gets shorter.
    Fading {
        /// `k` when no moves are left.
        base: f64,
        /// What each move at the parent adds to `k`.
        per_move: f64,
    },
}

impl Default for RaveSchedule {
    fn default() -> Self {
        RaveSchedule::MinimumMse {
            bias: DEFAULT_RAVE_BIAS,
        }
    }
}

impl RaveSchedule {
    /// The weight of the AMAF value for `n` visits and `n_amaf` AMAF samples of a child whose
    /// parent has `moves` moves.
    #[inline]
    pub fn beta(&self, n: f64, n_amaf: f64, moves: usize) -> f64 {
        match *self {
            RaveSchedule::MinimumMse { bias } => {
                let d = n + n_amaf + 4.0 * bias * bias * n * n_amaf;
                if d > 0.0 { n_amaf / d } else { 0.0 }
            }
            RaveSchedule::Equivalence { k } => (k / (3.0 * n + k)).sqrt(),
            RaveSchedule::Fading { base, per_move } => {
                let k = base + per_move * moves as f64;
                if n > 0.0 { k / (k + n) } else { 1.0 }
            }
        }
    }
}

/// The weight of a playout in the AMAF updates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum AmafWeighting {
    /// Every playout counts 1 (classic AMAF).
    #[default]
    Uniform,
    /// Weighted AMAF (Könnecke and Waldmann, section 4): each playout counts its
    /// [`PlayoutResult::weight`](crate::PlayoutResult::weight), `1 / length` unless the playout
    /// says otherwise, so short, decisive playouts count more. Weights are divided by their
    /// running mean, so AMAF counts stay on the scale of visit counts (the RAVE schedule needs
    /// that).
    Playout,
}

/// Which statistics of a new child a [`Prior`](crate::Prior)'s virtual visits go into.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum PriorTarget {
    /// Both the UCT (visits, wins) and the AMAF statistics (Gelly and Silver's heuristic
    /// initialisation).
    #[default]
    Both,
    /// The UCT statistics only: the prior steers the child's own value, and its AMAF value
    /// comes from playouts alone.
    Uct,
    /// The AMAF statistics only: the prior acts like early RAVE evidence, which the schedule
    /// phases out as the child's own visits grow. (With plain UCT it has no effect.)
    Amaf,
}

/// Which root child is the best move (a proven win is always chosen first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum FinalMove {
    /// The most visited child (ties: higher value).
    #[default]
    MostVisits,
    /// The child with the highest mean value among those with at least a tenth of the visits of
    /// the most visited one.
    BestValue,
    /// The child with the highest summed reward (visits times mean value), as morat-havannah
    /// chooses; ties: more visits.
    MostWins,
}

/// The selection rule that a [`Config`](super::Config) resolves to.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Selection {
    /// UCT: `Q + c sqrt(ln N / n)`.
    Uct,
    /// UCT-RAVE with the given schedule, plus the UCT bonus `c sqrt(ln N / n)`.
    Rave(RaveSchedule),
    /// GRAVE: RAVE where a node with fewer than `min_visits` visits uses the AMAF statistics of
    /// its nearest ancestor with at least `min_visits` visits and the same player to move.
    Grave {
        /// The RAVE schedule.
        schedule: RaveSchedule,
        /// The reference threshold `r`.
        min_visits: u32,
    },
}

/// Shortlist selection: a node scores all its children only every `rescan_every` visits, and
/// in between only the `size` best of the last full scoring. The selection pass over a
/// node's children is most of a wide game's search time (hundreds of children at every
/// level); a shortlist makes it a fraction, at the price of a child that rises between two
/// full passes being seen late. A node with at most `2 size` children is always scored in
/// full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shortlist {
    /// Children kept between full passes (1 to [`Shortlist::MAX_SIZE`]).
    pub size: usize,
    /// Visits of the node between two full passes (at least 1; 1 scores every child at every
    /// visit: with one thread, the same choices as without a shortlist; with several, a
    /// node's visits may reach the tree in batches, and a list is then kept a little longer).
    pub rescan_every: u32,
}

impl Shortlist {
    /// The largest shortlist.
    pub const MAX_SIZE: usize = 8;
}

/// The playout pool (PoolRAVE, Rimmel, Teytaud and Teytaud 2010): before each playout the
/// search gives the playout policy ([`Playout::set_pool`](crate::Playout::set_pool)) the
/// `size` moves with the best AMAF values among the children of the deepest node on the
/// simulation's path with at least `min_visits` visits. The policy may play them in place of
/// random moves: the tree's knowledge of which moves matter then reaches the playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayoutPool {
    /// The moves in the pool (1 to [`PlayoutPool::MAX_SIZE`]).
    pub size: usize,
    /// The visits a node needs before its children's AMAF values make a pool.
    pub min_visits: u32,
}

impl PlayoutPool {
    /// The largest pool.
    pub const MAX_SIZE: usize = 64;
}
