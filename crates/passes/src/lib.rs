//! Passes over tile IR, the one place that registers every dialect and
//! pass ([`register_all`]), and pipelines that mix ours with upstream's
//! ([`pipeline`]). The `tile-opt` driver is a crate of its own (`crates/opt`).
//!
//! Each pass lives in its own file, has the flag `tile-<name>`, and is
//! tested by `filecheck/<name>.mlir`. Passes read ops through the typed
//! views of `tile_dialect::view` and edit the module in place ([`edit`]);
//! `tile-to-simt` builds its output with melior's builders.

pub mod assign_layouts;
pub mod axis_analysis;
pub mod crash_report;
pub mod edit;
pub mod launch_order;
pub mod layout_classes;
pub mod layout_conversions;
mod layout_refinements;
pub mod loop_slice;
pub mod nvptx_target;
mod parse;
pub mod pass;
pub mod pipeline;
pub mod predicate;
pub mod program_steps;
mod reduced_warps;
pub mod register_pressure;
mod registry;
pub mod remove_conversions;
pub mod simt;
pub mod software_pipeline;
pub mod stack;
pub mod vectorize;
pub mod verify;
pub mod while_to_for;
pub mod work_estimate;

pub use parse::parse_module;
pub use pass::{PassError, PassResult};
pub use registry::{
    PIPELINE_PASSES, TilePass, find_pass, register_all, register_upstream_passes, tile_passes,
};

/// Prints `module` as MLIR text ending in a newline, with its locations
/// when `debug_info` is set (the form `tile-opt --mlir-print-debuginfo`
/// and the stage dumps use).
pub fn print_module(module: &melior::ir::Module, debug_info: bool) -> String {
    use melior::ir::operation::{OperationLike, OperationPrintingFlags};
    let flags = OperationPrintingFlags::new().enable_debug_info(debug_info, false);
    let mut text = module
        .as_operation()
        .to_string_with_flags(flags)
        .unwrap_or_else(|e| format!("<unprintable: {e}>"));
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}
