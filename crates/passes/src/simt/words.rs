//! Elements as the registers memory accesses move: one element in an asm
//! register (`to_bits`, `from_bits`), or a run of elements as 32-bit lanes
//! of a vector access (`to_lanes`, `from_lanes`). An `f32` travels as
//! itself, in an `.f32` register; other types as integers, narrow ones
//! packed into 32-bit words, lowest address first (`pack`, `unpack`).

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
    match (d, memory_bits(d)) {
        (DType::F32, _) => RegClass::F32,
        (_, 16) => RegClass::B16,
        (_, 64) => RegClass::B64,
        // 8-bit values travel in 32-bit registers.
        _ => RegClass::B32,
    }
}

/// The PTX type of a one-element access (`u8`, `b16`, `b32`, `f32`,
/// `b64`).
pub fn access_type(d: DType) -> &'static str {
    match (d, memory_bits(d)) {
        (DType::F32, _) => "f32",
        (_, 8) => "u8",
        (_, 16) => "b16",
        (_, 32) => "b32",
        _ => "b64",
    }
}

/// The PTX type of a one-element store (`b8` for bytes, else as
/// [`access_type`]): a store takes its byte from a wider register.
pub fn store_type(d: DType) -> &'static str {
    match memory_bits(d) {
        8 => "b8",
        _ => access_type(d),
    }
}

/// The PTX type of a `mov` between registers of an element of `d`.
pub fn move_type(d: DType) -> &'static str {
    match (d, carrier_bits(d)) {
        (DType::F32, _) => "f32",
        (_, 16) => "b16",
        (_, 32) => "b32",
        _ => "b64",
    }
}

/// Bits of the register an element of `d` is carried in through asm.
pub fn carrier_bits(d: DType) -> u32 {
    match memory_bits(d) {
        8 => 32,
        b => b,
    }
}

/// The type of the register an element of `d` is carried in.
pub fn carrier_type<'c>(e: &Emitter<'_, 'c>, d: DType) -> melior::ir::Type<'c> {
    match d {
        DType::F32 => e.reg_type(DType::F32),
        _ => e.ir.int_type(carrier_bits(d)),
    }
}

/// An element of `d` as asm moves it (see [`carrier_type`]).
pub fn to_bits(e: &mut Emitter, v: Val, d: DType) -> Val {
    let carrier = carrier_type(e, d);
    match d {
        DType::I1 | DType::I8 | DType::F8E4M3 | DType::F8E5M2 => {
            e.convert(arith::extui, v, carrier)
        }
        DType::I16 | DType::I32 | DType::I64 | DType::F32 => v,
        _ => e.convert(arith::bitcast, v, carrier),
    }
}

/// The register asm moved back as an element of `d`.
pub fn from_bits(e: &mut Emitter, v: Val, d: DType) -> Val {
    match d {
        DType::I1 => {
            let z = e.int(v.ty(), 0);
            e.ir.cmpi(CmpiPredicate::Ne, v, z)
        }
        DType::I8 | DType::F8E4M3 | DType::F8E5M2 => {
            let ty = e.reg_type(DType::I8);
            e.ir.cast(arith::trunci, v, ty)
        }
        DType::I16 | DType::I32 | DType::I64 | DType::F32 => v,
        _ => {
            let ty = e.reg_type(d);
            e.ir.cast(arith::bitcast, v, ty)
        }
    }
}

/// The 32-bit lanes of a vector access of elements of `d`: `f32` itself,
/// else an `i32` word.
pub fn lane_type<'c>(e: &Emitter<'_, 'c>, d: DType) -> melior::ir::Type<'c> {
    match d {
        DType::F32 => e.reg_type(DType::F32),
        _ => e.ir.int_type(32),
    }
}

/// The register class of a lane (see [`lane_type`]).
pub fn lane_class(d: DType) -> RegClass {
    match d {
        DType::F32 => RegClass::F32,
        _ => RegClass::B32,
    }
}

/// The PTX type of a vector access's lanes.
pub fn lane_ptx(d: DType) -> &'static str {
    match d {
        DType::F32 => "f32",
        _ => "b32",
    }
}

/// A run of elements of `d` as the lanes of one vector access ([`pack`]:
/// `f32` elements are their own lanes).
pub fn to_lanes(e: &mut Emitter, elems: &[Val], d: DType) -> Vec<Val> {
    pack(e, elems, d)
}

