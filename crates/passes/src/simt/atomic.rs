//! `tile.atomic_rmw` and `tile.atomic_cas` in per-thread code: one PTX
//! `atom` per element, `atom.<sem>.<scope>.global.<op>.<type>`.
//!
//! Only the owner of each element (one thread of those holding it; thread
//! 0 for a scalar pointer) and only lanes whose mask is on perform the
//! atomic; the others read zero, and where threads hold copies the owners'
//! old values are handed to the copies through shared memory (when
//! anything reads them), so every thread sees the value its element's
//! atomic found. Float max and min use
//! integer atomics on the bits: `max.s` where the operand's sign bit is
//! clear and `min.u` where it is set (mirrored for min), which orders
//! floats as `f64::total_cmp` does.
//!
//! A release (or acq_rel) atomic on a scalar pointer is the program's:
//! thread 0 performs it for all, after a barrier, so that every thread's
//! earlier writes are ordered before it (the barrier orders them within
//! the block, and the release is cumulative). That is what a lock's
//! release needs (`atomic_xchg(lock, 0)` after the writes it guards). The
//! acquire side needs nothing more: thread 0's old value reaches the other
//! threads through shared memory after a barrier, which orders their later
//! reads after the acquire. On a tensor of pointers each element's atomic
//! orders its own thread's accesses, as in Triton.
//!
//! An ordered atomic on a tensor of pointers whose old values nothing reads
//! (a split-K sum, a histogram) is a batch: `fence.acq_rel` before its
//! elements (for release or acq_rel), each element a `red.relaxed` (no
//! old value), `fence.acq_rel` after them (for acquire or acq_rel). PTX's
//! memory model makes a fence followed by a relaxed write a release
//! pattern, and a relaxed read followed by a fence an acquire pattern, so
//! every element keeps its ordering against the thread's other accesses;
//! what goes is the order among the elements one thread happens to hold,
//! which the tile op never gave (which thread holds which element is the
//! layout's choice). One fence pair a thread instead of one ordered
//! round trip an element: a split-K epilogue's 32 `atom.acq_rel.v4` a
//! thread waited for each other.

use super::builder::Val;
use super::emit::{Emitter, Lowered};
use super::memory::{and, pointee, writer};
use super::ptx::{Arg, PtxAsm, RegClass};
use crate::pass::{PassError, PassResult};
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};
use tile_dialect::view::{AtomicCas, AtomicRmw};
use tile_dialect::{AtomicKind, DType, MemScope, MemSem};

/// `atom.<sem>.<scope>.global`.
fn prefix(sem: MemSem, scope: MemScope) -> String {
    format!("atom.{}.{}.global", sem.name(), scope.name())
}

/// The register class and the PTX type of `d`'s bits.
fn bits_class(d: DType) -> (RegClass, &'static str, u32) {
    match d.bits() {
        16 => (RegClass::B16, "b16", 16),
        64 => (RegClass::B64, "b64", 64),
        _ => (RegClass::B32, "b32", 32),
    }
}

/// `v` (an element of `d`) as an integer of its width.
fn to_int(e: &mut Emitter, v: Val, d: DType) -> Val {
    if d.is_float() {
        let ty = e.ir.int_type(d.bits());
        e.ir.cast(arith::bitcast, v, ty)
    } else {
        v
    }
}

/// An integer of `d`'s width as an element of `d`.
fn from_int(e: &mut Emitter, v: Val, d: DType) -> Val {
    if d.is_float() {
        let ty = e.reg_type(d);
        e.ir.cast(arith::bitcast, v, ty)
    } else {
        v
    }
}

/// What each lane does: `[@guard] <opcode> old, [addr], operands...`, one
/// or two guarded instructions writing the same register (`red`, with no
/// old value, when `batch`).
struct Atom<'s> {
    /// `(opcode, extra guard)`: the extra guard is ANDed with the lane's.
    instructions: Vec<(String, Option<Val>)>,
    operands: &'s [Val],
    batch: bool,
}

