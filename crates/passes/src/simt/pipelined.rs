//! A software-pipelined `scf.for` (chosen by `tile-software-pipeline`):
//! its marked block loads (`tile.async_copy`) become asynchronous copies
//! (`cp.async`) into rings of `S` buffers in shared memory, issued `S - 1`
//! iterations ahead of the `tile.dot` that reads them there.
//!
//! ```text
//! copy tiles 0 .. S-2 into buffers 0 .. S-2, one commit group a tile
//! for i in 0 .. n:
//!     wait until tile i has landed (cp.async.wait_group S-2); fence; barrier
//!     the body, its dots reading buffer i % S
//!     barrier; copy tile i+S-1 into buffer (i+S-1) % S, the one iteration
//!     i-1 read (nothing past the last tile); commit
//! wait for every copy (and every product)
//! ```
//!
//! Each copy moves one run of the load's layout (`tile.vector_width`
//! elements, 4 to 16 bytes) from its address to its place in the buffer
//! (the swizzled layout of [`SharedTile`], columns along the block's
//! contiguous axis); out of bounds it reads nothing and fills zeros (its
//! `ignore-src` predicate, which SASS keeps as `LDGSTS`'s own operand).
//! The barrier at the top of each iteration makes the landed tile visible
//! to every thread (after `fence.proxy.async` where `wgmma` reads it);
//! the one before the copies keeps them behind every
//! thread's reads of the buffer they refill: a product that only the next
//! iteration reads leaves its `wgmma` group running and waits for the
//! previous one (`wgmma.wait_group 1`), so the buffer of iteration `i - 1`
//! is free once all threads are past it. The buffers take the start of the
//! shared buffer while the loop runs; conversions and reductions inside it
//! use the bytes after them.
//!
//! [`SharedTile`]: tile_coalesce::SharedTile

use super::builder::Val;
use super::dot::{Staged, proxy_fence, tile_offset};
use super::emit::{Dist, Emitter, Lowered};
use super::ptx::{Arg, PtxAsm, RegClass};
use super::{block_ptr, control};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{OperationRef, Type, Value, ValueLike};
use tile_coalesce::{Distribution, SharedTile};
use tile_dialect::TileType;
use tile_dialect::ops::ASYNC_COPY_ATTR;
use tile_dialect::view::{ForLoop, TileOp};

/// One load copied ahead.
struct Copied<'c, 'a> {
    /// The block load.
    load: OperationRef<'c, 'a>,
    /// The index of its block pointer among the loop's carried values.
    carried: usize,
    /// What the loop adds to the pointer's offsets each iteration.
    deltas: Vec<Val>,
    /// The load's layout: which thread copies which run.
    dist: Dist,
    /// Elements per copy.
    width: usize,
    /// The axes checked against the shape.
    checked: Vec<i64>,
    /// The element type in memory.
    elem: Type<'c>,
    /// Bytes an element takes.
    elem_bytes: i64,
    /// The buffer layout.
    tile: SharedTile,
    /// The tensor axis along the buffer's columns.
    contiguous: usize,
    /// The byte offset of buffer 0 in the shared buffer.
    ring: i64,
    /// Bytes from one buffer to the next.
    stride: i64,
}

