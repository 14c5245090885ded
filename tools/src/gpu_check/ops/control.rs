//! Control flow on scalar conditions, in every type but i1: `if`/`else`
//! giving tiles (each branch taken in turn, one holding a reduction with
//! its barriers), `if` guarding stores, `while` loops carrying scalars (a
//! binary search), tiles (a loop whose condition block reduces), block
//! pointers (a scan for the first negative block), and an `if` inside a
//! `for` inside a `while`. Every result is exact: the values are
//! representable and the references round as the kernels do.

use super::{BLOCK, EXACT, Num, check, inputs, round, run};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Kernel};

const LEN: usize = BLOCK as usize;

fn types() -> impl Iterator<Item = DType> {
    DType::ARITHMETIC.into_iter().filter(|&d| d != DType::I1)
}

/// `x` with `x[0]` set so that the branch on `x[0] > 0` goes the way
/// `positive` says.
fn with_sign(d: DType, positive: bool) -> Vec<Num> {
    let mut x = inputs(d, 0, LEN);
    x[0] = round(d, if positive { Num::Int(3) } else { Num::Int(-3) });
    if d.is_float() {
        x[0] = Num::Float(x[0].i() as f64);
    }
    x
}

/// `if x[0] > 0 { x * 2 } else { x - max(x) }`, both branches giving the
/// tile.
fn branch_kernel(context: &melior::Context, d: DType) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "branch", |k| {
        let (p, o) = (k.arg_ptr("x", d), k.arg_ptr("out", d));
        let _n = k.arg("n", DType::I32);
        let offs = k.arange(0, BLOCK);
        let x = k.load(p + offs).build();
        let first = k.load(p).build();
        let [y] = k.if_else(first.gt(0), || [x * 2], || [x - x.max(0)]);
        k.store(o + offs, y).build();
    })
}

fn branch_reference(d: DType, x: &[Num]) -> Vec<Num> {
    let arith = |v: Num, f: fn(i128, i128) -> i128, g: fn(f64, f64) -> f64, b: Num| match v {
        Num::Int(a) => round(d, Num::Int(f(a, b.i()))),
        Num::Float(a) => round(d, Num::Float(g(a, b.f()))),
    };
    if x[0].f() > 0.0 {
        x.iter()
            .map(|&v| arith(v, |a, b| a * b, |a, b| a * b, Num::Int(2)))
            .collect()
    } else {
        let m = x
            .iter()
            .copied()
            .reduce(|a, b| if b.f() > a.f() { b } else { a })
            .expect("not empty");
        x.iter()
            .map(|&v| arith(v, |a, b| a - b, |a, b| a - b, m))
            .collect()
    }
}

/// Every element stored as 0, then as `x + 1` only if `x[0] > 0`.
fn guarded_store_kernel(context: &melior::Context, d: DType) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "guarded_store", |k| {
        let (p, o) = (k.arg_ptr("x", d), k.arg_ptr("out", d));
        let _n = k.arg("n", DType::I32);
        let offs = k.arange(0, BLOCK);
        let x = k.load(p + offs).build();
        k.store(o + offs, k.zeros(&[BLOCK as i64], d)).build();
        k.if_then(k.load(p).build().gt(0), || {
            k.store(o + offs, x + 1).build();
        });
    })
}

/// A binary search of sorted `x[..n]` for `key` (a scalar `while`): the
/// first index whose element is not below it, stored at `out[0]`.
fn search_kernel(
    context: &melior::Context,
    d: DType,
    key: i32,
) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "search", |k| {
        let (p, o) = (k.arg_ptr("x", d), k.arg_ptr("out", DType::I32));
        let n = k.arg("n", DType::I32);
        let key = k.full(&[], key, d);
        let [lo, _] = k.while_loop(
            [k.i32(0), n],
            |[lo, hi]| lo.lt(hi),
            |[lo, hi]| {
                let mid = (lo + hi) / 2;
                let below = k.load(p + mid).build().lt(key);
                [k.where_(below, mid + 1, lo), k.where_(below, hi, mid)]
            },
        );
        k.store(o, lo).build();
    })
}

