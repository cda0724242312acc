//! A fingerprint of a program's results: a running 64-bit FNV-1a hash, so that two runs of a
//! seeded bench can be compared in one line (the same fingerprint: the same results).
//!
//! ```
//! use game_harness::fingerprint::Fingerprint;
//!
//! let mut fingerprint = Fingerprint::new();
//! fingerprint.add(b"a");
//! assert_eq!(fingerprint.value(), 0xaf63_dc4c_8601_ec8c);
//! ```

/// The FNV-1a offset basis: the fingerprint of nothing.
const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// The 64-bit FNV prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// A running 64-bit FNV-1a hash of the bytes added so far, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint(u64);

impl Fingerprint {
    /// The fingerprint of no bytes.
    #[must_use]
    pub fn new() -> Fingerprint {
        Fingerprint(OFFSET_BASIS)
    }

    /// Folds `bytes` into the fingerprint.
    pub fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }

    /// The fingerprint of the bytes added so far.
    #[must_use]
    pub fn value(&self) -> u64 {
        self.0
    }
}

impl Default for Fingerprint {
    fn default() -> Fingerprint {
        Fingerprint::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    /// Published FNV-1a 64-bit test vectors (the FNV authors' test suite).
    #[test]
    fn matches_the_published_fnv1a_vectors() {
        for (text, expected) in [
            ("", 0xcbf2_9ce4_8422_2325_u64),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("foobar", 0x8594_4171_f739_67e8),
        ] {
            let mut f = Fingerprint::new();
            f.add(text.as_bytes());
            assert_eq!(f.value(), expected, "{text:?}");
        }
    }

    #[test]
    fn adding_in_parts_is_adding_at_once() {
        let mut parts = Fingerprint::new();
        parts.add(b"foo");
        parts.add(b"bar");
        let mut whole = Fingerprint::new();
        whole.add(b"foobar");
        assert_eq!(parts, whole);
    }
}
