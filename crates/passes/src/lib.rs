//! Passes over tile IR, the one place that registers every dialect and
//! pass ([`register_all`]), and the `tile-opt` driver ([`driver`]).
//!
//! Each pass lives in its own file, has the flag `tile-<name>`, and is
//! tested by `filecheck/<name>.mlir`.

pub mod assign_layouts;
pub mod driver;
pub mod mirror;
mod parse;
pub mod predicate;
mod registry;
pub mod rewrite;
pub mod simt;
pub mod verify;

pub use parse::parse_module;
pub use registry::{TilePass, find_pass, register_all, tile_passes};
