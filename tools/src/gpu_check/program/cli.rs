//! The command line of `tile-tools gpu-check`: every case, or one check
//! ([`Check`]).

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
    /// CUDA graphs: captured launches replayed (checked), and windows of
    /// 200 small launches replayed against launched one by one (timed).
    GraphBench {
        /// Windows of 200 launches timed.
        #[arg(long, value_name = "N", default_value_t = 200, value_parser = crate::timing::positive_count)]
        windows: usize,
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
    /// The cases no other subcommand runs: the seeds' kernels on irregular
    /// sizes, reductions, layer norms, memory order, block-pointer padding and
    /// the runtime's recompilation, threads and resource errors (with the
    /// summary table).
    Core {
        /// The smaller sizes only.
        #[arg(long)]
        quick: bool,
    },
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
    /// The seed kernels written with `#[tile::kernel]`, through their
    /// typed launchers, against plain Rust.
    KernelFns,
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
        /// Only this sweep (float_unary, binary, nan, approximate, compare,
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
    pub fn name(&self) -> &'static str {
        match self {
            Check::LaunchBench { .. } => "launch-bench",
            Check::GraphBench { .. } => "graph-bench",
            Check::Autotune { .. } => "autotune",
            Check::AotCompare { .. } => "aot-compare",
            Check::Fault => "fault",
            Check::Core { .. } => "core",
            Check::Matmul { .. } => "matmul",
            Check::MatmulStyles { .. } => "matmul-styles",
            Check::Attention { .. } => "attention",
            Check::Interop => "interop",
            Check::KernelFns => "kernel-fns",
            Check::MathAccuracy => "math-accuracy",
            Check::GeluDump { .. } => "gelu-dump",
            Check::Ops { .. } => "ops",
            Check::OpKernels { .. } => "op-kernels",
            Check::Debug => "debug",
            Check::DebugChild { .. } => "debug-child",
        }
    }
}
