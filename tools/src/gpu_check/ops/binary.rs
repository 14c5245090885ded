//! Binary ops in every type but i1 (wrapping integers, floats rounded
//! once), NaN through `maximum`, `minimum` and `clamp`, and approximate
//! division.

use super::{
    Accuracy, BLOCK, DTYPES, EXACT, N, Num, Tolerance, check, elementwise, inputs, round, run,
};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Tile};

type Binary = (
    &'static str,
    for<'k> fn(Tile<'k>, Tile<'k>) -> Tile<'k>,
    fn(DType, Num, Num) -> Option<Num>,
);

fn binary_ops_table() -> Vec<Binary> {
    fn int_or_float(
        d: DType,
        a: Num,
        b: Num,
        i: fn(i128, i128) -> i128,
        f: fn(f64, f64) -> f64,
    ) -> Option<Num> {
        Some(if d.is_float() {
            Num::Float(f(a.f(), b.f()))
        } else {
            Num::Int(i(a.i(), b.i()))
        })
    }
    fn ints(d: DType, v: Num) -> Option<Num> {
        (!d.is_float()).then_some(v)
    }
    vec![
        (
            "add",
            |a, b| a + b,
            |d, a, b| int_or_float(d, a, b, |x, y| x + y, |x, y| x + y),
        ),
        (
            "sub",
            |a, b| a - b,
            |d, a, b| int_or_float(d, a, b, |x, y| x - y, |x, y| x - y),
        ),
        (
            "mul",
            |a, b| a * b,
            |d, a, b| int_or_float(d, a, b, |x, y| x * y, |x, y| x * y),
        ),
        (
            "div",
            |a, b| a / b,
            |d, a, b| int_or_float(d, a, b, |x, y| x / y, |x, y| x / y),
        ),
        (
            "div_rn",
            |a, b| a.div_rn(b),
            |d, a, b| d.is_float().then(|| Num::Float(a.f() / b.f())),
        ),
        (
            "rem",
            |a, b| a % b,
            |d, a, b| ints(d, Num::Int(a.i() % b.i())),
        ),
        (
            "and",
            |a, b| a & b,
            |d, a, b| ints(d, Num::Int(a.i() & b.i())),
        ),
        (
            "or",
            |a, b| a | b,
            |d, a, b| ints(d, Num::Int(a.i() | b.i())),
        ),
        (
            "xor",
            |a, b| a ^ b,
            |d, a, b| ints(d, Num::Int(a.i() ^ b.i())),
        ),
        (
            "maximum",
            |a, b| a.maximum(b),
            |d, a, b| int_or_float(d, a, b, i128::max, f64::max),
        ),
        (
            "minimum",
            |a, b| a.minimum(b),
            |d, a, b| int_or_float(d, a, b, i128::min, f64::min),
        ),
        (
            "maximum_ignoring_nan",
            |a, b| a.maximum_ignoring_nan(b),
            |d, a, b| int_or_float(d, a, b, i128::max, f64::max),
        ),
        (
            "minimum_ignoring_nan",
            |a, b| a.minimum_ignoring_nan(b),
            |d, a, b| int_or_float(d, a, b, i128::min, f64::min),
        ),
        (
            "clamp",
            |a, b| a.clamp(-3, b, true),
            |d, a, b| int_or_float(d, a, b, |a, b| a.max(-3).min(b), |a, b| a.max(-3.0).min(b)),
        ),
        (
            "cdiv",
            |a, b| a.cdiv(b),
            |d, a, b| {
                let (x, y) = (a.i(), b.i());
                let q = x / y;
                ints(
                    d,
                    Num::Int(if (x % y != 0) && ((x < 0) == (y < 0)) {
                        q + 1
                    } else {
                        q
                    }),
                )
            },
        ),
    ]
}

