//! Running a transformation of a [`Mirror`] as an MLIR pass: read the
//! module, transform, print, parse, and put the result in the module's
//! place. Failures become MLIR error diagnostics at the offending op.

use crate::mirror::{Mirror, Op};
use melior::StringRef;
use melior::ir::OperationRef;
use melior::ir::operation::{OperationLike, OperationMutLike};
use melior::pass::ExternalPass;
use mlir_sys::{
    MlirLocation, mlirBlockAppendOwnedOperation, mlirBlockGetFirstOperation, mlirEmitError,
    mlirOperationCreateParse, mlirOperationDestroy, mlirOperationGetFirstRegion,
    mlirOperationGetLocation, mlirOperationRemoveFromParent, mlirRegionGetFirstBlock,
};
use std::ffi::CString;

/// A failure of one of our passes: where and why.
#[derive(Debug, Clone)]
pub struct PassError {
    /// The op's location, if the failure is about one op.
    pub location: Option<MlirLocation>,
    /// The message, starting with the op's name.
    pub message: String,
}

impl PassError {
    /// A failure at `op`.
    pub fn at(op: &Op, message: impl Into<String>) -> PassError {
        PassError {
            location: op.location,
            message: format!("'{}' op {}", op.name, message.into()),
        }
    }

    /// A failure about the whole module.
    pub fn module(message: impl Into<String>) -> PassError {
        PassError {
            location: None,
            message: message.into(),
        }
    }
}

/// The body of an external pass that rewrites the module through a
/// [`Mirror`]: `transform` gets the mirror and returns the new module text
/// (usually `mirror.print()`).
pub fn run_mirror_pass(
    module: &OperationRef,
    pass: &ExternalPass,
    flag: &str,
    transform: impl FnOnce(Mirror) -> Result<String, PassError>,
) {
    let outcome = Mirror::read(module)
        .map_err(|e| PassError {
            location: None,
            message: format!("'{}' op at {}: {}", e.op, e.loc, e.message),
        })
        .and_then(transform)
        .and_then(|text| replace_module(module, &text, flag));
    if let Err(e) = outcome {
        // SAFETY: the module op is live for the duration of the pass.
        let fallback = unsafe { mlirOperationGetLocation(module.to_raw()) };
        emit_error(e.location.unwrap_or(fallback), &e.message);
        pass.signal_failure();
    }
}

/// Emits an MLIR error diagnostic.
pub fn emit_error(location: MlirLocation, message: &str) {
    let message = CString::new(message.replace('\0', " ")).expect("no interior NULs");
    // SAFETY: the location belongs to the live context; MLIR copies the text.
    unsafe { mlirEmitError(location, message.as_ptr()) };
}

/// Replaces the body and attributes of `module` with those of the module
/// in `text`.
fn replace_module(module: &OperationRef, text: &str, flag: &str) -> Result<(), PassError> {
    let context = module.context();
    let source = format!("<{flag} output>");
    // SAFETY: the strings outlive the call; MLIR copies what it keeps.
    let parsed = unsafe {
        mlirOperationCreateParse(
            context.to_ref().to_raw(),
            StringRef::new(text).to_raw(),
            StringRef::new(&source).to_raw(),
        )
    };
    if parsed.ptr.is_null() {
        return Err(PassError::module(format!(
            "internal error: {flag} produced IR that MLIR rejects (see the diagnostics above); \
             it was:\n{text}"
        )));
    }
    // SAFETY: `parsed` is a module op we own; `module` is live. Ops move
    // from one block to the other; the old ones are destroyed.
    unsafe {
        let old_body = mlirRegionGetFirstBlock(mlirOperationGetFirstRegion(module.to_raw()));
        loop {
            let op = mlirBlockGetFirstOperation(old_body);
            if op.ptr.is_null() {
                break;
            }
            mlirOperationRemoveFromParent(op);
            mlirOperationDestroy(op);
        }
        let new_body = mlirRegionGetFirstBlock(mlirOperationGetFirstRegion(parsed));
        loop {
            let op = mlirBlockGetFirstOperation(new_body);
            if op.ptr.is_null() {
                break;
            }
            mlirOperationRemoveFromParent(op);
            mlirBlockAppendOwnedOperation(old_body, op);
        }
        let new_module = OperationRef::from_raw(parsed);
        let mut target = melior::ir::operation::OperationRefMut::from_raw(module.to_raw());
        let old_names: Vec<String> = target
            .attributes()
            .map(|(n, _)| n.as_string_ref().as_str().unwrap_or("").to_string())
            .collect();
        for name in old_names {
            if !name.is_empty() && name != "sym_name" {
                let _ = target.remove_attribute(&name);
            }
        }
        for (name, attr) in new_module.attributes() {
            target.set_attribute(name.as_string_ref().as_str().unwrap_or(""), attr);
        }
        mlirOperationDestroy(parsed);
    }
    Ok(())
}
