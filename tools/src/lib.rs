//! The programs for the GPU machine, in one binary (`tile-tools`): the GPU
//! check, the benchmark against Triton and PyTorch, and the compile-latency
//! benchmark.
//!
//! One binary because each links LLVM and MLIR (about 230 MB, 31 MB as
//! `.xz`) and at most 64 MiB can be carried to the GPU machine per call: one
//! program does the checks, the memcheck run and the benchmark. The command
//! line is read by clap ([`Cli`]; `--help` anywhere):
//!
//! | subcommand | what | module |
//! | --- | --- | --- |
//! | `gpu-check [--quick]`, `gpu-check launch-bench\|autotune\|aot-compare FILE\|fault\|matmul\|attention\|interop` | every kernel against a CPU reference on irregular sizes, and the runtime's checks | [`gpu_check`] |
//! | `bench [--quick] ...` | our kernels against Triton 3.6 and PyTorch, checked, then timed | [`mod@bench`] |
//! | `compile-bench [--reps N] ...` | cold compile latency (no GPU needed) | [`compile_bench`] |
//! | `matmul-bench [--quick] ...` | the matmul against Triton (autotuned) and cuBLAS, fp16 and bf16 | [`matmul_bench`] |
//! | `attention-bench [--quick] ...` | the flash-attention forward against Triton (autotuned) and torch SDPA | [`attention_bench`] |
//! | `shapes-bench [--case KERNEL[:DTYPE[:MxN]]] ...` | memory-bound kernels at several tile shapes against Triton on the same source | [`shapes_bench`] |
//! | `fuzz [--inputs N] ...` | the compiler under mutated IR, each input in a worker process (no GPU needed) | [`fuzz`] |
//! | `plot FILE.json` | the picture of a `bench --out` run, drawn from its JSON | [`bench::plot`] |
//! | `examples` | the `cargo run --example` programs, one after another | [`examples_run`] |
//!
//! The kernels themselves are in `tile-examples`.
//!
//! What the programs share is written once: [`timing`] (warm-up and
//! repetitions, the L2 flush, CUDA-event medians, the fastest
//! configuration), [`protocol`] (the JSON lines the Python baselines
//! print, and running them), [`markdown`] (tables and reports),
//! [`mod@reference`] (f64 references) and [`elements`] (16-bit floats and
//! stored outputs).

pub mod attention_bench;
pub mod bench;
pub mod compile_bench;
pub mod elements;
pub mod examples_run;
pub mod fuzz;
pub mod gpu_check;
pub mod markdown;
pub mod matmul_bench;
pub mod protocol;
pub mod reference;
pub mod shapes_bench;
pub mod timing;

use clap::{Parser, Subcommand};

/// The command line of `tile-tools` (clap: `tile-tools --help`, and
/// `--help` after any subcommand).
#[derive(Parser, Debug)]
#[command(
    name = "tile-tools",
    about = "The programs for the GPU machine: the GPU check, the benchmarks, the fuzzer"
)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Every kernel on the GPU against a CPU reference and the CPU
    /// interpreter (outputs poisoned, guards checked), or one check.
    GpuCheck(gpu_check::program::Cli),
    /// Our kernels against Triton and PyTorch, checked, then timed.
    Bench(bench::Cli),
    /// Cold compile latency (no GPU needed).
    CompileBench(compile_bench::Cli),
    /// The matmul against Triton (autotuned) and cuBLAS.
    MatmulBench(matmul_bench::Cli),
    /// Flash attention against Triton (autotuned) and torch SDPA.
    AttentionBench(attention_bench::Cli),
    /// Memory-bound kernels at several tile shapes against Triton
    /// compiling the same source.
    ShapesBench(shapes_bench::Cli),
    /// The compiler under mutated IR or random builder programs (no GPU
    /// needed).
    Fuzz(fuzz::Cli),
    /// The `cargo run --example` programs (vector add, softmax, matmul,
    /// attention, cudarc interop), one after another.
    Examples,
    /// Draws the picture of a `bench --out` run from its JSON (where the
    /// GPU machine had no font).
    Plot {
        /// The JSON `bench --out FILE` wrote beside FILE.
        json: std::path::PathBuf,
    },
}

/// The command line `line` (words split at spaces, after `tile-tools`), as
/// parsed, for tests.
#[cfg(test)]
pub(crate) fn parse(line: &str) -> Result<Command, clap::Error> {
    let argv = std::iter::once("tile-tools").chain(line.split_whitespace());
    Cli::try_parse_from(argv).map(|cli| cli.command)
}

/// Runs `tile-tools` on its command line (`argv[0]` included) and returns
/// the exit status: 2 for a command line it cannot read (0 for `--help`),
/// else the subcommand's.
pub fn run(argv: &[String]) -> i32 {
    let started = std::time::Instant::now();
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let command_line = argv.join(" ");
    match &cli.command {
        Command::GpuCheck(args) => gpu_check::program::main(args),
        Command::Bench(args) => bench::run(args, &command_line),
        Command::CompileBench(args) => compile_bench::main(&command_line, args, started),
        Command::MatmulBench(args) => matmul_bench::main(&command_line, args),
        Command::AttentionBench(args) => attention_bench::main(&command_line, args),
        Command::ShapesBench(args) => shapes_bench::main(&command_line, args),
        Command::Fuzz(args) => fuzz::main(args),
        Command::Examples => match examples_run::main() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("tile-tools examples: {e}");
                1
            }
        },
        Command::Plot { json } => plot(json),
    }
}