/// Lowers the pipelined loop `op` with `stages` buffers a load.
pub fn for_loop<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &ForLoop<'c, '_>,
    stages: i64,
) -> PassResult {
    let copies_ahead = crate::edit::ops_of(&l.body)
        .iter()
        .any(|inner| inner.has_attribute(ASYNC_COPY_ATTR));
    if !copies_ahead {
        return control::for_loop(e, op, l);
    }
    let wgmma = reads_with_wgmma(e, l);
    // Operands shared by every iteration first: they stay pinned after
    // the loop (for later loops of this block); the rings go after them.
    super::dot::invariant::stage(e, l, wgmma)?;
    let outer_scratch = e.scratch();
    let mut next = outer_scratch as i64;
    let mut copied = Vec::new();
    for inner in crate::edit::ops_of(&l.body) {
        if inner.has_attribute(ASYNC_COPY_ATTR) {
            let c = describe(e, l, &inner, &mut next, stages)?;
            copied.push(c);
        }
    }
    e.set_scratch(next as usize);

    let i32 = e.ir.int_type(32);
    let [lower, upper, step] = [l.lower, l.upper, l.step].map(|v| e.reg(v, 0, op));
    let (lower, upper, step) = (lower?, upper?, step?);
    if lower.ty() != i32 {
        return Err(PassError::at(op, "pipelines only loops with i32 bounds"));
    }
    let trips = trip_count(e, lower, upper, step);

    // Each thread's runs of each load, at the loop's first tile.
    let mut runs = Vec::with_capacity(copied.len());
    for c in &copied {
        let ptr = e.get(l.inits[c.carried], op)?;
        runs.push(prepare(e, c, &ptr)?);
    }

    // The first S - 1 tiles.
    for s in 0..stages - 1 {
        let s_val = e.i32(s);
        let wanted = e.ir.cmpi(CmpiPredicate::Slt, s_val, trips);
        for (c, r) in copied.iter().zip(&runs) {
            let at = e.i32(c.ring + s * c.stride);
            issue(e, c, r, s_val, at, wanted);
        }
        async_group(e, "cp.async.commit_group");
    }

    // The loop: the original carried values, then the iteration's number
    // and the buffer it reads.
    let zero = e.i32(0);
    let loop_state = [zero, zero];
    let in_flight = super::dot::in_flight::products(e, l);
    let outer_in_flight = std::mem::replace(&mut e.in_flight_products, in_flight.clone());
    let outer_pending = std::mem::take(&mut e.pending);
    e.wgmma_pending = false;
    control::for_loop_with(
        e,
        op,
        l,
        &loop_state,
        |e, state| {
            let read = state[1];
            super::dot::in_flight::mark_pending(e, l, &in_flight);
            async_group(e, &format!("cp.async.wait_group {}", stages - 2));
            if wgmma {
                proxy_fence(e);
            }
            e.ir.barrier();
            for c in &copied {
                let at = buffer_at(e, c, read);
                let result: Value = c.load.result(0).expect("a block load's result").into();
                e.set(
                    result,
                    Lowered::Shared {
                        tile: c.tile,
                        at,
                        contiguous: c.contiguous,
                    },
                );
            }
            Ok(())
        },
        |inner| inner.has_attribute(ASYNC_COPY_ATTR),
        |e, state| {
            let [count, read] = [state[0], state[1]];
            // Every thread is done with the buffer iteration i - 1 read
            // (its products have retired): copy the tile S - 1 iterations
            // ahead into it, (read + S - 1) % S.
            e.ir.barrier();
            let ahead = e.i32(stages - 1);
            let target = e.ir.binary(arith::addi, count, ahead);
            let wanted = e.ir.cmpi(CmpiPredicate::Slt, target, trips);
            let write = rotate(e, read, stages - 1, stages);
            for (c, r) in copied.iter().zip(&runs) {
                let at = buffer_at(e, c, write);
                issue(e, c, r, target, at, wanted);
            }
            async_group(e, "cp.async.commit_group");
            let one = e.i32(1);
            let count = e.ir.binary(arith::addi, count, one);
            let read = rotate(e, read, 1, stages);
            Ok(vec![count, read])
        },
    )?;
    e.in_flight_products = outer_in_flight;
    e.pending = outer_pending;
    if std::mem::take(&mut e.wgmma_pending) {
        // The last products: their accumulators leave the loop through
        // the wait.
        let mut regs = Vec::new();
        let mut carried = Vec::new();
        for (i, &y) in l.yielded.iter().enumerate() {
            if !is_dot_result(y) {
                continue;
            }
            let result: Value = op.result(i).expect("a loop result a value yields").into();
            if let Lowered::Regs(r) = e.get(result, op)? {
                carried.push((result, r.len()));
                regs.extend(r);
            }
        }
        let mut waited = super::dot::wgmma::wait(e, 0, regs).into_iter();
        for (result, n) in carried {
            let r: Vec<Val> = waited.by_ref().take(n).collect();
            e.set(result, Lowered::Regs(r));
        }
    }
    async_group(e, "cp.async.wait_group 0");
    e.ir.barrier();
    e.set_scratch(outer_scratch);
    Ok(())
}

