//! The mutations of a seed: a few random edits of its lines and tokens,
//! biased toward what has broken compilers before (boundary integers,
//! swapped types, text cut short, nesting of regions and of every kind of
//! bracket, huge argument types, tiles and stages scaled past the limits).

/// Integers that sit on a boundary: zero, negatives, the limits of i32 and
/// i64, powers of two around tile limits.
const INTEGERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "3",
    "-2147483648",
    "2147483647",
    "2147483648",
    "4294967296",
    "1048576",
    "1048577",
    "16777216",
    "4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
];

/// Types and attributes to swap in.
const TOKENS: &[&str] = &[
    "i1",
    "i8",
    "i32",
    "i64",
    "f16",
    "bf16",
    "f32",
    "f64",
    "index",
    "1e300",
    "-0.0",
    "0x7FC00000",
    "nan",
    "tensor<0xf32>",
    "tensor<1048576xf32>",
    "tensor<4294967296xf32>",
    "!tile.ptr<f32>",
    "dense<1.0e10>",
    "array<i64: -1>",
    "array<i32: 0, 0>",
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "%0",
    "%arg0",
    "scf.yield",
    "^bb1:",
];

/// `seed` after one to four random edits.
pub fn mutate(seed: &str, rng: &mut fastrand::Rng) -> String {
    let mut text = seed.to_string();
    for _ in 0..rng.usize(1..=4) {
        text = edit(&text, rng);
    }
    text
}

