//! The compile-latency benchmark: cold compilations (tile IR to PTX, no
//! cache) of the vector add and the row sum, first in a fresh process, in
//! a fresh context each and in a reused context, with per-stage medians
//! and a PASS/FAIL table against the 25 ms target. Needs no GPU.
//!
//! `tile-compile-bench [--reps N] [--out FILE] [--check-upstream]`; see
//! `tile_examples::compile_bench`.

use std::time::Instant;
use tile_examples::compile_bench::{CHILD_ARG, Cli, USAGE, check_upstream, child, measure, table};

fn main() {
    let started = Instant::now();
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(CHILD_ARG) {
        let kernel = args.get(2).map(String::as_str).unwrap_or_default();
        if let Err(e) = child(kernel, started) {
            eprintln!("tile-compile-bench: {e}");
            std::process::exit(1);
        }
        return;
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let cli = match Cli::parse(args.iter().skip(1).cloned()) {
        Ok(cli) => cli,
        Err(e) => {
            eprintln!("tile-compile-bench: {e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    if cli.check_upstream {
        match check_upstream() {
            Ok(n) => {
                println!("{n} kernels: the same PTX natively and upstream, staged and fused\n")
            }
            Err(e) => {
                eprintln!("tile-compile-bench: {e}");
                std::process::exit(1);
            }
        }
    }
    let (rows, stages) = match measure(&cli, &mut |line| eprintln!("{line}")) {
        Ok(result) => result,
        Err(e) => {
            eprintln!("tile-compile-bench: {e}");
            std::process::exit(1);
        }
    };
    let table = table(&rows);
    let command = args.join(" ");
    println!("{stages}\n{table}");
    if let Some(path) = &cli.out {
        let report = format!(
            "# Compile latency\n\n- Machine: {}\n- Command: `{command}` ({} repetitions \
             each; target {} ms a cold compile)\n\n{table}{stages}",
            tile_examples::compile_bench::machine_line(),
            cli.reps,
            tile_examples::compile_bench::TARGET_MS
        );
        if let Err(e) = std::fs::write(path, report) {
            eprintln!("tile-compile-bench: cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
    let failed = rows.iter().any(|r| r.verdict() == "FAIL");
    std::process::exit(i32::from(failed));
}
