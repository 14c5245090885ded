//! GPU cases for the kernels that loop and reduce: the row sum (seed 002),
//! the weighted sum forward and backward (seed 004) and the row softmax,
//! against f64 references on the CPU.
//!
//! Floating-point sums are compared with a tolerance: an output is accepted
//! when its error is at most `tol` times both the largest magnitude of the
//! reference and the sum of the magnitudes of its own terms (the scale of
//! the rounding error any summation order makes). `tol` is 1e-5 for f32
//! inputs and 1e-2 for bf16 inputs (accumulated in f32). Outputs that are
//! products, not sums, are compared bit for bit; every output is poisoned
//! beforehand and followed by a guard that must stay untouched.

use super::Specializing;
use super::{Outcome, Storage, compare, inputs, poisoned, verdict};
use crate::reference::{softmax, sum};
use tile::{Arg, Buffer, Device};
use tile_dialect::{DType, Kernel};
use tile_examples::{row_sum, softmax, weighted_sum};

/// The relative tolerance for sums of `dtype` inputs.
pub fn tolerance(dtype: DType) -> f64 {
    match dtype {
        DType::F32 => 1e-5,
        _ => 1e-2,
    }
}

/// `x` rounded to bf16 (nearest, ties to even), as its bits.
pub fn bf16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let rounded = b.wrapping_add(0x7FFF + ((b >> 16) & 1));
    (rounded >> 16) as u16
}

/// The f32 value of bf16 bits.
pub fn bf16_value(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// Host values of one input, and the same values on the device in the
/// kernel's element type.
pub struct Input {
    /// The values the kernel sees (already rounded to `dtype`).
    pub values: Vec<f32>,
    buffer: Stored,
}

enum Stored {
    F32(Buffer<f32>),
    Bf16(Buffer<u16>),
}

impl Input {
    /// `n` deterministic values (see [`inputs`]) stored as `dtype` (f32 or
    /// bf16).
    pub fn new(device: &Device, n: usize, seed: u64, dtype: DType) -> Result<Input, String> {
        let raw = inputs(n, seed);
        let e = |e: tile::RuntimeError| e.to_string();
        Ok(match dtype {
            DType::F32 => Input {
                buffer: Stored::F32(device.upload(&raw).map_err(e)?),
                values: raw,
            },
            DType::BF16 => {
                let bits: Vec<u16> = raw.iter().map(|&x| bf16_bits(x)).collect();
                Input {
                    values: bits.iter().map(|&b| bf16_value(b)).collect(),
                    buffer: Stored::Bf16(device.upload(&bits).map_err(e)?),
                }
            }
            other => return Err(format!("inputs of {other} are not covered")),
        })
    }

    /// The launch argument.
    pub fn arg(&self) -> Arg {
        match &self.buffer {
            Stored::F32(b) => Arg::from(b),
            Stored::Bf16(b) => Arg::from(b),
        }
    }
}

/// Accepts `got` (output plus guard) when no element is NaN and each is
/// within `tol * max |want|` and within `tol * magnitude[i]` of `want[i]`
/// (see the module documentation); the guard must still hold the poison.
pub fn compare_close(got: &[f32], want: &[f64], magnitude: &[f64], tol: f64) -> Outcome {
    let peak = want.iter().fold(0f64, |m, w| m.max(w.abs()));
    let mut errors = Vec::new();
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let err = (f64::from(g) - w).abs();
        if g.is_nan() || err > tol * peak || err > tol * magnitude[i] {
            errors.push(format!("[{i}] = {g}, want {w} (error {err:.3e})"));
        }
    }
    verdict(got, want.len(), errors).map_err(|e| format!("{e} (tol {tol:e})"))
}

