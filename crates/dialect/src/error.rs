//! Errors: broken rules with the op and the user's source line, and MLIR
//! diagnostics turned into Rust values.
//!
//! ```
//! use tile_dialect::{DType, Kernel};
//!
//! let context = tile_dialect::new_context().unwrap();
//! // A block of 1000 elements: aranges must have power-of-two lengths.
//! let Err(err) = Kernel::build(&context, "bad", |k| {
//!     let _ = k.arange(0, 1000);
//! }) else {
//!     panic!("a 1000-element arange was accepted");
//! };
//! let message = err.to_string();
//! // The message names the op, the rule and this file's line.
//! assert!(message.contains("tile.arange"), "{message}");
//! assert!(message.contains(file!()), "{message}");
//! # let _ = DType::F32;
//! ```

use crate::types::shape_str;
use std::fmt;

/// A place in the user's Rust source (from `#[track_caller]`) or in a parsed
/// `.mlir` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLoc {
    /// File name as the compiler or the parser saw it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl SourceLoc {
    /// The location of the caller of the enclosing `#[track_caller]` chain.
    #[track_caller]
    pub fn caller() -> Self {
        std::panic::Location::caller().into()
    }
}

impl From<&std::panic::Location<'_>> for SourceLoc {
    fn from(l: &std::panic::Location<'_>) -> Self {
        SourceLoc {
            file: l.file().to_string(),
            line: l.line(),
            column: l.column(),
        }
    }
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A rule of tile IR that a program broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Two shapes that neither match nor broadcast.
    ShapeMismatch {
        /// Shape of the first operand.
        lhs: Vec<i64>,
        /// Shape of the second operand.
        rhs: Vec<i64>,
    },
    /// A broadcast to a shape the source cannot reach.
    ImpossibleBroadcast {
        /// The source shape.
        from: Vec<i64>,
        /// The requested shape.
        to: Vec<i64>,
    },
    /// Two element types that must agree do not.
    DTypeMismatch {
        /// The expected element type.
        expected: String,
        /// The element type found.
        found: String,
    },
    /// An operand of the wrong kind (`what` names it, `expected` says what fits).
    WrongOperand {
        /// Which operand.
        what: &'static str,
        /// What would have been accepted.
        expected: &'static str,
        /// The type found.
        found: String,
    },
    /// `mask` given on a block-pointer load or store.
    MaskOnBlockPointer,
    /// `other` given on a block-pointer load.
    OtherOnBlockPointer,
    /// `other` given without a `mask`.
    OtherWithoutMask,
    /// `boundary_check` given on a load or store through plain pointers.
    BoundaryCheckWithoutBlockPointer,
    /// `padding_option` given on a load through plain pointers.
    PaddingWithoutBlockPointer,
    /// An axis outside `0..rank`.
    AxisOutOfRange {
        /// What the axis is for (`boundary_check`, `reduce`, ...).
        what: &'static str,
        /// The axis given.
        axis: i64,
        /// The rank it must be below.
        rank: usize,
    },
    /// The same axis listed twice.
    DuplicateAxis {
        /// What the axes are for.
        what: &'static str,
        /// The repeated axis.
        axis: i64,
    },
    /// `order` is not a permutation of `0..rank`.
    OrderNotPermutation {
        /// The order given.
        order: Vec<i64>,
    },
    /// Block-pointer parts of different ranks.
    RankMismatch {
        /// Number of shape entries.
        shape: usize,
        /// Number of stride entries.
        strides: usize,
        /// Number of offset entries.
        offsets: usize,
        /// Rank of the block shape.
        block_shape: usize,
        /// Number of order entries.
        order: usize,
    },
    /// Advance offsets of the wrong count.
    AdvanceRank {
        /// The block pointer's rank.
        rank: usize,
        /// Offsets given.
        offsets: usize,
    },
    /// Tile dimensions that are not powers of two.
    NotPowerOfTwo {
        /// What the dimensions are (`block_shape`, `arange`, ...).
        what: &'static str,
        /// The dimensions given.
        dims: Vec<i64>,
    },
    /// An empty range or one that does not fit i32.
    BadRange {
        /// Start.
        start: i64,
        /// End.
        end: i64,
    },
    /// A stored value whose shape differs from the pointer tile.
    StoreShapeMismatch {
        /// The value's shape.
        value: Vec<i64>,
        /// The pointer tile's shape.
        ptr: Vec<i64>,
    },
    /// A mask that cannot be broadcast to the pointer tile.
    MaskNotBroadcastable {
        /// The mask's shape.
        mask: Vec<i64>,
        /// The pointer tile's shape.
        ptr: Vec<i64>,
    },
    /// An `other` that cannot be broadcast to the pointer tile.
    OtherNotBroadcastable {
        /// The other's shape.
        other: Vec<i64>,
        /// The pointer tile's shape.
        ptr: Vec<i64>,
    },
    /// The result type an op states differs from what its operands give.
    ResultMismatch {
        /// The type the rules derive.
        expected: String,
        /// The type the op states.
        found: String,
    },
    /// A required attribute is missing or malformed.
    BadAttribute {
        /// The attribute's name.
        name: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// A padding constant that does not fit the element type.
    BadPadding {
        /// Why.
        reason: String,
    },
    /// An operation the element type does not support.
    UnsupportedDType {
        /// The operation.
        what: &'static str,
        /// The element type.
        dtype: DType,
    },
    /// An operation the GPU path cannot compile for the element type
    /// (float math that would need libdevice; see
    /// [`float_math`](crate::float_math)).
    NotCompilable {
        /// The operation.
        what: &'static str,
        /// The element type.
        dtype: DType,
    },
    /// `tile.dot` operands that are not [M, K] and [K, N] matrices.
    DotShapes {
        /// The shape of `a`.
        a: Vec<i64>,
        /// The shape of `b`.
        b: Vec<i64>,
    },
    /// `tile.dot` dimensions below 16 or not powers of two.
    DotDims {
        /// Rows of `a` and of the result.
        m: i64,
        /// Columns of `b` and of the result.
        n: i64,
        /// The reduced dimension.
        k: i64,
    },
    /// `tile.dot` inputs of types tensor cores do not multiply together.
    DotInputs {
        /// The element type of `a`.
        a: DType,
        /// The element type of `b`.
        b: DType,
    },
    /// A `tile.dot` accumulator of the wrong type or shape.
    DotAccumulator {
        /// The type it must have.
        expected: String,
        /// The type it has.
        found: String,
    },
    /// An `input_precision` other than "ieee" on inputs that are not f32.
    DotPrecision {
        /// The precision asked for.
        precision: crate::ops::InputPrecision,
        /// The inputs' element type.
        dtype: DType,
    },
    /// A value used outside the loop body that defined it.
    ValueOutOfScope,
    /// A value from another kernel builder.
    ForeignValue,
    /// A loop body that yields values of other types than it carries.
    LoopCarriedMismatch {
        /// Index of the carried value.
        index: usize,
        /// Type carried in.
        expected: String,
        /// Type yielded.
        found: String,
    },
    /// The two branches of an `if` that yield values of different types.
    BranchMismatch {
        /// Index of the result.
        index: usize,
        /// Type the `then` branch yields.
        then: String,
        /// Type the `else` branch yields.
        otherwise: String,
    },
    /// MLIR refused to create an op the rules accepted (a bug: please report).
    MlirRejected {
        /// What melior reported.
        message: String,
    },
    /// A kernel argument or kernel name that MLIR cannot hold.
    BadName {
        /// The name.
        name: String,
    },
    /// Two kernel arguments of the same name.
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A kernel argument of a type kernels cannot take.
    BadParamType {
        /// The argument's name.
        name: String,
        /// Its type.
        ty: String,
    },
    /// A tile of more than [`MAX_TILE_ELEMENTS`](crate::limits::MAX_TILE_ELEMENTS) elements.
    TileTooLarge {
        /// Its shape.
        shape: Vec<i64>,
    },
    /// Regions nested deeper than [`MAX_NESTING_DEPTH`](crate::limits::MAX_NESTING_DEPTH).
    TooDeep {
        /// The depth reached.
        depth: usize,
    },
    /// A literal that is not a value of its element type (1e10 as f16).
    LiteralOutOfRange {
        /// The literal.
        value: String,
        /// The element type.
        dtype: DType,
    },
    /// An integer division or remainder by a literal zero.
    DivisionByZero,
    /// A loop step that is a literal zero or below.
    NonPositiveStep {
        /// The step.
        step: i64,
    },
    /// A loop's `num_stages` (its `tile.loop_stages`, or the
    /// `tile.num_stages` the pipeliner puts on it) outside 1 to
    /// [`crate::limits::MAX_NUM_STAGES`].
    LoopStages {
        /// The stages asked for.
        stages: i64,
    },
    /// The operands of a join (of one shape) or of a cat (of one shape but
    /// along its axis) disagree.
    UnequalShapes {
        /// The first operand's shape.
        lhs: Vec<i64>,
        /// The second operand's shape.
        rhs: Vec<i64>,
        /// The cat's axis; `None` for a join.
        axis: Option<usize>,
    },
    /// A reshape to a shape with another number of elements.
    ReshapeSize {
        /// The source shape.
        from: Vec<i64>,
        /// The shape asked for.
        to: Vec<i64>,
    },
    /// An op that computes on its values given 8-bit floats, which are
    /// only stored, loaded, moved and converted.
    Fp8Arithmetic {
        /// The 8-bit float type.
        dtype: String,
    },
    /// A hint on a value no op of the kernel computes: a kernel argument
    /// (whose facts come from specialization), a loop's or a branch's
    /// result.
    HintTarget {
        /// The hint (`multiple_of`, ...).
        hint: &'static str,
    },
    /// A hint on a value that is neither an integer nor a pointer.
    HintType {
        /// The hint.
        hint: &'static str,
        /// The value's type.
        ty: String,
    },
    /// A hint's values: not one per axis, not from 1 to 2^30, or a run
    /// longer than its axis.
    HintValues {
        /// The hint.
        hint: &'static str,
        /// The values given.
        values: Vec<i64>,
        /// The value's shape.
        shape: Vec<i64>,
    },
}

