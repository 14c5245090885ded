//! Tile IR read into a program the interpreter can run: one instruction
//! per op, with its operands and results as slots, its attributes parsed
//! and its source location kept.
//!
//! Everything that can be checked before running is checked here: ops the
//! interpreter does not know, and ops the GPU path refuses (float math that
//! would need libdevice), are errors at the op, so a kernel that the
//! interpreter accepts is one the GPU path compiles.

use crate::float;
use crate::value::{Elems, Tensor};
use std::fmt;
use tile_dialect::DType;
use tile_dialect::types::TileType;
use tile_passes::mirror::{Mirror, Op};

/// The reduction of `tile.reduce`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceKind {
    /// Sum (floats pairwise; f16 and bf16 accumulated in f32).
    Sum,
    /// Maximum (floats ignore NaN, as `maxnum`; integers signed).
    Max,
    /// Minimum (floats ignore NaN, as `minnum`; integers signed).
    Min,
}

/// What out-of-bounds elements of a `tile.block_load` read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fill {
    /// Zero.
    Zero,
    /// A quiet NaN.
    Nan,
    /// Undefined on the GPU; the interpreter reads NaN for floats and 0 for
    /// integers, so code that depends on it is easy to spot.
    Undefined,
    /// A constant of the element type.
    Value(f64),
}

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
    /// `tile.make_block_ptr` of a rank.
    MakeBlockPtr(usize),
    /// `tile.advance`.
    Advance,
    /// `tile.block_load`.
    BlockLoad {
        /// The checked axes.
        check: Vec<usize>,
        /// What out-of-bounds elements read.
        fill: Fill,
    },
    /// `tile.block_store`.
    BlockStore {
        /// The checked axes.
        check: Vec<usize>,
    },
    /// `tile.reduce`.
    Reduce {
        /// Sum, max or min.
        kind: ReduceKind,
        /// The reduced axis.
        axis: usize,
        /// Whether the axis stays (with size 1).
        keep_dims: bool,
    },
    /// `tile.convert_layout`: the same value.
    Identity,
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
    /// `scf.for`, with its body.
    For(Body),
    /// `scf.yield`.
    Yield,
    /// `func.return`.
    Return,
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

fn error(op: &Op, message: impl Into<String>) -> TranslateError {
    TranslateError {
        op: op.name.clone(),
        location: source_location(&op.loc),
        message: message.into(),
    }
}

/// `file:line:column` from MLIR's printed `loc("file":line:column)`; other
/// locations are kept as printed.
pub fn source_location(loc: &str) -> String {
    let inner = loc
        .strip_prefix("loc(")
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or(loc);
    if let Some(rest) = inner.strip_prefix('"')
        && let Some((file, line_col)) = rest.rsplit_once('"')
        && let Some(line_col) = line_col.strip_prefix(':')
    {
        return format!("{file}:{line_col}");
    }
    inner.to_string()
}

impl Program {
    /// Reads the kernel (the one `func.func` with the `tile.kernel`
    /// attribute, or the only one) out of a mirrored module.
    pub fn from_mirror(m: &Mirror) -> R<Program> {
        let funcs: Vec<&Op> = m.ops.iter().filter(|o| o.name == "func.func").collect();
        let func = funcs
            .iter()
            .find(|f| f.attr("tile.kernel").is_some())
            .or(funcs.first())
            .copied()
            .ok_or_else(|| TranslateError {
                op: "builtin.module".into(),
                location: "module".into(),
                message: "holds no func.func kernel".into(),
            })?;
        let name = func
            .str_attr("sym_name")
            .ok_or_else(|| error(func, "has no name"))?;
        let block = func
            .regions
            .first()
            .ok_or_else(|| error(func, "has no body"))?;
        let names = func
            .attr("arg_attrs")
            .map(tile_passes::axis_analysis::split_dicts)
            .unwrap_or_default();
        let mut params = Vec::new();
        for (i, &slot) in block.args.iter().enumerate() {
            let ty = parse_type(m.ty(slot)).ok_or_else(|| {
                error(
                    func,
                    format!(
                        "argument {i} has a type ({}) the interpreter does not know",
                        m.ty(slot)
                    ),
                )
            })?;
            if !ty.is_scalar() {
                return Err(error(func, format!("argument {i} is not a scalar: {ty}")));
            }
            let name = names
                .get(i)
                .and_then(|d| d.split_once("tile.name = \""))
                .and_then(|(_, rest)| rest.split_once('"'))
                .map_or_else(|| format!("arg{i}"), |(n, _)| n.to_string());
            params.push(Param { name, ty, slot });
        }
        let body = Body {
            args: vec![],
            insts: block
                .ops
                .iter()
                .map(|op| translate(m, op))
                .collect::<R<_>>()?,
        };
        Ok(Program {
            name,
            params,
            body,
            slots: m.values.len(),
        })
    }

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
                    Kind::Reduce {
                        kind: ReduceKind::Sum,
                        ..
                    } => {
                        seen.sum |=
                            i.ty.as_ref()
                                .and_then(TileType::num)
                                .is_some_and(DType::is_float)
                    }
                    Kind::For(b) => walk(b, seen),
                    _ => {}
                }
            }
        }
        let mut seen = Seen::default();
        walk(&self.body, &mut seen);
        seen.sum || seen.approx || (seen.mul && seen.add)
    }
}

