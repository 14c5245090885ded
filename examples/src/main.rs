//! `tile-kernels [OUT_DIR]`: the main job. Builds every example kernel and
//! compiles it to PTX, writing every stage to `OUT_DIR/<name>/NN-<stage>`
//! (`OUT_DIR` defaults to `out`). Running the kernels on a GPU against CPU
//! references is `tile-tools gpu-check` (the `tools/` crate, which depends
//! on this one, so the main job cannot call it).
//!
//! Prints one line per kernel: name, op count, the last stage written, and
//! the PTX path or the reason compilation stopped. A kernel that uses an
//! op `tile-to-simt` cannot lower yet is listed as such with the op and its
//! source line (every seed kernel lowers today); any other failure makes
//! the exit status non-zero.

use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tile::{Dump, Options};
use tile_dialect::Kernel;
use tile_passes::simt::NOT_LOWERED_YET;

const USAGE: &str = "usage: tile-kernels [OUT_DIR]\n\n\
Builds every example kernel and writes each compilation stage and the PTX\n\
to OUT_DIR/<name>/ (OUT_DIR defaults to `out`). To run the kernels on a GPU\n\
against CPU references: `tile-tools gpu-check`.";

/// What the command line asks for: help, or the output directory.
enum Command {
    Help,
    Build(PathBuf),
}

/// Reads the command line (lexopt: the same small lexer as tile-opt's).
fn parse_args() -> Result<Command, lexopt::Error> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let mut out_dir = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Value(dir) if out_dir.is_none() => out_dir = Some(PathBuf::from(dir)),
            other => return Err(other.unexpected()),
        }
    }
    Ok(Command::Build(
        out_dir.unwrap_or_else(|| PathBuf::from("out")),
    ))
}

fn main() -> ExitCode {
    let out_dir = match parse_args() {
        Ok(Command::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Build(dir)) => dir,
        Err(e) => {
            eprintln!("tile-kernels: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&out_dir) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds and compiles every example. Returns whether everything that
/// should work did.
fn run(out_dir: &Path) -> Result<bool, String> {
    let context = tile::context().map_err(|e| format!("creating the MLIR context: {e}"))?;
    let options = Options {
        dump: Some(Dump::to(out_dir)),
        ..Options::default()
    };
    let mut ok = true;
    let mut compiled = 0;
    for example in tile_examples::all() {
        let kernel = (example.build)(&context)
            .map_err(|e| format!("building kernel `{}`: {e}", example.name))?;
        let ops = count_ops(&kernel);
        match tile::compile(&kernel, &options) {
            Ok(c) => {
                let ptx = out_dir
                    .join(example.name)
                    .join(format!("{:02}-kernel.ptx", tile::STAGES.len() + 1));
                println!(
                    "{:<24} {ops:>4} ops  PTX {:>6} bytes  {}",
                    example.name,
                    c.ptx.len(),
                    ptx.display()
                );
                compiled += 1;
            }
            Err(e)
                if e.diagnostics
                    .iter()
                    .any(|d| d.message.contains(NOT_LOWERED_YET)) =>
            {
                let d = e
                    .diagnostics
                    .iter()
                    .find(|d| d.message.contains(NOT_LOWERED_YET));
                let (at, what) = d.map_or((String::new(), String::new()), |d| {
                    (d.location.clone(), d.message.clone())
                });
                println!(
                    "{:<24} {ops:>4} ops  stages up to '{}' written; not lowered yet: {what} ({at})",
                    example.name, e.stage
                );
            }
            Err(e) => {
                ok = false;
                println!("{:<24} {ops:>4} ops  FAILED: {e}", example.name);
            }
        }
    }
    println!(
        "{} of {} kernels compiled; to run them on a GPU against CPU references: \
         `tile-tools gpu-check` (tools/)",
        compiled,
        tile_examples::ALL.len()
    );
    Ok(ok)
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