/// True when `v` is the result of a `tile.dot`.
fn is_dot_result(v: Value) -> bool {
    OperationResult::try_from(v)
        .is_ok_and(|r| tile_dialect::view::op_name(&r.owner()) == tile_dialect::ops::DOT)
}

/// True when a product of the loop's body multiplies with `wgmma`
/// (reading shared memory through the async proxy).
fn reads_with_wgmma<'c>(e: &Emitter<'_, 'c>, l: &ForLoop<'c, '_>) -> bool {
    crate::edit::ops_of(&l.body).iter().any(|op| {
        tile_dialect::view::op_name(op) == tile_dialect::ops::DOT
            && op
                .result(0)
                .ok()
                .and_then(|r| e.types.layout(r.r#type()).ok().flatten())
                .is_some_and(
                    |layout| matches!(layout, tile_coalesce::Layout::Mma(m) if m.version == 3),
                )
    })
}

/// Reads what copying `load` ahead needs, and places its ring at `next`
/// (moved past it).
fn describe<'c, 'a>(
    e: &mut Emitter<'_, 'c>,
    l: &ForLoop<'c, 'a>,
    load: &OperationRef<'c, 'a>,
    next: &mut i64,
    stages: i64,
) -> Result<Copied<'c, 'a>, PassError> {
    let Ok(Some(TileOp::BlockLoad(b))) = TileOp::read(load, |v| e.types.tile_type(v.r#type()))
    else {
        return Err(PassError::at(
            load,
            "is marked tile.async_copy but is no block load",
        ));
    };
    let d = match e.tile_type(b.ptr, load)? {
        TileType::BlockPtr { dtype, .. } => dtype,
        _ => return Err(PassError::at(load, "expects a block pointer")),
    };
    let carried = l
        .iter_args
        .iter()
        .position(|&a| a == b.ptr)
        .ok_or_else(|| PassError::at(load, "is copied ahead but its pointer is not carried"))?;
    let advance = OperationResult::try_from(l.yielded[carried])
        .map(|r| r.owner())
        .map_err(|_| PassError::at(load, "is copied ahead but its pointer is not advanced"))?;
    let Ok(Some(TileOp::Advance(a))) = TileOp::read(&advance, |v| e.types.tile_type(v.r#type()))
    else {
        return Err(PassError::at(
            load,
            "is copied ahead but its pointer is not advanced",
        ));
    };
    let deltas = a
        .offsets
        .iter()
        .map(|&o| e.reg(o, 0, load))
        .collect::<Result<Vec<_>, _>>()?;
    let result: Value = load.result(0).expect("a block load's result").into();
    let dist = e.dist(result, load)?;
    let (root, axes) = dist.1.root();
    let fastest = root.order()[0];
    let contiguous = axes
        .iter()
        .position(|&x| x == fastest)
        .ok_or_else(|| PassError::at(load, "has a layout without a fastest axis"))?;
    let shape = &dist.0.shape;
    if shape.len() != 2 {
        return Err(PassError::at(
            load,
            "copies ahead a tile that is not a matrix",
        ));
    }
    let elem_bytes = i64::from(d.bits()) / 8;
    let width = b.vector_width.unwrap_or(1) as usize;
    if ![4, 8, 16].contains(&(width as i64 * elem_bytes)) {
        return Err(PassError::at(
            load,
            "is copied ahead but moves fewer than 4 bytes an access",
        ));
    }
    let tile = SharedTile::new(shape[1 - contiguous], shape[contiguous], elem_bytes);
    let align = |x: i64| {
        let a = tile_coalesce::shared::SWIZZLE_ALIGN;
        (x + a - 1) / a * a
    };
    let stride = align(tile.bytes());
    let ring = align(*next);
    *next = ring + stages * stride;
    Ok(Copied {
        load: *load,
        carried,
        deltas,
        dist,
        width,
        checked: b.boundary_check.clone(),
        elem: block_ptr::memory_type(e, d),
        elem_bytes,
        tile,
        contiguous,
        ring,
        stride,
    })
}

/// `max(0, ceil((upper - lower) / step))` (i32; `step` positive).
fn trip_count<'c>(e: &mut Emitter<'_, 'c>, lower: Val, upper: Val, step: Val) -> Val {
    let span = e.ir.binary(arith::subi, upper, lower);
    let one = e.i32(1);
    let up = e.ir.binary(arith::subi, step, one);
    let padded = e.ir.binary(arith::addi, span, up);
    let n = e.ir.binary(arith::divsi, padded, step);
    let zero = e.i32(0);
    let positive = e.ir.cmpi(CmpiPredicate::Sgt, span, zero);
    e.ir.select(positive, n, zero)
}

/// `(x + by) % stages` for `x` in `0..stages`.
fn rotate<'c>(e: &mut Emitter<'_, 'c>, x: Val, by: i64, stages: i64) -> Val {
    let c = e.i32(by);
    let y = e.ir.binary(arith::addi, x, c);
    let s = e.i32(stages);
    let past = e.ir.cmpi(CmpiPredicate::Sge, y, s);
    let wrapped = e.ir.binary(arith::subi, y, s);
    e.ir.select(past, wrapped, y)
}

/// The byte offset of buffer `index` of `c`'s ring.
fn buffer_at<'c>(e: &mut Emitter<'_, 'c>, c: &Copied<'c, '_>, index: Val) -> Val {
    let stride = e.i32(c.stride);
    let x = e.ir.binary(arith::muli, index, stride);
    let ring = e.i32(c.ring);
    e.ir.binary(arith::addi, x, ring)
}

/// `cp.async.commit_group`, `cp.async.wait_group N`: kept in place.
fn async_group<'c>(e: &mut Emitter<'_, 'c>, text: &str) {
    let mut asm = PtxAsm::new();
    asm.instruction(None, text, vec![]);
    asm.emit(&e.ir, true);
}

/// What a thread's copies of one load need every iteration, computed
/// once before the loop (where it stays): the source address of each run
/// at the first tile, its position along each checked axis there, whether
/// it lies inside the axes the loop does not move along, and its byte
/// offset in a buffer; the element step from one tile to the next.
struct Runs {
    /// One entry a run (`width` registers).
    runs: Vec<Run>,
    /// The checked axes: their index and extent (i32; negative extents as
    /// 0, those beyond i32 as its largest value).
    checked: Vec<(usize, Val)>,
    /// Elements from one tile to the next (i64).
    step: Val,
    /// The shared buffer's address in the shared window (i32).
    shared: Val,
    /// Whether this thread copies (copies of a small tile held twice
    /// leave it to one thread).
    owner: Option<Val>,
}

struct Run {
    /// The address of the run at the first tile.
    start: Val,
    /// Its position (i32) along each checked axis at the first tile.
    positions: Vec<Val>,
    /// Its byte offset within a buffer (i32).
    offset: Val,
}

/// Computes [`Runs`] for copying `c` from block pointer `ptr` (the
/// loop's first tile).
fn prepare<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    ptr: &Lowered,
) -> Result<Runs, PassError> {
    let Lowered::BlockPtr {
        shape,
        strides,
        offsets,
        ..
    } = ptr
    else {
        return Err(PassError::at(&c.load, "expects a block pointer"));
    };
    let dist = &c.dist.0;
    let i64 = e.ir.int_type(64);
    let zero = e.int(i64, 0);
    let mut step = zero;
    for (&d, &stride) in c.deltas.iter().zip(strides) {
        let d = e.ir.cast(arith::extsi, d, i64);
        let term = e.ir.binary(arith::muli, d, stride);
        step = e.ir.binary(arith::addi, step, term);
    }
    let mut checked = Vec::new();
    // Positions are i32 (offsets are); extents are compared as i32 too,
    // clamped to 0 ..= i32::MAX.
    let i32 = e.ir.int_type(32);
    let max = e.int(i64, i64::from(i32::MAX));
    for (axis, &extent) in shape.iter().enumerate() {
        if c.checked.contains(&(axis as i64)) {
            let negative = e.ir.cmpi(CmpiPredicate::Slt, extent, zero);
            let extent = e.ir.select(negative, zero, extent);
            let huge = e.ir.cmpi(CmpiPredicate::Sgt, extent, max);
            let extent = e.ir.select(huge, max, extent);
            checked.push((axis, e.ir.cast(arith::trunci, extent, i32)));
        }
    }
    let staged = Staged {
        tile: c.tile,
        at: e.i32(0),
        k_major: false,
    };
    let mut runs: Vec<Run> = Vec::new();
    for r in (0..dist.registers()).step_by(c.width) {
        // A run at the same distance from the first in every thread is
        // addressed from the first's address and position (one address
        // register a load, not one a run); its place in the buffer too
        // when the swizzle moves it by the same bytes in every thread.
        let first = runs.first();
        let delta = first.and(uniform_delta(dist, r));
        let start = match delta.as_ref() {
            Some(d) => {
                let first = first.expect("a first run");
                let i64 = e.ir.int_type(64);
                let mut offset: Option<Val> = None;
                for (&k, &stride) in d.iter().zip(strides) {
                    if k == 0 {
                        continue;
                    }
                    let k = e.int(i64, k);
                    let term = e.ir.binary(arith::muli, k, stride);
                    offset = Some(match offset {
                        None => term,
                        Some(o) => e.ir.binary(arith::addi, o, term),
                    });
                }
                match offset {
                    Some(o) => e.ir.gep(first.start, o, c.elem),
                    None => first.start,
                }
            }
            None => {
                block_ptr::element(e, ptr, dist, r, &[], c.elem)
                    .map_err(|m| PassError::at(&c.load, m))?
                    .0
            }
        };
        let positions = checked
            .iter()
            .enumerate()
            .map(|(j, &(axis, _))| match (first, delta.as_ref()) {
                (Some(f), Some(d)) if d[axis] == 0 => f.positions[j],
                (Some(f), Some(d)) => {
                    let k = e.i32(d[axis]);
                    e.ir.binary(arith::addi, f.positions[j], k)
                }
                _ => {
                    let idx = e.index(dist, r, axis);
                    e.ir.binary(arith::addi, offsets[axis], idx)
                }
            })
            .collect();
        let offset = match (first, uniform_buffer_delta(c, dist, r)) {
            (Some(f), Some(0)) => f.offset,
            (Some(f), Some(k)) => {
                let k = e.i32(k);
                e.ir.binary(arith::addi, f.offset, k)
            }
            _ => {
                let row = e.index(dist, r, 1 - c.contiguous);
                let col = e.index(dist, r, c.contiguous);
                tile_offset(e, &staged, row, col)
            }
        };
        runs.push(Run {
            start,
            positions,
            offset,
        });
    }
    let i32 = e.ir.int_type(32);
    let shared = e.shared_buffer();
    let shared = e.ir.generic("llvm.ptrtoint", &[shared], &[i32], &[])[0];
    let owner = e.owner(dist, &c.dist.1);
    Ok(Runs {
        runs,
        checked,
        step,
        shared,
        owner,
    })
}

