//! The copies a pipelined loop issues ahead: where each thread's runs of
//! a load land in a buffer (and, for a block load, where they start in
//! memory), and the `cp.async` of one tile into a ring buffer.

use super::{Copied, Source};
use crate::pass::PassError;
use crate::simt::block_ptr;
use crate::simt::builder::Val;
use crate::simt::dot::{Staged, tile_offset};
use crate::simt::emit::{Emitter, Lowered};
use crate::simt::ptx::{Arg, PtxAsm, RegClass};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::OperationRef;
use tile_coalesce::Distribution;

/// What a thread's copies of one load need every iteration, computed
/// once before the loop (where it stays): each run's byte offset in a
/// buffer and, for a block load, the source address of each run at the
/// first tile, its position along each checked axis there, and the
/// element step from one tile to the next.
pub(super) struct Runs {
    /// One entry a run (`width` registers).
    runs: Vec<Run>,
    /// The checked axes of a block load: their index and extent (i32;
    /// negative extents as 0, those beyond i32 as its largest value).
    checked: Vec<(usize, Val)>,
    /// Elements from one tile to the next (i64; block loads).
    step: Option<Val>,
    /// The shared buffer's address in the shared window (i32).
    shared: Val,
    /// Whether this thread copies (copies of a small tile held twice
    /// leave it to one thread).
    owner: Option<Val>,
}

impl Runs {
    /// The number of runs a thread copies.
    pub(super) fn len(&self) -> usize {
        self.runs.len()
    }
}

struct Run {
    /// The register of the run's first element.
    register: usize,
    /// The address of the run at the first tile (block loads).
    start: Option<Val>,
    /// Its position (i32) along each checked axis at the first tile.
    positions: Vec<Val>,
    /// Its byte offset within a buffer (i32).
    offset: Val,
}

