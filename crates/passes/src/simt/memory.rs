//! Loads and stores as predicated PTX accesses.
//!
//! Each register becomes one `ld.global` / `st.global` in inline PTX.
//! A masked load first moves `other` into the destination, then loads
//! under the mask's predicate (`@p ld.global.b32 r, [a]`), so masked
//! lanes touch no memory and read `other` (zero when the load has none).
//! A masked store is `@p st.global.b32 [a], v`. Stores of replicated
//! tensors are further predicated so that exactly one thread writes each
//! element. No branch is ever generated around an access.

use super::emit::{Emitter, Lowered};
use crate::mirror::Op;
use crate::rewrite::PassError;
use tile_dialect::{DType, Elem, TileType};

/// How an element type moves through PTX registers.
struct Access {
    /// Bits in memory.
    bits: u32,
    /// The integer type the asm operand has.
    int: &'static str,
    /// Its inline-asm constraint.
    constraint: &'static str,
}

fn access(d: DType) -> Access {
    match d.bits() {
        1 | 8 => Access {
            bits: 8,
            int: "i32",
            constraint: "r",
        },
        16 => Access {
            bits: 16,
            int: "i16",
            constraint: "h",
        },
        32 => Access {
            bits: 32,
            int: "i32",
            constraint: "r",
        },
        _ => Access {
            bits: 64,
            int: "i64",
            constraint: "l",
        },
    }
}

/// The state-space, cache and eviction qualifiers of an access
/// (`.global.cg.L1::evict_last`); a volatile load is `.volatile.global`
/// and takes no others.
fn qualifiers(op: &Op) -> String {
    if op.attr("volatile") == Some("true") {
        return ".volatile.global".into();
    }
    let mut q = String::from(".global");
    if let Some(c) = op.str_attr("cache_modifier").filter(|c| !c.is_empty()) {
        q.push('.');
        q.push_str(&c);
    }
    match op.str_attr("eviction_policy").as_deref() {
        Some("evict_first") => q.push_str(".L1::evict_first"),
        Some("evict_last") => q.push_str(".L1::evict_last"),
        _ => {}
    }
    q
}

/// Converts a value of element type `d` to the asm operand's integer.
fn to_bits(e: &mut Emitter, v: &str, d: DType, loc: &str) -> String {
    let a = access(d);
    match d {
        DType::I1 => e.value(&format!("arith.extui {v} : i1 to i32"), loc),
        DType::I8 => e.value(&format!("arith.extui {v} : i8 to i32"), loc),
        DType::I16 | DType::I32 | DType::I64 => v.to_string(),
        _ => e.value(&format!("arith.bitcast {v} : {d} to {}", a.int), loc),
    }
}

/// Converts the asm result back to element type `d`.
fn from_bits(e: &mut Emitter, v: &str, d: DType, loc: &str) -> String {
    let a = access(d);
    match d {
        DType::I1 => {
            let z = e.constant("0", "i32");
            e.value(&format!("arith.cmpi ne, {v}, {z} : i32"), loc)
        }
        DType::I8 => e.value(&format!("arith.trunci {v} : i32 to i8"), loc),
        DType::I16 | DType::I32 | DType::I64 => v.to_string(),
        _ => e.value(&format!("arith.bitcast {v} : {} to {d}", a.int), loc),
    }
}

fn pointee(e: &Emitter, op: &Op) -> Result<DType, PassError> {
    e.tile_type(op.operands[0], op)?
        .elem()
        .and_then(Elem::pointee)
        .ok_or_else(|| PassError::at(op, "expects pointers"))
}

/// What fills the masked lanes of a load.
#[derive(Clone)]
enum Fill {
    /// Nothing: masked lanes hold an undefined value.
    Undefined,
    /// This element-typed value.
    Value(String),
}

