//! `tile-tools gpu-check`: compiles kernels with `tile`, runs them on the
//! GPU on irregular sizes, and compares every element with a CPU reference.
//! Outputs are poisoned (NaN) before each run and followed by a guard
//! region that must stay untouched. Prints one line a case and a summary
//! table last; exits 1 if any case fails. Without a GPU it prints
//! "skipped: no CUDA device" and exits 0.
//!
//! `tile-tools gpu-check [--quick]`: `--quick` drops the largest sizes (for
//! runs under compute-sanitizer): 2^24-element vectors, 65536-row
//! reductions and the cases over more than 2^31 elements. The command line
//! is [`Cli`] (clap; `tile-tools gpu-check --help`).
//!
//! The runtime's own checks and benchmarks are subcommands:
//!
//! - `tile-tools gpu-check launch-bench [--samples N]`: host time per launch of a
//!   cached 4-argument kernel (median, p99, mean), as a table.
//! - `tile-tools gpu-check autotune [--cache-dir DIR]`: the autotuner over row-sum
//!   configurations, its choice re-timed against every configuration.
//! - `tile-tools gpu-check aot-compare FILE`: the vector add through the JIT,
//!   compared bit for bit with what `tile-aot-example --out FILE` wrote.
//! - `tile-tools gpu-check fault`: a kernel that faults must come back as a
//!   `KernelFault` naming it (the context is lost afterwards).
//! - `tile-tools gpu-check matmul [--quick]`: only the matmul cases.
//! - `tile-tools gpu-check attention [--quick]`: only the attention cases.
//! - `tile-tools gpu-check interop`: only the cudarc, `half` and
//!   every-GPU cases.
//! - `tile-tools gpu-check math-accuracy`: the largest error of tanh, erf
//!   and sigmoid over 2^22 inputs, and the GELU kernels.

use super::padding::padding_case;
use super::reductions::{
    row_sum_beyond_2_31_case, row_sum_case, softmax_case, weighted_sum_bwd_case,
    weighted_sum_fwd_case,
};
use super::{
    GUARD, POISON, Storage, compare, fill_other_kernel, grid_ids_kernel, inputs, k_tile_case,
    poisoned, q_tile_case, scalar_args_kernel, tile_2d_case, vector_add_case,
};
use super::{cross_check, layer_norm};
use std::time::Instant;
use tile::{Arg, Device, Options, device_or_skip};
use tile_dialect::{DType, Padding};

type Outcome = Result<(), String>;

struct Report {
    rows: Vec<(String, String, bool, String)>,
}

impl Report {
    fn record(&mut self, group: &str, case: String, outcome: Outcome) {
        let (ok, note) = match outcome {
            Ok(()) => (true, String::new()),
            Err(e) => (false, e),
        };
        println!("{} {group} {case} {note}", if ok { "PASS" } else { "FAIL" });
        self.rows.push((group.to_string(), case, ok, note));
    }
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn options() -> Options {
    Options::default()
}

/// Loads n of 256 elements under a mask with `other` (or none) and
/// stores all 256: the masked lanes must read `other` (zero without one).
fn other_case(device: &Device, other: Option<f32>) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = fill_other_kernel(&context, other).map_err(err)?;
    let compiled = tile::compile(&kernel, &options()).map_err(err)?;
    let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
    let n = 100usize;
    // Only n elements exist: masked lanes must not read beyond them.
    let x = inputs(n, 7);
    let mut want = x.clone();
    want.resize(256, other.unwrap_or(0.0));
    let dx = device.upload(&x).map_err(err)?;
    let dout = device.upload(&poisoned(256)).map_err(err)?;
    loaded
        .launch(
            1u32,
            &[Arg::from(&dx), Arg::from(&dout), Arg::from(n as i32)],
        )
        .map_err(err)?;
    compare(&device.download(&dout).map_err(err)?, &want)
}

