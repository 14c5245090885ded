//! Cross-entropy forward over a vocabulary: per row of logits, the loss
//! `logsumexp(x) - x[target]` and the prediction `argmax(x)`, one program
//! per row, `block` logits per loop iteration.
//!
//! ```python
//! @triton.jit
//! def cross_entropy_fwd(X, T, Loss, Pred, stride, V, BLOCK: tl.constexpr):
//!     row = tl.program_id(0)
//!     x_row = X + row * stride
//!     m = -float("inf"); s = 0.0; best = -float("inf"); best_i = 0
//!     for off in range(0, V, BLOCK):
//!         cols = off + tl.arange(0, BLOCK)
//!         x = tl.load(x_row + cols, mask=cols < V, other=-float("inf"))
//!         bm = tl.max(x, 0)
//!         new_m = tl.maximum(m, bm)
//!         s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), 0)
//!         m = new_m
//!         bi = tl.argmax(x, 0)
//!         best_i = tl.where(bm > best, off + bi, best_i)
//!         best = tl.maximum(best, bm)
//!     t = tl.load(T + row)
//!     tl.store(Loss + row, tl.log(s) + m - tl.load(x_row + t))
//!     tl.store(Pred + row, best_i)
//! ```
//!
//! The running max and sum are the online softmax's: each block rescales
//! the sum by `exp(old max - new max)`. The prediction keeps the first
//! block whose maximum is strictly larger than every earlier block's, and
//! within it `argmax`'s first index: the first index of the row's maximum.
//! Rows holding NaN are not given torch's NaN answer (a NaN makes no
//! block's maximum larger). Launch one program per row.

use tile_dialect::{DType, Kernel, Result};

/// The `BLOCK` the checks and the benchmark use for rows of 32768 logits.
pub const BLOCK: i32 = 4096;

/// Warps for `BLOCK`.
pub const NUM_WARPS: u32 = 8;

/// `Loss[r] = logsumexp(X[r, :V]) - X[r, T[r]]` and
/// `Pred[r] = argmax(X[r, :V])`.
///
/// Arguments: `X` (`f32` logits), `T` (`i32` targets), `Loss` (`f32`),
/// `Pred` (`i32`), `stride` (`i32`, the row stride of `X` in elements;
/// columns contiguous), `V` (`i32`, the vocabulary). `block` must be a
/// power of two; masked lanes read `-inf`.
pub fn cross_entropy_fwd<'c>(context: &'c melior::Context, block: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "cross_entropy_fwd", |k| {
        let x_ptr = k.arg_ptr("X", DType::F32);
        let t_ptr = k.arg_ptr("T", DType::I32);
        let loss_ptr = k.arg_ptr("Loss", DType::F32);
        let pred_ptr = k.arg_ptr("Pred", DType::I32);
        let stride = k.arg("stride", DType::I32);
        let v = k.arg("V", DType::I32);

        let row = k.program_id(0);
        let x_row = x_ptr + row * stride;
        let m = k.f32(f32::NEG_INFINITY);
        let s = k.f32(0.0);
        let best = k.f32(f32::NEG_INFINITY);
        let best_i = k.i32(0);
        let [m, s, _, best_i] = k.for_range(
            0,
            v,
            block,
            [m, s, best, best_i],
            |off, [m, s, best, best_i]| {
                let cols = off + k.arange(0, block);
                let x = k
                    .load(x_row + cols)
                    .mask(cols.lt(v))
                    .other(f64::NEG_INFINITY)
                    .build();
                let bm = x.max(0);
                let new_m = m.maximum(bm);
                let s = s * (m - new_m).exp() + (x - new_m).exp().sum(0);
                let bi = x.argmax(0, false);
                let best_i = k.where_(bm.gt(best), off + bi, best_i);
                let best = best.maximum(bm);
                [new_m, s, best, best_i]
            },
        );
        let target = k.load(t_ptr + row).build();
        let picked = k.load(x_row + target).build();
        k.store(loss_ptr + row, s.log() + m - picked).build();
        k.store(pred_ptr + row, best_i).build();
    })
}

/// What the kernel computes, in `f64`: per row, the loss and the first
/// index of the maximum.
pub fn reference(x: &[f32], targets: &[i32], v: usize) -> (Vec<f64>, Vec<i32>) {
    let mut loss = Vec::with_capacity(targets.len());
    let mut pred = Vec::with_capacity(targets.len());
    for (r, &t) in targets.iter().enumerate() {
        let row = &x[r * v..(r + 1) * v];
        let (mut best, mut best_i) = (f64::NEG_INFINITY, 0);
        for (i, &e) in row.iter().enumerate() {
            if f64::from(e) > best {
                best = f64::from(e);
                best_i = i as i32;
            }
        }
        let sum: f64 = row.iter().map(|&e| (f64::from(e) - best).exp()).sum();
        loss.push(sum.ln() + best - f64::from(row[t as usize]));
        pred.push(best_i);
    }
    (loss, pred)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_of_a_small_row() {
        let x = [0.0f32, 2.0, 2.0, -1.0];
        let (loss, pred) = reference(&x, &[3], 4);
        let lse = (1.0f64 + 2.0 * 2f64.exp() + (-1f64).exp()).ln();
        assert!((loss[0] - (lse + 1.0)).abs() < 1e-12);
        assert_eq!(pred, [1]);
    }
}
