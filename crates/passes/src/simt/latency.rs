//! Which kernels ask `ptxas` to schedule for latency rather than for
//! occupancy.
//!
//! Left to itself, `ptxas` compiles a kernel for as many resident blocks
//! as its registers allow, and in a loop that streams global memory into a
//! running value (column sums, row statistics over column blocks) it keeps
//! the registers down by waiting for each load before it issues the next:
//! one vector load in flight per thread. Any register directive switches
//! that off; `.minnctapersm 1` (at least one block per multiprocessor, which
//! every launch has) is the one that constrains nothing else. `ptxas` then
//! issues the iteration's loads together (a 32x64 f32 column sum over 4
//! warps: 38 registers and one load in flight, or 56 and four; on an H200,
//! 0.66 against 0.28 ms).
//!
//! Only kernels with such a loop get it: where the tiles sit in registers
//! without a loop (a softmax or LayerNorm of whole rows), the directive
//! buys nothing and costs occupancy (the same LayerNorm of two f16 rows
//! over 16 warps took 1.24x the time). Kernels with a product keep
//! `ptxas`'s choice too: their loops are pipelined through shared memory.

use crate::edit::ops_of;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, RegionLike};
use tile_dialect::ops::{BLOCK_LOAD, DOT, LOAD};

/// Whether the kernel `func` (tile IR) loads global memory inside a loop
/// (`scf.for`, `scf.while`) and has no product (`tile.dot`).
pub fn streams_in_loop(func: &OperationRef) -> bool {
    let mut found = Found::default();
    visit(func, false, &mut found);
    found.loop_load && !found.dot
}

/// What the walk has seen.
#[derive(Default)]
struct Found {
    /// A global load inside a loop.
    loop_load: bool,
    /// A product.
    dot: bool,
}

/// Visits `op` and everything nested in it; `in_loop` says whether a loop
/// encloses it.
fn visit(op: &OperationRef, in_loop: bool, found: &mut Found) {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    match name {
        DOT => found.dot = true,
        LOAD | BLOCK_LOAD if in_loop => found.loop_load = true,
        _ => {}
    }
    let in_loop = in_loop || matches!(name, "scf.for" | "scf.while");
    for i in 0..op.region_count() {
        let Ok(region) = op.region(i) else { continue };
        let mut block = region.first_block();
        while let Some(b) = block {
            for inner in ops_of(&b) {
                visit(&inner, in_loop, found);
            }
            block = b.next_in_region();
        }
    }
}
