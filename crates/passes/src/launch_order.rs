//! `tile-launch-order`: the order in which the GPU starts a kernel's
//! programs, chosen from where their accesses go.
//!
//! The GPU starts the blocks of a grid in the order of their index, axis
//! 0 fastest, and runs a few thousand at a time. A kernel over 2-D tiles
//! written the usual way, `rows = program_id(0) * BM + ...` and `cols =
//! program_id(1) * BN + ...` on a row-major tensor, so has the programs
//! that run together stacked down a column of tiles, while the memory
//! right after each tile's rows belongs to the program one step along
//! axis 1, which starts thousands of programs later. For tiles whose rows
//! are short (128 or fewer bytes) memory then serves the kernel at 70-90%
//! of a copy's rate; the same source with the axes exchanged runs at the
//! copy's (an H200, f16 8192x8192, Triton 3.6: y = 2x + 1 at 128x32 tiles
//! 1.44 against 1.12 of the copy's time, at 64x64 1.17 against 1.04,
//! `bench/launch_order.py`).
//!
//! The pass finds, for each load and store on a tensor, its fastest axis
//! (the block pointer's `order`, else the most contiguous one), the
//! contiguous run along it, and the program axis whose next program moves
//! the access by exactly that run ([`crate::program_steps`]): the program
//! whose memory comes right after. Each access votes for that axis with
//! the bytes it moves, four times over when its runs are shorter than 128
//! bytes. That weight is what the measurements say: a transpose's two
//! sides disagree on the axis, and the side of short runs gains most from
//! its neighbours (f16 128x32 tiles: the load's 64-byte runs first took
//! 1.145 of a copy's time against 1.249), while between runs of 128 bytes
//! or more the order written is as good or better (f32 128x32: 0.1391
//! against 0.1423 ms). When grid axis 1 wins strictly over axis 0, the
//! programs are renumbered so that the blocks the GPU starts one after
//! another walk axis 1:
//!
//! ```text
//! l = program_id(1) * num_programs(0) + program_id(0)   (the start order)
//! p0 = l / num_programs(1),  p1 = l % num_programs(1)   (unsigned)
//! ```
//!
//! and every `program_id(0)` and `program_id(1)` reads `p0` and `p1`.
//! Each pair of indices is still taken by exactly one program (a grid of
//! 2^32 programs or more keeps the hardware's order), and programs have no
//! order between them, so the results do not change. A tie keeps the
//! order written (a transpose of square tiles gains on one side what it
//! loses on the other).
//!
//! Left alone: kernels that compute more per byte than memory delivers
//! ([`MAX_WORK_PER_BYTE`]: there the renumbering's instructions cost more
//! than the order gains), kernels with a product (`tile.dot`: the order
//! of a matmul's programs decides what the L2 cache keeps, and users
//! choose it, as in Triton's grouped ordering), kernels with atomics
//! (programs may hand work to one another through them), kernels that do
//! not use both grid axes, and modules that carry `tile.keep_launch_order`
//! (the option `launch_order: false`).

use crate::axis_analysis::AxisAnalysis;
use crate::edit;
use crate::pass::{PassId, PassInfo, PassResult, kernel_pass};
use crate::program_steps::{AXES, ProgramSteps, Step};
use crate::work_estimate::work_per_byte;
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::attribute::IntegerAttribute;
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{Identifier, Location, OperationRef, Value, ValueLike};
use melior::pass::Pass;
use tile_coalesce::Access;
use tile_dialect::ops;
use tile_dialect::view::{KernelFunc, TileOp, TypeTable, attr};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-launch-order";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileLaunchOrder",
    flag: FLAG,
    summary: "start the programs whose accesses are adjacent in memory one after another",
};

/// Creates the `tile-launch-order` pass (on kernels).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, launch_order)
}

/// What the accesses of a kernel say of its launch order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Votes {
    /// Per grid axis (0, 1): the weighted bytes of the accesses whose
    /// next run is that axis's next program's.
    pub weight: [i64; AXES],
    /// `program_id` is read along axis 0 and along axis 1.
    pub uses: [bool; AXES],
    /// A product or an atomic: the order is the user's.
    pub fixed: bool,
}

impl Votes {
    /// Whether the programs should start along axis 1 first.
    pub fn axis_1_first(&self) -> bool {
        !self.fixed && self.uses == [true, true] && self.weight[1] > self.weight[0]
    }
}

