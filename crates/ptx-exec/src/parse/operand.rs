//! Operands: registers (numbered per entry), special registers,
//! immediates, symbols, vectors `{a, b}`, addresses `[base+offset]` and
//! `d|p` destination pairs.

use crate::ast::{Operand, Special};
use crate::error::ExecError;
use std::collections::HashMap;

/// The number of register `name`, giving it one when it is new.
pub fn intern(name: &str, regs: &mut HashMap<String, u32>, names: &mut Vec<String>) -> u32 {
    if let Some(&r) = regs.get(name) {
        return r;
    }
    let r = names.len() as u32;
    names.push(name.to_string());
    regs.insert(name.to_string(), r);
    r
}

/// Splits at commas outside braces and brackets.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// Reads the operand list of an instruction.
pub fn operands(
    s: &str,
    line: usize,
    regs: &mut HashMap<String, u32>,
    names: &mut Vec<String>,
) -> Result<Vec<Operand>, ExecError> {
    let mut out = Vec::new();
    for part in split_top(s) {
        // `d|p`: a value and a predicate destination.
        if !part.starts_with('{') && part.contains('|') {
            for half in part.split('|') {
                out.push(operand(half.trim(), line, regs, names)?);
            }
        } else {
            out.push(operand(part, line, regs, names)?);
        }
    }
    Ok(out)
}

fn special(name: &str) -> Option<Special> {
    let axis = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    let (base, dim) = name.split_once('.').unwrap_or((name, ""));
    Some(match base {
        "%tid" => Special::Tid(axis(dim)?),
        "%ntid" => Special::Ntid(axis(dim)?),
        "%ctaid" => Special::Ctaid(axis(dim)?),
        "%nctaid" => Special::Nctaid(axis(dim)?),
        "%laneid" => Special::LaneId,
        "%warpid" => Special::WarpId,
        "%dynamic_smem_size" => Special::DynamicSmemSize,
        _ => return None,
    })
}

fn operand(
    s: &str,
    line: usize,
    regs: &mut HashMap<String, u32>,
    names: &mut Vec<String>,
) -> Result<Operand, ExecError> {
    let bad = || ExecError::Parse {
        line,
        message: format!("unreadable operand `{s}`"),
    };
    if let Some(inner) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let items = split_top(inner)
            .into_iter()
            .map(|p| operand(p, line, regs, names))
            .collect::<Result<_, _>>()?;
        return Ok(Operand::Vector(items));
    }
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let inner: String = inner.chars().filter(|c| !c.is_whitespace()).collect();
        let split = inner
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '+' || c == '-')
            .map(|(i, _)| i);
        let (base, offset) = match split {
            Some(i) => {
                let off = inner[i..].trim_start_matches('+');
                (&inner[..i], immediate(off).ok_or_else(bad)? as i64)
            }
            None => (&inner[..], 0),
        };
        let base = if base.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            Operand::Imm(immediate(base).ok_or_else(bad)?)
        } else {
            operand(base, line, regs, names)?
        };
        return Ok(Operand::Addr {
            base: Box::new(base),
            offset,
        });
    }
    if s == "_" {
        return Ok(Operand::Sink);
    }
    if s.starts_with('%') {
        return Ok(match special(s) {
            Some(sp) => Operand::Special(sp),
            None => Operand::Reg(intern(s, regs, names)),
        });
    }
    if let Some(hex) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        let bits = u32::from_str_radix(hex, 16).map_err(|_| bad())?;
        return Ok(Operand::FImm {
            bits: u64::from(bits),
            double: false,
        });
    }
    if let Some(hex) = s.strip_prefix("0d").or_else(|| s.strip_prefix("0D")) {
        let bits = u64::from_str_radix(hex, 16).map_err(|_| bad())?;
        return Ok(Operand::FImm { bits, double: true });
    }
    if s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return immediate(s).map(Operand::Imm).ok_or_else(bad);
    }
    if let Some(&r) = regs.get(s) {
        return Ok(Operand::Reg(r));
    }
    if s.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$') {
        return Ok(Operand::Symbol(s.to_string()));
    }
    Err(bad())
}

/// An integer immediate: decimal, `0x` hex, `0b` binary, octal with a
/// leading 0, optionally negative, optionally with a `U` suffix; as its
/// 64 bits.
fn immediate(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['U', 'u']);
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = s.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()?
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()?
    } else {
        s.parse::<u64>().ok()?
    };
    Some(if neg { v.wrapping_neg() } else { v })
}
