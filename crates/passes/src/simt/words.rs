//! Elements as the integers memory accesses move: one element in an asm
//! register (`to_bits`, `from_bits`), or runs of elements packed into
//! 32-bit words, lowest address first (`pack`, `unpack`).

use super::builder::Val;
use super::emit::Emitter;
use super::ptx::RegClass;
use melior::dialect::arith::{self, CmpiPredicate};
use std::collections::HashMap;
use tile_dialect::DType;

/// Bits an element of `d` takes in memory (booleans are bytes).
pub fn memory_bits(d: DType) -> u32 {
    d.bits().max(8)
}

/// The register class an element of `d` travels in through inline asm.
pub fn reg_class(d: DType) -> RegClass {
    match memory_bits(d) {
        8 => RegClass::B32,
        b => RegClass::of_bits(b),
    }
}

/// The PTX type of a one-element access (`u8`, `b16`, `b32`, `b64`).
pub fn access_type(d: DType) -> &'static str {
    match memory_bits(d) {
        8 => "u8",
        16 => "b16",
        32 => "b32",
        _ => "b64",
    }
}

/// The integer type (bits) an element of `d` is carried in through asm.
pub fn carrier_bits(d: DType) -> u32 {
    match memory_bits(d) {
        8 => 32,
        b => b,
    }
}

/// An element of `d` as the integer asm moves (see [`carrier_bits`]).
pub fn to_bits(e: &mut Emitter, v: Val, d: DType) -> Val {
    let carrier = e.ir.int_type(carrier_bits(d));
    match d {
        DType::I1 | DType::I8 => e.ir.cast(arith::extui, v, carrier),
        DType::I16 | DType::I32 | DType::I64 => v,
        _ => e.ir.cast(arith::bitcast, v, carrier),
    }
}

/// The integer asm moved back as an element of `d`.
pub fn from_bits(e: &mut Emitter, v: Val, d: DType) -> Val {
    match d {
        DType::I1 => {
            let z = e.int(v.ty(), 0);
            e.ir.cmpi(CmpiPredicate::Ne, v, z)
        }
        DType::I8 => {
            let ty = e.types.dtype(DType::I8);
            e.ir.cast(arith::trunci, v, ty)
        }
        DType::I16 | DType::I32 | DType::I64 => v,
        _ => {
            let ty = e.types.dtype(d);
            e.ir.cast(arith::bitcast, v, ty)
        }
    }
}

/// Packs elements of `d` into 32-bit words, lowest address first.
pub fn pack(e: &mut Emitter, elems: &[Val], d: DType) -> Vec<Val> {
    // Equal elements (a splat `other`, a padding) are converted once.
    let mut converted: HashMap<Val, Val> = HashMap::new();
    let bits: Vec<Val> = elems
        .iter()
        .map(|&v| {
            if let Some(&b) = converted.get(&v) {
                return b;
            }
            let b = to_bits(e, v, d);
            converted.insert(v, b);
            b
        })
        .collect();
    let i32_ty = e.ir.int_type(32);
    match memory_bits(d) {
        32 => bits,
        64 => {
            let i64_ty = e.ir.int_type(64);
            let c32 = e.int(i64_ty, 32);
            let mut words = Vec::with_capacity(bits.len() * 2);
            for b in bits {
                words.push(e.ir.cast(arith::trunci, b, i32_ty));
                let hi = e.ir.binary(arith::shrui, b, c32);
                words.push(e.ir.cast(arith::trunci, hi, i32_ty));
            }
            words
        }
        width => {
            let per_word = (32 / width) as usize;
            let mask = e.i32(if width == 8 { 0xff } else { 0xffff });
            let mut words = Vec::new();
            for chunk in bits.chunks(per_word) {
                let mut word: Option<Val> = None;
                for (k, &b) in chunk.iter().enumerate() {
                    let wide = if width == 16 {
                        e.ir.cast(arith::extui, b, i32_ty)
                    } else {
                        e.ir.binary(arith::andi, b, mask)
                    };
                    let part = if k == 0 {
                        wide
                    } else {
                        let shift = e.i32(i64::from(k as u32 * width));
                        e.ir.binary(arith::shli, wide, shift)
                    };
                    word = Some(match word {
                        None => part,
                        Some(w) => e.ir.binary(arith::ori, w, part),
                    });
                }
                words.extend(word);
            }
            words
        }
    }
}

/// Unpacks 32-bit words into `count` elements of `d`.
pub fn unpack(e: &mut Emitter, words: &[Val], d: DType, count: usize) -> Vec<Val> {
    let width = memory_bits(d);
    let mut bits = Vec::with_capacity(count);
    match width {
        32 => bits.extend_from_slice(words),
        64 => {
            let i64_ty = e.ir.int_type(64);
            let c32 = e.int(i64_ty, 32);
            for pair in words.chunks(2) {
                let lo = e.ir.cast(arith::extui, pair[0], i64_ty);
                let hi = e.ir.cast(arith::extui, pair[1], i64_ty);
                let hi = e.ir.binary(arith::shli, hi, c32);
                bits.push(e.ir.binary(arith::ori, lo, hi));
            }
        }
        _ => {
            let per_word = (32 / width) as usize;
            let mask = e.i32(0xff);
            let i16_ty = e.ir.int_type(16);
            for &w in words {
                for k in 0..per_word {
                    let shifted = if k == 0 {
                        w
                    } else {
                        let shift = e.i32(i64::from(k as u32 * width));
                        e.ir.binary(arith::shrui, w, shift)
                    };
                    bits.push(if width == 16 {
                        e.ir.cast(arith::trunci, shifted, i16_ty)
                    } else {
                        e.ir.binary(arith::andi, shifted, mask)
                    });
                }
            }
        }
    }
    bits.truncate(count);
    bits.into_iter().map(|b| from_bits(e, b, d)).collect()
}
