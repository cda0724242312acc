//! The value network: `n + 1` inputs, one hidden `tanh` layer, one `tanh` output.

use havannah_board::{Board, Cell};
use havannah_rules::{Colour, Position};
use rand::{Rng, RngExt};

use crate::td::TdError;

/// Hidden units are processed in chunks of this many, so that evaluation needs only a
/// fixed-size buffer on the stack (no allocation, no limit on the hidden layer).
const CHUNK: usize = 256;

/// One sparse input: `(input index, value)`, value `+1` or `-1` (zero inputs are left out).
/// Inputs `0..num_cells` are the cells, input `num_cells` the side to move.
pub type SparseInput = (u16, f32);

/// A multilayer perceptron that values Havannah positions for White.
///
/// Inputs: one per cell (`+1` White stone, `-1` Black stone, `0` empty) and the side to move
/// (`+1` White, `-1` Black); `hidden` `tanh` units; one `tanh` output in `[-1, 1]`, `+1`
/// meaning a win for White (the first player). The first layer is stored input by input,
/// so that adding or removing a stone changes the hidden pre-activations by one contiguous
/// row: [`ValueNet::evaluate_moves`] values every child of a position incrementally.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet {
    board: &'static Board,
    hidden: usize,
    /// First layer, input-major: row `i` (length `hidden`) holds the weights of input `i`.
    pub(crate) w1: Vec<f32>,
    /// Hidden biases.
    pub(crate) b1: Vec<f32>,
    /// Output weights.
    pub(crate) w2: Vec<f32>,
    /// Output bias.
    pub(crate) b2: f32,
}

impl ValueNet {
    /// A net for boards of `size` with `hidden` hidden units and small random weights
    /// (uniform in `±1/sqrt(fan-in)`).
    ///
    /// # Errors
    ///
    /// [`TdError::Board`] for a size outside `2..=13`, [`TdError::InvalidConfig`] for
    /// `hidden == 0`.
    pub fn new<R: Rng + ?Sized>(size: u8, hidden: usize, rng: &mut R) -> Result<Self, TdError> {
        let board = Board::new(size)?;
        if hidden == 0 || hidden > 1 << 16 {
            return Err(TdError::InvalidConfig {
                name: "hidden",
                value: hidden.to_string(),
                reason: "must be between 1 and 65536",
            });
        }
        let inputs = board.num_cells() + 1;
        // About half the cells hold a stone in a typical position.
        let r1 = 1.0 / ((inputs as f32) / 2.0).sqrt();
        let r2 = 1.0 / (hidden as f32).sqrt();
        let w1 = (0..inputs * hidden)
            .map(|_| rng.random_range(-r1..r1))
            .collect();
        let w2 = (0..hidden).map(|_| rng.random_range(-r2..r2)).collect();
        Ok(ValueNet {
            board,
            hidden,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: 0.0,
        })
    }

    /// Builds a net from raw parts; the caller (reading a weights file) has checked the
    /// lengths.
    #[cfg(feature = "weights-file")]
    pub(crate) fn from_parts(
        board: &'static Board,
        hidden: usize,
        w1: Vec<f32>,
        b1: Vec<f32>,
        w2: Vec<f32>,
        b2: f32,
    ) -> Self {
        debug_assert_eq!(w1.len(), (board.num_cells() + 1) * hidden);
        debug_assert_eq!(b1.len(), hidden);
        debug_assert_eq!(w2.len(), hidden);
        ValueNet {
            board,
            hidden,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// The board the net values positions of.
    #[must_use]
    pub fn board(&self) -> &'static Board {
        self.board
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// The number of inputs: one per cell plus the side to move.
    #[must_use]
    pub fn inputs(&self) -> usize {
        self.board.num_cells() + 1
    }

    /// The number of hidden units.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of weights and biases.
    #[must_use]
    pub fn num_parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + 1
    }

    #[inline]
    fn row(&self, input: usize) -> &[f32] {
        &self.w1[input * self.hidden..(input + 1) * self.hidden]
    }

    fn check_board(&self, pos: &Position) {
        assert_eq!(
            pos.board().size(),
            self.size(),
            "position of size {} given to a value net for size {}",
            pos.board().size(),
            self.size()
        );
    }

    /// Hidden pre-activations of `pos` for the hidden units `start..start + acc.len()`.
    #[inline]
    fn pre_activations(&self, pos: &Position, start: usize, acc: &mut [f32]) {
        let end = start + acc.len();
        acc.copy_from_slice(&self.b1[start..end]);
        for cell in self.board.cells() {
            let Some(colour) = pos.stone(cell) else {
                continue;
            };
            let row = &self.row(cell.index())[start..end];
            match colour {
                Colour::White => add(acc, row),
                Colour::Black => sub(acc, row),
            }
        }
        let stm = &self.row(self.board.num_cells())[start..end];
        match pos.to_move() {
            Colour::White => add(acc, stm),
            Colour::Black => sub(acc, stm),
        }
    }

    /// The value of `pos` for White, in `[-1, 1]` (`+1`: White wins).
    ///
    /// No allocation: the hidden layer is computed in fixed-size chunks on the stack, so the
    /// call takes `&self` and any number of threads can share one net. The net does not look
    /// at [`Position::win`]: a finished game's value is its result, which the caller knows.
    ///
    /// # Panics
    ///
    /// If `pos` is on a board of another size than the net's (load nets with
    /// [`ValueNet::load_for`] to turn that into an error early).
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.check_board(pos);
        let mut buf = [0.0f32; CHUNK];
        let mut out = self.b2;
        let mut start = 0;
        while start < self.hidden {
            let len = CHUNK.min(self.hidden - start);
            let acc = &mut buf[..len];
            self.pre_activations(pos, start, acc);
            out += tanh_dot(acc, &self.w2[start..start + len]);
            start += len;
        }
        tanh(out)
    }

