//! A software-pipelined `scf.for` (chosen by `tile-software-pipeline`):
//! its marked loads (`tile.async_copy`, through block pointers or pointer
//! tensors) become asynchronous copies (`cp.async`) into rings of `S`
//! buffers in shared memory, issued `S - 1` iterations ahead of the
//! `tile.dot` that reads them there (addresses from [`ahead`]); loads
//! marked `tile.prefetch` are issued one iteration ahead into registers
//! ([`prefetch`]).
//!
//! ```text
//! barrier (earlier readers of the bytes the ring takes are done)
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
//! to every thread (and to `wgmma`: no proxy fence is needed after
//! `cp.async`); the one before the copies keeps them behind every
//! thread's reads of the buffer they refill: a product that only the next
//! iteration reads leaves its `wgmma` group running and waits for the
//! previous one (`wgmma.wait_group 1`), so the buffer of iteration `i - 1`
//! is free once all threads are past it. The buffers take the start of the
//! shared buffer while the loop runs; conversions and reductions inside it
//! use the bytes after them.
//!
//! [`SharedTile`]: tile_coalesce::SharedTile

mod ahead;
mod copies;
mod prefetch;

use ahead::Ahead;
use prefetch::Prefetch;

use super::builder::Val;
use super::emit::{Dist, Emitter, Lowered};
use super::ptx::{Arg, PtxAsm, RegClass};
use super::{block_ptr, control};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, Value, ValueLike};
use tile_coalesce::SharedTile;
use tile_dialect::TileType;
use tile_dialect::ops::ASYNC_COPY_ATTR;
use tile_dialect::view::{ForLoop, TileOp};

/// One load copied ahead.
pub(super) struct Copied<'c, 'a> {
    /// The load (a block load or a load through a tensor of pointers).
    load: OperationRef<'c, 'a>,
    /// Where its addresses come from.
    source: Source<'c, 'a>,
    /// The load's layout: which thread copies which run.
    dist: Dist,
    /// Elements per copy.
    width: usize,
    /// The element type in memory.
    elem: Type<'c>,
    /// Bytes an element takes.
    elem_bytes: i64,
    /// The buffer layout (for a load copied into each thread's own slots,
    /// unused: see `own`).
    tile: SharedTile,
    /// Each thread copies its runs into slots of its own and reads them
    /// back itself (a loop of memory-bound loads, `tile.async_copy =
    /// "thread"`): run `k` of thread `t` at `(k * threads + t) * run
    /// bytes`, so a warp's accesses to one run are consecutive.
    own: Option<OwnSlots>,
    /// The tensor axis along the buffer's columns.
    contiguous: usize,
    /// The byte offset of buffer 0 in the shared buffer.
    ring: i64,
    /// Bytes from one buffer to the next.
    stride: i64,
}

/// How the addresses of a copied load's tiles are found.
pub(super) enum Source<'c, 'a> {
    /// A block pointer the loop carries and advances by invariant offsets:
    /// tile `i`'s addresses are the first tile's plus `i` steps.
    Block {
        /// The index of the pointer among the loop's carried values.
        carried: usize,
        /// What the loop adds to the pointer's offsets each iteration.
        deltas: Vec<Val>,
        /// The axes checked against the shape.
        checked: Vec<i64>,
    },
    /// A tensor of pointers and an optional mask, computed by the loop's
    /// address slice ([`crate::loop_slice`]), which is evaluated for the
    /// iteration whose tile is copied.
    Pointers {
        /// The pointers.
        ptr: Value<'c, 'a>,
        /// The lanes that copy; the others fill zeros.
        mask: Option<Value<'c, 'a>>,
    },
}

