//! Reading PTX text into a [`Module`]: statements split at `;`, `{` and
//! `}` (blocks such as inline-asm scopes), labels, line directives
//! (`.loc`, `.file`, ...) skipped, `.entry` headers with their `.param`s,
//! `.shared` variables (module or entry level, `extern` for dynamic
//! shared memory), and instructions with their guard and operands.

mod operand;

use crate::ast::{Entry, Instr, Module, Param, SharedVar};
use crate::decode::{Ty, decode};
use crate::error::ExecError;
use std::collections::HashMap;

/// Directives that end at the end of their line (no `;`).
const LINE_DIRECTIVES: &[&str] = &[
    ".loc",
    ".file",
    ".section",
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnreg",
    ".maxclusterrank",
    ".reqnctapercluster",
    ".explicitcluster",
    ".version",
    ".address_size",
    ".pragma",
];

/// A piece of the text: a statement, a label, or a brace.
#[derive(Debug, PartialEq)]
enum Piece {
    Stmt(usize, String),
    Label(String),
    Open,
    Close,
}

/// Splits the text into pieces; each statement keeps the line it starts on.
fn pieces(text: &str, target: &mut String) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    // Depth of `{` inside the current statement (vector operands).
    let mut inner = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix(".target") {
            *target = rest
                .trim()
                .split(',')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            continue;
        }
        if LINE_DIRECTIVES.iter().any(|d| {
            line.starts_with(d)
                && !line[d.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        }) {
            continue;
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if cur.trim().is_empty() {
                start = i + 1;
            }
            match c {
                ';' if inner == 0 => {
                    out.push(Piece::Stmt(
                        start,
                        std::mem::take(&mut cur).trim().to_string(),
                    ));
                }
                '{' if cur.trim().is_empty() || (inner == 0 && cur.trim_end().ends_with(')')) => {
                    let pending = std::mem::take(&mut cur);
                    if !pending.trim().is_empty() {
                        out.push(Piece::Stmt(start, pending.trim().to_string()));
                    }
                    out.push(Piece::Open);
                }
                '}' if inner == 0 => {
                    let pending = std::mem::take(&mut cur);
                    if !pending.trim().is_empty() {
                        out.push(Piece::Stmt(start, pending.trim().to_string()));
                    }
                    out.push(Piece::Close);
                }
                '{' => {
                    inner += 1;
                    cur.push(c);
                }
                '}' => {
                    inner -= 1;
                    cur.push(c);
                }
                ':' if inner == 0
                    && chars.peek() != Some(&':')
                    && !cur.ends_with(':')
                    && is_ident(cur.trim()) =>
                {
                    out.push(Piece::Label(std::mem::take(&mut cur).trim().to_string()));
                }
                _ => cur.push(c),
            }
        }
        cur.push(' ');
    }
    out
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('.')
        && s.chars().all(|c| c.is_alphanumeric() || "_$%".contains(c))
}

/// Reads a whole module.
pub fn parse(text: &str) -> Result<Module, ExecError> {
    let mut module = Module::default();
    let pieces = pieces(text, &mut module.target);
    let mut module_shared: Vec<(String, u64, Option<u64>)> = Vec::new();
    let mut i = 0;
    let mut header: Option<(usize, String)> = None;
    while i < pieces.len() {
        match &pieces[i] {
            Piece::Stmt(line, s) => {
                if let Some(v) = shared_decl(s, *line)? {
                    module_shared.push(v);
                } else {
                    header = Some((*line, s.clone()));
                }
                i += 1;
            }
            Piece::Open => {
                let (line, h) = header.take().unwrap_or_default();
                let end = matching_close(&pieces, i);
                if h.contains(".entry") {
                    let entry = read_entry(&h, line, &pieces[i + 1..end], &module_shared)?;
                    module.entries.push(entry);
                }
                i = end + 1;
            }
            Piece::Label(_) | Piece::Close => i += 1,
        }
    }
    Ok(module)
}

