//! Our matmul on one case: the operands (rounded to the case's type), the
//! check of sampled outputs against the f64 reference, and the fastest of
//! the configurations tried ([`ours`]).

use super::{Case, Config};
use crate::elements::{from_bits, to_bits};
use crate::gpu_check::inputs;
use crate::reference::{sampled_points, sum};
use crate::timing::{Timer, compile_and_load, fastest, specialized};
use tile::{Arg, Buffer, Device};
use tile_dialect::DType;
use tile_examples::matmul::{self, Epilogue};

/// A case's inputs on the device and on the host.
struct Operands {
    a: Vec<f32>,
    b: Vec<f32>,
    da: Buffer<u16>,
    db: Buffer<u16>,
    dc: Buffer<u16>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl Operands {
    fn new(device: &Device, case: &Case) -> Result<Operands, String> {
        let d = case.dtype;
        let round = |v: Vec<f32>| -> (Vec<f32>, Vec<u16>) {
            let bits: Vec<u16> = v.iter().map(|&x| to_bits(d, x / 8.0)).collect();
            (bits.iter().map(|&b| from_bits(d, b)).collect(), bits)
        };
        let (a, a_bits) = round(inputs(case.m * case.k, 41));
        let (b, b_bits) = round(inputs(case.k * case.n, 43));
        Ok(Operands {
            da: device.upload(&a_bits).map_err(err)?,
            db: device.upload(&b_bits).map_err(err)?,
            dc: device.alloc(case.m * case.n).map_err(err)?,
            a,
            b,
        })
    }

    fn args(&self, case: &Case) -> Vec<Arg> {
        let (m, n, k) = (case.m, case.n, case.k);
        let mut args = vec![
            Arg::from(&self.da),
            Arg::from(&self.db),
            Arg::from(&self.dc),
        ];
        args.extend([m as i32, n as i32, k as i32].map(Arg::from));
        args.extend([k, 1, n, 1, n, 1].map(|s| Arg::from(s as i64)));
        args
    }

    /// Checks 1024 sampled outputs (and the corners) against the f64
    /// reference: within one unit of the output type's last place, plus
    /// 1e-4 of the sum of the terms' magnitudes (the f32 accumulation).
    fn check(&self, device: &Device, case: &Case) -> Result<(), String> {
        let c: Vec<u16> = device.download(&self.dc).map_err(err)?;
        let (m, n, k) = (case.m, case.n, case.k);
        let ulp = if case.dtype == DType::BF16 {
            2f64.powi(-7)
        } else {
            2f64.powi(-10)
        };
        for (i, j) in sampled_points(m, n, 1024) {
            let terms =
                (0..k).map(|kk| f64::from(self.a[i * k + kk]) * f64::from(self.b[kk * n + j]));
            let (want, magnitude) = sum(terms);
            let got = f64::from(from_bits(case.dtype, c[i * n + j]));
            if !got.is_finite() || (got - want).abs() > want.abs() * ulp + 1e-4 * magnitude {
                return Err(format!("C[{i}, {j}] = {got}, want {want}"));
            }
        }
        Ok(())
    }
}

/// Our best time on `case` over `configs`, and its configuration; a
/// configuration that fails to compile, load or check is skipped, and the
/// errors are returned when none ran.
pub fn ours(
    device: &Device,
    case: &Case,
    configs: &[Config],
    timer: &mut Timer,
) -> Result<(f64, Config), String> {
    let context = tile::context().map_err(err)?;
    let operands = Operands::new(device, case)?;
    let args = operands.args(case);
    let label = format!("{} {}", case.dtype_name(), case.size());
    fastest(&label, configs, Config::name, |config| {
        let kernel = matmul::matmul(
            &context,
            config.tiles,
            case.dtype,
            case.dtype,
            None,
            Epilogue::None,
        )
        .map_err(err)?;
        let options = specialized(config.warps, config.stages, &args);
        let loaded = compile_and_load(device, &kernel, &options)?;
        let t = &config.tiles;
        let grid =
            (case.m.div_ceil(t.block_m as usize) * case.n.div_ceil(t.block_n as usize)) as u32;
        loaded.launch(grid, &args).map_err(err)?;
        operands.check(device, case)?;
        timer.median_ms(|| loaded.launch_async(grid, &args))
    })
    .map_err(|errors| errors.join("; "))
}
