//! `Tile`, the handle to a value being built, and its operators.

use super::kernel::{KernelBuilder, POISON};
use crate::DType;
use crate::ops::{ReduceKind, ScanKind};
use crate::types::TileType;
use std::fmt;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Rem, Sub};

/// A scalar, tensor or block pointer produced by a builder call.
///
/// Tiles are cheap handles (`Copy`); arithmetic on them builds ops. A tile
/// from a failed call is poison: ops on it do nothing.
///
/// Arithmetic follows C and Triton. Integers wrap at their width; `/`
/// rounds toward zero (`arith.divsi`) and `%` takes the sign of the
/// dividend (`arith.remsi`), so `-7 / 2 == -3` and `-7 % 2 == -1`;
/// `cdiv` rounds up for positive operands; a division by a literal zero
/// is refused when built, by a zero at run time is undefined on the GPU
/// and a fault on the interpreter. Float `/` is correctly rounded
/// (`div.rn`), [`Tile::div_approx`] within 2 ulp; `maximum` and `minimum`
/// propagate NaN, their `_ignoring_nan` forms let the number win.
///
/// ```
/// use tile_dialect::{DType, Kernel};
///
/// let context = tile_dialect::new_context().unwrap();
/// let kernel = Kernel::build(&context, "ops", |k| {
///     let x = k.arg_ptr("x", DType::F32);
///     let offs = k.arange(0, 128);
///     let v = k.load(x + offs).build();
///     let y = v.div_approx(3.0).clamp(-1.0, 1.0, false).maximum_ignoring_nan(v);
///     k.store(x + offs, y).build();
/// })
/// .unwrap();
/// let text = kernel.to_string();
/// assert!(text.contains("arith.divf") && text.contains("fastmath<afn>"), "{text}");
/// assert!(text.contains("arith.maxnumf") && text.contains("arith.minnumf"), "{text}");
/// ```
#[derive(Clone, Copy)]
pub struct Tile<'k> {
    pub(super) builder: &'k KernelBuilder<'k>,
    pub(super) id: u32,
}

impl<'k> Tile<'k> {
    pub(super) fn new(builder: &'k KernelBuilder<'k>, id: u32) -> Self {
        Tile { builder, id }
    }

    pub(super) fn builder_addr(&self) -> *const () {
        self.builder as *const _ as *const ()
    }

    /// The builder this tile belongs to.
    pub fn builder(&self) -> &'k KernelBuilder<'k> {
        self.builder
    }

    /// The tile's type; `None` if it came from a failed call.
    pub fn ty(&self) -> Option<TileType> {
        (self.id != POISON && !self.builder.failed()).then(|| self.builder.peek_type(self.id))
    }

    /// The tile's shape (empty for a scalar); `None` if poison.
    pub fn shape(&self) -> Option<Vec<i64>> {
        self.ty().map(|t| t.shape().to_vec())
    }
}

impl fmt::Debug for Tile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty() {
            Some(t) => write!(f, "Tile(%{}: {t})", self.id),
            None => f.write_str("Tile(poison)"),
        }
    }
}

/// An operand: a tile or a Rust literal that becomes a constant of the type
/// the other operand needs.
#[derive(Clone, Copy, Debug)]
pub enum Operand<'k> {
    /// A built value.
    Tile(Tile<'k>),
    /// An integer literal (fits integer and float types).
    Int(i64),
    /// A float literal (fits float types).
    Float(f64),
    /// A boolean literal (fits i1).
    Bool(bool),
}

/// Anything usable as an operand: tiles and Rust number literals.
pub trait IntoOperand<'k> {
    /// Converts to an operand.
    fn into_operand(self) -> Operand<'k>;
}

impl<'k> IntoOperand<'k> for Tile<'k> {
    fn into_operand(self) -> Operand<'k> {
        Operand::Tile(self)
    }
}
impl<'k> IntoOperand<'k> for Operand<'k> {
    fn into_operand(self) -> Operand<'k> {
        self
    }
}
impl<'k> IntoOperand<'k> for bool {
    fn into_operand(self) -> Operand<'k> {
        Operand::Bool(self)
    }
}
macro_rules! int_operand {
    ($($t:ty),*) => {$(
        impl<'k> IntoOperand<'k> for $t {
            fn into_operand(self) -> Operand<'k> {
                Operand::Int(self as i64)
            }
        }
    )*};
}
int_operand!(i8, i16, i32, i64, u8, u16, u32);
impl<'k> IntoOperand<'k> for f32 {
    fn into_operand(self) -> Operand<'k> {
        Operand::Float(self as f64)
    }
}
impl<'k> IntoOperand<'k> for f64 {
    fn into_operand(self) -> Operand<'k> {
        Operand::Float(self)
    }
}

