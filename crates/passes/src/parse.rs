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
pub fn parse_module<'c>(context: &'c Context, text: &str, source_name: &str) -> Result<Module<'c>> {
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
    let raw = unsafe {
        mlirOperationCreateParse(
            context.to_raw(),
            StringRef::new(text).to_raw(),
            StringRef::new(source_name).to_raw(),
        )
    };
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
