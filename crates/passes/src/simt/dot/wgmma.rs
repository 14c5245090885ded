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
//! only after `wgmma.commit_group` and `wgmma.wait_group 0`. In a pipelined
//! loop whose next iteration is the only reader of the product, the wait
//! is `wgmma.wait_group 1`: the previous iteration's group retires (its
//! buffers may be refilled) while this one keeps the tensor cores busy.
//!
//! [`SharedTile`]: tile_coalesce::SharedTile

use super::super::builder::Val;
use super::super::emit::Emitter;
use super::super::ptx::{Arg, Operand, PtxAsm, RegClass};
use super::{A, Operands, Staged};
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
    s: &Operands<'_>,
    acc: Vec<Val>,
    in_flight: bool,
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
    let warp = e.uniform_warp();
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
    let eb = s.b.tile.elem_bytes;
    // K as the staged tile of `b` holds it (narrow rows padded).
    let k_extent = if s.b.k_major {
        s.b.tile.cols
    } else {
        s.b.tile.rows
    };
    let steps = k_extent * eb / STEP_BYTES;
    let a = s.a;
    let a_shared = match a {
        A::Shared(st) => Some(st),
        A::Registers(_) => None,
    };
    let transposed = [a_shared.is_some_and(|st| !st.k_major), !s.b.k_major];
    if transposed.iter().any(|&t| t) && !matches!(s.inputs, DType::F16 | DType::BF16) {
        return Err(PassError::at(
            op,
            "multiplies a TF32 or i8 operand whose contiguous axis is not K (wgmma reads those K-major only)",
        ));
    }
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
    let a_base: Vec<Val> = match &a_shared {
        Some(st) => (0..m_reps)
            .map(|r| descriptor(e, address, st, group_row, r * 16 * wm))
            .collect(),
        None => Vec::new(),
    };
    let b_base: Vec<Val> = (0..n_reps)
        .map(|r| descriptor(e, address, &s.b, first_col, r * n * wn))
        .collect();
    let low_base = s.low.map(|(a_low, b_low)| {
        let a: Vec<Val> = (0..m_reps)
            .map(|r| descriptor(e, address, &a_low, group_row, r * 16 * wm))
            .collect();
        let b: Vec<Val> = (0..n_reps)
            .map(|r| descriptor(e, address, &b_low, first_col, r * n * wn))
            .collect();
        (a, b)
    });
    // One asm block: the fence, every instruction, the commit; the
    // accumulator registers read and written in place.
    let mut asm = PtxAsm::new();
    let outs: Vec<Operand> = acc.iter().map(|v| asm.output(acc_class, v.ty())).collect();
    for (&o, &v) in outs.iter().zip(&acc) {
        asm.tied(o, v);
    }
    let scale_d = asm.predicate("p");
    asm.instruction(None, "wgmma.fence.sync.aligned", vec![]);
    asm.instruction(
        None,
        "setp.ne.b32",
        vec![scale_d.clone(), Arg::Imm(1), Arg::Imm(0)],
    );
    for step in 0..steps {
        let k = step * STEP_BYTES / eb;
        let desc = |e: &mut Emitter<'_, 'c>,
                    asm: &mut PtxAsm<'c>,
                    base: &[Val],
                    st: &Staged|
         -> Vec<Operand> {
            base.iter()
                .map(|&d| {
                    let d = at_k(e, d, st, k);
                    asm.input(RegClass::B64, d)
                })
                .collect()
        };
        let a_in: Vec<AIn> = match a {
            A::Registers(words) => words[step as usize]
                .iter()
                .map(|w| AIn::Words(w.map(|v| asm.input(RegClass::B32, v))))
                .collect(),
            A::Shared(st) => desc(e, &mut asm, &a_base, &st)
                .into_iter()
                .map(AIn::Descriptor)
                .collect(),
        };
        let b_desc = desc(e, &mut asm, &b_base, &s.b);
        let low = s
            .low
            .zip(low_base.as_ref())
            .map(|((a_low, b_low), (a, b))| {
                (desc(e, &mut asm, a, &a_low), desc(e, &mut asm, b, &b_low))
            });
        for mr in 0..m_reps as usize {
            for nr in 0..n_reps as usize {
                let at = (mr * n_reps as usize + nr) * per;
                let d = &outs[at..at + per];
                let mut issue =
                    |a, b| instruction(&mut asm, &opcode, a, b, transposed, d, &scale_d);
                if let Some((a_low, b_low)) = &low {
                    // The small products first.
                    issue(AIn::Descriptor(a_low[mr]), b_desc[nr]);
                    issue(a_in[mr], b_low[nr]);
                }
                issue(a_in[mr], b_desc[nr]);
            }
        }
    }
    asm.instruction(None, "wgmma.commit_group.sync.aligned", vec![]);
    let regs = asm.emit(&e.ir, true);
    if in_flight {
        // In a pipelined loop the previous iteration's group is waited
        // for (unless a wait since retired it), this one's left running:
        // only the loop carries its accumulator on, and the next
        // iteration waits for it where it first reads it
        // ([`super::in_flight`]).
        if e.wgmma_may_run {
            fence(e, "wgmma.wait_group.sync.aligned 1");
        }
        e.wgmma_may_run = true;
        Ok(regs)
    } else {
        // Pending accumulators of earlier groups leave through this wait.
        super::in_flight::settle(e, regs, op)
    }
}