/// Every program writes its ids and the grid size on all three axes.
fn grid_case(device: &Device, grid: (u32, u32, u32)) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = grid_ids_kernel(&context).map_err(err)?;
    let compiled = tile::compile(&kernel, &options()).map_err(err)?;
    let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
    let (gx, gy, gz) = grid;
    let count = (gx * gy * gz) as usize;
    let mut want = Vec::with_capacity(count * 6);
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                want.extend([x, y, z, gx, gy, gz].map(|v| v as i32));
            }
        }
    }
    let sentinel = -7i32;
    let dout = device
        .upload(&vec![sentinel; count * 6 + GUARD])
        .map_err(err)?;
    loaded.launch(grid, &[Arg::from(&dout)]).map_err(err)?;
    let got = device.download(&dout).map_err(err)?;
    if got[..count * 6] != want[..] {
        let bad = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
        return Err(format!("[{bad}] = {}, want {}", got[bad], want[bad]));
    }
    if got[count * 6..].iter().any(|&g| g != sentinel) {
        return Err("guard written".into());
    }
    Ok(())
}

/// Scalar arguments of every supported type reach the kernel.
fn scalar_args_case(device: &Device) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = scalar_args_kernel(&context).map_err(err)?;
    let compiled = tile::compile(&kernel, &options()).map_err(err)?;
    let loaded = device.load(&compiled.ptx, &compiled.spec).map_err(err)?;
    let dout = device.upload(&poisoned(5)).map_err(err)?;
    let args = [
        Arg::from(&dout),
        Arg::from(-123i32),
        Arg::from(1i64 << 40),
        Arg::from(2.5f32),
        Arg::from(half::f16::from_f32(1.5)),
        Arg::from(half::bf16::from_f32(-5.0)),
    ];
    loaded.launch(1u32, &args).map_err(err)?;
    let want = [-123.0, (1u64 << 40) as f32, 2.5, 1.5, -5.0];
    compare(&device.download(&dout).map_err(err)?, &want)
}

const STORAGES: [Storage; 3] = [
    Storage::Contiguous,
    Storage::Transposed,
    Storage::ColumnSliced,
];

/// The row sum, the weighted sum forward and backward and the softmax.
fn reductions(device: &Device, quick: bool, report: &mut Report) {
    let big: &[(usize, usize)] = if quick { &[] } else { &[(65536, 1024)] };
    let shapes: Vec<(usize, usize)> = [(1000, 500), (64, 200), (100, 100), (777, 1), (300, 1000)]
        .into_iter()
        .chain(big.iter().copied())
        .collect();
    let label = |m: usize, n: usize, s: Storage, d: DType| format!("{m}x{n} {} {d}", s.name());
    for &(m, n) in &shapes {
        for storage in STORAGES {
            for block_n in [1024, 128] {
                let case = format!("{} BLOCK_N={block_n}", label(m, n, storage, DType::F32));
                let outcome = row_sum_case(device, m, n, storage, DType::F32, block_n);
                report.record("row_sum", case, outcome);
            }
        }
    }
    for &(m, n) in shapes.iter().filter(|s| s.1 >= 100) {
        for storage in [Storage::Contiguous, Storage::Transposed] {
            let outcome = row_sum_case(device, m, n, storage, DType::BF16, 1024);
            report.record("row_sum", label(m, n, storage, DType::BF16), outcome);
        }
    }
    if !quick {
        report.record(
            "offsets_beyond_2_31",
            "add_one_i64 on 2^31+1000 f32; safe_kernel (i32 offsets) refused".into(),
            super::offsets::beyond_2_31_case(device),
        );
        report.record(
            "row_sum",
            "(2^21+3)x1024 bf16 (2^31 + 3072 elements, 4.3 GB)".into(),
            row_sum_beyond_2_31_case(device),
        );
    }
    // The seed's (..., D) inputs are flattened to rows x D: (4, 250, 500)
    // is 1000x500.
    let weighted: Vec<(usize, usize)> = [
        (1000, 500),
        (64, 200),
        (100, 100),
        (50, 1),
        (333, 1000),
        (128, 1024),
    ]
    .into_iter()
    .chain(big.iter().copied())
    .collect();
    for &(rows, d) in &weighted {
        for storage in STORAGES {
            let case = label(rows, d, storage, DType::F32);
            let outcome = weighted_sum_fwd_case(device, rows, d, storage, DType::F32);
            report.record("weighted_sum_fwd", case.clone(), outcome);
            let outcome = weighted_sum_bwd_case(device, rows, d, storage, DType::F32);
            report.record("weighted_sum_bwd", case, outcome);
        }
        let case = label(rows, d, Storage::Contiguous, DType::BF16);
        let outcome = weighted_sum_fwd_case(device, rows, d, Storage::Contiguous, DType::BF16);
        report.record("weighted_sum_fwd", case.clone(), outcome);
        let outcome = weighted_sum_bwd_case(device, rows, d, Storage::Contiguous, DType::BF16);
        report.record("weighted_sum_bwd", case, outcome);
    }
    let rows = if quick { 256 } else { 4096 };
    for (rows, cols, stride, block) in [
        (1000, 500, 500, 512),
        (64, 200, 256, 256),
        (100, 100, 100, 128),
        (100, 1, 1, 1),
        (37, 1000, 2000, 1024),
        (rows, 1024, 1024, 1024),
    ] {
        report.record(
            "softmax",
            format!("{rows}x{cols} row_stride={stride} BLOCK={block}"),
            softmax_case(device, rows, cols, stride, block),
        );
    }
}

