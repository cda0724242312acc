//! The [`Weight`] trait: the number types a sampler can hold.

use core::fmt::{Debug, Display};

use rand_core::Rng;

use crate::Error;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for usize {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A weight type: `u32`, `u64`, `usize` (exact integer sums) or `f32`, `f64` (floating point).
///
/// The trait is sealed: the samplers rely on the exact arithmetic of these types, so it cannot
/// be implemented outside this crate. Its methods are the plumbing the sum tree needs; most
/// users only name the trait in bounds.
///
/// # Integer weights
///
/// Sums are exact. An operation that would make the total exceed the type's maximum fails with
/// [`Error::Overflow`] and leaves the sampler unchanged. Sampling draws an exactly uniform
/// integer in `[0, total)` (Lemire's multiply-and-reject method), so a key is chosen with
/// probability exactly `weight / total`.
///
/// # Float weights
///
/// A weight must be finite and not negative (`-0.0` counts as zero); anything else fails with
/// [`Error::InvalidWeight`]. A change that would make the total infinite fails with
/// [`Error::Overflow`]. Every inner node of the tree holds the floating-point sum of its two
/// children *as they are now*: a change recomputes the sums on the path from the leaf to the
/// root instead of adding a difference, so rounding errors never accumulate over many updates
/// (each sum carries only the rounding of one path). A key of weight zero is never sampled,
/// also with float weights.
pub trait Weight: Copy + PartialOrd + Debug + Display + Default + sealed::Sealed + 'static {
    /// The weight zero.
    const ZERO: Self;
    /// Whether sums are exact (integers) or rounded (floats).
    #[doc(hidden)]
    const EXACT: bool;

    /// Checks that `self` can be stored: finite and not negative.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidWeight`] for a negative, NaN or infinite float.
    fn check(self) -> Result<Self, Error>;

    /// `self + other`, or `None` when the result does not fit (integers) or is not finite
    /// (floats).
    fn checked_add(self, other: Self) -> Option<Self>;

    /// `self + other` for the tree's bookkeeping: wrapping for integers, plain for floats.
    #[doc(hidden)]
    fn tree_add(self, other: Self) -> Self;

    /// `self - other` for the tree's bookkeeping: wrapping for integers, plain for floats.
    #[doc(hidden)]
    fn tree_sub(self, other: Self) -> Self;

    /// `if take { self } else { 0 }`, written so that it compiles to a select.
    #[doc(hidden)]
    fn select(self, take: bool) -> Self;

    /// Walks a sum tree (`nodes[1]` the root, leaves at `cap..2 * cap`) down to the leaf
    /// whose interval holds `u`; returns the leaf's slot. No branches on the data.
    #[doc(hidden)]
    #[inline]
    fn descend(nodes: &[Self], cap: usize, u: Self) -> usize {
        descend_generic(nodes, cap, u)
    }

    /// A uniformly distributed value in `[0, total)`; `total` must be greater than zero.
    ///
    /// Exact for integers; for floats the value is `total` times a 53-bit (`f64`) or 24-bit
    /// (`f32`) uniform fraction.
    fn uniform_below<R: Rng + ?Sized>(total: Self, rng: &mut R) -> Self;

    /// The weight as an `f64` (rounded for integers above 2^53).
    fn to_f64(self) -> f64;
}

/// The generic descent: at each level, compare `u` with the left child's sum; go right and
/// subtract that sum when `u` is not below it.
#[inline]
fn descend_generic<W: Weight>(nodes: &[W], cap: usize, mut u: W) -> usize {
    let mut i = 1;
    while i < cap {
        let left = nodes[2 * i];
        let right = u >= left;
        u = u.tree_sub(left.select(right));
        i = 2 * i + right as usize;
    }
    i - cap
}

/// The integer descent, two levels per step: from node `i`, the four grandchildren split
/// `[0, sum(i))` at `LL = sum(4i)`, `L = sum(2i)` and `L + RL = sum(2i) + sum(4i + 2)`. The
/// three sums load in parallel and three comparisons pick the grandchild, so the chain of
/// dependent loads is half as long as in the one-level descent. Exact for integers (the sums
/// cannot overflow: each is at most the total).
#[inline]
fn descend_exact<W: Weight>(nodes: &[W], cap: usize, mut u: W) -> usize {
    let mut i = 1;
    // With an odd depth, take one level alone first.
    if cap.trailing_zeros() & 1 == 1 {
        let left = nodes[2];
        let right = u >= left;
        u = u.tree_sub(left.select(right));
        i = 2 + right as usize;
    }
    while i < cap {
        let l = nodes[2 * i];
        let ll = nodes[4 * i];
        let m = l.tree_add(nodes[4 * i + 2]);
        let (b1, b2, b3) = (u >= ll, u >= l, u >= m);
        let sub = m.select(b3);
        let sub = core::hint::select_unpredictable(b3, sub, l.select(b2));
        let sub = core::hint::select_unpredictable(b2, sub, ll.select(b1));
        u = u.tree_sub(sub);
        i = 4 * i + b1 as usize + b2 as usize + b3 as usize;
    }
    i - cap
}