fn parse_type(text: &str) -> Option<TileType> {
    TileType::parse(text)
}

fn result_type(m: &Mirror, op: &Op) -> R<Option<TileType>> {
    match op.results.first() {
        None => Ok(None),
        Some(&v) => parse_type(m.ty(v)).map(Some).ok_or_else(|| {
            error(
                op,
                format!(
                    "has a result type ({}) the interpreter does not know",
                    m.ty(v)
                ),
            )
        }),
    }
}

fn axis_attr(op: &Op, name: &str) -> R<usize> {
    let v = op
        .int_attr(name)
        .ok_or_else(|| error(op, format!("has no integer `{name}`")))?;
    usize::try_from(v).map_err(|_| error(op, format!("has a negative `{name}`")))
}

fn segments(op: &Op, count: usize) -> R<Vec<usize>> {
    let s = op
        .segments()
        .ok_or_else(|| error(op, "has no operandSegmentSizes"))?;
    if s.len() != count || s.iter().any(|&x| x < 0) {
        return Err(error(op, format!("has operandSegmentSizes {s:?}")));
    }
    Ok(s.into_iter().map(|x| x as usize).collect())
}

fn translate(m: &Mirror, op: &Op) -> R<Inst> {
    let ty = result_type(m, op)?;
    let kind = kind(m, op, ty.as_ref())?;
    Ok(Inst {
        kind,
        operands: op.operands.clone(),
        results: op.results.clone(),
        ty,
        op: op.name.clone(),
        location: source_location(&op.loc),
    })
}

fn kind(m: &Mirror, op: &Op, ty: Option<&TileType>) -> R<Kind> {
    let elem = ty.and_then(TileType::num);
    Ok(match op.name.as_str() {
        "tile.program_id" => Kind::ProgramId(axis_attr(op, "axis")?.min(3)),
        "tile.num_programs" => Kind::NumPrograms(axis_attr(op, "axis")?.min(3)),
        "tile.arange" => Kind::Arange(op.int_attr("start").unwrap_or(0)),
        "tile.splat" => Kind::Splat,
        "tile.broadcast" => Kind::Broadcast,
        "tile.expand_dims" => Kind::ExpandDims(axis_attr(op, "axis")?),
        "tile.addptr" => Kind::AddPtr,
        "tile.convert_layout" => Kind::Identity,
        "tile.load" => {
            let s = segments(op, 3)?;
            Kind::Load {
                mask: s[1] == 1,
                other: s[2] == 1,
            }
        }
        "tile.store" => Kind::Store {
            mask: segments(op, 3)?[2] == 1,
        },
        "tile.make_block_ptr" => {
            let s = segments(op, 4)?;
            if s[0] != 1 || s[1] != s[2] || s[1] != s[3] {
                return Err(error(op, format!("has operand groups {s:?}")));
            }
            Kind::MakeBlockPtr(s[1])
        }
        "tile.advance" => Kind::Advance,
        "tile.block_load" => {
            let d = match ty {
                Some(t) => t.num().ok_or_else(|| error(op, "loads no numbers"))?,
                None => return Err(error(op, "has no result")),
            };
            Kind::BlockLoad {
                check: checked_axes(op)?,
                fill: fill(op, d)?,
            }
        }
        "tile.block_store" => Kind::BlockStore {
            check: checked_axes(op)?,
        },
        "tile.reduce" => Kind::Reduce {
            kind: match op.str_attr("kind").as_deref() {
                Some("sum") => ReduceKind::Sum,
                Some("max") => ReduceKind::Max,
                Some("min") => ReduceKind::Min,
                other => return Err(error(op, format!("has reduction kind {other:?}"))),
            },
            axis: axis_attr(op, "axis")?,
            keep_dims: op.int_attr("keep_dims").unwrap_or(0) != 0,
        },
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
        name @ ("math.exp" | "math.exp2" | "math.log" | "math.log2" | "math.rsqrt" | "math.sin"
        | "math.cos") => {
            if elem == Some(DType::F64) {
                return Err(error(
                    op,
                    "on f64 would need NVIDIA's libdevice, which the GPU path does not link \
                     (the interpreter refuses what the GPU cannot run)",
                ));
            }
            Kind::Unary(match name {
                "math.exp" => UnaryOp::Exp,
                "math.exp2" => UnaryOp::Exp2,
                "math.log" => UnaryOp::Log,
                "math.log2" => UnaryOp::Log2,
                "math.rsqrt" => UnaryOp::Rsqrt,
                "math.sin" => UnaryOp::Sin,
                _ => UnaryOp::Cos,
            })
        }
        "math.absi" => Kind::AbsI,
        "arith.extf" | "arith.truncf" => Kind::Cast(CastOp::Float),
        "arith.extsi" => Kind::Cast(CastOp::ExtS),
        "arith.extui" => Kind::Cast(CastOp::ExtU),
        "arith.trunci" => Kind::Cast(CastOp::Trunc),
        "arith.sitofp" => Kind::Cast(CastOp::SIToFP),
        "arith.uitofp" => Kind::Cast(CastOp::UIToFP),
        "arith.fptosi" => Kind::Cast(CastOp::FPToSI),
        "arith.fptoui" => Kind::Cast(CastOp::FPToUI),
        "arith.cmpi" => Kind::CmpI(int_predicate(op)?),
        "arith.cmpf" => Kind::CmpF(float_predicate(op)?),
        "arith.select" => Kind::Select,
        "scf.for" => {
            let block = match op.regions.as_slice() {
                [b] => b,
                _ => return Err(error(op, "needs exactly one body")),
            };
            if block.args.len() != op.operands.len() - 2 {
                return Err(error(
                    op,
                    "has a body whose arguments do not match its operands",
                ));
            }
            Kind::For(Body {
                args: block.args.clone(),
                insts: block
                    .ops
                    .iter()
                    .map(|o| translate(m, o))
                    .collect::<R<_>>()?,
            })
        }
        "scf.yield" => Kind::Yield,
        "func.return" => Kind::Return,
        "math.tanh" | "arith.remf" => {
            return Err(error(
                op,
                "would need NVIDIA's libdevice, which the GPU path does not link (the \
                 interpreter refuses what the GPU cannot run)",
            ));
        }
        other => {
            return Err(error(
                op,
                format!("is not an op the interpreter knows ({other})"),
            ));
        }
    })
}