/// Doubles `x` while its largest element is below `limit` (a `while`
/// carrying a tile and a count, its condition block reducing); stores the
/// tile and the count (at the last element).
fn grow_kernel(
    context: &melior::Context,
    d: DType,
    limit: i32,
) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "grow", |k| {
        let (p, o) = (k.arg_ptr("x", d), k.arg_ptr("out", d));
        let _n = k.arg("n", DType::I32);
        let offs = k.arange(0, BLOCK);
        let x = k.load(p + offs).build();
        let [y, count] = k.while_loop(
            [x, k.i32(0)],
            |[y, _]| y.max(0).lt(limit),
            |[y, count]| [y * 2, count + 1],
        );
        k.store(o + offs, y).build();
        k.store(o + (BLOCK - 1), count.to(d)).build();
    })
}

/// Walks a block pointer over `x` in blocks of 16 until a block holds a
/// negative element (or the end); stores the offset it stopped at.
fn first_negative_kernel(context: &melior::Context, d: DType) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "first_negative", |k| {
        let (p, o) = (k.arg_ptr("x", d), k.arg_ptr("out", DType::I32));
        let n = k.arg("n", DType::I32);
        let start = k
            .make_block_ptr(p)
            .shape([n])
            .strides([1])
            .offsets([0])
            .block_shape([16])
            .build();
        let [_, at] = k.while_loop(
            [start, k.i32(0)],
            |[b, at]| {
                let block = k
                    .load(b)
                    .boundary_check(&[0])
                    .padding(tile::Padding::Zero)
                    .build();
                at.lt(n) & block.min(0).ge(0)
            },
            |[b, at]| [b.advance([16]), at + 16],
        );
        k.store(o, at).build();
    })
}

/// `while total < limit { for i in 0..4 { if i is odd { total += x[i] } } }`
/// counting rounds: an `if` in a `for` in a `while`.
fn nested_kernel(context: &melior::Context, d: DType) -> Result<Kernel<'_>, tile::IrError> {
    Kernel::build(context, "nested", |k| {
        let (p, o) = (k.arg_ptr("x", d), k.arg_ptr("out", d));
        let _n = k.arg("n", DType::I32);
        let zero = k.full(&[], 0, d);
        let [total, rounds] = k.while_loop(
            [zero, k.i32(0)],
            |[total, _]| total.lt(40),
            |[total, rounds]| {
                let [t] = k.for_range(0, 4, 1, [total], |i, [t]| {
                    k.if_else((i % 2).eq(1), || [t + k.load(p + i).build()], || [t])
                });
                [t, rounds + 1]
            },
        );
        k.store(o, total).build();
        k.store(o + 1, rounds.to(d)).build();
    })
}