/// The offset along each axis of register `r`'s element from register
/// 0's, when it is the same in every thread (indices that wrap can make
/// it differ); `None` otherwise.
fn uniform_delta(dist: &Distribution, r: usize) -> Option<Vec<i64>> {
    let delta: Vec<i64> = (0..dist.shape.len())
        .map(|i| dist.offsets[r][i] - dist.offsets[0][i])
        .collect();
    every_thread(dist, |lane, warp| {
        let (a, b) = (dist.element(lane, warp, 0), dist.element(lane, warp, r));
        a.iter().zip(&b).zip(&delta).all(|((x, y), d)| y - x == *d)
    })
    .then_some(delta)
}

/// The bytes from register 0's place in a buffer of `c` to register
/// `r`'s, when it is the same in every thread; `None` otherwise.
fn uniform_buffer_delta(c: &Copied, dist: &Distribution, r: usize) -> Option<i64> {
    let place = |lane, warp, reg| {
        let at = dist.element(lane, warp, reg);
        c.tile.offset(at[1 - c.contiguous], at[c.contiguous])
    };
    let delta = place(0, 0, r) - place(0, 0, 0);
    every_thread(dist, |lane, warp| {
        place(lane, warp, r) - place(lane, warp, 0) == delta
    })
    .then_some(delta)
}

