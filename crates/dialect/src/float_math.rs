//! Float math without libdevice: which float ops of tile IR reach the GPU,
//! in which element types, and how. The builder refuses the others at the
//! op (with the user's line), the lowering emits these, and the
//! interpreter refuses the same ones.
//!
//! MLIR's `convert-gpu-to-nvvm` would turn `math.exp`, `math.sqrt` and
//! their kin into calls to NVIDIA's libdevice (`__nv_expf`, ...), which
//! this compiler does not link, and it refuses the LLVM intrinsics
//! (`llvm.intr.sqrt`, ...) outright. `tile-to-simt` therefore emits them as
//! calls of LLVM intrinsics the NVPTX backend maps to single instructions,
//! or as PTX approximations:
//!
//! | op | emitted | PTX | accuracy |
//! | --- | --- | --- | --- |
//! | `math.absf` | `llvm.fabs` | `abs` | exact |
//! | `math.floor`, `math.ceil` | `llvm.floor`, `llvm.ceil` | `cvt.rmi`, `cvt.rpi` | exact |
//! | `math.sqrt` | `llvm.sqrt` | `sqrt.rn` | correctly rounded |
//! | `math.fma` | `llvm.fma` | `fma.rn` | correctly rounded (`a * b + c` rounded once) |
//! | `arith.maxnumf`, `arith.minnumf` | `llvm.maxnum`, `llvm.minnum` | `max`, `min` | exact |
//! | `math.exp2`, `math.exp` | `ex2.approx.ftz.f32` (of `x * log2(e)` for `exp`) | | 2 ulp, plus `exp`'s rounding of `x * log2(e)`; results below 2^-126 (subnormal in f32) flush to 0 (as Triton's) |
//! | `math.log2`, `math.log` | `lg2.approx.f32` (times `ln 2` for `log`) | | absolute error about 2^-22 |
//! | `math.rsqrt` | `rsqrt.approx.f32` | | relative error about 2^-23 |
//! | `math.sin`, `math.cos` | `sin.approx.f32` / `cos.approx.f32` | | absolute error about 2^-20.5 on [-pi, pi] |
//! | `math.tanh` | [`Composite::Tanh`]: `x + x^3 P(x^2)` below 0.625, else `1 - 2 / (2^(2|x| log2 e) + 1)` with the sign of `x` | | 4 ulp (2.5 measured over 2^22 inputs by `tile-tools gpu-check math-accuracy`) |
//! | `arith.divf` marked `fastmath<afn>` (`/` on f16, bf16 and f32, `Tile::div_approx`) | `div.full.f32` | `div.full.f32` | within 2 ulp (f16 and bf16 through f32, then within 1 ulp of their own), as Triton's `/`; plain `arith.divf` (`Tile::div_rn`, and f64's `/`) is the correctly rounded `div.rn` |
//! | `math.tanh` marked `fastmath<afn>` (`Tile::tanh_approx`) | `tanh.approx.f32` | `tanh.approx.f32` | relative error at most 2^-10.987 (PTX ISA); one instruction |
//! | `math.sqrt` marked `fastmath<afn>` (`Tile::sqrt_approx`) | `sqrt.approx.f32` | `sqrt.approx.f32` | within 1 ulp on sm_52 and later (NVIDIA's bound for `sqrtf` without `-prec-sqrt`), as Triton's `tl.sqrt`; one instruction, where `sqrt.rn` is a sequence with a branch to a slow path |
//! | `math.erf` | [`Composite::Erf`]: `x P(x^2)` below 0.875, else `1 - 2^(-x^2 log2 e) Q(|x| - 2.4375)` with the sign of `x` (1 from 4 on) | | 4 ulp (2.5 measured likewise) |
//!
//! The polynomials are fitted by `scripts/fit_math.py` (near-minimax on
//! the relative error, evaluated with fused multiply-adds); in f32
//! arithmetic with an exact `exp2` they are within 1.6 ulp (tanh) and 2.4
//! ulp (erf) of mpmath's values; `ex2.approx` adds a fraction of an ulp
//! where its term is small against 1.
//!
//! The exact ops take every float type (f16 and bf16 are widened to f32
//! by the backend where the GPU lacks the instruction, and rounded back);
//! the approximations take f16, bf16 and f32 (computed in f32). Refused:
//! f64 transcendentals and `arith.remf`.

