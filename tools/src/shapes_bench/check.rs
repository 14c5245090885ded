//! The check of our outputs in `shapes-bench` (and in the interpreter
//! test): every output element written and the guard after each output
//! untouched, then sampled outputs against a plain Rust reference in f64
//! on the inputs as stored.
//!
//! Bounds, each from how the value is computed (`r` is one rounding to
//! the output's type: 0 for f32, 2^-11 for f16, 2^-8 for bf16; `tiny` the
//! type's smallest subnormal):
//!
//! - softmax: `|got - want| <= (1e-4 + r) |want| + tiny`, each element
//!   ([`TOLERANCE`]);
//! - LayerNorm: Y within `1e-4 (|x_hat w| + |b|) + r |y| + tiny`, Mean
//!   within `1e-4` of the row's mean magnitude, Rstd within `1e-4` of it;
//! - scale-bias: within `1e-6 (|x s| + |b|) + r |out| + tiny` (a fused
//!   multiply-add or two roundings);
//! - transpose: bit for bit;
//! - column and row sums: within `1e-4` of the sum of the column's (the
//!   row's) magnitudes;
//! - GELU: `h = x + b` is computed in f32 as the kernel does, then
//!   `|got - want| <= r |want| + |h|/2 (e_t |t| + (1 - t^2) |u| 2^-21) +
//!   2^-21 |h| + tiny`, with `u` the tanh's argument, `t = tanh(u)` and
//!   `e_t` the tanh's relative error: 2^-20 (ours: within 4 ulp of f32),
//!   2^-10.987 for `tanh_approx` (the PTX ISA's bound on
//!   `tanh.approx.f32`; the interpreter computes `tanh` exactly);
//! - prefix sums (chunked and along rows): within `1e-4` of the sum of
//!   the terms' magnitudes, plus `r |want| + tiny`.

use super::cases::Case;
use crate::elements::{decode, rounding};
use crate::reference::{sampled_points, softmax, sum};
use tile_dialect::DType;
use tile_examples::layer_norm;
use tile_examples::tile_shapes::{
    EPS, GELU_K0, GELU_K1, ShapeKernel, TANH_APPROX_REL_ERROR, Tiles, chunk_cumsum_reference,
    gelu_reference, row_cumsum_reference,
};

/// The relative tolerance of the softmax, the LayerNorm and the column
/// sums (see the module docs).
pub const TOLERANCE: f64 = 1e-4;

/// Rows (columns, points) looked at in a large output.
pub const SAMPLES: usize = 64;

/// Every element of an output this small is looked at.
pub const ALL_BELOW: usize = 1 << 16;

/// The bit pattern written over an output before a run: a NaN no kernel
/// computes (f32 `0x7FC0DEAD`, f16 `0x7EAD`, bf16 `0x7FAD`).
pub fn poison_bits(d: DType) -> u32 {
    match d {
        DType::F16 => 0x7EAD,
        DType::BF16 => 0x7FAD,
        _ => 0x7FC0_DEAD,
    }
}

/// An output as downloaded: its type, its length (the guard after it not
/// counted) and its bytes.
pub struct Stored {
    /// The element type.
    pub dtype: DType,
    /// Elements before the guard.
    pub len: usize,
    /// The bytes, guard included.
    pub raw: Vec<u8>,
}

impl Stored {
    fn width(&self) -> usize {
        (self.dtype.bits() / 8) as usize
    }

    /// Element `i`'s value.
    pub fn at(&self, i: usize) -> f64 {
        decode(self.dtype, &self.raw[i * self.width()..])
    }

    /// Errors for elements left poisoned and guard elements written.
    fn written(&self, name: &str, errors: &mut Errors) {
        let w = self.width();
        let poison = &poison_bits(self.dtype).to_le_bytes()[..w];
        let (body, guard) = self.raw.split_at((self.len * w).min(self.raw.len()));
        let unwritten: Vec<usize> = body
            .chunks_exact(w)
            .enumerate()
            .filter(|(_, c)| *c == poison)
            .map(|(i, _)| i)
            .collect();
        if let Some(first) = unwritten.first() {
            let count = unwritten.len();
            errors.push(format!(
                "{name}: {count} elements not written (first [{first}])"
            ));
        }
        if let Some(i) = guard.chunks_exact(w).position(|c| c != poison) {
            errors.push(format!("{name}: guard [{}] was written", self.len + i));
        }
    }
}

/// The mismatches of one check: a count and the first few.
#[derive(Default)]
struct Errors {
    count: usize,
    first: Vec<String>,
}

impl Errors {
    fn push(&mut self, e: String) {
        self.count += 1;
        if self.first.len() < 5 {
            self.first.push(e);
        }
    }

