//! `tile-software-pipeline`: chooses the K loops whose operand loads are
//! fetched `num_stages - 1` iterations ahead, into shared memory, while the
//! tensor cores work.
//!
//! A load is copied ahead (`tile.async_copy`) when its tile reaches a
//! `tile.dot` that multiplies in a tensor-core layout (`#tile.mma`), as
//! one operand, through layout conversions and 2-D transposes only the
//! dot reads, and:
//!
//! - it is a `tile.block_load` through a block pointer the loop carries
//!   and advances by loop-invariant offsets each iteration, checking
//!   bounds with zero padding or not at all; or
//! - it is a `tile.load` through a pointer tensor (with or without a mask)
//!   whose `other` is zero or absent, and whose pointer and mask the
//!   loop's address slice ([`crate::loop_slice`]) can compute for any
//!   iteration: from loop-invariant values, the induction variable, and
//!   carried values the loop steps by invariant amounts (tutorial 03's
//!   `a_ptrs += BLOCK_K * stride_ak`); offsets recomputed from `k` each
//!   iteration qualify as well;
//!
//! and each access moves 4, 8 or 16 bytes (`tile.vector_width`: what an
//! asynchronous copy moves). Inputs are f16, bf16, i8, or f32 multiplied
//! as `tf32` (which tensor cores read from f32 as it is stored; `tf32x3`
//! splits its inputs in registers); `wgmma` reads i8 and TF32 operands
//! only K-major, so those must have K contiguous.
//!
//! Other loads of several elements an access whose tiles reach such a
//! product (rows no specialization proves aligned, a nonzero `other`,
//! TF32 inputs with M or N contiguous) get `tile.prefetch` when the slice
//! gives their addresses
//! and nothing in the body writes memory: they are issued one iteration
//! ahead, into registers.
//!
//! The decision is recorded, the work left to `tile-to-simt`: the loop gets
//! `tile.num_stages = S` and each such load `tile.async_copy`. The lowering
//! then copies the first `S - 1` tiles before the loop (`cp.async`, zero
//! fill out of bounds), and in each iteration waits for the tile it
//! multiplies, issues the copy of the tile `S - 1` iterations ahead into
//! the buffer that the previous iteration read, and multiplies from shared
//! memory.
//!
//! A loop that multiplies nothing on tensor cores (a column sum over row
//! blocks) reads ahead only when it asks for stages itself
//! (`tile.loop_stages`, the builder's `for_range_staged`, as Triton's
//! `tl.range(num_stages=...)`): its tiles are then copied `S - 1`
//! iterations ahead into each thread's own slots of shared memory
//! (`tile.async_copy = "thread"`: no barrier, each thread reads back what
//! it copied), or, where a copy cannot (masked-off lanes reading other
//! than 0, buffers over 96 KiB), loaded ahead into registers
//! (`tile.prefetch = d`). Either costs occupancy, which hides the latency
//! when many programs run on each multiprocessor, and pays only where few
//! do. Measured on an H200: a 16384x4096 f32 column sum in 32x64 tiles
//! over 64 programs from 0.66 to 0.29 ms two tiles ahead in registers;
//! with the loads of every such loop taken ahead unasked, the benchmark's
//! LayerNorm (64 to 146 registers) ran 1.33x and its cross-entropy (34 to
//! 61) 1.16x slower.
//!
//! The number of stages comes from the loop's `tile.loop_stages`, else
//! from the module attribute `tile.num_stages` (the compiler's
//! `Options::num_stages`); with fewer than 2 nothing is marked.

use crate::edit;
use crate::pass::{PassError, PassId, PassInfo, PassResult, kernel_pass};
use melior::ir::attribute::{Attribute, IntegerAttribute, StringAttribute};
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{OperationRef, Value, ValueLike};
use melior::pass::Pass;
use std::collections::HashSet;
use tile_coalesce::Layout;
use tile_dialect::ops::{
    ASYNC_COPY_ATTR, ASYNC_COPY_OWN, LOOP_STAGES_ATTR, NUM_STAGES_ATTR, PREFETCH_ATTR, Padding,
};
use tile_dialect::view::{ForLoop, TileOp, TypeTable, attr, tensor_shape};
use tile_dialect::{DType, InputPrecision};

