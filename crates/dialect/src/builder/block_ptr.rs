//! Block pointers: `make_block_ptr` and `advance`.

use super::kernel::KernelBuilder;
use super::tile::{IntoOperand, Operand, Tile};
use crate::error::{Rule, SourceLoc};
use crate::types::TileType;
use crate::{DType, ops, rules};
use melior::ir::attribute::DenseI32ArrayAttribute;

/// A block pointer being configured, read like the seeds' `make_block_ptr`:
///
/// ```
/// # use tile_dialect::{new_context, DType, Kernel};
/// # const ROWS_TILE: i32 = 16;
/// # const D_TILE: i32 = 64;
/// # let context = new_context().unwrap();
/// # Kernel::build(&context, "k", |k| {
/// # let x_ptr = k.arg_ptr("x_ptr", DType::F32);
/// # let (rows, d) = (k.arg("rows", DType::I64), k.arg("d", DType::I64));
/// # let (stride_row, stride_dim) = (k.arg("sr", DType::I64), k.arg("sd", DType::I64));
/// let row_tile = k.program_id(0);
/// let x_block = k
///     .make_block_ptr(x_ptr)
///     .shape([rows, d])
///     .strides([stride_row, stride_dim])
///     .offsets([row_tile * ROWS_TILE, k.i32(0)])
///     .block_shape([ROWS_TILE as i64, D_TILE as i64])
///     .order([1, 0])
///     .build();
/// # }).unwrap();
/// ```
///
/// Shapes and strides are i64 (i32 tiles and literals are widened), offsets
/// i32, all counted in elements. `order` lists axes from the most to the
/// least contiguous; it defaults to row-major (`rank-1, ..., 0`).
#[must_use = "a block pointer is created only by .build()"]
pub struct MakeBlockPtr<'k> {
    builder: &'k KernelBuilder<'k>,
    base: Tile<'k>,
    shape: Vec<Operand<'k>>,
    strides: Vec<Operand<'k>>,
    offsets: Vec<Operand<'k>>,
    block_shape: Vec<i64>,
    order: Option<Vec<i64>>,
    at: SourceLoc,
}

fn operands<'k, T: IntoOperand<'k>>(items: impl IntoIterator<Item = T>) -> Vec<Operand<'k>> {
    items.into_iter().map(IntoOperand::into_operand).collect()
}

impl<'k> MakeBlockPtr<'k> {
    /// The full tensor's shape, in elements.
    pub fn shape<T: IntoOperand<'k>>(mut self, shape: impl IntoIterator<Item = T>) -> Self {
        self.shape = operands(shape);
        self
    }

    /// The strides of each axis, in elements.
    pub fn strides<T: IntoOperand<'k>>(mut self, strides: impl IntoIterator<Item = T>) -> Self {
        self.strides = operands(strides);
        self
    }

    /// Where the block starts, in elements along each axis.
    pub fn offsets<T: IntoOperand<'k>>(mut self, offsets: impl IntoIterator<Item = T>) -> Self {
        self.offsets = operands(offsets);
        self
    }

    /// The block's shape (powers of two).
    pub fn block_shape(mut self, block_shape: impl IntoIterator<Item = i64>) -> Self {
        self.block_shape = block_shape.into_iter().collect();
        self
    }

    /// Axes from the most to the least contiguous.
    pub fn order(mut self, order: impl IntoIterator<Item = i64>) -> Self {
        self.order = Some(order.into_iter().collect());
        self
    }

    /// Builds the block pointer.
    pub fn build(self) -> Tile<'k> {
        let k = self.builder;
        let at = &self.at;
        let op = ops::MAKE_BLOCK_PTR;
        let Some(bt) = k.type_of(op, self.base, at) else {
            return k.poison();
        };
        let rank = self.block_shape.len();
        let order = self
            .order
            .unwrap_or_else(|| (0..rank as i64).rev().collect());
        let Some(result) = k.check(
            op,
            at,
            rules::make_block_ptr(
                &bt,
                self.shape.len(),
                self.strides.len(),
                self.offsets.len(),
                &self.block_shape,
                &order,
            ),
        ) else {
            return k.poison();
        };
        let mut ids = vec![self.base.id];
        for (parts, dtype, what) in [
            (&self.shape, DType::I64, "shape"),
            (&self.strides, DType::I64, "strides"),
            (&self.offsets, DType::I32, "offsets"),
        ] {
            for &p in parts {
                let Some(id) = k.index_operand(op, what, p, dtype, at) else {
                    return k.poison();
                };
                ids.push(id);
            }
        }
        let r = rank as i32;
        let order32: Vec<i32> = order.iter().map(|&a| a as i32).collect();
        let attrs = [
            (
                "order",
                DenseI32ArrayAttribute::new(k.context, &order32).into(),
            ),
            (
                "operandSegmentSizes",
                DenseI32ArrayAttribute::new(k.context, &[1, r, r, r]).into(),
            ),
        ];
        k.emit1(op, at, &ids, &attrs, result)
    }
}

impl<'k> KernelBuilder<'k> {
    /// Starts a block pointer over the memory `base` points into.
    #[track_caller]
    pub fn make_block_ptr(&'k self, base: Tile<'k>) -> MakeBlockPtr<'k> {
        MakeBlockPtr {
            builder: self,
            base,
            shape: vec![],
            strides: vec![],
            offsets: vec![],
            block_shape: vec![],
            order: None,
            at: SourceLoc::caller(),
        }
    }

    /// A scalar integer operand of type `dtype`: literals become constants,
    /// i32 tiles are widened to i64 where i64 is wanted.
    fn index_operand(
        &'k self,
        op: &'static str,
        what: &'static str,
        p: Operand<'k>,
        dtype: DType,
        at: &SourceLoc,
    ) -> Option<u32> {
        match p {
            Operand::Int(_) => {
                let c = self.constant_of(op, p, &TileType::scalar(dtype), at);
                c.ty().map(|_| c.id)
            }
            Operand::Tile(t) => {
                let ty = self.type_of(op, t, at)?;
                match ty.num() {
                    Some(d) if ty.is_scalar() && d == dtype => Some(t.id),
                    Some(DType::I32) if ty.is_scalar() && dtype == DType::I64 => {
                        let wide = self.cast(t, DType::I64, at);
                        wide.ty().map(|_| wide.id)
                    }
                    _ => self.fail(
                        op,
                        Rule::WrongOperand {
                            what,
                            expected: if dtype == DType::I64 {
                                "scalar i32 or i64 values"
                            } else {
                                "scalar i32 values"
                            },
                            found: ty.to_string(),
                        },
                        at,
                    ),
                }
            }
            _ => self.fail(
                op,
                Rule::WrongOperand {
                    what,
                    expected: "integers",
                    found: format!("{p:?}"),
                },
                at,
            ),
        }
    }

    pub(super) fn advance(
        &'k self,
        ptr: Tile<'k>,
        offsets: &[Operand<'k>],
        at: &SourceLoc,
    ) -> Tile<'k> {
        let op = ops::ADVANCE;
        let Some(pt) = self.type_of(op, ptr, at) else {
            return self.poison();
        };
        let Some(result) = self.check(op, at, rules::advance(&pt, offsets.len())) else {
            return self.poison();
        };
        let mut ids = vec![ptr.id];
        for &o in offsets {
            let Some(id) = self.index_operand(op, "offsets", o, DType::I32, at) else {
                return self.poison();
            };
            ids.push(id);
        }
        self.emit1(op, at, &ids, &[], result)
    }
}
