//! Loads and stores as predicated PTX accesses.
//!
//! Each register becomes one `ld.global` / `st.global` in inline PTX, or,
//! where `tile-vectorize` set `tile.vector_width = n`, each run of `n`
//! consecutive registers becomes one vector access of 32-bit words
//! (`ld.global.v4.b32` moves 16 bytes) under the predicate of its first
//! element, which the axis analysis proved uniform across the run.
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

/// The elements per access `op` asks for (`tile.vector_width`, 1 when
/// absent), checked against the registers the thread holds contiguously.
fn vector_width(
    e: &Emitter,
    op: &Op,
    tensor: crate::mirror::ValueId,
    d: DType,
) -> Result<usize, PassError> {
    let Some(width) = op.int_attr(crate::vectorize::VECTOR_WIDTH_ATTR) else {
        return Ok(1);
    };
    let (dist, _) = e.dist(tensor, op)?;
    let held = dist.contiguous_registers().map_or(1, |(_, h)| h);
    let bytes = width * i64::from(access(d).bits.max(8) / 8);
    if width < 1
        || (width & (width - 1)) != 0
        || held % width != 0
        || (width > 1 && !(4..=16).contains(&bytes))
    {
        return Err(PassError::at(
            op,
            format!(
                "has {} = {width}, which its layout cannot give: the thread holds {held} \
                 contiguous elements, and a vector must move 4 to 16 bytes",
                crate::vectorize::VECTOR_WIDTH_ATTR
            ),
        ));
    }
    Ok(width as usize)
}

/// Packs elements of type `d` into 32-bit words, lowest address first.
fn pack_words(e: &mut Emitter, elems: &[String], d: DType, loc: &str) -> Vec<String> {
    // Equal elements (a splat `other`, a padding) are converted once.
    let mut converted: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    let bits: Vec<String> = elems
        .iter()
        .map(|v| {
            converted
                .entry(v.as_str())
                .or_insert_with(|| to_bits(e, v, d, loc))
                .clone()
        })
        .collect();
    match access(d).bits {
        32 => bits,
        64 => {
            let c32 = e.constant("32", "i64");
            let mut words = Vec::new();
            for b in bits {
                words.push(e.value(&format!("arith.trunci {b} : i64 to i32"), loc));
                let hi = e.value(&format!("arith.shrui {b}, {c32} : i64"), loc);
                words.push(e.value(&format!("arith.trunci {hi} : i64 to i32"), loc));
            }
            words
        }
        width => {
            let per_word = (32 / width) as usize;
            let mask = e.constant(if width == 8 { "255" } else { "65535" }, "i32");
            let mut words = Vec::new();
            for chunk in bits.chunks(per_word) {
                let mut word: Option<String> = None;
                for (k, b) in chunk.iter().enumerate() {
                    let wide = if width == 16 {
                        e.value(&format!("arith.extui {b} : i16 to i32"), loc)
                    } else {
                        e.value(&format!("arith.andi {b}, {mask} : i32"), loc)
                    };
                    let part = if k == 0 {
                        wide
                    } else {
                        let shift = e.constant(&(k as u32 * width).to_string(), "i32");
                        e.value(&format!("arith.shli {wide}, {shift} : i32"), loc)
                    };
                    word = Some(match word {
                        None => part,
                        Some(w) => e.value(&format!("arith.ori {w}, {part} : i32"), loc),
                    });
                }
                words.extend(word);
            }
            words
        }
    }
}

/// Unpacks 32-bit words into `count` elements of type `d`.
fn unpack_words(
    e: &mut Emitter,
    words: &[String],
    d: DType,
    count: usize,
    loc: &str,
) -> Vec<String> {
    let width = access(d).bits;
    let mut bits = Vec::with_capacity(count);
    match width {
        32 => bits.extend(words.iter().cloned()),
        64 => {
            let c32 = e.constant("32", "i64");
            for pair in words.chunks(2) {
                let lo = e.value(&format!("arith.extui {} : i32 to i64", pair[0]), loc);
                let hi = e.value(&format!("arith.extui {} : i32 to i64", pair[1]), loc);
                let hi = e.value(&format!("arith.shli {hi}, {c32} : i64"), loc);
                bits.push(e.value(&format!("arith.ori {lo}, {hi} : i64"), loc));
            }
        }
        _ => {
            let per_word = (32 / width) as usize;
            let mask = e.constant("255", "i32");
            for w in words {
                for k in 0..per_word {
                    let shifted = if k == 0 {
                        w.clone()
                    } else {
                        let shift = e.constant(&(k as u32 * width).to_string(), "i32");
                        e.value(&format!("arith.shrui {w}, {shift} : i32"), loc)
                    };
                    bits.push(if width == 16 {
                        e.value(&format!("arith.trunci {shifted} : i32 to i16"), loc)
                    } else {
                        e.value(&format!("arith.andi {shifted}, {mask} : i32"), loc)
                    });
                }
            }
        }
    }
    bits.truncate(count);
    bits.into_iter().map(|b| from_bits(e, &b, d, loc)).collect()
}

