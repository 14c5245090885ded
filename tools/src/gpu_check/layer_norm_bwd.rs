//! LayerNorm backward, both ways the examples write it, against the `f64`
//! reference: with `DW` and `DB` added by `atomic_add`
//! (`tile_examples::layer_norm_bwd`), and as Triton's tutorial 05 does,
//! with partial sums under spin locks and a second kernel summing them
//! (`tile_examples::layer_norm_bwd_grouped`). `DX` must be within 1e-5
//! (relative to max(1, |dx|)); `DW` and `DB` within 2e-5 of each column's
//! sum of term magnitudes (a sum missing one row's term, about 1/rows of
//! it, fails).

use super::{Outcome, inputs};
use tile::{Arg, Buffer, Device, Options};
use tile_examples::{layer_norm_bwd, layer_norm_bwd_grouped};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The inputs of one case, uploaded, and the outputs' buffers.
struct Case {
    rows: usize,
    n: usize,
    x: Vec<f32>,
    dy: Vec<f32>,
    w: Vec<f32>,
    mean: Vec<f32>,
    rstd: Vec<f32>,
    /// `X`, `DY`, `W`, `Mean`, `Rstd` on the device.
    inputs: [Buffer<f32>; 5],
    /// `DX`, poisoned with NaN.
    dx: Buffer<f32>,
}

impl Case {
    fn new(device: &Device, rows: usize, n: usize) -> Result<Case, String> {
        let x = inputs(rows * n, 41);
        let dy = inputs(rows * n, 43);
        let w = inputs(n, 47);
        let mut mean = Vec::with_capacity(rows);
        let mut rstd = Vec::with_capacity(rows);
        for r in 0..rows {
            let row = &x[r * n..(r + 1) * n];
            let mu = row.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
            let var = row
                .iter()
                .map(|&v| (f64::from(v) - mu).powi(2))
                .sum::<f64>()
                / n as f64;
            mean.push(mu as f32);
            rstd.push((1.0 / (var + 1e-5).sqrt()) as f32);
        }
        let up = |v: &[f32]| device.upload(v).map_err(err);
        let inputs = [up(&x)?, up(&dy)?, up(&w)?, up(&mean)?, up(&rstd)?];
        let dx = up(&vec![f32::NAN; rows * n])?;
        Ok(Case {
            rows,
            n,
            x,
            dy,
            w,
            mean,
            rstd,
            inputs,
            dx,
        })
    }

    /// The arguments both first kernels begin with: `X`, `DY`, `DX`, `W`,
    /// `Mean`, `Rstd`.
    fn row_args(&self) -> Vec<Arg> {
        let [x, dy, w, mean, rstd] = &self.inputs;
        vec![
            Arg::from(x),
            Arg::from(dy),
            Arg::from(&self.dx),
            Arg::from(w),
            Arg::from(mean),
            Arg::from(rstd),
        ]
    }

    /// The block covering a row (a power of two, at least 128).
    fn block(&self) -> i32 {
        (self.n.next_power_of_two() as i32).max(128)
    }

    /// Checks `DX` and the gradients in `dw` and `db` (`n` each).
    fn check(&self, device: &Device, dw: &Buffer<f32>, db: &Buffer<f32>) -> Outcome {
        let (rows, n) = (self.rows, self.n);
        let (x, dy) = (&self.x, &self.dy);
        let (want_dx, want_dw, want_db) =
            layer_norm_bwd::reference(x, dy, &self.w, &self.mean, &self.rstd, (rows, n));
        let got_dx = device.download(&self.dx).map_err(err)?;
        for (i, (&g, &want)) in got_dx.iter().zip(&want_dx).enumerate() {
            let diff = (f64::from(g) - want).abs();
            if diff.is_nan() || diff > 1e-5 * want.abs().max(1.0) {
                return Err(format!("DX[{i}] = {g}, want {want}"));
            }
        }
        // Per column, the sums of |dy * x_hat| and of |dy|.
        let mut mag_dw = vec![0.0f64; n];
        let mut mag_db = vec![0.0f64; n];
        for r in 0..rows {
            for c in 0..n {
                let d = f64::from(dy[r * n + c]);
                let xhat =
                    (f64::from(x[r * n + c]) - f64::from(self.mean[r])) * f64::from(self.rstd[r]);
                mag_dw[c] += (d * xhat).abs();
                mag_db[c] += d.abs();
            }
        }
        for (name, buf, want, mag) in [("DW", dw, &want_dw, &mag_dw), ("DB", db, &want_db, &mag_db)]
        {
            let got: Vec<f32> = device.download(buf).map_err(err)?;
            if got.len() < n {
                return Err(format!("{name} has {} elements, want {n}", got.len()));
            }
            for (c, (&g, &want)) in got.iter().zip(want).enumerate() {
                let bound = 2e-5 * mag[c] + 1e-6;
                let diff = (f64::from(g) - want).abs();
                if diff.is_nan() || diff > bound {
                    return Err(format!("{name}[{c}] = {g}, want {want}"));
                }
            }
        }
        Ok(())
    }
}

