//! `tile-verify`: checks the tile rules that IRDL cannot express (shapes
//! that must agree, axes in range, permutations, powers of two) on every
//! tile op, as the kernel builder does before creating them.
//!
//! MLIR verifies IRDL's structural constraints after every pass; this pass
//! adds the Rust-side rules between passes of a pipeline.
//!
//! ```
//! # use melior::pass::PassManager;
//! # use tile_dialect::{DType, Kernel};
//! # let context = tile_dialect::new_context().unwrap();
//! # tile_passes::register_all(&context).unwrap();
//! let kernel = Kernel::build(&context, "copy", |k| {
//!     let x = k.arg_ptr("x", DType::F32);
//!     let y = k.arg_ptr("y", DType::F32);
//!     let n = k.arg("n", DType::I32);
//!     let offs = k.program_id(0) * 128 + k.arange(0, 128);
//!     let v = k.load(x + offs).mask(offs.lt(n)).build();
//!     k.store(y + offs, v).mask(offs.lt(n)).build();
//! })
//! .unwrap();
//! # let mut module = tile_passes::parse_module(&context, &kernel.to_string(), "copy").unwrap();
//! # let pm = PassManager::new(&context);
//! # let run = |pm: &PassManager, module: &mut melior::ir::Module| pm.run(module).unwrap();
//! // A built kernel keeps the tile rules: the verifier passes it.
//! tile_passes::pipeline::add_pipeline(&pm.as_operation_pass_manager(), "builtin.module(tile-verify)")
//!     .unwrap();
//! run(&pm, &mut module);
//! let text = tile_passes::print_module(&module, false);
//! assert!(text.contains("tile.store"), "{text}");
//! ```

use crate::pass::{PassId, PassInfo};
use melior::ir::OperationRef;
use melior::ir::r#type::TypeId;
use melior::pass::{ExternalPass, Pass, create_external};

static PASS_ID: PassId = PassId;

/// What `--help` says of it.
pub const INFO: PassInfo = PassInfo {
    name: "TileVerify",
    flag: "tile-verify",
    summary: "check the tile dialect's rules (shapes, axes, orders) that IRDL cannot express",
};

/// Creates the `tile-verify` pass (on any op: it checks every tile op
/// nested in it).
pub fn create() -> Pass {
    create_external(
        |op: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            if !tile_dialect::verify::verify_operation(&op) {
                pass.signal_failure();
            }
        },
        TypeId::create(&PASS_ID),
        INFO.name,
        INFO.flag,
        INFO.summary,
        "",
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::pass::PassManager;

    #[test]
    fn fails_on_a_broken_rule_and_passes_otherwise() {
        let context = melior::Context::new();
        crate::register_all(&context).unwrap();
        let good = "func.func @k(%p: !tile.block_ptr<tensor<16x64xf32>>) {
          %0 = \"tile.block_load\"(%p) {boundary_check = array<i32: 1>, cache_modifier = \"\", eviction_policy = \"\", padding = \"zero\", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
          return }";
        let bad = good.replace("array<i32: 1>", "array<i32: 2>");
        for (text, ok) in [(good.to_string(), true), (bad, false)] {
            // MLIR's own parser checks IRDL's constraints, not the tile rules.
            let mut module = melior::ir::Module::parse(&context, &text).unwrap();
            let pm = PassManager::new(&context);
            pm.add_pass(create());
            let capture = tile_dialect::diagnostics::DiagnosticCapture::new(&context);
            let result = pm.run(&mut module);
            let diagnostics = capture.finish();
            assert_eq!(result.is_ok(), ok, "{diagnostics:?}");
            if !ok {
                assert!(
                    diagnostics[0]
                        .message
                        .contains("boundary_check axis 2 is out of range")
                );
                assert!(
                    diagnostics[0].location.ends_with(":2:16"),
                    "{diagnostics:?}"
                );
            }
        }
    }
}