/// Emits one lane's atomic; returns the old bits (zero where no guard
/// held, and always for a batch's `red`).
fn emit_atom(e: &mut Emitter, d: DType, ptr: Val, atom: Atom, guard: Option<Val>) -> Val {
    let (class, _, bits) = bits_class(d);
    let int = e.ir.int_type(bits);
    let zero = e.int(int, 0);
    let guards: Vec<Option<Val>> = atom
        .instructions
        .iter()
        .map(|(_, extra)| and(e, guard, *extra))
        .collect();
    let mut asm = PtxAsm::new();
    let out = (!atom.batch).then(|| {
        let out = asm.output(class, int);
        asm.tied(out, zero);
        out
    });
    let addr = asm.input(RegClass::B64, ptr);
    let ins: Vec<_> = atom
        .operands
        .iter()
        .map(|&v| Arg::Reg(asm.input(class, v)))
        .collect();
    for ((opcode, _), g) in atom.instructions.iter().zip(guards) {
        let g = g.map(|p| asm.input(RegClass::Pred, p));
        let mut args: Vec<Arg> = out.map(Arg::Reg).into_iter().collect();
        args.push(Arg::Address(addr));
        args.extend(ins.iter().cloned());
        asm.instruction(g, opcode, args);
    }
    match out {
        Some(_) => asm.emit(&e.ir, true)[0],
        None => {
            asm.emit(&e.ir, true);
            zero
        }
    }
}

/// True when the atomic `a` (whose pointers `lanes` describes) is lowered
/// as a batch: ordered, on a tensor of pointers, its old values unread,
/// and an operation `red` has (see the module's documentation).
fn is_batch<'c>(op: &OperationRef<'c, '_>, a: &AtomicRmw<'c, '_>, lanes: &Lanes) -> bool {
    let result: Value = op.result(0).expect("an atomic's result").into();
    lanes.registers.is_some()
        && a.sem != MemSem::Relaxed
        && a.kind != AtomicKind::Xchg
        && !crate::edit::has_uses(result)
}

/// `fence.acq_rel.<scope>` before a batch whose ordering releases (`after`
/// false) or after one whose ordering acquires (`after` true).
fn batch_fence(e: &mut Emitter, sem: MemSem, scope: MemScope, after: bool) {
    let wanted = if after {
        matches!(sem, MemSem::Acquire | MemSem::AcqRel)
    } else {
        matches!(sem, MemSem::Release | MemSem::AcqRel)
    };
    if wanted {
        let mut asm = PtxAsm::new();
        asm.instruction(None, &format!("fence.acq_rel.{}", scope.name()), vec![]);
        asm.emit(&e.ir, true);
    }
}

/// The guard of the lanes that perform an atomic on register `r` (owner
/// and mask), and how the results reach the other copies.
struct Lanes {
    registers: Option<usize>,
    owner: Option<Val>,
}

fn lanes<'c>(
    e: &mut Emitter<'_, 'c>,
    ptr: Value<'c, '_>,
    op: &OperationRef<'c, '_>,
) -> Result<Lanes, PassError> {
    let registers = e.registers(ptr, op)?;
    let owner = writer(e, ptr, op)?;
    Ok(Lanes { registers, owner })
}

/// The barrier before a scalar release: see the module's documentation.
fn publish_writes(e: &mut Emitter, lanes: &Lanes, sem: MemSem) {
    if lanes.registers.is_none() && matches!(sem, MemSem::Release | MemSem::AcqRel) {
        e.ir.barrier();
    }
}

/// Sets the op's result from the owners' old bits.
fn finish<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    ptr: Value<'c, '_>,
    d: DType,
    lanes: &Lanes,
    olds: Vec<Val>,
) -> PassResult {
    let result: Value = op.result(0).expect("an atomic's result").into();
    let olds: Vec<Val> = olds.into_iter().map(|v| from_int(e, v, d)).collect();
    if !crate::edit::has_uses(result) {
        // No barrier for old values nothing reads.
        e.set(
            result,
            match lanes.registers {
                None => Lowered::Scalar(olds[0]),
                Some(_) => Lowered::Regs(olds),
            },
        );
        return Ok(());
    }
    match lanes.registers {
        None => {
            // Thread 0's value, for every thread.
            let shared = super::share::thread0_value(e, olds[0], d);
            e.set(result, Lowered::Scalar(shared));
        }
        Some(_) => {
            let values = if lanes.owner.is_some() {
                let dist = e.dist(ptr, op)?;
                super::share::owners_values(e, &dist.0, &dist.1, &olds, d)
            } else {
                olds
            };
            e.set(result, Lowered::Regs(values));
        }
    }
    Ok(())
}

