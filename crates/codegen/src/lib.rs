//! The compilation pipeline from tile IR to PTX.
//!
//! This crate will hold the named stages (laid-out IR, predication, SIMT
//! form, NVVM/LLVM, PTX) and the per-stage IR dumps. It is empty until the
//! lowering lands; it exists so the workspace has its final shape.