/// `wgmma.wait_group pending`, passing the accumulator registers `regs`
/// of the groups it waits for through (tied operands): what reads them
/// uses the values the wait returns, so no instruction is placed between
/// the products and the wait that reads them (`ptxas` would serialize
/// every `wgmma` of the kernel).
pub fn wait<'c>(e: &mut Emitter<'_, 'c>, pending: i64, regs: Vec<Val>) -> Vec<Val> {
    let mut asm = PtxAsm::new();
    for &v in &regs {
        let class = if v.ty() == e.ir.int_type(32) {
            RegClass::B32
        } else {
            RegClass::F32
        };
        let out = asm.output(class, v.ty());
        asm.tied(out, v);
    }
    asm.instruction(
        None,
        &format!("wgmma.wait_group.sync.aligned {pending}"),
        vec![],
    );
    if pending == 0 {
        e.wgmma_may_run = false;
    }
    asm.emit(&e.ir, true)
}

/// The shared buffer's address in the shared window (i32).
fn shared_address<'c>(e: &mut Emitter<'_, 'c>) -> Val {
    let base = e.shared_buffer();
    let i32 = e.ir.int_type(32);
    e.ir.generic("llvm.ptrtoint", &[base], &[i32], &[])[0]
}

/// The matrix descriptor of the block of `st` whose first row (of `a`;
/// column of `b`) is `first + mn`, at K = 0. K-major tiles hold those
/// rows as rows, and K along the columns; MN-major ones the reverse, cut
/// into blocks of columns as wide as the swizzle (the leading offset steps
/// from one to the next). The address is computed in 32 bits and shifted
/// right by 4 into bits 0-13: shared addresses are below 2^18, so it
/// fills the field without a mask. Unmasked, LLVM cannot prove the field
/// disjoint from the layout bits, and each step of K ([`at_k`]) stays a
/// 64-bit add (one uniform add in SASS) rather than becoming an OR with
/// its own constant that `ptxas` rebuilds in both halves before every
/// instruction.
fn descriptor<'c>(e: &mut Emitter<'_, 'c>, address: Val, st: &Staged, first: Val, mn: i64) -> Val {
    let t = &st.tile;
    let c = e.i32(mn);
    let row = e.ir.binary(arith::addi, first, c);
    let (offset, bits) = if st.k_major {
        let c = e.i32(t.swizzle);
        (e.ir.binary(arith::muli, row, c), t.descriptor_bits())
    } else {
        // Row 0 of the column block holding column `row`, at its column.
        let block_cols = t.block_cols();
        let c = e.i32(i64::from(block_cols.trailing_zeros()));
        let block = e.ir.binary(arith::shrui, row, c);
        let c = e.i32(t.rows * t.swizzle);
        let block = e.ir.binary(arith::muli, block, c);
        let c = e.i32(block_cols - 1);
        let within = e.ir.binary(arith::andi, row, c);
        let c = e.i32(t.elem_bytes);
        let within = e.ir.binary(arith::muli, within, c);
        (
            e.ir.binary(arith::addi, block, within),
            t.descriptor_bits_mn_major(),
        )
    };
    let offset = e.ir.binary(arith::addi, offset, st.at);
    let start = e.ir.binary(arith::addi, address, offset);
    let c = e.i32(4);
    let start = e.ir.binary(arith::shrui, start, c);
    let i64 = e.ir.int_type(64);
    let start = e.ir.cast(arith::extui, start, i64);
    let bits = e.int(i64, bits as i64);
    e.ir.binary(arith::ori, start, bits)
}