/// Lowers `tile.atomic_rmw`.
pub fn rmw<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AtomicRmw<'c, '_>,
) -> PassResult {
    let d = pointee(e, a.ptr, op)?;
    let lanes = lanes(e, a.ptr, op)?;
    publish_writes(e, &lanes, a.sem);
    let batch = is_batch(op, a, &lanes);
    if batch {
        batch_fence(e, a.sem, a.scope, false);
    }
    let width = vector_width(e, op, a, d, &lanes)?;
    let lowered = if width > 1 {
        add_f32_vectors(e, op, a, &lanes, width, batch)
    } else {
        elements(e, op, a, d, &lanes, batch)
    };
    if batch {
        batch_fence(e, a.sem, a.scope, true);
    }
    lowered
}

/// One atomic an element (see [`rmw`]).
fn elements<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AtomicRmw<'c, '_>,
    d: DType,
    lanes: &Lanes,
    batch: bool,
) -> PassResult {
    let base = if batch {
        format!("red.relaxed.{}.global", a.scope.name())
    } else {
        prefix(a.sem, a.scope)
    };
    let mut olds = Vec::new();
    for r in 0..lanes.registers.unwrap_or(1) {
        let ptr = e.reg(a.ptr, r, op)?;
        let val = e.reg(a.val, r, op)?;
        let mask = a.mask.map(|m| e.reg(m, r, op)).transpose()?;
        let guard = and(e, mask, lanes.owner);
        let bits = to_int(e, val, d);
        let operands = [bits];
        let (_, b, _) = bits_class(d);
        let one = |opcode: String| vec![(opcode, None)];
        let instructions = match (a.kind, d) {
            (AtomicKind::Add, DType::I32) => one(format!("{base}.add.s32")),
            (AtomicKind::Add, DType::I64) => one(format!("{base}.add.u64")),
            (AtomicKind::Add, DType::F32) => one(format!("{base}.add.f32")),
            (AtomicKind::Add, DType::F64) => one(format!("{base}.add.f64")),
            (AtomicKind::Add, DType::F16) => one(format!("{base}.add.noftz.f16")),
            (AtomicKind::Add, DType::BF16) => one(format!("{base}.add.noftz.bf16")),
            (AtomicKind::Max | AtomicKind::Min, DType::I32 | DType::I64) => {
                one(format!("{base}.{}.s{}", a.kind.name(), d.bits()))
            }
            (AtomicKind::Max | AtomicKind::Min, DType::F32 | DType::F64) => {
                // Sign bit clear: signed order; set: reversed unsigned order.
                let zero = e.int(bits.ty(), 0);
                let clear = e.ir.cmpi(CmpiPredicate::Sge, bits, zero);
                let i1 = e.ir.int_type(1);
                let t = e.int(i1, 1);
                let set = e.ir.binary(arith::xori, clear, t);
                let (pos, neg) = if a.kind == AtomicKind::Max {
                    ("max.s", "min.u")
                } else {
                    ("min.s", "max.u")
                };
                let n = d.bits();
                vec![
                    (format!("{base}.{pos}{n}"), Some(clear)),
                    (format!("{base}.{neg}{n}"), Some(set)),
                ]
            }
            (AtomicKind::And | AtomicKind::Or | AtomicKind::Xor, DType::I32 | DType::I64) => {
                one(format!("{base}.{}.{b}", a.kind.name()))
            }
            (AtomicKind::Xchg, DType::I32 | DType::I64 | DType::F32 | DType::F64) => {
                one(format!("{base}.exch.{b}"))
            }
            (kind, d) => {
                return Err(PassError::at(
                    op,
                    format!("cannot lower an atomic {kind} on {d}"),
                ));
            }
        };
        let atom = Atom {
            instructions,
            operands: &operands,
            batch,
        };
        olds.push(emit_atom(e, d, ptr, atom, guard));
    }
    finish(e, op, a.ptr, d, lanes, olds)
}

