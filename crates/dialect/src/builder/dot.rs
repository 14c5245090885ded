//! The matrix product on tensor cores: `k.dot(a, b).acc(c).build()`.

use super::kernel::KernelBuilder;
use super::tile::{Operand, Tile};
use crate::DType;
use crate::error::SourceLoc;
use crate::ops::{self, InputPrecision};
use crate::rules;
use crate::types::TileType;
use melior::ir::attribute::StringAttribute;

/// A matrix product being configured: `a` [M, K] times `b` [K, N], plus
/// an accumulator [M, N] (zeros when none is given).
///
/// f16, bf16 and f32 inputs accumulate in f32, i8 inputs in i32. f32 inputs
/// multiply as TF32 unless [`Dot::input_precision`] says otherwise.
#[must_use = "a dot builds nothing until .build() is called"]
pub struct Dot<'k> {
    builder: &'k KernelBuilder<'k>,
    a: Tile<'k>,
    b: Tile<'k>,
    acc: Option<Tile<'k>>,
    precision: Option<InputPrecision>,
    at: SourceLoc,
}

impl<'k> KernelBuilder<'k> {
    /// Starts the product `a @ b` (Triton's `tl.dot`). Errors name this
    /// call's line.
    #[track_caller]
    pub fn dot(&'k self, a: Tile<'k>, b: Tile<'k>) -> Dot<'k> {
        Dot {
            builder: self,
            a,
            b,
            acc: None,
            precision: None,
            at: SourceLoc::caller(),
        }
    }
}

impl<'k> Dot<'k> {
    /// Adds the product to `acc` (f32 [M, N], or i32 for i8 inputs).
    pub fn acc(mut self, acc: Tile<'k>) -> Self {
        self.acc = Some(acc);
        self
    }

    /// How f32 inputs multiply (TF32 by default); other inputs take only
    /// [`InputPrecision::Ieee`], which is also their default.
    pub fn input_precision(mut self, precision: InputPrecision) -> Self {
        self.precision = Some(precision);
        self
    }

    /// Builds the product and returns it.
    pub fn build(self) -> Tile<'k> {
        let k = self.builder;
        let at = &self.at;
        let (Some(a), Some(b)) = (
            k.type_of(ops::DOT, self.a, at),
            k.type_of(ops::DOT, self.b, at),
        ) else {
            return k.poison();
        };
        let acc_type = match self.acc {
            Some(acc) => match k.type_of(ops::DOT, acc, at) {
                Some(t) => Some(t),
                None => return k.poison(),
            },
            None => None,
        };
        let precision = self.precision.unwrap_or(match a.num() {
            Some(DType::F32) => InputPrecision::Tf32,
            _ => InputPrecision::Ieee,
        });
        let Some(result) = k.check(
            ops::DOT,
            at,
            rules::dot(&a, &b, acc_type.as_ref(), precision),
        ) else {
            return k.poison();
        };
        let acc = match self.acc {
            Some(acc) => acc,
            None => zeros(k, &result, at),
        };
        let attrs = [(
            "input_precision",
            StringAttribute::new(k.context, precision.name()).into(),
        )];
        k.emit1(
            ops::DOT,
            at,
            &[self.a.id, self.b.id, acc.id],
            &attrs,
            result,
        )
    }
}

/// A zero accumulator of type `ty`, made at the dot's line.
fn zeros<'k>(k: &'k KernelBuilder<'k>, ty: &TileType, at: &SourceLoc) -> Tile<'k> {
    k.constant_of("arith.constant", Operand::Int(0), ty, at)
}

impl<'k> Tile<'k> {
    /// The product `self @ b` with a zero accumulator (see
    /// [`KernelBuilder::dot`] for the accumulator and the precision).
    #[track_caller]
    pub fn dot(self, b: Tile<'k>) -> Tile<'k> {
        let builder = self.builder;
        Dot {
            builder,
            a: self,
            b,
            acc: None,
            precision: None,
            at: SourceLoc::caller(),
        }
        .build()
    }
}