/// Emits one access `ld<q>` of an element of type `d` at `ptr`, under
/// `mask` (with `fill` in masked lanes); returns the element.
fn emit_load(e: &mut Emitter, d: DType, ptr: &str, mask: Option<(&str, Fill)>, op: &Op) -> String {
    let a = access(d);
    let q = qualifiers(op);
    let side_effects = if op.attr("volatile") == Some("true") {
        "has_side_effects "
    } else {
        ""
    };
    let ty = format!("{}{}", if a.bits == 8 { "u" } else { "b" }, a.bits);
    let (c, int) = (a.constraint, a.int);
    let text = match mask {
        None => format!(
            "llvm.inline_asm {side_effects}\"ld{q}.{ty} $0, [ $1 ];\", \"={c},l\" {ptr} : (!llvm.ptr<1>) -> {int}"
        ),
        Some((m, Fill::Undefined)) => format!(
            "llvm.inline_asm {side_effects}\"@$2 ld{q}.{ty} $0, [ $1 ];\", \"={c},l,b\" {ptr}, {m} : (!llvm.ptr<1>, i1) -> {int}"
        ),
        Some((m, Fill::Value(o))) => {
            let fill = to_bits(e, &o, d, &op.loc);
            format!(
                "llvm.inline_asm {side_effects}\"mov.b{w} $0, $1;\\0A\\09@$3 ld{q}.{ty} $0, [ $2 ];\", \"={c},{c},l,b\" {fill}, {ptr}, {m} : ({int}, !llvm.ptr<1>, i1) -> {int}",
                w = if a.bits == 8 { 32 } else { a.bits },
            )
        }
    };
    let bits = e.value(&text, &op.loc);
    from_bits(e, &bits, d, &op.loc)
}

/// Emits one store of `value` (type `d`) to `ptr`, under `pred`.
fn emit_store(e: &mut Emitter, d: DType, ptr: &str, value: &str, pred: Option<&str>, op: &Op) {
    let a = access(d);
    let q = qualifiers(op);
    let v = to_bits(e, value, d, &op.loc);
    let (b, c, int) = (a.bits, a.constraint, a.int);
    let text = match pred {
        None => format!(
            "llvm.inline_asm has_side_effects \"st{q}.b{b} [ $0 ], $1;\", \"l,{c}\" {ptr}, {v} : (!llvm.ptr<1>, {int}) -> ()"
        ),
        Some(p) => format!(
            "llvm.inline_asm has_side_effects \"@$2 st{q}.b{b} [ $0 ], $1;\", \"l,{c},b\" {ptr}, {v}, {p} : (!llvm.ptr<1>, {int}, i1) -> ()"
        ),
    };
    e.line(&text, &op.loc);
}

/// The literal zero of an element type.
fn zero(d: DType) -> &'static str {
    match d {
        DType::I1 => "false",
        d if d.is_float() => "0.0",
        _ => "0",
    }
}

/// `a && b` where either may be absent (true).
fn and(e: &mut Emitter, a: Option<String>, b: Option<String>, loc: &str) -> Option<String> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(e.value(&format!("arith.andi {a}, {b} : i1"), loc)),
    }
}

/// Lowers `tile.load`.
pub fn load(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let d = pointee(e, op)?;
    let seg = op.segments().unwrap_or_else(|| vec![1, 0, 0]);
    let mask = (seg.get(1) == Some(&1)).then(|| op.operands[1]);
    let other = (seg.get(2) == Some(&1)).then(|| op.operands[1 + seg[1] as usize]);
    let n = e.registers(op.results[0], op)?;
    let mut out = Vec::new();
    for r in 0..n.unwrap_or(1) {
        let p = e.reg(op.operands[0], r, op)?;
        let masked = match mask {
            None => None,
            Some(m) => {
                let fill = match other {
                    Some(o) => e.reg(o, r, op)?,
                    None => e.constant(zero(d), &super::emit::elem_type(Elem::Num(d))),
                };
                Some((e.reg(m, r, op)?, fill))
            }
        };
        let v = match &masked {
            None => emit_load(e, d, &p, None, op),
            Some((m, fill)) => emit_load(e, d, &p, Some((m, Fill::Value(fill.clone()))), op),
        };
        out.push(v);
    }
    e.set_like(op.results[0], n, out);
    Ok(())
}