use crate::DType;

/// How one float op reaches the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NativeMath {
    /// A call of this LLVM intrinsic (`llvm.sqrt`; the type suffix is
    /// added for the element type).
    Intrinsic(&'static str),
    /// A PTX instruction on `f32` (operands widened from f16/bf16), with
    /// the operand first multiplied by `scale` and the result by `post`.
    Approx {
        /// The instruction (`ex2.approx.ftz.f32`).
        ptx: &'static str,
        /// A factor applied to the operand first.
        scale: Option<f32>,
        /// A factor applied to the result.
        post: Option<f32>,
    },
    /// A sequence of f32 operations (operands widened from f16/bf16).
    Composite(Composite),
}

/// The functions computed by a sequence of operations rather than one
/// instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Composite {
    /// `tanh`: [`TANH_SMALL`], [`TANH_P`].
    Tanh,
    /// `erf`: [`ERF_SMALL`], [`ERF_P`], [`ERF_BIG`], [`ERF_CENTER`],
    /// [`ERF_Q`].
    Erf,
}

/// Below this `|x|`, `tanh(x) = x + x^3 P(x^2)` ([`TANH_P`], lowest
/// degree first); from it on, `1 - 2 / (e^(2|x|) + 1)` with `x`'s sign.
pub const TANH_SMALL: f32 = 0.625;

/// `tanh`'s polynomial in `x^2` below [`TANH_SMALL`].
pub const TANH_P: [f32; 6] = [
    -0.3333333,
    0.13333206,
    -0.053946763,
    0.021700704,
    -0.008177401,
    0.0021429637,
];

/// `|x|` from which `tanh` is computed as 1 in f32 (its exponential is
/// clamped there, so that infinity gives 1 and not NaN).
pub const TANH_CLAMP: f32 = 10.0;

/// Below this `|x|`, `erf(x) = x P(x^2)` ([`ERF_P`]).
pub const ERF_SMALL: f32 = 0.875;

/// `erf`'s polynomial in `x^2` below [`ERF_SMALL`].
pub const ERF_P: [f32; 8] = [
    std::f32::consts::FRAC_2_SQRT_PI, // the fit gives 2 / sqrt(pi) in f32 exactly
    -0.37612638,
    0.112837896,
    -0.026865952,
    0.0052228505,
    -0.0008516631,
    0.00011554603,
    -1.0672753e-5,
];

/// `|x|` from which `erf` is 1 in f32 (the argument is clamped there).
pub const ERF_BIG: f32 = 4.0;

/// The centre of [`ERF_Q`]'s variable.
pub const ERF_CENTER: f32 = 2.4375;

/// From [`ERF_SMALL`] on, `erf(x) = 1 - e^(-x^2) Q(|x| - ERF_CENTER)`:
/// `Q` approximates `erfc(x) e^(x^2)`.
pub const ERF_Q: [f32; 12] = [
    0.21555248,
    -0.07756065,
    0.0264986,
    -0.008649054,
    0.0027022006,
    -0.00082516443,
    0.00024581,
    -4.8730086e-5,
    2.771217e-5,
    -1.0163687e-5,
    -5.436457e-6,
    -2.432818e-6,
];

/// `log2(e)` and `ln(2)`, rounded to f32.
const LOG2_E: f32 = std::f32::consts::LOG2_E;
const LN_2: f32 = std::f32::consts::LN_2;

/// True for the float ops this table decides on (float math the generic
/// elementwise lowering would hand to libdevice).
pub fn is_float_math(name: &str) -> bool {
    (name.starts_with("math.") && name != "math.absi")
        || matches!(name, "arith.maxnumf" | "arith.minnumf" | "arith.remf")
}