    /// Compares `got` with `want` within `allowed` (NaN fails).
    fn close(&mut self, what: impl Fn() -> String, got: f64, want: f64, allowed: f64) {
        if got.is_nan() || (got - want).abs() > allowed {
            self.push(format!(
                "{} = {got}, want {want} (within {allowed:.3e})",
                what()
            ));
        }
    }

    fn outcome(self) -> Result<(), String> {
        match self.count {
            0 => Ok(()),
            n => Err(format!("{n} mismatches: {}", self.first.join("; "))),
        }
    }
}

/// The smallest subnormal of `d` (its smallest rounding error's scale).
fn tiny(d: DType) -> f64 {
    match d {
        DType::F16 => 2f64.powi(-24),
        _ => f64::from(f32::MIN_POSITIVE),
    }
}

/// Indices `0..len` looked at: all of them below `SAMPLES`, else the
/// first, the last and `SAMPLES` drawn ([`sampled_points`]).
fn sampled(len: usize) -> Vec<usize> {
    if len <= SAMPLES {
        return (0..len).collect();
    }
    sampled_points(len, 1, SAMPLES)
        .into_iter()
        .map(|(i, _)| i)
        .collect()
}

/// Points of an `m x n` output looked at: all of them below
/// [`ALL_BELOW`], else the corners and `64 SAMPLES` drawn.
fn points(m: usize, n: usize) -> Vec<(usize, usize)> {
    if m * n <= ALL_BELOW {
        return (0..m * n).map(|e| (e / n, e % n)).collect();
    }
    sampled_points(m, n, 64 * SAMPLES)
}

