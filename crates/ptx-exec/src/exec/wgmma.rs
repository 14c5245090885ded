//! sm_90's asynchronous warpgroup products: `wgmma.mma_async` run once
//! all 128 threads of a warpgroup (four consecutive warps) wait at it,
//! with `wgmma.fence`, `wgmma.commit_group` and `wgmma.wait_group N` as
//! the PTX ISA defines them.
//!
//! **Operands.** A (64 x K) comes from shared memory through a matrix
//! descriptor ([`super::descriptor`]), K-major or, with `imm-trans-a` 1,
//! M-major; or from four registers a thread, warp `w` of the group
//! holding rows `16 w ..` in `mma.sync`'s A fragment layout
//! ([`super::matrix`]). B (K x N) comes from shared memory, K-major or
//! (`imm-trans-b` 1) N-major. `imm-scale-a`/`-b` of -1 negate; `scale-d`
//! false ignores the accumulator. Every thread passes the descriptors;
//! they must agree across the group.
//!
//! **Accumulators.** Thread `l` of warp `w` holds `N / 2` of D: register
//! `i` is row `16 w + l / 4 + 8 ((i >> 1) & 1)`, column `8 (i >> 2) + 2 (l
//! % 4) + (i & 1)` (the `m16n8` accumulator repeated along N). Sums are
//! computed as `mma.sync`'s are: in `f64`, rounded once.
//!
//! **Asynchrony: caught, not stale.** The product is computed when it is
//! issued, from shared memory as it is then, and held per thread as
//! pending register writes: uncommitted, then in the group that the next
//! `commit_group` makes. `wait_group N` retires the oldest groups until
//! at most N remain, writing their registers. Until then:
//! - any instruction but a `wgmma.mma_async` that reads or writes a
//!   pending accumulator register is [`ExecError::InFlight`] (the ISA
//!   leaves such accesses undefined; a following `wgmma.mma_async` of the
//!   same shape may accumulate into them, and reads the pending value);
//! - the shared bytes the product read must stay as they were: the first
//!   thread to retire the group compares them, and a change (a stage
//!   refilled before the wait that frees it) is
//!   [`ExecError::StaleOperand`].
//!
//! A register written by an ordinary instruction since the thread's last
//! `wgmma.fence` and read by a `wgmma.mma_async` (accumulator or A
//! fragment) is [`ExecError::MissingFence`]. `fence.proxy.async` has
//! nothing to order here (one coherent copy of shared memory), so a
//! missing one is not caught.

use super::descriptor::Descriptor;
use super::matrix::{element, regs};
use super::thread::{Ctx, State, Thread};
use crate::ast::{Instr, Operand};
use crate::decode::{MmaInput, Wgmma, WgmmaSync};
use crate::error::ExecError;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The shared bytes one product read, to compare when it retires.
#[derive(Debug)]
struct Snapshot {
    /// The `wgmma.mma_async`'s PTX line.
    line: usize,
    /// (offset, bytes read) runs.
    reads: Vec<(usize, Vec<u8>)>,
    /// Compared already (by the first thread to retire it).
    checked: AtomicBool,
}

/// One product's writes for one thread.
#[derive(Clone, Debug)]
struct Product {
    writes: Vec<(u32, u64)>,
    snapshot: Arc<Snapshot>,
}

/// A thread's products in flight and its fence state.
#[derive(Clone, Debug, Default)]
pub struct WgmmaState {
    /// Products not yet committed.
    pending: Vec<Product>,
    /// Committed groups, oldest first.
    groups: VecDeque<Vec<Product>>,
    /// Per register: unretired writes to it.
    unretired: Vec<u32>,
    /// Registers with unretired writes: the newest value and its line.
    latest: HashMap<u32, (u64, usize)>,
    /// Per register: written by an ordinary instruction since the last
    /// `wgmma.fence`.
    written: Vec<bool>,
}

impl WgmmaState {
    /// True when no product is in flight.
    pub fn idle(&self) -> bool {
        self.latest.is_empty()
    }

    /// Notes an ordinary instruction's write to `reg`.
    pub fn written(&mut self, reg: u32) {
        let r = reg as usize;
        if self.written.len() <= r {
            self.written.resize(r + 1, false);
        }
        self.written[r] = true;
    }

