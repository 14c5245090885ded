//! `tile-tools compile-bench --scaling`: whether compile time grows
//! linearly with the kernel. One kernel of `N` stores (each of a tile of
//! 16 addresses from an argument, as a generated kernel unrolls its
//! work) and one of `10 N`; building, each stage of the compiler and each
//! step of the `ptx` stage are timed for both (the best of `reps` runs
//! each), and the ratio is held to at most 11 for what we own: building,
//! verification and our passes. LLVM's own NVPTX code generation is
//! reported too, and not held to it (its straight-line strength reduction
//! compares candidates within a bounded window, superlinear within it).

use std::time::{Duration, Instant};
use tile_dialect::{DType, Kernel};

/// The sizes compared: `N` and `10 N` stores.
pub const SMALL: usize = 400;

/// What one size took: building, then each stage and `ptx` step.
struct Times {
    build: Duration,
    steps: Vec<(String, Duration)>,
}

/// Builds and compiles the kernel of `stores` stores, `reps` times; the
/// best time of each step.
fn measure(context: &melior::Context, stores: usize, reps: usize) -> Result<Times, String> {
    let mut best: Option<Times> = None;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        let kernel = Kernel::build(context, "stores", |k| {
            let x = k.arg_ptr("x", DType::F32);
            let offs = k.arange(0, 16);
            for i in 0..stores {
                k.store(x + (offs + (i as i32 * 16)), offs.to(DType::F32))
                    .build();
            }
        })
        .map_err(|e| e.to_string())?;
        let build = t.elapsed();
        let options = tile::Options {
            dump: None,
            ..tile::Options::default()
        };
        let compiled = tile::compile(&kernel, &options).map_err(|e| e.to_string())?;
        let mut steps: Vec<(String, Duration)> = Vec::new();
        for (stage, d) in &compiled.timings {
            if *stage == "ptx" {
                for (step, d) in &compiled.ptx_steps {
                    steps.push((format!("ptx: {step}"), *d));
                }
            } else {
                steps.push((stage.to_string(), *d));
            }
        }
        best = Some(match best {
            None => Times { build, steps },
            Some(b) => Times {
                build: b.build.min(build),
                steps: b
                    .steps
                    .into_iter()
                    .zip(steps)
                    .map(|((name, x), (_, y))| (name, x.min(y)))
                    .collect(),
            },
        });
    }
    best.ok_or_else(|| "no run".into())
}

/// True for a step we do not own (LLVM's code generation).
fn upstream(step: &str) -> bool {
    step == "ptx: codegen"
}

/// Runs the comparison; prints the table; returns the exit status (1 when
/// a step of ours grew more than 11 times).
pub fn run(reps: usize) -> i32 {
    let context = match tile::context() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tile-tools compile-bench --scaling: {e}");
            return 1;
        }
    };
    let (small, large) = match (
        measure(&context, SMALL, reps),
        measure(&context, 10 * SMALL, reps),
    ) {
        (Ok(s), Ok(l)) => (s, l),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("tile-tools compile-bench --scaling: {e}");
            return 1;
        }
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "| step | {SMALL} stores, ms | {} stores, ms | ratio | target |\n|---|---|---|---|---|",
        10 * SMALL
    );
    let mut status = 0;
    let mut row = |name: &str, a: Duration, b: Duration| {
        let ratio = b.as_secs_f64() / a.as_secs_f64().max(1e-9);
        let target = if upstream(name) {
            "(LLVM)".to_string()
        } else if ratio <= 11.0 || ms(b) < 5.0 {
            "<= 11: PASS".into()
        } else {
            status = 1;
            "<= 11: FAIL".into()
        };
        println!(
            "| {name} | {:.2} | {:.2} | {ratio:.1} | {target} |",
            ms(a),
            ms(b)
        );
    };
    row("build (with verification)", small.build, large.build);
    for ((name, a), (_, b)) in small.steps.iter().zip(&large.steps) {
        row(name, *a, *b);
    }
    status
}
