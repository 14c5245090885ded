//! One thread's step: reads operands, runs one instruction (memory
//! accesses bounds-checked, shared ones race-checked), writes results.
//! Collective instructions (`bar.sync`, `shfl.sync`) are not run here:
//! the thread stops at them and the CTA's scheduler runs them for all.

use super::alu;
use super::async_copy::{self, AsyncCopies};
use super::shared::{Access, Shared};
use super::wgmma::{self, WgmmaState};
use crate::ast::{Entry, Instr, Operand, Special};
use crate::decode::{Atomic, Kind, Op, Space, Ty};
use crate::error::{At, ExecError};
use crate::value::{from_f64, int, mask, sext, to_f64};
use std::collections::HashMap;
use tile_runtime::HostMemory;

/// Generic addresses of shared memory start here (`cvta.shared`); below
/// the interpreter's host allocations (`0x7f00_0000_0000`).
pub const SHARED_WINDOW: u64 = 0x1000_0000_0000;

/// What a CTA's threads share.
pub struct Ctx<'a> {
    /// The kernel.
    pub entry: &'a Entry,
    /// The parameter buffer.
    pub params: &'a [u8],
    /// Symbols: shared variables and parameters, to their space and
    /// address.
    pub symbols: &'a HashMap<String, (Space, u64)>,
    /// The CTA's shared memory.
    pub shared: Shared,
    /// `%ctaid`.
    pub cta: [u32; 3],
    /// `%nctaid`.
    pub grid: [u32; 3],
    /// `%ntid`.
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dynamic_smem: u64,
}

/// Where a thread stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Runs.
    Ready,
    /// Waits at the collective instruction at its `pc`.
    Waiting,
    /// Has exited.
    Exited,
}

/// One thread.
pub struct Thread {
    /// `%tid`.
    pub tid: [u32; 3],
    /// Linear id in the CTA.
    pub linear: u32,
    /// The next instruction.
    pub pc: usize,
    /// Registers by number.
    pub regs: Vec<u64>,
    /// Where it stands.
    pub state: State,
    /// The carry flag (`CC.CF`) of `add.cc`/`addc`.
    pub carry: bool,
    /// Its `cp.async` copies in flight.
    pub copies: AsyncCopies,
    /// Its `wgmma.mma_async` products in flight.
    pub wgmma: WgmmaState,
}

/// What a step did.
pub enum Flow {
    /// Went on.
    Next,
    /// Reached a collective instruction (not run).
    Collective,
    /// Exited.
    Exit,
}

impl Ctx<'_> {
    /// Where `t` is, for errors.
    pub fn at(&self, t: &Thread, i: &Instr) -> At {
        At {
            line: i.line,
            opcode: i.opcode.clone(),
            thread: t.tid,
            cta: self.cta,
        }
    }

    /// The value of a (non-address) operand.
    pub fn read(&self, t: &Thread, o: &Operand) -> Result<u64, String> {
        Ok(match o {
            Operand::Reg(r) => t.regs[*r as usize],
            Operand::Imm(v) => *v,
            Operand::FImm { bits, .. } => *bits,
            Operand::Special(s) => u64::from(match s {
                Special::Tid(a) => t.tid[*a as usize],
                Special::Ntid(a) => self.block[*a as usize],
                Special::Ctaid(a) => self.cta[*a as usize],
                Special::Nctaid(a) => self.grid[*a as usize],
                Special::LaneId => t.linear % 32,
                Special::WarpId => t.linear / 32,
                Special::DynamicSmemSize => self.dynamic_smem as u32,
            }),
            Operand::Symbol(name) => match self.symbols.get(name) {
                Some((_, addr)) => *addr,
                None => return Err(format!("unknown symbol `{name}`")),
            },
            Operand::Vector(_) | Operand::Addr { .. } | Operand::Sink => {
                return Err(format!("operand {o:?} is not a value"));
            }
        })
    }

    /// The address an `[...]` operand names.
    fn address(&self, t: &Thread, o: &Operand) -> Result<u64, String> {
        match o {
            Operand::Addr { base, offset } => Ok(self.read(t, base)?.wrapping_add(*offset as u64)),
            _ => Err(format!("operand {o:?} is not an address")),
        }
    }
}

