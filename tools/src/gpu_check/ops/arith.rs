//! Arithmetic beside the float unary ([`super::float_unary`]) and binary
//! ([`super::binary`]) ops: comparisons, `where`, `!`, integer negation
//! and absolute value, and fused multiply-add.

use super::{BLOCK, DTYPES, EXACT, N, Num, check, elementwise, inputs, round, run};
use crate::gpu_check::Outcome;
use tile::{DType, Device, Tile};

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
