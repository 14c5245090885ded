//! The kernels the compile benchmark measures, and the options each is
//! compiled with.

use tile::Options;
use tile_dialect::{DType, Kernel};
use tile_examples::{layer_norm, row_sum, vector_add};

/// One kernel the benchmark compiles: how it is built, its warps, and the
/// median a cold compilation must stay within.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// The kernel's name (its example's).
    pub name: &'static str,
    /// Builds the kernel in a context with the tile dialect.
    pub build: for<'c> fn(&'c melior::Context) -> tile_dialect::Result<Kernel<'c>>,
    /// Warps per program.
    pub num_warps: u32,
    /// The target for one cold compilation, in milliseconds.
    pub target_ms: f64,
    /// Compiled specialized as the JIT compiles it for the benchmark's
    /// launch: every pointer and integer argument divisible by 16 (the
    /// facts of 16-byte aligned buffers and `N = 8192`), so that its
    /// accesses move 16 bytes.
    pub specialized: bool,
}

/// The kernels measured: the vector add and the row sum with their default
/// blocks (target 25 ms), and the LayerNorm with an 8192-wide tile on 8
/// warps (target 40 ms: three loops over a tile eight times the row sum's),
/// unspecialized and as the JIT compiles it for the benchmark's launch.
pub const KERNELS: [Measured; 4] = [
    Measured {
        name: "safe_kernel",
        build: |c| vector_add::safe_kernel(c, vector_add::BLOCK),
        num_warps: 4,
        target_ms: 25.0,
        specialized: false,
    },
    Measured {
        name: "row_sum",
        build: |c| row_sum::row_sum(c, row_sum::BLOCK_N, DType::F32),
        num_warps: 4,
        target_ms: 25.0,
        specialized: false,
    },
    Measured {
        name: "layer_norm_fwd",
        build: |c| layer_norm::layer_norm_fwd(c, 8192),
        num_warps: 8,
        target_ms: 40.0,
        specialized: false,
    },
    Measured {
        name: "layer_norm_fwd_specialized",
        build: |c| layer_norm::layer_norm_fwd(c, 8192),
        num_warps: 8,
        target_ms: 40.0,
        specialized: true,
    },
];

/// Options of every measured compilation: the defaults with the kernel's
/// warps, without dumps.
pub(super) fn options(kernel: &Measured, built: &Kernel) -> Options {
    let options = Options {
        dump: None,
        ..Options::with_warps(kernel.num_warps)
    };
    if !kernel.specialized {
        return options;
    }
    let facts = built
        .params()
        .iter()
        .map(|p| match p.ty.num() {
            Some(d) if d.is_float() => tile::Fact::None,
            _ => tile::Fact::DivisibleBy16,
        })
        .collect();
    options.specialized(tile::Specialization { facts })
}
