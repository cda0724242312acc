//! Weights files: JSON with a format name, a version, the board size and the layer sizes.

use std::fs;
use std::path::{Path, PathBuf};

use havannah_board::Board;
use serde::{Deserialize, Serialize};

use crate::td::{TdError, ValueNet};

/// The largest weight a file may hold in absolute value: with `tanh` activations, even 65,536
/// hidden units of this size sum far below the largest `f32`.
const MAX_WEIGHT: f32 = 1.0e6;

/// The `format` field of a weights file.
pub const FORMAT_NAME: &str = "havannah-td-value-net";
/// The `version` field of the weights files this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// The file layout. Weights are stored as `f32` in JSON, which round-trips exactly.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightsFile {
    format: String,
    version: u32,
    board_size: u8,
    /// Layer sizes: inputs (cells + 1), hidden, outputs (1).
    layers: [usize; 3],
    /// First layer, input-major: `inputs * hidden` weights.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl ValueNet {
    /// Writes the net to `path` as JSON (format name, version, board size, layer sizes and
    /// the weights).
    ///
    /// # Errors
    ///
    /// [`TdError::Io`] naming the file if it cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TdError> {
        let path = path.as_ref();
        let file = WeightsFile {
            format: FORMAT_NAME.to_owned(),
            version: FORMAT_VERSION,
            board_size: self.size(),
            layers: [self.inputs(), self.hidden(), 1],
            w1: self.w1.clone(),
            b1: self.b1.clone(),
            w2: self.w2.clone(),
            b2: self.b2,
        };
        let text = serde_json::to_string(&file).map_err(|e| TdError::Parse {
            path: path.to_owned(),
            source: e,
        })?;
        fs::write(path, text).map_err(|e| TdError::Io {
            path: path.to_owned(),
            source: e,
        })
    }

    /// Reads a net written by [`ValueNet::save`], checking the format name, the version, the
    /// board size, the layer sizes against the board and the arrays, and that every weight is
    /// finite.
    ///
    /// # Errors
    ///
    /// All name the file: [`TdError::Io`] if it cannot be read, [`TdError::Parse`] if it is
    /// not JSON of the expected shape, [`TdError::Format`] if its content is inconsistent.
    pub fn load(path: impl AsRef<Path>) -> Result<ValueNet, TdError> {
        let path = path.as_ref();
        let text = fs::read_to_string(path).map_err(|e| TdError::Io {
            path: path.to_owned(),
            source: e,
        })?;
        Self::from_json(&text, path)
    }

    /// Like [`ValueNet::load`], and the net must be for boards of `size`.
    ///
    /// # Errors
    ///
    /// Those of [`ValueNet::load`], and [`TdError::SizeMismatch`] naming the file if the net
    /// was trained for another size.
    pub fn load_for(path: impl AsRef<Path>, size: u8) -> Result<ValueNet, TdError> {
        let path = path.as_ref();
        let net = Self::load(path)?;
        if net.size() != size {
            return Err(TdError::SizeMismatch {
                path: path.to_owned(),
                expected: size,
                found: net.size(),
            });
        }
        Ok(net)
    }

    /// Parses the JSON text of a weights file; `path` only names it in errors.
    ///
    /// # Errors
    ///
    /// As [`ValueNet::load`], except that nothing is read.
    pub fn from_json(text: &str, path: impl AsRef<Path>) -> Result<ValueNet, TdError> {
        let path = path.as_ref();
        let file: WeightsFile = serde_json::from_str(text).map_err(|e| TdError::Parse {
            path: path.to_owned(),
            source: e,
        })?;
        let bad = |reason: String| TdError::Format {
            path: PathBuf::from(path),
            reason,
        };
        if file.format != FORMAT_NAME {
            return Err(bad(format!(
                "format {:?}, expected {FORMAT_NAME:?}",
                file.format
            )));
        }
        if file.version != FORMAT_VERSION {
            return Err(bad(format!(
                "version {}, this build reads version {FORMAT_VERSION}",
                file.version
            )));
        }
        let board = Board::new(file.board_size)
            .map_err(|e| bad(format!("board size {}: {e}", file.board_size)))?;
        let [inputs, hidden, outputs] = file.layers;
        if inputs != board.num_cells() + 1 {
            return Err(bad(format!(
                "{inputs} inputs, but board size {} needs {} (cells + side to move)",
                file.board_size,
                board.num_cells() + 1
            )));
        }
        if hidden == 0 || hidden > 1 << 16 {
            return Err(bad(format!("{hidden} hidden units (must be 1 to 65536)")));
        }
        if outputs != 1 {
            return Err(bad(format!("{outputs} outputs, expected 1")));
        }
        for (name, len, want) in [
            ("w1", file.w1.len(), inputs * hidden),
            ("b1", file.b1.len(), hidden),
            ("w2", file.w2.len(), hidden),
        ] {
            if len != want {
                return Err(bad(format!(
                    "{name} has {len} weights, layers {:?} need {want}",
                    file.layers
                )));
            }
        }
        // Finite is not enough: weights near the largest f32 overflow the sums of `evaluate`
        // to +inf and -inf, whose sum is NaN. Trained weights stay far below this bound.
        let out_of_range = file
            .w1
            .iter()
            .chain(&file.b1)
            .chain(&file.w2)
            .chain(std::iter::once(&file.b2))
            .find(|w| !(w.is_finite() && w.abs() <= MAX_WEIGHT));
        if let Some(w) = out_of_range {
            return Err(bad(format!(
                "weight {w} is out of range (at most {MAX_WEIGHT} in absolute value)"
            )));
        }
        Ok(ValueNet::from_parts(
            board, hidden, file.w1, file.b1, file.w2, file.b2,
        ))
    }
}
