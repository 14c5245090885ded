//! `tile-kernels [OUT_DIR]`: the main job. Builds every seed kernel,
//! compiles it to PTX writing every stage to `OUT_DIR/<name>/NN-<stage>`
//! (`OUT_DIR` defaults to `out`), and, when a GPU is present, runs the
//! kernels that have a GPU check and compares them with a CPU reference.
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
use tile_examples::gpu_check::{Storage, tile_2d_case, vector_add_case};
use tile_passes::simt::NOT_LOWERED_YET;

const USAGE: &str = "usage: tile-kernels [OUT_DIR]\n\n\
Builds every seed kernel, writes each compilation stage and the PTX to\n\
OUT_DIR/<name>/ (OUT_DIR defaults to `out`), and runs the kernels on the GPU\n\
when one is present.";

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
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds, compiles and (with a GPU) runs every example. Returns whether
/// everything that should work did.
fn run(out_dir: &Path) -> Result<bool, String> {
    let context = tile::context().map_err(|e| format!("creating the MLIR context: {e}"))?;
    let options = Options {
        dump: Some(Dump::to(out_dir)),
        ..Options::default()
    };
    let mut ok = true;
    let mut compiled = Vec::new();
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
                compiled.push(example.name);
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
    if tile::Device::count() == 0 {
        println!("skipped: no CUDA device (the kernels were compiled, not run)");
        return Ok(ok);
    }
    let device = tile::Device::new(0).map_err(|e| e.to_string())?;
    println!("running on {}", device.name().unwrap_or_default());
    let mut runs: Vec<(String, Result<(), String>)> = Vec::new();
    if compiled.contains(&"safe_kernel") {
        for n in [1000, (1 << 20) + 3] {
            runs.push((
                format!("safe_kernel N={n}"),
                vector_add_case(&device, tile_examples::vector_add::BLOCK, n),
            ));
        }
    }
    if compiled.contains(&"masked_tile_2d") {
        let (bm, bk) = (
            tile_examples::masked_tile_2d::BM,
            tile_examples::masked_tile_2d::BK,
        );
        runs.push((
            "masked_tile_2d 333x777 transposed".to_string(),
            tile_2d_case(&device, bm, bk, 333, 777, Storage::Transposed),
        ));
    }
    use tile_examples::gpu_check::reductions as r;
    let f32 = tile::DType::F32;
    type Run<'a> = &'a dyn Fn() -> Result<(), String>;
    let more: [(&str, String, Run); 5] = [
        ("row_sum", "row_sum 1000x500".into(), &|| {
            r::row_sum_case(&device, 1000, 500, Storage::Contiguous, f32, 1024)
        }),
        (
            "weighted_sum_fwd",
            "weighted_sum_fwd 1000x500".into(),
            &|| r::weighted_sum_fwd_case(&device, 1000, 500, Storage::Contiguous, f32),
        ),
        (
            "weighted_sum_bwd",
            "weighted_sum_bwd 1000x500".into(),
            &|| r::weighted_sum_bwd_case(&device, 1000, 500, Storage::Contiguous, f32),
        ),
        ("softmax", "softmax 1000x1000".into(), &|| {
            r::softmax_case(&device, 1000, 1000, 1000, 1024)
        }),
        (
            "q_tile_load",
            "q_tile_load B=2 T=100 H=3 K=64".into(),
            &|| tile_examples::gpu_check::q_tile_case(&device, 2, 100, 3, 64),
        ),
    ];
    for (kernel, name, run) in more {
        if compiled.contains(&kernel) {
            runs.push((name, run()));
        }
    }
    for (name, outcome) in runs {
        match outcome {
            Ok(()) => println!("PASS {name}"),
            Err(e) => {
                ok = false;
                println!("FAIL {name}: {e}");
            }
        }
    }
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
