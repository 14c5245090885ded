//! Ours on one style case: the operands (rounded to the type as the
//! kernel reads them), the grid, the check of sampled outputs against the
//! f64 reference, and the fastest of the configurations ([`ours`]).

use super::{BATCH, SPLITS, StyleCase, StyleRun};
use crate::elements::{decode, rounding};
use crate::gpu_check::inputs;
use crate::reference::{sampled_points, sum};
use crate::timing::{Timer, compile_and_load, fastest, specialized};
use tile::{Arg, Buffer, Device};
use tile_dialect::DType;
use tile_examples::matmul_styles::{self, Style, output_type};

/// A case's inputs on the device and on the host (as the kernel reads
/// them: rounded to the type, cut to TF32 for f32).
struct Operands {
    a: Vec<f32>,
    b: Vec<f32>,
    da: Buffer<u8>,
    db: Buffer<u8>,
    dc: Buffer<u8>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The bytes of `values` in `d`, and the values as stored.
fn encode(d: DType, values: &[f32]) -> (Vec<u8>, Vec<f32>) {
    let mut bytes = Vec::with_capacity(values.len() * (d.bits() / 8) as usize);
    let mut seen = Vec::with_capacity(values.len());
    for &x in values {
        match d {
            DType::F16 => {
                let h = half::f16::from_f32(x);
                bytes.extend(h.to_bits().to_le_bytes());
                seen.push(h.to_f32());
            }
            DType::BF16 => {
                let h = half::bf16::from_f32(x);
                bytes.extend(h.to_bits().to_le_bytes());
                seen.push(h.to_f32());
            }
            DType::I8 => {
                let i = (x / 2.0).floor().clamp(-4.0, 3.0) as i8;
                bytes.push(i as u8);
                seen.push(f32::from(i));
            }
            _ => {
                bytes.extend(x.to_le_bytes());
                seen.push(crate::gpu_check::matmul::tf32(x));
            }
        }
    }
    (bytes, seen)
}

impl Operands {
    fn new(device: &Device, case: &StyleCase) -> Result<Operands, String> {
        let batch = case.batch();
        let (m, n, k) = (case.m, case.n, case.k);
        let (a_bytes, a) = encode(case.dtype, &inputs(batch * m * k, 41));
        let (b_bytes, b) = encode(case.dtype, &inputs(batch * k * n, 43));
        let out_bytes = (output_type(case.style, case.dtype).bits() / 8) as usize;
        Ok(Operands {
            da: device.upload(&a_bytes).map_err(err)?,
            db: device.upload(&b_bytes).map_err(err)?,
            dc: device.alloc(batch * m * n * out_bytes).map_err(err)?,
            a,
            b,
        })
    }

    fn args(&self, case: &StyleCase) -> Vec<Arg> {
        let (m, n, k) = (case.m, case.n, case.k);
        let mut args = vec![
            Arg::from(&self.da),
            Arg::from(&self.db),
            Arg::from(&self.dc),
        ];
        // B [K, N] row-major, or [N, K] (strides bn, bk) for A @ B^T.
        let (b0, b1) = if case.style == Style::TransposedB {
            (k, 1)
        } else {
            (n, 1)
        };
        args.extend([m, n, k, k, 1, b0, b1, n, 1].map(|x| Arg::from(x as i32)));
        if case.style == Style::Batched {
            args.extend([m * k, k * n, m * n].map(|x| Arg::from(x as i32)));
        }
        args
    }

    /// B's element (kk, j) of product `p`.
    fn b_at(&self, case: &StyleCase, p: usize, kk: usize, j: usize) -> f32 {
        let (n, k) = (case.n, case.k);
        let i = if case.style == Style::TransposedB {
            j * k + kk
        } else {
            kk * n + j
        };
        self.b[p * k * n + i]
    }

    /// Checks 256 sampled outputs (and the corners) of the last product
    /// against the f64 reference: within one rounding of the output type
    /// plus 1e-4 of the sum of the terms' magnitudes; i8 exactly.
    fn check(&self, device: &Device, case: &StyleCase) -> Result<(), String> {
        let raw: Vec<u8> = device.download(&self.dc).map_err(err)?;
        let (m, n, k) = (case.m, case.n, case.k);
        let p = case.batch() - 1;
        let out = output_type(case.style, case.dtype);
        let bytes = (out.bits() / 8) as usize;
        let at = |i: usize| decode(out, &raw[(p * m * n + i) * bytes..]);
        for (i, j) in sampled_points(m, n, 256) {
            let (want, magnitude) = sum((0..k).map(|kk| {
                f64::from(self.a[p * m * k + i * k + kk]) * f64::from(self.b_at(case, p, kk, j))
            }));
            let got = at(i * n + j);
            let allowed = if out == DType::I32 {
                0.0
            } else {
                want.abs() * rounding(out) + 1e-4 * magnitude
            };
            if !got.is_finite() || (got - want).abs() > allowed {
                return Err(format!("C[{i}, {j}] = {got}, want {want}"));
            }
        }
        Ok(())
    }
}

/// The grid of `case` with `run`'s tiles (`sms` programs for a
/// persistent kernel).
fn grid(case: &StyleCase, run: &StyleRun, sms: u32) -> (u32, u32) {
    tile_examples::matmul_styles::grid(
        case.style,
        &run.tiles,
        (case.m, case.n),
        BATCH as u32,
        SPLITS,
        sms,
    )
}

/// Our best time on `case` over `runs`, and the configuration; one that
/// fails to compile, load or check is reported and skipped.
pub fn ours(
    device: &Device,
    case: &StyleCase,
    runs: &[StyleRun],
    timer: &mut Timer,
    sms: u32,
) -> Result<(f64, StyleRun), String> {
    let context = tile::context().map_err(err)?;
    let mut operands = Operands::new(device, case)?;
    let args = operands.args(case);
    let label = format!(
        "{} {} {}",
        case.style.name(),
        case.dtype_name(),
        case.size()
    );
    fastest(&label, runs, StyleRun::name, |run| {
        let kernel =
            matmul_styles::kernel(&context, case.style, run.tiles, case.dtype).map_err(err)?;
        let options = specialized(run.warps, run.stages, &args);
        let loaded = compile_and_load(device, &kernel, &options)?;
        let g = grid(case, &run, sms);
        // Split-K adds into C.
        device.zero_async(&mut operands.dc).map_err(err)?;
        loaded.launch(g, &args).map_err(err)?;
        operands.check(device, case)?;
        timer.median_ms(|| loaded.launch_async(g, &args))
    })
    .map_err(|errors| errors.join("; "))
}
