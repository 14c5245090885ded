//! `cp.async` with its groups, as the PTX ISA defines them: a copy's
//! bytes land in shared memory only when a `cp.async.wait_group` (or
//! `wait_all`) that covers its group completes in the issuing thread.
//! Until then shared memory holds what it held before, so a kernel that
//! reads a stage before waiting for it reads stale data here, as it may on
//! the GPU, and the comparison with the interpreter catches it.
//!
//! The source is read when the copy is issued (bounds- and
//! alignment-checked then, with the issuing line); only `src-size` bytes
//! of it (`cp.async ..., 16, %r` with `%r < 16`), the rest zero-filled, and
//! none with the `ignore-src` predicate true. The destination is
//! race-checked as a write both at the issue (another thread touching it
//! while the copy is in flight is a race) and when it lands.

use super::shared::Access;
use super::thread::{Ctx, Thread};
use crate::ast::{Instr, Operand};
use crate::error::ExecError;
use std::collections::VecDeque;
use std::mem;
use tile_runtime::HostMemory;

/// One copy in flight.
#[derive(Clone, Debug)]
struct Copy {
    /// The `cp.async`'s PTX line.
    line: usize,
    /// Its destination: an offset in the CTA's shared memory.
    dst: usize,
    /// The bytes it will write (source bytes, then zeros).
    bytes: Vec<u8>,
}

/// A thread's copies in flight: not yet committed, then committed groups
/// oldest first.
#[derive(Clone, Debug, Default)]
pub struct AsyncCopies {
    pending: Vec<Copy>,
    groups: VecDeque<Vec<Copy>>,
}

impl AsyncCopies {
    /// True when no copy is in flight.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty() && self.groups.iter().all(Vec::is_empty)
    }
}

/// `cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size |
/// ignore-src}` by `t`.
pub fn issue(
    ctx: &mut Ctx,
    t: &mut Thread,
    i: &Instr,
    global: &HostMemory,
) -> Result<(), ExecError> {
    let invalid = |ctx: &Ctx, t: &Thread, message: String| ExecError::Invalid {
        at: ctx.at(t, i),
        message,
    };
    let o = &i.operands;
    if !(3..=4).contains(&o.len()) {
        return Err(invalid(ctx, t, "cp.async takes 3 or 4 operands".into()));
    }
    let value =
        |ctx: &Ctx, t: &Thread, op: &Operand| ctx.read(t, op).map_err(|m| invalid(ctx, t, m));
    let address = |ctx: &Ctx, t: &Thread, op: &Operand| match op {
        Operand::Addr { base, offset } => Ok(value(ctx, t, base)?.wrapping_add(*offset as u64)),
        _ => Err(invalid(ctx, t, format!("{op:?} is not an address"))),
    };
    let dst = address(ctx, t, &o[0])?;
    let src = address(ctx, t, &o[1])?;
    let size = value(ctx, t, &o[2])?;
    if !matches!(size, 4 | 8 | 16) {
        return Err(invalid(ctx, t, format!("cp-size {size} is not 4, 8 or 16")));
    }
    let src_size = match o.get(3) {
        None => size,
        // `ignore-src`: a predicate; true copies zeros.
        Some(Operand::Reg(r)) if ctx.entry.register_bits[*r as usize] == 1 => {
            if t.regs[*r as usize] & 1 == 1 {
                0
            } else {
                size
            }
        }
        Some(op) => value(ctx, t, op)? & 0xffff_ffff,
    };
    if src_size > size {
        return Err(invalid(
            ctx,
            t,
            format!("src-size {src_size} exceeds cp-size {size}"),
        ));
    }
    for addr in [dst, src] {
        if !addr.is_multiple_of(size) {
            return Err(ExecError::Misaligned {
                at: ctx.at(t, i),
                address: addr,
                bytes: size,
            });
        }
    }
    let oob = |ctx: &Ctx, t: &Thread, address: u64, bytes: u64, write: bool, space| {
        ExecError::OutOfBounds {
            at: ctx.at(t, i),
            address,
            bytes,
            write,
            space,
        }
    };
    let mut bytes = vec![0u8; size as usize];
    if src_size > 0 {
        let from = global
            .range(src, src_size as usize)
            .ok_or_else(|| oob(ctx, t, src, src_size, false, "global"))?;
        bytes[..src_size as usize].copy_from_slice(from);
    }
    if dst + size > ctx.shared.bytes.len() as u64 {
        return Err(oob(ctx, t, dst, size, true, "shared"));
    }
    let access = Access {
        thread: t.linear,
        line: i.line,
        write: true,
        atomic: false,
    };
    ctx.shared
        .record(dst as usize, size as usize, &access, ctx.cta)?;
    t.copies.pending.push(Copy {
        line: i.line,
        dst: dst as usize,
        bytes,
    });
    Ok(())
}

/// `cp.async.commit_group`: the pending copies (possibly none) become
/// the newest group.
pub fn commit(t: &mut Thread) {
    let group = mem::take(&mut t.copies.pending);
    t.copies.groups.push_back(group);
}

/// `cp.async.wait_group n`: the oldest groups land until at most `n` are
/// in flight. `wait_all` commits first and waits for all.
pub fn wait(ctx: &mut Ctx, t: &mut Thread, n: u64, all: bool) -> Result<(), ExecError> {
    if all {
        commit(t);
    }
    let keep = if all { 0 } else { n as usize };
    while t.copies.groups.len() > keep {
        let Some(group) = t.copies.groups.pop_front() else {
            break;
        };
        for c in group {
            let access = Access {
                thread: t.linear,
                line: c.line,
                write: true,
                atomic: false,
            };
            ctx.shared.record(c.dst, c.bytes.len(), &access, ctx.cta)?;
            ctx.shared.bytes[c.dst..c.dst + c.bytes.len()].copy_from_slice(&c.bytes);
        }
    }
    Ok(())
}
