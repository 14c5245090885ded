//! Compiler hints: `multiple_of`, `max_contiguous` and `max_constancy`,
//! facts of a value that the axis analysis cannot prove (offsets read
//! from memory, `where` that clamps out-of-range rows), stated by the
//! user as in Triton. They become attributes of the op that computes the
//! value ([`Hint::attribute`]); the analysis takes the larger of what it
//! proves and what the hint states.

use super::kernel::{KernelBuilder, POISON};
use super::tile::Tile;
use crate::error::{Rule, SourceLoc};
use crate::ops::Hint;
use crate::rules;
use crate::view::attr;
use melior::ir::operation::{OperationLike, OperationMutLike, OperationRefMut};
use melior::ir::{OperationRef, Value, ValueLike};

impl<'k> Tile<'k> {
    /// States that the value is a multiple of `values` (per axis, one for
    /// a scalar; a pointer's address in bytes, as Triton counts it): along
    /// each axis, the first value of each run of consecutive values. As
    /// Triton's `tl.multiple_of`; the value is returned unchanged. Only
    /// powers of two count (24 states 8).
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.arg_ptr("x", DType::F16);
    /// let rows = k.arg_ptr("rows", DType::I32);
    /// let m = k.arange(0, 64);
    /// // Row starts gathered from memory, each a multiple of 8 elements.
    /// let start = k.load(rows + m).build().multiple_of(&[8]);
    /// let offs = start.expand_dims(1) + k.arange(0, 64).expand_dims(0).max_contiguous(&[1, 64]);
    /// let v = k.load(x + offs).build();
    /// # let _ = v; }).unwrap();
    /// ```
    #[track_caller]
    pub fn multiple_of(self, values: &[i64]) -> Tile<'k> {
        self.builder
            .hint(self, Hint::MultipleOf, values, &SourceLoc::caller())
    }

    /// States that along each axis the values run in ascending steps of
    /// one, `values[axis]` at a time (as Triton's `tl.max_contiguous`).
    #[track_caller]
    pub fn max_contiguous(self, values: &[i64]) -> Tile<'k> {
        self.builder
            .hint(self, Hint::MaxContiguous, values, &SourceLoc::caller())
    }

    /// States that along each axis the values are equal, `values[axis]` at
    /// a time (as Triton's `tl.max_constancy`).
    #[track_caller]
    pub fn max_constancy(self, values: &[i64]) -> Tile<'k> {
        self.builder
            .hint(self, Hint::MaxConstancy, values, &SourceLoc::caller())
    }
}

impl<'c> KernelBuilder<'c> {
    fn hint<'k>(&'k self, x: Tile<'k>, hint: Hint, values: &[i64], at: &SourceLoc) -> Tile<'k>
    where
        'c: 'k,
    {
        let op_name = hint.attribute();
        let Some(ty) = self.type_of(op_name, x, at) else {
            return self.poison();
        };
        self.check(op_name, at, rules::hint(hint, &ty, values))
            .and_then(|()| {
                debug_assert_ne!(x.id, POISON);
                // SAFETY: `type_of` checked that the value is live and this
                // builder's.
                let value = unsafe { Value::from_raw(self.raw_value(x.id)) };
                let Some(mut op) = sole_result_owner(value) else {
                    return self.fail(op_name, Rule::HintTarget { hint: hint.name() }, at);
                };
                let entries: Vec<i32> = values.iter().map(|&v| v as i32).collect();
                op.set_attribute(op_name, attr::i32_array_attr(self.context, &entries));
                Some(())
            })
            .map_or_else(|| self.poison(), |()| x)
    }
}

/// The op without regions that computes `value` as its only result;
/// `None` for a block argument or a loop's or a branch's result.
fn sole_result_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRefMut<'c, 'a>> {
    // SAFETY: `value` is live; its owner, if it is an op result, is too.
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        let owner = mlir_sys::mlirOpResultGetOwner(value.to_raw());
        let op = OperationRef::from_raw(owner);
        if op.result_count() != 1 || op.region_count() != 0 {
            return None;
        }
        Some(OperationRefMut::from_raw(owner))
    }
}