impl Ctx<'_> {
    /// Writes `v` to the register `o`, keeping the low bits its declared
    /// width holds (a `.b16` register written by a 32-bit result keeps 16).
    pub fn write(&self, t: &mut Thread, o: &Operand, v: u64) -> Result<(), String> {
        write(self.entry, t, o, v)
    }
}

fn write(entry: &Entry, t: &mut Thread, o: &Operand, v: u64) -> Result<(), String> {
    match o {
        Operand::Reg(r) => {
            let bits = entry.register_bits.get(*r as usize).copied().unwrap_or(64);
            t.regs[*r as usize] = mask(v, bits);
            t.wgmma.written(*r);
            Ok(())
        }
        Operand::Sink => Ok(()),
        _ => Err(format!("cannot write to {o:?}")),
    }
}

/// The operands of a vector (or the operand itself).
fn elements(o: &Operand) -> &[Operand] {
    match o {
        Operand::Vector(v) => v,
        other => std::slice::from_ref(other),
    }
}

/// Runs the instruction at `t.pc`.
pub fn step(ctx: &mut Ctx, t: &mut Thread, global: &mut HostMemory) -> Result<Flow, ExecError> {
    let entry = ctx.entry;
    let Some(i) = entry.body.get(t.pc) else {
        return Ok(Flow::Exit);
    };
    if !t.wgmma.idle() && !matches!(i.op, Op::Wgmma(_) | Op::WgmmaSync(_)) {
        wgmma::check_access(ctx, t, i)?;
    }
    if let Some((p, neg)) = i.guard
        && ((t.regs[p as usize] & 1 == 1) == neg)
    {
        t.pc += 1;
        return Ok(Flow::Next);
    }
    match i.op {
        Op::Barrier | Op::Shfl(_) | Op::Mma(_) | Op::Ldmatrix { .. } | Op::Wgmma(_) => {
            return Ok(Flow::Collective);
        }
        Op::Exit => return Ok(Flow::Exit),
        Op::Bra => {
            let target = match i.operands.first() {
                Some(Operand::Symbol(l)) => entry.labels.get(l).copied(),
                _ => None,
            };
            t.pc = target.ok_or_else(|| ExecError::Invalid {
                at: ctx.at(t, i),
                message: "branch to an unknown label".into(),
            })?;
            return Ok(Flow::Next);
        }
        _ => {}
    }
    run(ctx, t, i, global)?;
    t.pc += 1;
    Ok(Flow::Next)
}

