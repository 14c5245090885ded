//! Loads and stores: through tensors of pointers under a mask, and through
//! block pointers with boundary checks and padding.
//!
//! Every access that no mask (or checked axis) covers is checked against
//! the allocation of the kernel parameter its pointer came from, and must
//! be aligned to its element: an access outside is a fault naming the op,
//! its source line, the program and the element, never a read of
//! whatever lies there.

use crate::exec::Launch;
use crate::float;
use crate::program::Inst;
use crate::value::{Elems, Pointer, Tensor, at, unflatten, wrap};
use tile_dialect::{DType, Padding};
use tile_runtime::{InterpretFault, Result};

/// The byte address of `p` after checking that `bytes` bytes there lie in
/// its parameter's allocation and are aligned.
pub(crate) fn checked(
    l: &Launch,
    inst: &Inst,
    p: Pointer,
    bytes: u64,
    write: bool,
    index: usize,
    shape: &[usize],
) -> Result<u64> {
    let allocation = l.allocations.get(p.param as usize).copied().flatten();
    if !allocation.is_some_and(|a| a.contains(p.addr, bytes)) {
        let pointer = l
            .program
            .params
            .get(p.param as usize)
            .map_or_else(|| format!("arg{}", p.param), |x| x.name.clone());
        return Err(l.fault(
            inst,
            InterpretFault::OutOfBounds {
                write,
                index: unflatten(index, shape),
                address: p.addr,
                bytes,
                pointer,
                allocation,
            },
        ));
    }
    if !p.addr.is_multiple_of(bytes) {
        return Err(l.fault(
            inst,
            InterpretFault::Misaligned {
                write,
                index: unflatten(index, shape),
                address: p.addr,
                align: bytes,
            },
        ));
    }
    Ok(p.addr)
}

/// Reads one element of type `d` at a checked address.
fn read(l: &Launch, addr: u64, d: DType) -> Element {
    let bytes = l
        .memory
        .range(addr, float::size_of(d) as usize)
        .expect("the address was checked");
    if d.is_float() {
        Element::Float(float::float_from_bytes(d, bytes))
    } else {
        let mut buf = [0u8; 8];
        buf[..bytes.len()].copy_from_slice(bytes);
        let raw = i64::from_le_bytes(buf);
        Element::Int(if d == DType::I1 {
            (raw != 0) as i64
        } else {
            wrap(raw, d)
        })
    }
}

/// Writes element `i` of `value` at a checked address.
fn write(l: &mut Launch, addr: u64, d: DType, value: &Elems, i: usize) {
    let size = float::size_of(d) as usize;
    let out = l
        .memory
        .range_mut(addr, size)
        .expect("the address was checked");
    match value {
        Elems::Float(v) => float::float_to_bytes(d, v[i], out),
        Elems::Int(v) => out.copy_from_slice(&v[i].to_le_bytes()[..size]),
        Elems::Ptr(v) => out.copy_from_slice(&v[i].addr.to_le_bytes()[..size]),
    }
}

/// One element read from memory.
enum Element {
    Int(i64),
    Float(f64),
}

/// Collects elements into a tensor of type `d`.
fn tensor(shape: Vec<usize>, d: DType, elems: Vec<Element>) -> Tensor {
    let elems = if d.is_float() {
        Elems::Float(
            elems
                .into_iter()
                .map(|e| match e {
                    Element::Float(x) => x,
                    Element::Int(x) => x as f64,
                })
                .collect(),
        )
    } else {
        Elems::Int(
            elems
                .into_iter()
                .map(|e| match e {
                    Element::Int(x) => x,
                    Element::Float(x) => x as i64,
                })
                .collect(),
        )
    };
    Tensor {
        shape,
        dtype: d,
        elems,
    }
}

/// `tile.load`: masked-off lanes touch no memory and read `other` (zero
/// without one).
pub fn load(l: &Launch, inst: &Inst, has_mask: bool, has_other: bool) -> Result<Tensor> {
    let (shape, d) = l.result(inst)?;
    let ptrs = l.tensor(inst, 0)?;
    let Some(p) = ptrs.as_ptrs() else {
        return Err(l.malformed(inst, "loads through a non-pointer"));
    };
    let mask = match has_mask {
        true => Some(
            l.tensor(inst, 1)?
                .as_ints()
                .ok_or_else(|| l.malformed(inst, "mask"))?,
        ),
        false => None,
    };
    let other = match has_other {
        true => Some(l.tensor(inst, 1 + has_mask as usize)?),
        false => None,
    };
    let n: usize = shape.iter().product();
    let size = float::size_of(d);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let on = mask.is_none_or(|m| m[at(m.len(), i)] & 1 != 0);
        if on {
            let addr = checked(l, inst, p[at(p.len(), i)], size, false, i, &shape)?;
            out.push(read(l, addr, d));
        } else {
            out.push(match other.map(|o| &o.elems) {
                Some(Elems::Float(v)) => Element::Float(v[at(v.len(), i)]),
                Some(Elems::Int(v)) => Element::Int(v[at(v.len(), i)]),
                _ => {
                    if d.is_float() {
                        Element::Float(0.0)
                    } else {
                        Element::Int(0)
                    }
                }
            });
        }
    }
    Ok(tensor(shape, d, out))
}

