//! The weights of the learned patterns, their file format and their errors.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use havannah_board::Cell;
use havannah_rules::Position;

use super::shape::{SHAPE_CODES, canonical, images, shape};

/// The first line of a version-1 weights file.
pub const VERSION_LINE: &str = "havannah-patterns 1";

/// The number of classes of the distance to the previous move: 1, 2, 3, and 4 or more (or no
/// previous move).
pub const DISTANCE_CLASSES: usize = 4;

/// The built-in weights, learned from games of the engine and morat-havannah.
const BUILTIN: &str = include_str!("weights.txt");

/// Why a weights file could not be read or written: every message names the file or the line
/// and the text at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The file could not be read or written.
    #[error("pattern weights {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error of the operating system.
        #[source]
        source: std::io::Error,
    },
    /// The first line is not [`VERSION_LINE`].
    #[error("pattern weights: the first line {found:?} is not {VERSION_LINE:?}")]
    Version {
        /// The first line found.
        found: String,
    },
    /// A line that is not `distance K GAMMA` or `shape HEX GAMMA`, has a weight that is not a
    /// finite number > 0, or gives a class a second time.
    #[error("pattern weights line {line}: {text:?}: {reason}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// Its text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A file that gives no weight for some distance class.
    #[error("pattern weights: no weight for distance {class}")]
    MissingDistance {
        /// The class (1 to 4).
        class: usize,
    },
}

/// A multiplicative hasher for shape codes.
#[derive(Default)]
struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u32(&mut self, n: u32) {
        // The table indexes by the low bits: fold the high half of the product into them, so
        // that shapes differing only in their bridge cells (the code's high bits) spread.
        let x = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 32);
    }
}

/// The learned strengths (Bradley–Terry "gammas") of moves: one factor for the shape of the
/// twelve cells around the move (up to symmetry) and one for its distance to the previous
/// move. A move's strength is the product; shapes without a weight count 1.
#[derive(Clone, PartialEq)]
pub struct PatternWeights {
    distance: [f32; DISTANCE_CLASSES],
    /// `(canonical shape, gamma)`, sorted by shape.
    shapes: Vec<(u32, f32)>,
    /// Every image of every shape, for lookups without canonicalising.
    lookup: HashMap<u32, f32, BuildHasherDefault<CodeHasher>>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternWeights")
            .field("distance", &self.distance)
            .field("shapes", &self.shapes.len())
            .finish_non_exhaustive()
    }
}

