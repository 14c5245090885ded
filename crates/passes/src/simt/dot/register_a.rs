//! A product's left operand read straight from registers: when `a` is
//! itself in the accumulator layout of the product (attention's
//! probabilities, the result of one product rounded to f16 or bf16 and fed
//! to the next), each thread already holds the elements of its fragment.
//!
//! Both `mma.sync.m16n8k16` and `wgmma.m64nNk16` take `a` from registers
//! as four 32-bit words a thread and 16 of K: rows `g` and `g + 8` of the
//! warp's 16 (`g` = lane / 4), columns `2 t` and `2 t + 1`, then the same
//! 8 columns on (`t` = lane % 4), in the order (g, 0), (g + 8, 0),
//! (g, 8), (g + 8, 8). The accumulator layout ([`Mma`]) gives lane `l` the
//! same rows and columns in every 8-column chunk, so when both tensors
//! have the same warps, all along M, each word is two registers of `a`
//! packed, low half first, and no shared memory or barrier is needed.

use super::super::builder::Val;
use super::super::emit::{Emitter, Lowered};
use super::shape2;
use crate::pass::PassError;
use melior::ir::{OperationRef, Value};
use tile_coalesce::{Layout, Mma};
use tile_dialect::DType;

/// The words of `a` for each step of 16 along K (outer) and each block of
/// `16 * warps along M` rows (inner).
pub type Words = Vec<Vec<[Val; 4]>>;

/// `a`'s fragments from its registers, when `a` (of `inputs`, f16 or
/// bf16) is in a layout of the same kind and warps as the product's `out`
/// with every warp along M, and tiles it whole; `None` otherwise (it is
/// then staged in shared memory).
pub fn words<'c>(
    e: &mut Emitter<'_, 'c>,
    op: &OperationRef<'c, '_>,
    a: Value<'c, '_>,
    out: &Mma,
    inputs: DType,
) -> Result<Option<Words>, PassError> {
    if !matches!(inputs, DType::F16 | DType::BF16) {
        return Ok(None);
    }
    let Lowered::Regs(regs) = e.get(a, op)? else {
        return Ok(None);
    };
    let dist = e.dist(a, op)?;
    let Layout::Mma(held) = &dist.1 else {
        return Ok(None);
    };
    let [wm, wn] = held.warps_per_cta.map(i64::from);
    if held.version != out.version || held.warps_per_cta != out.warps_per_cta || wn != 1 {
        return Ok(None);
    }
    let [m, k] = shape2(a, op)?;
    if m % (16 * wm) != 0 || k % 16 != 0 {
        return Ok(None);
    }
    let i32 = e.ir.int_type(32);
    let pair = e.ir.vector_type(2, e.reg_type(inputs));
    let [zero, one] = [e.i32(0), e.i32(1)];
    let mut out = Vec::with_capacity((k / 16) as usize);
    for step in 0..k / 16 {
        let mut blocks = Vec::with_capacity((m / (16 * wm)) as usize);
        for block in 0..m / (16 * wm) {
            let mut words = Vec::with_capacity(4);
            for q in 0..4 {
                let row = block * 16 * wm + 8 * (q & 1);
                let col = 16 * step + 8 * (q >> 1);
                let (Some(lo), Some(hi)) = (
                    dist.0.register_at(&[row, col]),
                    dist.0.register_at(&[row, col + 1]),
                ) else {
                    return Ok(None);
                };
                // A vector of two, as bits: LLVM makes one `cvt.rn.f16x2.f32`
                // of a product's two rounded elements.
                let v = e.ir.poison(pair);
                let v = e.ir.insert_element(v, regs[lo], zero);
                let v = e.ir.insert_element(v, regs[hi], one);
                words.push(e.ir.generic("llvm.bitcast", &[v], &[i32], &[])[0]);
            }
            blocks.push([words[0], words[1], words[2], words[3]]);
        }
        out.push(blocks);
    }
    Ok(Some(out))
}
