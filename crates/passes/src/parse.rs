//! Parsing MLIR text into a verified module, with the source's real name in
//! every location and diagnostics returned as values.

use melior::ir::{Module, Operation};
use melior::{Context, StringRef};
use mlir_sys::mlirOperationCreateParse;
use tile_dialect::diagnostics::DiagnosticCapture;
use tile_dialect::{Error, Result};

/// Parses `text` (a `module`, or top-level ops that get an implicit one),
/// naming it `source_name` in locations, then runs MLIR's verifier (during
/// parsing) and the tile rules.
///
/// Text longer than
/// [`MAX_SOURCE_BYTES`](tile_dialect::limits::MAX_SOURCE_BYTES), or with
/// brackets nested more than 256 deep (of every kind together), is refused first.
/// Text that MLIR 22's parser is known to crash on (upstream's mlir-opt
/// too) is refused before it reaches the parser, with the offending line;
/// the known shapes are listed in this module's private `upstream_crash`.
pub fn parse_module<'c>(context: &'c Context, text: &str, source_name: &str) -> Result<Module<'c>> {
    if text.len() > tile_dialect::limits::MAX_SOURCE_BYTES {
        return Err(Error::Parse {
            diagnostics: vec![error_at(
                source_name,
                0,
                0,
                format!(
                    "the text is {} bytes, more than the {} a module may have",
                    text.len(),
                    tile_dialect::limits::MAX_SOURCE_BYTES
                ),
            )],
        });
    }
    if let Some(d) = too_deep(text, source_name).or_else(|| upstream_crash(text, source_name)) {
        return Err(Error::Parse {
            diagnostics: vec![d],
        });
    }
    let capture = DiagnosticCapture::new(context);
    let wrapped;
    let text = if has_top_level_module(text) {
        text
    } else {
        // The opening brace shares the first line, so line numbers stay.
        wrapped = format!("module {{{text}\n}}");
        &wrapped
    };
    // SAFETY: both strings outlive the call; MLIR copies what it keeps.
    // The parser recurses once per nesting level: a stack sized for
    // MAX_BRACKET_DEPTH.
    let raw = crate::stack::with_compile_stack(|| unsafe {
        mlirOperationCreateParse(
            context.to_raw(),
            StringRef::new(text).to_raw(),
            StringRef::new(source_name).to_raw(),
        )
    });
    // SAFETY: a non-null result is an owned operation we now own.
    let op = unsafe { Operation::from_option_raw(raw) };
    let Some(module) = op.and_then(Module::from_operation) else {
        return Err(Error::Parse {
            diagnostics: capture.finish(),
        });
    };
    if !tile_dialect::verify::verify_operation(&module.as_operation()) {
        return Err(Error::Invalid {
            what: source_name.to_string(),
            diagnostics: capture.finish(),
        });
    }
    Ok(module)
}

/// How deep brackets of every kind (`{ [ ( <`, counted together) may nest
/// in parsed text: regions (at most
/// [`MAX_NESTING_DEPTH`](tile_dialect::limits::MAX_NESTING_DEPTH) deep,
/// which the verifier checks) and the attribute dictionaries, types,
/// operand lists and affine maps within them. MLIR's parsers recurse once
/// per bracket (and some, like `!llvm.struct<(`, take quadratic time in
/// the depth), so deeper text is refused before they see it.
pub const MAX_BRACKET_DEPTH: usize = 4 * tile_dialect::limits::MAX_NESTING_DEPTH;