/// `{$first, ..., $first+n-1}` (or `$first` for one word).
fn word_list(first: usize, n: usize) -> String {
    let regs: Vec<String> = (first..first + n).map(|i| format!("${i}")).collect();
    if n == 1 {
        regs[0].clone()
    } else {
        format!("{{{}}}", regs.join(", "))
    }
}

/// `.v2` / `.v4` for that many words.
fn vector_suffix(n: usize) -> String {
    if n == 1 {
        String::new()
    } else {
        format!(".v{n}")
    }
}

/// Emits one vector load of `width` elements of type `d` at `ptr`, under
/// `mask` with `fill` (one element per lane) in masked lanes; returns the
/// elements.
fn emit_vector_load(
    e: &mut Emitter,
    d: DType,
    width: usize,
    ptr: &str,
    mask: Option<(&str, Option<Vec<String>>)>,
    op: &Op,
) -> Vec<String> {
    let loc = op.loc.clone();
    let n = width * (access(d).bits.max(8) as usize) / 32;
    let q = qualifiers(op);
    let side_effects = if op.attr("volatile") == Some("true") {
        "has_side_effects "
    } else {
        ""
    };
    let outs = vec!["=r"; n].join(",");
    let result_ty = if n == 1 {
        "i32".to_string()
    } else {
        format!("!llvm.struct<({})>", vec!["i32"; n].join(", "))
    };
    let access_text = |pred: Option<usize>, addr: usize| {
        let guard = pred.map(|p| format!("@${p} ")).unwrap_or_default();
        format!(
            "{guard}ld{q}{}.b32 {}, [ ${addr} ];",
            vector_suffix(n),
            word_list(0, n)
        )
    };
    let text = match mask {
        None => format!(
            "llvm.inline_asm {side_effects}\"{}\", \"{outs},l\" {ptr} : (!llvm.ptr<1>) -> {result_ty}",
            access_text(None, n)
        ),
        Some((m, None)) => format!(
            "llvm.inline_asm {side_effects}\"{}\", \"{outs},l,b\" {ptr}, {m} : (!llvm.ptr<1>, i1) -> {result_ty}",
            access_text(Some(n + 1), n)
        ),
        Some((m, Some(fill))) => {
            let words = pack_words(e, &fill, d, &loc);
            let movs: Vec<String> = (0..n)
                .map(|i| format!("mov.b32 ${i}, ${};\\0A\\09", n + i))
                .collect();
            let ins = vec!["r"; n].join(",");
            format!(
                "llvm.inline_asm {side_effects}\"{}{}\", \"{outs},{ins},l,b\" {}, {ptr}, {m} : ({}, !llvm.ptr<1>, i1) -> {result_ty}",
                movs.concat(),
                access_text(Some(2 * n + 1), 2 * n),
                words.join(", "),
                vec!["i32"; n].join(", "),
            )
        }
    };
    let result = e.value(&text, &loc);
    let words: Vec<String> = if n == 1 {
        vec![result]
    } else {
        (0..n)
            .map(|i| {
                e.value(
                    &format!("llvm.extractvalue {result}[{i}] : {result_ty}"),
                    &loc,
                )
            })
            .collect()
    };
    unpack_words(e, &words, d, width, &loc)
}