impl PatternWeights {
    /// Weights from the distance factors (distance 1, 2, 3, 4 or more) and shape factors (any
    /// image of a class; the last one given for a class counts).
    #[must_use]
    pub fn new(distance: [f32; DISTANCE_CLASSES], shapes: &[(u32, f32)]) -> PatternWeights {
        let mut canon: Vec<(u32, f32)> = shapes
            .iter()
            .map(|&(code, gamma)| (canonical(code % SHAPE_CODES), gamma))
            .collect();
        canon.sort_by_key(|&(code, _)| code);
        canon.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 = later.1;
            }
            same
        });
        let mut lookup = HashMap::default();
        for &(code, gamma) in &canon {
            for image in images(code) {
                lookup.insert(image, gamma);
            }
        }
        PatternWeights {
            distance,
            shapes: canon,
            lookup,
        }
    }

    /// The built-in weights (parsed once, shared).
    #[must_use]
    pub fn builtin() -> Arc<PatternWeights> {
        static WEIGHTS: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        Arc::clone(WEIGHTS.get_or_init(|| {
            // The built-in file is checked by the tests: an error here is a build defect.
            Arc::new(
                PatternWeights::parse(BUILTIN)
                    .unwrap_or_else(|_| PatternWeights::new([1.0; DISTANCE_CLASSES], &[])),
            )
        }))
    }

    /// The distance class (0 to 3) of a move on `cell` after a move on `last`.
    #[must_use]
    pub fn distance_class(pos: &Position, cell: Cell, last: Option<Cell>) -> usize {
        last.map_or(DISTANCE_CLASSES - 1, |last| {
            usize::from(pos.board().distance(cell, last)).clamp(1, DISTANCE_CLASSES) - 1
        })
    }

    /// The factor of a shape code (1 for a shape without a weight).
    #[must_use]
    pub fn shape_gamma(&self, code: u32) -> f32 {
        self.lookup.get(&code).copied().unwrap_or(1.0)
    }

    /// The factor of a distance class (see [`PatternWeights::distance_class`]).
    #[must_use]
    pub fn distance_gamma(&self, class: usize) -> f32 {
        self.distance[class.min(DISTANCE_CLASSES - 1)]
    }

    /// The strength of a stone of the player to move on the empty `cell`, the previous move
    /// having been on `last`.
    #[must_use]
    pub fn gamma(&self, pos: &Position, cell: Cell, last: Option<Cell>) -> f32 {
        self.shape_gamma(shape(pos, cell))
            * self.distance_gamma(PatternWeights::distance_class(pos, cell, last))
    }

    /// The shape classes with a weight, `(canonical code, gamma)` sorted by code.
    #[must_use]
    pub fn shapes(&self) -> &[(u32, f32)] {
        &self.shapes
    }

    /// Reads weights from the text of a file (see the [module docs](crate::patterns)).
    ///
    /// # Errors
    ///
    /// [`PatternError::Version`], [`PatternError::Line`] or
    /// [`PatternError::MissingDistance`], naming the line at fault.
    pub fn parse(text: &str) -> Result<PatternWeights, PatternError> {
        let mut lines = text.lines().enumerate();
        let first = lines.next().map_or("", |(_, l)| l.trim());
        if first != VERSION_LINE {
            return Err(PatternError::Version {
                found: first.to_string(),
            });
        }
        let mut distance = [None; DISTANCE_CLASSES];
        let mut shapes = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, raw) in lines {
            let text = raw.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let bad = |reason: &str| PatternError::Line {
                line: i + 1,
                text: text.to_string(),
                reason: reason.to_string(),
            };
            let fields: Vec<&str> = text.split_whitespace().collect();
            let [kind, key, gamma] = fields[..] else {
                return Err(bad(
                    "expected three fields: `distance K GAMMA` or `shape HEX GAMMA`",
                ));
            };
            let gamma: f32 = gamma
                .parse()
                .ok()
                .filter(|g: &f32| g.is_finite() && *g > 0.0)
                .ok_or_else(|| bad("the weight is not a finite number > 0"))?;
            match kind {
                "distance" => {
                    let k: usize = key
                        .parse()
                        .ok()
                        .filter(|k| (1..=DISTANCE_CLASSES).contains(k))
                        .ok_or_else(|| bad("the distance is not 1, 2, 3 or 4"))?;
                    if distance[k - 1].replace(gamma).is_some() {
                        return Err(bad("a second weight for this distance"));
                    }
                }
                "shape" => {
                    let code = u32::from_str_radix(key, 16)
                        .ok()
                        .filter(|&c| c < SHAPE_CODES)
                        .ok_or_else(|| bad("the shape is not a hexadecimal code below 1000000"))?;
                    if !seen.insert(canonical(code)) {
                        return Err(bad("a second weight for this shape (up to symmetry)"));
                    }
                    shapes.push((code, gamma));
                }
                _ => return Err(bad("the first field is neither `distance` nor `shape`")),
            }
        }
        let mut factors = [1.0; DISTANCE_CLASSES];
        for (k, d) in distance.iter().enumerate() {
            factors[k] = d.ok_or(PatternError::MissingDistance { class: k + 1 })?;
        }
        Ok(PatternWeights::new(factors, &shapes))
    }

    /// The text of a weights file: the version line, `comment` (each line as a `#` comment),
    /// the distance weights, then one line per shape class.
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = format!("{VERSION_LINE}\n");
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        for (k, gamma) in self.distance.iter().enumerate() {
            let _ = writeln!(out, "distance {} {gamma:.5e}", k + 1);
        }
        for &(code, gamma) in &self.shapes {
            let _ = writeln!(out, "shape {code:06x} {gamma:.5e}");
        }
        out
    }

    /// Reads a weights file.
    ///
    /// # Errors
    ///
    /// [`PatternError::Io`] naming the file, or an error of [`PatternWeights::parse`].
    pub fn load(path: &Path) -> Result<PatternWeights, PatternError> {
        let text = std::fs::read_to_string(path).map_err(|source| PatternError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        PatternWeights::parse(&text)
    }

    /// Writes a weights file (see [`PatternWeights::to_text`]).
    ///
    /// # Errors
    ///
    /// [`PatternError::Io`] naming the file.
    pub fn save(&self, path: &Path, comment: &str) -> Result<(), PatternError> {
        std::fs::write(path, self.to_text(comment)).map_err(|source| PatternError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::shape::transform;

    #[test]
    fn text_round_trips_and_images_share_a_weight() {
        let code = 0x00_01_06;
        let w = PatternWeights::new([3.0, 1.5, 1.0, 0.5], &[(code, 2.5), (0x10, 0.25)]);
        let back = PatternWeights::parse(&w.to_text("a test\nof two lines")).unwrap();
        assert_eq!(back, w);
        for s in 0..12 {
            assert_eq!(back.shape_gamma(transform(code, s)), 2.5);
        }
        assert_eq!(back.shape_gamma(0), 1.0, "no weight: 1");
        assert_eq!(back.distance_gamma(0), 3.0);
    }

    #[test]
    fn bad_files_name_the_line() {
        let head = "havannah-patterns 1\ndistance 1 1\ndistance 2 1\ndistance 3 1\ndistance 4 1\n";
        let err = |text: &str| PatternWeights::parse(text).unwrap_err().to_string();
        assert!(err("havannah-patterns 2\n").contains("havannah-patterns 2"));
        assert!(err(&format!("{head}shape zz 1.0\n")).contains("line 6"));
        assert!(err(&format!("{head}shape 10 -1\n")).contains("finite number > 0"));
        assert!(err(&format!("{head}shape 1000000 1\n")).contains("below 1000000"));
        let twice = format!("{head}shape 1 2\nshape {:x} 3\n", transform(1, 3));
        assert!(err(&twice).contains("line 7"), "{}", err(&twice));
        assert!(err("havannah-patterns 1\ndistance 1 1\n").contains("distance 2"));
        assert!(err(&format!("{head}distance 2 1\n")).contains("second weight"));
        assert!(err(&format!("{head}size 8 1\n")).contains("neither"));
    }

    #[test]
    fn the_builtin_file_parses() {
        let w = PatternWeights::parse(BUILTIN).unwrap();
        assert!(w.shapes().len() > 100, "{}", w.shapes().len());
        assert!(w.distance_gamma(0) > w.distance_gamma(3));
    }
}