use crate::DType;

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::ShapeMismatch { lhs, rhs } => write!(
                f,
                "shapes {} and {} do not match and cannot be broadcast together",
                shape_str(lhs),
                shape_str(rhs)
            ),
            Rule::ImpossibleBroadcast { from, to } => write!(
                f,
                "cannot broadcast shape {} to {}: only axes of size 1 can grow",
                shape_str(from),
                shape_str(to)
            ),
            Rule::DTypeMismatch { expected, found } => write!(
                f,
                "element type mismatch: expected {expected}, found {found} (cast explicitly with .to())"
            ),
            Rule::WrongOperand {
                what,
                expected,
                found,
            } => write!(f, "{what} must be {expected}, found {found}"),
            Rule::MaskOnBlockPointer => f.write_str(
                "mask is not allowed with a block pointer; use boundary_check and padding_option",
            ),
            Rule::OtherOnBlockPointer => f.write_str(
                "other is not allowed with a block pointer; use boundary_check and padding_option",
            ),
            Rule::OtherWithoutMask => f.write_str("other is only meaningful with a mask"),
            Rule::BoundaryCheckWithoutBlockPointer => f.write_str(
                "boundary_check needs a block pointer; mask a tensor of pointers instead",
            ),
            Rule::PaddingWithoutBlockPointer => f.write_str(
                "padding_option needs a block pointer; use mask and other with a tensor of pointers",
            ),
            Rule::AxisOutOfRange { what, axis, rank } => write!(
                f,
                "{what} axis {axis} is out of range for rank {rank} (valid: 0..{rank})"
            ),
            Rule::DuplicateAxis { what, axis } => write!(f, "{what} lists axis {axis} twice"),
            Rule::OrderNotPermutation { order } => write!(
                f,
                "order {} is not a permutation of 0..{}",
                shape_str(order),
                order.len()
            ),
            Rule::RankMismatch {
                shape,
                strides,
                offsets,
                block_shape,
                order,
            } => write!(
                f,
                "block pointer parts disagree in rank: shape {shape}, strides {strides}, offsets {offsets}, block_shape {block_shape}, order {order}"
            ),
            Rule::AdvanceRank { rank, offsets } => write!(
                f,
                "advance needs {rank} offsets for a rank-{rank} block pointer, found {offsets}"
            ),
            Rule::NotPowerOfTwo { what, dims } => write!(
                f,
                "{what} {} has a dimension that is not a power of two",
                shape_str(dims)
            ),
            Rule::BadRange { start, end } => write!(
                f,
                "range {start}..{end} must be non-empty, within i32, and of power-of-two length"
            ),
            Rule::StoreShapeMismatch { value, ptr } => write!(
                f,
                "stored value of shape {} does not match the pointer tile {}",
                shape_str(value),
                shape_str(ptr)
            ),
            Rule::MaskNotBroadcastable { mask, ptr } => write!(
                f,
                "mask of shape {} cannot be broadcast to the pointer tile {}",
                shape_str(mask),
                shape_str(ptr)
            ),
            Rule::OtherNotBroadcastable { other, ptr } => write!(
                f,
                "other of shape {} cannot be broadcast to the pointer tile {}",
                shape_str(other),
                shape_str(ptr)
            ),
            Rule::ResultMismatch { expected, found } => {
                write!(f, "result type must be {expected}, found {found}")
            }
            Rule::BadAttribute { name, expected } => {
                write!(f, "attribute '{name}' must be {expected}")
            }
            Rule::BadPadding { reason } => write!(f, "bad padding: {reason}"),
            Rule::UnsupportedDType { what, dtype } => {
                write!(f, "{what} is not defined for element type {dtype}")
            }
            Rule::NotCompilable { what, dtype } => {
                write!(f, "{what} on {dtype} {}", crate::float_math::WHY_NOT)
            }
            Rule::DotShapes { a, b } => write!(
                f,
                "dot multiplies an [M, K] matrix by a [K, N] one, got {} and {}",
                shape_str(a),
                shape_str(b)
            ),
            Rule::DotDims { m, n, k } => write!(
                f,
                "dot needs M, N and K to be powers of two of at least 16, got M = {m}, N = {n}, K = {k}"
            ),
            Rule::DotInputs { a, b } => write!(
                f,
                "dot takes two f16, two bf16, two f32 or two i8 inputs, got {a} and {b} (cast explicitly with .to())"
            ),
            Rule::DotAccumulator { expected, found } => write!(
                f,
                "the accumulator of this dot must be {expected}, found {found}"
            ),
            Rule::DotPrecision { precision, dtype } => write!(
                f,
                "input_precision \"{precision}\" applies to f32 inputs; these are {dtype}"
            ),
            Rule::ValueOutOfScope => f.write_str(
                "value used outside the loop body that defined it (carry it through the loop instead)",
            ),
            Rule::ForeignValue => f.write_str("value belongs to another kernel builder"),
            Rule::HintTarget { hint } => write!(
                f,
                "{hint} applies to a value an op computes, not to a kernel argument or a loop's \
                 or branch's result (an argument's facts come from specialization)"
            ),
            Rule::HintType { hint, ty } => {
                write!(f, "{hint} applies to integers and pointers, not to {ty}")
            }
            Rule::HintValues {
                hint,
                values,
                shape,
            } => write!(
                f,
                "{hint} needs one value per axis of shape {} (one for a scalar), each from 1 to \
                 2^30 and, for runs, at most its axis; got {}",
                shape_str(shape),
                shape_str(values)
            ),
            Rule::LoopCarriedMismatch {
                index,
                expected,
                found,
            } => write!(
                f,
                "loop-carried value {index} enters as {expected} but the body yields {found}"
            ),
            Rule::BranchMismatch {
                index,
                then,
                otherwise,
            } => write!(
                f,
                "result {index} of the if is {then} in the then branch but {otherwise} in the else branch"
            ),
            Rule::MlirRejected { message } => {
                write!(f, "MLIR could not create the op ({message}); please report this")
            }
            Rule::BadName { name } => write!(
                f,
                "name `{name}` must be non-empty ASCII letters, digits and '_', not starting with a digit"
            ),
            Rule::DuplicateName { name } => {
                write!(f, "the kernel already has an argument named `{name}`")
            }
            Rule::BadParamType { name, ty } => write!(
                f,
                "kernel argument `{name}` cannot be {ty}: arguments are i8 to i64, f16 to f64 or pointers (pass a flag as an i32 and compare it, an fp8 scalar as an f16 or f32 and convert it)"
            ),
            Rule::TileTooLarge { shape } => write!(
                f,
                "a tile of shape {} has {} elements; at most {} (2^20, as in Triton) are allowed",
                shape_str(shape),
                crate::limits::elements(shape).map_or("more than 2^64".into(), |n| n.to_string()),
                crate::limits::MAX_TILE_ELEMENTS
            ),
            Rule::TooDeep { depth } => write!(
                f,
                "regions nest {depth} deep; at most {} levels are allowed",
                crate::limits::MAX_NESTING_DEPTH
            ),
            Rule::LiteralOutOfRange { value, dtype } => write!(
                f,
                "the literal {value} is not a value of {dtype} (it would change on rounding)"
            ),
            Rule::DivisionByZero => {
                f.write_str("integer division or remainder by a literal zero is undefined")
            }
            Rule::NonPositiveStep { step } => write!(
                f,
                "a loop step must be positive, got {step} (a loop that never advances, or counts down, is not a counted loop)"
            ),
            Rule::LoopStages { stages } => write!(
                f,
                "a loop's num_stages must be from 1 to {}, got {stages}",
                crate::limits::MAX_NUM_STAGES
            ),
            Rule::UnequalShapes { lhs, rhs, axis: None } => write!(
                f,
                "join needs operands of one shape, got {} and {}",
                shape_str(lhs),
                shape_str(rhs)
            ),
            Rule::UnequalShapes {
                lhs,
                rhs,
                axis: Some(a),
            } => write!(
                f,
                "cat along axis {a} needs operands of one rank that agree on every other axis, got {} and {}",
                shape_str(lhs),
                shape_str(rhs)
            ),
            Rule::Fp8Arithmetic { dtype } => write!(
                f,
                "does not take {dtype}: 8-bit floats are only loaded, stored, moved and converted; convert to f16 or f32 first"
            ),
            Rule::ReshapeSize { from, to } => write!(
                f,
                "cannot reshape {} ({} elements) to {} ({} elements)",
                shape_str(from),
                from.iter().product::<i64>(),
                shape_str(to),
                to.iter().product::<i64>()
            ),
        }
    }
}

