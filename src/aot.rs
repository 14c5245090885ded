//! Ahead-of-time compilation: kernels compiled at build time into
//! [`Artifact`]s (PTX plus launch metadata) that a program embeds and runs
//! with the runtime crate alone, through
//! [`Precompiled`](tile_runtime::Precompiled).
//!
//! A build script writes the variants:
//!
//! ```no_run
//! // build.rs
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use tile::{Fact, Options, Specialization};
//! let context = tile::context()?;
//! let kernel = tile::Kernel::build(&context, "k", |k| { /* ... */ })?;
//! let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
//! let aligned = Specialization { facts: vec![Fact::DivisibleBy16; kernel.params().len()] };
//! tile::aot::write_variants(&kernel, &Options::default(), &[Specialization::none(), aligned], &out)?;
//! # Ok(())
//! # }
//! ```
//!
//! and the program embeds them with `include_bytes!(concat!(env!("OUT_DIR"),
//! "/k.0.tile"))`. The code is compiled exactly as the JIT path compiles
//! it ([`TileCompiler::compile`](crate::jit::TileCompiler::compile)), so
//! the two give the same PTX.

use crate::jit::TileCompiler;
use crate::{CompileError, Kernel, Options, Specialization};
use std::path::{Path, PathBuf};
use tile_runtime::Artifact;

/// Compiles `kernel` with `options` once per specialization.
pub fn compile_variants(
    kernel: &Kernel,
    options: &Options,
    specializations: &[Specialization],
) -> Result<Vec<Artifact>, CompileError> {
    let compiler = TileCompiler::new(kernel, options.clone())?;
    specializations
        .iter()
        .map(|s| compiler.compile(s))
        .collect()
}

/// Compiles the variants and writes variant `i` to `dir/<kernel>.<i>.tile`
/// (see [`Artifact::to_bytes`]). Returns the paths, in order.
pub fn write_variants(
    kernel: &Kernel,
    options: &Options,
    specializations: &[Specialization],
    dir: &Path,
) -> Result<Vec<PathBuf>, CompileError> {
    let failed = |message: String| CompileError {
        kernel: kernel.name().to_string(),
        stage: "aot",
        message,
        diagnostics: vec![],
    };
    let mut paths = Vec::new();
    for (i, artifact) in compile_variants(kernel, options, specializations)?
        .iter()
        .enumerate()
    {
        let path = dir.join(format!("{}.{i}.tile", kernel.name()));
        let bytes = artifact.to_bytes().map_err(|e| failed(e.to_string()))?;
        std::fs::write(&path, bytes)
            .map_err(|e| failed(format!("cannot write {}: {e}", path.display())))?;
        paths.push(path);
    }
    Ok(paths)
}
