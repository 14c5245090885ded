//! The benchmark: our kernels (vector add, row sum, weighted sum forward
//! and backward, softmax) against Triton 3.6 and PyTorch on the same GPU,
//! each checked before it is timed; prints a markdown table last. Without
//! a GPU it prints "skipped: no CUDA device" and exits 0.
//!
//! `tile-bench [--quick] [--warmup N] [--reps N] [--triton-script PATH]
//! [--python PATH] [--out PATH]`; see `tile_examples::bench` and
//! `bench/README.md`.

use tile_examples::bench::{Cli, USAGE, run};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let cli = match Cli::parse(args.iter().skip(1).cloned()) {
        Ok(cli) => cli,
        Err(e) => {
            eprintln!("tile-bench: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    std::process::exit(run(&cli, &args.join(" ")));
}