/// An error at the first bracket nested deeper than [`MAX_BRACKET_DEPTH`]
/// (outside strings and `//` comments). `>` closes only after a `<` was
/// opened and not as the head of an arrow (`->`), so function types and
/// affine maps count as they nest.
fn too_deep(text: &str, source_name: &str) -> Option<tile_dialect::Diagnostic> {
    let mut depth = 0usize;
    let mut angles = 0usize;
    for (row, line) in text.lines().enumerate() {
        let mut in_string = false;
        let mut escaped = false;
        let mut previous = '\n';
        for (col, c) in line.char_indices() {
            if in_string {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '/' if previous == '/' => break,
                '"' => in_string = true,
                '{' | '[' | '(' => depth += 1,
                '<' => {
                    depth += 1;
                    angles += 1;
                }
                '}' | ']' | ')' => depth = depth.saturating_sub(1),
                '>' if previous != '-' && angles > 0 => {
                    depth = depth.saturating_sub(1);
                    angles -= 1;
                }
                _ => {}
            }
            previous = c;
            if depth > MAX_BRACKET_DEPTH {
                return Some(error_at(
                    source_name,
                    row,
                    col,
                    format!(
                        "brackets nest more than {MAX_BRACKET_DEPTH} deep: regions may nest at \
                         most {} deep, and the types and attributes within them a few levels \
                         more",
                        tile_dialect::limits::MAX_NESTING_DEPTH
                    ),
                ));
            }
        }
    }
    None
}

/// The largest result number a `%name#N` use may name: MLIR's parser
/// allocates for every number up to it (`%r#2147483647` aborts the
/// process: "LLVM ERROR: out of memory"), and no op has this many results.
pub const MAX_RESULT_NUMBER: u64 = 1 << 16;

/// Constructs MLIR 22's parser crashes on (in upstream's mlir-opt as in
/// ours), found by `tile-tools fuzz`: a dense array of `index` elements
/// (`array<index: 0>`, which the parser builds without checking its
/// element type: a segmentation fault), and a result number above
/// [`MAX_RESULT_NUMBER`] (an abort). Returns an error at the first one
/// outside a `//` comment.
pub fn upstream_crash(text: &str, source_name: &str) -> Option<tile_dialect::Diagnostic> {
    for (row, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or(line);
        if let Some((col, n)) = huge_result_number(code) {
            return Some(error_at(
                source_name,
                row,
                col,
                format!(
                    "result number #{n} is above {MAX_RESULT_NUMBER}: MLIR's parser would \
                     allocate for every number up to it and abort (upstream's mlir-opt 22 too)"
                ),
            ));
        }
        let mut from = 0;
        while let Some(at) = code[from..].find("array<") {
            let start = from + at;
            let rest = code[start + "array<".len()..].trim_start();
            if rest.starts_with("index") {
                return Some(error_at(
                    source_name,
                    row,
                    start,
                    "a dense array of `index` elements (`array<index: ...>`): MLIR's \
                              parser crashes on it (upstream's mlir-opt 22 too); use i32 or i64 \
                              elements"
                        .into(),
                ));
            }
            from = start + "array<".len();
        }
    }
    None
}

/// An error diagnostic at the 0-based `row` and `col` of `source_name`.
fn error_at(
    source_name: &str,
    row: usize,
    col: usize,
    message: String,
) -> tile_dialect::Diagnostic {
    tile_dialect::Diagnostic {
        severity: "error",
        location: format!("{source_name}:{}:{}", row + 1, col + 1),
        message,
    }
}

/// The column and value of the first `#N` (after a `%` name) in `code`
/// with N above [`MAX_RESULT_NUMBER`].
fn huge_result_number(code: &str) -> Option<(usize, u128)> {
    let bytes = code.as_bytes();
    let mut in_name = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'%' {
            in_name = true;
        } else if in_name && b == b'#' {
            let digits: String = code[i + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            // Too many digits for u128 is huge too.
            let n = digits.parse::<u128>().unwrap_or(u128::MAX);
            if !digits.is_empty() && n > u128::from(MAX_RESULT_NUMBER) {
                return Some((i, n));
            }
            in_name = false;
        } else if in_name && !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-'))
        {
            in_name = false;
        }
    }
    None
}

