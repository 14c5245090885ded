//! The ops that move elements (reshape, permute and trans, join, split,
//! cat) in every element type, over shapes from 8 to 4096 elements in
//! 1 to 3 axes (tiles smaller than the 128 threads, whose threads hold
//! copies, and tiles of many registers per thread), plus a tensor of
//! pointers moved before the load. Every result must be exact: the
//! reference is a plain index map over the result's elements.

use super::{EXACT, Num, check, inputs, run};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Kernel, KernelBuilder, Tile};

/// What a case does to its input tiles.
#[derive(Clone, Debug)]
enum Move {
    /// To this shape.
    Reshape(Vec<i64>),
    /// With this order.
    Permute(Vec<i64>),
    /// Two inputs of the shape, joined.
    Join,
    /// Split; both halves stored, the first then the second.
    Split,
    /// Two inputs of the shape, concatenated along the axis.
    Cat(usize),
    /// Two 1-D inputs joined and flattened: interleaved.
    Interleave,
}

/// The cases: input shape and move.
fn cases() -> Vec<(Vec<i64>, Move)> {
    use Move::*;
    vec![
        (vec![256], Reshape(vec![16, 16])),
        (vec![16, 16], Reshape(vec![256])),
        (vec![4, 64], Reshape(vec![16, 4, 4])),
        (vec![2, 8, 16], Reshape(vec![32, 8])),
        (vec![32, 4], Reshape(vec![4, 32])),
        (vec![8], Reshape(vec![2, 4])),
        (vec![1024], Reshape(vec![32, 32])),
        (vec![16, 32], Permute(vec![1, 0])),
        (vec![64, 64], Permute(vec![1, 0])),
        (vec![128, 2], Permute(vec![1, 0])),
        (vec![4, 8, 16], Permute(vec![2, 0, 1])),
        (vec![4, 8, 16], Permute(vec![1, 2, 0])),
        (vec![4, 8, 16], Permute(vec![0, 2, 1])),
        (vec![64], Join),
        (vec![8, 16], Join),
        (vec![4], Join),
        (vec![64, 2], Split),
        (vec![4, 16, 2], Split),
        (vec![2048, 2], Split),
        (vec![32], Cat(0)),
        (vec![8, 16], Cat(0)),
        (vec![8, 16], Cat(1)),
        (vec![4, 4, 8], Cat(2)),
        (vec![128], Interleave),
    ]
}

/// Row-major offsets of a tile of `shape` (rank 1 to 3).
fn offsets<'k>(k: &'k KernelBuilder<'k>, shape: &[i64]) -> Tile<'k> {
    let rank = shape.len();
    let mut stride = 1i64;
    let mut total: Option<Tile<'k>> = None;
    for axis in (0..rank).rev() {
        let mut idx = k.arange(0, shape[axis] as i32) * stride as i32;
        for _ in 0..axis {
            idx = idx.expand_dims(0);
        }
        for r in axis + 1..rank {
            idx = idx.expand_dims(r as i64);
        }
        total = Some(match total {
            None => idx,
            Some(t) => t + idx,
        });
        stride *= shape[axis];
    }
    total.expect("a tile has an axis").broadcast_to(shape)
}

/// Row-major strides of `shape`.
fn strides(shape: &[i64]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for a in (0..shape.len().saturating_sub(1)).rev() {
        s[a] = s[a + 1] * shape[a + 1] as usize;
    }
    s
}

/// The index of row-major position `flat` in `shape`.
fn coords(mut flat: usize, shape: &[i64]) -> Vec<usize> {
    let mut at = vec![0; shape.len()];
    for a in (0..shape.len()).rev() {
        at[a] = flat % shape[a] as usize;
        flat /= shape[a] as usize;
    }
    at
}

fn count(shape: &[i64]) -> usize {
    shape.iter().product::<i64>() as usize
}

/// The inputs a move takes (one or two tiles of `shape`).
fn operands(m: &Move) -> usize {
    match m {
        Move::Join | Move::Cat(_) | Move::Interleave => 2,
        _ => 1,
    }
}

