//! The GPU case of the LayerNorm forward (`tile_examples::layer_norm`):
//! `Y`, `Mean` and `Rstd` against the f64 reference, on any device.
//!
//! Tolerance: each output within [`TOLERANCE`] (1e-5) of its own scale and
//! of the largest reference value ([`compare_close`]). The scales are those
//! of the rounding errors f32 makes: the mean of a row's magnitudes for
//! `Mean` (its sum is rounded in a tree of `log2(BLOCK_SIZE)` levels after
//! `N / BLOCK_SIZE` additions a lane), `Rstd` itself (relative: a variance
//! summed the same way, a square root and a division, approximate by an ULP
//! or two on the GPU), and `(|x| + mean |x|) * rstd * |w| + |b|` for `Y`
//! (the terms of `(x - mean) * rstd * w + b`, the error of `mean` counted at
//! its scale). Those errors stay near 1e-6 of the scale at the checked
//! sizes; 1e-5 leaves a margin while a wrong mask, row or loop bound moves
//! results by the order of the values themselves.

use super::reductions::compare_close;
use super::{Outcome, POISON, Specializing, inputs, poisoned};
use tile::{Arg, Buffer, Device, Options};
use tile_examples::layer_norm::{self, EPS};

/// The relative tolerance of `Y`, `Mean` and `Rstd` (see the module
/// documentation).
pub const TOLERANCE: f64 = 1e-5;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The tutorial's `BLOCK_SIZE` for rows of `n` fp32.
pub fn heuristic_block(n: usize) -> i32 {
    layer_norm::block_size(n, 4)
}

/// The inputs of one LayerNorm launch: `rows x n` fp32 `x` with row stride
/// `stride >= n` (the padding holds inputs that must not be read), and the
/// weights and biases; deterministic ([`inputs`]).
pub struct Inputs {
    /// `rows * stride` values.
    pub x: Vec<f32>,
    /// `n` weights.
    pub w: Vec<f32>,
    /// `n` biases.
    pub b: Vec<f32>,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub n: usize,
    /// The row stride of `x` and `Y`, in elements.
    pub stride: usize,
}

impl Inputs {
    /// Inputs for `rows x n` with row stride `stride` (at least `n`).
    pub fn new(rows: usize, n: usize, stride: usize) -> Inputs {
        Inputs {
            x: inputs(rows * stride, (rows * 7 + n) as u64),
            w: inputs(n, n as u64 + 3),
            b: inputs(n, n as u64 + 5),
            rows,
            n,
            stride,
        }
    }

