//! One CTA: its threads run one at a time, each until it reaches a
//! collective instruction or exits; then the collectives whose
//! participants have all arrived run (`shfl.sync` per warp, `bar.sync`
//! per CTA). Threads waiting where no collective can complete are a
//! divergence (some at a barrier while others exited or wait elsewhere,
//! lanes of a warp at different shuffles) and stop the launch.

use super::thread::{Ctx, Flow, State, Thread, step};
use super::{matrix, wgmma};
use crate::ast::Operand;
use crate::decode::{Op, Shfl};
use crate::error::ExecError;
use tile_runtime::HostMemory;

/// Instructions one CTA may run, all threads together, before it is
/// taken for an endless loop.
pub const STEP_LIMIT: u64 = 1 << 32;

/// Runs every thread of the CTA to its end.
pub fn run_cta(
    ctx: &mut Ctx,
    threads: &mut [Thread],
    global: &mut HostMemory,
) -> Result<(), ExecError> {
    let mut steps = 0u64;
    loop {
        for t in threads.iter_mut() {
            while t.state == State::Ready {
                steps += 1;
                if steps > STEP_LIMIT {
                    return Err(ExecError::StepLimit {
                        cta: ctx.cta,
                        steps: STEP_LIMIT,
                    });
                }
                match step(ctx, t, global)? {
                    Flow::Next => {}
                    Flow::Collective => t.state = State::Waiting,
                    Flow::Exit => t.state = State::Exited,
                }
            }
        }
        if threads.iter().all(|t| t.state == State::Exited) {
            return Ok(());
        }
        if !resolve(ctx, threads)? {
            return Err(stuck(ctx, threads));
        }
    }
}

/// Runs the collectives that can complete; false when none can.
fn resolve(ctx: &mut Ctx, threads: &mut [Thread]) -> Result<bool, ExecError> {
    let body = &ctx.entry.body;
    let mut progress = false;
    // Warpgroups (four consecutive warps) at a `wgmma.mma_async`.
    for group in threads.chunks_mut(128) {
        let pc = group[0].pc;
        let here = group.len() == 128
            && group
                .iter()
                .all(|t| t.state == State::Waiting && t.pc == pc);
        if let (true, Op::Wgmma(w)) = (here, body[pc].op) {
            wgmma::product(ctx, group, w, pc)?;
            progress = true;
        }
    }
    for warp in threads.chunks_mut(32) {
        let live: Vec<usize> = (0..warp.len())
            .filter(|&k| warp[k].state != State::Exited)
            .collect();
        let Some(&first) = live.first() else { continue };
        let pc = warp[first].pc;
        let all_here = live
            .iter()
            .all(|&k| warp[k].state == State::Waiting && warp[k].pc == pc);
        if !all_here {
            continue;
        }
        match body[pc].op {
            Op::Shfl(mode) => shuffle(ctx, warp, mode, pc)?,
            Op::Mma(m) => matrix::mma(ctx, warp, m, pc)?,
            Op::Ldmatrix {
                count,
                trans,
                shared,
            } => matrix::ldmatrix(ctx, warp, (count, trans, shared), pc)?,
            _ => continue,
        }
        progress = true;
    }
    if progress {
        return Ok(true);
    }
    let live: Vec<&Thread> = threads
        .iter()
        .filter(|t| t.state != State::Exited)
        .collect();
    let pc = live[0].pc;
    let at_barrier = live
        .iter()
        .all(|t| t.state == State::Waiting && t.pc == pc && body[pc].op == Op::Barrier);
    if at_barrier && live.len() == threads.len() {
        ctx.shared.barrier();
        for t in threads.iter_mut() {
            t.pc += 1;
            t.state = State::Ready;
        }
        return Ok(true);
    }
    Ok(false)
}

/// The divergence that stops the CTA: who waits where.
fn stuck(ctx: &Ctx, threads: &[Thread]) -> ExecError {
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    for t in threads {
        let key = match t.state {
            State::Exited => "exited".to_string(),
            _ => {
                let i = &ctx.entry.body[t.pc];
                format!("wait at PTX line {} `{}`", i.line, i.opcode)
            }
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ids)) => ids.push(t.linear),
            None => groups.push((key, vec![t.linear])),
        }
    }
    let message = groups
        .iter()
        .map(|(k, ids)| {
            let shown: Vec<String> = ids.iter().take(4).map(u32::to_string).collect();
            let more = if ids.len() > 4 {
                format!(", ... ({} threads)", ids.len())
            } else {
                String::new()
            };
            format!("threads {}{more} {k}", shown.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    ExecError::Divergence {
        cta: ctx.cta,
        message,
    }
}

/// `shfl.sync.mode.b32 d[|p], a, b, c, membermask` for a whole warp.
fn shuffle(ctx: &Ctx, warp: &mut [Thread], mode: Shfl, pc: usize) -> Result<(), ExecError> {
    let i = &ctx.entry.body[pc];
    let o = &i.operands;
    let with_pred = o.len() == 6;
    let base = if with_pred { 2 } else { 1 };
    let invalid = |t: &Thread, message: String| ExecError::Invalid {
        at: ctx.at(t, i),
        message,
    };
    let mut src = [0u64; 32];
    let mut active = [false; 32];
    for t in warp.iter() {
        let lane = (t.linear % 32) as usize;
        if t.state == State::Waiting {
            src[lane] = ctx.read(t, &o[base]).map_err(|m| invalid(t, m))? & 0xffff_ffff;
            active[lane] = true;
        }
    }
    let mut results = Vec::with_capacity(warp.len());
    for t in warp.iter() {
        if t.state != State::Waiting {
            results.push(None);
            continue;
        }
        let lane = i64::from(t.linear % 32);
        let b = ctx.read(t, &o[base + 1]).map_err(|m| invalid(t, m))? as i64 & 0x1f;
        let c = ctx.read(t, &o[base + 2]).map_err(|m| invalid(t, m))? as i64;
        let members = ctx.read(t, &o[base + 3]).map_err(|m| invalid(t, m))? as u32;
        let (clamp, seg) = (c & 0x1f, (c >> 8) & 0x1f);
        let max_lane = (lane & seg) | (clamp & !seg);
        let min_lane = lane & seg;
        let (j, ok) = match mode {
            Shfl::Up => (lane - b, lane - b >= max_lane),
            Shfl::Down => (lane + b, lane + b <= max_lane),
            Shfl::Bfly => (lane ^ b, (lane ^ b) <= max_lane),
            Shfl::Idx => {
                let j = min_lane | (b & !seg);
                (j, j <= max_lane)
            }
        };
        let j = if ok { j } else { lane } as usize;
        if members & (1 << j) == 0 || !active[j] {
            return Err(invalid(
                t,
                format!("shuffle reads lane {j}, which is not active"),
            ));
        }
        results.push(Some((src[j], ok)));
    }
    for (t, r) in warp.iter_mut().zip(results) {
        if let Some((v, ok)) = r {
            write_reg(ctx, t, &o[0], v);
            if with_pred {
                write_reg(ctx, t, &o[1], u64::from(ok));
            }
            t.pc += 1;
            t.state = State::Ready;
        }
    }
    Ok(())
}

fn write_reg(ctx: &Ctx, t: &mut Thread, o: &Operand, v: u64) {
    // Only registers reach here (the parser's operands of `shfl`).
    let _ = ctx.write(t, o, v);
}