/// The reference: the stored elements, in order.
fn reference(shape: &[i64], m: &Move, x: &[Vec<Num>]) -> Vec<Num> {
    let n = count(shape);
    match m {
        Move::Reshape(_) => x[0].clone(),
        Move::Permute(order) => {
            let out: Vec<i64> = order.iter().map(|&a| shape[a as usize]).collect();
            let st = strides(shape);
            (0..n)
                .map(|flat| {
                    let at = coords(flat, &out);
                    let src: usize = order
                        .iter()
                        .zip(&at)
                        .map(|(&a, &i)| i * st[a as usize])
                        .sum();
                    x[0][src]
                })
                .collect()
        }
        Move::Join | Move::Interleave => (0..2 * n).map(|i| x[i % 2][i / 2]).collect(),
        Move::Split => {
            let lo = (0..n / 2).map(|i| x[0][2 * i]);
            let hi = (0..n / 2).map(|i| x[0][2 * i + 1]);
            lo.chain(hi).collect()
        }
        Move::Cat(axis) => {
            let mut out = shape.to_vec();
            out[*axis] *= 2;
            let st = strides(shape);
            (0..2 * n)
                .map(|flat| {
                    let mut at = coords(flat, &out);
                    let second = at[*axis] >= shape[*axis] as usize;
                    if second {
                        at[*axis] -= shape[*axis] as usize;
                    }
                    let src: usize = at.iter().zip(&st).map(|(i, s)| i * s).sum();
                    x[usize::from(second)][src]
                })
                .collect()
        }
    }
}

/// The kernel: loads the inputs at row-major offsets of `shape`, moves
/// them, stores the result(s) at row-major offsets of their shape.
fn kernel<'c>(
    context: &'c melior::Context,
    d: DType,
    shape: &[i64],
    m: &Move,
    case: usize,
) -> Result<Kernel<'c>, tile::IrError> {
    Kernel::build(context, &format!("rearrange_{case}_{d}"), |k| {
        let ins: Vec<_> = (0..operands(m))
            .map(|i| k.arg_ptr(&format!("x{i}"), d))
            .collect();
        let o = k.arg_ptr("out", d);
        let _n = k.arg("n", DType::I32);
        let offs = offsets(k, shape);
        let t: Vec<Tile> = ins.iter().map(|&p| k.load(p + offs).build()).collect();
        match m {
            Move::Reshape(to) => {
                k.store(o + offsets(k, to), t[0].reshape(to)).build();
            }
            Move::Permute(order) => {
                let moved = if order == &[1, 0] {
                    t[0].trans()
                } else {
                    t[0].permute(order)
                };
                let to: Vec<i64> = order.iter().map(|&a| shape[a as usize]).collect();
                k.store(o + offsets(k, &to), moved).build();
            }
            Move::Join => {
                let mut to = shape.to_vec();
                to.push(2);
                k.store(o + offsets(k, &to), t[0].join(t[1])).build();
            }
            Move::Split => {
                let (lo, hi) = t[0].split();
                let half = &shape[..shape.len() - 1];
                let at = offsets(k, half);
                k.store(o + at, lo).build();
                k.store(o + count(half) as i32 + at, hi).build();
            }
            Move::Cat(axis) => {
                let mut to = shape.to_vec();
                to[*axis] *= 2;
                k.store(o + offsets(k, &to), t[0].cat(t[1], *axis as i64))
                    .build();
            }
            Move::Interleave => {
                let flat = t[0].join(t[1]).reshape(&[2 * shape[0]]);
                k.store(o + offsets(k, &[2 * shape[0]]), flat).build();
            }
        }
    })
}

/// A tensor of pointers transposed before the load: `out[i][j]` is
/// `x[j][i]`, 16x16 f32.
fn moved_pointers(context: &melior::Context, device: &Device) -> Outcome {
    let shape = [16i64, 16];
    let kernel = Kernel::build(context, "moved_pointers", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let o = k.arg_ptr("out", DType::F32);
        let _n = k.arg("n", DType::I32);
        let ptrs = (x + k.arange(0, 256)).reshape(&shape).trans();
        let v = k.load(ptrs).build();
        k.store(o + offsets(k, &shape), v).build();
    })
    .map_err(|e| e.to_string())?;
    let x = inputs(DType::F32, 0, 256);
    let want = reference(&shape, &Move::Permute(vec![1, 0]), std::slice::from_ref(&x));
    let got = run(device, &kernel, &[(DType::F32, x)], DType::F32, 256)?;
    check(DType::F32, &got, &want, EXACT)
}

/// Every case in every type: `(case, outcome)`.
pub fn moves(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for (case, (shape, m)) in cases().into_iter().enumerate() {
        for d in DType::ARITHMETIC {
            let n = count(&shape);
            let x: Vec<Vec<Num>> = (0..operands(&m)).map(|i| inputs(d, i, n)).collect();
            let want = reference(&shape, &m, &x);
            let ins: Vec<(DType, Vec<Num>)> = x.into_iter().map(|v| (d, v)).collect();
            let outcome = kernel(context, d, &shape, &m, case)
                .map_err(|e| e.to_string())
                .and_then(|k| run(device, &k, &ins, d, want.len()))
                .and_then(|got| check(d, &got, &want, EXACT));
            out.push((format!("{m:?} {shape:?} {d}"), outcome));
        }
    }
    out.push((
        "moved pointers 16x16 f32".into(),
        moved_pointers(context, device),
    ));
    out
}