fn run(ctx: &mut Ctx, t: &mut Thread, i: &Instr, global: &mut HostMemory) -> Result<(), ExecError> {
    let invalid = |ctx: &Ctx, t: &Thread, message: String| ExecError::Invalid {
        at: ctx.at(t, i),
        message,
    };
    let o = &i.operands;
    let arg = |ctx: &Ctx, t: &Thread, n: usize| -> Result<u64, ExecError> {
        let op = o
            .get(n)
            .ok_or_else(|| invalid(ctx, t, format!("operand {n} missing")))?;
        ctx.read(t, op).map_err(|m| invalid(ctx, t, m))
    };
    match i.op {
        Op::CpAsyncCommit => {
            async_copy::commit(t);
            return Ok(());
        }
        Op::CpAsyncWait { all } => {
            let n = if all { 0 } else { arg(ctx, t, 0)? };
            return async_copy::wait(ctx, t, n, all);
        }
        Op::WgmmaSync(s) => return wgmma::sync(ctx, t, s, i),
        Op::Fence => return Ok(()),
        _ => {}
    }
    let dst = o
        .first()
        .ok_or_else(|| invalid(ctx, t, "no operands".into()))?;
    let result: u64 = match i.op {
        Op::Mov(ty) => {
            match super::mov::mov(ctx, t, ty, dst, o.get(1)).map_err(|m| invalid(ctx, t, m))? {
                Some(v) => v,
                None => return Ok(()),
            }
        }
        Op::Ld { space, ty, vec } => {
            let addr = ctx
                .address(t, o.get(1).unwrap_or(&Operand::Sink))
                .map_err(|m| invalid(ctx, t, m))?;
            let parts = elements(dst);
            let mut bytes = [0u8; 32];
            let size = ty.bytes() as usize;
            let n = size * vec as usize;
            access(
                ctx,
                t,
                i,
                global,
                space,
                addr,
                &mut bytes[..n],
                false,
                false,
            )?;
            for (k, p) in parts.iter().enumerate() {
                let mut b = [0u8; 8];
                b[..size].copy_from_slice(&bytes[k * size..(k + 1) * size]);
                let raw = u64::from_le_bytes(b);
                let v = if ty.kind == Kind::Signed {
                    sext(raw, ty.bits) as u64
                } else {
                    raw
                };
                ctx.write(t, p, v).map_err(|m| invalid(ctx, t, m))?;
            }
            return Ok(());
        }
        Op::St { space, ty, vec } => {
            let addr = ctx.address(t, dst).map_err(|m| invalid(ctx, t, m))?;
            let parts = elements(o.get(1).unwrap_or(&Operand::Sink));
            let size = ty.bytes() as usize;
            let n = size * vec as usize;
            let mut bytes = [0u8; 32];
            for (k, p) in parts.iter().enumerate() {
                let v = ctx.read(t, p).map_err(|m| invalid(ctx, t, m))?;
                bytes[k * size..(k + 1) * size].copy_from_slice(&v.to_le_bytes()[..size]);
            }
            access(ctx, t, i, global, space, addr, &mut bytes[..n], true, false)?;
            return Ok(());
        }
        Op::Binary {
            op,
            ty,
            ftz,
            nan,
            packed,
        } => {
            let (a, b) = (arg(ctx, t, 1)?, arg(ctx, t, 2)?);
            if packed {
                // Each 16-bit half on its own, the low one in the low bits.
                let half = |v: u64, i: u32| (v >> (16 * i)) & 0xffff;
                let mut out = 0;
                for i in 0..2 {
                    let r = alu::binary(op, ty, ftz, nan, half(a, i), half(b, i))
                        .map_err(|m| invalid(ctx, t, m))?;
                    out |= (r & 0xffff) << (16 * i);
                }
                out
            } else {
                alu::binary(op, ty, ftz, nan, a, b).map_err(|m| invalid(ctx, t, m))?
            }
        }
        Op::Mad { ty, hi, wide } => alu::mad(
            ty,
            hi,
            wide,
            arg(ctx, t, 1)?,
            arg(ctx, t, 2)?,
            arg(ctx, t, 3)?,
        ),
        Op::Fma(ty) => alu::fma(ty, arg(ctx, t, 1)?, arg(ctx, t, 2)?, arg(ctx, t, 3)?)
            .map_err(|m| invalid(ctx, t, m))?,
        Op::Unary { op, ty, ftz } => {
            alu::unary(op, ty, ftz, arg(ctx, t, 1)?).map_err(|m| invalid(ctx, t, m))?
        }
        Op::Setp {
            cmp,
            ty,
            combine,
            packed: true,
        } => {
            // `setp.f16x2 p|q, a, b[, c]`: p compares the low halves, q the
            // high ones.
            if o.len() != 4 + usize::from(combine.is_some()) {
                return Err(invalid(
                    ctx,
                    t,
                    "a packed setp writes two predicates".into(),
                ));
            }
            let (a, b) = (arg(ctx, t, 2)?, arg(ctx, t, 3)?);
            let c = combine.is_some() && arg(ctx, t, 4)? & 1 == 1;
            let half = |v: u64, i: u32| (v >> (16 * i)) & 0xffff;
            let high = alu::compare(cmp, ty, half(a, 1), half(b, 1));
            let q = u64::from(alu::combine(combine, high, c));
            ctx.write(t, &o[1], q).map_err(|m| invalid(ctx, t, m))?;
            u64::from(alu::combine(
                combine,
                alu::compare(cmp, ty, half(a, 0), half(b, 0)),
                c,
            ))
        }
        Op::Setp {
            cmp, ty, combine, ..
        } => {
            // `setp p|q, a, b[, c]`: q gets the negated comparison.
            let two = o.len() == 4 + usize::from(combine.is_some());
            let first = if two { 2 } else { 1 };
            let r = alu::compare(cmp, ty, arg(ctx, t, first)?, arg(ctx, t, first + 1)?);
            let c = combine.is_some() && arg(ctx, t, first + 2)? & 1 == 1;
            if two {
                let q = u64::from(alu::combine(combine, !r, c));
                ctx.write(t, &o[1], q).map_err(|m| invalid(ctx, t, m))?;
            }
            u64::from(alu::combine(combine, r, c))
        }
        Op::Selp(ty) => {
            let c = arg(ctx, t, 3)? & 1 == 1;
            mask(if c { arg(ctx, t, 1)? } else { arg(ctx, t, 2)? }, ty.bits)
        }
        Op::Bfe(ty) => alu::bfe(ty, arg(ctx, t, 1)?, arg(ctx, t, 2)?, arg(ctx, t, 3)?),
        Op::Prmt => alu::prmt(arg(ctx, t, 1)?, arg(ctx, t, 2)?, arg(ctx, t, 3)?),
        Op::Bfi(ty) => alu::bfi(
            ty,
            [arg(ctx, t, 1)?, arg(ctx, t, 2)?],
            arg(ctx, t, 3)?,
            arg(ctx, t, 4)?,
        ),
        Op::Cvt {
            dst: d,
            src,
            round,
            integral,
            sat,
            ftz,
        } => alu::cvt(d, src, round, integral, sat, ftz, arg(ctx, t, 1)?)
            .map_err(|m| invalid(ctx, t, m))?,
        Op::Cvta { to, space } => {
            let a = arg(ctx, t, 1)?;
            match (space, to) {
                (Space::Shared, false) => a + SHARED_WINDOW,
                (Space::Shared, true) => a.wrapping_sub(SHARED_WINDOW),
                _ => a,
            }
        }
        Op::Atom {
            space,
            op,
            ty,
            red,
            vec,
        } => {
            // `.v2`/`.v4` (sm_90's f32 `add`): one atomic per element, at
            // consecutive addresses, with vector operands.
            let (addr_op, first) = if red { (dst, 1) } else { (&o[1], 2) };
            let addr = ctx.address(t, addr_op).map_err(|m| invalid(ctx, t, m))?;
            let size = ty.bytes() as usize;
            let mut olds = Vec::with_capacity(vec as usize);
            for k in 0..vec as usize {
                let part = |n: usize| elements(&o[n]).get(k).cloned().unwrap_or(Operand::Sink);
                let b = ctx.read(t, &part(first)).map_err(|m| invalid(ctx, t, m))?;
                let c = if op == Atomic::Cas {
                    arg(ctx, t, first + 1)?
                } else {
                    0
                };
                let at = addr + (k * size) as u64;
                let mut bytes = [0u8; 8];
                access(
                    ctx,
                    t,
                    i,
                    global,
                    space,
                    at,
                    &mut bytes[..size],
                    false,
                    true,
                )?;
                let old = u64::from_le_bytes(bytes);
                let new = atomic(op, ty, old, b, c).map_err(|m| invalid(ctx, t, m))?;
                let mut out = new.to_le_bytes();
                access(ctx, t, i, global, space, at, &mut out[..size], true, true)?;
                olds.push(old);
            }
            if red {
                return Ok(());
            }
            if vec > 1 {
                for (p, &old) in elements(dst).iter().zip(&olds) {
                    ctx.write(t, p, old).map_err(|m| invalid(ctx, t, m))?;
                }
                return Ok(());
            }
            olds[0]
        }
        Op::Carry(c) => {
            let (a, b) = (arg(ctx, t, 1)?, arg(ctx, t, 2)?);
            let (v, carry) = alu::carry(c, a, b, t.carry);
            if c.carry_out {
                t.carry = carry;
            }
            v
        }
        Op::CvtTf32 => alu::tf32(arg(ctx, t, 1)?),
        Op::CvtPack { bf16 } => {
            let half = Ty {
                kind: if bf16 { Kind::BFloat } else { Kind::Float },
                bits: 16,
            };
            let f32_ty = Ty {
                kind: Kind::Float,
                bits: 32,
            };
            let round = |v: u64| from_f64(to_f64(v, f32_ty), half);
            (round(arg(ctx, t, 1)?) << 16) | round(arg(ctx, t, 2)?)
        }
        Op::CpAsync => return async_copy::issue(ctx, t, i, global),
        Op::Barrier
        | Op::Shfl(_)
        | Op::Exit
        | Op::Bra
        | Op::Mma(_)
        | Op::Ldmatrix { .. }
        | Op::Wgmma(_) => {
            unreachable!("handled by step")
        }
        Op::CpAsyncCommit | Op::CpAsyncWait { .. } | Op::WgmmaSync(_) | Op::Fence => {
            unreachable!("handled above")
        }
    };
    ctx.write(t, dst, result).map_err(|m| invalid(ctx, t, m))
}