/// The float descent on x86-64 with SSE2 (always present there), two levels per step as in
/// [`descend_exact`]. LLVM turns a float select into a branch, which mispredicts half the time
/// here, so the masks are computed explicitly. The split points `LL <= L <= L + RL` are
/// non-decreasing also when rounded (adding a non-negative float never decreases), so the
/// three masks are nested and pick one grandchild.
macro_rules! descend_sse2 {
    ($name:ident, $t:ty, $set:ident, $cmpge:ident, $and:ident, $max:ident, $sub:ident,
     $movemask:ident) => {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        #[target_feature(enable = "sse2")]
        #[inline]
        fn $name(nodes: &[$t], cap: usize, u: $t) -> usize {
            use core::arch::x86_64::{$and, $cmpge, $max, $movemask, $set, $sub};
            let mut u = $set(u);
            let mut i = 1;
            if cap.trailing_zeros() & 1 == 1 {
                let left = $set(nodes[2]);
                // All ones in the low lane when u >= left; the other lanes are zero.
                let mask = $cmpge(u, left);
                u = $sub(u, $and(mask, left));
                i = 2 + ($movemask(mask) & 1) as usize;
            }
            while i < cap {
                let l = nodes[2 * i];
                let m = l + nodes[4 * i + 2];
                let (ll, l, m) = ($set(nodes[4 * i]), $set(l), $set(m));
                let (c1, c2, c3) = ($cmpge(u, ll), $cmpge(u, l), $cmpge(u, m));
                // The masks are nested and ll <= l <= m, so the largest masked value is the
                // one to subtract: m under c3, else l under c2, else ll under c1, else 0.
                let sub = $max($max($and(c1, ll), $and(c2, l)), $and(c3, m));
                u = $sub(u, sub);
                let step = ($movemask(c1) & 1) + ($movemask(c2) & 1) + ($movemask(c3) & 1);
                i = 4 * i + step as usize;
            }
            i - cap
        }
    };
}

descend_sse2!(
    descend_sse2_f64,
    f64,
    _mm_set_sd,
    _mm_cmpge_sd,
    _mm_and_pd,
    _mm_max_sd,
    _mm_sub_sd,
    _mm_movemask_pd
);
descend_sse2!(
    descend_sse2_f32,
    f32,
    _mm_set_ss,
    _mm_cmpge_ss,
    _mm_and_ps,
    _mm_max_ss,
    _mm_sub_ss,
    _mm_movemask_ps
);

/// A uniform `u32` in `[0, s)` for `s > 0` (Lemire 2019, "Fast random integer generation in an
/// interval"): exact, with a division only in the rare rejection case.
#[inline]
fn below_u32<R: Rng + ?Sized>(s: u32, rng: &mut R) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(s);
    let mut low = m as u32;
    if low < s {
        let threshold = s.wrapping_neg() % s;
        while low < threshold {
            m = u64::from(rng.next_u32()) * u64::from(s);
            low = m as u32;
        }
    }
    (m >> 32) as u32
}

/// A uniform `u64` in `[0, s)` for `s > 0`, as [`below_u32`] with a 128-bit product.
#[inline]
fn below_u64<R: Rng + ?Sized>(s: u64, rng: &mut R) -> u64 {
    let mut m = u128::from(rng.next_u64()) * u128::from(s);
    let mut low = m as u64;
    if low < s {
        let threshold = s.wrapping_neg() % s;
        while low < threshold {
            m = u128::from(rng.next_u64()) * u128::from(s);
            low = m as u64;
        }
    }
    (m >> 64) as u64
}