    fn in_flight(&self, reg: u32) -> Option<usize> {
        if self.unretired.get(reg as usize).copied().unwrap_or(0) == 0 {
            return None;
        }
        self.latest.get(&reg).map(|&(_, line)| line)
    }
}

/// Fails when `i` (not a `wgmma`) touches a register a product in flight
/// writes.
pub fn check_access(ctx: &Ctx, t: &Thread, i: &Instr) -> Result<(), ExecError> {
    fn each(o: &Operand, f: &mut dyn FnMut(u32)) {
        match o {
            Operand::Reg(r) => f(*r),
            Operand::Vector(v) => v.iter().for_each(|x| each(x, f)),
            Operand::Addr { base, .. } => each(base, f),
            _ => {}
        }
    }
    let mut hit = None;
    let mut look = |r: u32| {
        if hit.is_none() {
            hit = t.wgmma.in_flight(r).map(|line| (r, line));
        }
    };
    if let Some((p, _)) = i.guard {
        look(p);
    }
    i.operands.iter().for_each(|o| each(o, &mut look));
    match hit {
        None => Ok(()),
        Some((r, issued)) => Err(ExecError::InFlight {
            at: ctx.at(t, i),
            register: ctx.entry.registers[r as usize].clone(),
            issued,
        }),
    }
}

/// `wgmma.fence`, `commit_group` or `wait_group N` in thread `t`.
pub fn sync(ctx: &mut Ctx, t: &mut Thread, s: WgmmaSync, i: &Instr) -> Result<(), ExecError> {
    let st = &mut t.wgmma;
    match s {
        WgmmaSync::Fence => st.written.iter_mut().for_each(|w| *w = false),
        WgmmaSync::Commit => {
            let group = std::mem::take(&mut st.pending);
            st.groups.push_back(group);
        }
        WgmmaSync::Wait => {
            let n = match i.operands.first() {
                Some(Operand::Imm(n)) => *n as usize,
                _ => {
                    return Err(ExecError::Invalid {
                        at: ctx.at(t, i),
                        message: "wgmma.wait_group takes an immediate".into(),
                    });
                }
            };
            while t.wgmma.groups.len() > n {
                let Some(group) = t.wgmma.groups.pop_front() else {
                    break;
                };
                for p in group {
                    retire(ctx, t, i, p)?;
                }
            }
        }
    }
    Ok(())
}

/// Writes one product's registers in `t`, after comparing its operands'
/// shared bytes if no thread has yet.
fn retire(ctx: &Ctx, t: &mut Thread, i: &Instr, p: Product) -> Result<(), ExecError> {
    let snap = &p.snapshot;
    if !snap.checked.swap(true, Ordering::Relaxed) {
        for (offset, bytes) in &snap.reads {
            let now = &ctx.shared.bytes[*offset..*offset + bytes.len()];
            if let Some(k) = now.iter().zip(bytes).position(|(a, b)| a != b) {
                return Err(ExecError::StaleOperand {
                    at: ctx.at(t, i),
                    offset: (offset + k) as u64,
                    issued: snap.line,
                });
            }
        }
    }
    let st = &mut t.wgmma;
    for (reg, value) in p.writes {
        t.regs[reg as usize] = value;
        let r = reg as usize;
        st.unretired[r] -= 1;
        if st.unretired[r] == 0 {
            st.latest.remove(&reg);
        }
    }
    Ok(())
}

/// An error at the group's first thread.
fn invalid(ctx: &Ctx, group: &[Thread], pc: usize, message: String) -> ExecError {
    ExecError::Invalid {
        at: ctx.at(&group[0], &ctx.entry.body[pc]),
        message,
    }
}

/// The operands of one `wgmma.mma_async`, read from the group.
struct Operands {
    d: Vec<u32>,
    a_regs: Option<Vec<u32>>,
    a_desc: Option<Descriptor>,
    b_desc: Descriptor,
    scale_d: bool,
    negate: [bool; 2],
    trans: [bool; 2],
}