/// The binary operations the operators build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Max,
    Min,
    MaxNum,
    MinNum,
    DivApprox,
    DivRn,
    CeilDiv,
}

/// Comparisons; signed for integers, ordered for floats (`Ne` unordered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

macro_rules! binary_operator {
    ($trait:ident, $method:ident, $op:expr) => {
        impl<'k, R: IntoOperand<'k>> $trait<R> for Tile<'k> {
            type Output = Tile<'k>;
            #[track_caller]
            fn $method(self, rhs: R) -> Tile<'k> {
                self.builder
                    .binary($op, Operand::Tile(self), rhs.into_operand(), &crate::SourceLoc::caller())
            }
        }
        binary_operator!(@reversed $trait, $method, $op, i32, i64, f32, f64);
    };
    (@reversed $trait:ident, $method:ident, $op:expr, $($t:ty),*) => {$(
        impl<'k> $trait<Tile<'k>> for $t {
            type Output = Tile<'k>;
            #[track_caller]
            fn $method(self, rhs: Tile<'k>) -> Tile<'k> {
                rhs.builder
                    .binary($op, self.into_operand(), Operand::Tile(rhs), &crate::SourceLoc::caller())
            }
        }
    )*};
}

/// `x += y` and the other compound assignments: `x = x + y`, so a loop
/// body (or `#[tile::kernel]` code) can update a carried tile in place.
macro_rules! assign_operator {
    ($($trait:ident, $method:ident, $op:expr;)*) => {$(
        impl<'k, R: IntoOperand<'k>> std::ops::$trait<R> for Tile<'k> {
            #[track_caller]
            fn $method(&mut self, rhs: R) {
                *self = self.builder.binary(
                    $op,
                    Operand::Tile(*self),
                    rhs.into_operand(),
                    &crate::SourceLoc::caller(),
                );
            }
        }
    )*};
}

assign_operator! {
    AddAssign, add_assign, BinOp::Add;
    SubAssign, sub_assign, BinOp::Sub;
    MulAssign, mul_assign, BinOp::Mul;
    DivAssign, div_assign, BinOp::Div;
    RemAssign, rem_assign, BinOp::Rem;
    BitAndAssign, bitand_assign, BinOp::And;
    BitOrAssign, bitor_assign, BinOp::Or;
    BitXorAssign, bitxor_assign, BinOp::Xor;
}

binary_operator!(Add, add, BinOp::Add);
binary_operator!(Sub, sub, BinOp::Sub);
binary_operator!(Mul, mul, BinOp::Mul);
binary_operator!(Div, div, BinOp::Div);
binary_operator!(Rem, rem, BinOp::Rem);
binary_operator!(BitAnd, bitand, BinOp::And);
binary_operator!(BitOr, bitor, BinOp::Or);
binary_operator!(BitXor, bitxor, BinOp::Xor);

impl<'k> Neg for Tile<'k> {
    type Output = Tile<'k>;
    #[track_caller]
    fn neg(self) -> Tile<'k> {
        self.builder.negate(self, &crate::SourceLoc::caller())
    }
}

impl<'k> Not for Tile<'k> {
    type Output = Tile<'k>;
    /// Logical not of an i1 tile (bitwise not of integers).
    #[track_caller]
    fn not(self) -> Tile<'k> {
        self.builder.binary(
            BinOp::Xor,
            Operand::Tile(self),
            Operand::Int(-1),
            &crate::SourceLoc::caller(),
        )
    }
}

macro_rules! compare_method {
    ($($name:ident => $op:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        #[track_caller]
        pub fn $name(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
            self.builder.compare($op, Operand::Tile(self), rhs.into_operand(), &crate::SourceLoc::caller())
        }
    )*};
}