/// Lowers the pipelined loop `op` with `stages` buffers a load.
pub fn for_loop<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &ForLoop<'c, '_>,
    stages: i64,
) -> PassResult {
    let ahead_of_use = crate::edit::ops_of(&l.body)
        .iter()
        .any(|inner| inner.has_attribute(ASYNC_COPY_ATTR) || prefetch::is_prefetched(inner));
    if !ahead_of_use {
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

    // A loop that runs no iteration (attention's masked loop when the
    // sequence fills whole blocks) copies nothing and waits for nothing:
    // its results are its initial values.
    let zero = e.i32(0);
    let runs_at_all = e.ir.cmpi(CmpiPredicate::Sgt, trips, zero);
    e.ir.open_block(&[]);
    pipeline(e, op, l, stages, &copied, trips)?;
    let mut counts = Vec::with_capacity(l.results.len());
    let mut after = Vec::new();
    for &r in &l.results {
        let parts = e.get(r, op)?.parts();
        counts.push(parts.len());
        after.extend(parts);
    }
    let then = e.ir.close_block(&after);
    e.ir.open_block(&[]);
    let mut before = Vec::with_capacity(after.len());
    for &v in &l.inits {
        before.extend(e.get(v, op)?.parts());
    }
    let otherwise = e.ir.close_block(&before);
    let types: Vec<Type> = after.iter().map(|v| v.ty()).collect();
    let out = e.ir.if_else(runs_at_all, then, otherwise, &types);
    let mut k = 0;
    for (&r, n) in l.results.iter().zip(counts) {
        let rebuilt = control::rebuild(e, r, out[k..k + n].to_vec(), op)?;
        e.set(r, rebuilt);
        k += n;
    }
    e.set_scratch(outer_scratch);
    Ok(())
}

/// The pipelined loop itself, `trips` (positive) iterations: the first
/// S - 1 tiles copied, the loop, and the waits for every copy and product
/// after it.
fn pipeline<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    l: &ForLoop<'c, '_>,
    stages: i64,
    copied: &[Copied<'c, '_>],
    trips: Val,
) -> PassResult {
    // Each thread's runs of each load (a block load's at the loop's
    // first tile).
    let mut runs = Vec::with_capacity(copied.len());
    for c in copied {
        let ptr = match &c.source {
            Source::Block { carried, .. } => Some(e.get(l.inits[*carried], op)?),
            Source::Pointers { .. } => None,
        };
        runs.push(copies::prepare(e, c, ptr.as_ref())?);
    }
    // Copies whose addresses advance by the same amount every iteration
    // are stepped by the loop itself (see `stepped`); the address slice
    // still gives their masks, and the others' addresses.
    let stepping: Vec<bool> = copied
        .iter()
        .map(|c| match &c.source {
            Source::Block { .. } => true,
            Source::Pointers { ptr, .. } => crate::loop_slice::affine(l, *ptr),
        })
        .collect();
    let (mut everything, mut in_loop_values) = (Vec::new(), Vec::new());
    for (c, &stepped) in copied.iter().zip(&stepping) {
        if let Source::Pointers { ptr, mask } = &c.source {
            everything.push(*ptr);
            everything.extend(*mask);
            if !stepped {
                in_loop_values.push(*ptr);
            }
            in_loop_values.extend(*mask);
        }
    }
    let full = Ahead::of(l, &everything, op)?;
    let in_loop = Ahead::of(l, &in_loop_values, op)?;
    let mut state = full.initial(e, l, op)?;
    let [lower, step] = [l.lower, l.step].map(|v| e.reg(v, 0, op));
    let (lower, step) = (lower?, step?);
    let prefetch = Prefetch::of(e, l, op)?;
    let fetched = prefetch.first(e, l, op, lower, step, trips)?;
    let copies_any = !copied.is_empty();
    // Other threads read the buffers of copies laid out for a product:
    // those need a barrier after they land and before they are
    // overwritten. A thread reading back its own slots needs neither
    // (its `cp.async.wait_group` makes them visible to it, and it read
    // the slot a copy overwrites an iteration before).
    let shared_reads = copied.iter().any(|c| c.own.is_none());

    // The ring takes bytes that an earlier conversion, reduction or loop
    // may still be reading (in a persistent kernel, the previous tile's
    // epilogue): as every writer of shared memory, the copies wait for
    // them first.
    if copies_any {
        e.ir.barrier();
    }
    // Tiles 0 .. S-2 are copied; the addresses of tiles 0, 1 (for the
    // steps) and S-1 (where the loop starts) are kept.
    let mut kept: Vec<Vec<Vec<Val>>> = Vec::with_capacity(stages as usize);
    let mut block_steps: Vec<Option<Val>> = vec![None; copied.len()];
    let mut entry_state = Vec::new();
    for s in 0..stages {
        let s_val = e.i32(s);
        let steps = e.ir.binary(arith::muli, s_val, step);
        let iv = e.ir.binary(arith::addi, lower, steps);
        let copies_now = s < stages - 1;
        if !copies_now {
            entry_state = state.clone();
        }
        let wanted = e.ir.cmpi(CmpiPredicate::Slt, s_val, trips);
        let mut addresses = Vec::with_capacity(copied.len());
        state = full.evaluate(e, l, op, iv, &state, |e| {
            for (i, (c, r)) in copied.iter().zip(&runs).enumerate() {
                if stepping[i] && (s <= 1 || s == stages - 1) {
                    let (a, block_step) = copies::run_addresses(e, c, r, s_val, op)?;
                    addresses.push(a);
                    block_steps[i] = block_steps[i].or(block_step);
                } else {
                    addresses.push(Vec::new());
                }
                if copies_now {
                    let at = e.i32(c.ring + s * c.stride);
                    copies::issue(e, c, r, s_val, at, wanted, None, op)?;
                }
            }
            Ok(())
        })?;
        kept.push(addresses);
        if copies_now && copies_any {
            async_group(e, "cp.async.commit_group");
        }
    }
    // Each stepped run's step (bytes, i64), and its address at tile S-1.
    let mut deltas = Vec::new();
    let mut start = Vec::new();
    for i in 0..copied.len() {
        if !stepping[i] {
            continue;
        }
        for (k, &first) in kept[0][i].iter().enumerate() {
            let d = match block_steps[i] {
                Some(d) => d,
                None => e.ir.binary(arith::subi, kept[1][i][k], first),
            };
            deltas.push(d);
        }
        start.extend(kept[stages as usize - 1][i].iter().copied());
    }
    // The in-loop slice's carried values at tile S-1.
    let entry: Vec<Lowered> = in_loop
        .carried()
        .iter()
        .map(|j| {
            let at = full
                .carried()
                .iter()
                .position(|x| x == j)
                .expect("the loop's slice is part of the whole");
            entry_state[at].clone()
        })
        .collect();
    let entry_parts = Ahead::flatten(&entry);

    // The loop: the original carried values, then the iteration's number,
    // the buffer it reads, the in-loop slice's carried values S - 1
    // iterations ahead, and the stepped addresses of that tile.
    let zero = e.i32(0);
    let mut loop_state = vec![zero, zero];
    loop_state.extend(entry_parts.iter().copied());
    loop_state.extend(start.iter().copied());
    let fetched_at = loop_state.len();
    loop_state.extend(fetched.iter().copied());
    let in_flight = super::dot::in_flight::products(e, l);
    let outer_in_flight = std::mem::replace(&mut e.in_flight_products, in_flight.clone());
    let outer_pending = std::mem::take(&mut e.pending);
    let outer_parity = e.staging_parity;
    e.wgmma_pending = false;
    control::for_loop_with(
        e,
        op,
        l,
        &loop_state,
        |e, state| {
            let read = state[1];
            // The previous iteration's in-flight group may still run.
            e.wgmma_may_run = true;
            super::dot::in_flight::mark_pending(e, l, &in_flight);
            let one = e.i32(1);
            e.staging_parity = Some(e.ir.binary(arith::andi, state[0], one));
            prefetch.set(e, &state[fetched_at..]);
            if !copies_any {
                return Ok(());
            }
            // No `fence.proxy.async` between the copies and `wgmma`'s
            // reads: what `cp.async` writes is ordered for the tensor
            // cores by the wait and the barrier alone, as in Triton's and
            // CUTLASS's sm_90 `cp.async` main loops (the fence is for
            // `st.shared`: `invariant::stage`, `stage_operands`).
            async_group(e, &format!("cp.async.wait_group {}", stages - 2));
            if shared_reads {
                e.ir.barrier();
            }
            for (c, r) in copied.iter().zip(&runs) {
                let at = buffer_at(e, c, read);
                let result: Value = c.load.result(0).expect("a load's result").into();
                let lowered = match c.own {
                    Some(_) => Lowered::Regs(copies::read_own(e, c, r, at)),
                    None => Lowered::Shared {
                        tile: c.tile,
                        at,
                        contiguous: c.contiguous,
                    },
                };
                e.set(result, lowered);
            }
            Ok(())
        },
        |inner| inner.has_attribute(ASYNC_COPY_ATTR) || prefetch::is_prefetched(inner),
        |e, loop_state| {
            let [count, read] = [loop_state[0], loop_state[1]];
            // The next iteration's registers first (their loads are in
            // flight while the copies are issued).
            let current_iv = e.reg(l.induction, 0, op)?;
            let fetched_next = prefetch.next(
                e,
                l,
                op,
                current_iv,
                step,
                count,
                trips,
                &loop_state[fetched_at..],
            )?;
            // Every thread is done with the buffer iteration i - 1 read
            // (its products have retired): copy the tile S - 1 iterations
            // ahead into it, (read + S - 1) % S.
            if shared_reads {
                e.ir.barrier();
            }
            let ahead_count = e.i32(stages - 1);
            let target = e.ir.binary(arith::addi, count, ahead_count);
            let wanted = e.ir.cmpi(CmpiPredicate::Slt, target, trips);
            let write = rotate(e, read, stages - 1, stages);
            let n = entry_parts.len();
            let current = in_loop.rebuild(e, l, &entry, &loop_state[2..2 + n], op)?;
            let addresses = &loop_state[2 + n..];
            let iv = e.reg(l.induction, 0, op)?;
            let steps = e.ir.binary(arith::muli, ahead_count, step);
            let iv = e.ir.binary(arith::addi, iv, steps);
            let next = in_loop.evaluate(e, l, op, iv, &current, |e| {
                let mut k = 0;
                for (i, (c, r)) in copied.iter().zip(&runs).enumerate() {
                    let at = buffer_at(e, c, write);
                    let own = if stepping[i] {
                        let a = &addresses[k..k + r.len()];
                        k += r.len();
                        Some(a)
                    } else {
                        None
                    };
                    copies::issue(e, c, r, target, at, wanted, own, op)?;
                }
                Ok(())
            })?;
            if copies_any {
                async_group(e, "cp.async.commit_group");
            }
            let one = e.i32(1);
            let count = e.ir.binary(arith::addi, count, one);
            let read = rotate(e, read, 1, stages);
            let mut out = vec![count, read];
            out.extend(Ahead::flatten(&next));
            for (&a, &d) in addresses.iter().zip(&deltas) {
                out.push(stepped(e, a, d));
            }
            out.extend(fetched_next);
            Ok(out)
        },
    )?;
    e.in_flight_products = outer_in_flight;
    e.pending = outer_pending;
    e.staging_parity = outer_parity;
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
    Ok(())
}

