//! Float unary ops (`exp`, `log`, `sqrt`, `sin`, `tanh`, `erf`, ...) in
//! every float type, against references rounded once to the type, within
//! the bound each has on the GPU ([`super::Accuracy`]).

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
            // `1 / x^2` with `/`: Triton's division on the GPU (2 ulp).
            "powi_minus2",
            |x| x.powi(-2),
            |d, x| {
                let r = |v: f64| round(d, Num::Float(v)).f();
                Some(Num::Float(1.0 / r(x.f() * x.f())))
            },
            ulps(2.0),
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