fn load<'a, 'c>(device: &'a Device, kernel: &'a Kernel<'c>) -> Result<Specializing<'a>, String> {
    Ok(Specializing::new(device, kernel))
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Sums every row of an `m x n` view stored as `storage` with `row_sum`
/// (`BLOCK_N = block_n`, inputs of `dtype`) and compares.
pub fn row_sum_case(
    device: &Device,
    m: usize,
    n: usize,
    storage: Storage,
    dtype: DType,
    block_n: i64,
) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = row_sum::row_sum(&context, block_n, dtype).map_err(err)?;
    let loaded = load(device, &kernel)?;
    let (len, sm, sn) = storage.layout(m, n);
    let a = Input::new(device, len, (m * 13 + n) as u64, dtype)?;
    let out = device.upload(&poisoned(m)).map_err(err)?;
    let args = [
        a.arg(),
        Arg::from(&out),
        Arg::from(m as i32),
        Arg::from(n as i32),
        Arg::from(sm as i64),
        Arg::from(sn as i64),
    ];
    loaded.launch(m as u32, &args).map_err(err)?;
    let (want, magnitude) = row_sums(&a.values, m, n, sm, sn);
    compare_close(
        &device.download(&out).map_err(err)?,
        &want,
        &magnitude,
        tolerance(dtype),
    )
}

/// Row sums and sums of magnitudes of an `m x n` view, in f64.
fn row_sums(a: &[f32], m: usize, n: usize, sm: usize, sn: usize) -> (Vec<f64>, Vec<f64>) {
    (0..m)
        .map(|i| sum((0..n).map(|j| f64::from(a[i * sm + j * sn]))))
        .unzip()
}

/// The row sum over more than 2^31 elements: `m x 1024` bf16 with
/// `m = 2^21 + 3` (4.3 GB), through the block pointer's 64-bit addresses.
pub fn row_sum_beyond_2_31_case(device: &Device) -> Outcome {
    let (m, n) = ((1usize << 21) + 3, 1024usize);
    debug_assert!(m * n > 1 << 31);
    row_sum_case(device, m, n, Storage::Contiguous, DType::BF16, 1024)
}

/// The seed's weighted sum forward on `rows x d` stored as `storage`
/// (`D_TILE = next_pow2(d) / 16`, `ROWS_TILE = 16`), and compares.
pub fn weighted_sum_fwd_case(
    device: &Device,
    rows: usize,
    d: usize,
    storage: Storage,
    dtype: DType,
) -> Outcome {
    let context = tile::context().map_err(err)?;
    let d_tile = weighted_sum::d_tile_for(d);
    let rows_tile = weighted_sum::ROWS_TILE;
    let kernel = weighted_sum::weighted_sum_fwd(&context, rows_tile, d_tile, dtype).map_err(err)?;
    let loaded = load(device, &kernel)?;
    let (len, sr, sd) = storage.layout(rows, d);
    let x = Input::new(device, len, (rows * 3 + d) as u64, dtype)?;
    let w = Input::new(device, d, d as u64 + 99, dtype)?;
    let out = device.upload(&poisoned(rows)).map_err(err)?;
    let args = [
        x.arg(),
        w.arg(),
        Arg::from(&out),
        Arg::from(sr as i64),
        Arg::from(sd as i64),
        Arg::from(1i64),
        Arg::from(1i64),
        Arg::from(rows as i32),
        Arg::from(d as i32),
    ];
    let grid = rows.div_ceil(rows_tile as usize) as u32;
    loaded.launch(grid, &args).map_err(err)?;
    let (want, magnitude): (Vec<f64>, Vec<f64>) = (0..rows)
        .map(|r| sum((0..d).map(|c| f64::from(x.values[r * sr + c * sd]) * f64::from(w.values[c]))))
        .unzip();
    compare_close(
        &device.download(&out).map_err(err)?,
        &want,
        &magnitude,
        tolerance(dtype),
    )
}

/// The seed's weighted sum backward on `rows x d` stored as `storage`:
/// `grad_x` is compared bit for bit (each element is one f32 product), the
/// partial weight gradients (one row per program) are reduced afterwards
/// by `row_sum` over their virtual transpose (strides `(1, d)`), and that
/// `grad_weight` is compared with the f64 reference.
pub fn weighted_sum_bwd_case(
    device: &Device,
    rows: usize,
    d: usize,
    storage: Storage,
    dtype: DType,
) -> Outcome {
    let context = tile::context().map_err(err)?;
    let d_tile = weighted_sum::d_tile_for(d);
    let rows_tile = weighted_sum::ROWS_TILE;
    let kernel = weighted_sum::weighted_sum_bwd(&context, rows_tile, d_tile, dtype).map_err(err)?;
    let loaded = load(device, &kernel)?;
    let programs = rows.div_ceil(rows_tile as usize);
    let (len, sr, sd) = storage.layout(rows, d);
    let x = Input::new(device, len, (rows * 5 + d) as u64, dtype)?;
    let w = Input::new(device, d, d as u64 + 7, dtype)?;
    let g = Input::new(device, rows, rows as u64 + 11, dtype)?;
    let grad_x = device.upload(&poisoned(rows * d)).map_err(err)?;
    let partial = device.upload(&poisoned(programs * d)).map_err(err)?;
    let args = [
        x.arg(),
        w.arg(),
        g.arg(),
        Arg::from(&grad_x),
        Arg::from(&partial),
        Arg::from(sr as i64),
        Arg::from(sd as i64),
        Arg::from(1i64),
        Arg::from(1i64),
        Arg::from(d as i64),
        Arg::from(1i64),
        Arg::from(d as i64),
        Arg::from(1i64),
        Arg::from(rows as i32),
        Arg::from(d as i32),
    ];
    loaded.launch(programs as u32, &args).map_err(err)?;
    let mut want_gx = vec![0f32; rows * d];
    for r in 0..rows {
        for c in 0..d {
            want_gx[r * d + c] = g.values[r] * w.values[c];
        }
    }
    compare(&device.download(&grad_x).map_err(err)?, &want_gx)
        .map_err(|e| format!("grad_x: {e}"))?;

    // grad_weight[c] = sum over programs of partial[p, c]: the row sum of
    // the (d x programs) transpose.
    let column_sum = row_sum::row_sum(&context, 128, DType::F32).map_err(err)?;
    let reduce = load(device, &column_sum)?;
    let grad_w = device.upload(&poisoned(d)).map_err(err)?;
    let args = [
        Arg::from(&partial),
        Arg::from(&grad_w),
        Arg::from(d as i32),
        Arg::from(programs as i32),
        Arg::from(1i64),
        Arg::from(d as i64),
    ];
    reduce.launch(d as u32, &args).map_err(err)?;
    let (want, magnitude): (Vec<f64>, Vec<f64>) = (0..d)
        .map(|c| {
            sum((0..rows).map(|r| f64::from(x.values[r * sr + c * sd]) * f64::from(g.values[r])))
        })
        .unzip();
    compare_close(
        &device.download(&grad_w).map_err(err)?,
        &want,
        &magnitude,
        tolerance(dtype),
    )
    .map_err(|e| format!("grad_weight: {e}"))
}

/// Row softmax of `rows x cols` (row stride `row_stride >= cols`) with
/// `BLOCK = block`; masked lanes read -inf. Compared element by element
/// with tolerance 1e-5 relative to each value.
pub fn softmax_case(
    device: &Device,
    rows: usize,
    cols: usize,
    row_stride: usize,
    block: i32,
) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = softmax::softmax(&context, block).map_err(err)?;
    let loaded = load(device, &kernel)?;
    let x = inputs(rows * row_stride, (rows * 17 + cols) as u64);
    let dx = device.upload(&x).map_err(err)?;
    let out = device.upload(&poisoned(rows * cols)).map_err(err)?;
    let args = [
        Arg::from(&dx),
        Arg::from(&out),
        Arg::from(row_stride as i32),
        Arg::from(cols as i32),
        Arg::from(cols as i32),
    ];
    loaded.launch(rows as u32, &args).map_err(err)?;
    let want: Vec<f64> = (0..rows)
        .flat_map(|r| softmax(&x[r * row_stride..r * row_stride + cols]))
        .collect();
    // Each value against itself: the tolerance is relative per element.
    let magnitude: Vec<f64> = want.iter().map(|w| w.abs()).collect();
    compare_close(
        &device.download(&out).map_err(err)?,
        &want,
        &magnitude,
        1e-5,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_rounds_to_nearest_even() {
        assert_eq!(bf16_bits(1.0), 0x3F80);
        assert_eq!(bf16_value(bf16_bits(-5.0)), -5.0);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to even (1).
        assert_eq!(bf16_bits(1.0 + 1.0 / 256.0), 0x3F80);
        // Just above halfway rounds up.
        assert_eq!(bf16_bits(1.0 + 1.0 / 256.0 + 1.0 / 65536.0), 0x3F81);
    }

    #[test]
    fn close_comparison_bounds_the_error_and_checks_the_guard() {
        let want = [100.0, -50.0, 0.5];
        let magnitude = [200.0, 60.0, 10.0];
        let mut got = poisoned(3);
        got[..3].copy_from_slice(&[100.0005, -50.0, 0.5]);
        assert!(compare_close(&got, &want, &magnitude, 1e-5).is_ok());
        // 1e-2 off: beyond 1e-5 of the peak (100).
        got[2] = 0.51;
        assert!(compare_close(&got, &want, &magnitude, 1e-5).is_err());
        // An element whose own terms are small must be accurate to them.
        got[2] = 0.5 + 5e-4;
        assert!(compare_close(&got, &want, &[200.0, 60.0, 1.0], 1e-5).is_err());
        got[2] = f32::NAN;
        assert!(compare_close(&got, &want, &magnitude, 1.0).is_err());
        got[2] = 0.5;
        got[3 + 5] = 0.0;
        let e = compare_close(&got, &want, &magnitude, 1e-5).unwrap_err();
        assert!(e.contains("guard [8]"), "{e}");
    }
}