static PASS_ID: PassId = PassId;

/// The flag of this pass.
pub const FLAG: &str = "tile-software-pipeline";

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileSoftwarePipeline",
    flag: FLAG,
    summary: "mark K loops whose dot operands are copied ahead into shared memory (module attribute tile.num_stages)",
};

/// Creates the `tile-software-pipeline` pass (on kernels).
pub fn create() -> Pass {
    kernel_pass(&PASS_ID, &INFO, pipeline)
}

/// The stages the module around `op` asks for (`tile.num_stages`, default
/// 1: no pipelining).
pub fn num_stages<'c, 'a>(op: &OperationRef<'c, 'a>) -> Result<i64, PassError> {
    let mut at = Some(*op);
    while let Some(o) = at {
        if o.has_attribute(NUM_STAGES_ATTR) && tile_dialect::view::op_name(&o) == "builtin.module" {
            let n = attr::int(&o, NUM_STAGES_ATTR).map_err(|r| PassError::at(&o, r.to_string()))?;
            let most = tile_dialect::limits::MAX_NUM_STAGES;
            if !(1..=i64::from(most)).contains(&n) {
                return Err(PassError::at(
                    &o,
                    format!("{NUM_STAGES_ATTR} must be from 1 to {most}, got {n}"),
                ));
            }
            return Ok(n);
        }
        at = o.parent_operation();
    }
    Ok(1)
}

/// The stages loop `op` asks for itself (`tile.loop_stages`), if any;
/// the verifier has held it to 1 to 8 (`Rule::LoopStages`).
fn loop_stages(op: &OperationRef) -> Result<Option<i64>, PassError> {
    attr::int_opt(op, LOOP_STAGES_ATTR).map_err(|r| PassError::at(op, r.to_string()))
}

