//! Arithmetic: float unary ops, binary ops, comparisons, `where`, `!`,
//! integer negation and absolute value.

use super::{
    Accuracy, BLOCK, DTYPES, EXACT, N, Num, Tolerance, check, elementwise, inputs, round, run,
};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Tile};

/// A float unary op: its name, the builder method, the reference (`None`:
/// refused for the type), and the GPU's bound.
type Unary = (
    &'static str,
    for<'k> fn(Tile<'k>) -> Tile<'k>,
    fn(DType, Num) -> Option<Num>,
    Tolerance,
);

/// The float unary ops. `sqrt`, `log` and `rsqrt` take `abs` first, `sin`
/// and `cos` `x * 0.4` (inside [-pi, pi], where the approximation's bound
/// holds), each step rounded as the kernel rounds it.
fn float_unary() -> Vec<Unary> {
    fn approx(d: DType, v: f64) -> Option<Num> {
        (d != DType::F64).then_some(Num::Float(v))
    }
    fn scaled(d: DType, x: Num) -> f64 {
        // The literal becomes a constant of the element type first.
        let factor = round(d, Num::Float(f64::from(0.4f32))).f();
        round(d, Num::Float(x.f() * factor)).f()
    }
    fn abs(d: DType, x: Num) -> f64 {
        round(d, Num::Float(x.f().abs())).f()
    }
    /// `1 / (exp(-x) + 1)`, each step rounded to `d` as the kernel rounds
    /// it (the builder's `sigmoid` is these three ops).
    fn sigmoid(d: DType, x: Num) -> f64 {
        let r = |v: f64| round(d, Num::Float(v)).f();
        let denominator = r(r((-x.f()).exp()) + 1.0);
        1.0 / denominator
    }
    let ulps = |u: f64| Tolerance { ulps: u, abs: 0.0 };
    let absolute = |a: f64| Tolerance { ulps: 2.0, abs: a };
    vec![
        ("neg", |x| -x, |_, x| Some(Num::Float(-x.f())), EXACT),
        (
            "abs",
            |x| x.abs(),
            |_, x| Some(Num::Float(x.f().abs())),
            EXACT,
        ),
        (
            "floor",
            |x| x.floor(),
            |_, x| Some(Num::Float(x.f().floor())),
            EXACT,
        ),
        (
            "ceil",
            |x| x.ceil(),
            |_, x| Some(Num::Float(x.f().ceil())),
            EXACT,
        ),
        (
            "sqrt",
            |x| x.abs().sqrt(),
            |d, x| Some(Num::Float(abs(d, x).sqrt())),
            EXACT,
        ),
        ("exp", |x| x.exp(), |d, x| approx(d, x.f().exp()), ulps(8.0)),
        (
            "exp2",
            |x| x.exp2(),
            |d, x| approx(d, x.f().exp2()),
            ulps(4.0),
        ),
        (
            "log",
            |x| x.abs().log(),
            |d, x| approx(d, abs(d, x).ln()),
            absolute(2f64.powi(-20)),
        ),
        (
            "log2",
            |x| x.abs().log2(),
            |d, x| approx(d, abs(d, x).log2()),
            absolute(2f64.powi(-20)),
        ),
        (
            "rsqrt",
            |x| x.abs().rsqrt(),
            |d, x| approx(d, 1.0 / abs(d, x).sqrt()),
            ulps(4.0),
        ),
        (
            "sin",
            |x| (x * 0.4f32).sin(),
            |d, x| approx(d, scaled(d, x).sin()),
            absolute(2f64.powi(-19)),
        ),
        (
            "cos",
            |x| (x * 0.4f32).cos(),
            |d, x| approx(d, scaled(d, x).cos()),
            absolute(2f64.powi(-19)),
        ),
        (
            "powi3",
            |x| x.powi(3),
            |d, x| {
                let r = |v: f64| round(d, Num::Float(v)).f();
                Some(Num::Float(x.f() * r(x.f() * x.f())))
            },
            EXACT,
        ),
        (
            "powi_minus2",
            |x| x.powi(-2),
            |d, x| {
                let r = |v: f64| round(d, Num::Float(v)).f();
                Some(Num::Float(1.0 / r(x.f() * x.f())))
            },
            EXACT,
        ),
        ("powi0", |x| x.powi(0), |_, _| Some(Num::Float(1.0)), EXACT),
        (
            "tanh",
            |x| x.tanh(),
            |d, x| approx(d, x.f().tanh()),
            ulps(4.0),
        ),
        (
            "erf",
            |x| x.erf(),
            |d, x| approx(d, libm::erf(x.f())),
            ulps(4.0),
        ),
        (
            "sigmoid",
            |x| x.sigmoid(),
            |d, x| approx(d, sigmoid(d, x)),
            ulps(16.0),
        ),
    ]
}