/// A rule broken while building a kernel: the op, the rule and the line of
/// the builder call that broke it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: error: '{op}': {rule}")]
pub struct BuildError {
    /// The op that could not be built (`tile.load`, `arith.addf`, ...).
    pub op: &'static str,
    /// The rule it broke.
    pub rule: Rule,
    /// The user's source line.
    pub at: SourceLoc,
}

/// One MLIR diagnostic, with its location as MLIR prints it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {severity}: {message}")]
pub struct Diagnostic {
    /// `error`, `warning`, `note` or `remark`.
    pub severity: &'static str,
    /// The location (`file:line:col` for file locations).
    pub location: String,
    /// The message.
    pub message: String,
}

/// Every error of this crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A kernel-builder call broke a rule.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// MLIR or the tile verifier rejected IR, with its diagnostics.
    #[error("{what} failed verification{}", lines(diagnostics))]
    Invalid {
        /// What was being checked (`kernel safe_kernel`, `input`, ...).
        what: String,
        /// The diagnostics, in order.
        diagnostics: Vec<Diagnostic>,
    },
    /// MLIR text that did not parse.
    #[error("MLIR text did not parse{}", lines(diagnostics))]
    Parse {
        /// The diagnostics MLIR gave.
        diagnostics: Vec<Diagnostic>,
    },
    /// An error from melior.
    #[error("MLIR: {0}")]
    Mlir(#[from] melior::Error),
}

/// Each diagnostic on a line of its own, after a newline.
pub fn lines(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| format!("\n{d}")).collect()
}

/// This crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
