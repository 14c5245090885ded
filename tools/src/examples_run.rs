//! `tile-tools examples`: the repository's `cargo run --example` programs
//! (the files under `examples/`, compiled here as modules), run one after
//! another: the GPU machine has no Rust toolchain, so they travel inside
//! this binary. Each prints what it checked; a failure stops the run.

// Each file's `main` (the example's entry) is not called here: `run` is.
#![allow(dead_code)]

#[path = "../../examples/attention.rs"]
mod attention;
#[path = "../../examples/cudarc_interop.rs"]
mod cudarc_interop;
#[path = "../../examples/matmul.rs"]
mod matmul;
#[path = "../../examples/softmax.rs"]
mod softmax;
#[path = "../../examples/vector_add.rs"]
mod vector_add;

/// Runs every example; the first error ends the run.
pub fn main() -> tile::Result<()> {
    vector_add::run()?;
    softmax::run()?;
    matmul::run()?;
    attention::run()?;
    cudarc_interop::run();
    Ok(())
}