/// The most estimated work per byte moved ([`work_per_byte`]) of a kernel
/// that is renumbered. The renumbering costs each thread about twenty
/// instructions (the division of its start order by the grid's height);
/// a kernel that issues instructions faster than memory delivers bytes
/// pays for them in time, and gains little from its memory's order. An
/// H200 issues about 8.4 thread instructions per byte its memory moves
/// (132 multiprocessors, 4 schedulers each, 1.98 GHz, 32 threads a warp,
/// against 4 TB/s). The bound sits between the two kernels measured there,
/// a little above that balance because the estimate also counts index
/// arithmetic that the lowering shares between registers: the fast GELU
/// of f16 (8.0 by this estimate) gains 1-15% renumbered, the accurate one
/// (12.4) loses 1.5-3.2% at five of eight tiles
/// (`bench/results/2026-12-01-h200-launch-order.md`).
pub const MAX_WORK_PER_BYTE: f64 = 10.0;

/// Runs shorter than this (bytes) gain most from being read or written
/// beside their neighbours: the width of one L1 line, and of what one warp
/// moves in one access of 4 bytes a thread.
pub const SHORT_RUN_BYTES: i64 = 128;

/// Renumbers the programs of the kernel `func` when its accesses ask for
/// it (see the module docs).
pub fn launch_order(func: &OperationRef) -> PassResult {
    if keeps_order(func) {
        return Ok(());
    }
    let votes = votes(func);
    if votes.axis_1_first() && work_per_byte(func).is_some_and(|w| w <= MAX_WORK_PER_BYTE) {
        renumber(func);
    }
    Ok(())
}

/// Whether the module around `func` asks for the order as written.
fn keeps_order(func: &OperationRef) -> bool {
    let mut at = func.parent_operation();
    while let Some(op) = at {
        if op.has_attribute(ops::KEEP_LAUNCH_ORDER_ATTR) {
            return true;
        }
        at = op.parent_operation();
    }
    false
}