/// The new value of an atomic's memory.
fn atomic(op: Atomic, ty: Ty, old: u64, b: u64, c: u64) -> Result<u64, String> {
    let w = ty.bits;
    Ok(mask(
        match op {
            Atomic::Add if ty.is_float() => from_f64(to_f64(old, ty) + to_f64(b, ty), ty),
            Atomic::Min | Atomic::Max if ty.is_float() => {
                let (x, y) = (to_f64(old, ty), to_f64(b, ty));
                from_f64(crate::value::min_max(x, y, op == Atomic::Max, false), ty)
            }
            Atomic::Add => old.wrapping_add(b),
            Atomic::Min => int(old, ty).min(int(b, ty)) as u64,
            Atomic::Max => int(old, ty).max(int(b, ty)) as u64,
            Atomic::And => old & b,
            Atomic::Or => old | b,
            Atomic::Xor => old ^ b,
            Atomic::Exch => b,
            Atomic::Cas => {
                if mask(old, w) == mask(b, w) {
                    c
                } else {
                    old
                }
            }
            Atomic::Inc => {
                if mask(old, w) >= mask(b, w) {
                    0
                } else {
                    old + 1
                }
            }
            Atomic::Dec => {
                if mask(old, w) == 0 || mask(old, w) > mask(b, w) {
                    b
                } else {
                    old - 1
                }
            }
        },
        w,
    ))
}

