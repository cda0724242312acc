//! The gradient of the value network's squared error, and the update that applies it.

use havannah::td::{SparseInput, ValueNet};

/// A gradient (or any update) with the shape of a [`ValueNet`]'s parameters.
#[derive(Clone, Debug)]
pub(crate) struct Gradient {
    pub(crate) w1: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    pub(crate) w2: Vec<f32>,
    pub(crate) b2: f32,
}

impl Gradient {
    pub(crate) fn zeros(net: &ValueNet) -> Self {
        Gradient {
            w1: vec![0.0; net.inputs() * net.hidden()],
            b1: vec![0.0; net.hidden()],
            w2: vec![0.0; net.hidden()],
            b2: 0.0,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
    }

    pub(crate) fn add(&mut self, other: &Gradient) {
        add(&mut self.w1, &other.w1);
        add(&mut self.b1, &other.b1);
        add(&mut self.w2, &other.w2);
        self.b2 += other.b2;
    }
}

/// Adds `scale * (target - v) * dv/dθ` to `grad` (the descent direction of the squared error
/// `(target - v)^2 / 2` of the net's value `v` of `inputs`) and returns `target - v`.
/// `hidden` (length [`ValueNet::hidden`]) is scratch space.
pub(crate) fn accumulate_gradient(
    net: &ValueNet,
    inputs: &[SparseInput],
    target: f32,
    scale: f32,
    grad: &mut Gradient,
    hidden: &mut [f32],
) -> f32 {
    let v = net.evaluate_sparse(inputs, hidden);
    let err = target - v;
    let g_out = scale * err * (1.0 - v * v);
    grad.b2 += g_out;
    // Reuse `hidden` for the hidden deltas once the output weights' gradient is taken.
    for ((h, gw2), w2) in hidden
        .iter_mut()
        .zip(grad.w2.iter_mut())
        .zip(net.output_weights())
    {
        *gw2 += g_out * *h;
        *h = g_out * w2 * (1.0 - *h * *h);
    }
    add(&mut grad.b1, hidden);
    let hn = net.hidden();
    for &(i, x) in inputs {
        let i = usize::from(i);
        axpy(&mut grad.w1[i * hn..(i + 1) * hn], hidden, x);
    }
    err
}

/// Adds `rate * grad` to the net's parameters.
pub(crate) fn apply(net: &mut ValueNet, grad: &Gradient, rate: f32) {
    let p = net.parameters_mut();
    axpy(p.w1, &grad.w1, rate);
    axpy(p.b1, &grad.b1, rate);
    axpy(p.w2, &grad.w2, rate);
    *p.b2 += rate * grad.b2;
}

#[inline]
fn add(acc: &mut [f32], row: &[f32]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += r;
    }
}

#[inline]
fn axpy(acc: &mut [f32], row: &[f32], x: f32) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a += x * r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn gradient_step_reduces_error() {
        let mut net = ValueNet::new(3, 10, &mut Pcg64Mcg::seed_from_u64(7)).unwrap();
        let inputs = [(0u16, 1.0f32), (5, -1.0), (19, -1.0)];
        let mut grad = Gradient::zeros(&net);
        let mut hidden = vec![0.0; 10];
        let before = accumulate_gradient(&net, &inputs, 0.9, 1.0, &mut grad, &mut hidden);
        apply(&mut net, &grad, 0.05);
        let after = 0.9 - net.evaluate_sparse(&inputs, &mut hidden);
        assert!(after.abs() < before.abs(), "{before} -> {after}");
    }
}
