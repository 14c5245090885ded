//! Conversions between every pair of types, and reductions along every
//! axis in every type.

use super::{BLOCK, DTYPES, EXACT, N, Num, check, elementwise, epsilon, inputs, round, run};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Kernel, ReduceKind};

/// The reference of `to(to)` on a value of type `from`.
fn cast(from: DType, to: DType, v: Num) -> Num {
    match (from.is_float(), to.is_float()) {
        _ if to == DType::I1 => Num::Int(i128::from(v.f() != 0.0)),
        (true, true) => v,
        (false, true) if from == DType::I1 => Num::Float(v.i() as f64),
        (false, true) => Num::Float(v.i() as f64),
        (true, false) => {
            // Towards zero, saturating; NaN gives 0.
            let bits = to.bits();
            let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
            let x = v.f();
            Num::Int(if x.is_nan() {
                0
            } else {
                (x.trunc() as i128).clamp(lo, hi)
            })
        }
        (false, false) => v,
    }
}

/// `to(to)` from every type to every type (saturating float to integer
/// casts, towards zero; comparisons with zero to i1): `(case, outcome)`.
pub fn casts(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for from in DTYPES {
        let mut x = inputs(from, 0, BLOCK as usize);
        if from.is_float() {
            // Out of every integer range: saturation.
            x[1] = round(from, Num::Float(1.0e30_f64.min(f64::from(f32::MAX))));
            x[2] = round(from, Num::Float(-3.0e4));
        }
        for to in DTYPES {
            let want: Vec<Num> = x[..N]
                .iter()
                .map(|&v| round(to, cast(from, to, v)))
                .collect();
            let outcome = elementwise(context, "cast", &[from], to, |_, v| v[0].to(to))
                .map_err(|e| e.to_string())
                .and_then(|kernel| run(device, &kernel, &[(from, x.clone())], to, BLOCK as usize))
                .and_then(|got| check(to, &got[..N], &want, EXACT));
            out.push((format!("{from} to {to}"), outcome));
        }
    }
    out
}

/// The reduction of a `rows x cols` tile along `axis`.
fn reduction_kernel<'c>(
    context: &'c melior::Context,
    d: DType,
    kind: ReduceKind,
    axis: usize,
    keep_dims: bool,
    (rows, cols): (usize, usize),
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, &format!("{kind}_{axis}"), |k| {
        let p = k.arg_ptr("x", d);
        let o = k.arg_ptr("out", d);
        let _n = k.arg("n", DType::I32);
        let r = k.arange(0, rows as i32).expand_dims(1);
        let c = k.arange(0, cols as i32).expand_dims(0);
        let t = k.load(p + (r * cols as i32 + c)).build();
        let s = t.reduce(kind, axis as i64, keep_dims);
        let along = if axis == 0 { cols } else { rows };
        let offs = k.arange(0, along as i32);
        let offs = if keep_dims {
            offs.expand_dims(axis as i64)
        } else {
            offs
        };
        k.store(o + offs, s).build();
    })
}

/// Sum, max and min along both axes of a 16x32 tile, with and without
/// `keep_dims`, in every type but i1: `(case, outcome)`. Float sums may
/// group differently from the exact sum (pairwise, by layout; f16 and
/// bf16 accumulate in f32): within a few ulps of the sum of magnitudes.
pub fn reductions(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let (rows, cols) = (16usize, 32usize);
    let mut out = Vec::new();
    for d in DTYPES.into_iter().filter(|&d| d != DType::I1) {
        let x = inputs(d, 0, rows * cols);
        for kind in [ReduceKind::Sum, ReduceKind::Max, ReduceKind::Min] {
            for axis in [0usize, 1] {
                for keep_dims in [false, true] {
                    let len = if axis == 0 { cols } else { rows };
                    let across = if axis == 0 { rows } else { cols };
                    let at = |j: usize, i: usize| {
                        if axis == 0 {
                            x[i * cols + j]
                        } else {
                            x[j * cols + i]
                        }
                    };
                    let want: Vec<Num> = (0..len)
                        .map(|j| {
                            let items = (0..across).map(|i| at(j, i));
                            let v = match (kind, d.is_float()) {
                                (ReduceKind::Sum, true) => Num::Float(items.map(Num::f).sum()),
                                (ReduceKind::Sum, false) => Num::Int(items.map(Num::i).sum()),
                                (ReduceKind::Max, _) => items
                                    .reduce(|m, v| if v.f() > m.f() { v } else { m })
                                    .expect("a row"),
                                (ReduceKind::Min, _) => items
                                    .reduce(|m, v| if v.f() < m.f() { v } else { m })
                                    .expect("a row"),
                                (ReduceKind::ArgMax | ReduceKind::ArgMin, _) => {
                                    unreachable!("swept by argmax.rs")
                                }
                            };
                            round(d, v)
                        })
                        .collect();
                    let outcome = reduction_kernel(context, d, kind, axis, keep_dims, (rows, cols))
                        .map_err(|e| e.to_string())
                        .and_then(|kernel| run(device, &kernel, &[(d, x.clone())], d, len))
                        .and_then(|got| {
                            if kind != ReduceKind::Sum || !d.is_float() {
                                return check(d, &got, &want, EXACT);
                            }
                            let magnitude: f64 = x.iter().map(|v| v.f().abs()).sum();
                            let eps = epsilon(d).max(2f64.powi(-23));
                            let bound = 4.0 * eps * magnitude / len as f64;
                            match got.iter().zip(&want).position(|(g, w)| {
                                (g.f() - w.f()).abs() > bound + 2.0 * epsilon(d) * w.f().abs()
                            }) {
                                None => Ok(()),
                                Some(j) => Err(format!("[{j}] = {:?}, want {:?}", got[j], want[j])),
                            }
                        });
                    out.push((
                        format!("{kind} axis {axis} keep_dims={keep_dims} {d}"),
                        outcome,
                    ));
                }
            }
        }
    }
    out
}
