//! Printing and assertions inside kernels: `tile.print` and `tile.assert`.

use super::kernel::KernelBuilder;
use super::tile::Tile;
use crate::error::SourceLoc;
use crate::ops;
use crate::rules;
use melior::ir::Attribute;
use melior::ir::attribute::{BoolAttribute, StringAttribute};

impl<'k> KernelBuilder<'k> {
    /// Prints each of `values` (numbers, scalars or tensors) from the
    /// device: one line per element,
    /// `pid (x, y, z) idx (i, j) <prefix>: <value>` (a scalar has no
    /// `idx`; with several values, `<prefix> (operand k)`; with none,
    /// `pid (x, y, z) <prefix>` once per program). Floats print as C's
    /// `%f`, integers in decimal. Every element prints once, however many
    /// threads hold it; lines of different programs and threads interleave
    /// as the GPU runs them.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let x = k.arg_ptr("x", DType::F32);
    /// let offs = k.arange(0, 4);
    /// let v = k.load(x + offs).build();
    /// k.device_print("v", &[v]);
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn device_print(&'k self, prefix: &str, values: &[Tile<'k>]) {
        self.print_with(prefix, values, false, SourceLoc::caller());
    }

    /// [`KernelBuilder::device_print`] with integers as `0x..` (the bits
    /// of the element's width: an i8 of -1 prints `0xff`).
    #[track_caller]
    pub fn device_print_hex(&'k self, prefix: &str, values: &[Tile<'k>]) {
        self.print_with(prefix, values, true, SourceLoc::caller());
    }

    fn print_with(&'k self, prefix: &str, values: &[Tile<'k>], hex: bool, at: SourceLoc) {
        let op = ops::PRINT;
        for &v in values {
            let Some(t) = self.type_of(op, v, &at) else {
                return;
            };
            if self.check(op, &at, rules::print(Some(&t))).is_none() {
                return;
            }
        }
        // One op per value, each labelled with its operand's position.
        let hex: Attribute = BoolAttribute::new(self.context, hex).into();
        let emit = |label: &str, operands: &[u32]| {
            let attrs = [
                ("prefix", StringAttribute::new(self.context, label).into()),
                ("hex", hex),
            ];
            self.emit(op, &at, operands, &attrs, &[], vec![]);
        };
        match values {
            [] => emit(prefix, &[]),
            [v] => emit(prefix, &[v.id]),
            _ => {
                for (k, v) in values.iter().enumerate() {
                    emit(&format!("{prefix} (operand {k})"), &[v.id]);
                }
            }
        }
    }

    /// Stops the kernel where any element of `condition` (i1, a scalar or
    /// a tensor) is false, reporting `message` with this call's file and
    /// line (on the GPU, through CUDA's device assertion: the launch then
    /// fails with `CUDA_ERROR_ASSERT` and the context is lost). Compiled
    /// in only by a debug build (`Options::debug`, `TILE_DEBUG=1`);
    /// elsewhere it costs nothing, as Triton's `device_assert`.
    ///
    /// ```
    /// # use tile_dialect::{new_context, DType, Kernel};
    /// # let context = new_context().unwrap();
    /// # Kernel::build(&context, "k", |k| {
    /// let (x, n) = (k.arg_ptr("x", DType::I32), k.arg("n", DType::I32));
    /// let offs = k.arange(0, 128);
    /// let v = k.load(x + offs).mask(offs.lt(n)).build();
    /// k.device_assert(v.ge(0), "x must not be negative");
    /// # }).unwrap();
    /// ```
    #[track_caller]
    pub fn device_assert(&'k self, condition: Tile<'k>, message: &str) {
        let op = ops::ASSERT;
        let at = SourceLoc::caller();
        let Some(t) = self.type_of(op, condition, &at) else {
            return;
        };
        if self.check(op, &at, rules::assert(&t)).is_none() {
            return;
        }
        let attrs = [(
            "message",
            StringAttribute::new(self.context, message).into(),
        )];
        self.emit(op, &at, &[condition.id], &attrs, &[], vec![]);
    }
}
