//! One peephole over the PTX LLVM emits: a widening multiply whose only
//! use is a 64-bit add in the same block becomes one `mad.wide`.
//!
//! Every address we compute is `base + sext(offset) * size`. LLVM 22's
//! NVPTX back end selects it as `mul.wide.s32` and `add.s64` and never
//! fuses the two; Triton's LLVM emits `mad.wide.s32`. The PTX is otherwise
//! the same, yet it runs differently: the column sum of a 16384x4096 f32
//! matrix in 32x64 tiles and 4 warps (64 programs, one memory latency an
//! iteration) took 0.648 ms with the pair and 0.472 ms with `mad.wide`
//! (Triton 0.455), on an H200 under the driver's JIT and Triton's `ptxas`
//! 12.8 alike (`bench/results/2026-11-27-h200-mad-wide.md`).
//!
//! The rewrite is exact (`mad.wide.s32 d, a, b, c` is `sext(a) * sext(b)
//! + c` in 64 bits, as the pair computes it) and applies only where it
//! cannot change a value: the product's register is read by that add
//! alone, no label, branch or other mention of the multiply's operands
//! lies between the two, and neither is predicated.
//!
//! ```
//! let ptx = "\tmul.wide.s32 \t%rd7, %r44, 4;\n\tadd.s64 \t%rd3, %rd1, %rd7;\n";
//! assert_eq!(
//!     tile_codegen::ptx_peephole::fuse_mad_wide(ptx),
//!     "\tmad.wide.s32 \t%rd3, %r44, 4, %rd1;\n"
//! );
//! ```

use std::collections::HashMap;

/// `ptx` with every fusable `mul.wide.{s32,u32}` + `add.{s64,u64}` pair
/// replaced by one `mad.wide` at the add (see the module documentation).
pub fn fuse_mad_wide(ptx: &str) -> String {
    let lines: Vec<&str> = ptx.split_inclusive('\n').collect();
    let uses = register_mentions(&lines);
    let mut replaced: HashMap<usize, String> = HashMap::new();
    let mut dropped = vec![false; lines.len()];
    for (i, line) in lines.iter().enumerate() {
        let Some(mul) = parse(line, &["mul.wide.s32", "mul.wide.u32"]) else {
            continue;
        };
        let [product, a, b] = [mul.operands[0], mul.operands[1], mul.operands[2]];
        if uses.get(product) != Some(&2) {
            continue;
        }
        let Some(j) = the_use(&lines, i, product, &[a, b]) else {
            continue;
        };
        let Some(add) = parse(lines[j], &["add.s64", "add.u64"]) else {
            continue;
        };
        let [sum, x, y] = [add.operands[0], add.operands[1], add.operands[2]];
        let other = match (x == product, y == product) {
            (true, false) => y,
            (false, true) => x,
            _ => continue,
        };
        if sum == product || replaced.contains_key(&j) {
            continue;
        }
        let signedness = &mul.opcode["mul.wide.".len()..];
        replaced.insert(
            j,
            format!(
                "{}mad.wide.{signedness} \t{sum}, {a}, {b}, {other};{}",
                add.indent, add.ending
            ),
        );
        dropped[i] = true;
    }
    let mut out = String::with_capacity(ptx.len());
    for (i, line) in lines.iter().enumerate() {
        match (dropped[i], replaced.get(&i)) {
            (true, _) => {}
            (false, Some(fused)) => out.push_str(fused),
            (false, None) => out.push_str(line),
        }
    }
    out
}

/// One unpredicated instruction of three operands.
struct Instruction<'a> {
    indent: &'a str,
    opcode: &'a str,
    operands: [&'a str; 3],
    ending: &'a str,
}

/// `line` as `opcode d, a, b;` for one of `opcodes`, unpredicated.
fn parse<'a>(line: &'a str, opcodes: &[&str]) -> Option<Instruction<'a>> {
    let body = line.trim_end_matches(['\n', '\r']);
    let ending = &line[body.len()..];
    let trimmed = body.trim_start();
    let indent = &body[..body.len() - trimmed.len()];
    let (opcode, rest) = trimmed.split_once(char::is_whitespace)?;
    if !opcodes.contains(&opcode) {
        return None;
    }
    let rest = rest.trim().strip_suffix(';')?;
    let mut parts = rest.split(',').map(str::trim);
    let operands = [parts.next()?, parts.next()?, parts.next()?];
    if parts.next().is_some() || !operands.iter().all(|o| is_operand(o)) {
        return None;
    }
    Some(Instruction {
        indent,
        opcode,
        operands,
        ending,
    })
}