/// Checks `case`'s outputs against the reference: `inputs` are the input
/// pointers' values as stored (in [`ShapeKernel::pointers`] order, outputs
/// left out), `outputs` the output pointers' contents; `tiles` the
/// configuration's (a chunked prefix sum's chunks are its `BM` rows).
pub fn check(
    case: &Case,
    tiles: Tiles,
    inputs: &[&[f32]],
    outputs: &[Stored],
) -> Result<(), String> {
    let mut errors = Errors::default();
    let names: Vec<&str> = case
        .kernel
        .pointers()
        .iter()
        .copied()
        .filter(|p| case.kernel.is_output(p))
        .collect();
    for (out, name) in outputs.iter().zip(&names) {
        out.written(name, &mut errors);
    }
    let (m, n) = (case.m, case.n);
    let r = rounding(case.dtype);
    let small = tiny(case.dtype);
    let x = inputs[0];
    match case.kernel {
        ShapeKernel::Softmax | ShapeKernel::SoftmaxOnline => {
            for i in sampled(m) {
                for (j, want) in softmax(&x[i * n..(i + 1) * n]).enumerate() {
                    let allowed = (TOLERANCE + r) * want.abs() + small;
                    errors.close(
                        || format!("y[{i}, {j}]"),
                        outputs[0].at(i * n + j),
                        want,
                        allowed,
                    );
                }
            }
        }
        ShapeKernel::LayerNorm
        | ShapeKernel::LayerNormY
        | ShapeKernel::LayerNormBlock
        | ShapeKernel::LayerNormLoop => {
            let (w, b) = (inputs[1], inputs[2]);
            for i in sampled(m) {
                let row = &x[i * n..(i + 1) * n];
                let want = layer_norm::reference(row, w, b, (1, n, n), EPS);
                for (j, &y) in want.y.iter().enumerate() {
                    let bj = f64::from(b[j]);
                    let allowed = TOLERANCE * ((y - bj).abs() + bj.abs()) + r * y.abs() + small;
                    errors.close(
                        || format!("Y[{i}, {j}]"),
                        outputs[0].at(i * n + j),
                        y,
                        allowed,
                    );
                }
                if !matches!(
                    case.kernel,
                    ShapeKernel::LayerNormY | ShapeKernel::LayerNormBlock
                ) {
                    let magnitude = row.iter().map(|v| f64::from(v.abs())).sum::<f64>() / n as f64;
                    let (mean, rstd) = (want.mean[0], want.rstd[0]);
                    errors.close(
                        || format!("Mean[{i}]"),
                        outputs[1].at(i),
                        mean,
                        TOLERANCE * magnitude,
                    );
                    errors.close(
                        || format!("Rstd[{i}]"),
                        outputs[2].at(i),
                        rstd,
                        TOLERANCE * rstd,
                    );
                }
            }
        }
        ShapeKernel::ScaleBias => {
            let (scale, bias) = (inputs[1], inputs[2]);
            for (i, j) in points(m, n) {
                let xs = f64::from(x[i * n + j]) * f64::from(scale[i]);
                let want = xs + f64::from(bias[j]);
                let allowed = 1e-6 * (xs.abs() + f64::from(bias[j]).abs()) + r * want.abs() + small;
                errors.close(
                    || format!("out[{i}, {j}]"),
                    outputs[0].at(i * n + j),
                    want,
                    allowed,
                );
            }
        }
        ShapeKernel::Transpose | ShapeKernel::TransposeBlock | ShapeKernel::TransposeOrder => {
            let y = &outputs[0];
            let w = y.width();
            for (i, j) in points(m, n) {
                let got = &y.raw[(j * m + i) * w..(j * m + i + 1) * w];
                let want = stored_bits(case.dtype, x[i * n + j]);
                if got != &want.to_le_bytes()[..w] {
                    errors.push(format!(
                        "y[{j}, {i}] = {}, want x[{i}, {j}] = {}",
                        y.at(j * m + i),
                        x[i * n + j]
                    ));
                }
            }
        }
        ShapeKernel::ColSumStep
        | ShapeKernel::ColSumEnd
        | ShapeKernel::ColSumStaged
        | ShapeKernel::ColSumPtrs
        | ShapeKernel::ColSumBlock => {
            for j in sampled(n) {
                let (want, magnitude) = sum((0..m).map(|i| f64::from(x[i * n + j])));
                errors.close(
                    || format!("out[{j}]"),
                    outputs[0].at(j),
                    want,
                    TOLERANCE * magnitude + small,
                );
            }
        }
        ShapeKernel::RowSumLoop => {
            for i in sampled(m) {
                let (want, magnitude) = sum(x[i * n..(i + 1) * n].iter().map(|&v| f64::from(v)));
                errors.close(
                    || format!("out[{i}]"),
                    outputs[0].at(i),
                    want,
                    TOLERANCE * magnitude + small,
                );
            }
        }
        ShapeKernel::ChunkCumsum | ShapeKernel::ChunkCumsumPtrs | ShapeKernel::ChunkCumsumRev => {
            let reverse = case.kernel == ShapeKernel::ChunkCumsumRev;
            let chunk = tiles.bm as usize;
            for (i, j) in points(m, n) {
                let (want, magnitude) = chunk_cumsum_reference(x, (m, n), chunk, reverse, (i, j));
                errors.close(
                    || format!("y[{i}, {j}]"),
                    outputs[0].at(i * n + j),
                    want,
                    TOLERANCE * magnitude + r * want.abs() + small,
                );
            }
        }
        ShapeKernel::RowCumsum => {
            for (i, j) in points(m, n) {
                let (want, magnitude) = row_cumsum_reference(x, n, (i, j));
                errors.close(
                    || format!("y[{i}, {j}]"),
                    outputs[0].at(i * n + j),
                    want,
                    TOLERANCE * magnitude + r * want.abs() + small,
                );
            }
        }
        ShapeKernel::Gelu | ShapeKernel::GeluFast => {
            let tanh_error = match case.kernel {
                ShapeKernel::GeluFast => TANH_APPROX_REL_ERROR,
                _ => 2f64.powi(-20),
            };
            let bias = inputs[1];
            for (i, j) in points(m, n) {
                // The kernel's f32 sum, rounded as it rounds.
                let h = f64::from(x[i * n + j] + bias[j]);
                let u = GELU_K0 * (h + GELU_K1 * h * h * h);
                let t = u.tanh();
                let want = gelu_reference(h);
                let tanh_part = tanh_error * t.abs() + (1.0 - t * t) * u.abs() * 2f64.powi(-21);
                let allowed =
                    r * want.abs() + 0.5 * h.abs() * tanh_part + 2f64.powi(-21) * h.abs() + small;
                errors.close(
                    || format!("y[{i}, {j}]"),
                    outputs[0].at(i * n + j),
                    want,
                    allowed,
                );
            }
        }
    }
    errors.outcome()
}