/// Emits one vector store of `values` (type `d`) to `ptr`, under `pred`.
fn emit_vector_store(
    e: &mut Emitter,
    d: DType,
    ptr: &str,
    values: &[String],
    pred: Option<&str>,
    op: &Op,
) {
    let words = pack_words(e, values, d, &op.loc);
    let n = words.len();
    let q = qualifiers(op);
    let ins = vec!["r"; n].join(",");
    let types = vec!["i32"; n].join(", ");
    let store = format!("st{q}{}.b32 [ $0 ], {};", vector_suffix(n), word_list(1, n));
    let text = match pred {
        None => format!(
            "llvm.inline_asm has_side_effects \"{store}\", \"l,{ins}\" {ptr}, {} : (!llvm.ptr<1>, {types}) -> ()",
            words.join(", ")
        ),
        Some(p) => format!(
            "llvm.inline_asm has_side_effects \"@${} {store}\", \"l,{ins},b\" {ptr}, {}, {p} : (!llvm.ptr<1>, {types}, i1) -> ()",
            n + 1,
            words.join(", ")
        ),
    };
    e.line(&text, &op.loc);
}

/// Stores registers `r .. r + width` of the stored value (`operands[1]`)
/// at `ptr` under `pred`: one vector access, or one scalar when `width`
/// is 1.
fn store_run(
    e: &mut Emitter,
    d: DType,
    ptr: &str,
    r: usize,
    width: usize,
    pred: Option<&str>,
    op: &Op,
) -> Result<(), PassError> {
    if width == 1 {
        let v = e.reg(op.operands[1], r, op)?;
        emit_store(e, d, ptr, &v, pred, op);
        return Ok(());
    }
    let values = (r..r + width)
        .map(|i| e.reg(op.operands[1], i, op))
        .collect::<Result<Vec<_>, _>>()?;
    emit_vector_store(e, d, ptr, &values, pred, op);
    Ok(())
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
    let width = match n {
        Some(_) => vector_width(e, op, op.results[0], d)?,
        None => 1,
    };
    let mut out = Vec::new();
    for r in (0..n.unwrap_or(1)).step_by(width) {
        let p = e.reg(op.operands[0], r, op)?;
        let masked = match mask {
            None => None,
            Some(m) => {
                let mut fill = Vec::with_capacity(width);
                for i in r..r + width {
                    fill.push(match other {
                        Some(o) => e.reg(o, i, op)?,
                        None => e.constant(zero(d), &super::emit::elem_type(Elem::Num(d))),
                    });
                }
                Some((e.reg(m, r, op)?, fill))
            }
        };
        if width > 1 {
            let masked = masked.as_ref().map(|(m, f)| (m.as_str(), Some(f.clone())));
            out.extend(emit_vector_load(e, d, width, &p, masked, op));
            continue;
        }
        let v = match &masked {
            None => emit_load(e, d, &p, None, op),
            Some((m, fill)) => emit_load(e, d, &p, Some((m, Fill::Value(fill[0].clone()))), op),
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
    let width = match n {
        Some(_) => vector_width(e, op, op.operands[1], d)?,
        None => 1,
    };
    for r in (0..n.unwrap_or(1)).step_by(width) {
        let p = e.reg(op.operands[0], r, op)?;
        let m = mask.map(|m| e.reg(m, r, op)).transpose()?;
        let pred = and(e, m, owner.clone(), &op.loc);
        store_run(e, d, &p, r, width, pred.as_deref(), op)?;
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
    let width = vector_width(e, op, op.results[0], d)?;
    let mut out = Vec::with_capacity(dist.registers());
    for r in (0..dist.registers()).step_by(width) {
        let (ptr, inside) = e
            .block_element(&bp, &dist, r, &checked, &elem, &op.loc)
            .map_err(|m| PassError::at(op, m))?;
        if width > 1 {
            let masked = match (&inside, &fill) {
                (Some(m), Some(Fill::Value(v))) => Some((m.as_str(), Some(vec![v.clone(); width]))),
                (Some(m), _) => Some((m.as_str(), None)),
                (None, _) => None,
            };
            out.extend(emit_vector_load(e, d, width, &ptr, masked, op));
            continue;
        }
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
    let width = vector_width(e, op, op.operands[1], d)?;
    for r in (0..dist.registers()).step_by(width) {
        let (ptr, inside) = e
            .block_element(&bp, &dist, r, &checked, &elem, &op.loc)
            .map_err(|m| PassError::at(op, m))?;
        let pred = and(e, inside, owner.clone(), &op.loc);
        store_run(e, d, &ptr, r, width, pred.as_deref(), op)?;
    }
    Ok(())
}