/// Computes [`Runs`] for copying `c`; a block load's runs start at the
/// pointer `ptr` (the loop's first tile).
pub(super) fn prepare<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    ptr: Option<&Lowered>,
) -> Result<Runs, PassError> {
    let dist = &c.dist.0;
    let staged = Staged {
        tile: c.tile,
        at: e.i32(0),
        k_major: false,
    };
    let block = match (&c.source, ptr) {
        (
            Source::Block {
                deltas, checked, ..
            },
            Some(
                p @ Lowered::BlockPtr {
                    shape,
                    strides,
                    offsets,
                    ..
                },
            ),
        ) => Some((deltas, checked, p, shape, strides, offsets)),
        (Source::Block { .. }, _) => {
            return Err(PassError::at(&c.load, "expects a block pointer"));
        }
        (Source::Pointers { .. }, _) => None,
    };
    let i64 = e.ir.int_type(64);
    let zero = e.int(i64, 0);
    let mut step = None;
    let mut checked = Vec::new();
    if let Some((deltas, axes, _, shape, strides, _)) = &block {
        let mut s = zero;
        for (&d, &stride) in deltas.iter().zip(strides.iter()) {
            let d = e.ir.cast(arith::extsi, d, i64);
            let term = e.ir.binary(arith::muli, d, stride);
            s = e.ir.binary(arith::addi, s, term);
        }
        step = Some(s);
        // Positions are i32 (offsets are); extents are compared as i32
        // too, clamped to 0 ..= i32::MAX.
        let i32 = e.ir.int_type(32);
        let max = e.int(i64, i64::from(i32::MAX));
        for (axis, &extent) in shape.iter().enumerate() {
            if axes.contains(&(axis as i64)) {
                let negative = e.ir.cmpi(CmpiPredicate::Slt, extent, zero);
                let extent = e.ir.select(negative, zero, extent);
                let huge = e.ir.cmpi(CmpiPredicate::Sgt, extent, max);
                let extent = e.ir.select(huge, max, extent);
                checked.push((axis, e.ir.cast(arith::trunci, extent, i32)));
            }
        }
    }
    let mut runs: Vec<Run> = Vec::new();
    for r in (0..dist.registers()).step_by(c.width) {
        // A run at the same distance from the first in every thread is
        // addressed from the first's address and position (one address
        // register a load, not one a run); its place in the buffer too
        // when the swizzle moves it by the same bytes in every thread.
        let first = runs.first();
        let delta = first.and(uniform_delta(dist, r));
        let (start, positions) = match &block {
            None => (None, Vec::new()),
            Some((_, _, p, _, strides, offsets)) => {
                let start = match delta.as_ref() {
                    Some(d) => {
                        let first = first.expect("a first run");
                        let from = first.start.expect("a block load's run starts");
                        let mut offset: Option<Val> = None;
                        for (&k, &stride) in d.iter().zip(strides.iter()) {
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
                            Some(o) => e.ir.gep(from, o, c.elem),
                            None => from,
                        }
                    }
                    None => {
                        block_ptr::element(e, p, dist, r, &[], c.elem)
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
                (Some(start), positions)
            }
        };
        let own_offset = c.own.map(|o| {
            // Run k of thread t: (k * threads + t) * run bytes.
            let k = (r / c.width) as i64;
            let (tid, _, _) = e.thread();
            let bytes = e.i32(o.run_bytes);
            let base = e.ir.binary(arith::muli, tid, bytes);
            let at = e.i32(k * o.threads * o.run_bytes);
            e.ir.binary(arith::addi, base, at)
        });
        let offset = match own_offset {
            Some(o) => o,
            None => swizzled_offset(e, c, &staged, first, dist, r),
        };
        runs.push(Run {
            register: r,
            start,
            positions,
            offset,
        });
    }
    let i32 = e.ir.int_type(32);
    let shared = e.shared_buffer();
    let shared = e.ir.generic("llvm.ptrtoint", &[shared], &[i32], &[])[0];
    // In slots of its own every thread copies what it holds.
    let owner = match c.own {
        Some(_) => None,
        None => e.owner(dist, &c.dist.1),
    };
    Ok(Runs {
        runs,
        checked,
        step,
        shared,
        owner,
    })
}

/// The byte offset of register `r`'s run in a buffer of `c` laid out as a
/// product reads it (`first`: the thread's first run, whose offset later
/// runs reuse when the swizzle moves them by the same bytes in every
/// thread).
fn swizzled_offset<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    staged: &Staged,
    first: Option<&Run>,
    dist: &Distribution,
    r: usize,
) -> Val {
    match (first, uniform_buffer_delta(c, dist, r)) {
        (Some(f), Some(0)) => f.offset,
        (Some(f), Some(k)) => {
            let k = e.i32(k);
            e.ir.binary(arith::addi, f.offset, k)
        }
        _ => {
            let row = e.index(dist, r, 1 - c.contiguous);
            let col = e.index(dist, r, c.contiguous);
            tile_offset(e, staged, row, col)
        }
    }
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

/// The registers of a load copied into the thread's own slots (`c.own`),
/// read back from the buffer at byte offset `at`: one vector load a run,
/// its elements in register order.
pub(super) fn read_own<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    runs: &Runs,
    at: Val,
) -> Vec<Val> {
    let base = e.shared_buffer();
    let i8 = e.ir.int_type(8);
    let bytes = (c.width as i64 * c.elem_bytes) as u64;
    let vector = e.ir.vector_type(c.width as u64, c.elem);
    let mut out = Vec::with_capacity(runs.runs.len() * c.width);
    for run in &runs.runs {
        let offset = e.ir.binary(arith::addi, at, run.offset);
        let ptr = e.ir.gep(base, offset, i8);
        let v = e.ir.load(ptr, vector, bytes);
        for i in 0..c.width {
            let k = e.i32(i as i64);
            out.push(e.ir.extract_element(v, k, c.elem));
        }
    }
    out
}

/// Copies tile number `tile` (i32, counted from the loop's first) of `c`
/// into the buffer at byte offset `at`: one `cp.async` a run, reading
/// nothing and filling zeros for runs out of bounds (a block load's
/// checked axes) or masked off (a load's mask, uniform over each run),
/// or for all of them when `wanted` is false. A block load's run is at
/// its first tile's address plus `tile` steps, and only the moved axes'
/// positions are compared again; a load through pointers reads its
/// pointers and mask as the loop's address slice left them for that
/// tile.
///
/// With `addresses` (one a run, as 64-bit integers: the loop steps them
/// itself, see [`super::stepped`]) the runs read there instead.
#[allow(clippy::too_many_arguments)]
pub(super) fn issue<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    runs: &Runs,
    tile: Val,
    at: Val,
    wanted: Val,
    addresses: Option<&[Val]>,
    op: &OperationRef<'c, '_>,
) -> Result<(), PassError> {
    let bytes = c.width as i64 * c.elem_bytes;
    let i1 = e.ir.int_type(1);
    let yes = e.int(i1, 1);
    let buffer = e.ir.binary(arith::addi, runs.shared, at);
    let opcode = if bytes == 16 {
        "cp.async.cg.shared.global"
    } else {
        "cp.async.ca.shared.global"
    };
    // Each run's source address and whether it copies.
    let mut sources = Vec::with_capacity(runs.runs.len());
    match &c.source {
        Source::Block { deltas, .. } => {
            let i64 = e.ir.int_type(64);
            let step = runs.step.expect("a block load's step");
            let tile64 = e.ir.cast(arith::extsi, tile, i64);
            let elements = e.ir.binary(arith::muli, tile64, step);
            let moved: Vec<Val> = runs
                .checked
                .iter()
                .map(|&(axis, _)| e.ir.binary(arith::muli, tile, deltas[axis]))
                .collect();
            for (i, run) in runs.runs.iter().enumerate() {
                let src = match addresses {
                    Some(a) => a[i],
                    None => {
                        let start = run.start.expect("a block load's run starts");
                        e.ir.gep(start, elements, c.elem)
                    }
                };
                let mut valid = wanted;
                for ((&pos, &(_, extent)), &m) in
                    run.positions.iter().zip(&runs.checked).zip(&moved)
                {
                    let pos = e.ir.binary(arith::addi, pos, m);
                    // Below the (non-negative) extent, and not negative.
                    let inside = e.ir.cmpi(CmpiPredicate::Ult, pos, extent);
                    valid = e.ir.binary(arith::andi, valid, inside);
                }
                sources.push((src, valid));
            }
        }
        Source::Pointers { ptr, mask } => {
            for (i, run) in runs.runs.iter().enumerate() {
                let src = match addresses {
                    Some(a) => a[i],
                    None => e.reg(*ptr, run.register, op)?,
                };
                let valid = match mask {
                    Some(m) => {
                        let m = e.reg(*m, run.register, op)?;
                        e.ir.binary(arith::andi, wanted, m)
                    }
                    None => wanted,
                };
                sources.push((src, valid));
            }
        }
    }
    for (run, (src, valid)) in runs.runs.iter().zip(sources) {
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
    Ok(())
}

/// Each run's address at tile number `tile` (i32) of a block load, or at
/// the iteration the loop's address slice was evaluated for (a load
/// through pointers), as 64-bit integers; and for a block load the bytes
/// from one tile to the next (the same for every run).
pub(super) fn run_addresses<'c>(
    e: &mut Emitter<'_, 'c>,
    c: &Copied<'c, '_>,
    runs: &Runs,
    tile: Val,
    op: &OperationRef<'c, '_>,
) -> Result<(Vec<Val>, Option<Val>), PassError> {
    let i64 = e.ir.int_type(64);
    let mut out = Vec::with_capacity(runs.runs.len());
    match &c.source {
        Source::Block { .. } => {
            let step = runs.step.expect("a block load's step");
            let tile64 = e.ir.cast(arith::extsi, tile, i64);
            let elements = e.ir.binary(arith::muli, tile64, step);
            for run in &runs.runs {
                let start = run.start.expect("a block load's run starts");
                let src = e.ir.gep(start, elements, c.elem);
                out.push(e.ir.generic("llvm.ptrtoint", &[src], &[i64], &[])[0]);
            }
            let bytes = e.int(i64, c.elem_bytes);
            Ok((out, Some(e.ir.binary(arith::muli, step, bytes))))
        }
        Source::Pointers { ptr, .. } => {
            for run in &runs.runs {
                let src = e.reg(*ptr, run.register, op)?;
                out.push(e.ir.generic("llvm.ptrtoint", &[src], &[i64], &[])[0]);
            }
            Ok((out, None))
        }
    }
}