/// The lanes of a vector access back as `count` elements of `d`
/// ([`unpack`]).
pub fn from_lanes(e: &mut Emitter, lanes: &[Val], d: DType, count: usize) -> Vec<Val> {
    unpack(e, lanes, d, count)
}

/// Pairs of 16-bit elements as 32-bit words, through `vector<2x..>`
/// bitcasts (what the backend turns into one `mov.b32 %r, {%h0, %h1}`,
/// where shifts and masks cost an instruction each).
fn pack_halves(e: &mut Emitter, elems: &[Val], d: DType) -> Vec<Val> {
    // A vector access moves whole words: 16-bit elements come in pairs.
    assert!(
        elems.len().is_multiple_of(2),
        "an odd number ({}) of 16-bit elements packed into words",
        elems.len()
    );
    let ty = e.reg_type(d);
    let pair = e.ir.vector_type(2, ty);
    let i32_ty = e.ir.int_type(32);
    // Equal pairs (a splat `other`, a padding) are packed once.
    let mut packed: HashMap<(Val, Val), Val> = HashMap::new();
    elems
        .chunks_exact(2)
        .map(|chunk| {
            let halves = (chunk[0], chunk[1]);
            if let Some(&word) = packed.get(&halves) {
                return word;
            }
            let mut v = e.ir.poison(pair);
            for (k, h) in [halves.0, halves.1].into_iter().enumerate() {
                let at = e.i32(k as i64);
                v = e.ir.insert_element(v, h, at);
            }
            let word = e.ir.cast(melior::dialect::llvm::bitcast, v, i32_ty);
            packed.insert(halves, word);
            word
        })
        .collect()
}

/// 32-bit words as pairs of 16-bit elements (see [`pack_halves`]).
fn unpack_halves(e: &mut Emitter, words: &[Val], d: DType, count: usize) -> Vec<Val> {
    let ty = e.reg_type(d);
    let pair = e.ir.vector_type(2, ty);
    let mut out = Vec::with_capacity(count);
    for &w in words {
        let v = e.ir.cast(melior::dialect::llvm::bitcast, w, pair);
        for k in 0..2 {
            let at = e.i32(k as i64);
            out.push(e.ir.extract_element(v, at, ty));
        }
    }
    out.truncate(count);
    out
}

/// Packs elements of `d` into 32-bit words, lowest address first (`f32`
/// elements stay `f32`, one a word).
pub fn pack(e: &mut Emitter, elems: &[Val], d: DType) -> Vec<Val> {
    if matches!(d, DType::F16 | DType::BF16 | DType::I16) {
        return pack_halves(e, elems, d);
    }
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
        8 => {
            // Bytes, which `to_bits` zero-extended to 32 bits: four a
            // word, the first in the low byte.
            let mut words = Vec::new();
            for chunk in bits.chunks(4) {
                let mut word: Option<Val> = None;
                for (k, &b) in chunk.iter().enumerate() {
                    let part = if k == 0 {
                        b
                    } else {
                        let shift = e.i32(8 * k as i64);
                        e.ir.binary(arith::shli, b, shift)
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
        other => unreachable!("{other}-bit elements are packed in pairs (pack_halves)"),
    }
}

/// Unpacks 32-bit words into `count` elements of `d`.
pub fn unpack(e: &mut Emitter, words: &[Val], d: DType, count: usize) -> Vec<Val> {
    if matches!(d, DType::F16 | DType::BF16 | DType::I16) {
        return unpack_halves(e, words, d, count);
    }
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
        8 => {
            // Four bytes a word, the first in the low byte.
            let mask = e.i32(0xff);
            for &w in words {
                for k in 0..4 {
                    let shifted = if k == 0 {
                        w
                    } else {
                        let shift = e.i32(8 * k);
                        e.ir.binary(arith::shrui, w, shift)
                    };
                    bits.push(e.ir.binary(arith::andi, shifted, mask));
                }
            }
        }
        other => unreachable!("{other}-bit elements are unpacked in pairs (unpack_halves)"),
    }
    bits.truncate(count);
    bits.into_iter().map(|b| from_bits(e, b, d)).collect()
}
