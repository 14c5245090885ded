//! Scans (`cumsum`, `cumprod`, running max and min) along either axis of
//! 2-D tiles of several shapes (within a warp, across warps, in several
//! chunks per thread, and axes narrower than the layout so that threads
//! hold copies), forwards and in reverse, in every type but i1. Integer
//! scans, max/min and float sums must be exact: the float inputs are
//! multiples of 1/8 small enough that every partial sum is exact in f32,
//! whatever the grouping. Float products may group their factors
//! differently from the left-to-right reference: within (n - 1) roundings
//! of the accumulator type, plus the final rounding.

use super::{EXACT, Num, check, epsilon, round, run};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Kernel, ScanKind};

/// The shapes swept: `(rows, cols)`.
const SHAPES: [(usize, usize); 6] = [(16, 32), (4, 1024), (2, 8), (128, 4), (1, 4096), (64, 64)];

/// Inputs of `d`: mixed signs for sums, max and min; close to 1 for float
/// products (so that 4096 of them stay finite and not tiny).
fn scan_inputs(d: DType, kind: ScanKind, n: usize) -> Vec<Num> {
    (0..n)
        .map(|i| {
            let k = ((i * 7919 + 13) % 61) as i128 - 30;
            let v = if !d.is_float() {
                Num::Int(if d == DType::I8 { k % 11 } else { k * 37 + 5 })
            } else if kind == ScanKind::Prod {
                Num::Float(1.0 + k as f64 / 512.0)
            } else {
                Num::Float(k as f64 * 0.375)
            };
            round(d, v)
        })
        .collect()
}

/// The reference, exact (i128, f64) and left to right, rounded once per
/// element; for floats also the bound each element must meet.
fn reference(
    x: &[Num],
    d: DType,
    kind: ScanKind,
    (rows, cols): (usize, usize),
    axis: usize,
    reverse: bool,
) -> (Vec<Num>, Vec<f64>) {
    let mut want = vec![Num::Int(0); x.len()];
    let mut bound = vec![0.0; x.len()];
    let (lines, len) = if axis == 0 {
        (cols, rows)
    } else {
        (rows, cols)
    };
    // f16/bf16 accumulate in f32.
    let acc_eps = if d == DType::F64 {
        2f64.powi(-52)
    } else {
        2f64.powi(-23)
    };
    for line in 0..lines {
        let mut order: Vec<usize> = (0..len)
            .map(|k| {
                if axis == 0 {
                    k * cols + line
                } else {
                    line * cols + k
                }
            })
            .collect();
        if reverse {
            order.reverse();
        }
        let mut acc: Option<Num> = None;
        for (step, &j) in order.iter().enumerate() {
            let v = x[j];
            acc = Some(match (acc, v) {
                (None, v) => v,
                (Some(Num::Int(a)), Num::Int(b)) => Num::Int(match kind {
                    ScanKind::Sum => round(d, Num::Int(a + b)).i(),
                    ScanKind::Prod => round(d, Num::Int(a.wrapping_mul(b))).i(),
                    ScanKind::Max => a.max(b),
                    ScanKind::Min => a.min(b),
                }),
                (Some(a), b) => Num::Float(match kind {
                    ScanKind::Sum => a.f() + b.f(),
                    ScanKind::Prod => a.f() * b.f(),
                    ScanKind::Max => a.f().max(b.f()),
                    ScanKind::Min => a.f().min(b.f()),
                }),
            });
            let a = acc.expect("set above");
            want[j] = round(d, a);
            if d.is_float() && kind == ScanKind::Prod {
                let steps = step as f64;
                bound[j] = (1.01 * acc_eps * steps + epsilon(d)) * a.f().abs();
            }
        }
    }
    (want, bound)
}

/// The kernel: load a `rows x cols` tile, scan it, store it.
fn kernel<'c>(
    context: &'c melior::Context,
    d: DType,
    kind: ScanKind,
    axis: usize,
    reverse: bool,
    (rows, cols): (usize, usize),
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, &format!("scan_{kind}_{axis}"), |k| {
        let p = k.arg_ptr("x", d);
        let o = k.arg_ptr("out", d);
        let _n = k.arg("n", DType::I32);
        let r = k.arange(0, rows as i32).expand_dims(1);
        let c = k.arange(0, cols as i32).expand_dims(0);
        let offs = r * cols as i32 + c;
        let t = k.load(p + offs).build();
        let s = match (kind, reverse) {
            (ScanKind::Sum, false) => t.cumsum(axis as i64),
            (ScanKind::Prod, false) => t.cumprod(axis as i64),
            _ => t.scan(kind, axis as i64, reverse),
        };
        k.store(o + offs, s).build();
    })
}

/// Every shape, axis, direction, kind and type: `(case, outcome)`.
pub fn scans(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    scans_where(context, device, |_| true)
}

/// One case in `one_in` of [`scans`] (see `ops::scans_sampled`).
pub fn scans_sampled(
    context: &melior::Context,
    device: &Device,
    one_in: usize,
) -> Vec<(String, Outcome)> {
    scans_where(context, device, |i| i.is_multiple_of(one_in.max(1)))
}

/// The other cases of [`scans`]: those [`scans_sampled`] leaves out.
pub fn scans_unsampled(
    context: &melior::Context,
    device: &Device,
    one_in: usize,
) -> Vec<(String, Outcome)> {
    scans_where(context, device, |i| !i.is_multiple_of(one_in.max(1)))
}

/// The cases of [`scans`] whose index in the sweep's order `keep` takes.
fn scans_where(
    context: &melior::Context,
    device: &Device,
    keep: impl Fn(usize) -> bool,
) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let mut index = 0usize;
    for shape in SHAPES {
        for d in DType::ARITHMETIC.into_iter().filter(|&d| d != DType::I1) {
            for kind in ScanKind::ALL {
                let x = scan_inputs(d, kind, shape.0 * shape.1);
                for axis in [0usize, 1] {
                    for reverse in [false, true] {
                        index += 1;
                        if !keep(index - 1) {
                            continue;
                        }
                        let (want, bound) = reference(&x, d, kind, shape, axis, reverse);
                        let outcome = kernel(context, d, kind, axis, reverse, shape)
                            .map_err(|e| e.to_string())
                            .and_then(|k| run(device, &k, &[(d, x.clone())], d, x.len()))
                            .and_then(|got| {
                                if !d.is_float() {
                                    return check(d, &got, &want, EXACT);
                                }
                                match got.iter().zip(&want).zip(&bound).position(|((g, w), b)| {
                                    let diff = (g.f() - w.f()).abs();
                                    diff.is_nan() || diff > *b
                                }) {
                                    None => Ok(()),
                                    Some(j) => Err(format!(
                                        "[{j}] = {:?}, want {:?} within {:e}",
                                        got[j], want[j], bound[j]
                                    )),
                                }
                            });
                        out.push((
                            format!(
                                "{kind} axis {axis} reverse={reverse} {}x{} {d}",
                                shape.0, shape.1
                            ),
                            outcome,
                        ));
                    }
                }
            }
        }
    }
    out
}