fn operands(ctx: &Ctx, group: &[Thread], w: Wgmma, pc: usize) -> Result<Operands, ExecError> {
    let i = &ctx.entry.body[pc];
    let o = &i.operands;
    let bad = |m: String| invalid(ctx, group, pc, m);
    if o.len() < 4 {
        return Err(bad("wgmma.mma_async takes at least 4 operands".into()));
    }
    // The same value in every thread of the group.
    let uniform = |op: &Operand| -> Result<u64, ExecError> {
        let v = ctx.read(&group[0], op).map_err(&bad)?;
        for t in group {
            if ctx.read(t, op).map_err(&bad)? != v {
                return Err(bad(format!("operand {op:?} differs across the warpgroup")));
            }
        }
        Ok(v)
    };
    let desc = |op: &Operand| -> Result<Descriptor, ExecError> {
        Descriptor::decode(uniform(op)?).map_err(&bad)
    };
    let a_regs = matches!(o[1], Operand::Vector(_)).then(|| regs(&o[1]));
    let a_desc = match a_regs {
        Some(_) => None,
        None => Some(desc(&o[1])?),
    };
    let imm = |k: usize| -> Result<u64, ExecError> {
        match o.get(k) {
            Some(Operand::Imm(v)) => Ok(*v),
            other => Err(bad(format!("operand {k} is {other:?}, not an immediate"))),
        }
    };
    // f16/bf16: scale-a, scale-b, [trans-a], trans-b; tf32: the scales.
    let mut negate = [false; 2];
    let mut trans = [false; 2];
    if !w.a.is_int() {
        negate = [imm(4)? as i64 == -1, imm(5)? as i64 == -1];
    }
    if matches!(w.a, MmaInput::F16 | MmaInput::Bf16) {
        if a_desc.is_some() {
            trans = [imm(6)? == 1, imm(7)? == 1];
        } else {
            trans[1] = imm(6)? == 1;
        }
    }
    let d = regs(&o[0]);
    if d.len() != w.n as usize / 2 || a_regs.as_ref().is_some_and(|a| a.len() != 4) {
        return Err(bad(format!(
            "wgmma.m64n{} takes {} accumulator and 4 A registers",
            w.n,
            w.n / 2
        )));
    }
    Ok(Operands {
        d,
        a_regs,
        a_desc,
        b_desc: desc(&o[2])?,
        scale_d: uniform(&o[3])? & 1 == 1,
        negate,
        trans,
    })
}

/// Reads the operand matrices from shared memory; records the bytes.
struct Reader<'c, 'a> {
    ctx: &'c Ctx<'a>,
    input: MmaInput,
    bytes: u64,
    reads: Vec<(usize, Vec<u8>)>,
}

impl Reader<'_, '_> {
    /// The element at shared address `a` (K-major when `mn_major` is
    /// `None`).
    fn at(&mut self, a: Option<u64>) -> Result<f64, String> {
        let a = a.ok_or("an MN-major operand without swizzle is not modelled")?;
        let n = self.bytes as usize;
        if !a.is_multiple_of(self.bytes) || a as usize + n > self.ctx.shared.bytes.len() {
            return Err(format!(
                "operand element at shared {a:#x} is out of bounds or misaligned"
            ));
        }
        let raw = &self.ctx.shared.bytes[a as usize..a as usize + n];
        let mut word = [0u8; 4];
        word[..n].copy_from_slice(raw);
        self.reads.push((a as usize, raw.to_vec()));
        Ok(element(self.input, u32::from_le_bytes(word), 0))
    }
}

