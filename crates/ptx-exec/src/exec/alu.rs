//! Arithmetic, comparisons and conversions on register bits (no state):
//! each function takes the decoded qualifiers and the operand bits and
//! returns the result bits, or a message for a value it cannot take.

use crate::decode::{Binary, BoolOp, Carry, Cmp, Kind, Round, Ty, Unary};
use crate::value::{flush, fma32, from_f64, int, mask, min_max, sext, to_f64};

/// A `Binary` operation; `Err` with a message for an unsupported case.
pub fn binary(op: Binary, ty: Ty, ftz: bool, nan: bool, a: u64, b: u64) -> Result<u64, String> {
    if ty.is_float() {
        let (a, b) = (flush(a, ty, ftz), flush(b, ty, ftz));
        let (x, y) = (to_f64(a, ty), to_f64(b, ty));
        let r = match op {
            Binary::Add => x + y,
            Binary::Sub => x - y,
            Binary::MulLo => x * y,
            Binary::Div => x / y,
            Binary::Min => min_max(x, y, false, nan),
            Binary::Max => min_max(x, y, true, nan),
            // copysign.f32 d, a, b: b's magnitude, a's sign.
            Binary::Copysign => y.abs() * if x.is_sign_negative() { -1.0 } else { 1.0 },
            _ => return Err(format!("{op:?} on floats")),
        };
        // Exact in f64 for f16/bf16/f32 sums, products and quotients
        // (f64 has more than 2p+2 bits), so one rounding gives RNE; f64
        // operations are native.
        return Ok(flush(from_f64(r, ty), ty, ftz));
    }
    let w = ty.bits;
    let signed = ty.kind == Kind::Signed;
    let (ia, ib) = (int(a, ty), int(b, ty));
    let r: u64 = match op {
        Binary::Add => a.wrapping_add(b),
        Binary::Sub => a.wrapping_sub(b),
        Binary::MulLo => a.wrapping_mul(b),
        Binary::MulHi => ((ia * ib) >> w) as u64,
        Binary::MulWide => return Ok(mask((ia * ib) as u64, 2 * w)),
        // Division by zero: the GPU gives an unspecified value and does not
        // trap; all ones (what it gives for unsigned) for both.
        Binary::Div if ib == 0 => u64::MAX,
        Binary::Div => (ia / ib) as u64,
        Binary::Rem if ib == 0 => a,
        Binary::Rem => (ia % ib) as u64,
        Binary::Min => ia.min(ib) as u64,
        Binary::Max => ia.max(ib) as u64,
        Binary::And => a & b,
        Binary::Or => a | b,
        Binary::Xor => a ^ b,
        // Shift amounts are unsigned 32-bit and clamp at the width.
        Binary::Shl => {
            let n = mask(b, 32);
            if n >= u64::from(w) { 0 } else { a << n }
        }
        Binary::Shr => {
            let n = mask(b, 32);
            if signed {
                (sext(a, w) >> n.min(u64::from(w) - 1)) as u64
            } else if n >= u64::from(w) {
                0
            } else {
                mask(a, w) >> n
            }
        }
        Binary::Copysign => return Err("copysign on integers".into()),
    };
    Ok(if ty.kind == Kind::Pred {
        r & 1
    } else {
        mask(r, w)
    })
}

/// `mad.{lo,hi,wide}` on integers.
pub fn mad(ty: Ty, hi: bool, wide: bool, a: u64, b: u64, c: u64) -> u64 {
    let (ia, ib) = (int(a, ty), int(b, ty));
    let p = ia * ib;
    if wide {
        let wt = Ty {
            kind: ty.kind,
            bits: 2 * ty.bits,
        };
        return mask((p + int(c, wt)) as u64, 2 * ty.bits);
    }
    let part = if hi { p >> ty.bits } else { p };
    mask((part + int(c, ty)) as u64, ty.bits)
}

/// `fma.rn` on floats.
pub fn fma(ty: Ty, a: u64, b: u64, c: u64) -> Result<u64, String> {
    match (ty.kind, ty.bits) {
        (Kind::Float, 32) => {
            let f = |v: u64| f32::from_bits(v as u32);
            let r = fma32(f(a), f(b), f(c));
            Ok(from_f64(f64::from(r), ty))
        }
        (Kind::Float, 64) => Ok(from_f64(
            f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)),
            ty,
        )),
        // f16/bf16: the product is exact in f64 and so is the sum (few
        // bits), rounded once.
        (Kind::Float | Kind::BFloat, 16) => {
            Ok(from_f64(to_f64(a, ty) * to_f64(b, ty) + to_f64(c, ty), ty))
        }
        _ => Err(format!("fma on {ty:?}")),
    }
}