/// `address + step` (i64) as two 32-bit adds with a carry, which neither
/// LLVM nor `ptxas` looks into. The loop carries one address a run,
/// stepped by its own amount. LLVM's loop strength reduction, seeing
/// equal steps, would rebase every run on one pointer plus an invariant
/// offset each; and `ptxas`, seeing a 64-bit add of a step that is a
/// 32-bit value times the element size, rematerializes it as a wide
/// multiply-add (`IMAD.WIDE`) a run, which stalls the dispatch of the
/// `wgmma` instructions around it. Either costs 5-7% of a 4096^3
/// matmul (measured on an H200: 0.199 against 0.191 ms); the carry chain
/// becomes one `IADD3` and one `IADD3.X` a run, as in Triton's main loops.
fn stepped<'c>(e: &mut Emitter<'_, 'c>, address: Val, step: Val) -> Val {
    let i64 = e.ir.int_type(64);
    let i32 = e.ir.int_type(32);
    let halves = |e: &mut Emitter<'_, 'c>, x: Val| {
        let lo = e.ir.cast(arith::trunci, x, i32);
        let c = e.int(i64, 32);
        let hi = e.ir.binary(arith::shrui, x, c);
        let hi = e.ir.cast(arith::trunci, hi, i32);
        (lo, hi)
    };
    let (al, ah) = halves(e, address);
    let (dl, dh) = halves(e, step);
    let mut asm = PtxAsm::new();
    let lo = asm.output(RegClass::B32, i32);
    let hi = asm.output(RegClass::B32, i32);
    let [al, ah, dl, dh] = [al, ah, dl, dh].map(|v| asm.input(RegClass::B32, v));
    asm.instruction(
        None,
        "add.cc.u32",
        vec![Arg::Reg(lo), Arg::Reg(al), Arg::Reg(dl)],
    );
    asm.instruction(
        None,
        "addc.u32",
        vec![Arg::Reg(hi), Arg::Reg(ah), Arg::Reg(dh)],
    );
    let out = asm.emit(&e.ir, false);
    let lo = e.ir.cast(arith::extui, out[0], i64);
    let hi = e.ir.cast(arith::extui, out[1], i64);
    let c = e.int(i64, 32);
    let hi = e.ir.binary(arith::shli, hi, c);
    e.ir.binary(arith::ori, hi, lo)
}

