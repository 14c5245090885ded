//! Textual pass pipelines that name our passes beside upstream ones, as
//! `mlir-opt`'s do:
//!
//! ```text
//! builtin.module(canonicalize, func.func(tile-assign-layouts, tile-predicate), tile-to-simt)
//! ```
//!
//! MLIR's C API cannot register a pass written outside MLIR in its pass
//! registry, so its pipeline parser does not know ours. [`add_pipeline`]
//! reads the nesting itself: our passes (by flag) are added where they
//! stand, each run of upstream elements is handed to MLIR's parser at its
//! level, and `op-name(...)` nests a pass manager on that op.

use crate::find_pass;
use melior::StringRef;
use melior::pass::OperationPassManager;
use std::ffi::c_void;

/// One element of a pipeline: `name{options}(nested)`.
#[derive(Debug, PartialEq)]
struct Element<'s> {
    /// The pass or op name.
    name: &'s str,
    /// The whole element as written (for upstream passes).
    text: &'s str,
    /// The nested pipeline of an op anchor.
    nested: Option<&'s str>,
}

/// Splits `text` at top-level commas into elements.
fn elements(text: &str) -> Result<Vec<Element<'_>>, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = text.as_bytes();
    for i in 0..=bytes.len() {
        let c = bytes.get(i).copied();
        match c {
            Some(b'(' | b'{') => depth += 1,
            Some(b')' | b'}') => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!(
                        "unbalanced '{}' in pipeline '{text}'",
                        c.unwrap_or(b' ') as char
                    ));
                }
            }
            Some(b',') | None if depth == 0 => {
                let piece = text[start..i].trim();
                if !piece.is_empty() {
                    out.push(element(piece)?);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("unbalanced brackets in pipeline '{text}'"));
    }
    Ok(out)
}

fn element(piece: &str) -> Result<Element<'_>, String> {
    let name_end = piece.find(['{', '(']).unwrap_or(piece.len());
    let name = piece[..name_end].trim();
    if name.is_empty() {
        return Err(format!("a pipeline element without a name: '{piece}'"));
    }
    let nested = match piece.find('(') {
        // A '(' inside options does not start a nested pipeline.
        Some(open) if !piece[..open].contains('{') => {
            let inner = piece[open + 1..]
                .strip_suffix(')')
                .ok_or_else(|| format!("'{piece}' does not end its nested pipeline with ')'"))?;
            Some(inner)
        }
        _ => None,
    };
    Ok(Element {
        name,
        text: piece,
        nested,
    })
}

unsafe extern "C" fn collect_error(message: mlir_sys::MlirStringRef, user: *mut c_void) {
    // SAFETY: `user` is the `String` `add_upstream` passes; MLIR gives
    // `length` readable bytes at `data`.
    unsafe {
        let out = &mut *(user as *mut String);
        let bytes = std::slice::from_raw_parts(message.data as *const u8, message.length);
        out.push_str(&String::from_utf8_lossy(bytes));
    }
}

fn add_upstream(pm: &OperationPassManager, elements: &[&str]) -> Result<(), String> {
    if elements.is_empty() {
        return Ok(());
    }
    let text = elements.join(",");
    let mut error = String::new();
    // SAFETY: the pass manager is live; the text and the error string
    // outlive the call; the callback only appends to the string.
    let result = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            pm.to_raw(),
            StringRef::new(&text).to_raw(),
            Some(collect_error),
            &mut error as *mut String as *mut c_void,
        )
    };
    if result.value == 0 {
        return Err(error);
    }
    Ok(())
}

/// Adds the elements of `text` (`a,b{opt=1},func.func(c)`) to `pm`.
pub fn add_elements(pm: &OperationPassManager, text: &str) -> Result<(), String> {
    add(pm, text).map_err(|e| format!("failed to parse pass pipeline:\n{e}"))
}

fn add(pm: &OperationPassManager, text: &str) -> Result<(), String> {
    let mut upstream: Vec<&str> = Vec::new();
    for e in elements(text)? {
        if let Some(nested) = e.nested {
            add_upstream(pm, &upstream)?;
            upstream.clear();
            add(&pm.nested_under(e.name), nested)?;
        } else if let Some(ours) = find_pass(e.name) {
            if e.text != e.name {
                return Err(format!("pass '{}' takes no options", e.name));
            }
            add_upstream(pm, &upstream)?;
            upstream.clear();
            pm.add_pass((ours.create)());
        } else {
            upstream.push(e.text);
        }
    }
    add_upstream(pm, &upstream)
}

/// Adds a whole pipeline to `pm`, a pass manager on `builtin.module`:
/// `builtin.module(...)`, or just the elements.
pub fn add_pipeline(pm: &OperationPassManager, text: &str) -> Result<(), String> {
    let text = text.trim();
    let inner = text
        .strip_prefix("builtin.module(")
        .and_then(|t| t.strip_suffix(')'))
        .filter(|_| elements(text).is_ok_and(|e| e.len() == 1));
    add_elements(pm, inner.unwrap_or(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_nested_pipelines_and_options() {
        let e =
            elements("canonicalize{max-iterations=2}, func.func(tile-predicate,cse),tile-to-simt")
                .unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].name, "canonicalize");
        assert_eq!(e[0].text, "canonicalize{max-iterations=2}");
        assert_eq!(e[1].nested, Some("tile-predicate,cse"));
        assert_eq!(e[2].nested, None);
        assert!(elements("a(b").is_err());
        assert!(elements("a)").is_err());
        // A '(' inside options belongs to an option's value (a nested
        // pipeline given to an upstream pass), not to this element.
        let e = elements("inline{op-pipelines=func.func(cse)},cse").unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].name, "inline");
        assert_eq!(e[0].text, "inline{op-pipelines=func.func(cse)}");
        assert_eq!(e[0].nested, None);
    }

    #[test]
    fn mixes_our_passes_with_upstream_ones() {
        let context = melior::Context::new();
        crate::register_all(&context).unwrap();
        let pm = melior::pass::PassManager::new(&context);
        let opm = pm.as_operation_pass_manager();
        add_pipeline(
            &opm,
            "builtin.module(canonicalize,func.func(tile-assign-layouts,cse),tile-to-simt)",
        )
        .unwrap();
        assert!(add_pipeline(&opm, "no-such-pass").is_err());
        assert!(add_pipeline(&opm, "tile-predicate{x=1}").is_err());
    }
}
