//! Loads and stores as predicated PTX accesses.
//!
//! Each register becomes one `ld.global` / `st.global` in inline PTX.
//! A masked load first moves `other` into the destination, then loads
//! under the mask's predicate (`@p ld.global.b32 r, [a]`), so masked
//! lanes touch no memory and read `other` (zero when the load has none).
//! A masked store is `@p st.global.b32 [a], v`. Stores of replicated
//! tensors are further predicated so that exactly one thread writes each
//! element. No branch is ever generated around an access.

use super::emit::Emitter;
use crate::mirror::Op;
use crate::rewrite::PassError;
use tile_dialect::{DType, Elem};

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

/// Lowers `tile.load`.
pub fn load(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let d = pointee(e, op)?;
    let a = access(d);
    let seg = op.segments().unwrap_or_else(|| vec![1, 0, 0]);
    let mask = (seg.get(1) == Some(&1)).then(|| op.operands[1]);
    let other = (seg.get(2) == Some(&1)).then(|| op.operands[1 + seg[1] as usize]);
    let n = e.registers(op.results[0], op)?;
    let q = qualifiers(op);
    let side_effects = if op.attr("volatile") == Some("true") {
        "has_side_effects "
    } else {
        ""
    };
    let ty = format!("{}{}", if a.bits == 8 { "u" } else { "b" }, a.bits);
    let mut out = Vec::new();
    for r in 0..n.unwrap_or(1) {
        let p = e.reg(op.operands[0], r, op)?;
        let text = match mask {
            None => format!(
                "llvm.inline_asm {side_effects}\"ld{q}.{ty} $0, [ $1 ];\", \"={c},l\" {p} : (!llvm.ptr<1>) -> {int}",
                c = a.constraint,
                int = a.int
            ),
            Some(m) => {
                let m = e.reg(m, r, op)?;
                let fill = match other {
                    Some(o) => {
                        let o = e.reg(o, r, op)?;
                        to_bits(e, &o, d, &op.loc)
                    }
                    None => e.constant("0", a.int),
                };
                format!(
                    "llvm.inline_asm {side_effects}\"mov.b{w} $0, $1;\\0A\\09@$3 ld{q}.{ty} $0, [ $2 ];\", \"={c},{c},l,b\" {fill}, {p}, {m} : ({int}, !llvm.ptr<1>, i1) -> {int}",
                    w = if a.bits == 8 { 32 } else { a.bits },
                    c = a.constraint,
                    int = a.int
                )
            }
        };
        let bits = e.value(&text, &op.loc);
        out.push(from_bits(e, &bits, d, &op.loc));
    }
    e.set_like(op.results[0], n, out);
    Ok(())
}

/// Lowers `tile.store`.
pub fn store(e: &mut Emitter, op: &Op) -> Result<(), PassError> {
    let d = pointee(e, op)?;
    let a = access(d);
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
    let q = qualifiers(op);
    for r in 0..n.unwrap_or(1) {
        let p = e.reg(op.operands[0], r, op)?;
        let v = e.reg(op.operands[1], r, op)?;
        let v = to_bits(e, &v, d, &op.loc);
        let pred = match (mask, &owner) {
            (None, None) => None,
            (None, Some(o)) => Some(o.clone()),
            (Some(m), None) => Some(e.reg(m, r, op)?),
            (Some(m), Some(o)) => {
                let m = e.reg(m, r, op)?;
                Some(e.value(&format!("arith.andi {m}, {o} : i1"), &op.loc))
            }
        };
        let text = match pred {
            None => format!(
                "llvm.inline_asm has_side_effects \"st{q}.b{b} [ $0 ], $1;\", \"l,{c}\" {p}, {v} : (!llvm.ptr<1>, {int}) -> ()",
                b = a.bits,
                c = a.constraint,
                int = a.int
            ),
            Some(pr) => format!(
                "llvm.inline_asm has_side_effects \"@$2 st{q}.b{b} [ $0 ], $1;\", \"l,{c},b\" {p}, {v}, {pr} : (!llvm.ptr<1>, {int}, i1) -> ()",
                b = a.bits,
                c = a.constraint,
                int = a.int
            ),
        };
        e.line(&text, &op.loc);
    }
    Ok(())
}