macro_rules! int_weight {
    ($t:ty, $below:expr, $via:ty) => {
        impl Weight for $t {
            const ZERO: Self = 0;
            const EXACT: bool = true;

            #[inline(always)]
            fn check(self) -> Result<Self, Error> {
                Ok(self)
            }

            #[inline(always)]
            fn checked_add(self, other: Self) -> Option<Self> {
                <$t>::checked_add(self, other)
            }

            #[inline(always)]
            fn tree_add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }

            #[inline(always)]
            fn tree_sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }

            #[inline(always)]
            fn select(self, take: bool) -> Self {
                core::hint::select_unpredictable(take, self, 0)
            }

            #[inline]
            fn descend(nodes: &[Self], cap: usize, u: Self) -> usize {
                descend_exact(nodes, cap, u)
            }

            #[inline]
            fn uniform_below<R: Rng + ?Sized>(total: Self, rng: &mut R) -> Self {
                debug_assert!(total > 0);
                $below(total as $via, rng) as $t
            }

            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

int_weight!(u32, below_u32, u32);
int_weight!(u64, below_u64, u64);
// `usize` is at most 64 bits wide on every platform Rust supports.
int_weight!(usize, below_u64, u64);

macro_rules! float_weight {
    ($t:ty, $sse2:ident, $draw:expr) => {
        impl Weight for $t {
            const ZERO: Self = 0.0;
            const EXACT: bool = false;

            #[inline]
            fn check(self) -> Result<Self, Error> {
                if self.is_finite() && self >= 0.0 {
                    // Normalise -0.0 to 0.0 so that stored weights print as they compare.
                    Ok(self + 0.0)
                } else {
                    Err(Error::InvalidWeight {
                        weight: self as f64,
                    })
                }
            }

            #[inline]
            fn checked_add(self, other: Self) -> Option<Self> {
                let sum = self + other;
                sum.is_finite().then_some(sum)
            }

            #[inline(always)]
            fn tree_add(self, other: Self) -> Self {
                self + other
            }

            #[inline(always)]
            fn tree_sub(self, other: Self) -> Self {
                self - other
            }

            #[inline(always)]
            fn select(self, take: bool) -> Self {
                // Asks for a branch-free select (a compare mask and an `and` on x86-64).
                core::hint::select_unpredictable(take, self, 0.0)
            }

            #[inline]
            fn descend(nodes: &[Self], cap: usize, u: Self) -> usize {
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                // SAFETY: the function only needs SSE2, which this build enables (checked by
                // the `cfg` above: every x86-64 target has it).
                #[allow(unsafe_code)]
                return unsafe { $sse2(nodes, cap, u) };
                #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
                return descend_generic(nodes, cap, u);
            }

            #[inline]
            fn uniform_below<R: Rng + ?Sized>(total: Self, rng: &mut R) -> Self {
                $draw(rng, total)
            }

            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

// `x * (total * 2^-k)` equals `(x * 2^-k) * total` (scaling by a power of two is exact) but
// takes one multiplication after the draw instead of two.
float_weight!(f32, descend_sse2_f32, |rng: &mut R, total: f32| {
    (rng.next_u32() >> 8) as f32 * (total * (1.0 / (1u32 << 24) as f32))
});
float_weight!(f64, descend_sse2_f64, |rng: &mut R, total: f64| {
    (rng.next_u64() >> 11) as f64 * (total * (1.0 / (1u64 << 53) as f64))
});
#[cfg(test)]
mod tests {
    use super::*;

    /// A generator that replays fixed values, to reach the rejection branch.
    struct Replay(Vec<u64>, usize);

    impl rand_core::TryRng for Replay {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.try_next_u64()? as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let v = self.0[self.1 % self.0.len()];
            self.1 += 1;
            Ok(v)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0);
            Ok(())
        }
    }

    #[test]
    fn float_checks() {
        assert!(matches!(
            (-1.0f64).check(),
            Err(Error::InvalidWeight { .. })
        ));
        assert!(f64::NAN.check().is_err());
        assert!(f64::INFINITY.check().is_err());
        assert!(f32::NEG_INFINITY.check().is_err());
        assert_eq!((-0.0f64).check().unwrap().to_bits(), 0.0f64.to_bits());
        assert_eq!(2.5f32.check().unwrap(), 2.5);
        assert_eq!(f64::MAX.checked_add(f64::MAX), None);
        assert_eq!(Weight::checked_add(u32::MAX, 1), None);
    }

    #[test]
    fn lemire_rejects_biased_low_words() {
        // s = 3: threshold = 2^32 mod 3 = 1. x = 0 gives m = 0, low 0 < 1: rejected.
        // x = 2^31 gives m = 3 * 2^31, low = 2^31 >= 1: accepted, value 1.
        let mut rng = Replay(vec![0, 1 << 31], 0);
        assert_eq!(below_u32(3, &mut rng), 1);
        assert_eq!(rng.1, 2, "the first draw must be rejected");
        let mut rng = Replay(vec![0, 1 << 63], 0);
        assert_eq!(below_u64(3, &mut rng), 1);
        assert_eq!(rng.1, 2);
    }

    #[test]
    fn uniform_below_stays_below() {
        let mut rng = Replay(vec![u64::MAX], 0);
        assert_eq!(u32::uniform_below(7, &mut rng), 6);
        assert_eq!(u64::uniform_below(7, &mut rng), 6);
        assert!(f64::uniform_below(1.0, &mut rng) < 1.0);
        assert!(f32::uniform_below(1.0, &mut rng) < 1.0);
        let mut rng = Replay(vec![0], 0);
        assert_eq!(f64::uniform_below(5.0, &mut rng), 0.0);
    }
}