/// Block-pointer loads with boundary checks on each subset of axes and
/// each padding option, in both orders.
fn paddings(device: &Device, report: &mut Report) {
    let fills = [
        ("nan", Padding::Nan),
        ("zero", Padding::Zero),
        ("-inf", Padding::Value(f64::NEG_INFINITY)),
        ("7.5", Padding::Value(7.5)),
    ];
    for order in [[1, 0], [0, 1]] {
        for storage in [Storage::Contiguous, Storage::Transposed] {
            // Every subset of checked axes on shapes that are block
            // multiples along neither axis (unchecked axes then read past
            // the view, into storage that is there) and on one that is.
            let checks: [&[i64]; 4] = [&[0, 1], &[0], &[1], &[]];
            let shapes = [(100, 70), (33, 130), (96, 128)];
            for (check, shape) in checks.into_iter().flat_map(|c| shapes.map(|s| (c, s))) {
                for (name, padding) in fills {
                    let case = format!(
                        "{}x{} tile 32x64 check={check:?} padding={name} order={order:?} {}",
                        shape.0,
                        shape.1,
                        storage.name()
                    );
                    let outcome =
                        padding_case(device, shape, (32, 64), check, padding, order, storage);
                    report.record("block_ptr_padding", case, outcome);
                }
            }
        }
    }
}

/// The LayerNorm forward: the benchmark's widths (1151x8192, 4096x781)
/// and irregular small shapes, with the tutorial's `BLOCK_SIZE` (one loop
/// iteration a row) and with smaller blocks (several, the last one
/// partial), on contiguous and padded rows.
fn layer_norms(device: &Device, report: &mut Report) {
    let heuristic = layer_norm::heuristic_block;
    // (rows, N, row stride, BLOCK_SIZE)
    let cases = [
        (1151, 8192, 8192, heuristic(8192)),
        (4096, 781, 781, heuristic(781)),
        (1, 1, 1, heuristic(1)),
        (3, 17, 17, heuristic(17)),
        (3, 17, 20, 8),
        (64, 1000, 1000, heuristic(1000)),
        (64, 1000, 1024, 256),
        (7, 4097, 4097, heuristic(4097)),
        (7, 4097, 4097, 1024),
        (4096, 781, 800, 128),
    ];
    for (rows, n, stride, block) in cases {
        let warps = tile_examples::layer_norm::num_warps(block);
        report.record(
            "layer_norm",
            format!("{rows}x{n} stride={stride} BLOCK_SIZE={block} warps={warps}"),
            layer_norm::layer_norm_case(device, rows, n, stride, block),
        );
    }
}

/// The command line of `tile-tools gpu-check`: every case, or one of the
/// runtime's checks.
#[derive(clap::Args, Clone, Debug, PartialEq, Eq)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Drop the largest sizes (for runs under compute-sanitizer): 2^24-element
    /// vectors, 65536-row reductions and the cases over 2^31 elements.
    #[arg(long)]
    pub quick: bool,
    /// One check instead of every case.
    #[command(subcommand)]
    pub check: Option<Check>,
}