/// The elements one atomic moves: `tile-vectorize`'s width for an f32 add
/// through a tensor of pointers where the target has the vector form
/// (sm_90, PTX 8.1: `atom.add.v2.f32`, `atom.add.v4.f32`), checked
/// against the layout as a load's is; else 1.
fn vector_width<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AtomicRmw<'c, '_>,
    d: DType,
    lanes: &Lanes,
) -> Result<usize, PassError> {
    if !e.vector_atomics
        || a.kind != AtomicKind::Add
        || d != DType::F32
        || lanes.registers.is_none()
    {
        return Ok(1);
    }
    let asked = tile_dialect::view::attr::int_opt(op, tile_dialect::ops::VECTOR_WIDTH_ATTR)
        .map_err(|r| PassError::at(op, r.to_string()))?;
    super::memory::vector_width(e, op, asked, a.ptr, d)
}

/// An f32 atomic add of `width` consecutive elements per instruction:
/// `[@guard] atom.<sem>.<scope>.global.add.v<width>.f32 {old..}, [addr],
/// {val..}` (a batch's: `red.relaxed.<scope>.global.add.v<width>.f32
/// [addr], {val..}`). The mask is the same across each run
/// (`tile-vectorize` checked it), so the first element's guards the run.
fn add_f32_vectors<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AtomicRmw<'c, '_>,
    lanes: &Lanes,
    width: usize,
    batch: bool,
) -> PassResult {
    let opcode = if batch {
        format!("red.relaxed.{}.global.add.v{width}.f32", a.scope.name())
    } else {
        format!("{}.add.v{width}.f32", prefix(a.sem, a.scope))
    };
    let n = lanes.registers.unwrap_or(1);
    let i32 = e.ir.int_type(32);
    let zero = e.int(i32, 0);
    let mut olds = Vec::with_capacity(n);
    for r in (0..n).step_by(width) {
        let ptr = e.reg(a.ptr, r, op)?;
        let mask = a.mask.map(|m| e.reg(m, r, op)).transpose()?;
        let guard = and(e, mask, lanes.owner);
        let mut bits = Vec::with_capacity(width);
        for i in r..r + width {
            let v = e.reg(a.val, i, op)?;
            bits.push(to_int(e, v, DType::F32));
        }
        let mut asm = PtxAsm::new();
        let outs: Vec<_> = (0..if batch { 0 } else { width })
            .map(|_| {
                let out = asm.output(RegClass::B32, i32);
                asm.tied(out, zero);
                out
            })
            .collect();
        let addr = asm.input(RegClass::B64, ptr);
        let ins: Vec<_> = bits
            .into_iter()
            .map(|b| asm.input(RegClass::B32, b))
            .collect();
        let g = guard.map(|p| asm.input(RegClass::Pred, p));
        let mut args = Vec::with_capacity(3);
        if !batch {
            args.push(Arg::Vector(outs));
        }
        args.extend([Arg::Address(addr), Arg::Vector(ins)]);
        asm.instruction(g, &opcode, args);
        let emitted = asm.emit(&e.ir, true);
        if batch {
            olds.extend(std::iter::repeat_n(zero, width));
        } else {
            olds.extend(emitted);
        }
    }
    finish(e, op, a.ptr, DType::F32, lanes, olds)
}

/// Lowers `tile.atomic_cas`.
pub fn cas<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: &AtomicCas<'c, '_>,
) -> PassResult {
    let d = pointee(e, a.ptr, op)?;
    if !matches!(d.bits(), 32 | 64) {
        return Err(PassError::at(
            op,
            format!("cannot lower a compare-and-swap on {d}"),
        ));
    }
    let lanes = lanes(e, a.ptr, op)?;
    publish_writes(e, &lanes, a.sem);
    let (_, b, _) = bits_class(d);
    let opcode = format!("{}.cas.{b}", prefix(a.sem, a.scope));
    let mut olds = Vec::new();
    for r in 0..lanes.registers.unwrap_or(1) {
        let ptr = e.reg(a.ptr, r, op)?;
        let cmp = e.reg(a.cmp, r, op)?;
        let val = e.reg(a.val, r, op)?;
        let operands = [to_int(e, cmp, d), to_int(e, val, d)];
        let atom = Atom {
            instructions: vec![(opcode.clone(), None)],
            operands: &operands,
            batch: false,
        };
        olds.push(emit_atom(e, d, ptr, atom, lanes.owner));
    }
    finish(e, op, a.ptr, d, &lanes, olds)
}