/// One random edit of `text`.
fn edit(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let pick = |rng: &mut fastrand::Rng, n: usize| rng.usize(..n.max(1));
    match rng.u8(..12) {
        // Delete a line.
        0 => {
            let i = pick(rng, lines.len());
            lines.remove(i);
        }
        // Duplicate a line.
        1 => {
            let i = pick(rng, lines.len());
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        // Swap two lines.
        2 => {
            let (i, j) = (pick(rng, lines.len()), pick(rng, lines.len()));
            lines.swap(i, j);
        }
        // Replace an integer by a boundary value.
        3 => return replace_token(text, rng, |t| t.parse::<i64>().is_ok(), INTEGERS),
        // Replace a type or attribute-like token.
        4 => {
            return replace_token(
                text,
                rng,
                |t| t.starts_with('i') || t.starts_with('f') || t.starts_with("bf"),
                TOKENS,
            );
        }
        // Cut the text short.
        5 => {
            let at = rng.usize(..text.len().max(1));
            let mut cut = at;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_string();
        }
        // Insert a token into a line.
        6 => {
            let i = pick(rng, lines.len());
            let token = TOKENS[rng.usize(..TOKENS.len())];
            let line = &mut lines[i];
            let mut at = rng.usize(..=line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            line.insert_str(at, &format!(" {token} "));
        }
        // Brackets of one kind, or mixed, nested deep into a line (each
        // kind once crashed MLIR's recursive parsers at 40,000-60,000).
        8 => {
            let i = pick(rng, lines.len());
            let depth = [200, 300, 5_000, 60_000][rng.usize(..4)];
            let open = BRACKETS[rng.usize(..BRACKETS.len())];
            let closed = rng.bool();
            let line = &mut lines[i];
            let mut at = rng.usize(..=line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            let mut run = open.repeat(depth);
            if closed {
                run.push_str("i32");
                run.push_str(&close(open).repeat(depth));
            }
            line.insert_str(at, &run);
        }
        // A kernel argument of a huge tensor type.
        9 => {
            if let Some(line) = lines.iter_mut().find(|l| l.contains("func.func")) {
                let n =
                    ["1152921504606846976", "2147483648", "1073741824", "1048577"][rng.usize(..4)];
                if let Some(at) = line.find('(') {
                    line.insert_str(at + 1, &format!("%huge: tensor<{n}xf32>, "));
                }
            }
        }
        // A block size scaled everywhere it appears (types and constants
        // alike, so the program often stays valid): tiles past the
        // element limit, products past the shared-memory limit.
        10 => return scale_block(text, rng),
        // Stages past their limits, for the module or a loop.
        11 => {
            let value = ["0", "8", "9", "64", "2147483647"][rng.usize(..5)];
            for line in lines.iter_mut() {
                for key in ["tile.num_stages = ", "tile.loop_stages = "] {
                    if let Some(at) = line.find(key) {
                        let start = at + key.len();
                        let end = line[start..]
                            .find(|c: char| !c.is_ascii_digit())
                            .map_or(line.len(), |e| start + e);
                        line.replace_range(start..end, value);
                    }
                }
            }
        }
        // Wrap a line's body in a copy of an enclosing loop header (deeper
        // nesting) when there is one.
        _ => {
            if let Some(h) = lines.iter().position(|l| l.contains("scf.for")) {
                let header = lines[h].clone();
                for _ in 0..rng.usize(1..=64) {
                    lines.insert(h, header.clone());
                }
            }
        }
    }
    lines.join("\n")
}

/// Openings of nested brackets: each kind MLIR's parsers descend, and
/// mixes of them.
const BRACKETS: &[&str] = &[
    "{",
    "[",
    "(",
    "<",
    "!llvm.struct<(",
    "affine_map<(d0) -> (",
    "tensor<1x!llvm.struct<([(",
];

/// The closing of an opening from [`BRACKETS`], in reverse.
fn close(open: &str) -> String {
    open.chars()
        .rev()
        .filter_map(|c| match c {
            '{' => Some('}'),
            '[' => Some(']'),
            '(' => Some(')'),
            '<' => Some('>'),
            _ => None,
        })
        .collect()
}

/// `text` with one number that appears as a tile dimension (`tensor<64x`,
/// `x64x`, `x64xf32`) multiplied by 2 to 16 everywhere it appears as a
/// whole number.
fn scale_block(text: &str, rng: &mut fastrand::Rng) -> String {
    let dims: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(|word| word.split('x'))
        .filter(|d| d.len() <= 5 && d.parse::<u32>().is_ok_and(|n| n >= 2))
        .collect();
    let Some(&dim) = dims.get(rng.usize(..dims.len().max(1))) else {
        return text.to_string();
    };
    let scaled = (dim.parse::<u64>().unwrap_or(1) * [2, 4, 8, 16][rng.usize(..4)]).to_string();
    let mut out = String::with_capacity(text.len() + 64);
    let mut digits = String::new();
    let mut previous = ' ';
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            let whole = !previous.is_ascii_alphabetic() || previous == 'x';
            out.push_str(if whole && digits == dim {
                &scaled
            } else {
                &digits
            });
            digits.clear();
        }
        previous = c;
        out.push(c);
    }
    out.pop();
    out
}

/// `text` with one whitespace-separated token that `eligible` accepts
/// (stripped of punctuation) replaced by one of `choices`.
fn replace_token(
    text: &str,
    rng: &mut fastrand::Rng,
    eligible: impl Fn(&str) -> bool,
    choices: &[&str],
) -> String {
    let spans: Vec<(usize, usize)> = token_spans(text)
        .into_iter()
        .filter(|&(s, e)| eligible(&text[s..e]))
        .collect();
    if spans.is_empty() {
        return text.to_string();
    }
    let (s, e) = spans[rng.usize(..spans.len())];
    let choice = choices[rng.usize(..choices.len())];
    format!("{}{choice}{}", &text[..s], &text[e..])
}

/// The byte spans of the alphanumeric tokens of `text` (`-`, `.` and `_`
/// included, so numbers and names stay whole).
fn token_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_');
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_change_the_text_and_are_deterministic() {
        let seed = "func.func @k(%a: i32) {\n  %c = arith.constant 4 : i32\n  return\n}\n";
        let (mut a, mut b) = (fastrand::Rng::with_seed(7), fastrand::Rng::with_seed(7));
        let mut changed = 0;
        for _ in 0..50 {
            let x = mutate(seed, &mut a);
            assert_eq!(x, mutate(seed, &mut b));
            changed += usize::from(x != seed);
        }
        assert!(changed > 40, "only {changed} of 50 changed");
    }

    #[test]
    fn tokens_keep_numbers_whole() {
        let text = "x = -12 : i32";
        let spans: Vec<&str> = token_spans(text)
            .iter()
            .map(|&(s, e)| &text[s..e])
            .collect();
        assert_eq!(spans, ["x", "-12", "i32"]);
    }

    #[test]
    fn a_scaled_block_changes_every_whole_occurrence_and_nothing_else() {
        let text = "%c64 = arith.constant 64 : i32\n%t = tile.arange 0, 64 : tensor<64x32xf32>";
        let mut rng = fastrand::Rng::with_seed(3);
        let scaled: Vec<String> = (0..40).map(|_| scale_block(text, &mut rng)).collect();
        // 64 scaled to 128: every whole 64, not the SSA name or the i32.
        let by2 = "%c64 = arith.constant 128 : i32\n%t = tile.arange 0, 128 : tensor<128x32xf32>";
        assert!(scaled.iter().any(|s| s == by2), "{scaled:?}");
        assert!(
            scaled
                .iter()
                .all(|s| s.contains("%c64") && s.contains(": i32"))
        );
        assert!(
            scaled
                .iter()
                .any(|s| s.contains("x64xf32") || s.contains("x128xf32"))
        );
    }

    #[test]
    fn brackets_close_in_reverse() {
        assert_eq!(close("tensor<1x!llvm.struct<([("), ")])>>");
        assert_eq!(close("affine_map<(d0) -> ("), "))>");
        for open in BRACKETS {
            assert_eq!(
                close(open).len(),
                open.chars().filter(|c| "{[(<".contains(*c)).count()
            );
        }
    }
}