/// A `Unary` operation (see [`crate::value`] for the `.approx` references).
pub fn unary(op: Unary, ty: Ty, ftz: bool, a: u64) -> Result<u64, String> {
    if !ty.is_float() {
        let w = ty.bits;
        return Ok(match op {
            Unary::Neg => mask(a.wrapping_neg(), w),
            Unary::Abs => mask(sext(a, w).wrapping_abs() as u64, w),
            Unary::Not if ty.kind == Kind::Pred => (a & 1) ^ 1,
            Unary::Not => mask(!a, w),
            _ => return Err(format!("{op:?} on integers")),
        });
    }
    let sign = 1u64 << (ty.bits - 1);
    match op {
        Unary::Neg => return Ok(flush(a ^ sign, ty, ftz)),
        Unary::Abs => return Ok(flush(a & !sign, ty, ftz)),
        _ => {}
    }
    let x = to_f64(flush(a, ty, ftz), ty);
    let r = match op {
        Unary::Rcp => 1.0 / x,
        Unary::Sqrt => x.sqrt(),
        Unary::Rsqrt => 1.0 / x.sqrt(),
        Unary::Ex2 => x.exp2(),
        Unary::Lg2 => x.log2(),
        Unary::Tanh => x.tanh(),
        Unary::Sin => x.sin(),
        Unary::Cos => x.cos(),
        _ => return Err(format!("{op:?} on floats")),
    };
    Ok(flush(from_f64(r, ty), ty, ftz))
}

/// A `setp` comparison (before combining).
pub fn compare(cmp: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    if ty.is_float() {
        let (x, y) = (to_f64(a, ty), to_f64(b, ty));
        let nan = x.is_nan() || y.is_nan();
        return match cmp {
            Cmp::Rel { unordered, .. } if nan => unordered,
            Cmp::Rel { rel, .. } => rel.holds(x, y),
            Cmp::Num => !nan,
            Cmp::Nan => nan,
        };
    }
    match cmp {
        Cmp::Rel { rel, .. } => rel.holds(int(a, ty), int(b, ty)),
        Cmp::Num => true,
        Cmp::Nan => false,
    }
}

/// Combines a comparison with `setp`'s predicate operand.
pub fn combine(op: Option<BoolOp>, r: bool, c: bool) -> bool {
    match op {
        None => r,
        Some(BoolOp::And) => r && c,
        Some(BoolOp::Or) => r || c,
        Some(BoolOp::Xor) => r ^ c,
    }
}

/// `bfe`: `len` bits from `pos` of `a`, sign-extended for `.s`.
pub fn bfe(ty: Ty, a: u64, pos: u64, len: u64) -> u64 {
    let w = u64::from(ty.bits);
    let (pos, len) = (pos & 0xff, len & 0xff);
    let bit = |i: u64| (a >> i) & 1;
    let sbit = if ty.kind != Kind::Signed || len == 0 {
        0
    } else {
        bit((pos + len - 1).min(w - 1))
    };
    let mut d = 0u64;
    for i in 0..w {
        let b = if i < len && pos + i < w {
            bit(pos + i)
        } else {
            sbit
        };
        d |= b << i;
    }
    d
}

/// `bfi.ty f, a, b, pos, len`: `b` with its `len` bits from `pos`
/// replaced by the low bits of `a` (those that fit in the width).
pub fn bfi(ty: Ty, [a, b]: [u64; 2], pos: u64, len: u64) -> u64 {
    let w = u64::from(ty.bits);
    let (pos, len) = (pos & 0xff, len & 0xff);
    let mut f = mask(b, ty.bits);
    for i in 0..len {
        if pos + i >= w {
            break;
        }
        let bit = 1u64 << (pos + i);
        f = (f & !bit) | (((a >> i) & 1) << (pos + i));
    }
    f
}

/// `prmt.b32 d, a, b, c` (default mode): byte `i` of `d` is byte
/// `c[4i..4i+3]` of the eight bytes `b:a` (`a` the low four), replaced by
/// that byte's sign (0x00 or 0xff) when `c[4i+3]` is set.
pub fn prmt(a: u64, b: u64, c: u64) -> u64 {
    let bytes = (mask(a, 32) | (mask(b, 32) << 32)).to_le_bytes();
    let mut d = 0u64;
    for i in 0..4 {
        let sel = (c >> (4 * i)) & 0xf;
        let byte = bytes[(sel & 7) as usize];
        let byte = if sel & 8 == 0 {
            byte
        } else if byte & 0x80 != 0 {
            0xff
        } else {
            0
        };
        d |= u64::from(byte) << (8 * i);
    }
    d
}

