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
//! Only a loop whose loaded tile *dies into a running value* gets it: the
//! tile (or what is computed from it element by element) feeds a value the
//! loop carries to its next iteration, and nothing uses the tile again
//! after a reduction of it. That is the only shape in which waiting for
//! each load saves `ptxas` registers, so the only one it serializes.
//! Elsewhere the directive buys nothing and costs registers:
//! - where the tile is used again after its own reduction (an online
//!   softmax or log-sum-exp: `exp(x - max(x))`), every element is live
//!   across the reduction whatever the order, and `ptxas` issues the loads
//!   together by itself;
//! - where the loop carries nothing computed from its loads (a loop that
//!   loads, computes and stores), the loads are issued together too, the
//!   stores being after them;
//! - where the tiles sit in registers without a loop (a softmax or
//!   LayerNorm of whole rows) there is nothing to overlap (the same
//!   LayerNorm of two f16 rows over 16 warps took 1.24x the time with it).
//!
//! And with the directive `ptxas` keeps loop invariants in ordinary
//! registers rather than the warp's uniform ones (an online softmax of two
//! bf16 rows: 40 registers with it, 32 without). Kernels with a product keep
//! `ptxas`'s choice too: their loops are pipelined through shared memory.

use crate::edit::{key, ops_of};
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, RegionLike};
use std::collections::HashMap;
use tile_dialect::ops::{BLOCK_LOAD, DOT, LOAD, REDUCE};

/// Whether the kernel `func` (tile IR) has a loop (`scf.for`, `scf.while`)
/// whose loaded tile dies into a running value (see the module docs), and
/// no product (`tile.dot`).
pub fn streams_in_loop(func: &OperationRef) -> bool {
    let mut found = Found::default();
    visit(func, &mut found);
    found.streaming_loop && !found.dot
}

/// What the walk has seen.
#[derive(Default)]
struct Found {
    /// A loop whose loaded tile dies into a running value.
    streaming_loop: bool,
    /// A product.
    dot: bool,
}

/// Visits `op` and everything nested in it.
fn visit(op: &OperationRef, found: &mut Found) {
    let name = op_name(op);
    if name == DOT {
        found.dot = true;
    }
    if is_loop(&name) && !found.streaming_loop {
        found.streaming_loop = streams(op);
    }
    for inner in nested_ops(op) {
        visit(&inner, found);
    }
}

/// The name of `op`.
fn op_name(op: &OperationRef) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Whether `name` is a loop.
fn is_loop(name: &str) -> bool {
    matches!(name, "scf.for" | "scf.while")
}

/// The ops directly in `op`'s regions, in order.
fn nested_ops<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    for i in 0..op.region_count() {
        let Ok(region) = op.region(i) else { continue };
        let mut block = region.first_block();
        while let Some(b) = block {
            out.extend(ops_of(&b));
            block = b.next_in_region();
        }
    }
    out
}

/// Every op inside `op` (nested regions included), in program order.
fn body_in_order<'c, 'a>(op: &OperationRef<'c, 'a>, out: &mut Vec<OperationRef<'c, 'a>>) {
    for inner in nested_ops(op) {
        out.push(inner);
        body_in_order(&inner, out);
    }
}

/// How a value depends on one load.
#[derive(Clone, Copy, Default)]
struct Reach {
    /// Computed from the loaded tile element by element.
    direct: bool,
    /// Computed from a reduction of it.
    reduced: bool,
}

/// Whether some global load in `lp`'s body dies into a value `lp` carries:
/// it reaches the loop's terminator (`scf.yield`, `scf.condition`) and no
/// op combines the tile with its own reduction.
fn streams(lp: &OperationRef) -> bool {
    let mut body = Vec::new();
    body_in_order(lp, &mut body);
    let loop_key = lp.to_raw().ptr as usize;
    body.iter().enumerate().any(|(at, load)| {
        let name = op_name(load);
        if name != LOAD && name != BLOCK_LOAD {
            return false;
        }
        let mut reach: HashMap<usize, Reach> = HashMap::new();
        for i in 0..load.result_count() {
            if let Ok(r) = load.result(i) {
                reach.insert(
                    key(r),
                    Reach {
                        direct: true,
                        reduced: false,
                    },
                );
            }
        }
        let mut carried = false;
        for op in &body[at + 1..] {
            let mut seen = Reach::default();
            for i in 0..op.operand_count() {
                if let Some(r) = op.operand(i).ok().and_then(|v| reach.get(&key(v))) {
                    seen.direct |= r.direct;
                    seen.reduced |= r.reduced;
                }
            }
            if !seen.direct && !seen.reduced {
                continue;
            }
            if seen.direct && seen.reduced {
                // The tile is used again after its own reduction.
                return false;
            }
            let name = op_name(op);
            if matches!(name.as_str(), "scf.yield" | "scf.condition") {
                let Some(parent) = op.parent_operation() else {
                    continue;
                };
                if parent.to_raw().ptr as usize == loop_key {
                    carried = true;
                } else {
                    // What a nested `scf.if` or loop yields is in its
                    // results.
                    for i in 0..parent.result_count() {
                        if let Ok(r) = parent.result(i) {
                            let e = reach.entry(key(r)).or_default();
                            e.direct |= seen.direct;
                            e.reduced |= seen.reduced;
                        }
                    }
                }
                continue;
            }
            let out = if name == REDUCE {
                Reach {
                    direct: false,
                    reduced: true,
                }
            } else {
                seen
            };
            for i in 0..op.result_count() {
                if let Ok(r) = op.result(i) {
                    reach.insert(key(r), out);
                }
            }
        }
        carried
    })
}