/// How `name` on elements of `d` is emitted; `None` when it cannot be
/// compiled without libdevice.
pub fn native_math(name: &str, d: DType) -> Option<NativeMath> {
    let approx = |ptx, scale, post| NativeMath::Approx { ptx, scale, post };
    let how = match name {
        "math.absf" => NativeMath::Intrinsic("llvm.fabs"),
        "math.floor" => NativeMath::Intrinsic("llvm.floor"),
        "math.ceil" => NativeMath::Intrinsic("llvm.ceil"),
        "math.sqrt" => NativeMath::Intrinsic("llvm.sqrt"),
        "math.fma" => NativeMath::Intrinsic("llvm.fma"),
        "arith.maxnumf" => NativeMath::Intrinsic("llvm.maxnum"),
        "arith.minnumf" => NativeMath::Intrinsic("llvm.minnum"),
        "math.exp2" => approx("ex2.approx.ftz.f32", None, None),
        "math.exp" => approx("ex2.approx.ftz.f32", Some(LOG2_E), None),
        "math.log2" => approx("lg2.approx.f32", None, None),
        "math.log" => approx("lg2.approx.f32", None, Some(LN_2)),
        "math.rsqrt" => approx("rsqrt.approx.f32", None, None),
        "math.sin" => approx("sin.approx.f32", None, None),
        "math.cos" => approx("cos.approx.f32", None, None),
        "math.tanh" => NativeMath::Composite(Composite::Tanh),
        "math.erf" => NativeMath::Composite(Composite::Erf),
        _ => return None,
    };
    let fits = match how {
        NativeMath::Intrinsic(_) => d.is_float(),
        NativeMath::Approx { .. } | NativeMath::Composite(_) => {
            matches!(d, DType::F16 | DType::BF16 | DType::F32)
        }
    };
    fits.then_some(how)
}

/// How `name` marked `fastmath<afn>` (an approximation the user asked
/// for) reaches the GPU, where that differs from [`native_math`]:
/// `math.tanh` as `tanh.approx.f32` and `math.sqrt` as `sqrt.approx.f32`
/// (f16, bf16 and f32, computed in f32).
pub fn approximate_math(name: &str, d: DType) -> Option<NativeMath> {
    let approx = |ptx| NativeMath::Approx {
        ptx,
        scale: None,
        post: None,
    };
    let how = match name {
        "math.tanh" => approx("tanh.approx.f32"),
        "math.sqrt" => approx("sqrt.approx.f32"),
        _ => return None,
    };
    matches!(d, DType::F16 | DType::BF16 | DType::F32).then_some(how)
}

/// Why `name` on `d` cannot be compiled (for errors, after "op on f64"),
/// listing what can.
pub const WHY_NOT: &str = "would need NVIDIA's libdevice, which this compiler does not link; \
     supported: abs, floor, ceil, sqrt, fma, maxnum/minnum (any float), exp, exp2, log, log2, rsqrt, \
     sin, cos, tanh, erf (f16, bf16, f32)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_ops_take_every_float_and_approximations_not_f64() {
        for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            assert!(native_math("math.sqrt", d).is_some());
            assert_eq!(native_math("math.exp", d).is_some(), d != DType::F64);
        }
        assert_eq!(
            native_math("math.tanh", DType::F32),
            Some(NativeMath::Composite(Composite::Tanh))
        );
        assert_eq!(native_math("math.erf", DType::F64), None);
        assert_eq!(native_math("math.atan", DType::F32), None);
        assert_eq!(native_math("arith.remf", DType::F32), None);
        assert_eq!(native_math("math.sqrt", DType::I32), None);
        // The approximations asked for: tanh and sqrt in f16, bf16, f32.
        for name in ["math.tanh", "math.sqrt"] {
            assert!(approximate_math(name, DType::BF16).is_some());
            assert_eq!(approximate_math(name, DType::F64), None);
        }
        assert_eq!(approximate_math("math.exp", DType::F32), None);
        assert!(is_float_math("arith.remf") && !is_float_math("math.absi"));
    }
}
