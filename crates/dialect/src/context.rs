//! Contexts that know the tile dialect and every upstream dialect.

use crate::diagnostics::DiagnosticCapture;
use crate::error::{Error, Result};
use melior::Context;
use melior::dialect::DialectRegistry;
use melior::ir::Module;
use melior::utility::{load_irdl_dialects, register_all_dialects};

/// The IRDL definition of the dialect.
pub const TILE_IRDL: &str = include_str!("tile.irdl.mlir");

/// Registers and loads every upstream dialect in `context`, then loads the
/// tile dialect from its IRDL definition. Calling it again is harmless.
pub fn register_dialects(context: &Context) -> Result<()> {
    if context.is_registered_operation(crate::ops::LOAD) {
        return Ok(());
    }
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
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

/// A new context with every dialect loaded (see [`register_dialects`]).
pub fn new_context() -> Result<Context> {
    let context = Context::new();
    register_dialects(&context)?;
    Ok(context)
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
}