/// A register (`%rd7`) or an integer immediate (`4`, `-8`).
fn is_operand(o: &str) -> bool {
    let digits = o.strip_prefix('-').unwrap_or(o);
    (o.starts_with('%') && o[1..].chars().all(|c| c.is_ascii_alphanumeric()))
        || (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
}

/// The line after `from`, within its block, that mentions `product`:
/// `None` when a label, a branch, a return or a mention of one of
/// `operands` comes first, or the block ends.
fn the_use(lines: &[&str], from: usize, product: &str, operands: &[&str]) -> Option<usize> {
    for (j, line) in lines.iter().enumerate().skip(from + 1) {
        let code = line.split("//").next().unwrap_or(line).trim();
        if code.ends_with(':') || code.contains("bra") || code.starts_with("ret") || code == "}" {
            return None;
        }
        let tokens = registers(code);
        if tokens.contains(&product) {
            return Some(j);
        }
        if operands
            .iter()
            .any(|o| o.starts_with('%') && tokens.contains(o))
        {
            return None;
        }
    }
    None
}

/// How often each register is mentioned in instructions (declarations,
/// which name ranges like `%rd<20>`, do not count).
fn register_mentions<'a>(lines: &[&'a str]) -> HashMap<&'a str, usize> {
    let mut count = HashMap::new();
    for line in lines {
        let code = line.split("//").next().unwrap_or(line);
        for r in registers(code) {
            *count.entry(r).or_insert(0) += 1;
        }
    }
    count
}

/// The registers named in `code`: `%` and then letters and digits, ending
/// in a digit (`%rd12`, `%r3`, `%p1`; not `%rd<12>`, `%tid`).
fn registers(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let name = &code[start..i];
            if name.len() > 1 && name.as_bytes()[name.len() - 1].is_ascii_digit() {
                out.push(name);
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuses_a_widening_multiply_into_its_only_add() {
        let ptx = "\tmul.wide.s32 \t%rd7, %r44, 4;\n\t.loc 1 2 3\n\tadd.s64 \t%rd3, %rd7, %rd1;\n\
                   \tmul.wide.u32 \t%rd8, %r4, %r5;\n\tadd.s64 \t%rd9, %rd2, %rd8;\n";
        assert_eq!(
            fuse_mad_wide(ptx),
            "\t.loc 1 2 3\n\tmad.wide.s32 \t%rd3, %r44, 4, %rd1;\n\
             \tmad.wide.u32 \t%rd9, %r4, %r5, %rd2;\n"
        );
    }

    #[test]
    fn leaves_alone_what_a_fusion_could_change() {
        for ptx in [
            // The product read twice.
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n\tadd.s64 \t%rd3, %rd1, %rd7;\n\tst.u64 [%rd9], %rd7;\n",
            // Its operand written between the two.
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n\tadd.s32 \t%r4, %r4, 1;\n\tadd.s64 \t%rd3, %rd1, %rd7;\n",
            // Another block.
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n$L__BB0_2:\n\tadd.s64 \t%rd3, %rd1, %rd7;\n",
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n\t@%p1 bra $L;\n\tadd.s64 \t%rd3, %rd1, %rd7;\n",
            // Predicated, or a use that is not an add of 64 bits.
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n\t@%p1 add.s64 \t%rd3, %rd1, %rd7;\n",
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n\tsub.s64 \t%rd3, %rd1, %rd7;\n",
            "\tmul.wide.s32 \t%rd7, %r4, 4;\n\tadd.s64 \t%rd3, %rd7, %rd7;\n",
            "\tmul.lo.s32 \t%r7, %r4, 4;\n\tadd.s32 \t%r3, %r1, %r7;\n",
        ] {
            assert_eq!(fuse_mad_wide(ptx), ptx, "{ptx}");
        }
    }

    #[test]
    fn registers_are_whole_names() {
        assert_eq!(
            registers("add.s64 %rd12, %rd1, %rd120; // %x"),
            ["%rd12", "%rd1", "%rd120"]
        );
        assert_eq!(
            registers(".reg .b64 %rd<20>; mov.u32 %r1, %tid.x;"),
            ["%r1"]
        );
    }
}