    /// The launch's buffers on `device` in argument order (`X`, `Y`, `W`,
    /// `B`, `Mean`, `Rstd`; the outputs poisoned and followed by a guard)
    /// and its arguments (those, then `stride`, `N`, `eps`).
    pub fn upload(&self, device: &Device) -> Result<(Vec<Buffer<f32>>, Vec<Arg>), String> {
        let (y, stats) = (poisoned(self.rows * self.stride), poisoned(self.rows));
        let host = [&self.x, &y, &self.w, &self.b, &stats, &stats];
        let buffers = host
            .iter()
            .map(|v| device.upload(v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        let mut args: Vec<Arg> = buffers.iter().map(Arg::from).collect();
        args.extend([
            Arg::from(self.stride as i32),
            Arg::from(self.n as i32),
            Arg::from(EPS),
        ]);
        Ok((buffers, args))
    }

    /// Downloads `Y`, `Mean` and `Rstd` from the [`Inputs::upload`]ed
    /// `buffers` after the launch and checks them ([`Inputs::check`]).
    pub fn check_buffers(&self, device: &Device, buffers: &[Buffer<f32>], tol: f64) -> Outcome {
        let [y, mean, rstd] = [1, 4, 5].map(|i| device.download(&buffers[i]).map_err(err));
        self.check((&y?, &mean?, &rstd?), tol)
    }

    /// Compares the downloaded `Y` (`rows x stride`), `Mean` and `Rstd`,
    /// each followed by its guard, with [`layer_norm::reference`] within
    /// `tol` of the scales of the module documentation; the padding of
    /// `Y`'s rows must still hold the poison.
    pub fn check(&self, (y, mean, rstd): (&[f32], &[f32], &[f32]), tol: f64) -> Outcome {
        let (rows, n, stride) = (self.rows, self.n, self.stride);
        let want = layer_norm::reference(&self.x, &self.w, &self.b, (rows, n, stride), EPS);
        let dense_y = unpad(y, rows, n, stride).map_err(|e| format!("Y: {e}"))?;
        let rows_of_x = || self.x.chunks(stride).take(rows).map(|row| &row[..n]);
        let mean_abs: Vec<f64> = rows_of_x()
            .map(|row| row.iter().map(|&v| f64::from(v).abs()).sum::<f64>() / n as f64)
            .collect();
        let mut y_scale = Vec::with_capacity(rows * n);
        for ((row, &m), &r) in rows_of_x().zip(&mean_abs).zip(&want.rstd) {
            for ((&x, &w), &b) in row.iter().zip(&self.w).zip(&self.b) {
                let terms = (f64::from(x).abs() + m) * r * f64::from(w).abs();
                y_scale.push(terms + f64::from(b).abs());
            }
        }
        compare_close(&dense_y, &want.y, &y_scale, tol).map_err(|e| format!("Y: {e}"))?;
        compare_close(mean, &want.mean, &mean_abs, tol).map_err(|e| format!("Mean: {e}"))?;
        compare_close(rstd, &want.rstd, &want.rstd, tol).map_err(|e| format!("Rstd: {e}"))
    }
}

/// Normalizes `rows x n` fp32 (row stride `stride >= n`) with
/// `BLOCK_SIZE = block_size` and the tutorial's warps for it, one program
/// per row, and checks `Y`, `Mean` and `Rstd` ([`Inputs::check`], within
/// [`TOLERANCE`]). Every output is poisoned beforehand and followed by a
/// guard; the padding of `Y`'s rows must stay poisoned too.
pub fn layer_norm_case(
    device: &Device,
    rows: usize,
    n: usize,
    stride: usize,
    block_size: i32,
) -> Outcome {
    if stride < n {
        return Err(format!("stride {stride} < N {n}"));
    }
    let context = tile::context().map_err(err)?;
    let kernel = layer_norm::layer_norm_fwd(&context, block_size).map_err(err)?;
    let options = Options::with_warps(layer_norm::num_warps(block_size));
    let loaded = Specializing::with_options(device, &kernel, options);
    let input = Inputs::new(rows, n, stride);
    let (buffers, args) = input.upload(device)?;
    loaded.launch(rows as u32, &args)?;
    input.check_buffers(device, &buffers, TOLERANCE)
}

/// The `rows x n` values of a `rows x stride` output followed by its guard,
/// dense and followed by the same guard; an error when an element of the
/// padding (columns `n..stride`) is not the poison.
fn unpad(got: &[f32], rows: usize, n: usize, stride: usize) -> Result<Vec<f32>, String> {
    let body = (rows * stride).min(got.len());
    let mut dense = Vec::with_capacity(rows * n + got.len() - body);
    for (r, row) in got[..body].chunks(stride).enumerate() {
        if let Some(c) = row[n..]
            .iter()
            .position(|v| v.to_bits() != POISON.to_bits())
        {
            return Err(format!(
                "padding [{r}, {}] was written: {}",
                n + c,
                row[n + c]
            ));
        }
        dense.extend_from_slice(&row[..n]);
    }
    dense.extend_from_slice(&got[body..]);
    Ok(dense)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu_check::GUARD;

    #[test]
    fn padding_must_stay_poisoned_and_is_dropped() {
        let mut got = poisoned(2 * 3);
        got[..2].copy_from_slice(&[1.0, 2.0]);
        got[3..5].copy_from_slice(&[3.0, 4.0]);
        let dense = unpad(&got, 2, 2, 3).unwrap();
        assert_eq!(&dense[..4], &[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(dense.len(), 4 + GUARD);
        got[5] = 0.0;
        let e = unpad(&got, 2, 2, 3).unwrap_err();
        assert!(e.contains("padding [1, 2]"), "{e}");
    }

    #[test]
    fn the_check_catches_each_output() {
        let (rows, n) = (2, 3);
        let input = Inputs::new(rows, n, n);
        let want = layer_norm::reference(&input.x, &input.w, &input.b, (rows, n, n), EPS);
        let as_f32 = |v: &[f64]| {
            let mut out = poisoned(v.len());
            for (o, &x) in out.iter_mut().zip(v) {
                *o = x as f32;
            }
            out
        };
        let (y, mean, rstd) = (as_f32(&want.y), as_f32(&want.mean), as_f32(&want.rstd));
        assert_eq!(input.check((&y, &mean, &rstd), TOLERANCE), Ok(()));
        let mut bad = y.clone();
        bad[4] += 1e-3;
        let e = input.check((&bad, &mean, &rstd), TOLERANCE).unwrap_err();
        assert!(e.starts_with("Y: 1 wrong: [4]"), "{e}");
        let mut bad = rstd.clone();
        bad[1] *= 1.0 + 1e-4;
        let e = input.check((&y, &mean, &bad), TOLERANCE).unwrap_err();
        assert!(e.starts_with("Rstd: 1 wrong: [1]"), "{e}");
        let mut bad = mean.clone();
        bad[rows] = 0.0;
        let e = input.check((&y, &bad, &rstd), TOLERANCE).unwrap_err();
        assert!(e.contains("Mean:") && e.contains("guard [2]"), "{e}");
    }
}
