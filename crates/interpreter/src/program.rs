//! Tile IR as a program the interpreter can run: one instruction per op,
//! with its operands and results as slots, its attributes decoded and its
//! source location kept. [`Program::read`] (in `read`) makes one from an
//! MLIR module.
//!
//! Everything that can be checked before running is checked when reading:
//! ops the interpreter does not know, and ops the GPU path refuses (float
//! math that would need libdevice, as [`tile_dialect::float_math`]
//! decides), are errors at the op, so a kernel that the interpreter accepts
//! is one the GPU path compiles.

mod elementwise;
mod read;

use crate::value::Tensor;
use std::fmt;
use tile_dialect::types::TileType;
use tile_dialect::{AtomicKind, DType, InputPrecision, Padding, ReduceKind, ScanKind};

/// Binary integer ops (`arith.*i`, `arith.*si`, `arith.*ui`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// Wrapping add.
    Add,
    /// Wrapping subtract.
    Sub,
    /// Wrapping multiply.
    Mul,
    /// Signed division, rounding towards zero.
    DivS,
    /// Unsigned division.
    DivU,
    /// Signed remainder (the sign of the dividend).
    RemS,
    /// Unsigned remainder.
    RemU,
    /// Signed division rounding up.
    CeilDivS,
    /// Signed division rounding down.
    FloorDivS,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise xor.
    Xor,
    /// Signed maximum.
    MaxS,
    /// Signed minimum.
    MinS,
    /// Unsigned maximum.
    MaxU,
    /// Unsigned minimum.
    MinU,
    /// Shift left.
    Shl,
    /// Arithmetic shift right.
    ShrS,
    /// Logical shift right.
    ShrU,
}

/// Binary float ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// IEEE `maximum` (NaN wins, -0 < +0).
    Maximum,
    /// IEEE `minimum` (NaN wins, -0 < +0).
    Minimum,
    /// `maxnum` (a NaN operand loses).
    MaxNum,
    /// `minnum` (a NaN operand loses).
    MinNum,
}

/// Unary float ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`.
    Neg,
    /// `|x|`.
    Abs,
    /// `e^x`.
    Exp,
    /// `2^x`.
    Exp2,
    /// Natural logarithm.
    Log,
    /// Base-2 logarithm.
    Log2,
    /// Square root.
    Sqrt,
    /// `1 / sqrt(x)`.
    Rsqrt,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Hyperbolic tangent.
    Tanh,
    /// The error function.
    Erf,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
}

/// Conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastOp {
    /// Float to float (wider or narrower), rounding to nearest even.
    Float,
    /// Integer to a wider integer, sign-extended.
    ExtS,
    /// Integer to a wider integer, zero-extended.
    ExtU,
    /// Integer to a narrower integer (the low bits).
    Trunc,
    /// Signed integer to float.
    SIToFP,
    /// Unsigned integer to float.
    UIToFP,
    /// Float to signed integer, towards zero, saturating (NaN gives 0).
    FPToSI,
    /// Float to unsigned integer, towards zero, saturating (NaN gives 0).
    FPToUI,
}

/// A comparison predicate: integers (signed or unsigned) or floats
/// (ordered or unordered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Predicate {
    /// True when "less" holds.
    pub lt: bool,
    /// True when "equal" holds.
    pub eq: bool,
    /// True when "greater" holds.
    pub gt: bool,
    /// Integers: compare unsigned. Floats: true when unordered (a NaN
    /// operand) holds.
    pub unsigned_or_unordered: bool,
}