/// The checks that run alone.
#[derive(clap::Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Host time per launch of a cached 4-argument kernel (median, p99, mean).
    LaunchBench {
        /// Launches timed.
        #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = crate::timing::positive_count)]
        samples: usize,
    },
    /// The autotuner over row-sum configurations, its choice re-timed.
    Autotune {
        /// The autotuner's disk cache [default: a directory under the system's temporary one].
        #[arg(long, value_name = "DIR")]
        cache_dir: Option<std::path::PathBuf>,
    },
    /// The vector add through the JIT, bit for bit against what
    /// `tile-aot-example --out FILE` wrote.
    AotCompare {
        /// The file `tile-aot-example --out` wrote.
        file: std::path::PathBuf,
    },
    /// A kernel that faults must come back as a `KernelFault` naming it (the
    /// context is lost afterwards).
    Fault,
    /// Only the matmul cases.
    Matmul {
        /// The smaller sizes only.
        #[arg(long)]
        quick: bool,
    },
    /// Only the matmul written the ways users write it (pointer tensors,
    /// masks, transposes, batches, split-K, persistent, while loops).
    MatmulStyles {
        /// The smaller sizes only.
        #[arg(long)]
        quick: bool,
    },
    /// Only the attention cases.
    Attention {
        /// The smaller sizes only.
        #[arg(long)]
        quick: bool,
    },
    /// Only the Rust GPU ecosystem's cases: cudarc memory and streams,
    /// `half` elements, every visible GPU.
    Interop,
    /// The largest error of tanh, erf and sigmoid over 2^22 f32 inputs
    /// against the correctly rounded values, and the GELU kernels.
    MathAccuracy,
    /// Runs both GELU kernels and writes inputs and outputs to DIR, for
    /// `bench/gelu_vs_torch.py` to compare with PyTorch.
    GeluDump {
        /// Where `x.f32`, `gelu_erf.f32` and `gelu_tanh.f32` go.
        dir: std::path::PathBuf,
    },
    /// Only the per-op sweeps (every op in every type; reductions, argmax,
    /// scans, atomics, control flow).
    Ops {
        /// Only this sweep (float_unary, binary, nan, div_approx, compare,
        /// fma, integer_neg_abs, cast, reduce, argmax, scan, atomic,
        /// control).
        #[arg(long)]
        group: Option<String>,
    },
    /// `device_print` and `device_assert`: each case runs in a child
    /// process (an assertion loses the context), whose output is checked.
    Debug,
    /// One case of `debug`, run by the `debug` check in a child process.
    #[command(hide = true)]
    DebugChild {
        /// print, assert-fires, assert-holds or assert-dropped.
        case: String,
    },
    /// The cross-entropy forward, histogram and cross-program prefix sum
    /// kernels against plain-Rust references.
    OpKernels {
        /// The smaller sizes only.
        #[arg(long)]
        quick: bool,
    },
}

impl Check {
    /// The check's name, as on the command line.
    fn name(&self) -> &'static str {
        match self {
            Check::LaunchBench { .. } => "launch-bench",
            Check::Autotune { .. } => "autotune",
            Check::AotCompare { .. } => "aot-compare",
            Check::Fault => "fault",
            Check::Matmul { .. } => "matmul",
            Check::MatmulStyles { .. } => "matmul-styles",
            Check::Attention { .. } => "attention",
            Check::Interop => "interop",
            Check::MathAccuracy => "math-accuracy",
            Check::GeluDump { .. } => "gelu-dump",
            Check::Ops { .. } => "ops",
            Check::OpKernels { .. } => "op-kernels",
            Check::Debug => "debug",
            Check::DebugChild { .. } => "debug-child",
        }
    }
}