macro_rules! unary_math_method {
    ($($name:ident => $op:literal;)*) => {$(
        #[doc = concat!("Elementwise `", $op, "` (floats only).")]
        #[track_caller]
        pub fn $name(self) -> Tile<'k> {
            self.builder.float_unary($op, self, &crate::SourceLoc::caller())
        }
    )*};
}

impl<'k> Tile<'k> {
    compare_method! {
        lt => CmpOp::Lt, "Elementwise `<` (an i1 tile; broadcasts like arithmetic).";
        le => CmpOp::Le, "Elementwise `<=`.";
        gt => CmpOp::Gt, "Elementwise `>`.";
        ge => CmpOp::Ge, "Elementwise `>=`.";
        eq => CmpOp::Eq, "Elementwise `==`.";
        ne => CmpOp::Ne, "Elementwise `!=` (true where either float is NaN).";
    }

    unary_math_method! {
        exp => "math.exp";
        exp2 => "math.exp2";
        log => "math.log";
        log2 => "math.log2";
        sqrt => "math.sqrt";
        rsqrt => "math.rsqrt";
        sin => "math.sin";
        cos => "math.cos";
        tanh => "math.tanh";
        erf => "math.erf";
        floor => "math.floor";
        ceil => "math.ceil";
    }

    /// Elementwise approximate `tanh`: `math.tanh` marked
    /// `fastmath<afn>`, which the GPU computes with one `tanh.approx.f32`
    /// (relative error at most 2^-10.987, about 11 bits; f16 and bf16
    /// through f32) instead of [`tanh`](Self::tanh)'s 4-ulp sequence, as
    /// Triton users write `tanh.approx.f32` in inline assembly for a fast
    /// GELU. The interpreter computes `tanh` exactly. f16, bf16 and f32
    /// only.
    #[track_caller]
    pub fn tanh_approx(self) -> Tile<'k> {
        self.builder
            .approximate_float_unary("math.tanh", self, &crate::SourceLoc::caller())
    }

    /// Elementwise approximate square root: `math.sqrt` marked
    /// `fastmath<afn>`, which the GPU computes with one `sqrt.approx.f32`
    /// (within 1 ulp on sm_52 and later, NVIDIA's bound for `sqrtf`
    /// without `-prec-sqrt`; f16 and bf16 through f32) instead of
    /// [`sqrt`](Self::sqrt)'s correctly rounded `sqrt.rn`, a sequence with
    /// a branch to a slow path. It is what Triton's `tl.sqrt` is (its
    /// `tl.sqrt_rn` is our `sqrt`): `rstd = 1 / (var + eps).sqrt_approx()`
    /// is a LayerNorm as Triton's tutorial writes it. The interpreter
    /// computes `sqrt` exactly. f16, bf16 and f32 only.
    #[track_caller]
    pub fn sqrt_approx(self) -> Tile<'k> {
        self.builder
            .approximate_float_unary("math.sqrt", self, &crate::SourceLoc::caller())
    }

    /// Elementwise logistic sigmoid, `1 / (1 + exp(-self))` (floats only;
    /// `exp`'s and `/`'s accuracy, see [`crate::float_math`]).
    #[track_caller]
    pub fn sigmoid(self) -> Tile<'k> {
        if !self.is_float_for("sigmoid", &crate::SourceLoc::caller()) {
            return self.builder.poison();
        }
        1.0 / ((-self).exp() + 1.0)
    }

    /// Whether `self` holds floats, as the composite float function
    /// `what` (built of several ops) needs; if not, records the error
    /// under `what` at the user's line, not under an op the user never
    /// wrote.
    fn is_float_for(self, what: &'static str, at: &crate::SourceLoc) -> bool {
        let k = self.builder;
        let Some(t) = k.type_of(what, self, at) else {
            return false;
        };
        match t.num() {
            Some(d) if d.is_float() => true,
            Some(d) => {
                k.fail::<()>(what, crate::Rule::UnsupportedDType { what, dtype: d }, at);
                false
            }
            None => {
                let found = t.to_string();
                let rule = crate::Rule::WrongOperand {
                    what: "operand",
                    expected: "a float tile",
                    found,
                };
                k.fail::<()>(what, rule, at);
                false
            }
        }
    }

    /// Elementwise `self^n` for an integer `n` (floats), by repeated
    /// squaring: about `2 log2 |n|` correctly rounded multiplications, so
    /// within about that many ulp; a negative `n` divides 1 by `self^|n|`
    /// (with `/`, so 2 ulp more in f32).
    /// `powi(0)` is 1 for every `self`, NaN included (C's `pown`).
    #[track_caller]
    pub fn powi(self, n: i32) -> Tile<'k> {
        if !self.is_float_for("powi", &crate::SourceLoc::caller()) {
            return self.builder.poison();
        }
        if n == 0 {
            return self.zeros_like() + 1.0;
        }
        let mut base = self;
        let mut e = n.unsigned_abs();
        let mut acc: Option<Tile<'k>> = None;
        while e > 0 {
            if e & 1 == 1 {
                acc = Some(match acc {
                    Some(a) => a * base,
                    None => base,
                });
            }
            e >>= 1;
            if e > 0 {
                base = base * base;
            }
        }
        let power = acc.expect("n is not zero");
        if n < 0 { 1.0 / power } else { power }
    }

    /// Elementwise `self^y` for float `y` (floats): `2^(y log2 |self|)`
    /// by `lg2.approx` and `ex2.approx`, with C's special cases: the sign
    /// of `self` kept for an odd integer `y`, NaN for a negative `self`
    /// and a non-integer `y`, 1 for `y == 0` or `self == 1` (`-0` is taken
    /// as `+0`: `pow(-0, -1)` is `+inf`, not C's `-inf`). The error is
    /// that of the exponent: within `4 + 6 |y| + 1.5 |y log2 |self||` ulp
    /// (measured by `tile-tools gpu-check math-accuracy`).
    #[track_caller]
    pub fn pow(self, y: impl IntoOperand<'k>) -> Tile<'k> {
        let k = self.builder;
        if !self.is_float_for("pow", &crate::SourceLoc::caller()) {
            return k.poison();
        }
        let y = self.zeros_like() + y;
        let magnitude = (y * self.abs().log2()).exp2();
        let is_integer = y.floor().eq(y);
        let half = y * 0.5;
        let is_odd = is_integer & half.floor().ne(half);
        let negative = k.where_(is_odd, -magnitude, magnitude);
        let nan = self.zeros_like() + f64::NAN;
        let signed = k.where_(self.lt(0.0), k.where_(is_integer, negative, nan), magnitude);
        let one = self.eq(1.0) | y.eq(0.0);
        k.where_(one, self.zeros_like() + 1.0, signed)
    }

    /// Zeros of `self`'s type and shape, whatever `self` holds (`x * 0`
    /// is NaN for an infinite or NaN `x`; `maxnum` makes that 0).
    #[track_caller]
    fn zeros_like(self) -> Tile<'k> {
        (self * 0.0).maximum_ignoring_nan(0.0)
    }

    /// Elementwise `self * b + c`, rounded once (a fused multiply-add;
    /// floats of one type, literals take it, shapes broadcast).
    #[track_caller]
    pub fn fma(self, b: impl IntoOperand<'k>, c: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.fma(
            Operand::Tile(self),
            b.into_operand(),
            c.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise absolute value.
    #[track_caller]
    pub fn abs(self) -> Tile<'k> {
        self.builder.abs(self, &crate::SourceLoc::caller())
    }

    /// Elementwise maximum (NaN-propagating for floats).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[128], DType::F32);
    /// let relu = x.maximum(0.0);
    /// assert_eq!(relu.shape(), Some(vec![128]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn maximum(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::Max,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise minimum (NaN-propagating for floats).
    #[track_caller]
    pub fn minimum(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::Min,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise approximate division of floats: `arith.divf` marked
    /// `fastmath<afn>`, which the GPU computes with `div.full.f32` (2 ulp,
    /// f16/bf16 through f32; Triton's `fdiv(ieee_rounding=False)`). `/` on
    /// f16, bf16 and f32 is the same division (as Triton's `/`); this
    /// method says so where a reader should see it. The interpreter
    /// divides exactly. f16, bf16 and f32 only.
    #[track_caller]
    pub fn div_approx(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::DivApprox,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise correctly rounded division of floats (`div.rn`; Triton's
    /// `tl.math.div_rn`): plain `arith.divf`. `/` on f16, bf16 and f32 is
    /// Triton's approximate `div.full.f32` (within 2 ulp), which costs a
    /// fraction of this sequence's instructions and registers; f64's `/` is
    /// correctly rounded already. Floats only.
    #[track_caller]
    pub fn div_rn(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::DivRn,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise maximum that ignores NaN: where one operand is NaN the
    /// other is the result (IEEE 754 `maxNum`, Triton's
    /// `propagate_nan=NONE`; [`maximum`](Self::maximum) propagates it).
    /// Integers: as `maximum`.
    #[track_caller]
    pub fn maximum_ignoring_nan(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::MaxNum,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise minimum that ignores NaN (see
    /// [`maximum_ignoring_nan`](Self::maximum_ignoring_nan)).
    #[track_caller]
    pub fn minimum_ignoring_nan(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::MinNum,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Elementwise `min(max(self, lo), hi)` (Triton's `tl.clamp`). With
    /// `propagate_nan` a NaN anywhere gives NaN; without, NaN operands are
    /// ignored, so a NaN in `self` gives `lo` (clamped by `hi`).
    #[track_caller]
    pub fn clamp(
        self,
        lo: impl IntoOperand<'k>,
        hi: impl IntoOperand<'k>,
        propagate_nan: bool,
    ) -> Tile<'k> {
        let at = crate::SourceLoc::caller();
        let (max, min) = if propagate_nan {
            (BinOp::Max, BinOp::Min)
        } else {
            (BinOp::MaxNum, BinOp::MinNum)
        };
        let low = self
            .builder
            .binary(max, Operand::Tile(self), lo.into_operand(), &at);
        self.builder
            .binary(min, Operand::Tile(low), hi.into_operand(), &at)
    }

    /// Integer division rounding up: `(self + rhs - 1) / rhs` for positive
    /// operands.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let n = k.arg("n", DType::I32);
    /// let programs = n.cdiv(128); // (n + 127) / 128
    /// assert_eq!(programs.shape(), Some(vec![]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn cdiv(self, rhs: impl IntoOperand<'k>) -> Tile<'k> {
        self.builder.binary(
            BinOp::CeilDiv,
            Operand::Tile(self),
            rhs.into_operand(),
            &crate::SourceLoc::caller(),
        )
    }

    /// Converts to another element type (`f16`/`bf16`/`f32`/`i32`/`i64`...).
    /// Casting to i1 compares with zero.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[64], DType::F32);
    /// assert_eq!(x.to(DType::F16).ty().unwrap().to_string(), "tensor<64xf16>");
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn to(self, dtype: DType) -> Tile<'k> {
        self.builder.cast(self, dtype, &crate::SourceLoc::caller())
    }

    /// Inserts an axis of size 1 at `axis`: `x.expand_dims(1)` is `x[:, None]`.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let rows = k.arange(0, 32);
    /// assert_eq!(rows.expand_dims(1).shape(), Some(vec![32, 1])); // rows[:, None]
    /// assert_eq!(rows.expand_dims(0).shape(), Some(vec![1, 32])); // rows[None, :]
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn expand_dims(self, axis: i64) -> Tile<'k> {
        self.builder
            .expand_dims(self, axis, &crate::SourceLoc::caller())
    }

    /// Broadcasts to `shape` (numpy rules: leading axes added, axes of size
    /// 1 repeated).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let col = k.arange(0, 16).expand_dims(1);
    /// assert_eq!(col.broadcast_to(&[16, 8]).shape(), Some(vec![16, 8]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn broadcast_to(self, shape: &[i64]) -> Tile<'k> {
        self.builder
            .broadcast_to(self, shape, &crate::SourceLoc::caller())
    }

    /// Reduces along `axis`; with `keep_dims` the axis stays with size 1.
    #[track_caller]
    pub fn reduce(self, kind: ReduceKind, axis: i64, keep_dims: bool) -> Tile<'k> {
        self.builder
            .reduce(self, kind, axis, keep_dims, &crate::SourceLoc::caller())
    }

    /// Sum along `axis` (the axis is removed).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[32, 64], DType::F32);
    /// assert_eq!(x.sum(1).shape(), Some(vec![32])); // one sum per row
    /// assert_eq!(x.sum(0).shape(), Some(vec![64])); // one per column
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn sum(self, axis: i64) -> Tile<'k> {
        self.builder.reduce(
            self,
            ReduceKind::Sum,
            axis,
            false,
            &crate::SourceLoc::caller(),
        )
    }

    /// Maximum along `axis` (the axis is removed).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[4, 1024], DType::F32);
    /// // A softmax's max, subtracted row by row.
    /// let z = x - x.max(1).expand_dims(1);
    /// assert_eq!(z.shape(), Some(vec![4, 1024]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn max(self, axis: i64) -> Tile<'k> {
        self.builder.reduce(
            self,
            ReduceKind::Max,
            axis,
            false,
            &crate::SourceLoc::caller(),
        )
    }

    /// Minimum along `axis` (the axis is removed).
    #[track_caller]
    pub fn min(self, axis: i64) -> Tile<'k> {
        self.builder.reduce(
            self,
            ReduceKind::Min,
            axis,
            false,
            &crate::SourceLoc::caller(),
        )
    }

    /// The index (`i32`) of the largest element along `axis`, the smallest
    /// index among equal maxima; a NaN counts as larger than any number,
    /// as in `torch.argmax`. With `keep_dims` the axis stays with size 1.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.zeros(&[8, 128], DType::F32);
    /// let at = x.argmax(1, false);
    /// assert_eq!(at.ty().unwrap().to_string(), "tensor<8xi32>");
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn argmax(self, axis: i64, keep_dims: bool) -> Tile<'k> {
        self.builder.reduce(
            self,
            ReduceKind::ArgMax,
            axis,
            keep_dims,
            &crate::SourceLoc::caller(),
        )
    }

    /// The index (`i32`) of the smallest element along `axis`, the
    /// smallest index among equal minima; a NaN counts as smaller than any
    /// number, as in `torch.argmin`. With `keep_dims` the axis stays with
    /// size 1.
    #[track_caller]
    pub fn argmin(self, axis: i64, keep_dims: bool) -> Tile<'k> {
        self.builder.reduce(
            self,
            ReduceKind::ArgMin,
            axis,
            keep_dims,
            &crate::SourceLoc::caller(),
        )
    }

    /// The inclusive scan along `axis`: element `i` combines elements
    /// `0..=i` (with `reverse`, `i..n`). Sums and products of f16/bf16
    /// accumulate in f32 and round each result once; integer ones wrap;
    /// float max and min ignore NaN (`maxnum`/`minnum`), integer ones are
    /// signed. Float sums on the GPU group terms differently from a
    /// left-to-right sum, so they agree with it within rounding, not bit
    /// for bit.
    #[track_caller]
    pub fn scan(self, kind: ScanKind, axis: i64, reverse: bool) -> Tile<'k> {
        self.builder
            .scan(self, kind, axis, reverse, &crate::SourceLoc::caller())
    }

    /// The running sum along `axis` (see [`Tile::scan`]).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.full(&[256], 1i64, DType::I32);
    /// let prefix = x.cumsum(0); // 1, 2, 3, ...
    /// assert_eq!(prefix.shape(), Some(vec![256]));
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn cumsum(self, axis: i64) -> Tile<'k> {
        self.builder.scan(
            self,
            ScanKind::Sum,
            axis,
            false,
            &crate::SourceLoc::caller(),
        )
    }

    /// The running product along `axis` (see [`Tile::scan`]).
    #[track_caller]
    pub fn cumprod(self, axis: i64) -> Tile<'k> {
        self.builder.scan(
            self,
            ScanKind::Prod,
            axis,
            false,
            &crate::SourceLoc::caller(),
        )
    }

    /// Moves a block pointer by `offsets` elements along each axis.
    #[track_caller]
    pub fn advance<T: IntoOperand<'k>>(self, offsets: impl IntoIterator<Item = T>) -> Tile<'k> {
        let offsets: Vec<Operand<'k>> =
            offsets.into_iter().map(IntoOperand::into_operand).collect();
        self.builder
            .advance(self, &offsets, &crate::SourceLoc::caller())
    }
}