/// `wgmma.mma_async` for a whole warpgroup (128 threads waiting at `pc`).
pub fn product(ctx: &Ctx, group: &mut [Thread], w: Wgmma, pc: usize) -> Result<(), ExecError> {
    let line = ctx.entry.body[pc].line;
    let ops = operands(ctx, group, w, pc)?;
    let (k, n) = (w.a.k() as usize, w.n as usize);
    let e = u64::from(4 / w.a.per_register());
    let bad = |m: String| invalid(ctx, group, pc, m);
    for t in group.iter() {
        let fence_needed = ops
            .d
            .iter()
            .chain(ops.a_regs.iter().flatten())
            .find(|&&r| t.wgmma.written.get(r as usize).copied().unwrap_or(false));
        if let Some(&r) = fence_needed {
            return Err(ExecError::MissingFence {
                at: ctx.at(t, &ctx.entry.body[pc]),
                register: ctx.entry.registers[r as usize].clone(),
            });
        }
    }
    let sign = |neg: bool| if neg { -1.0 } else { 1.0 };
    let mut reader = Reader {
        ctx,
        input: w.a,
        bytes: e,
        reads: Vec::new(),
    };
    let mut am = vec![0f64; 64 * k];
    match (&ops.a_desc, &ops.a_regs) {
        (Some(d), _) => {
            for m in 0..64u64 {
                for kk in 0..k as u64 {
                    let a = if ops.trans[0] {
                        d.mn_major(m * e, kk)
                    } else {
                        Some(d.k_major(m, kk * e))
                    };
                    am[m as usize * k + kk as usize] = reader.at(a).map_err(&bad)?;
                }
            }
        }
        (None, Some(a_regs)) => {
            let per = w.a.per_register() as usize;
            for (j, t) in group.iter().enumerate() {
                let (wq, g, tq) = (j / 32, j % 32 / 4, j % 4);
                for (r, &reg) in a_regs.iter().enumerate() {
                    for x in 0..per {
                        let (row, col) =
                            (16 * wq + g + 8 * (r & 1), tq * per + x + k / 2 * (r >> 1));
                        am[row * k + col] = element(w.a, t.regs[reg as usize] as u32, x as u32);
                    }
                }
            }
        }
        (None, None) => unreachable!("A is registers or a descriptor"),
    }
    reader.input = w.b;
    let mut bm = vec![0f64; k * n];
    for kk in 0..k as u64 {
        for nn in 0..n as u64 {
            let a = if ops.trans[1] {
                ops.b_desc.mn_major(nn * e, kk)
            } else {
                Some(ops.b_desc.k_major(nn, kk * e))
            };
            bm[kk as usize * n + nn as usize] = reader.at(a).map_err(&bad)?;
        }
    }
    let (sa, sb) = (sign(ops.negate[0]), sign(ops.negate[1]));
    let snapshot = Arc::new(Snapshot {
        line,
        reads: reader.reads,
        checked: AtomicBool::new(false),
    });
    let out = |row: usize, col: usize, c: u64| -> u64 {
        if w.a.is_int() {
            let mut s = if ops.scale_d {
                i64::from(c as u32 as i32)
            } else {
                0
            };
            for kk in 0..k {
                s += (am[row * k + kk] * bm[kk * n + col]) as i64;
            }
            let s = if w.satfinite {
                s.clamp(i64::from(i32::MIN), i64::from(i32::MAX))
            } else {
                s
            };
            u64::from(s as i32 as u32)
        } else {
            let mut s = if ops.scale_d {
                f64::from(f32::from_bits(c as u32))
            } else {
                0.0
            };
            for kk in 0..k {
                s += sa * am[row * k + kk] * sb * bm[kk * n + col];
            }
            u64::from((s as f32).to_bits())
        }
    };
    for (j, t) in group.iter_mut().enumerate() {
        let (wq, g, tq) = (j / 32, j % 32 / 4, j % 4);
        let mut writes = Vec::with_capacity(ops.d.len());
        for (i, &reg) in ops.d.iter().enumerate() {
            let (row, col) = (
                16 * wq + g + 8 * ((i >> 1) & 1),
                8 * (i >> 2) + 2 * tq + (i & 1),
            );
            let c = match t.wgmma.latest.get(&reg) {
                Some(&(v, _)) => v,
                None => t.regs[reg as usize],
            };
            writes.push((reg, out(row, col, c)));
        }
        let st = &mut t.wgmma;
        for &(reg, value) in &writes {
            let r = reg as usize;
            if st.unretired.len() <= r {
                st.unretired.resize(r + 1, 0);
            }
            st.unretired[r] += 1;
            st.latest.insert(reg, (value, line));
        }
        st.pending.push(Product {
            writes,
            snapshot: snapshot.clone(),
        });
        t.pc += 1;
        t.state = State::Ready;
    }
    Ok(())
}
