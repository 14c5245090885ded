//! Constants, program ids and ranges: the values a kernel starts from.

use super::kernel::KernelBuilder;
use super::tile::{Operand, Tile};
use crate::error::{Rule, SourceLoc};
use crate::rules;
use crate::types::{Elem, TileType};
use crate::{DType, ops};

impl<'k> KernelBuilder<'k> {
    /// A scalar constant of type `dtype`.
    #[track_caller]
    pub fn constant(&'k self, value: impl super::IntoOperand<'k>, dtype: DType) -> Tile<'k> {
        self.full(&[], value, dtype)
    }

    /// An i32 scalar constant.
    #[track_caller]
    pub fn i32(&'k self, value: i32) -> Tile<'k> {
        self.full(&[], value, DType::I32)
    }

    /// An i64 scalar constant.
    #[track_caller]
    pub fn i64(&'k self, value: i64) -> Tile<'k> {
        self.full(&[], value, DType::I64)
    }

    /// An f32 scalar constant.
    #[track_caller]
    pub fn f32(&'k self, value: f32) -> Tile<'k> {
        self.full(&[], value, DType::F32)
    }

    /// A tensor of `shape` filled with `value` (a scalar for an empty shape).
    #[track_caller]
    pub fn full(
        &'k self,
        shape: &[i64],
        value: impl super::IntoOperand<'k>,
        dtype: DType,
    ) -> Tile<'k> {
        let at = SourceLoc::caller();
        if self.failed() {
            return self.poison();
        }
        if !shape.is_empty()
            && self
                .check(
                    "arith.constant",
                    &at,
                    rules::tensor_shape("full shape", shape),
                )
                .is_none()
        {
            return self.poison();
        }
        match value.into_operand() {
            Operand::Tile(t) => {
                let Some(ty) = self.type_of(ops::SPLAT, t, &at) else {
                    return self.poison();
                };
                if ty.num() != Some(dtype) {
                    return self
                        .fail(
                            ops::SPLAT,
                            Rule::DTypeMismatch {
                                expected: dtype.to_string(),
                                found: ty.to_string(),
                            },
                            &at,
                        )
                        .unwrap_or_else(|| self.poison());
                }
                match self.broadcast_value(ops::SPLAT, t.id, ty, shape, &at) {
                    Some((id, _)) => self.tile(id),
                    None => self.poison(),
                }
            }
            lit => self.constant_of(
                "arith.constant",
                lit,
                &TileType::tensor(shape, Elem::Num(dtype)),
                &at,
            ),
        }
    }

    /// A tensor of `shape` filled with zeros.
    #[track_caller]
    pub fn zeros(&'k self, shape: &[i64], dtype: DType) -> Tile<'k> {
        self.full(shape, 0, dtype)
    }

    /// The program's index along `axis` (0, 1 or 2).
    #[track_caller]
    pub fn program_id(&'k self, axis: i64) -> Tile<'k> {
        self.grid_query(ops::PROGRAM_ID, axis, &SourceLoc::caller())
    }

    /// The number of programs along `axis` (0, 1 or 2).
    #[track_caller]
    pub fn num_programs(&'k self, axis: i64) -> Tile<'k> {
        self.grid_query(ops::NUM_PROGRAMS, axis, &SourceLoc::caller())
    }

    fn grid_query(&'k self, name: &'static str, axis: i64, at: &SourceLoc) -> Tile<'k> {
        if self.failed() {
            return self.poison();
        }
        match self.check(name, at, rules::program_id(axis)) {
            Some(result) => {
                let axis = self.int_attr(32, axis);
                self.emit1(name, at, &[], &[("axis", axis)], result)
            }
            None => self.poison(),
        }
    }

    /// The i32 tensor `start, start + 1, ..., end - 1`; its length must be
    /// a power of two.
    #[track_caller]
    pub fn arange(&'k self, start: i32, end: i32) -> Tile<'k> {
        let at = SourceLoc::caller();
        if self.failed() {
            return self.poison();
        }
        match self.check(ops::ARANGE, &at, rules::arange(start.into(), end.into())) {
            Some(result) => {
                let s = self.int_attr(32, start.into());
                let e = self.int_attr(32, end.into());
                self.emit1(ops::ARANGE, &at, &[], &[("start", s), ("end", e)], result)
            }
            None => self.poison(),
        }
    }
}
