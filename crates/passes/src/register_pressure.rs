//! Tiles that cannot stay in registers: once layouts are assigned, every
//! tensor's distribution says how many 32-bit registers each thread needs
//! for its elements. A thread has at most [`THREAD_REGISTERS`]; a tile
//! that needs more spills to local memory however the rest of the kernel
//! is scheduled (a `[16, 4096]` f32 tile over 4 warps is 512 registers a
//! thread). `assign-layouts` refuses tiles far beyond that, and loops
//! whose carried tiles together are
//! ([`crate::assign_layouts::MAX_REGISTERS_PER_THREAD`]); between the two
//! the kernel compiles and runs, slowly, and the compiler says so
//! ([`large_tiles`], which `tile-codegen` turns into the warnings of a
//! compilation).

use crate::layout_classes::Tensors;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, ValueLike};
use std::collections::HashSet;
use tile_coalesce::Distribution;
use tile_dialect::view::{TypeTable, dtype_of, element_type, tensor_shape};

/// The most registers one thread may have on the GPUs we target (sm_80,
/// sm_90): 255.
pub const THREAD_REGISTERS: usize = 255;

/// A tile whose elements take more than [`THREAD_REGISTERS`] registers in
/// each thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LargeTile {
    /// Where the op that makes it is (`file:line:col` of the user's source
    /// when the IR has it).
    pub location: String,
    /// Its shape.
    pub shape: Vec<i64>,
    /// Its element type, as MLIR prints it.
    pub element: String,
    /// The 32-bit registers each thread needs for its elements.
    pub registers: usize,
}

impl std::fmt::Display for LargeTile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: a tile of shape {:?} of {} takes {} registers in each thread, more than the \
             {THREAD_REGISTERS} a thread has: it spills to local memory (use more warps or a \
             smaller tile)",
            self.location, self.shape, self.element, self.registers
        )
    }
}

/// The tiles of the kernel `func` (layouts assigned) that need more than
/// [`THREAD_REGISTERS`] registers in each thread, once each per place and
/// shape, in program order. Values without a layout are skipped.
pub fn large_tiles(func: &OperationRef) -> Vec<LargeTile> {
    let context = tile_dialect::context_of(func.context());
    let types = TypeTable::new(context);
    let tensors = Tensors::collect(func);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for v in &tensors.values {
        let ty = v.r#type();
        let Ok(Some(layout)) = types.layout(ty) else {
            continue;
        };
        let shape = tensor_shape(ty);
        let Ok(distribution) = Distribution::new(&layout, &shape) else {
            continue;
        };
        let elem = element_type(ty);
        // Pointers are 64-bit addresses; i1 predicates take a register each.
        let words = dtype_of(elem).map_or(2, |d| d.bits().div_ceil(32) as usize);
        let registers = distribution.registers() * words;
        if registers <= THREAD_REGISTERS {
            continue;
        }
        let location = match crate::edit::as_result(*v) {
            Some(r) => tile_dialect::diagnostics::location_string(r.owner().location()),
            None => "a block argument".to_string(),
        };
        if seen.insert((location.clone(), shape.clone())) {
            out.push(LargeTile {
                location,
                shape,
                element: elem.to_string(),
                registers,
            });
        }
    }
    out
}
