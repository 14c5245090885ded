//! Float math without libdevice.
//!
//! MLIR's `convert-gpu-to-nvvm` turns `math.exp`, `math.sqrt`,
//! `arith.maxnumf` and their kin into calls to NVIDIA's libdevice
//! (`__nv_expf`, ...), which this compiler does not link: the PTX would not
//! load. `tile-to-simt` therefore emits them as LLVM intrinsics the NVPTX
//! backend maps to single instructions, or as PTX approximations, per
//! register:
//!
//! | op | emitted | accuracy |
//! | --- | --- | --- |
//! | `math.absf`, `math.floor`, `math.ceil`, `math.sqrt` | `llvm.intr.fabs` / `floor` / `ceil` / `sqrt` (`abs.f32`, `cvt.rmi`, `cvt.rpi`, `sqrt.rn.f32`) | exact |
//! | `arith.maxnumf`, `arith.minnumf` | `llvm.intr.maxnum` / `minnum` (`max.f32`) | exact |
//! | `math.exp2`, `math.exp` | `ex2.approx.f32` (of `x * log2(e)` for `exp`) | 2 ulp, plus `exp`'s rounding of `x * log2(e)` (as Triton) |
//! | `math.log2`, `math.log` | `lg2.approx.f32` (times `ln 2` for `log`) | absolute error about 2^-22 |
//! | `math.rsqrt` | `rsqrt.approx.f32` | relative error about 2^-23 |
//! | `math.sin`, `math.cos` | `sin.approx.f32` / `cos.approx.f32` | absolute error about 2^-20.5 on [-pi, pi] |
//!
//! `f16` and `bf16` operands are computed in `f32` and rounded back. Ops
//! that would still need libdevice (`f64` transcendentals, `math.tanh`,
//! `arith.remf`) are refused with the op's source line.

use super::emit::Emitter;
use crate::mirror::Op;
use crate::rewrite::PassError;

/// How one op is emitted.
enum Native {
    /// An LLVM intrinsic taking the operands as they are.
    Intrinsic(&'static str),
    /// A PTX instruction on `f32` (operands widened from f16/bf16), with
    /// the operand first multiplied by `scale` and the result by `post`.
    Approx {
        ptx: &'static str,
        scale: Option<&'static str>,
        post: Option<&'static str>,
    },
}

/// `log2(e)` and `ln(2)` as f32 constants.
const LOG2_E: &str = "1.44269502";
const LN_2: &str = "0.693147182";

fn native(name: &str) -> Option<Native> {
    let approx = |ptx, scale, post| Native::Approx { ptx, scale, post };
    Some(match name {
        "math.absf" => Native::Intrinsic("llvm.intr.fabs"),
        "math.floor" => Native::Intrinsic("llvm.intr.floor"),
        "math.ceil" => Native::Intrinsic("llvm.intr.ceil"),
        "math.sqrt" => Native::Intrinsic("llvm.intr.sqrt"),
        "arith.maxnumf" => Native::Intrinsic("llvm.intr.maxnum"),
        "arith.minnumf" => Native::Intrinsic("llvm.intr.minnum"),
        "math.exp2" => approx("ex2.approx.f32", None, None),
        "math.exp" => approx("ex2.approx.f32", Some(LOG2_E), None),
        "math.log2" => approx("lg2.approx.f32", None, None),
        "math.log" => approx("lg2.approx.f32", None, Some(LN_2)),
        "math.rsqrt" => approx("rsqrt.approx.f32", None, None),
        "math.sin" => approx("sin.approx.f32", None, None),
        "math.cos" => approx("cos.approx.f32", None, None),
        _ => return None,
    })
}

/// True for ops that [`lower`] handles or refuses (float math that the
/// generic elementwise path would send to libdevice).
pub fn is_float_math(op: &Op) -> bool {
    op.name.starts_with("math.") && op.name != "math.absi"
        || matches!(
            op.name.as_str(),
            "arith.maxnumf" | "arith.minnumf" | "arith.remf"
        )
}

/// Emits float math op `op` once per register.
pub fn lower(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let ty = e.scalar_type(op.results[0], op)?;
    let how = native(&op.name).filter(|n| match n {
        Native::Intrinsic(_) => matches!(ty.as_str(), "f16" | "bf16" | "f32" | "f64"),
        Native::Approx { .. } => matches!(ty.as_str(), "f16" | "bf16" | "f32"),
    });
    let Some(how) = how else {
        return Err(PassError::at(
            op,
            format!(
                "on {ty} would need NVIDIA's libdevice, which this compiler does not link; \
                 supported: abs, floor, ceil, sqrt, maxnum/minnum (any float), exp, exp2, \
                 log, log2, rsqrt, sin, cos (f16, bf16, f32)"
            ),
        ));
    };
    let n = e.registers(op.results[0], op)?;
    let loc = op.loc.as_str();
    let mut out = Vec::new();
    for r in 0..n.unwrap_or(1) {
        let args: Vec<String> = op
            .operands
            .iter()
            .map(|&v| e.reg(v, r, op))
            .collect::<Result<_, _>>()?;
        let types = vec![ty.as_str(); args.len()].join(", ");
        out.push(match &how {
            Native::Intrinsic(name) => e.value(
                &format!("{name}({}) : ({types}) -> {ty}", args.join(", ")),
                loc,
            ),
            Native::Approx { ptx, scale, post } => {
                let mut x = args[0].clone();
                if ty != "f32" {
                    x = e.value(&format!("arith.extf {x} : {ty} to f32"), loc);
                }
                if let Some(s) = scale {
                    let c = e.constant(s, "f32");
                    x = e.value(&format!("arith.mulf {x}, {c} : f32"), loc);
                }
                let mut y = e.value(
                    &format!("llvm.inline_asm \"{ptx} $0, $1;\", \"=f,f\" {x} : (f32) -> f32"),
                    loc,
                );
                if let Some(s) = post {
                    let c = e.constant(s, "f32");
                    y = e.value(&format!("arith.mulf {y}, {c} : f32"), loc);
                }
                if ty != "f32" {
                    y = e.value(&format!("arith.truncf {y} : f32 to {ty}"), loc);
                }
                y
            }
        });
    }
    e.set_like(op.results[0], n, out);
    Ok(())
}