/// The bound `gpu` (for f32) in `d` on `accuracy`: exact ops exact, the
/// interpreter's transcendentals within 1 ulp, the GPU's within `gpu`
/// (f16 and bf16 results, rounded from f32, within 1 ulp plus `abs`).
fn bound(d: DType, gpu: Tolerance, accuracy: Accuracy) -> Tolerance {
    if gpu.ulps == 0.0 && gpu.abs == 0.0 {
        return EXACT;
    }
    match (accuracy, d) {
        (Accuracy::Exact, _) => Tolerance {
            ulps: 1.0,
            abs: 0.0,
        },
        (Accuracy::Approximate, DType::F32) => gpu,
        (Accuracy::Approximate, _) => Tolerance {
            ulps: 1.0,
            abs: gpu.abs,
        },
    }
}

/// Every float unary op in every float type: `(case, outcome)`.
pub fn float_unary_ops(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in DTYPES.into_iter().filter(|d| d.is_float()) {
        let x = inputs(d, 0, BLOCK as usize);
        for (name, op, reference, gpu) in float_unary() {
            let case = format!("{name} {d}");
            let want: Option<Vec<Num>> = x[..N]
                .iter()
                .map(|&v| reference(d, v).map(|r| round(d, r)))
                .collect();
            let kernel = elementwise(context, name, &[d], d, |_, v| op(v[0]));
            let outcome = match (want, kernel) {
                (Some(want), Ok(kernel)) => {
                    run(device, &kernel, &[(d, x.clone())], d, BLOCK as usize)
                        .and_then(|got| check(d, &got[..N], &want, bound(d, gpu, accuracy)))
                }
                (None, Err(e)) if e.to_string().contains("would need NVIDIA's libdevice") => Ok(()),
                (None, Err(e)) => Err(format!("refused for another reason: {e}")),
                (Some(_), Err(e)) => Err(format!("refused: {e}")),
                (None, Ok(_)) => Err("accepted, but it cannot be compiled".into()),
            };
            out.push((case, outcome));
        }
    }
    out
}

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

/// Every binary op in every type but i1: `(case, outcome)`.
pub fn binary_ops(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
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
                .and_then(|got| check(d, &got[..N], &want, EXACT)),
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

/// `div_approx` (`div.full.f32` on the GPU, 2 ulp in f32; f16 and bf16
/// rounded from it, so within 1 ulp of their own) in every float type:
/// refused in f64; on the interpreter, exact.
pub fn approximate_division(
    context: &melior::Context,
    device: &Device,
    accuracy: Accuracy,
) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        let (a, b) = (inputs(d, 0, BLOCK as usize), inputs(d, 1, BLOCK as usize));
        let kernel = elementwise(context, "div_approx", &[d, d], d, |_, v| {
            v[0].div_approx(v[1])
        });
        let outcome = match (d, kernel) {
            (DType::F64, Err(e)) if e.to_string().contains("div") => Ok(()),
            (DType::F64, other) => Err(format!("f64 approximate division: {:?}", other.err())),
            (_, Err(e)) => Err(format!("refused: {e}")),
            (_, Ok(kernel)) => {
                let want: Vec<Num> = (0..N)
                    .map(|i| round(d, Num::Float(a[i].f() / b[i].f())))
                    .collect();
                let tolerance = match (accuracy, d) {
                    (Accuracy::Exact, _) => EXACT,
                    (Accuracy::Approximate, DType::F32) => Tolerance {
                        ulps: 2.0,
                        abs: 0.0,
                    },
                    (Accuracy::Approximate, _) => Tolerance {
                        ulps: 1.0,
                        abs: 0.0,
                    },
                };
                run(
                    device,
                    &kernel,
                    &[(d, a.clone()), (d, b.clone())],
                    d,
                    BLOCK as usize,
                )
                .and_then(|got| check(d, &got[..N], &want, tolerance))
            }
        };
        out.push((format!("div_approx {d}"), outcome));
    }
    out
}

/// Runs an elementwise kernel built by `body` on inputs `ins` and checks
/// its first [`N`] results against `want`.
fn case(
    context: &melior::Context,
    device: &Device,
    name: &str,
    ins: &[(DType, Vec<Num>)],
    out: DType,
    want: &[Num],
    body: impl for<'k> Fn(&'k tile::KernelBuilder<'k>, &[Tile<'k>]) -> Tile<'k>,
) -> Outcome {
    let types: Vec<DType> = ins.iter().map(|(d, _)| *d).collect();
    let kernel = elementwise(context, name, &types, out, body).map_err(|e| e.to_string())?;
    let got = run(device, &kernel, ins, out, BLOCK as usize)?;
    check(out, &got[..N], want, EXACT)
}