/// Lowers `tile.store`.
pub fn store(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let d = pointee(e, op)?;
    let seg = op.segments().unwrap_or_else(|| vec![1, 1, 0]);
    let mask = (seg.get(2) == Some(&1)).then(|| op.operands[2]);
    let n = e.registers(op.operands[0], op)?;
    // Exactly one thread writes each element.
    let owner = match n {
        Some(_) => {
            let (dist, layout) = e.dist(op.operands[0], op)?;
            e.owner(&dist, &layout)
        }
        None => {
            let tid = e.thread_id();
            let z = e.constant("0", "i32");
            Some(e.value(&format!("arith.cmpi eq, {tid}, {z} : i32"), &op.loc))
        }
    };
    for r in 0..n.unwrap_or(1) {
        let p = e.reg(op.operands[0], r, op)?;
        let v = e.reg(op.operands[1], r, op)?;
        let m = mask.map(|m| e.reg(m, r, op)).transpose()?;
        let pred = and(e, m, owner.clone(), &op.loc);
        emit_store(e, d, &p, &v, pred.as_deref(), op);
    }
    Ok(())
}

fn block_dtype(e: &Emitter, op: &Op) -> Result<DType, PassError> {
    match e.tile_type(op.operands[0], op)? {
        TileType::BlockPtr { dtype, .. } => Ok(dtype),
        _ => Err(PassError::at(op, "expects a block pointer")),
    }
}

fn checked_axes(op: &Op) -> Vec<i64> {
    op.array_attr("boundary_check").unwrap_or_default()
}

/// The value out-of-bounds elements read, from the `padding` attribute.
fn padding(e: &mut Emitter, op: &Op, d: DType) -> Result<Fill, PassError> {
    let text = op.attr("padding").unwrap_or("\"zero\"").to_string();
    let ty = super::emit::elem_type(Elem::Num(d));
    let value = match text.as_str() {
        "\"undefined\"" => return Ok(Fill::Undefined),
        "\"zero\"" => zero(d).to_string(),
        "\"nan\"" => match d {
            DType::F16 => "0x7E00".into(),
            DType::BF16 => "0x7FC0".into(),
            DType::F32 => "0x7FC00000".into(),
            DType::F64 => "0x7FF8000000000000".into(),
            _ => return Err(PassError::at(op, "pads an integer block with nan")),
        },
        constant => constant
            .split(" : ")
            .next()
            .unwrap_or(constant)
            .trim()
            .to_string(),
    };
    Ok(Fill::Value(e.constant(&value, &ty)))
}

/// Lowers `tile.block_load`: each register's address from the block
/// pointer's offsets and strides, predicated on the checked axes.
pub fn block_load(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let d = block_dtype(e, op)?;
    let bp = e.get(op.operands[0], op)?;
    let (dist, _) = e.dist(op.results[0], op)?;
    let checked = checked_axes(op);
    let elem = super::emit::memory_type(d);
    let fill = if checked.is_empty() {
        None
    } else {
        Some(padding(e, op, d)?)
    };
    let mut out = Vec::with_capacity(dist.registers());
    for r in 0..dist.registers() {
        let (ptr, inside) = e
            .block_element(&bp, &dist, r, &checked, &elem, &op.loc)
            .map_err(|m| PassError::at(op, m))?;
        let masked = inside.as_deref().zip(fill.clone());
        out.push(emit_load(e, d, &ptr, masked, op));
    }
    e.set(op.results[0], Lowered::Regs(out));
    Ok(())
}

/// Lowers `tile.block_store`: like [`block_load`], and only the owner of
/// each element writes it.
pub fn block_store(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let d = block_dtype(e, op)?;
    let bp = e.get(op.operands[0], op)?;
    let (dist, layout) = e.dist(op.operands[1], op)?;
    let owner = e.owner(&dist, &layout);
    let checked = checked_axes(op);
    let elem = super::emit::memory_type(d);
    for r in 0..dist.registers() {
        let (ptr, inside) = e
            .block_element(&bp, &dist, r, &checked, &elem, &op.loc)
            .map_err(|m| PassError::at(op, m))?;
        let v = e.reg(op.operands[1], r, op)?;
        let pred = and(e, inside, owner.clone(), &op.loc);
        emit_store(e, d, &ptr, &v, pred.as_deref(), op);
    }
    Ok(())
}
