//! Our four passes in a row on one [`Mirror`]: `tile-assign-layouts`,
//! `tile-predicate`, `tile-vectorize`, `tile-to-simt`.
//!
//! Run as MLIR passes, each reads the module into a mirror, transforms it,
//! prints it and has MLIR parse the result back: three of those round
//! trips only hand the next pass what it would read from its own mirror.
//! [`layouts_to_simt`] reads the module once, applies the four transforms
//! to the same mirror and has MLIR parse (and verify) only the SIMT
//! module, ~8% of a compilation less. The compiler uses it unless stages
//! are dumped (the dumps show each pass's output as MLIR prints it); the
//! PTX is the same either way (`tile-compile-bench --check-upstream`
//! compares the two for every example).

use crate::mirror::Mirror;
use crate::rewrite::{PassError, emit_error, replace_module};
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;

/// The stages [`layouts_to_simt`] runs, in order, as the compiler names
/// them.
pub const STAGES: [&str; 4] = ["layouts", "predicated", "vectorized", "simt"];

/// Runs the four passes on `module` (a `builtin.module` of tile IR),
/// calling `done(stage)` after each (for timing). On failure the error is
/// emitted as an MLIR diagnostic (as the pass would) and the failed
/// stage's name returned; the module is then left as it was.
pub fn layouts_to_simt(
    module: &OperationRef,
    done: &mut dyn FnMut(&'static str),
) -> Result<(), &'static str> {
    let mut stage = STAGES[0];
    let outcome = (|| {
        let mut m = Mirror::read(module).map_err(|e| PassError {
            location: None,
            message: format!("'{}' op at {}: {}", e.op, e.loc, e.message),
        })?;
        crate::assign_layouts::assign_layouts(&mut m)?;
        done(stage);
        stage = STAGES[1];
        crate::predicate::predicate(&mut m)?;
        done(stage);
        stage = STAGES[2];
        crate::vectorize::vectorize(&mut m)?;
        done(stage);
        stage = STAGES[3];
        let text = crate::simt::lower_module(m)?;
        replace_module(module, &text, crate::simt::FLAG)?;
        done(stage);
        Ok::<(), PassError>(())
    })();
    outcome.map_err(|e| {
        // SAFETY: the module op is live.
        let fallback = unsafe { mlir_sys::mlirOperationGetLocation(module.to_raw()) };
        emit_error(e.location.unwrap_or(fallback), &e.message);
        stage
    })
}