fn round_f64(x: f64, mode: Round) -> f64 {
    match mode {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// `cvt` from `src` to `dst`.
pub fn cvt(
    dst: Ty,
    src: Ty,
    round: Option<Round>,
    integral: bool,
    sat: bool,
    ftz: bool,
    a: u64,
) -> Result<u64, String> {
    match (dst.is_float(), src.is_float()) {
        (false, false) => {
            let v = int(a, src);
            if sat {
                let (lo, hi) = int_range(dst);
                return Ok(int_result(v.clamp(lo, hi), dst));
            }
            Ok(int_result(v, dst))
        }
        (false, true) => {
            // Float to integer: round as asked (`.rzi` etc.), saturate to
            // the range, NaN to 0 (PTX semantics).
            let mode = round.ok_or("cvt float to integer without a rounding mode")?;
            let x = round_f64(to_f64(flush(a, src, ftz), src), mode);
            if x.is_nan() {
                return Ok(0);
            }
            let (lo, hi) = int_range(dst);
            let v = if x <= lo as f64 {
                lo
            } else if x >= hi as f64 {
                hi
            } else {
                x as i128
            };
            Ok(int_result(v, dst))
        }
        (true, false) => {
            let v = int(a, src);
            let exact = v as f64;
            let mode = round.unwrap_or(Round::Nearest);
            if mode != Round::Nearest && (exact as i128) != v {
                return Err(format!("cvt of {v} to {dst:?} with {mode:?} rounding"));
            }
            // i64 to f32 through f64 could round twice: go direct there.
            let bits = if dst.bits == 32 && dst.kind == Kind::Float {
                let f = if src.kind == Kind::Signed {
                    v as i64 as f32
                } else {
                    v as u64 as f32
                };
                u64::from(f.to_bits())
            } else if (exact as i128) == v {
                from_f64(exact, dst)
            } else {
                return Err(format!("cvt of {v} to {dst:?} is inexact in f64"));
            };
            Ok(sat_float(bits, dst, sat))
        }
        (true, true) => {
            let x = to_f64(flush(a, src, ftz), src);
            let x = if integral {
                round_f64(x, round.unwrap_or(Round::Nearest))
            } else {
                x
            };
            let narrowing = dst.bits < src.bits || dst.kind != src.kind;
            if narrowing && !matches!(round, None | Some(Round::Nearest)) && !integral {
                return Err(format!("cvt to {dst:?} with {round:?} rounding"));
            }
            Ok(sat_float(flush(from_f64(x, dst), dst, ftz), dst, sat))
        }
    }
}

/// An integer result of `cvt` of type `dst`: its low `dst.bits` bits,
/// sign-extended for a signed type. A destination type narrower than the
/// register (`cvt.s8.s32 %rs1, %r1` into a 16-bit register) fills the
/// register's upper bits so (PTX ISA, `cvt`); the register write keeps
/// the register's width.
fn int_result(v: i128, dst: Ty) -> u64 {
    if dst.kind == Kind::Signed {
        sext(v as u64, dst.bits) as u64
    } else {
        mask(v as u64, dst.bits)
    }
}

fn sat_float(bits: u64, ty: Ty, sat: bool) -> u64 {
    if !sat {
        return bits;
    }
    let x = to_f64(bits, ty);
    if x.is_nan() {
        return from_f64(0.0, ty);
    }
    from_f64(x.clamp(0.0, 1.0), ty)
}

fn int_range(ty: Ty) -> (i128, i128) {
    let w = ty.bits;
    if ty.kind == Kind::Signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// `add.cc`/`addc`/`sub.cc`/`subc` on `c.bits`-bit integers: the result
/// and the carry (for a subtraction, the borrow) out.
pub fn carry(c: Carry, a: u64, b: u64, carry_in: bool) -> (u64, bool) {
    let (a, b) = (i128::from(mask(a, c.bits)), i128::from(mask(b, c.bits)));
    let cin = i128::from(c.carry_in && carry_in);
    let r = if c.sub { a - b - cin } else { a + b + cin };
    let out = if c.sub { r < 0 } else { r >> c.bits != 0 };
    (mask(r as u64, c.bits), out)
}

/// `cvt.rna.tf32.f32`: `a` rounded to 10 mantissa bits, ties away from
/// zero, as an f32 whose low 13 bits are zero; NaN stays NaN, and a
/// value rounding past the largest finite one becomes infinite.
pub fn tf32(a: u64) -> u64 {
    let bits = a as u32;
    if f32::from_bits(bits).is_nan() {
        return u64::from(0x7fff_e000u32);
    }
    if bits & 0x7f80_0000 == 0x7f80_0000 {
        return u64::from(bits);
    }
    u64::from(bits.wrapping_add(0x1000) & 0xffff_e000)
}