/// Bytes from an operand's block at K = 0 to the same block at K = `k`
/// (a multiple of 16: each step of an instruction takes 32 bytes of K).
fn k_offset(st: &Staged, k: i64) -> i64 {
    let t = &st.tile;
    if st.k_major {
        (k / t.block_cols()) * t.rows * t.swizzle + (k % t.block_cols()) * t.elem_bytes
    } else {
        k * t.swizzle
    }
}

/// The descriptor `base` (of K = 0) moved to K = `k`: the start address
/// field grows by the offset in units of 16 bytes, without carrying out
/// of it (the address stays inside the shared window).
fn at_k<'c>(e: &mut Emitter<'_, 'c>, base: Val, st: &Staged, k: i64) -> Val {
    if k == 0 {
        return base;
    }
    let i64 = e.ir.int_type(64);
    let c = e.int(i64, k_offset(st, k) / 16);
    e.ir.binary(arith::addi, base, c)
}

/// How one instruction reads `a`.
#[derive(Clone, Copy)]
enum AIn {
    /// Through a matrix descriptor (shared memory).
    Descriptor(Operand),
    /// As four words of registers.
    Words([Operand; 4]),
}

/// One `wgmma.mma_async` accumulating into the outputs `d` of `asm`:
/// `d += a * b`, `scale_d` holding true.
fn instruction(
    asm: &mut PtxAsm<'_>,
    opcode: &str,
    a: AIn,
    b: Operand,
    transposed: [bool; 2],
    d: &[Operand],
    scale_d: &Arg,
) {
    let a_arg = match a {
        AIn::Descriptor(a) => Arg::Reg(a),
        AIn::Words(w) => Arg::Vector(w.to_vec()),
    };
    let mut args = vec![Arg::Vector(d.to_vec()), a_arg, Arg::Reg(b), scale_d.clone()];
    // Inputs are not negated (imm-scale-a, -b: 1); transposed (1) where
    // their contiguous axis is M or N (`a` from registers has no
    // transpose). Integer products take neither, TF32 no transposes.
    if opcode.ends_with("f16") {
        let [ta, tb] = transposed.map(i64::from);
        args.extend([Arg::Imm(1), Arg::Imm(1)]);
        if matches!(a, AIn::Descriptor(_)) {
            args.push(Arg::Imm(ta));
        }
        args.push(Arg::Imm(tb));
    } else if opcode.ends_with("tf32") {
        args.extend([Arg::Imm(1), Arg::Imm(1)]);
    }
    asm.instruction(None, opcode, args);
}

/// An instruction without operands, kept in place (`wgmma.fence...`).
pub fn fence<'c>(e: &mut Emitter<'_, 'c>, text: &str) {
    let mut asm = PtxAsm::new();
    asm.instruction(None, text, vec![]);
    asm.emit(&e.ir, true);
}