fn checked_axes(op: &Op) -> R<Vec<usize>> {
    op.array_attr("boundary_check")
        .unwrap_or_default()
        .into_iter()
        .map(|a| usize::try_from(a).map_err(|_| error(op, "checks a negative axis")))
        .collect()
}

fn fill(op: &Op, d: DType) -> R<Fill> {
    let text = op.attr("padding").unwrap_or("\"zero\"");
    Ok(match text {
        "\"zero\"" => Fill::Zero,
        "\"undefined\"" => Fill::Undefined,
        "\"nan\"" if d.is_float() => Fill::Nan,
        "\"nan\"" => return Err(error(op, "pads an integer block with nan")),
        constant => {
            let number = constant.split(" : ").next().unwrap_or(constant).trim();
            Fill::Value(
                parse_number(number, d)
                    .ok_or_else(|| error(op, format!("has padding {constant}")))?,
            )
        }
    })
}

/// A printed number of type `d` (`3`, `true`, `1.5e+00`, `0x7FC00000`) as
/// the interpreter holds it.
fn parse_number(text: &str, d: DType) -> Option<f64> {
    let text = text.trim();
    if d.is_integer() {
        return match text {
            "true" => Some(1.0),
            "false" => Some(0.0),
            t => t.parse::<i64>().ok().map(|v| v as f64),
        };
    }
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        let bits = u64::from_str_radix(hex, 16).ok()?;
        return Some(match d {
            DType::F64 => f64::from_bits(bits),
            DType::F32 => f32::from_bits(bits as u32) as f64,
            DType::BF16 => f32::from_bits((bits as u32) << 16) as f64,
            _ => float::f16_to_f64(bits as u16),
        });
    }
    text.parse::<f64>().ok().map(|v| float::round(v, d))
}

/// The integer printed as `text`, read exactly (not through an `f64`).
fn parse_int(text: &str) -> Option<i64> {
    match text.trim() {
        "true" => Some(1),
        "false" => Some(0),
        t => t
            .parse::<i64>()
            .ok()
            .or_else(|| t.parse::<u64>().ok().map(|u| u as i64)),
    }
}