/// Every case: `(case, outcome)`.
pub fn control_flow(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in types() {
        for positive in [true, false] {
            let x = with_sign(d, positive);
            let want = branch_reference(d, &x);
            let outcome = branch_kernel(context, d)
                .map_err(|e| e.to_string())
                .and_then(|k| run(device, &k, &[(d, x.clone())], d, LEN))
                .and_then(|got| check(d, &got, &want, EXACT));
            out.push((format!("if_else x[0]>0={positive} {d}"), outcome));

            let want: Vec<Num> = x
                .iter()
                .map(|&v| {
                    if positive {
                        round(d, Num::Float(v.f() + 1.0))
                    } else {
                        Num::Int(0)
                    }
                })
                .map(|v| if d.is_float() { Num::Float(v.f()) } else { v })
                .collect();
            let outcome = guarded_store_kernel(context, d)
                .map_err(|e| e.to_string())
                .and_then(|k| run(device, &k, &[(d, x.clone())], d, LEN))
                .and_then(|got| check(d, &got, &want, EXACT));
            out.push((format!("if_then x[0]>0={positive} {d}"), outcome));
        }

        // Sorted, with repeats, over the first `N` elements the search
        // covers (`run` passes n = N).
        let n = super::N;
        let sorted: Vec<Num> = (0..LEN)
            .map(|i| round(d, Num::Int((i as i128 / 3) * 2 - 30)))
            .map(|v| {
                if d.is_float() {
                    Num::Float(v.i() as f64)
                } else {
                    v
                }
            })
            .collect();
        let d_range = if d == DType::I8 {
            [-40, -30, -1, 0, 7, 120]
        } else {
            [-40, -30, -1, 0, 7, 500]
        };
        for key in d_range {
            let want = sorted[..n]
                .iter()
                .position(|v| v.f() >= key as f64)
                .unwrap_or(n) as i128;
            let outcome = search_kernel(context, d, key)
                .map_err(|e| e.to_string())
                .and_then(|k| run(device, &k, &[(d, sorted.clone())], DType::I32, 1))
                .and_then(|got| check(DType::I32, &got, &[Num::Int(want)], EXACT));
            out.push((format!("while binary search key={key} {d}"), outcome));
        }

        // Small positive inputs, so that doubling stays exact and in range
        // (in i8 too: the largest, 5, doubles to 80 at most).
        let x: Vec<Num> = (0..LEN)
            .map(|i| round(d, Num::Int((i % 5) as i128 + 1)))
            .collect();
        let x: Vec<Num> = x
            .into_iter()
            .map(|v| if d.is_float() { Num::Float(v.f()) } else { v })
            .collect();
        for limit in [1, 5, 6, 50, 80] {
            let mut y = x.clone();
            let mut count = 0;
            while y.iter().map(|v| v.f()).fold(f64::MIN, f64::max) < limit as f64 {
                y = y
                    .iter()
                    .map(|v| round(d, Num::Float(v.f() * 2.0)))
                    .collect();
                count += 1;
            }
            let mut want: Vec<Num> = y
                .into_iter()
                .map(|v| if d.is_float() { v } else { Num::Int(v.i()) })
                .collect();
            want[LEN - 1] = if d.is_float() {
                Num::Float(count as f64)
            } else {
                Num::Int(count)
            };
            let outcome = grow_kernel(context, d, limit)
                .map_err(|e| e.to_string())
                .and_then(|k| run(device, &k, &[(d, x.clone())], d, LEN))
                .and_then(|got| check(d, &got, &want, EXACT));
            out.push((format!("while carrying a tile limit={limit} {d}"), outcome));
        }

        for negative_at in [
            None,
            Some(0),
            Some(15),
            Some(16),
            Some(57),
            Some(99),
            Some(100),
        ] {
            let mut x: Vec<Num> = (0..LEN)
                .map(|i| round(d, Num::Int((i % 7) as i128)))
                .collect();
            if let Some(j) = negative_at {
                x[j] = round(d, Num::Int(-1));
            }
            let x: Vec<Num> = x
                .into_iter()
                .map(|v| if d.is_float() { Num::Float(v.f()) } else { v })
                .collect();
            // Only the first n = N elements are in the block pointer's shape.
            let want = match negative_at {
                Some(j) if j < n => (j / 16 * 16) as i128,
                _ => n.next_multiple_of(16) as i128,
            };
            let outcome = first_negative_kernel(context, d)
                .map_err(|e| e.to_string())
                .and_then(|k| run(device, &k, &[(d, x.clone())], DType::I32, 1))
                .and_then(|got| check(DType::I32, &got, &[Num::Int(want)], EXACT));
            out.push((
                format!("while carrying a block pointer negative at {negative_at:?} {d}"),
                outcome,
            ));
        }

        let x: Vec<Num> = (0..LEN)
            .map(|i| round(d, Num::Int(i as i128 + 2)))
            .collect();
        let x: Vec<Num> = x
            .into_iter()
            .map(|v| if d.is_float() { Num::Float(v.f()) } else { v })
            .collect();
        let (mut total, mut rounds) = (0i128, 0i128);
        while total < 40 {
            for (i, v) in x.iter().enumerate().take(4) {
                if i % 2 == 1 {
                    total += v.i();
                }
            }
            rounds += 1;
        }
        let as_d = |v: i128| {
            if d.is_float() {
                Num::Float(v as f64)
            } else {
                round(d, Num::Int(v))
            }
        };
        let outcome = nested_kernel(context, d)
            .map_err(|e| e.to_string())
            .and_then(|k| run(device, &k, &[(d, x.clone())], d, 2))
            .and_then(|got| check(d, &got, &[as_d(total), as_d(rounds)], EXACT));
        out.push((format!("if in for in while {d}"), outcome));
    }
    out
}
