//! The mutations of a seed: a few random edits of its lines and tokens,
//! biased toward what has broken compilers before (boundary integers,
//! swapped types, text cut short, nesting).

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
    match rng.u8(..8) {
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
}
