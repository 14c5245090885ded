//! `argmax` and `argmin` along either axis of 2-D tiles of several shapes
//! (one warp's worth, across warps, and axes narrower than the layout, so
//! that threads hold copies), in every type but i1, on inputs full of ties
//! and, for floats, NaNs: the first index of the best element must come
//! back, a NaN beating every number (torch's rule).

use super::{EXACT, Num, check, round, run};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Kernel, ReduceKind};

/// The shapes swept: `(rows, cols)`.
const SHAPES: [(usize, usize); 5] = [(16, 32), (4, 1024), (2, 8), (128, 4), (1, 64)];

/// Inputs of `d` with many ties (values from a small set) and, for
/// floats, a NaN in some rows and columns.
fn tied_inputs(d: DType, rows: usize, cols: usize) -> Vec<Num> {
    (0..rows * cols)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            let k = ((r * 7 + c * 13) % 11) as i128 - 5;
            if d.is_float() && (r % 3 == 1) && (c * 5 + r) % 17 == 3 {
                return Num::Float(f64::NAN);
            }
            round(
                d,
                if d.is_float() {
                    Num::Float(k as f64)
                } else {
                    Num::Int(k)
                },
            )
        })
        .collect()
}

/// The reference: the first index of the best value along `axis`.
fn reference(x: &[Num], (rows, cols): (usize, usize), axis: usize, kind: ReduceKind) -> Vec<Num> {
    let (len, across) = if axis == 0 {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let at = |j: usize, i: usize| {
        if axis == 0 {
            x[i * cols + j]
        } else {
            x[j * cols + i]
        }
    };
    let max = kind == ReduceKind::ArgMax;
    let beats = |b: Num, a: Num| match (a, b) {
        (Num::Float(a), Num::Float(b)) => {
            !a.is_nan() && (b.is_nan() || if max { b > a } else { b < a })
        }
        (a, b) => {
            if max {
                b.i() > a.i()
            } else {
                b.i() < a.i()
            }
        }
    };
    (0..len)
        .map(|j| {
            let mut best = 0;
            for i in 1..across {
                if beats(at(j, i), at(j, best)) {
                    best = i;
                }
            }
            Num::Int(best as i128)
        })
        .collect()
}

/// The kernel: load a `rows x cols` tile, reduce it, store the indices.
fn kernel<'c>(
    context: &'c melior::Context,
    d: DType,
    kind: ReduceKind,
    axis: usize,
    keep_dims: bool,
    (rows, cols): (usize, usize),
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, &format!("{kind}_{axis}"), |k| {
        let p = k.arg_ptr("x", d);
        let o = k.arg_ptr("out", DType::I32);
        let _n = k.arg("n", DType::I32);
        let r = k.arange(0, rows as i32).expand_dims(1);
        let c = k.arange(0, cols as i32).expand_dims(0);
        let t = k.load(p + (r * cols as i32 + c)).build();
        let idx = if kind == ReduceKind::ArgMax {
            t.argmax(axis as i64, keep_dims)
        } else {
            t.argmin(axis as i64, keep_dims)
        };
        let along = if axis == 0 { cols } else { rows };
        let offs = k.arange(0, along as i32);
        let offs = if keep_dims {
            offs.expand_dims(axis as i64)
        } else {
            offs
        };
        k.store(o + offs, idx).build();
    })
}

/// Every shape, axis, kind and type: `(case, outcome)`.
pub fn arg_reductions(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for shape in SHAPES {
        for d in DType::ARITHMETIC.into_iter().filter(|&d| d != DType::I1) {
            let x = tied_inputs(d, shape.0, shape.1);
            for kind in [ReduceKind::ArgMax, ReduceKind::ArgMin] {
                for axis in [0usize, 1] {
                    // keep_dims on one axis only: it changes the result's
                    // layout, not the search.
                    let keep_dims = axis == 1 && d == DType::F32;
                    let want = reference(&x, shape, axis, kind);
                    let outcome = kernel(context, d, kind, axis, keep_dims, shape)
                        .map_err(|e| e.to_string())
                        .and_then(|k| run(device, &k, &[(d, x.clone())], DType::I32, want.len()))
                        .and_then(|got| check(DType::I32, &got, &want, EXACT));
                    out.push((
                        format!(
                            "{kind} axis {axis} keep_dims={keep_dims} {}x{} {d}",
                            shape.0, shape.1
                        ),
                        outcome,
                    ));
                }
            }
        }
    }
    out
}