/// Runs one check.
fn check(check: &Check, device: &Device) -> Result<(), String> {
    use super::runtime;
    match check {
        Check::LaunchBench { samples } => runtime::launch_bench(device, *samples).map(|rows| {
            println!("\nhost time per launch, microseconds (target: median <= 3 us)\n");
            println!("| path | launches | median | p99 | mean | target |");
            println!("|---|---|---|---|---|---|");
            for r in rows {
                println!("{r}");
            }
        }),
        Check::Autotune { cache_dir } => {
            let dir = cache_dir
                .clone()
                .unwrap_or_else(|| std::env::temp_dir().join("tile-autotune-demo"));
            runtime::autotune_demo(device, &dir).map(|lines| {
                println!();
                for l in lines {
                    println!("{l}");
                }
            })
        }
        Check::AotCompare { file } => runtime::aot_compare(device, file),
        Check::Fault => runtime::fault_case(device),
        Check::Matmul { quick } => family("matmul", super::matmul::cases(!quick), |c| {
            (c.name(), c.run(device))
        }),
        Check::MatmulStyles { quick } => {
            family("matmul_styles", super::matmul_styles::cases(!quick), |c| {
                (c.name(), c.run(device))
            })
        }
        Check::Attention { quick } => family("attention", super::attention::cases(!quick), |c| {
            (c.name(), c.run(device))
        }),
        Check::MathAccuracy => family("math", super::math_accuracy::cases(device), |(c, o)| {
            (c.clone(), o.clone())
        }),
        Check::Ops { group } => family(
            "ops",
            super::ops::ops_of(device, super::ops::Accuracy::Approximate, group.as_deref()),
            |(group, case, outcome)| (format!("{group} {case}"), outcome.clone()),
        ),
        Check::OpKernels { quick } => family(
            "op_kernels",
            super::op_kernels::cases(device, !quick),
            |(case, outcome)| (case.clone(), outcome.clone()),
        ),
        Check::GeluDump { dir } => super::math_accuracy::gelu_dump(device, dir),
        Check::Debug => {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            let cases = super::debug::cases(|case| {
                let mut c = std::process::Command::new(&exe);
                c.args(["gpu-check", "debug-child", case]);
                c
            });
            family("debug", cases, |(case, outcome)| {
                (case.clone(), outcome.clone())
            })
        }
        Check::DebugChild { case } => super::debug::child(device, case),
        Check::Interop => {
            let mut cases = super::interop::cases(device);
            let (name, outcome) = super::interop::every_device();
            cases.push(("every_gpu", name, outcome));
            family("interop", cases, |(group, case, outcome)| {
                (format!("{group} {case}"), outcome.clone())
            })
        }
    }
}

/// Runs each case of one family, printing a PASS or FAIL line for each.
fn family<C>(name: &str, cases: Vec<C>, run: impl Fn(&C) -> (String, Outcome)) -> Outcome {
    let mut failed = 0;
    for case in &cases {
        match run(case) {
            (case, Ok(())) => println!("PASS {name} {case}"),
            (case, Err(e)) => {
                failed += 1;
                println!("FAIL {name} {case}: {e}");
            }
        }
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} of {} {name} cases failed", cases.len()))
    }
}