/// Comparisons (signed integers, unsigned booleans, ordered floats; `ne`
/// unordered), `where` and `!` in every type: `(case, outcome)`.
pub fn comparisons(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    type Compare = (
        &'static str,
        for<'k> fn(Tile<'k>, Tile<'k>) -> Tile<'k>,
        fn(f64, f64) -> bool,
    );
    let compares: [Compare; 6] = [
        ("lt", |a, b| a.lt(b), |x, y| x < y),
        ("le", |a, b| a.le(b), |x, y| x <= y),
        ("gt", |a, b| a.gt(b), |x, y| x > y),
        ("ge", |a, b| a.ge(b), |x, y| x >= y),
        ("eq", |a, b| a.eq(b), |x, y| x == y),
        ("ne", |a, b| a.ne(b), |x, y| x != y),
    ];
    let mut out = Vec::new();
    for d in DTYPES {
        let (a, mut b) = (inputs(d, 0, BLOCK as usize), inputs(d, 1, BLOCK as usize));
        // Some equal pairs, so eq and ne see both answers.
        for i in (0..BLOCK as usize).step_by(7) {
            b[i] = a[i];
        }
        let ins = [(d, a.clone()), (d, b.clone())];
        for (name, op, reference) in compares {
            let want: Vec<Num> = (0..N)
                .map(|i| Num::Int(i128::from(reference(a[i].f(), b[i].f()))))
                .collect();
            let outcome = case(context, device, name, &ins, DType::I1, &want, |_, v| {
                op(v[0], v[1])
            });
            out.push((format!("{name} {d}"), outcome));
        }
        // where(a < b, a, b) is the minimum; !(a < b) its negation.
        let want: Vec<Num> = (0..N)
            .map(|i| if a[i].f() < b[i].f() { a[i] } else { b[i] })
            .collect();
        let outcome = case(context, device, "where", &ins, d, &want, |k, v| {
            k.where_(v[0].lt(v[1]), v[0], v[1])
        });
        out.push((format!("where {d}"), outcome));
        let want: Vec<Num> = (0..N)
            .map(|i| Num::Int(i128::from(a[i].f() >= b[i].f())))
            .collect();
        let outcome = case(context, device, "not", &ins, DType::I1, &want, |_, v| {
            !v[0].lt(v[1])
        });
        out.push((format!("not {d}"), outcome));
    }
    out
}

/// Integer negation and absolute value wrap (the most negative value is
/// its own negation and absolute value): `(case, outcome)`.
pub fn integer_neg_abs(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    type Op = (
        &'static str,
        for<'k> fn(Tile<'k>) -> Tile<'k>,
        fn(i128) -> i128,
    );
    let ops: [Op; 2] = [("neg", |v| -v, |v| -v), ("abs", |v| v.abs(), |v| v.abs())];
    let mut out = Vec::new();
    for d in [DType::I8, DType::I16, DType::I32, DType::I64] {
        let mut x = inputs(d, 0, BLOCK as usize);
        x[3] = round(d, Num::Int(1i128 << (d.bits() - 1)));
        for (name, op, reference) in ops {
            let want: Vec<Num> = x[..N]
                .iter()
                .map(|v| round(d, Num::Int(reference(v.i()))))
                .collect();
            let outcome = case(
                context,
                device,
                name,
                &[(d, x.clone())],
                d,
                &want,
                |_, v| op(v[0]),
            );
            out.push((format!("{name} {d}"), outcome));
        }
    }
    out
}

/// `fma(a, b, c)` in every float type against `a * b + c` rounded once:
/// `(case, outcome)`. The third operand is the first one halved and
/// negated, so that the product and the addend cancel in part.
pub fn fused_multiply_add(context: &melior::Context, device: &Device) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    for d in DTYPES.into_iter().filter(|d| d.is_float()) {
        let (a, b) = (inputs(d, 0, BLOCK as usize), inputs(d, 1, BLOCK as usize));
        let c: Vec<Num> = a
            .iter()
            .map(|x| round(d, Num::Float(-x.f() / 2.0)))
            .collect();
        let want: Vec<Num> = (0..N)
            .map(|i| round(d, Num::Float(fma_once(a[i].f(), b[i].f(), c[i].f(), d))))
            .collect();
        let ins = [(d, a), (d, b), (d, c)];
        let outcome = case(context, device, "fma", &ins, d, &want, |_, v| {
            v[0].fma(v[1], v[2])
        });
        out.push((format!("fma {d}"), outcome));
    }
    out
}

/// `x * y + z` (values of `d`) as an f64 that rounds to the exact
/// result's correct rounding in `d`: f64 through `mul_add`; narrower
/// types multiply exactly, and the sum's rounding error (TwoSum) moves the
/// rounded sum one f64 step towards the exact one, which decides a tie in
/// `d` the right way and changes nothing else.
fn fma_once(x: f64, y: f64, z: f64, d: DType) -> f64 {
    if d == DType::F64 {
        return x.mul_add(y, z);
    }
    let p = x * y;
    let s = p + z;
    let t = s - p;
    let err = (p - (s - t)) + (z - t);
    if err == 0.0 || !s.is_finite() {
        return s;
    }
    let bits = s.to_bits() as i64;
    let up = (err > 0.0) == (s >= 0.0);
    f64::from_bits(if up { bits + 1 } else { bits - 1 } as u64)
}
