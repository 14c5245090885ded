//! `tile.atomic_rmw` and `tile.atomic_cas`.
//!
//! The interpreter runs one program at a time and the lanes of a program
//! in row-major order, so each atomic is a read, a combination and a
//! write, lane after lane: lanes that hit the same address see each
//! other's updates, as on the GPU in some order. The result is the value
//! each lane found (zero where the mask is off; those lanes touch no
//! memory). Float adds round to the element type; float max and min order
//! values as `f64::total_cmp` does (−0 below +0, NaNs by their sign), which
//! is what the GPU's integer-ordered atomics give; integer max and min are
//! signed; a compare-and-swap compares bit patterns.

use crate::exec::Launch;
use crate::float;
use crate::memory::{checked, mask_operand};
use crate::program::Inst;
use crate::value::{Elems, Tensor, at, wrap};
use tile_dialect::{AtomicKind, DType};
use tile_runtime::Result;

/// The bits of one element as stored (sign-extended for integers).
fn read_bits(l: &Launch, addr: u64, d: DType) -> u64 {
    let size = float::size_of(d) as usize;
    let bytes = l.memory.range(addr, size).expect("the address was checked");
    let mut buf = [0u8; 8];
    buf[..size].copy_from_slice(bytes);
    u64::from_le_bytes(buf)
}

fn write_bits(l: &mut Launch, addr: u64, d: DType, bits: u64) {
    let size = float::size_of(d) as usize;
    let out = l
        .memory
        .range_mut(addr, size)
        .expect("the address was checked");
    out.copy_from_slice(&bits.to_le_bytes()[..size]);
}

/// The bits of value `i` of `v`, an element of `d`.
fn bits_of(v: &Elems, i: usize, d: DType) -> u64 {
    match v {
        Elems::Float(f) => {
            let mut out = [0u8; 8];
            float::float_to_bytes(d, f[at(f.len(), i)], &mut out[..float::size_of(d) as usize]);
            u64::from_le_bytes(out)
        }
        Elems::Int(x) => x[at(x.len(), i)] as u64,
        Elems::Ptr(p) => p[at(p.len(), i)].addr,
    }
}

fn float_of(bits: u64, d: DType) -> f64 {
    float::float_from_bytes(d, &bits.to_le_bytes()[..float::size_of(d) as usize])
}

fn int_of(bits: u64, d: DType) -> i64 {
    wrap(bits as i64, d)
}

/// What `kind` stores given the old bits and the operand's bits.
fn combine(kind: AtomicKind, d: DType, old: u64, val: u64) -> u64 {
    let bits_of_float = |x: f64| {
        let mut out = [0u8; 8];
        float::float_to_bytes(d, x, &mut out[..float::size_of(d) as usize]);
        u64::from_le_bytes(out)
    };
    if d.is_float() {
        let (a, b) = (float_of(old, d), float_of(val, d));
        return match kind {
            AtomicKind::Add => bits_of_float(float::round(a + b, d)),
            AtomicKind::Max => {
                if b.total_cmp(&a).is_gt() {
                    val
                } else {
                    old
                }
            }
            AtomicKind::Min => {
                if b.total_cmp(&a).is_lt() {
                    val
                } else {
                    old
                }
            }
            AtomicKind::Xchg => val,
            AtomicKind::And | AtomicKind::Or | AtomicKind::Xor => {
                unreachable!("the verifier refuses bitwise atomics on floats")
            }
        };
    }
    let (a, b) = (int_of(old, d), int_of(val, d));
    let r = match kind {
        AtomicKind::Add => a.wrapping_add(b),
        AtomicKind::Max => a.max(b),
        AtomicKind::Min => a.min(b),
        AtomicKind::And => a & b,
        AtomicKind::Or => a | b,
        AtomicKind::Xor => a ^ b,
        AtomicKind::Xchg => b,
    };
    wrap(r, d) as u64
}