/// `tile-tools plot FILE.json`: the PNG beside the JSON.
fn plot(json: &std::path::Path) -> i32 {
    let drawn = std::fs::read(json)
        .map_err(|e| format!("{}: {e}", json.display()))
        .and_then(|bytes| {
            serde_json::from_slice::<bench::plot::Plot>(&bytes)
                .map_err(|e| format!("{}: {e}", json.display()))
        })
        .and_then(|plot| bench::plot::write_png(&plot, &json.with_extension("png")));
    match drawn {
        Ok(()) => {
            println!("wrote {}", json.with_extension("png").display());
            0
        }
        Err(e) => {
            eprintln!("tile-tools plot: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn help_and_mistakes() {
        assert_eq!(run(&argv("tile-tools --help")), 0);
        assert_eq!(run(&argv("tile-tools bench --help")), 0);
        assert_eq!(run(&argv("tile-tools")), 2);
        assert_eq!(run(&argv("tile-tools gpu-chek")), 2);
        assert_eq!(run(&argv("tile-tools bench --nope")), 2);
        assert_eq!(run(&argv("tile-tools compile-bench --reps 0")), 2);
    }

    #[test]
    fn gpu_check_takes_a_check_or_quick() {
        use gpu_check::program::Check;
        let check = |line: &str| match parse(line) {
            Ok(Command::GpuCheck(cli)) => Ok(cli),
            Ok(other) => Err(format!("{other:?}")),
            Err(e) => Err(e.to_string()),
        };
        let cli = check("gpu-check --quick").unwrap();
        assert!(cli.quick && cli.check.is_none());
        let cli = check("gpu-check launch-bench --samples 7").unwrap();
        assert_eq!(cli.check, Some(Check::LaunchBench { samples: 7 }));
        assert_eq!(
            check("gpu-check launch-bench").unwrap().check,
            Some(Check::LaunchBench { samples: 20_000 })
        );
        assert_eq!(
            check("gpu-check matmul --quick").unwrap().check,
            Some(Check::Matmul { quick: true })
        );
        assert!(check("gpu-check aot-compare").is_err());
        assert!(matches!(
            check("gpu-check aot-compare out.bin").unwrap().check,
            Some(Check::AotCompare { .. })
        ));
        assert_eq!(
            check("gpu-check interop").unwrap().check,
            Some(Check::Interop)
        );
        assert!(check("gpu-check --nope").is_err());
    }

    #[test]
    fn the_scripts_command_lines_are_accepted() {
        // What scripts/*.sh, bench/*.sh, the READMEs and the programs' own
        // child processes (compile-bench's CHILD_ARG, fuzz --worker) run.
        for line in [
            "gpu-check",
            "gpu-check --quick",
            "gpu-check launch-bench",
            "gpu-check autotune --cache-dir /tmp/tile-tune",
            "gpu-check aot-compare /tmp/aot.bin",
            "gpu-check fault",
            "gpu-check matmul --quick",
            "gpu-check attention",
            "gpu-check attention --quick",
            "gpu-check interop",
            "gpu-check kernel-fns",
            "gpu-check graph-bench",
            "gpu-check graph-bench --windows 50",
            "examples",
            "gpu-check debug",
            "gpu-check debug-child print",
            "gpu-check debug-child assert-fires",
            "bench --out out/bench.md",
            "bench --quick",
            "bench --quick --no-specialize --warmup 3 --reps 4 \
             --triton-script bench/triton_kernels.py --python python3 --out b.md",
            "compile-bench --out out/compile.md",
            "compile-bench --check-upstream",
            "compile-bench --scaling",
            "compile-bench --first-compile-child row_sum",
            "matmul-bench --out out/matmul-bench.md",
            "matmul-bench --quick --case f16:4096x4096x4096 \
             --config 128x256x64/w8/s3 --ours-only --out m.md",
            "attention-bench --reps 30 --out out/attention-bench.md",
            "attention-bench --ours-only --config 128x64/w8/s3 --head-dim 128 \
             --mask causal --warmup 1 --reps 1",
            "attention-bench --quick --head-dim 64 --mask full",
            "shapes-bench --out out/shapes.md",
            "shapes-bench --quick --case transpose --case softmax:f16:16384x4096 \
             --config 64x64/w4/s3 --ours-only --warmup 1 --reps 1",
            "fuzz --inputs 3000 --seed 1 --out target/fuzz-out",
            "fuzz --programs --inputs 2000 --seed 1 --out target/fuzz-programs-out",
            "fuzz --worker",
            "plot out/bench.json",
        ] {
            if let Err(e) = parse(line) {
                panic!("`tile-tools {line}` refused:\n{e}");
            }
        }
    }
}