/// True when `v` is the result of a `tile.dot`.
fn is_dot_result(v: Value) -> bool {
    crate::edit::as_result(v)
        .is_some_and(|r| tile_dialect::view::op_name(&r.owner()) == tile_dialect::ops::DOT)
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
    let view = TileOp::read(load, |v| e.types.tile_type(v.r#type()))
        .map_err(|r| PassError::at(load, r.to_string()))?;
    let (source, d, width) = match view {
        Some(TileOp::BlockLoad(b)) => {
            let d = match e.tile_type(b.ptr, load)? {
                TileType::BlockPtr { dtype, .. } => dtype,
                _ => return Err(PassError::at(load, "expects a block pointer")),
            };
            let (carried, deltas) = block_steps(e, l, load, b.ptr)?;
            let source = Source::Block {
                carried,
                deltas,
                checked: b.boundary_check.clone(),
            };
            (source, d, b.vector_width)
        }
        Some(TileOp::Load(ld)) => {
            let result: Value = load.result(0).expect("a load's result").into();
            let d = e.dtype(result, load)?;
            let source = Source::Pointers {
                ptr: ld.ptr,
                mask: ld.mask,
            };
            (source, d, ld.vector_width)
        }
        _ => {
            return Err(PassError::at(
                load,
                "is marked tile.async_copy but is no load",
            ));
        }
    };
    let result: Value = load.result(0).expect("a load's result").into();
    let dist = e.dist(result, load)?;
    let elem_bytes = i64::from(d.bits()) / 8;
    let width = width.unwrap_or(1) as usize;
    if ![4, 8, 16].contains(&(width as i64 * elem_bytes)) {
        return Err(PassError::at(
            load,
            "is copied ahead but moves fewer than 4 bytes an access",
        ));
    }
    let align = |x: i64| {
        let a = tile_coalesce::shared::SWIZZLE_ALIGN;
        (x + a - 1) / a * a
    };
    let own = copies_into_own_slots(load)?.then(|| OwnSlots {
        threads: i64::from(dist.1.root().0.num_warps()) * 32,
        run_bytes: width as i64 * elem_bytes,
    });
    let (root, axes) = dist.1.root();
    let fastest = root.order()[0];
    let contiguous = axes
        .iter()
        .position(|&x| x == fastest)
        .ok_or_else(|| PassError::at(load, "has a layout without a fastest axis"))?;
    let shape = &dist.0.shape;
    let (tile, bytes) = match &own {
        Some(o) => {
            let runs = (dist.0.registers() / width) as i64;
            (
                SharedTile::new(1, 1, elem_bytes),
                runs * o.threads * o.run_bytes,
            )
        }
        None if shape.len() != 2 => {
            return Err(PassError::at(
                load,
                "copies ahead a tile that is not a matrix",
            ));
        }
        None => {
            let tile = SharedTile::new(shape[1 - contiguous], shape[contiguous], elem_bytes);
            (tile, tile.bytes())
        }
    };
    let stride = align(bytes);
    let ring = align(*next);
    *next = ring + stages * stride;
    Ok(Copied {
        load: *load,
        source,
        dist,
        width,
        elem: block_ptr::memory_type(e, d),
        elem_bytes,
        tile,
        own,
        contiguous,
        ring,
        stride,
    })
}

/// Where a thread's copies of a load go when it alone reads them back.
#[derive(Clone, Copy, Debug)]
pub(super) struct OwnSlots {
    /// Threads of the program.
    threads: i64,
    /// Bytes of one run (one `cp.async`).
    run_bytes: i64,
}

/// True when `load` is copied into each thread's own slots
/// (`tile.async_copy = "thread"`), false for the shared layouts a
/// product reads (the unit attribute).
fn copies_into_own_slots(load: &OperationRef) -> Result<bool, PassError> {
    let a = load
        .attribute(ASYNC_COPY_ATTR)
        .map_err(|_| PassError::at(load, "has no tile.async_copy"))?;
    if melior::ir::attribute::AttributeLike::is_unit(&a) {
        return Ok(false);
    }
    match melior::ir::attribute::StringAttribute::try_from(a) {
        Ok(s) if s.value() == tile_dialect::ops::ASYNC_COPY_OWN => Ok(true),
        _ => Err(PassError::at(
            load,
            format!(
                "has a tile.async_copy that is neither unit nor \"{}\"",
                tile_dialect::ops::ASYNC_COPY_OWN
            ),
        )),
    }
}

/// The carried index of block pointer `ptr` and the offsets the loop
/// advances it by each iteration.
fn block_steps<'c, 'a>(
    e: &mut Emitter<'_, 'c>,
    l: &ForLoop<'c, 'a>,
    load: &OperationRef<'c, 'a>,
    ptr: Value<'c, 'a>,
) -> Result<(usize, Vec<Val>), PassError> {
    let carried = l
        .iter_args
        .iter()
        .position(|&a| a == ptr)
        .ok_or_else(|| PassError::at(load, "is copied ahead but its pointer is not carried"))?;
    let advance = crate::edit::as_result(l.yielded[carried])
        .map(|r| r.owner())
        .ok_or_else(|| PassError::at(load, "is copied ahead but its pointer is not advanced"))?;
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
    Ok((carried, deltas))
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
