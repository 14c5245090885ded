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
    run(module, pass, flag, |m| transform(m).map(Some));
}

/// The body of an external pass that edits the module's [`Mirror`] in
/// place (`edit`). The module is replaced only when the edit changed the
/// mirror's text: a pass with nothing to do costs a read and two prints of
/// the mirror, not an MLIR parse and verification of the whole module.
pub fn run_mirror_edit(
    module: &OperationRef,
    pass: &ExternalPass,
    flag: &str,
    edit: impl FnOnce(&mut Mirror) -> Result<(), PassError>,
) {
    run(module, pass, flag, |mut m| {
        let before = m.print();
        edit(&mut m)?;
        let after = m.print();
        Ok((after != before).then_some(after))
    });
}

/// Reads the module, transforms it (`None`: nothing changed) and puts the
/// result in the module's place; failures become diagnostics.
fn run(
    module: &OperationRef,
    pass: &ExternalPass,
    flag: &str,
    transform: impl FnOnce(Mirror) -> Result<Option<String>, PassError>,
) {
    let outcome = Mirror::read(module)
        .map_err(|e| PassError {
            location: None,
            message: format!("'{}' op at {}: {}", e.op, e.loc, e.message),
        })
        .and_then(transform)
        .and_then(|text| match text {
            Some(text) => replace_module(module, &text, flag),
            None => Ok(()),
        });
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
pub(crate) fn replace_module(
    module: &OperationRef,
    text: &str,
    flag: &str,
) -> Result<(), PassError> {
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

#[cfg(test)]
mod tests {
    use melior::ir::block::BlockLike;
    use melior::pass::PassManager;

    /// The raw pointer of the module's first op.
    fn first_op(module: &melior::ir::Module) -> *mut std::ffi::c_void {
        module.body().first_operation().unwrap().to_raw().ptr
    }

    #[test]
    fn an_edit_that_changes_nothing_leaves_the_module_in_place() {
        let context = melior::Context::new();
        crate::register_all(&context).unwrap();
        let text = r#"func.func @k(%p: tensor<128x!tile.ptr<f32>>) -> tensor<128xf32> attributes {tile.kernel} {
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  return %v : tensor<128xf32>
}"#;
        let mut module = crate::parse_module(&context, text, "t.mlir").unwrap();
        let before = first_op(&module);
        // Unmasked: tile-predicate has nothing to do, and the kernel stays.
        let pm = PassManager::new(&context);
        pm.add_pass(crate::predicate::create());
        pm.run(&mut module).unwrap();
        assert_eq!(first_op(&module), before);
        // Masked without `other`: the kernel is replaced by the edited one.
        let masked = text
            .replace(
                "%p: tensor<128x!tile.ptr<f32>>)",
                "%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>)",
            )
            .replace("\"tile.load\"(%p)", "\"tile.load\"(%p, %m)")
            .replace("array<i32: 1, 0, 0>", "array<i32: 1, 1, 0>")
            .replace(
                "(tensor<128x!tile.ptr<f32>>) ->",
                "(tensor<128x!tile.ptr<f32>>, tensor<128xi1>) ->",
            );
        let mut module = crate::parse_module(&context, &masked, "t.mlir").unwrap();
        let before = first_op(&module);
        pm.run(&mut module).unwrap();
        assert_ne!(first_op(&module), before);
        assert!(crate::print_module(&module, false).contains("array<i32: 1, 1, 1>"));
    }
}
