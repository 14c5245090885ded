//! A product on Hopper's `wgmma` (sm_90a): `#tile.mma` version 3.
//!
//! Four consecutive warps (a warpgroup) compute a 64-row block of the
//! accumulator, `instr_n` columns wide, from operands in shared memory:
//! warpgroup `q` of the warps along M takes rows `64 q` on (repetitions
//! step by the warps' cover), the warps along N take `instr_n` columns
//! each. Both operands are K-major and swizzled ([`SharedTile`]), so a
//! matrix descriptor is the tile's layout bits plus the start address of
//! the block's first row at the step's K, and each step of K adds its
//! bytes to the start address (the hardware applies the swizzle).
//!
//! The sequence follows the PTX rules: the staged writes are made visible
//! to the async proxy (`fence.proxy.async`, before the staging barrier),
//! `wgmma.fence` precedes the first product, and the accumulator is read
//! only after `wgmma.commit_group` and `wgmma.wait_group 0`.
//!
//! [`SharedTile`]: tile_coalesce::SharedTile

use super::super::builder::Val;
use super::super::emit::Emitter;
use super::super::ptx::{Arg, PtxAsm, RegClass};
use super::{Operands, Staged};
use crate::pass::PassError;
use melior::dialect::arith;
use melior::ir::OperationRef;
use tile_coalesce::{Distribution, Mma};
use tile_dialect::DType;

/// Bytes of K one instruction takes, in every input type.
const STEP_BYTES: i64 = 32;

/// The accumulator after `acc + a @ b` with `wgmma`.
pub fn product<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    mma: &Mma,
    out: &Distribution,
    s: &Operands,
    acc: Vec<Val>,
) -> Result<Vec<Val>, PassError> {
    let types = match s.inputs {
        DType::F16 => ("f32", "f16", 16),
        DType::BF16 => ("f32", "bf16", 16),
        DType::F32 => ("f32", "tf32", 8),
        DType::I8 => ("s32", "s8", 32),
        other => {
            return Err(PassError::at(
                op,
                format!("cannot multiply {other} on tensor cores"),
            ));
        }
    };
    let [wm, wn] = mma.warps_per_cta.map(i64::from);
    let n = i64::from(mma.instr_n);
    let [rows, cols] = [out.shape[0], out.shape[1]];
    if rows % (16 * wm) != 0 || cols % (n * wn) != 0 {
        return Err(PassError::at(
            op,
            format!(
                "has a {rows}x{cols} accumulator that {mma} does not tile (warpgroups hold 64 rows)"
            ),
        ));
    }
    let (_, _, warp) = e.thread();
    let warp_m = e.digit(warp, 0, wm);
    let warp_n = e.digit(warp, wm.trailing_zeros(), wn);
    // The warpgroup's first row and the warps' first column of `b`.
    let four = e.i32(4);
    let group = e.ir.binary(arith::divui, warp_m, four);
    let c = e.i32(64);
    let group_row = e.ir.binary(arith::muli, group, c);
    let c = e.i32(n);
    let first_col = e.ir.binary(arith::muli, warp_n, c);
    let m_reps = rows / (16 * wm);
    let n_reps = cols / (n * wn);
    let per = (n / 2) as usize;
    let eb = s.a.tile.elem_bytes;
    let steps = s.a.tile.cols * eb / STEP_BYTES;
    let address = shared_address(e);
    let opcode = format!(
        "wgmma.mma_async.sync.aligned.m64n{n}k{}.{}.{}.{}",
        types.2, types.0, types.1, types.1
    );
    let acc_class = if s.inputs == DType::I8 {
        RegClass::B32
    } else {
        RegClass::F32
    };
    e.arch_specific = true;
    fence(e, "wgmma.fence.sync.aligned");
    let mut regs = acc;
    for step in 0..steps {
        let k = step * STEP_BYTES / eb;
        let a_desc: Vec<Val> = (0..m_reps)
            .map(|r| descriptor(e, address, &s.a, group_row, r * 16 * wm, k))
            .collect();
        let b_desc: Vec<Val> = (0..n_reps)
            .map(|r| descriptor(e, address, &s.b, first_col, r * n * wn, k))
            .collect();
        let low = s.low.map(|(a_low, b_low)| {
            let a: Vec<Val> = (0..m_reps)
                .map(|r| descriptor(e, address, &a_low, group_row, r * 16 * wm, k))
                .collect();
            let b: Vec<Val> = (0..n_reps)
                .map(|r| descriptor(e, address, &b_low, first_col, r * n * wn, k))
                .collect();
            (a, b)
        });
        for mr in 0..m_reps as usize {
            for nr in 0..n_reps as usize {
                let at = (mr * n_reps as usize + nr) * per;
                let mut d: Vec<Val> = regs[at..at + per].to_vec();
                if let Some((a_low, b_low)) = &low {
                    // The small products first.
                    d = instruction(e, &opcode, acc_class, a_low[mr], b_desc[nr], d);
                    d = instruction(e, &opcode, acc_class, a_desc[mr], b_low[nr], d);
                }
                d = instruction(e, &opcode, acc_class, a_desc[mr], b_desc[nr], d);
                regs[at..at + per].copy_from_slice(&d);
            }
        }
    }
    fence(e, "wgmma.commit_group.sync.aligned");
    fence(e, "wgmma.wait_group.sync.aligned 0");
    Ok(regs)
}