/// What an instruction does.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `tile.program_id` along an axis.
    ProgramId(usize),
    /// `tile.num_programs` along an axis.
    NumPrograms(usize),
    /// `tile.arange`.
    Arange(i64),
    /// `tile.splat`.
    Splat,
    /// `tile.broadcast`.
    Broadcast,
    /// `tile.expand_dims` at an axis.
    ExpandDims(usize),
    /// `tile.addptr`.
    AddPtr,
    /// `tile.load`, with or without mask and other.
    Load {
        /// A mask operand follows the pointer.
        mask: bool,
        /// An `other` operand follows.
        other: bool,
    },
    /// `tile.store`, with or without a mask.
    Store {
        /// A mask operand follows the value.
        mask: bool,
    },
    /// `tile.atomic_rmw` (see [`atomic`](crate::atomic)).
    AtomicRmw {
        /// The operation.
        kind: AtomicKind,
        /// A mask operand follows the value.
        mask: bool,
    },
    /// `tile.atomic_cas` (see [`atomic`](crate::atomic)).
    AtomicCas,
    /// `tile.make_block_ptr` of a rank.
    MakeBlockPtr(usize),
    /// `tile.advance`.
    Advance,
    /// `tile.block_load`.
    BlockLoad {
        /// The checked axes.
        check: Vec<usize>,
        /// What out-of-bounds elements read: a constant is held as the
        /// interpreter holds an element of the block's type (rounded, or
        /// wrapped to its width); [`Padding::Undefined`] reads NaN for
        /// floats and 0 for integers, so code that depends on it is easy
        /// to spot.
        padding: Padding,
    },
    /// `tile.block_store`.
    BlockStore {
        /// The checked axes.
        check: Vec<usize>,
    },
    /// `tile.reduce`.
    Reduce {
        /// Sum, max or min (see [`reduce`](crate::reduce)).
        kind: ReduceKind,
        /// The reduced axis.
        axis: usize,
        /// Whether the axis stays (with size 1).
        keep_dims: bool,
    },
    /// `tile.scan`.
    Scan {
        /// Sum, prod, max or min (see [`scan`](crate::scan)).
        kind: ScanKind,
        /// The scanned axis.
        axis: usize,
        /// From the last element to the first.
        reverse: bool,
    },
    /// `tile.dot` (see [`dot`](crate::dot)), and its K.
    Dot {
        /// The inputs' type.
        inputs: Option<DType>,
        /// How f32 inputs multiply.
        precision: InputPrecision,
        /// The terms summed into each output.
        k: usize,
    },
    /// `tile.convert_layout` and `tile.reshape`: the same elements (in
    /// the result's shape).
    Identity,
    /// `tile.permute`: result axis `i` is source axis `order[i]`.
    Permute(Vec<usize>),
    /// `tile.join`.
    Join,
    /// `tile.split`: two results.
    Split,
    /// `tile.cat` along an axis.
    Cat(usize),
    /// `tile.print` (see [`print`](crate::print)).
    Print {
        /// The text before each value.
        prefix: String,
        /// Integers in hexadecimal.
        hex: bool,
    },
    /// `tile.assert`: checked in a debug build only
    /// ([`Program::debug`]).
    Assert {
        /// What is reported where the condition fails.
        message: String,
    },
    /// `arith.constant`.
    Constant(Tensor),
    /// A binary integer op.
    Int(IntOp),
    /// A binary float op.
    Float(FloatOp),
    /// A unary float op.
    Unary(UnaryOp),
    /// `math.absi`.
    AbsI,
    /// A cast.
    Cast(CastOp),
    /// `arith.cmpi`.
    CmpI(Predicate),
    /// `arith.cmpf`.
    CmpF(Predicate),
    /// `arith.select`.
    Select,
    /// `math.fma`.
    Fma,
    /// `scf.for`, with its body.
    For(Body),
    /// `scf.if`, with its branches.
    If {
        /// The block run when the condition holds.
        then: Body,
        /// The block run otherwise (none: nothing runs).
        otherwise: Option<Body>,
    },
    /// `scf.while`, with its condition block and body.
    While {
        /// The block computing the condition (ends in `scf.condition`).
        before: Body,
        /// The body (ends in `scf.yield`).
        after: Body,
    },
    /// `scf.yield`.
    Yield,
    /// `scf.condition`.
    Condition,
    /// `func.return`.
    Return,
}

impl Kind {
    /// The blocks nested in this instruction (a loop's body, branches).
    pub fn bodies(&self) -> impl Iterator<Item = &Body> {
        let (a, b) = match self {
            Kind::For(b) => (Some(b), None),
            Kind::If { then, otherwise } => (Some(then), otherwise.as_ref()),
            Kind::While { before, after } => (Some(before), Some(after)),
            _ => (None, None),
        };
        a.into_iter().chain(b)
    }
}

/// A block: its arguments' slots and its instructions.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Body {
    /// Slots of the block arguments.
    pub args: Vec<usize>,
    /// The instructions, in order.
    pub insts: Vec<Inst>,
}

/// One op.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What it does.
    pub kind: Kind,
    /// Operand slots.
    pub operands: Vec<usize>,
    /// Result slots.
    pub results: Vec<usize>,
    /// The type of the first result, if any.
    pub ty: Option<TileType>,
    /// The op's name (`tile.load`).
    pub op: String,
    /// Where the user wrote it (`file:line:column`).
    pub location: String,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name (`tile.name`), or `arg<i>`.
    pub name: String,
    /// Its type (a scalar number or pointer).
    pub ty: TileType,
    /// Its slot.
    pub slot: usize,
}

/// A kernel ready to interpret.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The kernel's name.
    pub name: String,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Its body.
    pub body: Body,
    /// How many slots the values need.
    pub slots: usize,
    /// A debug build: assertions are checked (the module's
    /// `tile.debug` attribute, or [`Interpreter::debug`]).
    ///
    /// [`Interpreter::debug`]: crate::Interpreter::debug
    pub debug: bool,
    /// The most loop iterations (`scf.for` and `scf.while`, all programs
    /// together) one launch may run before it stops with
    /// [`InterpretFault::StepLimit`](tile_runtime::InterpretFault);
    /// `None` for no limit. [`DEFAULT_STEP_LIMIT`] unless
    /// [`Interpreter::step_limit`](crate::Interpreter::step_limit) or
    /// `TILE_INTERPRET_STEP_LIMIT` says otherwise.
    pub step_limit: Option<u64>,
}