    /// The values for White of the positions after each of `moves` (empty cells of `pos`,
    /// played by the side to move), written to `out[i]` for `moves[i]`.
    ///
    /// The hidden layer of `pos` is computed once; each child then costs one row addition,
    /// `hidden` `tanh` and a dot product. No allocation. The net does not look for wins: a
    /// move that wins at once (see
    /// [`Position::winning_kinds`](havannah_rules::Position::winning_kinds)) gets a value
    /// like any other.
    ///
    /// # Panics
    ///
    /// If `out.len() != moves.len()`, if `pos` is on a board of another size, or if a move is
    /// not a cell of the board. An occupied cell gives a meaningless value.
    pub fn evaluate_moves(&self, pos: &Position, moves: &[Cell], out: &mut [f32]) {
        self.check_board(pos);
        assert_eq!(out.len(), moves.len(), "one output per move");
        let n = self.board.num_cells();
        for m in moves {
            assert!(m.index() < n, "move {m:?} is not a cell of the board");
        }
        out.fill(self.b2);
        let mut base_buf = [0.0f32; CHUNK];
        let mut child_buf = [0.0f32; CHUNK];
        let mover = pos.to_move();
        let mut start = 0;
        while start < self.hidden {
            let len = CHUNK.min(self.hidden - start);
            let end = start + len;
            let base = &mut base_buf[..len];
            self.pre_activations(pos, start, base);
            // After the move the other side is to move: the side-to-move input flips.
            let stm = &self.row(n)[start..end];
            match mover {
                Colour::White => axpy(base, stm, -2.0),
                Colour::Black => axpy(base, stm, 2.0),
            }
            let w2 = &self.w2[start..end];
            let child = &mut child_buf[..len];
            for (m, o) in moves.iter().zip(out.iter_mut()) {
                child.copy_from_slice(base);
                let row = &self.row(m.index())[start..end];
                match mover {
                    Colour::White => add(child, row),
                    Colour::Black => sub(child, row),
                }
                *o += tanh_dot(child, w2);
            }
            start = end;
        }
        for o in out.iter_mut() {
            *o = tanh(*o);
        }
    }

    /// The value for White of the position given as sparse inputs (see [`SparseInput`]),
    /// writing the hidden activations to `hidden` (a trainer's forward pass; `hidden.len()`
    /// must be [`ValueNet::hidden`]).
    ///
    /// # Panics
    ///
    /// If `hidden` has the wrong length or an input index is not below
    /// [`ValueNet::inputs`].
    pub fn evaluate_sparse(&self, inputs: &[SparseInput], hidden: &mut [f32]) -> f32 {
        hidden.copy_from_slice(&self.b1);
        for &(i, x) in inputs {
            axpy(hidden, self.row(usize::from(i)), x);
        }
        for h in hidden.iter_mut() {
            *h = tanh(*h);
        }
        tanh(self.b2 + dot(hidden, &self.w2))
    }

    /// The output weights, one per hidden unit.
    #[must_use]
    pub fn output_weights(&self) -> &[f32] {
        &self.w2
    }

    /// The weights and biases, to be changed in place (by a trainer such as the
    /// `havannah-td` crate's).
    pub fn parameters_mut(&mut self) -> ParametersMut<'_> {
        ParametersMut {
            w1: &mut self.w1,
            b1: &mut self.b1,
            w2: &mut self.w2,
            b2: &mut self.b2,
        }
    }
}

/// The weights and biases of a [`ValueNet`], borrowed to be changed in place
/// ([`ValueNet::parameters_mut`]). The lengths are fixed by the net's shape.
#[derive(Debug)]
#[non_exhaustive]
pub struct ParametersMut<'a> {
    /// First layer, input-major: row `i` (length `hidden`) holds the weights of input `i`.
    pub w1: &'a mut [f32],
    /// Hidden biases.
    pub b1: &'a mut [f32],
    /// Output weights.
    pub w2: &'a mut [f32],
    /// Output bias.
    pub b2: &'a mut f32,
}

#[inline]
fn add(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += r;
    }
}

#[inline]
fn sub(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a -= r;
    }
}

#[inline]
fn axpy(acc: &mut [f32], row: &[f32], x: f32) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += x * r;
    }
}