/// Marks the loops of the kernel `func` (see the module docs).
pub fn pipeline(func: &OperationRef) -> PassResult {
    let module_stages = num_stages(func)?;
    let context = tile_dialect::context_of(func.context());
    let types = TypeTable::new(context);
    let mut loops = Vec::new();
    func.walk(WalkOrder::PostOrder, |op| {
        if tile_dialect::view::op_name(&op) == "scf.for" {
            loops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for raw in loops {
        // SAFETY: the loops collected are live; marking changes no op.
        let op = unsafe { OperationRef::from_raw(raw) };
        let Ok(Some(l)) = ForLoop::read(&op) else {
            continue;
        };
        let asked = loop_stages(&op)?;
        let stages = asked.unwrap_or(module_stages);
        if stages < 2 {
            continue;
        }
        let loads = pipelined_loads(&types, &l);
        let mut prefetched = prefetched_loads(&types, &l, &loads);
        let mut distance = 1;
        // Memory-bound loops load ahead only when the loop asks (as
        // Triton's `tl.range(num_stages=...)`): the registers it takes
        // lower the occupancy that hides latency when many programs run.
        let mut own = Vec::new();
        if asked.is_some()
            && loads.is_empty()
            && prefetched.is_empty()
            && !multiplies_on_tensor_cores(&types, &l)
        {
            own = streamed_copies(&types, &l, stages, assign_warps(func)?);
            if own.is_empty() {
                (prefetched, distance) = streamed_loads(&types, &l, stages);
            }
        }
        if loads.is_empty() && prefetched.is_empty() && own.is_empty() {
            continue;
        }
        let i64 = IntegerType::new(context, 64).into();
        edit::set_attribute(
            &op,
            NUM_STAGES_ATTR,
            IntegerAttribute::new(i64, stages).into(),
        );
        for load in loads {
            edit::set_attribute(&load, ASYNC_COPY_ATTR, Attribute::unit(context));
        }
        for load in own {
            let mark = StringAttribute::new(context, ASYNC_COPY_OWN).into();
            edit::set_attribute(&load, ASYNC_COPY_ATTR, mark);
        }
        let mark = if distance == 1 {
            Attribute::unit(context)
        } else {
            IntegerAttribute::new(i64, distance).into()
        };
        for load in prefetched {
            edit::set_attribute(&load, PREFETCH_ATTR, mark);
        }
    }
    Ok(())
}

/// The loads of loop `l` that can be copied ahead.
fn pipelined_loads<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    for op in edit::ops_of(&l.body) {
        let Ok(Some(TileOp::Dot(dot))) = TileOp::read(&op, |v| types.tile_type(v.r#type())) else {
            continue;
        };
        let tensor_cores = crate::edit::result_of(&op, 0)
            .and_then(|r| types.layout(r.r#type()).ok().flatten())
            .is_some_and(|layout| matches!(layout, Layout::Mma(_)));
        if !tensor_cores {
            continue;
        }
        let inputs = types
            .tile_type(dot.a.r#type())
            .and_then(|t| t.num())
            .map(|d| (d, dot.precision));
        for (operand, k_axis) in [(dot.a, 1), (dot.b, 0)] {
            if let Some(load) = copyable(types, l, operand, k_axis, inputs) {
                out.push(load);
            }
        }
    }
    out
}

/// The registers (32-bit) of prefetched tiles a thread may hold beyond the
/// ones it works on: a loop of memory-bound loads takes `S - 1` tiles
/// ahead where they fit, fewer where they would not (two 32x64 f32 tiles
/// over 4 warps take 32).
const STREAM_REGISTERS: i64 = 64;

/// True when loop `l`'s body multiplies in a tensor-core layout.
fn multiplies_on_tensor_cores<'c, 'a>(types: &TypeTable<'c>, l: &ForLoop<'c, 'a>) -> bool {
    edit::ops_of(&l.body).iter().any(|op| {
        matches!(
            TileOp::read(op, |v| types.tile_type(v.r#type())),
            Ok(Some(TileOp::Dot(_)))
        ) && crate::edit::result_of(op, 0)
            .and_then(|r| types.layout(r.r#type()).ok().flatten())
            .is_some_and(|layout| matches!(layout, Layout::Mma(_)))
    })
}

/// The loads of a loop that multiplies nothing on tensor cores (a column
/// sum, a row statistic over column blocks) and asked for `stages`, and
/// the iterations ahead they are issued into registers: as many as the
/// stages allow (`S - 1`) within [`STREAM_REGISTERS`], at least one. Without them each iteration
/// waits out a whole memory latency with one tile in flight; `d` tiles
/// ahead keep `d + 1` in flight. The loads qualify as
/// [`prefetched_loads`]' do, without having to reach a product.
fn streamed_loads<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
    stages: i64,
) -> (Vec<OperationRef<'c, 'a>>, i64) {
    let loads = ahead_loads(types, l, &[], None);
    let mut registers = 0;
    for load in &loads {
        let Some(r) =
            crate::edit::result_of(load, 0).and_then(|r| thread_registers(types, r.into()))
        else {
            return (Vec::new(), 1);
        };
        registers += r;
    }
    if loads.is_empty() || registers > STREAM_REGISTERS {
        return (Vec::new(), 1);
    }
    let distance = (stages - 1).min(STREAM_REGISTERS / registers.max(1)).max(1);
    (loads, distance)
}

/// The bytes of shared memory a memory-bound loop may take for the tiles
/// it copies ahead (`S` buffers of each): a 32x64 f32 tile takes 8 KiB a
/// stage. Beyond it the loads go ahead in registers, or not at all.
const STREAM_SHARED_BYTES: i64 = 96 * 1024;

/// The warps of the kernel `func`.
fn assign_warps(func: &OperationRef) -> Result<i64, PassError> {
    crate::assign_layouts::num_warps(func).map(i64::from)
}

/// The loads of a memory-bound loop that asked for `stages` when every
/// one of them can be copied ahead asynchronously into its thread's own
/// slots of shared memory (`tile.async_copy = "thread"`), as Triton's
/// pipeliner does with such a loop: accesses of 4, 8 or 16 bytes, zero
/// (or no) fill for masked-off lanes, block pointers the loop advances by
/// invariant offsets, checked with zero padding or not at all, and `S`
/// buffers of every tile within [`STREAM_SHARED_BYTES`] (with `warps`
/// warps). The copies cost no registers, so the occupancy the loop's
/// author traded for them is smaller than in registers. Empty when any
/// load does not qualify.
fn streamed_copies<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
    stages: i64,
    warps: i64,
) -> Vec<OperationRef<'c, 'a>> {
    let loads = ahead_loads(types, l, &[], None);
    let mut bytes = 0;
    for load in &loads {
        let Some(result) = crate::edit::result_of(load, 0) else {
            return Vec::new();
        };
        let Some(d) = types.tile_type(result.r#type()).and_then(|t| t.num()) else {
            return Vec::new();
        };
        let width = match TileOp::read(load, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::Load(ld))) if ld.other.is_none_or(is_zero) => ld.vector_width,
            Ok(Some(TileOp::BlockLoad(b)))
                if (b.boundary_check.is_empty() || b.padding == Padding::Zero)
                    && advanced_each_iteration(l, b.ptr) =>
            {
                b.vector_width
            }
            _ => return Vec::new(),
        };
        // Whole bytes of an element: none for i1, whose tiles (bytes in
        // memory, predicates in registers) are never read back as copied.
        let elem_bytes = i64::from(d.bits()) / 8;
        if ![4, 8, 16].contains(&(width.unwrap_or(1) * elem_bytes)) {
            return Vec::new();
        }
        let Some(elements) = thread_elements(types, result.into()) else {
            return Vec::new();
        };
        bytes += elements * elem_bytes * warps * 32;
    }
    if stages * bytes > STREAM_SHARED_BYTES {
        return Vec::new();
    }
    loads
}

/// The elements of the tile `v` each thread holds in its layout.
fn thread_elements<'c>(types: &TypeTable<'c>, v: Value<'c, '_>) -> Option<i64> {
    let layout = types.layout(v.r#type()).ok().flatten()?;
    let dist = tile_coalesce::Distribution::new(&layout, &tensor_shape(v.r#type())).ok()?;
    Some(dist.registers() as i64)
}

/// The 32-bit registers a thread holds of the tile `v` in its layout.
fn thread_registers<'c>(types: &TypeTable<'c>, v: Value<'c, '_>) -> Option<i64> {
    let bits = i64::from(types.tile_type(v.r#type())?.num()?.bits());
    Some((thread_elements(types, v)? * bits + 31) / 32)
}

/// The loads of loop `l`'s body, other than those `copied` ahead, whose
/// tiles reach a tensor-core product of the body (through any ops of the
/// body) and that [`ahead_loads`] allows: they are issued one iteration
/// ahead, into registers.
fn prefetched_loads<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
    copied: &[OperationRef<'c, 'a>],
) -> Vec<OperationRef<'c, 'a>> {
    // The values of the body that reach a tensor-core product.
    let mut reaching: HashSet<usize> = HashSet::new();
    for op in edit::ops_of(&l.body).iter().rev() {
        let feeds = match TileOp::read(op, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::Dot(_))) => crate::edit::result_of(op, 0)
                .and_then(|r| types.layout(r.r#type()).ok().flatten())
                .is_some_and(|layout| matches!(layout, Layout::Mma(_))),
            _ => op
                .results()
                .any(|r| reaching.contains(&crate::edit::key(r))),
        };
        if feeds {
            for operand in op.operands() {
                reaching.insert(crate::edit::key(operand));
            }
        }
    }
    ahead_loads(types, l, copied, Some(&reaching))
}

/// The loads of loop `l`'s body that can be issued ahead into registers:
/// not among those `copied` ahead, whose tiles are among `reaching` (when
/// given), that move several elements an access, stay in their iteration
/// and whose addresses the loop's address slice gives for a later one.
/// Nothing in the body may write memory (a store, an atomic, a nested
/// region that might), or a load moved ahead could read before a write it
/// followed.
fn ahead_loads<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
    copied: &[OperationRef<'c, 'a>],
    reaching: Option<&HashSet<usize>>,
) -> Vec<OperationRef<'c, 'a>> {
    let ops = edit::ops_of(&l.body);
    let writes = ops.iter().any(|op| {
        op.regions().next().is_some()
            || matches!(
                TileOp::read(op, |v| types.tile_type(v.r#type())),
                Ok(Some(
                    TileOp::Store(_)
                        | TileOp::BlockStore(_)
                        | TileOp::AtomicRmw(_)
                        | TileOp::AtomicCas(_)
                        | TileOp::Print(_)
                        | TileOp::Assert(_)
                ))
            )
    });
    if writes {
        return Vec::new();
    }
    let mut out = Vec::new();
    for op in ops {
        if copied.iter().any(|c| c.to_raw().ptr == op.to_raw().ptr) {
            continue;
        }
        let Some(result) = crate::edit::result_of(&op, 0) else {
            continue;
        };
        if reaching.is_some_and(|r| !r.contains(&crate::edit::key(result)))
            || tensor_shape(result.r#type()).is_empty()
        {
            continue;
        }
        // Loads of one element an access are left where they are: issued
        // ahead they double the kernel's loads and its compile time (the
        // unspecialized matmul: 0.3 to 0.5 s) for a gain measured only on
        // vector loads.
        let addressing: Vec<Value> = match TileOp::read(&op, |v| types.tile_type(v.r#type())) {
            Ok(Some(TileOp::Load(ld)))
                if !ld.access.volatile && ld.vector_width.unwrap_or(1) > 1 =>
            {
                [Some(ld.ptr), ld.mask, ld.other]
                    .into_iter()
                    .flatten()
                    .collect()
            }
            Ok(Some(TileOp::BlockLoad(b)))
                if !b.access.volatile && b.vector_width.unwrap_or(1) > 1 =>
            {
                vec![b.ptr]
            }
            _ => continue,
        };
        // The tile must not leave the iteration (the loop yields its own
        // values, not the one loaded ahead).
        if l.yielded.iter().any(|&y| y == result.into()) {
            continue;
        }
        if crate::loop_slice::of(l, &addressing).is_some() {
            out.push(op);
        }
    }
    out
}

/// The load whose tile reaches operand `operand` of a dot (whose K is
/// axis `k_axis`), through layout conversions and transposes that only
/// the dot reads, if it can be copied ahead (`inputs`: the dot's input
/// type and precision).
fn copyable<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
    operand: Value<'c, 'a>,
    k_axis: usize,
    inputs: Option<(DType, InputPrecision)>,
) -> Option<OperationRef<'c, 'a>> {
    let (inputs, precision) = inputs?;
    let (load, k_axis) = source_load(types, l, operand, k_axis)?;
    let result = crate::edit::result_of(&load, 0)?;
    let shape = tensor_shape(result.r#type());
    if shape.len() != 2 {
        return None;
    }
    let elem_bytes = i64::from(inputs.bits()) / 8;
    let view = TileOp::read(&load, |v| types.tile_type(v.r#type())).ok()??;
    let width = match &view {
        TileOp::BlockLoad(b) => {
            if !b.boundary_check.is_empty() && b.padding != Padding::Zero {
                return None;
            }
            if b.access.volatile || !advanced_each_iteration(l, b.ptr) {
                return None;
            }
            b.vector_width
        }
        TileOp::Load(ld) => {
            if ld.access.volatile || !ld.other.is_none_or(is_zero) {
                return None;
            }
            let mut addressing = vec![ld.ptr];
            addressing.extend(ld.mask);
            crate::loop_slice::of(l, &addressing)?;
            ld.vector_width
        }
        _ => return None,
    };
    if ![4, 8, 16].contains(&(width.unwrap_or(1) * elem_bytes)) {
        return None;
    }
    // The contiguous axis: the fastest of the load's layout.
    let layout = types.layout(result.r#type()).ok().flatten()?;
    let (root, axes) = layout.root();
    let fastest = *root.order().first()?;
    let contiguous = axes.iter().position(|&a| a == fastest)?;
    // i8 and TF32 operands must have K contiguous for wgmma; `tf32x3`
    // splits its inputs in registers.
    match (inputs, precision) {
        (DType::F16 | DType::BF16, _) => Some(load),
        (DType::I8, _) | (DType::F32, InputPrecision::Tf32) if contiguous == k_axis => Some(load),
        _ => None,
    }
}

/// The load in `l`'s body whose tile becomes `v` through ops that only
/// relabel or reorder it (`tile.convert_layout`, a 2-D `tile.permute`),
/// each value on the way read once; and the load's axis that becomes
/// `v`'s axis `axis`.
fn source_load<'c, 'a>(
    types: &TypeTable<'c>,
    l: &ForLoop<'c, 'a>,
    mut v: Value<'c, 'a>,
    mut axis: usize,
) -> Option<(OperationRef<'c, 'a>, usize)> {
    loop {
        let op = crate::edit::as_result(v)?.owner();
        if op.block().map(|b| b.to_raw().ptr) != Some(l.body.to_raw().ptr)
            || edit::use_count(v) != 1
        {
            return None;
        }
        match TileOp::read(&op, |x| types.tile_type(x.r#type())).ok()?? {
            TileOp::ConvertLayout(u) => v = u.src,
            TileOp::Permute(p) if p.order.len() == 2 => {
                axis = usize::try_from(*p.order.get(axis)?).ok()?;
                v = p.src;
            }
            TileOp::Load(_) | TileOp::BlockLoad(_) => return Some((op, axis)),
            _ => return None,
        }
    }
}

/// True when `v` is a constant zero (a masked load's `other` that the
/// zero fill of an asynchronous copy gives).
fn is_zero(v: Value) -> bool {
    let Some(r) = crate::edit::as_result(v) else {
        return false;
    };
    matches!(
        tile_dialect::view::Constant::read(&r.owner()),
        Ok(Some(c)) if c.value.as_f64().to_bits() == 0
    )
}

/// True when `ptr` is a block pointer the loop carries and yields advanced
/// by offsets defined outside the loop.
fn advanced_each_iteration<'c, 'a>(l: &ForLoop<'c, 'a>, ptr: Value<'c, 'a>) -> bool {
    let Some(j) = l.iter_args.iter().position(|&a| a == ptr) else {
        return false;
    };
    let Some(advance) = crate::edit::as_result(l.yielded[j]).map(|r| r.owner()) else {
        return false;
    };
    if tile_dialect::view::op_name(&advance) != tile_dialect::ops::ADVANCE {
        return false;
    }
    let mut operands = advance.operands();
    if operands.next() != Some(ptr) {
        return false;
    }
    operands.all(|o| invariant(l, o))
}

/// True when `v` is defined outside the loop's body.
fn invariant<'c, 'a>(l: &ForLoop<'c, 'a>, v: Value<'c, 'a>) -> bool {
    // SAFETY: `v` is live; its owner block (of a result's op, or of a
    // block argument) is read, not kept.
    let owner = unsafe {
        if mlir_sys::mlirValueIsAOpResult(v.to_raw()) {
            mlir_sys::mlirOperationGetBlock(mlir_sys::mlirOpResultGetOwner(v.to_raw()))
        } else {
            mlir_sys::mlirBlockArgumentGetOwner(v.to_raw())
        }
    };
    // SAFETY: a live block (or null), walked outwards, not kept.
    let mut at = unsafe { melior::ir::BlockRef::from_option_raw(owner) };
    while let Some(b) = at {
        if b.to_raw().ptr == l.body.to_raw().ptr {
            return false;
        }
        at = b.parent_operation().and_then(|o| o.block());
    }
    true
}