/// The old values, as a tensor of the result's type.
fn olds(l: &Launch, inst: &Inst, bits: Vec<Option<u64>>) -> Result<Tensor> {
    let (shape, d) = l.result(inst)?;
    let elems = if d.is_float() {
        Elems::Float(
            bits.into_iter()
                .map(|b| b.map_or(0.0, |b| float_of(b, d)))
                .collect(),
        )
    } else {
        Elems::Int(
            bits.into_iter()
                .map(|b| b.map_or(0, |b| int_of(b, d)))
                .collect(),
        )
    };
    Ok(Tensor {
        shape,
        dtype: d,
        elems,
    })
}

/// `tile.atomic_rmw`.
pub fn rmw(l: &mut Launch, inst: &Inst, kind: AtomicKind, has_mask: bool) -> Result<Tensor> {
    let ptrs = l.tensor(inst, 0)?.clone();
    let Some(p) = ptrs.as_ptrs() else {
        return Err(l.malformed(inst, "an atomic through a non-pointer"));
    };
    let value = l.tensor(inst, 1)?.clone();
    let mask = mask_operand(l, inst, 2, has_mask)?;
    let d = ptrs.dtype;
    let size = float::size_of(d);
    let mut found = Vec::with_capacity(p.len());
    for (i, &pi) in p.iter().enumerate() {
        if mask.as_ref().is_some_and(|m| m[at(m.len(), i)] & 1 == 0) {
            found.push(None);
            continue;
        }
        let addr = checked(l, inst, pi, size, true, i, &ptrs.shape)?;
        let old = read_bits(l, addr, d);
        let new = combine(kind, d, old, bits_of(&value.elems, i, d));
        write_bits(l, addr, d, new);
        found.push(Some(old));
    }
    olds(l, inst, found)
}

/// `tile.atomic_cas`.
pub fn cas(l: &mut Launch, inst: &Inst) -> Result<Tensor> {
    let ptrs = l.tensor(inst, 0)?.clone();
    let Some(p) = ptrs.as_ptrs() else {
        return Err(l.malformed(inst, "an atomic through a non-pointer"));
    };
    let cmp = l.tensor(inst, 1)?.clone();
    let value = l.tensor(inst, 2)?.clone();
    let d = ptrs.dtype;
    let size = float::size_of(d);
    let mut found = Vec::with_capacity(p.len());
    for (i, &pi) in p.iter().enumerate() {
        let addr = checked(l, inst, pi, size, true, i, &ptrs.shape)?;
        let old = read_bits(l, addr, d);
        let mask = if size == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * size)) - 1
        };
        if old & mask == bits_of(&cmp.elems, i, d) & mask {
            write_bits(l, addr, d, bits_of(&value.elems, i, d));
        }
        found.push(Some(old));
    }
    olds(l, inst, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_max_orders_like_total_cmp() {
        let d = DType::F32;
        let b = |x: f32| u64::from(x.to_bits());
        assert_eq!(combine(AtomicKind::Max, d, b(-0.0), b(0.0)), b(0.0));
        assert_eq!(combine(AtomicKind::Max, d, b(0.0), b(-0.0)), b(0.0));
        assert_eq!(combine(AtomicKind::Min, d, b(-1.5), b(-2.0)), b(-2.0));
        assert_eq!(combine(AtomicKind::Max, d, b(3.0), b(-7.0)), b(3.0));
        assert_eq!(
            combine(AtomicKind::Add, d, b(1.0), b(2f32.powi(-24))),
            b(1.0)
        );
    }

    #[test]
    fn integers_wrap_and_compare_signed() {
        let d = DType::I32;
        let b = |x: i32| x as i64 as u64;
        assert_eq!(combine(AtomicKind::Add, d, b(i32::MAX), b(1)), b(i32::MIN));
        assert_eq!(combine(AtomicKind::Max, d, b(-1), b(1)), b(1));
        assert_eq!(combine(AtomicKind::Min, d, b(-1), b(1)), b(-1));
        assert_eq!(combine(AtomicKind::Xor, d, b(0b1100), b(0b1010)), b(0b0110));
    }
}