fn constant(op: &Op, ty: Option<&TileType>) -> R<Tensor> {
    let ty = ty.ok_or_else(|| error(op, "has no result"))?;
    let d = ty.num().ok_or_else(|| error(op, "is not a number"))?;
    let shape: Vec<usize> = ty.shape().iter().map(|&x| x as usize).collect();
    let n: usize = shape.iter().product();
    let text = op.attr("value").ok_or_else(|| error(op, "has no value"))?;
    // `dense<V> : tensor<...>` or `V : type` (an i1 prints as `true`).
    let value = match text.strip_prefix("dense<") {
        Some(rest) => {
            rest.rsplit_once("> : ")
                .ok_or_else(|| error(op, "has a malformed value"))?
                .0
        }
        None => text.split(" : ").next().unwrap_or(text),
    };
    let items: Vec<&str> = value
        .split([',', '[', ']'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if items.len() != 1 && items.len() != n {
        return Err(error(
            op,
            format!("has {} values for {n} elements", items.len()),
        ));
    }
    let pick = |i: usize| items[if items.len() == 1 { 0 } else { i }];
    let bad = || {
        error(
            op,
            format!("has a value the interpreter cannot read: {text}"),
        )
    };
    let elems = if d.is_float() {
        Elems::Float(
            (0..n)
                .map(|i| parse_number(pick(i), d).ok_or_else(bad))
                .collect::<R<_>>()?,
        )
    } else {
        Elems::Int(
            (0..n)
                .map(|i| {
                    parse_int(pick(i))
                        .map(|v| crate::value::wrap(v, d))
                        .ok_or_else(bad)
                })
                .collect::<R<_>>()?,
        )
    };
    Ok(Tensor {
        shape,
        dtype: d,
        elems,
    })
}

fn int_predicate(op: &Op) -> R<Predicate> {
    let p = |lt, eq, gt, unsigned| Predicate {
        lt,
        eq,
        gt,
        unsigned_or_unordered: unsigned,
    };
    // arith.cmpi prints its predicate as an integer attribute.
    Ok(match op.int_attr("predicate") {
        Some(0) => p(false, true, false, false), // eq
        Some(1) => p(true, false, true, false),  // ne
        Some(2) => p(true, false, false, false), // slt
        Some(3) => p(true, true, false, false),  // sle
        Some(4) => p(false, false, true, false), // sgt
        Some(5) => p(false, true, true, false),  // sge
        Some(6) => p(true, false, false, true),  // ult
        Some(7) => p(true, true, false, true),   // ule
        Some(8) => p(false, false, true, true),  // ugt
        Some(9) => p(false, true, true, true),   // uge
        other => return Err(error(op, format!("has predicate {other:?}"))),
    })
}

fn float_predicate(op: &Op) -> R<Predicate> {
    let p = |lt, eq, gt, unordered| Predicate {
        lt,
        eq,
        gt,
        unsigned_or_unordered: unordered,
    };
    Ok(match op.int_attr("predicate") {
        Some(0) => p(false, false, false, false), // false
        Some(1) => p(false, true, false, false),  // oeq
        Some(2) => p(false, false, true, false),  // ogt
        Some(3) => p(false, true, true, false),   // oge
        Some(4) => p(true, false, false, false),  // olt
        Some(5) => p(true, true, false, false),   // ole
        Some(6) => p(true, false, true, false),   // one
        Some(7) => p(true, true, true, false),    // ord
        Some(8) => p(false, true, false, true),   // ueq
        Some(9) => p(false, false, true, true),   // ugt
        Some(10) => p(false, true, true, true),   // uge
        Some(11) => p(true, false, false, true),  // ult
        Some(12) => p(true, true, false, true),   // ule
        Some(13) => p(true, false, true, true),   // une
        Some(14) => p(false, false, false, true), // uno
        Some(15) => p(true, true, true, true),    // true
        other => return Err(error(op, format!("has predicate {other:?}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_locations_read_as_file_line_column() {
        assert_eq!(source_location("loc(\"src/k.rs\":12:9)"), "src/k.rs:12:9");
        assert_eq!(source_location("loc(unknown)"), "unknown");
    }

    #[test]
    fn numbers_read_in_every_spelling() {
        assert_eq!(parse_number("1.000000e+00", DType::F32), Some(1.0));
        assert_eq!(
            parse_number("0xFF800000", DType::F32),
            Some(f64::NEG_INFINITY)
        );
        assert!(parse_number("0x7FC00000", DType::F32).unwrap().is_nan());
        assert_eq!(parse_number("0x3C00", DType::F16), Some(1.0));
        assert_eq!(parse_number("0x3F80", DType::BF16), Some(1.0));
        assert_eq!(parse_number("0.1", DType::F32), Some(0.1f32 as f64));
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int("true"), Some(1));
    }
}
