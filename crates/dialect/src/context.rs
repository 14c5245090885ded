//! Contexts that know the tile dialect and every upstream dialect.
//!
//! Every upstream dialect is *registered*, so any of them can be parsed
//! (MLIR loads a registered dialect the first time it meets one of its
//! ops, types or attributes), but only the ones a compilation uses are
//! *loaded* up front ([`LOADED`]). Loading all of them (about fifty) takes
//! several milliseconds, and every loaded dialect makes each later
//! `canonicalize` and every printing of a type or attribute slower, since
//! both walk the loaded dialects.
//!
//! ```
//! let context = tile_dialect::new_context().unwrap();
//! // Every upstream dialect is registered, a few are loaded up front, and
//! // the tile dialect's ops are known.
//! assert!(context.registered_dialect_count() > 40);
//! assert!(context.loaded_dialect_count() < context.registered_dialect_count());
//! assert!(context.is_registered_operation("tile.load"));
//! ```

use crate::diagnostics::DiagnosticCapture;
use crate::error::{Error, Result};
use melior::dialect::DialectRegistry;
use melior::ir::Module;
use melior::utility::{load_irdl_dialects, register_all_dialects};
use melior::{Context, StringRef};

/// The IRDL definition of the dialect.
pub const TILE_IRDL: &str = include_str!("tile.irdl.mlir");

/// The upstream dialects loaded into every context: those of tile IR
/// (`builtin`, `func`, `arith`, `math`, `scf`, and `ub`, which `arith`
/// folds to), of the stages down to LLVM (`gpu`, `nvvm`, `llvm`, `index`,
/// `cf`), and `irdl`, which defines the tile dialect. Loading them before
/// the first compilation keeps the set of loaded dialects the same from
/// one compilation to the next.
pub const LOADED: &[&str] = &[
    "builtin", "func", "arith", "math", "scf", "ub", "gpu", "nvvm", "llvm", "index", "cf", "irdl",
];

/// Registers every upstream dialect in `context`, loads [`LOADED`], then
/// loads the tile dialect from its IRDL definition, and turns the
/// context's multithreading off: a kernel is one function, which MLIR's
/// pass manager cannot split across threads, so threads only cost time.
/// Calling it again is harmless.
pub fn register_dialects(context: &Context) -> Result<()> {
    if context.is_registered_operation(crate::ops::LOAD) {
        return Ok(());
    }
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    context.append_dialect_registry(&registry);
    for name in LOADED {
        // SAFETY: the context is live; the name is copied.
        let dialect = unsafe {
            mlir_sys::mlirContextGetOrLoadDialect(context.to_raw(), StringRef::new(name).to_raw())
        };
        if dialect.ptr.is_null() {
            return Err(Error::Invalid {
                what: format!("the upstream dialect '{name}' (not registered)"),
                diagnostics: vec![],
            });
        }
    }
    context.enable_multi_threading(false);
    load_tile_dialect(context)
}

/// Loads the tile dialect from [`TILE_IRDL`] into a context that already
/// has the IRDL dialect.
pub fn load_tile_dialect(context: &Context) -> Result<()> {
    let capture = DiagnosticCapture::new(context);
    let module = Module::parse(context, TILE_IRDL);
    let loaded = module.as_ref().is_some_and(load_irdl_dialects);
    let diagnostics = capture.finish();
    if loaded && context.is_registered_operation(crate::ops::LOAD) {
        Ok(())
    } else {
        Err(Error::Invalid {
            what: "the tile dialect's IRDL definition".into(),
            diagnostics,
        })
    }
}

/// A new context that knows every dialect (see [`register_dialects`]).
pub fn new_context() -> Result<Context> {
    let context = Context::new();
    register_dialects(&context)?;
    Ok(context)
}

/// The `&Context` of a context reference (an op's, a pass's), valid as long
/// as the context itself.
///
/// melior's `ContextRef::to_ref` returns a reference into the `ContextRef`
/// value, which dangles once that value (usually a temporary, as in
/// `op.context().to_ref()`) is gone. Here each distinct context handle is
/// stored once, for the life of the process, in a table of leaked
/// one-pointer boxes, and the reference points there: a few words a
/// context, whatever number of passes run.
pub fn context_of<'c>(context: melior::ContextRef<'c>) -> &'c Context {
    use std::collections::HashMap;
    use std::sync::Mutex;
    // Context handle -> address of its leaked `ContextRef<'static>`.
    static TABLE: Mutex<Option<HashMap<usize, usize>>> = Mutex::new(None);
    // SAFETY: `context` lives through this call.
    let raw = unsafe { context.to_ref() }.to_raw();
    let mut table = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    let address = *table
        .get_or_insert_with(HashMap::new)
        .entry(raw.ptr as usize)
        .or_insert_with(|| {
            // SAFETY: the box only holds the handle; it is never freed, so
            // the reference made below stays valid memory.
            let leaked: &'static melior::ContextRef<'static> =
                Box::leak(Box::new(unsafe { melior::ContextRef::from_raw(raw) }));
            leaked as *const melior::ContextRef<'static> as usize
        });
    // SAFETY: `address` is a leaked, never freed `ContextRef` holding this
    // very handle; `to_ref` on a `'static` reference to it is sound, and
    // the context it names lives for `'c`.
    unsafe { (*(address as *const melior::ContextRef<'static>)).to_ref() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_is_registered() {
        let context = new_context().unwrap();
        for op in crate::ops::ALL {
            assert!(context.is_registered_operation(op), "{op}");
        }
        register_dialects(&context).unwrap();
        assert!(!context.allow_unregistered_dialects());
    }

    #[test]
    fn registered_dialects_load_when_first_met() {
        let context = new_context().unwrap();
        let loaded = context.loaded_dialect_count();
        // The upstream dialects of `LOADED`, `tile`, and what they depend on.
        assert!(loaded < LOADED.len() + 6, "{loaded} dialects loaded");
        let text = "func.func @f() -> tensor<4xf32> {\n  %0 = tensor.empty() : tensor<4xf32>\n  \
                    return %0 : tensor<4xf32>\n}";
        assert!(Module::parse(&context, text).is_some());
        assert!(context.loaded_dialect_count() > loaded);
    }
}