/// Every binary op in every type but i1: `(case, outcome)`. Exact, but
/// for `/` on f16, bf16 and f32, which the GPU computes as Triton's does
/// (`div.full.f32`: within 2 ulp in f32, 1 ulp in f16 and bf16 after
/// rounding); `div_rn` is exact everywhere.
pub fn binary_ops(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in DTYPES.into_iter().filter(|&d| d != DType::I1) {
        let (a, b) = (inputs(d, 0, BLOCK as usize), inputs(d, 1, BLOCK as usize));
        for (name, op, reference) in binary_ops_table() {
            let want: Option<Vec<Num>> = (0..N)
                .map(|i| reference(d, a[i], b[i]).map(|r| round(d, r)))
                .collect();
            let kernel = elementwise(context, name, &[d, d], d, |_, v| op(v[0], v[1]));
            let outcome = match (want, kernel) {
                (Some(want), Ok(kernel)) => run(
                    device,
                    &kernel,
                    &[(d, a.clone()), (d, b.clone())],
                    d,
                    BLOCK as usize,
                )
                .and_then(|got| {
                    let tolerance = match (name, accuracy, d) {
                        ("div", Accuracy::Approximate, DType::F32) => Tolerance {
                            ulps: 2.0,
                            abs: 0.0,
                        },
                        ("div", Accuracy::Approximate, DType::F16 | DType::BF16) => Tolerance {
                            ulps: 1.0,
                            abs: 0.0,
                        },
                        _ => EXACT,
                    };
                    check(d, &got[..N], &want, tolerance)
                }),
                (None, Err(_)) => Ok(()),
                (Some(_), Err(e)) => Err(format!("refused: {e}")),
                (None, Ok(_)) => Err("accepted, but it has no meaning for the type".into()),
            };
            out.push((format!("{name} {d}"), outcome));
        }
    }
    out
}

/// NaN through `maximum` / `minimum` (propagated), their `_ignoring_nan`
/// forms (the number wins) and `clamp` both ways, in every float type.
pub fn nan_handling(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let nan = f64::NAN;
    let a = [nan, 1.0, -1.0, nan, 0.25, 5.0, -5.0, nan];
    let b = [2.0, nan, nan, nan, 0.5, 0.5, 0.5, 0.5];
    type Op = (
        &'static str,
        for<'k> fn(Tile<'k>, Tile<'k>) -> Tile<'k>,
        fn(f64, f64) -> f64,
    );
    let ops: [Op; 6] = [
        (
            "maximum",
            |a, b| a.maximum(b),
            |x, y| {
                if x.is_nan() || y.is_nan() {
                    f64::NAN
                } else {
                    x.max(y)
                }
            },
        ),
        (
            "minimum",
            |a, b| a.minimum(b),
            |x, y| {
                if x.is_nan() || y.is_nan() {
                    f64::NAN
                } else {
                    x.min(y)
                }
            },
        ),
        (
            "maximum_ignoring_nan",
            |a, b| a.maximum_ignoring_nan(b),
            f64::max,
        ),
        (
            "minimum_ignoring_nan",
            |a, b| a.minimum_ignoring_nan(b),
            f64::min,
        ),
        (
            "clamp_propagating_nan",
            |a, b| a.clamp(-1.0, b, true),
            |x, y| {
                if x.is_nan() || y.is_nan() {
                    f64::NAN
                } else {
                    x.max(-1.0).min(y)
                }
            },
        ),
        (
            "clamp_ignoring_nan",
            |a, b| a.clamp(-1.0, b, false),
            |x, y| x.max(-1.0).min(y),
        ),
    ];
    let mut out = Vec::new();
    for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        let pad = |v: &[f64]| -> Vec<Num> {
            let mut x: Vec<Num> = v.iter().map(|&f| Num::Float(f)).collect();
            x.resize(BLOCK as usize, Num::Float(1.0));
            x
        };
        let (xa, xb) = (pad(&a), pad(&b));
        for (name, op, reference) in ops {
            let want: Vec<Num> = (0..a.len())
                .map(|i| round(d, Num::Float(reference(a[i], b[i]))))
                .collect();
            let outcome = elementwise(context, name, &[d, d], d, |_, v| op(v[0], v[1]))
                .map_err(|e| e.to_string())
                .and_then(|k| {
                    run(
                        device,
                        &k,
                        &[(d, xa.clone()), (d, xb.clone())],
                        d,
                        BLOCK as usize,
                    )
                })
                .and_then(|got| check(d, &got[..a.len()], &want, EXACT));
            out.push((format!("{name} {d} with NaN"), outcome));
        }
    }
    out
}

/// An approximation the user asks for by name: its builder method, the
/// exact function it approximates, what f64's refusal says, and the ulps
/// it may be off by (per accuracy and type).
struct Approximation {
    name: &'static str,
    arity: usize,
    op: for<'k> fn(&[Tile<'k>]) -> Tile<'k>,
    exact: fn(&[f64]) -> f64,
    refusal: &'static str,
    ulps: fn(Accuracy, DType) -> f64,
}

