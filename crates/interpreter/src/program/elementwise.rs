//! The upstream elementwise ops of tile IR (`arith.*`, `math.*`) as
//! instructions: which op does what, comparison predicates, constants,
//! and the float math the GPU path refuses.

use super::read::{broken, error};
use super::{CastOp, FloatOp, IntOp, Kind, Predicate, R, UnaryOp};
use crate::float;
use crate::value::{Elems, Tensor, wrap};
use melior::ir::OperationRef;
use tile_dialect::DType;
use tile_dialect::float_math::{is_float_math, native_math};
use tile_dialect::types::TileType;
use tile_dialect::view::{Constant, attr};

/// Why the interpreter refuses float math the GPU path cannot compile.
const NEEDS_LIBDEVICE: &str = "would need NVIDIA's libdevice, which the GPU path does not link \
     (the interpreter refuses what the GPU cannot run)";

/// What the elementwise op `op` (named `name`, of result type `ty`) does;
/// an error for ops the interpreter does not know and for float math that
/// [`tile_dialect::float_math`] says the GPU path refuses.
pub(super) fn kind(op: &OperationRef, name: &str, ty: Option<&TileType>) -> R<Kind> {
    if is_float_math(name) {
        refuse_what_the_gpu_refuses(op, name, ty)?;
    }
    Ok(match name {
        "arith.constant" => Kind::Constant(constant(op, ty)?),
        "arith.addi" => Kind::Int(IntOp::Add),
        "arith.subi" => Kind::Int(IntOp::Sub),
        "arith.muli" => Kind::Int(IntOp::Mul),
        "arith.divsi" => Kind::Int(IntOp::DivS),
        "arith.divui" => Kind::Int(IntOp::DivU),
        "arith.remsi" => Kind::Int(IntOp::RemS),
        "arith.remui" => Kind::Int(IntOp::RemU),
        "arith.ceildivsi" => Kind::Int(IntOp::CeilDivS),
        "arith.floordivsi" => Kind::Int(IntOp::FloorDivS),
        "arith.andi" => Kind::Int(IntOp::And),
        "arith.ori" => Kind::Int(IntOp::Or),
        "arith.xori" => Kind::Int(IntOp::Xor),
        "arith.maxsi" => Kind::Int(IntOp::MaxS),
        "arith.minsi" => Kind::Int(IntOp::MinS),
        "arith.maxui" => Kind::Int(IntOp::MaxU),
        "arith.minui" => Kind::Int(IntOp::MinU),
        "arith.shli" => Kind::Int(IntOp::Shl),
        "arith.shrsi" => Kind::Int(IntOp::ShrS),
        "arith.shrui" => Kind::Int(IntOp::ShrU),
        "arith.addf" => Kind::Float(FloatOp::Add),
        "arith.subf" => Kind::Float(FloatOp::Sub),
        "arith.mulf" => Kind::Float(FloatOp::Mul),
        "arith.divf" => Kind::Float(FloatOp::Div),
        "arith.maximumf" => Kind::Float(FloatOp::Maximum),
        "arith.minimumf" => Kind::Float(FloatOp::Minimum),
        "arith.maxnumf" => Kind::Float(FloatOp::MaxNum),
        "arith.minnumf" => Kind::Float(FloatOp::MinNum),
        "arith.negf" => Kind::Unary(UnaryOp::Neg),
        "math.absf" => Kind::Unary(UnaryOp::Abs),
        "math.floor" => Kind::Unary(UnaryOp::Floor),
        "math.ceil" => Kind::Unary(UnaryOp::Ceil),
        "math.sqrt" => Kind::Unary(UnaryOp::Sqrt),
        "math.exp" => Kind::Unary(UnaryOp::Exp),
        "math.exp2" => Kind::Unary(UnaryOp::Exp2),
        "math.log" => Kind::Unary(UnaryOp::Log),
        "math.log2" => Kind::Unary(UnaryOp::Log2),
        "math.rsqrt" => Kind::Unary(UnaryOp::Rsqrt),
        "math.sin" => Kind::Unary(UnaryOp::Sin),
        "math.cos" => Kind::Unary(UnaryOp::Cos),
        "math.tanh" => Kind::Unary(UnaryOp::Tanh),
        "math.erf" => Kind::Unary(UnaryOp::Erf),
        "math.absi" => Kind::AbsI,
        "math.fma" => Kind::Fma,
        "arith.extf" | "arith.truncf" => Kind::Cast(CastOp::Float),
        "arith.extsi" => Kind::Cast(CastOp::ExtS),
        "arith.extui" => Kind::Cast(CastOp::ExtU),
        "arith.trunci" => Kind::Cast(CastOp::Trunc),
        "arith.sitofp" => Kind::Cast(CastOp::SIToFP),
        "arith.uitofp" => Kind::Cast(CastOp::UIToFP),
        "arith.fptosi" => Kind::Cast(CastOp::FPToSI),
        "arith.fptoui" => Kind::Cast(CastOp::FPToUI),
        "arith.cmpi" => Kind::CmpI(predicate(op, &INT_PREDICATES)?),
        "arith.cmpf" => Kind::CmpF(predicate(op, &FLOAT_PREDICATES)?),
        "arith.select" => Kind::Select,
        other => {
            return Err(error(
                op,
                format!("is not an op the interpreter knows ({other})"),
            ));
        }
    })
}

