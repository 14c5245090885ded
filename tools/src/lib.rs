//! The programs for the GPU machine, in one binary (`tile-tools`): the GPU
//! check, the benchmark against Triton and PyTorch, and the compile-latency
//! benchmark.
//!
//! One binary because each links LLVM and MLIR (about 230 MB, 31 MB as
//! `.xz`) and at most 64 MiB can be carried to the GPU machine per call: one
//! program does the checks, the memcheck run and the benchmark. Each
//! subcommand takes the arguments its program took before:
//!
//! | subcommand | what | module |
//! | --- | --- | --- |
//! | `gpu-check [--quick]`, `gpu-check launch-bench\|autotune\|aot-compare FILE\|fault` | every kernel against a CPU reference on irregular sizes, and the runtime's checks | [`gpu_check`] |
//! | `bench [--quick] ...` | our kernels against Triton 3.6 and PyTorch, checked, then timed | [`mod@bench`] |
//! | `compile-bench [--reps N] ...` | cold compile latency (no GPU needed) | [`compile_bench`] |
//! | `matmul-bench [--quick] ...` | the matmul against Triton (autotuned) and cuBLAS, fp16 and bf16 | [`matmul_bench`] |
//! | `attention-bench [--quick] ...` | the flash-attention forward against Triton (autotuned) and torch SDPA | [`attention_bench`] |
//! | `fuzz [--inputs N] ...` | the compiler under mutated IR, each input in a worker process (no GPU needed) | [`fuzz`] |
//!
//! The kernels themselves are in `tile-examples`.

pub mod attention_bench;
pub mod bench;
pub mod compile_bench;
pub mod fuzz;
pub mod gpu_check;
pub mod matmul_bench;

/// The usage of `tile-tools`: its subcommands.
pub const USAGE: &str = "\
usage: tile-tools <SUBCOMMAND> [ARGS...]

subcommands:
  gpu-check [--quick]           every kernel on the GPU against a CPU reference and
                                the CPU interpreter (outputs poisoned, guards checked)
  gpu-check launch-bench [--samples N] | autotune [--cache-dir DIR] |
            aot-compare FILE | fault
                                the runtime's checks and benchmarks
  bench [--quick] ...           our kernels against Triton and PyTorch, checked, timed
  compile-bench [--reps N] ...  cold compile latency (no GPU needed)
  matmul-bench [--quick] ...    the matmul against Triton (autotuned) and cuBLAS
  attention-bench [--quick] ... flash attention against Triton (autotuned) and torch SDPA
  fuzz [--inputs N] [--seed S]  the compiler under mutated IR (no GPU needed)

`tile-tools bench --help` and `tile-tools compile-bench --help` give their arguments.";

/// Runs `tile-tools` on its command line (`argv[0]` included) and returns
/// the exit status: dispatches on the first argument to the subcommand,
/// which gets the arguments after it.
pub fn run(argv: &[String]) -> i32 {
    let command_line = argv.join(" ");
    let rest = argv.get(2..).unwrap_or_default();
    match argv.get(1).map(String::as_str) {
        Some("gpu-check") => gpu_check::program::main(rest),
        Some("bench") => bench::main(&command_line, rest),
        Some("compile-bench") => compile_bench::main(&command_line, rest),
        Some("matmul-bench") => matmul_bench::main(&command_line, rest),
        Some("attention-bench") => attention_bench::main(&command_line, rest),
        Some("fuzz") => fuzz::main(rest),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            0
        }
        Some(other) => {
            eprintln!("tile-tools: unknown subcommand `{other}`\n{USAGE}");
            2
        }
        None => {
            eprintln!("{USAGE}");
            2
        }
    }
}

/// The words of `s`, as the arguments of a command line (for tests).
#[cfg(test)]
pub(crate) fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words as argv;

    #[test]
    fn help_lists_every_subcommand() {
        for sub in [
            "gpu-check",
            "bench",
            "compile-bench",
            "launch-bench",
            "fault",
        ] {
            assert!(USAGE.contains(sub), "{sub} missing from\n{USAGE}");
        }
        assert_eq!(run(&argv("tile-tools --help")), 0);
        assert_eq!(run(&argv("tile-tools")), 2);
        assert_eq!(run(&argv("tile-tools gpu-chek")), 2);
    }

    #[test]
    fn subcommands_read_their_own_arguments() {
        // Each subcommand's parser sees what follows its name: a flag it
        // does not know is refused with status 2, before any GPU is needed.
        assert_eq!(run(&argv("tile-tools bench --nope")), 2);
        assert_eq!(run(&argv("tile-tools compile-bench --reps 0")), 2);
        assert_eq!(run(&argv("tile-tools bench --help")), 0);
        assert_eq!(run(&argv("tile-tools compile-bench --help")), 0);
    }
}