/// `a` in every float type: refused in f64, else within its bound of the
/// exact function rounded to the type.
fn approximation_cases(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
    a: &Approximation,
) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        let xs: Vec<Vec<Num>> = (0..a.arity).map(|i| inputs(d, i, BLOCK as usize)).collect();
        let kernel = elementwise(context, a.name, &vec![d; a.arity], d, |_, v| (a.op)(v));
        let outcome = match (d, kernel) {
            (DType::F64, Err(e)) if e.to_string().contains(a.refusal) => Ok(()),
            (DType::F64, other) => Err(format!("f64 {}: {:?}", a.name, other.err())),
            (_, Err(e)) => Err(format!("refused: {e}")),
            (_, Ok(kernel)) => {
                let want: Vec<Num> = (0..N)
                    .map(|i| {
                        let args: Vec<f64> = xs.iter().map(|x| x[i].f()).collect();
                        round(d, Num::Float((a.exact)(&args)))
                    })
                    .collect();
                let buffers: Vec<(DType, Vec<Num>)> = xs.iter().map(|x| (d, x.clone())).collect();
                let tolerance = Tolerance {
                    ulps: (a.ulps)(accuracy, d),
                    abs: 0.0,
                };
                run(device, &kernel, &buffers, d, BLOCK as usize)
                    .and_then(|got| check(d, &got[..N], &want, tolerance))
            }
        };
        out.push((format!("{} {d}", a.name), outcome));
    }
    out
}

/// `div_approx` (`div.full.f32` on the GPU, 2 ulp in f32; f16 and bf16
/// rounded from it, so within 1 ulp of their own) in every float type:
/// refused in f64; on the interpreter, exact.
pub fn approximate_division(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
) -> Vec<(String, Outcome)> {
    let division = Approximation {
        name: "div_approx",
        arity: 2,
        op: |v| v[0].div_approx(v[1]),
        exact: |x| x[0] / x[1],
        refusal: "div",
        ulps: |accuracy, d| match (accuracy, d) {
            (Accuracy::Exact, _) => 0.0,
            (Accuracy::Approximate, DType::F32) => 2.0,
            (Accuracy::Approximate, _) => 1.0,
        },
    };
    approximation_cases(context, device, accuracy, &division)
}

/// `tanh_approx` (`tanh.approx.f32` on the GPU: relative error at most
/// 2^-10.987, so within 2^13 ulp in f32; f16 within 2 ulp and bf16 within
/// 1 ulp of their own after rounding) in every float type: refused in
/// f64; on the interpreter, exact (within the rounding of `tanh`).
pub fn approximate_tanh(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
) -> Vec<(String, Outcome)> {
    let tanh = Approximation {
        name: "tanh_approx",
        arity: 1,
        op: |v| v[0].tanh_approx(),
        exact: |x| x[0].tanh(),
        refusal: "approximate math.tanh",
        ulps: |accuracy, d| match (accuracy, d) {
            (Accuracy::Exact, _) => 1.0,
            (Accuracy::Approximate, DType::F32) => 8192.0,
            (Accuracy::Approximate, DType::F16) => 2.0,
            (Accuracy::Approximate, _) => 1.0,
        },
    };
    approximation_cases(context, device, accuracy, &tanh)
}

/// `sqrt_approx` (`sqrt.approx.f32` on the GPU: within 1 ulp in f32 on
/// sm_52 and later, NVIDIA's bound for `sqrtf` without `-prec-sqrt`; f16
/// and bf16 rounded from it, so within 1 ulp of their own) in every float
/// type, negative inputs (NaN) included: refused in f64; on the
/// interpreter, exact.
pub fn approximate_sqrt(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
) -> Vec<(String, Outcome)> {
    let sqrt = Approximation {
        name: "sqrt_approx",
        arity: 1,
        op: |v| v[0].sqrt_approx(),
        exact: |x| x[0].sqrt(),
        refusal: "approximate math.sqrt",
        ulps: |accuracy, _| match accuracy {
            Accuracy::Exact => 0.0,
            Accuracy::Approximate => 1.0,
        },
    };
    approximation_cases(context, device, accuracy, &sqrt)
}