/// The shared buffer's address in the shared window, as an i64.
fn shared_address<'c>(e: &mut Emitter<'_, 'c>) -> Val {
    let base = e.shared_base();
    let i64 = e.ir.int_type(64);
    e.ir.generic("llvm.ptrtoint", &[base], &[i64], &[])[0]
}

/// The matrix descriptor of the block of `st` whose first row is
/// `first + row` at column (element of K) `k`.
fn descriptor<'c>(
    e: &mut Emitter<'_, 'c>,
    address: Val,
    st: &Staged,
    first: Val,
    row: i64,
    k: i64,
) -> Val {
    let t = &st.tile;
    let i64 = e.ir.int_type(64);
    // Bytes from the tile's start to the block's first row, at K = k.
    let fixed =
        st.at + (k / t.block_cols()) * t.rows * t.swizzle + (k % t.block_cols()) * t.elem_bytes;
    let first = e.ir.cast(arith::extui, first, i64);
    let c = e.int(i64, t.swizzle);
    let rows = e.ir.binary(arith::muli, first, c);
    let c = e.int(i64, fixed + row * t.swizzle);
    let offset = e.ir.binary(arith::addi, rows, c);
    let start = e.ir.binary(arith::addi, address, offset);
    let c = e.int(i64, 4);
    let start = e.ir.binary(arith::shrui, start, c);
    let c = e.int(i64, 0x3fff);
    let start = e.ir.binary(arith::andi, start, c);
    let bits = e.int(i64, t.descriptor_bits() as i64);
    e.ir.binary(arith::ori, start, bits)
}

/// One `wgmma.mma_async` accumulating into `d` (read and written in
/// place): `d += a * b`.
fn instruction<'c>(
    e: &mut Emitter<'_, 'c>,
    opcode: &str,
    class: RegClass,
    a: Val,
    b: Val,
    d: Vec<Val>,
) -> Vec<Val> {
    let mut asm = PtxAsm::new();
    let outs: Vec<_> = d.iter().map(|v| asm.output(class, v.ty())).collect();
    for (&o, &v) in outs.iter().zip(&d) {
        asm.tied(o, v);
    }
    let a = asm.input(RegClass::B64, a);
    let b = asm.input(RegClass::B64, b);
    let scale_d = asm.predicate("p");
    asm.instruction(
        None,
        "setp.ne.b32",
        vec![scale_d.clone(), Arg::Imm(1), Arg::Imm(0)],
    );
    let mut args = vec![Arg::Vector(outs), Arg::Reg(a), Arg::Reg(b), scale_d];
    // Inputs are not negated (imm-scale-a, -b: 1) nor transposed (both
    // K-major); integer products take neither, tf32 no transposes.
    if opcode.ends_with("f16") {
        args.extend([Arg::Imm(1), Arg::Imm(1), Arg::Imm(0), Arg::Imm(0)]);
    } else if opcode.ends_with("tf32") {
        args.extend([Arg::Imm(1), Arg::Imm(1)]);
    }
    asm.instruction(None, opcode, args);
    asm.emit(&e.ir, true)
}

/// An instruction without operands, kept in place (`wgmma.fence...`).
fn fence<'c>(e: &mut Emitter<'_, 'c>, text: &str) {
    let mut asm = PtxAsm::new();
    asm.instruction(None, text, vec![]);
    asm.emit(&e.ir, true);
}