/// The loop iterations a launch may run by default: 2^24, far more than
/// the interpreter's uses need (a 1024-program grid of 4096-step loops is
/// a quarter of it) and reached in seconds by a loop that never ends.
pub const DEFAULT_STEP_LIMIT: u64 = 1 << 24;

/// The step limit the environment asks for: `TILE_INTERPRET_STEP_LIMIT`
/// as a number of iterations (`0` or `none` for no limit), else
/// [`DEFAULT_STEP_LIMIT`]. A value that is not a number keeps the default.
pub fn step_limit_from_env() -> Option<u64> {
    match std::env::var("TILE_INTERPRET_STEP_LIMIT")
        .ok()
        .as_deref()
        .map(str::trim)
    {
        Some("0" | "none") => None,
        Some(n) => Some(n.parse().unwrap_or(DEFAULT_STEP_LIMIT)),
        None => Some(DEFAULT_STEP_LIMIT),
    }
}

/// Why tile IR cannot be interpreted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslateError {
    /// The op.
    pub op: String,
    /// Where it was written.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TranslateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: `{}` {}", self.location, self.op, self.message)
    }
}

impl std::error::Error for TranslateError {}

type R<T> = Result<T, TranslateError>;

impl Program {
    /// True when the program does float arithmetic that the GPU may round
    /// differently: float sums (grouped by layout there), PTX
    /// approximations (`exp`, `exp2`, `log`, `log2`, `rsqrt`, `sin`,
    /// `cos`), or both a multiply and an add or subtract (which the GPU's
    /// compiler may fuse). Its results are compared with the GPU's within
    /// a ULP bound; every other program must match bit for bit (`+`, `-`,
    /// `*`, `/` and `sqrt` alone are correctly rounded on both).
    pub fn rounds_floats(&self) -> bool {
        #[derive(Default)]
        struct Seen {
            sum: bool,
            approx: bool,
            mul: bool,
            add: bool,
        }
        fn walk(body: &Body, seen: &mut Seen) {
            for i in &body.insts {
                match &i.kind {
                    Kind::Float(FloatOp::Add | FloatOp::Sub) => seen.add = true,
                    Kind::Float(FloatOp::Mul) => seen.mul = true,
                    Kind::Unary(u) => {
                        seen.approx |= !matches!(
                            u,
                            UnaryOp::Neg
                                | UnaryOp::Abs
                                | UnaryOp::Floor
                                | UnaryOp::Ceil
                                | UnaryOp::Sqrt
                        )
                    }
                    // Tensor cores add products in their own order.
                    Kind::Dot { .. } => {
                        seen.sum |= i.ty.as_ref().and_then(TileType::num) == Some(DType::F32)
                    }
                    Kind::Reduce {
                        kind: ReduceKind::Sum,
                        ..
                    } => {
                        seen.sum |=
                            i.ty.as_ref()
                                .and_then(TileType::num)
                                .is_some_and(DType::is_float)
                    }
                    _ => i.kind.bodies().for_each(|b| walk(b, seen)),
                }
            }
        }
        let mut seen = Seen::default();
        walk(&self.body, &mut seen);
        seen.sum || seen.approx || (seen.mul && seen.add)
    }

    /// The input type of the program's float `tile.dot`s with the fewest
    /// significand bits (f32 inputs count as TF32 unless `ieee`), and those
    /// bits; `None` without float products. An input the kernel rounds to
    /// that type itself (attention's probabilities) can land on the other
    /// neighbour on the GPU, which moves the product by that type's ULP.
    pub fn coarsest_float_dot_input(&self) -> Option<(DType, u32)> {
        fn bits(d: DType, precision: InputPrecision) -> Option<u32> {
            match (d, precision) {
                (DType::F32, InputPrecision::Ieee) => Some(23),
                (DType::F32 | DType::F16, _) => Some(10),
                (DType::BF16, _) => Some(7),
                (DType::F8E4M3, _) => Some(3),
                (DType::F8E5M2, _) => Some(2),
                _ => None,
            }
        }
        fn walk(body: &Body, out: &mut Option<(DType, u32)>) {
            for i in &body.insts {
                match &i.kind {
                    Kind::Dot {
                        inputs: Some(d),
                        precision,
                        ..
                    } => {
                        if let Some(b) = bits(*d, *precision)
                            && out.is_none_or(|(_, o)| b < o)
                        {
                            *out = Some((*d, b));
                        }
                    }
                    kind => kind.bodies().for_each(|b| walk(b, out)),
                }
            }
        }
        let mut out = None;
        walk(&self.body, &mut out);
        out
    }
}

#[cfg(test)]
mod tests;