/// Reads (`write` false) into or writes `bytes` at `addr` of `space`,
/// checking bounds and alignment (and races in shared memory).
#[allow(clippy::too_many_arguments)]
fn access(
    ctx: &mut Ctx,
    t: &Thread,
    i: &Instr,
    global: &mut HostMemory,
    space: Space,
    addr: u64,
    bytes: &mut [u8],
    write: bool,
    atomic: bool,
) -> Result<(), ExecError> {
    let n = bytes.len() as u64;
    if !addr.is_multiple_of(n) {
        return Err(ExecError::Misaligned {
            at: ctx.at(t, i),
            address: addr,
            bytes: n,
        });
    }
    let (space, addr) = match space {
        Space::Generic if (SHARED_WINDOW..SHARED_WINDOW * 2).contains(&addr) => {
            (Space::Shared, addr - SHARED_WINDOW)
        }
        Space::Generic => (Space::Global, addr),
        s => (s, addr),
    };
    let oob = |ctx: &Ctx, name: &'static str| ExecError::OutOfBounds {
        at: ctx.at(t, i),
        address: addr,
        bytes: n,
        write,
        space: name,
    };
    match space {
        Space::Global => {
            if write {
                let dst = global
                    .range_mut(addr, bytes.len())
                    .ok_or_else(|| oob(ctx, "global"))?;
                dst.copy_from_slice(bytes);
            } else {
                let src = global
                    .range(addr, bytes.len())
                    .ok_or_else(|| oob(ctx, "global"))?;
                bytes.copy_from_slice(src);
            }
        }
        Space::Shared => {
            let end = addr
                .checked_add(n)
                .filter(|&e| e <= ctx.shared.bytes.len() as u64);
            if end.is_none() {
                return Err(oob(ctx, "shared"));
            }
            let a = Access {
                thread: t.linear,
                line: i.line,
                write,
                atomic,
            };
            let (at, len) = (addr as usize, bytes.len());
            if write && !atomic {
                ctx.shared.record_store(at, bytes, &a, ctx.cta)?;
            } else {
                ctx.shared.record(at, len, &a, ctx.cta)?;
            }
            if write {
                ctx.shared.bytes[at..at + len].copy_from_slice(bytes);
            } else {
                bytes.copy_from_slice(&ctx.shared.bytes[at..at + len]);
            }
        }
        Space::Param => {
            if write {
                return Err(oob(ctx, "param"));
            }
            let src = ctx
                .params
                .get(addr as usize..(addr + n) as usize)
                .ok_or_else(|| oob(ctx, "param"))?;
            bytes.copy_from_slice(src);
        }
        Space::Generic => unreachable!("resolved above"),
    }
    Ok(())
}