/// Counts the accesses of the kernel `func` for each grid axis. The
/// analyses run only for a kernel that may be renumbered (both grid axes
/// read, no product or atomic): a 1-D kernel costs one walk.
pub fn votes(func: &OperationRef) -> Votes {
    let context = tile_dialect::context_of(func.context());
    let types = TypeTable::new(context);
    let mut votes = Votes::default();
    func.walk(WalkOrder::PreOrder, |op| {
        match tile_dialect::view::op_name(&op) {
            ops::DOT | ops::ATOMIC_RMW | ops::ATOMIC_CAS => votes.fixed = true,
            ops::PROGRAM_ID => {
                if let Some(u) = attr::int(&op, "axis")
                    .ok()
                    .and_then(|a| usize::try_from(a).ok())
                    .and_then(|a| votes.uses.get_mut(a))
                {
                    *u = true;
                }
            }
            _ => {}
        }
        WalkResult::Advance
    });
    if votes.fixed || votes.uses != [true, true] {
        return votes;
    }
    let axes = AxisAnalysis::run(&types, func);
    let steps = ProgramSteps::run(&axes, func);
    func.walk(WalkOrder::PreOrder, |op| {
        if let Ok(Some(view)) = TileOp::read(&op, |v| types.tile_type(v.r#type()))
            && matches!(
                view,
                TileOp::Load(_) | TileOp::Store(_) | TileOp::BlockLoad(_) | TileOp::BlockStore(_)
            )
            && let Some(access) = axes.access(&view)
            && let Some((axis, weight)) = vote(&view, &access, &steps)
        {
            votes.weight[axis] = votes.weight[axis].saturating_add(weight);
        }
        WalkResult::Advance
    });
    votes
}

/// The program axis whose next program continues `access` right after its
/// runs, and the weight of its vote: the bytes of its distinct runs, four
/// times over for runs shorter than [`SHORT_RUN_BYTES`].
fn vote(view: &TileOp, access: &Access, steps: &ProgramSteps) -> Option<(usize, i64)> {
    let order = access.order();
    let fast = *order.first()?;
    let extent = *access.shape.get(fast)?;
    if extent <= 1 {
        return None;
    }
    // Pointers equal along `d` touch the same memory (a block pointer's
    // are never equal).
    let runs_across = |d: usize| -> i64 {
        let n = access.shape[d].max(1);
        n / access
            .pointer
            .constancy
            .get(d)
            .map_or(1, |&c| c.clamp(1, n))
    };
    let runs: i64 = (0..access.shape.len())
        .filter(|&d| d != fast)
        .map(runs_across)
        .product();
    let next = |a: usize| -> bool {
        match view {
            TileOp::Load(l) => pointer_next(access, fast, extent, steps.steps(l.ptr)[a]),
            TileOp::Store(s) => pointer_next(access, fast, extent, steps.steps(s.ptr)[a]),
            TileOp::BlockLoad(l) => block_next(steps, l.ptr, fast, extent, a),
            TileOp::BlockStore(s) => block_next(steps, s.ptr, fast, extent, a),
            _ => false,
        }
    };
    let run_bytes = extent.saturating_mul(access.elem_bytes);
    let short = if run_bytes < SHORT_RUN_BYTES { 4 } else { 1 };
    let weight = runs.saturating_mul(run_bytes).saturating_mul(short);
    (0..AXES).find(|&a| next(a)).map(|a| (a, weight))
}

/// A tensor of pointers contiguous over the whole tile along `fast`,
/// moved by exactly `extent` elements by the next program.
fn pointer_next(access: &Access, fast: usize, extent: i64, step: Step) -> bool {
    access.pointer.contiguity.get(fast).copied().unwrap_or(1) >= extent && step == Step::By(extent)
}

/// A block pointer whose next program's block starts `extent` elements on
/// along `fast` and nowhere else.
fn block_next(steps: &ProgramSteps, ptr: Value, fast: usize, extent: i64, a: usize) -> bool {
    let Some(b) = steps.block_ptr(ptr) else {
        return false;
    };
    b.base[a] == Step::None
        && b.offsets.iter().enumerate().all(|(d, o)| {
            if d == fast {
                o[a] == Step::By(extent)
            } else {
                o[a] == Step::None
            }
        })
}

/// Makes every `program_id(0)` and `program_id(1)` of `func` read the
/// renumbered indices (see the module docs), computed once at the top of
/// the kernel.
fn renumber<'c, 'a>(func: &OperationRef<'c, 'a>) {
    let Ok(Some(kernel)) = KernelFunc::read(func) else {
        return;
    };
    let Some(body) = kernel.body else { return };
    let Some(first) = body.first_operation() else {
        return;
    };
    let mut old: Vec<(usize, OperationRef<'c, 'a>)> = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if tile_dialect::view::op_name(&op) == ops::PROGRAM_ID
            && let Ok(axis) = attr::int(&op, "axis")
            && let Ok(a) = usize::try_from(axis)
            && a < AXES
        {
            // SAFETY: the op is live until the rewrite below erases it.
            old.push((a, unsafe { OperationRef::from_raw(op.to_raw()) }));
        }
        WalkResult::Advance
    });
    let location = old
        .first()
        .map_or(first.location(), |(_, op)| op.location());
    let context = tile_dialect::context_of(func.context());
    let i32 = IntegerType::new(context, 32).into();
    let i64 = IntegerType::new(context, 64).into();
    let put = |op: melior::ir::Operation<'c>| -> Value<'c, 'a> {
        let op = edit::insert_before(&first, op);
        op.result(0).expect("one result").into()
    };
    let grid = |name: &str, axis: i64| {
        OperationBuilder::new(name, location)
            .add_attributes(&[(
                Identifier::new(context, "axis"),
                IntegerAttribute::new(i32, axis).into(),
            )])
            .add_results(&[i32])
            .build()
            .expect("a grid query")
    };
    let h0 = put(grid(ops::PROGRAM_ID, 0));
    let h1 = put(grid(ops::PROGRAM_ID, 1));
    let n0 = put(grid(ops::NUM_PROGRAMS, 0));
    let n1 = put(grid(ops::NUM_PROGRAMS, 1));
    let row = put(arith::muli(h1, n0, location));
    let linear = put(arith::addi(row, h0, location));
    let p0 = put(arith::divui(linear, n1, location));
    let p1 = put(arith::remui(linear, n1, location));
    let fits = programs_fit(context, &put, (n0, n1), (i64, location));
    let p0 = put(arith::select(fits, p0, h0, location));
    let p1 = put(arith::select(fits, p1, h1, location));
    for (axis, op) in old {
        let result: Value = op.result(0).expect("one result").into();
        edit::replace_all_uses(result, if axis == 0 { p0 } else { p1 });
        edit::erase(op);
    }
}

/// `num_programs(0) * num_programs(1) < 2^32`, computed in 64 bits: the
/// start order then fits the 32-bit index.
fn programs_fit<'c, 'a>(
    context: &'c melior::Context,
    put: &impl Fn(melior::ir::Operation<'c>) -> Value<'c, 'a>,
    (n0, n1): (Value<'c, 'a>, Value<'c, 'a>),
    (i64, location): (melior::ir::Type<'c>, Location<'c>),
) -> Value<'c, 'a> {
    let w0 = put(arith::extui(n0, i64, location));
    let w1 = put(arith::extui(n1, i64, location));
    let total = put(arith::muli(w0, w1, location));
    let limit = put(arith::constant(
        context,
        IntegerAttribute::new(i64, 1 << 32).into(),
        location,
    ));
    put(arith::cmpi(
        context,
        CmpiPredicate::Ult,
        total,
        limit,
        location,
    ))
}