/// An error when the GPU path cannot compile float math op `name` on the
/// elements of `ty`.
fn refuse_what_the_gpu_refuses(op: &OperationRef, name: &str, ty: Option<&TileType>) -> R<()> {
    let d = ty
        .and_then(TileType::num)
        .ok_or_else(|| error(op, "has no number result"))?;
    if native_math(name, d).is_some() {
        return Ok(());
    }
    // Ops refused whatever the element type are refused as such; the
    // others name the type they cannot take.
    let anywhere = DType::ALL.iter().all(|&t| native_math(name, t).is_none());
    Err(error(
        op,
        if anywhere {
            NEEDS_LIBDEVICE.to_string()
        } else {
            format!("on {d} {NEEDS_LIBDEVICE}")
        },
    ))
}

/// The tensor (or scalar) of an `arith.constant`, every element as the
/// interpreter holds one of its type.
fn constant(op: &OperationRef, ty: Option<&TileType>) -> R<Tensor> {
    let ty = ty.ok_or_else(|| error(op, "has no result"))?;
    let d = ty.num().ok_or_else(|| error(op, "is not a number"))?;
    let value = Constant::read(op)
        .map_err(|rule| broken(op, rule))?
        .expect("an arith.constant reads as a constant")
        .value;
    let shape: Vec<usize> = ty.shape().iter().map(|&x| x as usize).collect();
    let n: usize = shape.iter().product();
    let elems = if d.is_float() {
        Elems::Float(vec![float::round(value.as_f64(), d); n])
    } else {
        Elems::Int(vec![wrap(value.as_i64(), d); n])
    };
    Ok(Tensor {
        shape,
        dtype: d,
        elems,
    })
}

/// A predicate from what holds for "less", "equal", "greater", and
/// "unsigned" (integers) or "unordered" (floats).
const fn p(lt: bool, eq: bool, gt: bool, unsigned_or_unordered: bool) -> Predicate {
    Predicate {
        lt,
        eq,
        gt,
        unsigned_or_unordered,
    }
}

/// `arith.cmpi`'s predicates, by number.
const INT_PREDICATES: [Predicate; 10] = [
    p(false, true, false, false), // eq
    p(true, false, true, false),  // ne
    p(true, false, false, false), // slt
    p(true, true, false, false),  // sle
    p(false, false, true, false), // sgt
    p(false, true, true, false),  // sge
    p(true, false, false, true),  // ult
    p(true, true, false, true),   // ule
    p(false, false, true, true),  // ugt
    p(false, true, true, true),   // uge
];

/// `arith.cmpf`'s predicates, by number.
const FLOAT_PREDICATES: [Predicate; 16] = [
    p(false, false, false, false), // false
    p(false, true, false, false),  // oeq
    p(false, false, true, false),  // ogt
    p(false, true, true, false),   // oge
    p(true, false, false, false),  // olt
    p(true, true, false, false),   // ole
    p(true, false, true, false),   // one
    p(true, true, true, false),    // ord
    p(false, true, false, true),   // ueq
    p(false, false, true, true),   // ugt
    p(false, true, true, true),    // uge
    p(true, false, false, true),   // ult
    p(true, true, false, true),    // ule
    p(true, false, true, true),    // une
    p(false, false, false, true),  // uno
    p(true, true, true, true),     // true
];

/// The `predicate` of `arith.cmpi` or `arith.cmpf`, looked up in `table`.
fn predicate(op: &OperationRef, table: &[Predicate]) -> R<Predicate> {
    let n = attr::int(op, "predicate").map_err(|rule| broken(op, rule))?;
    usize::try_from(n)
        .ok()
        .and_then(|i| table.get(i))
        .copied()
        .ok_or_else(|| error(op, format!("has predicate {n}")))
}