/// `tile_examples::layer_norm_bwd` on `rows x n`.
pub fn atomic_add_case(device: &Device, rows: usize, n: usize) -> Outcome {
    let case = Case::new(device, rows, n)?;
    let context = tile::context().map_err(err)?;
    let kernel = layer_norm_bwd::layer_norm_bwd(&context, case.block()).map_err(err)?;
    let jit = tile::jit(&kernel, Options::with_warps(layer_norm_bwd::NUM_WARPS)).map_err(err)?;
    let dw = device.upload(&vec![0.0f32; n]).map_err(err)?;
    let db = device.upload(&vec![0.0f32; n]).map_err(err)?;
    let mut args = case.row_args();
    args.extend([
        Arg::from(&dw),
        Arg::from(&db),
        Arg::from(n as i32),
        Arg::from(rows as i32),
        Arg::from(n as i32),
    ]);
    let programs = layer_norm_bwd::PROGRAMS.min(rows) as u32;
    jit.launch(device, programs, &args).map_err(err)?;
    case.check(device, &dw, &db)
}

/// `tile_examples::layer_norm_bwd_grouped` on `rows x n`: one program per
/// row contending for `GROUP` locks, then the partial sums summed.
pub fn grouped_case(device: &Device, rows: usize, n: usize) -> Outcome {
    use layer_norm_bwd_grouped::{GROUP, SUM_BLOCK, dwdb, dx_fused};
    let case = Case::new(device, rows, n)?;
    let context = tile::context().map_err(err)?;
    let first = dx_fused(&context, case.block(), GROUP).map_err(err)?;
    let first = tile::jit(&first, Options::with_warps(layer_norm_bwd::NUM_WARPS)).map_err(err)?;
    let second = dwdb(&context, SUM_BLOCK).map_err(err)?;
    let second = tile::jit(&second, Options::default()).map_err(err)?;
    let group = GROUP as usize;
    // Partial sums poisoned: each must be written before it is read.
    let partial_dw = device.upload(&vec![f32::NAN; group * n]).map_err(err)?;
    let partial_db = device.upload(&vec![f32::NAN; group * n]).map_err(err)?;
    let lock = device.upload(&vec![0i32; 2 * group]).map_err(err)?;
    let dw = device.upload(&vec![f32::NAN; n]).map_err(err)?;
    let db = device.upload(&vec![f32::NAN; n]).map_err(err)?;
    let mut args = case.row_args();
    args.extend([
        Arg::from(&partial_dw),
        Arg::from(&partial_db),
        Arg::from(&lock),
        Arg::from(n as i32),
        Arg::from(n as i32),
    ]);
    first.launch(device, rows as u32, &args).map_err(err)?;
    // Every lock released, and every partial sum some row wrote marked.
    let locks: Vec<i32> = device.download(&lock).map_err(err)?;
    let used = rows.min(group);
    if locks[..group].iter().any(|&l| l != 0)
        || locks[group..]
            .iter()
            .enumerate()
            .any(|(i, &c)| c != i32::from(i < used))
    {
        return Err(format!(
            "locks and counts after the first kernel: {locks:?}"
        ));
    }
    let args = [
        Arg::from(&partial_dw),
        Arg::from(&partial_db),
        Arg::from(&dw),
        Arg::from(&db),
        Arg::from(used as i32),
        Arg::from(n as i32),
    ];
    let programs = n.div_ceil(SUM_BLOCK[1] as usize) as u32;
    second.launch(device, programs, &args).map_err(err)?;
    case.check(device, &dw, &db)
}
