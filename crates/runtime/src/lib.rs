//! Loading and launching compiled kernels through the CUDA driver.
//!
//! This crate will hold device selection, buffers, PTX loading and launch
//! over cudarc. It is empty until the lowering to PTX lands; it exists so
//! the workspace has its final shape.