/// True when some line starts (at column 0) with `module`: the text then
/// holds its own module, possibly after attribute aliases.
fn has_top_level_module(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("module"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        let c = Context::new();
        crate::register_all(&c).unwrap();
        c
    }

    /// Asserts `text` is refused before the parser, at `location`, with a
    /// message containing `says`.
    fn refused(c: &Context, text: &str, location: &str, says: &str) {
        let Err(Error::Parse { diagnostics }) = parse_module(c, text, "a.mlir") else {
            panic!("expected a parse error for {text}");
        };
        assert!(
            diagnostics[0].location.starts_with(location),
            "{diagnostics:?}"
        );
        assert!(diagnostics[0].message.contains(says), "{diagnostics:?}");
    }

    #[test]
    fn brackets_in_strings_and_comments_do_not_count_toward_the_depth() {
        let c = context();
        let deep = "{".repeat(MAX_BRACKET_DEPTH + 1);
        let text = format!("func.func @f() attributes {{a = \"{deep}\"}} {{ return }} // {deep}");
        assert!(parse_module(&c, &text, "a.mlir").is_ok());
        // An escaped quote does not end the string.
        let text = format!("func.func @f() attributes {{a = \"\\\"{deep}\"}} {{ return }}");
        assert!(parse_module(&c, &text, "a.mlir").is_ok());
        let close = "]".repeat(MAX_BRACKET_DEPTH + 1);
        let deep_list = "[".repeat(MAX_BRACKET_DEPTH + 1);
        // A lone '/' is not a comment: the brackets after it count.
        let text = format!("func.func @f() {{ return }} / {deep_list}1{close}");
        refused(&c, &text, "a.mlir:1:", "brackets nest more than");
        // After the string's closing quote, brackets count again.
        let text = format!(
            "func.func @f() attributes {{a = \"\\\"\", b = {deep_list}1{close}}} {{ return }}"
        );
        refused(&c, &text, "a.mlir:1:", "brackets nest more than");
        let text = format!("func.func @f() {{ return }}\n{deep}");
        refused(
            &c,
            &text,
            &format!("a.mlir:2:{}", MAX_BRACKET_DEPTH + 1),
            "brackets nest more than",
        );
    }

    #[test]
    fn every_bracket_kind_counts_toward_the_depth() {
        // Each of these crashed the parser at 40,000-60,000 levels (a
        // stack overflow), `!llvm.struct<(` after 15 s of quadratic work.
        let c = context();
        let n = 60_000;
        let deep_array = format!("{}1{}", "[".repeat(n), "]".repeat(n));
        let deep_map = format!("affine_map<(d0) -> ({}d0{})>", "(".repeat(n), ")".repeat(n));
        let deep_struct = format!(
            "!llvm.struct<({}i32{})>",
            "!llvm.struct<(".repeat(n),
            ")>".repeat(n)
        );
        let mixed = format!(
            "{}i32{}",
            "tensor<1x!llvm.struct<([(".repeat(n / 4),
            ")]>)>".repeat(n / 4)
        );
        for attr in [deep_array, deep_map, deep_struct, mixed] {
            let text = format!("func.func @f() attributes {{a = {attr}}} {{ return }}");
            let started = std::time::Instant::now();
            refused(&c, &text, "a.mlir:1:", "brackets nest more than");
            assert!(
                started.elapsed().as_secs() < 5,
                "slow refusal of {}",
                &attr[..40]
            );
        }
        // Angle brackets alone nest too (an array type of arrays).
        let arrays = format!(
            "func.func @f(%a: {}i32{}) {{ return }}",
            "!llvm.array<2 x ".repeat(MAX_BRACKET_DEPTH),
            ">".repeat(MAX_BRACKET_DEPTH)
        );
        refused(&c, &arrays, "a.mlir:1:", "brackets nest more than");
        // A '>' with no '<' open closes nothing.
        let stray = format!(
            "func.func @f(%a: tensor<1xf32>) {{ return }} {}",
            "[>".repeat(MAX_BRACKET_DEPTH + 1)
        );
        refused(&c, &stray, "a.mlir:1:", "brackets nest more than");
        // Angle brackets one after another, on one line, do not add up.
        let many = format!(
            "func.func @f({}%z: i32) {{ return }}",
            (0..2 * MAX_BRACKET_DEPTH)
                .map(|i| format!("%a{i}: tensor<1xf32>, "))
                .collect::<String>()
        );
        assert!(parse_module(&c, &many, "a.mlir").is_ok());
        // Arrows and comparisons do not close anything; legal nesting of
        // every kind parses.
        let ok = "func.func @f(%a: tensor<4x!llvm.struct<(i32, array<2 x i32>)>>) \
                  attributes {m = affine_map<(d0, d1) -> ((d0 + 1) * 2, d1)>, \
                  l = [[1, [2]], {x = [3]}]} { return }";
        assert!(parse_module(&c, ok, "a.mlir").is_ok());
        let arrows = format!(
            "func.func @f() attributes {{m = {}}} {{ return }}",
            "[affine_map<(d0) -> (d0)>, ".repeat(MAX_BRACKET_DEPTH / 2)
                + "1"
                + &"]".repeat(MAX_BRACKET_DEPTH / 2)
        );
        assert!(parse_module(&c, &arrows, "a.mlir").is_ok());
    }

    #[test]
    fn text_up_to_the_size_limit_parses_and_longer_is_refused() {
        let c = context();
        let max = tile_dialect::limits::MAX_SOURCE_BYTES;
        let head = "func.func @f() { return }\n// ";
        let at_limit = format!("{head}{}", "x".repeat(max - head.len()));
        assert_eq!(at_limit.len(), max);
        assert!(parse_module(&c, &at_limit, "a.mlir").is_ok());
        let over = format!("{at_limit}x");
        refused(
            &c,
            &over,
            "a.mlir:1:1",
            "more than the 8388608 a module may have",
        );
    }

    #[test]
    fn known_parser_crashes_are_refused_before_the_parser() {
        // Each crashed the process inside MLIR's parser (found by the
        // fuzzer): now a parse error at the array.
        let c = context();
        for text in [
            "func.func @f() attributes {a = array<index: 0>} { return }",
            "func.func @f() attributes {a = array< index>} { return }",
        ] {
            refused(&c, text, "a.mlir:1:", "array<index");
        }
        // A result number the parser would allocate for (it aborted).
        let text = "func.func @f() -> i32 {\n  %r:2 = \"test.op\"() : () -> (i32, i32)\n  \
                    return %r#2147483647 : i32\n}";
        refused(&c, text, "a.mlir:3:", "#2147483647");
        assert_eq!(huge_result_number("%r#65536"), None);
        assert_eq!(huge_result_number("%r#65537"), Some((2, 65537)));
        assert_eq!(huge_result_number("x#99999999 %a"), None);
        // In a comment, or i64 elements: parsed as usual.
        let ok = "// array<index: 0>\nfunc.func @f() attributes {a = array<i64: 0>} { return }";
        assert!(parse_module(&c, ok, "a.mlir").is_ok());
    }

    #[test]
    fn wraps_bare_functions_and_keeps_line_numbers() {
        let c = context();
        let m = parse_module(&c, "\n\nfunc.func @f() { return }", "a.mlir").unwrap();
        assert!(m.as_operation().to_string().contains("func.func @f"));
        let Err(Error::Parse { diagnostics }) =
            parse_module(&c, "\n\nfunc.func @f( { return }", "a.mlir")
        else {
            panic!("expected a parse error");
        };
        assert!(
            diagnostics[0].location.starts_with("a.mlir:3:"),
            "{diagnostics:?}"
        );
    }

    #[test]
    fn reports_tile_rule_violations_with_locations() {
        let c = context();
        let text = "func.func @f() {\n  %0 = \"tile.program_id\"() {axis = 3 : i32} : () -> i32\n  return\n}";
        let Err(Error::Invalid { diagnostics, .. }) = parse_module(&c, text, "b.mlir") else {
            panic!("expected a verification error");
        };
        assert_eq!(diagnostics[0].location, "b.mlir:2:8");
        assert!(
            diagnostics[0]
                .message
                .contains("grid axis 3 is out of range")
        );
    }
}
