//! `mov` between registers: a plain move, packing registers into a wider
//! one (`mov.b64 %rd, {%r1, %r2}`) and unpacking (`mov.b64 {%r1, %r2},
//! %rd`).

use super::thread::{Ctx, Thread};
use crate::ast::Operand;
use crate::decode::Ty;
use crate::value::mask;

/// Runs `mov.ty dst, src`: the value to write to `dst`, or `None` when
/// the move wrote its destinations itself (an unpack). A plain move whose
/// registers are not of the type's width is refused, as `ptxas` refuses
/// it ("Arguments mismatch for instruction 'mov'"): a lowering that moved
/// a 16-bit element with `mov.b64` ran here before.
pub fn mov(
    ctx: &Ctx,
    t: &mut Thread,
    ty: Ty,
    dst: &Operand,
    src: Option<&Operand>,
) -> Result<Option<u64>, String> {
    let src = src.ok_or("operand 1 missing")?;
    match (dst, src) {
        (_, Operand::Vector(parts)) => {
            let w = ty.bits / parts.len() as u32;
            let mut v = 0u64;
            for (k, p) in parts.iter().enumerate() {
                v |= mask(ctx.read(t, p)?, w) << (k as u32 * w);
            }
            Ok(Some(v))
        }
        (Operand::Vector(parts), _) => {
            let v = ctx.read(t, src)?;
            let w = ty.bits / parts.len() as u32;
            for (k, p) in parts.iter().enumerate() {
                ctx.write(t, p, mask(v >> (k as u32 * w), w))?;
            }
            Ok(None)
        }
        _ => {
            for op in [dst, src] {
                if let Operand::Reg(r) = op {
                    let bits = ctx.entry.register_bits[*r as usize];
                    if bits != ty.bits {
                        let name = &ctx.entry.registers[*r as usize];
                        return Err(format!(
                            "a {}-bit mov names {name}, a {bits}-bit register",
                            ty.bits
                        ));
                    }
                }
            }
            Ok(Some(mask(ctx.read(t, src)?, ty.bits)))
        }
    }
}
