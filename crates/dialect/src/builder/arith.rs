//! Elementwise arithmetic, comparisons and casts.
//!
//! Operands are coerced the way the seeds' Python is: a literal takes the
//! element type of the tile beside it, shapes broadcast numpy-style, and
//! element types must then agree exactly (cast explicitly with `.to()`).

use super::kernel::{KernelBuilder, expect_num};
use super::tile::{BinOp, CmpOp, Operand, Tile};
use crate::error::{Rule, SourceLoc};
use crate::rules;
use crate::types::{Elem, TileType};
use crate::{DType, ops};
use melior::ir::Attribute;
use melior::ir::attribute::IntegerAttribute;
use melior::ir::r#type::IntegerType;

/// A coerced operand: a value id and its type.
pub(super) type Typed = (u32, TileType);

impl<'k> KernelBuilder<'k> {
    pub(super) fn int_attr(&self, bits: u32, v: i64) -> Attribute<'k> {
        IntegerAttribute::new(IntegerType::new(self.context, bits).into(), v).into()
    }

    /// Resolves operands to typed values of one common shape: literals
    /// become constants of the other operand's element type (i32 beside a
    /// pointer), scalars and smaller tensors are broadcast.
    pub(super) fn coerce(
        &'k self,
        op: &'static str,
        operands: &[Operand<'k>],
        at: &SourceLoc,
    ) -> Option<Vec<Typed>> {
        let mut types = Vec::with_capacity(operands.len());
        for o in operands {
            types.push(match o {
                Operand::Tile(t) => Some(self.type_of(op, *t, at)?),
                _ => None,
            });
        }
        let Some(model) = types.iter().flatten().next().cloned() else {
            return self.fail(
                op,
                Rule::WrongOperand {
                    what: "operands",
                    expected: "at least one tile",
                    found: "only literals".into(),
                },
                at,
            );
        };
        let mut shape: Vec<i64> = vec![];
        for t in types.iter().flatten() {
            match rules::broadcast_shapes(&shape, t.shape()) {
                Some(s) => shape = s,
                None => {
                    return self.fail(
                        op,
                        Rule::ShapeMismatch {
                            lhs: shape,
                            rhs: t.shape().to_vec(),
                        },
                        at,
                    );
                }
            }
        }
        let literal_type = match model.elem() {
            Some(Elem::Ptr(_)) => TileType::tensor(&shape, Elem::Num(DType::I32)),
            Some(e) => TileType::tensor(&shape, e),
            None => {
                return self.fail(
                    op,
                    Rule::WrongOperand {
                        what: "operand",
                        expected: "a number or pointer tile",
                        found: model.to_string(),
                    },
                    at,
                );
            }
        };
        let mut out = Vec::with_capacity(operands.len());
        for (o, t) in operands.iter().zip(types) {
            let (id, ty) = match (o, t) {
                (Operand::Tile(tile), Some(ty)) => (tile.id, ty),
                (lit, _) => {
                    let c = self.constant_of(op, *lit, &literal_type, at);
                    (c.id, c.ty()?)
                }
            };
            out.push(self.broadcast_value(op, id, ty, &shape, at)?);
        }
        Some(out)
    }

    /// Broadcasts a value to `shape`: splat for scalars, leading unit axes
    /// for lower ranks, then `tile.broadcast` over axes of size 1.
    pub(super) fn broadcast_value(
        &'k self,
        op: &'static str,
        id: u32,
        ty: TileType,
        shape: &[i64],
        at: &SourceLoc,
    ) -> Option<Typed> {
        if ty.shape() == shape {
            return Some((id, ty));
        }
        if !rules::broadcasts_to(ty.shape(), shape) || ty.is_block_ptr() {
            return self.fail(
                op,
                Rule::ImpossibleBroadcast {
                    from: ty.shape().to_vec(),
                    to: shape.to_vec(),
                },
                at,
            );
        }
        if ty.is_scalar() {
            let result = self.check(op, at, rules::splat(&ty, shape))?;
            let t = self.emit1(ops::SPLAT, at, &[id], &[], result.clone());
            return Some((t.id, result));
        }
        let (mut id, mut ty) = (id, ty);
        while ty.shape().len() < shape.len() {
            let result = self.check(op, at, rules::expand_dims(&ty, 0))?;
            let axis = self.int_attr(32, 0);
            id = self
                .emit1(
                    ops::EXPAND_DIMS,
                    at,
                    &[id],
                    &[("axis", axis)],
                    result.clone(),
                )
                .id;
            ty = result;
        }
        if ty.shape() != shape {
            let result = self.check(op, at, rules::broadcast(&ty, shape))?;
            id = self
                .emit1(ops::BROADCAST, at, &[id], &[], result.clone())
                .id;
            ty = result;
        }
        Some((id, ty))
    }

    pub(super) fn binary(
        &'k self,
        op: BinOp,
        a: Operand<'k>,
        b: Operand<'k>,
        at: &SourceLoc,
    ) -> Tile<'k> {
        let guess = self.guess_dtype(&[a, b]);
        let name = binary_op_name(op, guess.unwrap_or(DType::F32));
        let Some(v) = self.coerce(name, &[a, b], at) else {
            return self.poison();
        };
        let [(ia, ta), (ib, tb)] = [v[0].clone(), v[1].clone()];
        match (ta.elem(), tb.elem(), op) {
            (Some(Elem::Ptr(_)), Some(Elem::Num(_)), BinOp::Add) => {
                self.addptr(ia, &ta, ib, &tb, at)
            }
            (Some(Elem::Num(_)), Some(Elem::Ptr(_)), BinOp::Add) => {
                self.addptr(ib, &tb, ia, &ta, at)
            }
            (Some(Elem::Ptr(_)), Some(Elem::Num(_)), BinOp::Sub) => {
                let zero = self.constant_of(ops::ADDPTR, Operand::Int(0), &tb, at);
                let neg = self.emit_binary(BinOp::Sub, zero.id, ib, &tb, at);
                match neg.ty() {
                    Some(t) => self.addptr(ia, &ta, neg.id, &t, at),
                    None => self.poison(),
                }
            }
            (Some(Elem::Num(da)), Some(Elem::Num(db)), _) => {
                if da != db {
                    return self
                        .fail(
                            name,
                            Rule::DTypeMismatch {
                                expected: da.to_string(),
                                found: db.to_string(),
                            },
                            at,
                        )
                        .unwrap_or_else(|| self.poison());
                }
                self.emit_binary(op, ia, ib, &ta, at)
            }
            _ => self
                .fail(
                    name,
                    Rule::WrongOperand {
                        what: "arithmetic operands",
                        expected: "numbers, or a pointer plus an integer offset",
                        found: format!("{ta} and {tb}"),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison()),
        }
    }

    fn guess_dtype(&self, operands: &[Operand<'k>]) -> Option<DType> {
        operands.iter().find_map(|o| match o {
            Operand::Tile(t) => t.ty().and_then(|t| t.num()),
            _ => None,
        })
    }

    fn addptr(
        &'k self,
        ptr: u32,
        pt: &TileType,
        off: u32,
        ot: &TileType,
        at: &SourceLoc,
    ) -> Tile<'k> {
        match self.check(ops::ADDPTR, at, rules::addptr(pt, ot)) {
            Some(result) => self.emit1(ops::ADDPTR, at, &[ptr, off], &[], result),
            None => self.poison(),
        }
    }

    /// Emits the arith/math op for `op` on two values of type `ty`.
    fn emit_binary(&'k self, op: BinOp, a: u32, b: u32, ty: &TileType, at: &SourceLoc) -> Tile<'k> {
        let Some(d) = ty.num() else {
            return self.poison();
        };
        let name = binary_op_name(op, d);
        if d.is_integer()
            && matches!(op, BinOp::Div | BinOp::Rem | BinOp::CeilDiv)
            && self.constant_int(b) == Some(0)
        {
            return self
                .fail(name, Rule::DivisionByZero, at)
                .unwrap_or_else(|| self.poison());
        }
        let float_only_int = (d.is_float()
            && matches!(op, BinOp::And | BinOp::Or | BinOp::Xor | BinOp::CeilDiv))
            || (!d.is_float() && op == BinOp::DivRn);
        let approx_needs_f32 =
            op == BinOp::DivApprox && !matches!(d, DType::F16 | DType::BF16 | DType::F32);
        if float_only_int || approx_needs_f32 {
            return self
                .fail(
                    name,
                    Rule::UnsupportedDType {
                        what: name,
                        dtype: d,
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        }
        if let Some(refused) = not_compilable(name, d) {
            return self
                .fail(name, refused, at)
                .unwrap_or_else(|| self.poison());
        }
        // `/` on f16, bf16 and f32 divides as Triton's does (`div.full.f32`,
        // 2 ulp), as `div_approx` says explicitly; `div_rn` is exact.
        let approximate = op == BinOp::DivApprox
            || (op == BinOp::Div && matches!(d, DType::F16 | DType::BF16 | DType::F32));
        if approximate {
            let afn = Attribute::parse(self.context, "#arith.fastmath<afn>")
                .expect("the fastmath attribute parses");
            return self.emit1(name, at, &[a, b], &[("fastmath", afn)], ty.clone());
        }
        self.emit1(name, at, &[a, b], &[], ty.clone())
    }

    pub(super) fn compare(
        &'k self,
        op: CmpOp,
        a: Operand<'k>,
        b: Operand<'k>,
        at: &SourceLoc,
    ) -> Tile<'k> {
        let float = self.guess_dtype(&[a, b]).is_some_and(DType::is_float);
        let name = if float { "arith.cmpf" } else { "arith.cmpi" };
        let Some(v) = self.coerce(name, &[a, b], at) else {
            return self.poison();
        };
        let [(ia, ta), (ib, tb)] = [v[0].clone(), v[1].clone()];
        let (Some(da), Some(db)) = (ta.num(), tb.num()) else {
            return self
                .fail(
                    name,
                    Rule::WrongOperand {
                        what: "comparison operands",
                        expected: "numbers",
                        found: format!("{ta} and {tb}"),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        };
        if da != db {
            return self
                .fail(
                    name,
                    Rule::DTypeMismatch {
                        expected: da.to_string(),
                        found: db.to_string(),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        }
        let (name, predicate) = if da.is_float() {
            ("arith.cmpf", cmpf_predicate(op))
        } else {
            ("arith.cmpi", cmpi_predicate(op, da == DType::I1))
        };
        let predicate = self.int_attr(64, predicate);
        self.emit1(
            name,
            at,
            &[ia, ib],
            &[("predicate", predicate)],
            ta.with_elem(Elem::Num(DType::I1)),
        )
    }

    pub(super) fn negate(&'k self, x: Tile<'k>, at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of("arith.negf", x, at) else {
            return self.poison();
        };
        match t.num() {
            Some(d) if d.is_float() => self.emit1("arith.negf", at, &[x.id], &[], t),
            Some(_) => self.binary(BinOp::Sub, Operand::Int(0), Operand::Tile(x), at),
            None => self
                .fail(
                    "arith.negf",
                    Rule::WrongOperand {
                        what: "negation operand",
                        expected: "a number tile",
                        found: t.to_string(),
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison()),
        }
    }

    pub(super) fn float_unary(
        &'k self,
        name: &'static str,
        x: Tile<'k>,
        at: &SourceLoc,
    ) -> Tile<'k> {
        self.float_unary_marked(name, x, false, at)
    }

    /// `name` marked `fastmath<afn>`: the approximation the GPU computes
    /// for it ([`crate::float_math::approximate_math`]); f16, bf16, f32.
    pub(super) fn approximate_float_unary(
        &'k self,
        name: &'static str,
        x: Tile<'k>,
        at: &SourceLoc,
    ) -> Tile<'k> {
        self.float_unary_marked(name, x, true, at)
    }

    fn float_unary_marked(
        &'k self,
        name: &'static str,
        x: Tile<'k>,
        approximate: bool,
        at: &SourceLoc,
    ) -> Tile<'k> {
        let Some(t) = self.type_of(name, x, at) else {
            return self.poison();
        };
        let d = match self.check(name, at, expect_num("operand", &t)) {
            Some(d) => d,
            None => return self.poison(),
        };
        if !d.is_float() {
            return self
                .fail(
                    name,
                    Rule::UnsupportedDType {
                        what: name,
                        dtype: d,
                    },
                    at,
                )
                .unwrap_or_else(|| self.poison());
        }
        if approximate {
            if crate::float_math::approximate_math(name, d).is_none() {
                return self
                    .fail(
                        name,
                        Rule::NotCompilable {
                            what: match name {
                                "math.tanh" => "an approximate math.tanh",
                                "math.sqrt" => "an approximate math.sqrt",
                                _ => "an approximate function",
                            },
                            dtype: d,
                        },
                        at,
                    )
                    .unwrap_or_else(|| self.poison());
            }
            let afn = Attribute::parse(self.context, "#arith.fastmath<afn>")
                .expect("the fastmath attribute parses");
            return self.emit1(name, at, &[x.id], &[("fastmath", afn)], t);
        }
        if let Some(refused) = not_compilable(name, d) {
            return self
                .fail(name, refused, at)
                .unwrap_or_else(|| self.poison());
        }
        self.emit1(name, at, &[x.id], &[], t)
    }

    pub(super) fn abs(&'k self, x: Tile<'k>, at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of("math.absf", x, at) else {
            return self.poison();
        };
        match self.check("math.absf", at, expect_num("operand", &t)) {
            Some(d) if d.is_float() => self.emit1("math.absf", at, &[x.id], &[], t),
            Some(_) => self.emit1("math.absi", at, &[x.id], &[], t),
            None => self.poison(),
        }
    }

    pub(super) fn cast(&'k self, x: Tile<'k>, to: DType, at: &SourceLoc) -> Tile<'k> {
        let Some(t) = self.type_of("arith.extf", x, at) else {
            return self.poison();
        };
        let Some(from) = self.check("arith.extf", at, expect_num("cast operand", &t)) else {
            return self.poison();
        };
        let result = t.with_elem(Elem::Num(to));
        if from == to {
            return x;
        }
        if (from.is_fp8() && !to.is_float()) || (to.is_fp8() && !from.is_float()) {
            // Between 8-bit floats and integers through f32, which holds
            // every 8-bit float exactly.
            let wide = self.cast(x, DType::F32, at);
            return self.cast(wide, to, at);
        }
        if to == DType::I1 {
            return self.compare(CmpOp::Ne, Operand::Tile(x), Operand::Int(0), at);
        }
        let name = match (from.is_float(), to.is_float()) {
            (true, true) if from.bits() == to.bits() => {
                // f16 <-> bf16 (and one 8-bit float to the other) goes
                // through f32.
                let wide = self.cast(x, DType::F32, at);
                return self.cast(wide, to, at);
            }
            (true, true) if from.bits() < to.bits() => "arith.extf",
            (true, true) => "arith.truncf",
            (false, false) if from == DType::I1 => "arith.extui",
            (false, false) if from.bits() < to.bits() => "arith.extsi",
            (false, false) => "arith.trunci",
            (false, true) if from == DType::I1 => "arith.uitofp",
            (false, true) => "arith.sitofp",
            (true, false) => "arith.fptosi",
        };
        self.emit1(name, at, &[x.id], &[], result)
    }

    /// `cond ? a : b` elementwise, broadcasting all three.
    #[track_caller]
    pub fn where_(
        &'k self,
        cond: Tile<'k>,
        a: impl super::IntoOperand<'k>,
        b: impl super::IntoOperand<'k>,
    ) -> Tile<'k> {
        let at = SourceLoc::caller();
        let name = "arith.select";
        let Some(v) = self.coerce(name, &[a.into_operand(), b.into_operand()], &at) else {
            return self.poison();
        };
        let [(ia, ta), (ib, tb)] = [v[0].clone(), v[1].clone()];
        if ta != tb {
            return self
                .fail(
                    name,
                    Rule::DTypeMismatch {
                        expected: ta.to_string(),
                        found: tb.to_string(),
                    },
                    &at,
                )
                .unwrap_or_else(|| self.poison());
        }
        let Some(ct) = self.type_of(name, cond, &at) else {
            return self.poison();
        };
        if ct.num() != Some(DType::I1) {
            return self
                .fail(
                    name,
                    Rule::WrongOperand {
                        what: "condition",
                        expected: "i1",
                        found: ct.to_string(),
                    },
                    &at,
                )
                .unwrap_or_else(|| self.poison());
        }
        let Some(shape) = rules::broadcast_shapes(ct.shape(), ta.shape()) else {
            return self
                .fail(
                    name,
                    Rule::ShapeMismatch {
                        lhs: ct.shape().to_vec(),
                        rhs: ta.shape().to_vec(),
                    },
                    &at,
                )
                .unwrap_or_else(|| self.poison());
        };
        let parts = [(cond.id, ct), (ia, ta), (ib, tb)];
        let mut ids = Vec::new();
        let mut result = None;
        for (id, t) in parts {
            let Some((id, t)) = self.broadcast_value(name, id, t, &shape, &at) else {
                return self.poison();
            };
            ids.push(id);
            result = Some(t);
        }
        self.emit1(name, &at, &ids, &[], result.expect("three operands"))
    }
}

/// The rule `name` on `d` breaks when the GPU path cannot compile it
/// (float math that would need libdevice), so the builder refuses it at
/// the user's line instead of a later stage failing.
fn not_compilable(name: &'static str, d: DType) -> Option<Rule> {
    (crate::float_math::is_float_math(name) && crate::float_math::native_math(name, d).is_none())
        .then_some(Rule::NotCompilable {
            what: name,
            dtype: d,
        })
}

fn binary_op_name(op: BinOp, d: DType) -> &'static str {
    let f = d.is_float();
    match op {
        BinOp::Add => {
            if f {
                "arith.addf"
            } else {
                "arith.addi"
            }
        }
        BinOp::Sub => {
            if f {
                "arith.subf"
            } else {
                "arith.subi"
            }
        }
        BinOp::Mul => {
            if f {
                "arith.mulf"
            } else {
                "arith.muli"
            }
        }
        BinOp::Div => {
            if f {
                "arith.divf"
            } else {
                "arith.divsi"
            }
        }
        BinOp::Rem => {
            if f {
                "arith.remf"
            } else {
                "arith.remsi"
            }
        }
        BinOp::And => "arith.andi",
        BinOp::Or => "arith.ori",
        BinOp::Xor => "arith.xori",
        BinOp::Max => {
            if f {
                "arith.maximumf"
            } else {
                "arith.maxsi"
            }
        }
        BinOp::Min => {
            if f {
                "arith.minimumf"
            } else {
                "arith.minsi"
            }
        }
        BinOp::MaxNum => {
            if f {
                "arith.maxnumf"
            } else {
                "arith.maxsi"
            }
        }
        BinOp::MinNum => {
            if f {
                "arith.minnumf"
            } else {
                "arith.minsi"
            }
        }
        BinOp::DivApprox | BinOp::DivRn => "arith.divf",
        BinOp::CeilDiv => "arith.ceildivsi",
    }
}

/// The `arith.cmpi` predicate: signed, but unsigned for booleans
/// (`false < true`, as Triton's int1; signed, `true` would be -1).
fn cmpi_predicate(op: CmpOp, unsigned: bool) -> i64 {
    match (op, unsigned) {
        (CmpOp::Eq, _) => 0,
        (CmpOp::Ne, _) => 1,
        (CmpOp::Lt, false) => 2,
        (CmpOp::Le, false) => 3,
        (CmpOp::Gt, false) => 4,
        (CmpOp::Ge, false) => 5,
        (CmpOp::Lt, true) => 6,
        (CmpOp::Le, true) => 7,
        (CmpOp::Gt, true) => 8,
        (CmpOp::Ge, true) => 9,
    }
}

fn cmpf_predicate(op: CmpOp) -> i64 {
    match op {
        CmpOp::Eq => 1,  // oeq
        CmpOp::Gt => 2,  // ogt
        CmpOp::Ge => 3,  // oge
        CmpOp::Lt => 4,  // olt
        CmpOp::Le => 5,  // ole
        CmpOp::Ne => 13, // une
    }
}
