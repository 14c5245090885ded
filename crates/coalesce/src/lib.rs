//! Layout analysis for tile IR.
//!
//! This crate will hold the axis analysis (per-axis contiguity, divisibility
//! and constancy of offsets and pointers) and the choice of coalesced
//! layouts that a pass in `tile-passes` applies. It is empty until that
//! work lands; it exists so the workspace has its final shape.