/// `tile-tools gpu-check`: one check, or every case; returns the exit
/// status (1 when a case failed). Without a GPU it prints "skipped: no
/// CUDA device" and returns 0.
pub fn main(cli: &Cli) -> i32 {
    let quick = cli.quick;
    let Some(device) = device_or_skip("tile-tools gpu-check") else {
        return 0;
    };
    if let Some(one) = &cli.check {
        return match check(one, &device) {
            Ok(()) => {
                println!("PASS {}", one.name());
                0
            }
            Err(e) => {
                println!("FAIL {}: {e}", one.name());
                1
            }
        };
    }
    let name = device.name().unwrap_or_else(|e| e.to_string());
    println!("device: {name}");
    let started = Instant::now();
    let mut report = Report { rows: Vec::new() };

    let sizes: &[usize] = if quick {
        &[1, 255, 4097]
    } else {
        &[1, 255, 256, 1000, 4097, (1 << 20) + 3, 1 << 24]
    };
    for &block in &[128, 256, 1024] {
        for &n in sizes {
            let outcome = vector_add_case(&device, block, n);
            report.record("vector_add", format!("BLOCK={block} N={n}"), outcome);
        }
    }
    for (bm, bk) in [(16, 64), (64, 64)] {
        for (m, k) in [(1, 1), (1000, 500), (333, 777)] {
            for storage in [
                Storage::Contiguous,
                Storage::Transposed,
                Storage::ColumnSliced,
            ] {
                let outcome = tile_2d_case(&device, bm, bk, m, k, storage);
                report.record(
                    "masked_tile_2d",
                    format!("tile={bm}x{bk} MxK={m}x{k} {}", storage.name()),
                    outcome,
                );
            }
        }
    }
    for other in [
        Some(0.0),
        Some(1.0),
        Some(f32::NEG_INFINITY),
        Some(f32::INFINITY),
        None,
    ] {
        let label = other.map_or("none (reads 0)".to_string(), |o| o.to_string());
        report.record(
            "load_other",
            format!("other={label}"),
            other_case(&device, other),
        );
    }
    for grid in [(1, 1, 1), (7, 3, 2), (2, 5, 3)] {
        report.record(
            "grid_ids",
            format!("grid={grid:?}"),
            grid_case(&device, grid),
        );
    }
    report.record(
        "scalar_args",
        "i32 i64 f32 f16 bf16".into(),
        scalar_args_case(&device),
    );
    // Block pointers: boundary checks on both axes, T not a multiple of BT,
    // K below BK, the virtual transpose.
    for (b, t, h, k) in [(2, 100, 3, 64), (1, 1, 1, 1), (3, 130, 2, 40)] {
        let case = format!("B={b} T={t} H={h} K={k}");
        report.record(
            "q_tile_load",
            case.clone(),
            q_tile_case(&device, b, t, h, k),
        );
        report.record("k_tile_transposed", case, k_tile_case(&device, b, t, h, k));
    }
    reductions(&device, quick, &mut report);
    layer_norms(&device, &mut report);
    for case in super::matmul::cases(!quick) {
        report.record("matmul", case.name(), case.run(&device));
    }
    for case in super::matmul_styles::cases(!quick) {
        report.record("matmul_styles", case.name(), case.run(&device));
    }
    for case in super::attention::cases(!quick) {
        report.record("attention", case.name(), case.run(&device));
    }
    for (case, outcome) in super::memory_order::memory_order(&device) {
        report.record("memory_order", case, outcome);
    }
    for (group, case, outcome) in super::ops::every_op(&device, super::ops::Accuracy::Approximate) {
        report.record(&format!("op_{group}"), case, outcome);
    }
    for (case, outcome) in super::op_kernels::cases(&device, !quick) {
        report.record("op_kernels", case, outcome);
    }
    paddings(&device, &mut report);
    for (case, outcome) in super::math_accuracy::cases(&device) {
        report.record("math_accuracy", case, outcome);
    }
    for (group, case, outcome) in super::interop::cases(&device) {
        report.record(group, case, outcome);
    }
    {
        let (case, outcome) = super::interop::every_device();
        report.record("every_gpu", case, outcome);
    }
    {
        use super::runtime;
        report.record(
            "runtime",
            "1000 launches varying n: 1 compile; n % 16 == 0: a 2nd naming `n`".into(),
            runtime::recompile_case(&device),
        );
        report.record(
            "runtime",
            "8 threads x 20 launches through 2 shared JIT kernels".into(),
            runtime::threads_case(&device),
        );
        report.record(
            "runtime",
            "OOM, 64 warps, 264 KiB of shared memory: typed errors, device still usable".into(),
            runtime::resource_errors_case(&device),
        );
    }

    let failed: Vec<_> = report.rows.iter().filter(|r| !r.2).collect();
    println!();
    println!("| group | cases | passed | failed |");
    println!("|---|---|---|---|");
    // Groups in order of first appearance (cases of two groups interleave).
    let mut groups: Vec<&str> = Vec::new();
    for r in &report.rows {
        if !groups.contains(&r.0.as_str()) {
            groups.push(&r.0);
        }
    }
    for g in groups {
        let rows: Vec<_> = report.rows.iter().filter(|r| r.0 == g).collect();
        let passed = rows.iter().filter(|r| r.2).count();
        println!(
            "| {g} | {} | {passed} | {} |",
            rows.len(),
            rows.len() - passed
        );
    }
    println!(
        "\n{} cases, {} failed, poison {:#x}, guard {GUARD} elements, {:.1} s on {name}",
        report.rows.len(),
        failed.len(),
        POISON.to_bits(),
        started.elapsed().as_secs_f64()
    );
    if !device.is_interpreter() && cross_check::enabled() {
        let t = cross_check::tally();
        println!(
            "\nGPU vs CPU interpreter, same inputs: {} launches bit-identical (kernels without \
             float rounding differences), {} within {} ULP at the output's scale (max seen {} \
             ULP, {}); {} disagreed; not compared: {} over {} MiB, {} with a bare pointer",
            t.exact,
            t.bounded,
            cross_check::ulp_bound(true),
            t.max_ulps,
            if t.max_ulps_at.is_empty() {
                "-"
            } else {
                &t.max_ulps_at
            },
            t.disagreed,
            t.too_large,
            cross_check::MAX_BYTES >> 20,
            t.no_extent
        );
    }
    i32::from(!failed.is_empty())
}