/// The bits of `x` (a value of `d`, as stored) in `d`.
pub fn stored_bits(d: DType, x: f32) -> u32 {
    match d {
        DType::F16 | DType::BF16 => u32::from(crate::elements::to_bits(d, x)),
        _ => x.to_bits(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tiles for the kernels whose reference does not depend on them.
    const T: Tiles = Tiles { bm: 32, bn: 32 };

    fn stored(dtype: DType, values: &[f32], guard: usize) -> Stored {
        let mut raw = Vec::new();
        for &v in values {
            let bits = stored_bits(dtype, v);
            raw.extend_from_slice(&bits.to_le_bytes()[..(dtype.bits() / 8) as usize]);
        }
        for _ in 0..guard {
            raw.extend_from_slice(&poison_bits(dtype).to_le_bytes()[..(dtype.bits() / 8) as usize]);
        }
        Stored {
            dtype,
            len: values.len(),
            raw,
        }
    }

    #[test]
    fn transposes_are_bit_for_bit_and_unwritten_elements_fail() {
        let case = Case {
            kernel: ShapeKernel::Transpose,
            dtype: DType::F16,
            m: 2,
            n: 3,
        };
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let good = stored(DType::F16, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0], 4);
        assert_eq!(check(&case, T, &[&x], &[good]), Ok(()));
        let wrong = stored(DType::F16, &[1.0, 4.0, 2.0, 5.0, 6.0, 3.0], 4);
        let e = check(&case, T, &[&x], &[wrong]).unwrap_err();
        assert!(e.starts_with("2 mismatches"), "{e}");
        let mut unwritten = stored(DType::F16, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0], 4);
        unwritten.raw[2..4].copy_from_slice(&0x7EADu16.to_le_bytes());
        unwritten.raw[12..14].copy_from_slice(&0u16.to_le_bytes());
        let e = check(&case, T, &[&x], &[unwritten]).unwrap_err();
        assert!(e.contains("1 elements not written (first [1])"), "{e}");
        assert!(e.contains("guard [6] was written"), "{e}");
    }

    #[test]
    fn chunked_prefix_sums_restart_at_each_chunk_of_bm_rows() {
        let case = |kernel| Case {
            kernel,
            dtype: DType::F32,
            m: 3,
            n: 2,
        };
        // Rows (1, 2), (3, 4), (5, 6); chunks of 2 rows: rows 0-1, row 2.
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let two = Tiles { bm: 2, bn: 2 };
        let forward = [1.0, 2.0, 4.0, 6.0, 5.0, 6.0];
        let reverse = [4.0, 6.0, 3.0, 4.0, 5.0, 6.0];
        let run = |kernel, tiles, out: &[f32]| {
            check(&case(kernel), tiles, &[&x], &[stored(DType::F32, out, 1)])
        };
        assert_eq!(run(ShapeKernel::ChunkCumsum, two, &forward), Ok(()));
        assert_eq!(run(ShapeKernel::ChunkCumsumPtrs, two, &forward), Ok(()));
        assert_eq!(run(ShapeKernel::ChunkCumsumRev, two, &reverse), Ok(()));
        assert!(run(ShapeKernel::ChunkCumsumRev, two, &forward).is_err());
        assert!(run(ShapeKernel::ChunkCumsum, two, &reverse).is_err());
        // One chunk of all three rows: the last row sums them all.
        let four = Tiles { bm: 4, bn: 2 };
        assert!(run(ShapeKernel::ChunkCumsum, four, &forward).is_err());
        assert_eq!(
            run(
                ShapeKernel::ChunkCumsum,
                four,
                &[1.0, 2.0, 4.0, 6.0, 9.0, 12.0]
            ),
            Ok(())
        );
    }

    #[test]
    fn sums_and_gelu_are_judged_by_their_bounds() {
        let case = Case {
            kernel: ShapeKernel::ColSumEnd,
            dtype: DType::F32,
            m: 2,
            n: 2,
        };
        let x = [1.0, -2.0, 3.0, 4.0];
        assert_eq!(
            check(&case, T, &[&x], &[stored(DType::F32, &[4.0, 2.0], 1)]),
            Ok(())
        );
        assert!(check(&case, T, &[&x], &[stored(DType::F32, &[4.01, 2.0], 1)]).is_err());
        let gelu = Case {
            kernel: ShapeKernel::GeluFast,
            dtype: DType::F16,
            m: 1,
            n: 2,
        };
        let (x, b) = ([1.0, -3.0], [0.0, 0.5]);
        let want: Vec<f32> = [1.0f64, -2.5]
            .iter()
            .map(|&h| gelu_reference(h) as f32)
            .collect();
        assert_eq!(
            check(&gelu, T, &[&x, &b], &[stored(DType::F16, &want, 2)]),
            Ok(())
        );
        // Off by 1% of the first value: beyond the f16 rounding and tanh.approx's error.
        let off = [want[0] * 1.01, want[1]];
        assert!(check(&gelu, T, &[&x, &b], &[stored(DType::F16, &off, 2)]).is_err());
        assert_eq!(sampled(5), vec![0, 1, 2, 3, 4]);
        assert_eq!(sampled(1000).len(), SAMPLES + 4);
        assert_eq!(points(3, 4).len(), 12);
    }
}