/// `sum tanh(pre[i]) * w[i]`, with eight partial sums so that the loop vectorises.
#[inline]
fn tanh_dot(pre: &[f32], w: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let mut p = pre.chunks_exact(8);
    let mut q = w.chunks_exact(8);
    for (p, q) in (&mut p).zip(&mut q) {
        for k in 0..8 {
            acc[k] += tanh(p[k]) * q[k];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (p, q) in p.remainder().iter().zip(q.remainder()) {
        sum += tanh(*p) * q;
    }
    sum
}

/// `sum a[i] * b[i]`, with eight partial sums so that the loop vectorises.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let mut p = a.chunks_exact(8);
    let mut q = b.chunks_exact(8);
    for (p, q) in (&mut p).zip(&mut q) {
        for k in 0..8 {
            acc[k] += p[k] * q[k];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (p, q) in p.remainder().iter().zip(q.remainder()) {
        sum += p * q;
    }
    sum
}

/// `tanh(x)` to within about `2e-7`, branch-free so that loops over it vectorise (the
/// library `tanh` takes three quarters of the training time): `tanh(x) = (e - 1) / (e + 1)`
/// with `e = exp(2x) = 2^t`, `t = 2x log2(e)` clamped to `[-40, 40]` (where `tanh` is `±1` in
/// `f32`), split as `2^i * 2^f` with `i = round(t)` put in the exponent bits and `2^f`,
/// `|f| <= 1/2` (rounding by the float magic number, no branch), by its Taylor polynomial of degree 6 (relative error below `2e-7`).
#[inline(always)]
pub(crate) fn tanh(x: f32) -> f32 {
    const C: [f32; 7] = [
        1.0,
        std::f32::consts::LN_2,
        0.240_226_5,
        0.055_504_11,
        0.009_618_129,
        0.001_333_355_8,
        0.000_154_035_3,
    ];
    // 1.5 * 2^23: adding it rounds to an integer held in the low mantissa bits.
    const MAGIC: f32 = 12_582_912.0;
    let t = (x * (2.0 * std::f32::consts::LOG2_E)).clamp(-40.0, 40.0);
    let r = t + MAGIC;
    let i = (r.to_bits() as i32).wrapping_sub(MAGIC.to_bits() as i32);
    let f = t - (r - MAGIC);
    let p = C[0] + f * (C[1] + f * (C[2] + f * (C[3] + f * (C[4] + f * (C[5] + f * C[6])))));
    let e = p * f32::from_bits(((i + 127) as u32) << 23);
    (e - 1.0) / (e + 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use havannah_rules::RingDetection;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn net(size: u8, hidden: usize) -> ValueNet {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        ValueNet::new(size, hidden, &mut rng).unwrap()
    }

    #[test]
    fn fast_tanh_is_close_to_tanh_and_bounded() {
        let mut worst = 0.0f32;
        for k in -200_000..=200_000 {
            let x = k as f32 / 10_000.0;
            let (a, b) = (tanh(x), x.tanh());
            assert!((-1.0..=1.0).contains(&a), "{x}: {a}");
            worst = worst.max((a - b).abs());
        }
        assert!(worst < 1e-6, "max error {worst}");
        for x in [
            1e6,
            -1e6,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
        ] {
            assert_eq!(tanh(x), x.signum(), "{x}");
        }
        assert_eq!(tanh(0.0), 0.0);
    }

    #[test]
    fn evaluate_moves_matches_evaluate_after_each_move() {
        // 300 hidden units: two chunks.
        let net = net(4, 300);
        let board = net.board();
        let mut pos = Position::new(board, RingDetection::Online);
        for name in ["d4", "c3", "e5", "a1"] {
            pos.place(board.parse_cell(name).unwrap());
        }
        let moves: Vec<Cell> = board.cells().filter(|&c| pos.is_empty(c)).collect();
        let mut out = vec![0.0; moves.len()];
        net.evaluate_moves(&pos, &moves, &mut out);
        for (m, v) in moves.iter().zip(&out) {
            let mut child = pos.clone();
            child.place(*m);
            let direct = net.evaluate(&child);
            assert!((direct - v).abs() < 1e-5, "{m:?}: {direct} vs {v}");
            assert!((-1.0..=1.0).contains(v));
        }
    }

    #[test]
    fn sparse_forward_matches_evaluate() {
        let net = net(3, 20);
        let board = net.board();
        let mut pos = Position::new(board, RingDetection::Online);
        for name in ["b2", "c3", "a1"] {
            pos.place(board.parse_cell(name).unwrap());
        }
        let sign = |c: Colour| if c == Colour::White { 1.0 } else { -1.0 };
        let mut sparse: Vec<SparseInput> = board
            .cells()
            .filter_map(|c| pos.stone(c).map(|s| (c.index() as u16, sign(s))))
            .collect();
        sparse.push((board.num_cells() as u16, sign(pos.to_move())));
        let mut hidden = vec![0.0; net.hidden()];
        let a = net.evaluate_sparse(&sparse, &mut hidden);
        assert!((a - net.evaluate(&pos)).abs() < 1e-6);
        assert!(hidden.iter().all(|h| (-1.0..=1.0).contains(h)));
    }
}