/// True when `holds` holds for every lane of every warp of `dist`'s layout.
fn every_thread(dist: &Distribution, holds: impl Fn(i64, i64) -> bool) -> bool {
    let warps = i64::from(dist.root.num_warps());
    (0..warps).all(|warp| (0..32).all(|lane| holds(lane, warp)))
}

/// Copies tile number `tile` (i32, counted from the loop's first) of `c`
/// into the buffer at byte offset `at`: one `cp.async` a run, reading
/// nothing and filling zeros for runs out of bounds, or for all of them
/// when `wanted` is false. The address of a run is its first tile's plus
/// `tile` steps; only the moved axes' positions are compared again.
fn issue<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    runs: &Runs,
    tile: Val,
    at: Val,
    wanted: Val,
) {
    let i64 = e.ir.int_type(64);
    let tile32 = tile;
    let tile = e.ir.cast(arith::extsi, tile, i64);
    let elements = e.ir.binary(arith::muli, tile, runs.step);
    let moved: Vec<Val> = runs
        .checked
        .iter()
        .map(|&(axis, _)| e.ir.binary(arith::muli, tile32, c.deltas[axis]))
        .collect();
    let bytes = c.width as i64 * c.elem_bytes;
    let i1 = e.ir.int_type(1);
    let yes = e.int(i1, 1);
    let buffer = e.ir.binary(arith::addi, runs.shared, at);
    let opcode = if bytes == 16 {
        "cp.async.cg.shared.global"
    } else {
        "cp.async.ca.shared.global"
    };
    for run in &runs.runs {
        let src = e.ir.gep(run.start, elements, c.elem);
        let mut valid = wanted;
        for ((&pos, &(_, extent)), &m) in run.positions.iter().zip(&runs.checked).zip(&moved) {
            let pos = e.ir.binary(arith::addi, pos, m);
            // Below the (non-negative) extent, and not negative.
            let inside = e.ir.cmpi(CmpiPredicate::Ult, pos, extent);
            valid = e.ir.binary(arith::andi, valid, inside);
        }
        // Out of bounds the source is ignored (not read: zeros land).
        let ignore = e.ir.binary(arith::xori, valid, yes);
        let dst = e.ir.binary(arith::addi, buffer, run.offset);
        let mut asm = PtxAsm::new();
        let guard = runs.owner.map(|o| asm.input(RegClass::Pred, o));
        let dst = asm.input(RegClass::B32, dst);
        let src = asm.input(RegClass::B64, src);
        let ignore = asm.input(RegClass::Pred, ignore);
        asm.instruction(
            guard,
            opcode,
            vec![
                Arg::Address(dst),
                Arg::Address(src),
                Arg::Imm(bytes),
                Arg::Reg(ignore),
            ],
        );
        asm.emit(&e.ir, true);
    }
}
