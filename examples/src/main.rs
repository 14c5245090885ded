//! `tile-kernels [OUT_DIR]`: builds every seed kernel and writes its tile
//! IR, with source locations, to `OUT_DIR/<name>/00-tile.mlir` (`OUT_DIR`
//! defaults to `out`).
//!
//! Prints one line per kernel (name, op count, bytes, path) and stops with
//! a non-zero status at the first kernel that fails to build or write.

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tile_dialect::Kernel;

const USAGE: &str = "usage: tile-kernels [OUT_DIR]\n\n\
Builds every seed kernel and writes OUT_DIR/<name>/00-tile.mlir (OUT_DIR defaults to `out`).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out_dir = match args.as_slice() {
        [] => PathBuf::from("out"),
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        [dir] => PathBuf::from(dir),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&out_dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds and writes every example; the error names the kernel and step.
fn run(out_dir: &Path) -> Result<(), String> {
    let context =
        tile_dialect::new_context().map_err(|e| format!("creating the MLIR context: {e}"))?;
    for example in tile_examples::all() {
        let kernel = (example.build)(&context)
            .map_err(|e| format!("building kernel `{}`: {e}", example.name))?;
        let text = kernel.to_mlir_with_locations();
        let dir = out_dir.join(example.name);
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let path = dir.join("00-tile.mlir");
        std::fs::write(&path, &text).map_err(|e| format!("writing {}: {e}", path.display()))?;
        println!(
            "{:<24} {:>4} ops {:>7} bytes  {}",
            example.name,
            count_ops(&kernel),
            text.len(),
            path.display()
        );
    }
    Ok(())
}

/// The number of ops inside the kernel's module (the module op excluded).
fn count_ops(kernel: &Kernel<'_>) -> usize {
    let mut count = 0usize;
    kernel
        .module()
        .as_operation()
        .walk(WalkOrder::PreOrder, |_| {
            count += 1;
            WalkResult::Advance
        });
    count.saturating_sub(1)
}
