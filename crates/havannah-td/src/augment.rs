//! Input encoding and the symmetry / colour-swap augmentation of training positions.

use havannah_board::Board;
use havannah_rules::{Colour, Position};

use havannah::td::SparseInput;
use havannah::td::TdError;

/// Which transformations multiply a training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Augmentation {
    /// Use the 12 symmetries of the hexagon (6 rotations, each with or without a reflection).
    pub symmetries: bool,
    /// Also use each image with the colours swapped (stones and side to move), whose target
    /// is the negated value.
    pub colour_swap: bool,
}

impl Augmentation {
    /// No augmentation: the position itself.
    pub const NONE: Augmentation = Augmentation {
        symmetries: false,
        colour_swap: false,
    };
    /// The 12 symmetries and the colour swap: 24 images.
    pub const ALL: Augmentation = Augmentation {
        symmetries: true,
        colour_swap: true,
    };

    /// The number of images of one position (1, 2, 12 or 24; some may coincide for a
    /// symmetric position).
    #[must_use]
    pub fn images(self) -> usize {
        (if self.symmetries { 12 } else { 1 }) * (if self.colour_swap { 2 } else { 1 })
    }
}

impl Default for Augmentation {
    fn default() -> Self {
        Augmentation::ALL
    }
}

/// One training example: the net's inputs and the target value for White.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `n + 1` inputs: per cell `+1` White, `-1` Black, `0` empty; last the side to move
    /// (`+1` White, `-1` Black).
    pub inputs: Vec<f32>,
    /// The target value for White, in `[-1, 1]`.
    pub target: f32,
}

/// The net's inputs for `pos`: per cell `+1` for a White stone, `-1` for a Black stone, `0`
/// for an empty cell, then `+1` if White is to move and `-1` if Black is.
#[must_use]
pub fn encode(pos: &Position) -> Vec<f32> {
    let board = pos.board();
    let mut inputs: Vec<f32> = board
        .cells()
        .map(|c| match pos.stone(c) {
            Some(Colour::White) => 1.0,
            Some(Colour::Black) => -1.0,
            None => 0.0,
        })
        .collect();
    inputs.push(side_to_move_input(pos.to_move()));
    inputs
}

pub(crate) fn side_to_move_input(colour: Colour) -> f32 {
    match colour {
        Colour::White => 1.0,
        Colour::Black => -1.0,
    }
}

/// The sparse inputs (non-zero entries, in cell order, side to move last) of `pos`.
pub(crate) fn encode_sparse(pos: &Position, out: &mut Vec<SparseInput>) {
    out.clear();
    for c in pos.board().cells() {
        match pos.stone(c) {
            Some(Colour::White) => out.push((c.raw(), 1.0)),
            Some(Colour::Black) => out.push((c.raw(), -1.0)),
            None => {}
        }
    }
    let n = pos.board().num_cells() as u16;
    out.push((n, side_to_move_input(pos.to_move())));
}

/// Calls `f(image, target)` for every image of the sparse sample `(inputs, target)` under
/// `aug`, the identity first. `scratch` is reused for the images.
pub(crate) fn for_each_image(
    board: &Board,
    inputs: &[SparseInput],
    target: f32,
    aug: Augmentation,
    scratch: &mut Vec<SparseInput>,
    mut f: impl FnMut(&[SparseInput], f32),
) {
    let n = board.num_cells();
    let symmetries: &[_] = if aug.symmetries {
        board.symmetries()
    } else {
        &board.symmetries()[..1]
    };
    for sym in symmetries {
        let perm = sym.as_slice();
        scratch.clear();
        scratch.extend(inputs.iter().map(|&(i, x)| {
            let i = usize::from(i);
            if i < n {
                (perm[i].raw(), x)
            } else {
                (i as u16, x)
            }
        }));
        f(scratch, target);
        if aug.colour_swap {
            for e in scratch.iter_mut() {
                e.1 = -e.1;
            }
            f(scratch, -target);
        }
    }
}

/// The training samples that one position with inputs `inputs` (as [`encode`] gives them)
/// and target `target` (value for White) stands for under `aug`: its images under the 12
/// symmetries of the hexagon (the side-to-move input is unchanged, the target too) and, with
/// the colour swap, each image with every input negated and the target negated. The position
/// itself comes first. This is what the trainer learns from.
///
/// # Errors
///
/// [`TdError::InvalidConfig`] if `inputs` does not have `board.num_cells() + 1` entries, or
/// an entry is not `-1`, `0` or `1`, or the target is not in `[-1, 1]`.
pub fn augment(
    board: &Board,
    inputs: &[f32],
    target: f32,
    aug: Augmentation,
) -> Result<Vec<Sample>, TdError> {
    let n = board.num_cells();
    if inputs.len() != n + 1 {
        return Err(TdError::InvalidConfig {
            name: "inputs",
            value: format!("{} entries", inputs.len()),
            reason: "must have one entry per cell plus the side to move",
        });
    }
    if let Some(x) = inputs.iter().find(|x| ![-1.0, 0.0, 1.0].contains(*x)) {
        return Err(TdError::InvalidConfig {
            name: "inputs",
            value: x.to_string(),
            reason: "every input must be -1, 0 or 1",
        });
    }
    if !(-1.0..=1.0).contains(&target) {
        return Err(TdError::InvalidConfig {
            name: "target",
            value: target.to_string(),
            reason: "must be in [-1, 1]",
        });
    }
    let sparse: Vec<SparseInput> = inputs
        .iter()
        .enumerate()
        .filter(|(_, x)| **x != 0.0)
        .map(|(i, x)| (i as u16, *x))
        .collect();
    let mut out = Vec::with_capacity(aug.images());
    let mut scratch = Vec::new();
    for_each_image(board, &sparse, target, aug, &mut scratch, |image, t| {
        let mut dense = vec![0.0; n + 1];
        for &(i, x) in image {
            dense[usize::from(i)] = x;
        }
        out.push(Sample {
            inputs: dense,
            target: t,
        });
    });
    Ok(out)
}