fn matching_close(pieces: &[Piece], open: usize) -> usize {
    let mut depth = 0;
    for (j, p) in pieces.iter().enumerate().skip(open) {
        match p {
            Piece::Open => depth += 1,
            Piece::Close => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    pieces.len()
}

/// `[.extern] .shared [.align N] .type name[size];` as (name, align,
/// size), `None` for other statements.
fn shared_decl(s: &str, line: usize) -> Result<Option<(String, u64, Option<u64>)>, ExecError> {
    let toks: Vec<&str> = s.split_whitespace().collect();
    if !toks.contains(&".shared") || toks.first().is_some_and(|t| !t.starts_with('.')) {
        return Ok(None);
    }
    let bad = || ExecError::Parse {
        line,
        message: format!("unreadable shared declaration `{s}`"),
    };
    let mut align = 1;
    let mut elem = 1;
    for w in toks.windows(2) {
        if w[0] == ".align" {
            align = w[1].parse().map_err(|_| bad())?;
        }
    }
    for t in &toks {
        if let Some(ty) = t.strip_prefix('.').and_then(Ty::parse) {
            elem = u64::from(ty.bytes());
        }
    }
    let last = toks.last().ok_or_else(bad)?;
    let (name, size) = match last.split_once('[') {
        Some((n, rest)) => {
            let n_elems = rest.trim_end_matches(']');
            let size = if n_elems.is_empty() {
                None
            } else {
                Some(n_elems.parse::<u64>().map_err(|_| bad())? * elem)
            };
            (n.to_string(), size)
        }
        None => (last.to_string(), Some(elem)),
    };
    Ok(Some((name, align.max(1), size)))
}

/// Lays shared variables out: static ones in order, each aligned; every
/// dynamic one at the end of the static ones (aligned to 16 at least).
fn lay_out_shared(vars: &[(String, u64, Option<u64>)]) -> (Vec<SharedVar>, u64) {
    let mut out = Vec::new();
    let mut end = 0u64;
    for (name, align, size) in vars {
        if let Some(size) = size {
            let offset = end.div_ceil(*align) * align;
            end = offset + size;
            out.push(SharedVar {
                name: name.clone(),
                offset,
                size: Some(*size),
            });
        }
    }
    // Dynamic shared memory starts at the next 16 bytes; without any, the
    // block has exactly the declared bytes (as the GPU, whose sanitizer
    // reports a read one byte past an odd-sized buffer).
    if vars.iter().all(|(_, _, size)| size.is_some()) {
        return (out, end);
    }
    let dynamic_at = end.div_ceil(16) * 16;
    for (name, align, size) in vars {
        if size.is_none() {
            out.push(SharedVar {
                name: name.clone(),
                offset: dynamic_at.div_ceil(*align) * align,
                size: None,
            });
        }
    }
    (out, dynamic_at)
}

fn read_entry(
    header: &str,
    line: usize,
    body: &[Piece],
    module_shared: &[(String, u64, Option<u64>)],
) -> Result<Entry, ExecError> {
    let bad = |message: String| ExecError::Parse { line, message };
    let name_part = header
        .split(".entry")
        .nth(1)
        .ok_or_else(|| bad("no .entry".into()))?;
    let (name, params_text) = name_part
        .split_once('(')
        .map(|(n, p)| (n.trim(), p.rsplit_once(')').map_or(p, |(a, _)| a)))
        .unwrap_or((name_part.trim(), ""));
    let mut entry = Entry {
        name: name.to_string(),
        ..Entry::default()
    };
    let mut offset = 0u32;
    for p in params_text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let toks: Vec<&str> = p.split_whitespace().collect();
        let ty = toks
            .iter()
            .find_map(|t| t.strip_prefix('.').and_then(Ty::parse))
            .ok_or_else(|| bad(format!("parameter `{p}` has no type")))?;
        let explicit_align = (toks.get(1) == Some(&".align"))
            .then(|| toks.get(2).and_then(|a| a.parse::<u32>().ok()))
            .flatten();
        let last = toks.last().copied().unwrap_or("");
        let (pname, count) = match last.split_once('[') {
            Some((n, c)) => (n, c.trim_end_matches(']').parse::<u32>().unwrap_or(1)),
            None => (last, 1),
        };
        let align = explicit_align.unwrap_or(ty.bytes()).max(1);
        offset = offset.div_ceil(align) * align;
        let size = ty.bytes() * count;
        entry.params.push(Param {
            name: pname.to_string(),
            size,
            offset,
        });
        offset += size;
    }
    entry.param_bytes = offset;
    let mut shared = module_shared.to_vec();
    let mut regs: HashMap<String, u32> = HashMap::new();
    let mut declared: Vec<(String, bool, u32)> = Vec::new();
    for piece in body {
        match piece {
            Piece::Label(l) => {
                entry.labels.insert(l.clone(), entry.body.len());
            }
            Piece::Open | Piece::Close => {}
            Piece::Stmt(line, s) => {
                if let Some(v) = shared_decl(s, *line)? {
                    shared.push(v);
                } else if let Some(decl) = s.strip_prefix(".reg") {
                    // Names without `%` (`.reg .pred p;` in an inline asm
                    // block's scope) are registers where operands name them.
                    for d in register_decl(decl) {
                        if !d.1 {
                            operand::intern(&d.0, &mut regs, &mut entry.registers);
                        }
                        declared.push(d);
                    }
                } else if s.starts_with('.') {
                    let directive = s.split_whitespace().next().unwrap_or(s).to_string();
                    return Err(ExecError::Unsupported {
                        opcode: directive,
                        line: *line,
                    });
                } else {
                    let instr = read_instr(s, *line, &mut regs, &mut entry.registers)?;
                    entry.body.push(instr);
                }
            }
        }
    }
    entry.register_bits = entry
        .registers
        .iter()
        .map(|name| register_bits(name, &declared))
        .collect();
    let (vars, static_bytes) = lay_out_shared(&shared);
    entry.shared = vars;
    entry.static_shared_bytes = static_bytes;
    Ok(entry)
}

/// The names a `.reg` declaration (after `.reg`) declares: `(name or
/// prefix, true for a `prefix<N>` range, width in bits)`.
fn register_decl(decl: &str) -> Vec<(String, bool, u32)> {
    let mut toks = decl.split_whitespace().peekable();
    let mut bits = 64;
    while let Some(t) = toks.peek().and_then(|t| t.strip_prefix('.')) {
        if let Some(ty) = Ty::parse(t) {
            bits = ty.bits;
        }
        toks.next();
    }
    let names: String = toks.collect::<Vec<_>>().join(" ");
    names
        .split(',')
        .map(|n| n.trim().trim_end_matches(';'))
        .filter(|n| !n.is_empty())
        .map(|n| match n.split_once('<') {
            Some((prefix, _)) => (prefix.to_string(), true, bits),
            None => (n.to_string(), false, bits),
        })
        .collect()
}

/// The declared width of register `name` (64 when undeclared).
fn register_bits(name: &str, declared: &[(String, bool, u32)]) -> u32 {
    declared
        .iter()
        .find(|(d, range, _)| match name.strip_prefix(d.as_str()) {
            Some(rest) if *range => !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()),
            Some(rest) => rest.is_empty(),
            None => false,
        })
        .map_or(64, |&(_, _, bits)| bits)
}

fn read_instr(
    s: &str,
    line: usize,
    regs: &mut HashMap<String, u32>,
    names: &mut Vec<String>,
) -> Result<Instr, ExecError> {
    let mut rest = s.trim();
    let mut guard = None;
    if let Some(g) = rest.strip_prefix('@') {
        let (p, r) = g.split_once(char::is_whitespace).unwrap_or((g, ""));
        let (neg, p) = match p.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, p),
        };
        guard = Some((operand::intern(p, regs, names), neg));
        rest = r.trim();
    }
    let (opcode, ops) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let op = decode(opcode).ok_or_else(|| ExecError::Unsupported {
        opcode: opcode.to_string(),
        line,
    })?;
    let operands = operand::operands(ops, line, regs, names)?;
    Ok(Instr {
        line,
        guard,
        opcode: opcode.to_string(),
        op,
        operands,
    })
}
