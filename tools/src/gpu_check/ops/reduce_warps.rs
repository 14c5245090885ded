//! Reductions whose warps' partials are combined by lanes (more than 16
//! partials a thread, `tile_passes` `simt/reduce/warps.rs`): the row sums
//! and column maxima of a `[16, 1024]` tile on 8 warps. Reduced along both
//! axes, the tile keeps its warps along the columns, where the loads put
//! them: with 16-byte vectors (the GPU's JIT specializes on aligned
//! buffers) 8 warps along the columns in f32 and i32, 4 in f16 (2 along
//! the rows), so each thread holds 16 or 8 rows and reads 128 or 32
//! partials; unspecialized (the interpreter's check), 8 warps and 16 rows.

use super::{EXACT, Num, check, epsilon, inputs, round, run_on_warps};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Kernel};

const ROWS: usize = 16;
const COLS: usize = 1024;
const WARPS: u32 = 8;

/// The kernel: `out[..ROWS]` the row sums, then the column maxima.
fn rows_and_columns(context: &melior::Context, d: DType) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "rows_and_columns", |k| {
        let p = k.arg_ptr("x", d);
        let o = k.arg_ptr("out", d);
        let _n = k.arg("n", DType::I32);
        let rows = k.arange(0, ROWS as i32);
        let cols = k.arange(0, COLS as i32);
        let offs = (rows * COLS as i32).expand_dims(1) + cols.expand_dims(0);
        let t = k.load(p + offs).build();
        k.store(o + rows, t.sum(1)).build();
        k.store(o + (cols + ROWS as i32), t.max(0)).build();
    })
}

/// The sums (within a few ulps of the sum of magnitudes for floats,
/// which accumulate in f32) and the maxima (exact), in f32, f16 and i32:
/// `(case, outcome)`.
pub fn partials_by_lanes(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in [DType::F32, DType::F16, DType::I32] {
        let x = inputs(d, 0, ROWS * COLS);
        let row = |r: usize| &x[r * COLS..(r + 1) * COLS];
        let sums: Vec<Num> = (0..ROWS)
            .map(|r| match d.is_float() {
                true => round(d, Num::Float(row(r).iter().map(|v| v.f()).sum())),
                false => Num::Int(row(r).iter().map(|v| v.i()).sum()),
            })
            .collect();
        let maxima: Vec<Num> = (0..COLS)
            .map(|c| {
                (0..ROWS)
                    .map(|r| x[r * COLS + c])
                    .reduce(|m, v| if v.f() > m.f() { v } else { m })
                    .expect("a column")
            })
            .collect();
        let outcome = rows_and_columns(context, d)
            .map_err(|e| e.to_string())
            .and_then(|kernel| {
                run_on_warps(device, &kernel, &[(d, x.clone())], d, ROWS + COLS, WARPS)
            })
            .and_then(|got| {
                check(d, &got[ROWS..], &maxima, EXACT)?;
                if !d.is_float() {
                    return check(d, &got[..ROWS], &sums, EXACT);
                }
                for r in 0..ROWS {
                    let magnitude: f64 = row(r).iter().map(|v| v.f().abs()).sum();
                    let bound =
                        4.0 * 2f64.powi(-23) * magnitude + 2.0 * epsilon(d) * sums[r].f().abs();
                    if (got[r].f() - sums[r].f()).abs() > bound {
                        return Err(format!("row {r}: {:?}, want {:?}", got[r], sums[r]));
                    }
                }
                Ok(())
            });
        out.push((
            format!("row sums and column maxima, {ROWS}x{COLS} on {WARPS} warps, {d}"),
            outcome,
        ));
    }
    out
}