/// Operand `index` as a mask (its lanes' bits), when the op has one.
pub(crate) fn mask_operand(
    l: &Launch,
    inst: &Inst,
    index: usize,
    has_mask: bool,
) -> Result<Option<Vec<i64>>> {
    if !has_mask {
        return Ok(None);
    }
    l.tensor(inst, index)?
        .as_ints()
        .map(|m| Some(m.to_vec()))
        .ok_or_else(|| l.malformed(inst, "mask"))
}

/// `tile.store`: masked-off lanes write nothing.
pub fn store(l: &mut Launch, inst: &Inst, has_mask: bool) -> Result<()> {
    let ptrs = l.tensor(inst, 0)?.clone();
    let Some(p) = ptrs.as_ptrs() else {
        return Err(l.malformed(inst, "stores through a non-pointer"));
    };
    let value = l.tensor(inst, 1)?.clone();
    let mask = mask_operand(l, inst, 2, has_mask)?;
    let d = ptrs.dtype;
    let size = float::size_of(d);
    let n = p.len().max(value.len());
    let shape = if p.len() >= value.len() {
        ptrs.shape.clone()
    } else {
        value.shape.clone()
    };
    for i in 0..n {
        if mask.as_ref().is_some_and(|m| m[at(m.len(), i)] & 1 == 0) {
            continue;
        }
        let addr = checked(l, inst, p[at(p.len(), i)], size, true, i, &shape)?;
        write(l, addr, d, &value.elems, at(value.len(), i));
    }
    Ok(())
}

/// The position of element `index` of a block pointer's block in its view,
/// or `None` when it lies outside the view along a checked axis.
fn position(b: &crate::value::BlockPtr, index: &[i64], check: &[usize]) -> Option<Vec<i64>> {
    let pos: Vec<i64> = b.offsets.iter().zip(index).map(|(o, i)| o + i).collect();
    check
        .iter()
        .all(|&a| pos.get(a).is_some_and(|&p| p >= 0 && p < b.shape[a]))
        .then_some(pos)
}

/// The pointer to the element at `pos` of a block pointer's view.
fn element_pointer(b: &crate::value::BlockPtr, pos: &[i64]) -> Pointer {
    let size = float::size_of(b.dtype) as i64;
    let elems: i64 = pos
        .iter()
        .zip(&b.strides)
        .fold(0i64, |acc, (p, s)| acc.wrapping_add(p.wrapping_mul(*s)));
    Pointer {
        addr: b.base.addr.wrapping_add(elems.wrapping_mul(size) as u64),
        param: b.base.param,
    }
}

fn check_axes(l: &Launch, inst: &Inst, rank: usize, check: &[usize]) -> Result<()> {
    match check.iter().find(|&&a| a >= rank) {
        Some(a) => Err(l.malformed(
            inst,
            &format!("boundary_check names axis {a} of a rank-{rank} block"),
        )),
        None => Ok(()),
    }
}

/// `tile.block_load`: elements outside the view along a checked axis read
/// the padding and touch no memory; the others must be in bounds.
/// [`Padding::Undefined`] reads NaN for floats and 0 for integers (the GPU
/// leaves those elements undefined).
pub fn block_load(l: &Launch, inst: &Inst, check: &[usize], padding: Padding) -> Result<Tensor> {
    let b = l.block_ptr(inst, 0)?;
    let (shape, d) = l.result(inst)?;
    check_axes(l, inst, shape.len(), check)?;
    let n: usize = shape.iter().product();
    let size = float::size_of(d);
    let padding = match (padding, d.is_float()) {
        (Padding::Zero, true) => Element::Float(0.0),
        (Padding::Nan | Padding::Undefined, true) => Element::Float(f64::NAN),
        (Padding::Value(v), true) => Element::Float(v),
        (Padding::Value(v), false) => Element::Int(v as i64),
        (_, false) => Element::Int(0),
    };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let index = unflatten(i, &shape);
        match position(b, &index, check) {
            None => out.push(match padding {
                Element::Float(x) => Element::Float(x),
                Element::Int(x) => Element::Int(x),
            }),
            Some(pos) => {
                let addr = checked(l, inst, element_pointer(b, &pos), size, false, i, &shape)?;
                out.push(read(l, addr, d));
            }
        }
    }
    Ok(tensor(shape, d, out))
}

/// `tile.block_store`: elements outside the view along a checked axis are
/// not written; the others must be in bounds.
pub fn block_store(l: &mut Launch, inst: &Inst, check: &[usize]) -> Result<()> {
    let b = l.block_ptr(inst, 0)?.clone();
    let value = l.tensor(inst, 1)?.clone();
    let shape = b.block.clone();
    check_axes(l, inst, shape.len(), check)?;
    let size = float::size_of(b.dtype);
    for i in 0..value.len() {
        let index = unflatten(i, &shape);
        if let Some(pos) = position(&b, &index, check) {
            let addr = checked(l, inst, element_pointer(&b, &pos), size, true, i, &shape)?;
            write(l, addr, b.dtype, &value.elems, i);
        }
    }
    Ok(())
}
