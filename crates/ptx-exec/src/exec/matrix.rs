//! The warp-wide matrix instructions of sm_80: `mma.sync` and `ldmatrix`,
//! run once all 32 lanes of a warp wait at them, with the fragment layouts
//! of the PTX ISA ("Matrix Fragments for mma.m16n8k*", "ldmatrix").
//!
//! **Fragments.** With `g = %laneid >> 2` and `t = %laneid % 4`, and `e`
//! elements packed in each 32-bit register (2 for f16/bf16, 1 for tf32, 4
//! for 8-bit integers), element `i` of a lane's A fragment is in register
//! `r = i / e` at position `w = i % e` (low bits first) and holds
//! `A[g + 8 * (r & 1)][t * e + w + (K / 2) * (r >> 1)]`; element `i` of B
//! holds `B[t * e + w + (K / 2) * r][g]`; accumulator element `i` (one a
//! register) holds `C[g + 8 * (i >> 1)][2 * t + (i & 1)]`. For f16 this is
//! the ISA's `row = g` for `a0, a1, a4, a5`, `g + 8` for the others, `col =
//! 2t + (i & 1)`, `+ 8` from `a4`; for tf32 `a0: (g, t)`, `a1: (g + 8, t)`,
//! `a2: (g, t + 4)`, `a3: (g + 8, t + 4)`; for s8 `row = g` for `a0..a3`
//! and `a8..a11`, `col = 4t + (i & 3)`, `+ 16` from `a8`.
//!
//! **Arithmetic.** Integer products accumulate exactly and wrap to 32 bits
//! (`.satfinite`: clamp). Float products: each output is `C + sum of the K
//! products` computed in `f64` in order of `k` and rounded once to f32 at
//! the end. Products of f16, bf16 and tf32 values are exact in `f64`, and
//! so is their sum whenever it needs at most 53 bits (integers and small
//! dyadic values: tests that compare bit for bit use such inputs). A GPU
//! adds the products in an order and with intermediate precision NVIDIA
//! does not document (and truncates rather than rounds on some chips): for
//! general inputs, results differ from these by a few units of f32's
//! precision of the sum of the terms' magnitudes, which is the bound
//! tests must allow. TF32 operands are read as the f32 whose low 13
//! mantissa bits are cleared (the hardware ignores them).
//!
//! **ldmatrix.** Lanes `8m .. 8m + 7` give the addresses of rows `0..7` of
//! matrix `m` (16 bytes each, 16-byte aligned); register `m` of lane `l`
//! receives row `l / 4`, elements `2 (l % 4)` and `+ 1` (low half first),
//! or with `.trans` the same of the transposed matrix (elements `2 (l %
//! 4)` and `+ 1` of column `l / 4`).

use super::shared::Access;
use super::thread::{Ctx, SHARED_WINDOW, State, Thread};
use crate::ast::Operand;
use crate::decode::{Mma, MmaInput};
use crate::error::ExecError;

/// The registers of a vector operand.
pub(super) fn regs(o: &Operand) -> Vec<u32> {
    match o {
        Operand::Vector(v) => v
            .iter()
            .filter_map(|x| match x {
                Operand::Reg(r) => Some(*r),
                _ => None,
            })
            .collect(),
        Operand::Reg(r) => vec![*r],
        _ => Vec::new(),
    }
}

/// An error at the warp's first lane.
fn invalid(ctx: &Ctx, warp: &[Thread], pc: usize, message: String) -> ExecError {
    ExecError::Invalid {
        at: ctx.at(&warp[0], &ctx.entry.body[pc]),
        message,
    }
}

/// Checks that the whole warp (32 lanes) waits at `pc`.
fn whole_warp(ctx: &Ctx, warp: &[Thread], pc: usize) -> Result<(), ExecError> {
    if warp.len() != 32 || warp.iter().any(|t| t.state != State::Waiting) {
        let what = &ctx.entry.body[pc].opcode;
        return Err(invalid(
            ctx,
            warp,
            pc,
            format!("`{what}` needs all 32 lanes of the warp (.aligned)"),
        ));
    }
    Ok(())
}

/// Element `w` (of `per` packed in a register) of `reg`, as `f64` or as an
/// integer in `f64` (exact for 8-bit values).
pub(super) fn element(input: MmaInput, reg: u32, w: u32) -> f64 {
    match input {
        MmaInput::F16 => half::f16::from_bits((reg >> (16 * w)) as u16).to_f64(),
        MmaInput::Bf16 => half::bf16::from_bits((reg >> (16 * w)) as u16).to_f64(),
        MmaInput::Tf32 => f64::from(f32::from_bits(reg & 0xffff_e000)),
        MmaInput::S8 => f64::from((reg >> (8 * w)) as u8 as i8),
        MmaInput::U8 => f64::from((reg >> (8 * w)) as u8),
    }
}

/// `mma.sync.aligned.m16n8kK.row.col` for a whole warp.
pub fn mma(ctx: &Ctx, warp: &mut [Thread], m: Mma, pc: usize) -> Result<(), ExecError> {
    whole_warp(ctx, warp, pc)?;
    let o = &ctx.entry.body[pc].operands;
    let k = m.shape.k as usize;
    let (d, a, b, c) = match &o[..] {
        [d, a, b, c] => (regs(d), regs(a), regs(b), regs(c)),
        _ => return Err(invalid(ctx, warp, pc, "mma takes 4 operands".into())),
    };
    let e = m.a.per_register() as usize;
    if d.len() != 4 || c.len() != 4 || a.len() != 4 || b.len() != 2 {
        return Err(invalid(ctx, warp, pc, "mma fragment sizes".into()));
    }
    let mut am = vec![[0f64; 32]; 16];
    let mut bm = vec![[0f64; 8]; 32];
    let mut cm = [[0u32; 8]; 16];
    for (lane, t) in warp.iter().enumerate() {
        let (g, tg) = (lane / 4, lane % 4);
        for (r, &reg) in a.iter().enumerate() {
            for w in 0..e {
                let (row, col) = (g + 8 * (r & 1), tg * e + w + k / 2 * (r >> 1));
                am[row][col] = element(m.a, t.regs[reg as usize] as u32, w as u32);
            }
        }
        for (r, &reg) in b.iter().enumerate() {
            for w in 0..e {
                let row = tg * e + w + k / 2 * r;
                bm[row][g] = element(m.b, t.regs[reg as usize] as u32, w as u32);
            }
        }
        for (i, &reg) in c.iter().enumerate() {
            cm[g + 8 * (i >> 1)][2 * tg + (i & 1)] = t.regs[reg as usize] as u32;
        }
    }
    let out = |row: usize, col: usize| -> u32 {
        if m.a.is_int() {
            let mut s = i64::from(cm[row][col] as i32);
            for kk in 0..k {
                s += am[row][kk] as i64 * bm[kk][col] as i64;
            }
            if m.satfinite {
                s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
            } else {
                s as i32 as u32
            }
        } else {
            let mut s = f64::from(f32::from_bits(cm[row][col]));
            for kk in 0..k {
                s += am[row][kk] * bm[kk][col];
            }
            (s as f32).to_bits()
        }
    };
    for (lane, t) in warp.iter_mut().enumerate() {
        let (g, tg) = (lane / 4, lane % 4);
        for (i, &reg) in d.iter().enumerate() {
            let v = out(g + 8 * (i >> 1), 2 * tg + (i & 1));
            t.regs[reg as usize] = u64::from(v);
        }
        t.pc += 1;
        t.state = State::Ready;
    }
    Ok(())
}

/// `ldmatrix.sync.aligned.m8n8.xN{.trans}.b16` for a whole warp.
pub fn ldmatrix(
    ctx: &mut Ctx,
    warp: &mut [Thread],
    (count, trans, shared): (u32, bool, bool),
    pc: usize,
) -> Result<(), ExecError> {
    whole_warp(ctx, warp, pc)?;
    let i = &ctx.entry.body[pc];
    let (dst, addr) = match &i.operands[..] {
        [d, Operand::Addr { base, offset }] => (regs(d), (base, *offset)),
        _ => return Err(invalid(ctx, warp, pc, "ldmatrix operands".into())),
    };
    if dst.len() != count as usize {
        return Err(invalid(
            ctx,
            warp,
            pc,
            format!("ldmatrix.x{count} needs {count} registers"),
        ));
    }
    // rows[m][r]: the 8 b16 elements of row r of matrix m.
    let mut rows = vec![[[0u16; 8]; 8]; count as usize];
    for lane in 0..(8 * count as usize) {
        let t = &warp[lane];
        let base = ctx.read(t, addr.0).map_err(|m| invalid(ctx, warp, pc, m))?;
        let mut a = base.wrapping_add(addr.1 as u64);
        if !shared {
            if !(SHARED_WINDOW..SHARED_WINDOW * 2).contains(&a) {
                return Err(invalid(
                    ctx,
                    warp,
                    pc,
                    format!("ldmatrix address {a:#x} is not shared"),
                ));
            }
            a -= SHARED_WINDOW;
        }
        if !a.is_multiple_of(16) {
            return Err(ExecError::Misaligned {
                at: ctx.at(t, i),
                address: a,
                bytes: 16,
            });
        }
        if a + 16 > ctx.shared.bytes.len() as u64 {
            return Err(ExecError::OutOfBounds {
                at: ctx.at(t, i),
                address: a,
                bytes: 16,
                write: false,
                space: "shared",
            });
        }
        let access = Access {
            thread: t.linear,
            line: i.line,
            write: false,
            atomic: false,
        };
        ctx.shared.record(a as usize, 16, &access, ctx.cta)?;
        let bytes = &ctx.shared.bytes[a as usize..a as usize + 16];
        for (j, v) in rows[lane / 8][lane % 8].iter_mut().enumerate() {
            *v = u16::from_le_bytes([bytes[2 * j], bytes[2 * j + 1]]);
        }
    }
    for (lane, t) in warp.iter_mut().enumerate() {
        let (r, c) = (lane / 4, 2 * (lane % 4));
        for (m, &reg) in dst.iter().enumerate() {
            let (lo, hi) = if trans {
                (rows[m][c][r], rows[m][c + 1][r])
            } else {
                (rows[m][r][c], rows[m][r][c + 1])
            };
            t.regs[reg as usize] = u64::from(lo) | (u64::from(hi) << 16);
        }
        t.pc += 1;
        t.state = State::Ready;
    }
    Ok(())
}
