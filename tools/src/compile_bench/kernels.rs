//! The kernels the compile benchmark measures, and the options each is
//! compiled with.

use tile::Options;
use tile_dialect::{DType, Kernel};
use tile_examples::matmul::{self, Epilogue, MatmulConfig};
use tile_examples::matmul_styles::{self, Style, StyleConfig};
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
    /// accesses move 16 bytes, except those named in `unit`.
    pub specialized: bool,
    /// Integer arguments equal to 1 in that launch (unit strides).
    pub unit: &'static [&'static str],
}

/// The kernels measured: the vector add and the row sum with their default
/// blocks (target 25 ms), the LayerNorm with an 8192-wide tile on 8 warps
/// (target 40 ms: three loops over a tile eight times the row sum's),
/// unspecialized and as the JIT compiles it for the benchmark's launch,
/// and the f16 matmul (target 100 ms) with its default 128x128x64 tiles
/// on 4 warps, and with the 128x256x64 tiles on 8 warps that
/// `tile-tools matmul-bench` finds fastest, specialized as it launches
/// them (row-major 4096^3: unit strides along K of A and N of B and C);
/// 3 pipeline stages, the default, in both. Then the matmul written the
/// other ways users write it (`matmul_styles`: tutorial 03's pointers,
/// recomputed offsets, `A @ B^T`, a batch, split-K, a persistent loop, a
/// `while` K loop), in the same tiles and specialization (target 150 ms).
pub const KERNELS: [Measured; 13] = [
    Measured {
        name: "safe_kernel",
        build: |c| vector_add::safe_kernel(c, vector_add::BLOCK),
        num_warps: 4,
        target_ms: 25.0,
        specialized: false,
        unit: &[],
    },
    Measured {
        name: "row_sum",
        build: |c| row_sum::row_sum(c, row_sum::BLOCK_N, DType::F32),
        num_warps: 4,
        target_ms: 25.0,
        specialized: false,
        unit: &[],
    },
    Measured {
        name: "layer_norm_fwd",
        build: |c| layer_norm::layer_norm_fwd(c, 8192),
        num_warps: 8,
        target_ms: 40.0,
        specialized: false,
        unit: &[],
    },
    Measured {
        name: "layer_norm_fwd_specialized",
        build: |c| layer_norm::layer_norm_fwd(c, 8192),
        num_warps: 8,
        target_ms: 40.0,
        specialized: true,
        unit: &[],
    },
    Measured {
        name: "matmul",
        build: |c| {
            let tiles = MatmulConfig::default();
            matmul::matmul(c, tiles, DType::F16, DType::F16, None, Epilogue::None)
        },
        num_warps: 4,
        target_ms: 100.0,
        specialized: false,
        unit: &[],
    },
    Measured {
        name: "matmul_specialized",
        build: |c| {
            let tiles = MatmulConfig {
                block_n: 256,
                ..MatmulConfig::default()
            };
            matmul::matmul(c, tiles, DType::F16, DType::F16, None, Epilogue::None)
        },
        num_warps: 8,
        target_ms: 100.0,
        specialized: true,
        unit: &["stride_ak", "stride_bn", "stride_cn"],
    },
    style("matmul_pointers", |c| styled(c, Style::Pointers)),
    style("matmul_recomputed", |c| styled(c, Style::Recomputed)),
    Measured {
        unit: &["stride_ak", "stride_bk", "stride_cn"],
        ..style("matmul_b_transposed", |c| styled(c, Style::TransposedB))
    },
    style("matmul_batched", |c| styled(c, Style::Batched)),
    style("matmul_split_k", |c| styled(c, Style::SplitK)),
    style("matmul_persistent", |c| styled(c, Style::Persistent)),
    style("matmul_while_k", |c| styled(c, Style::WhileK)),
];

/// A matmul style measured as `matmul_specialized` is.
const fn style(
    name: &'static str,
    build: for<'c> fn(&'c melior::Context) -> tile_dialect::Result<Kernel<'c>>,
) -> Measured {
    Measured {
        name,
        build,
        num_warps: 8,
        target_ms: 150.0,
        specialized: true,
        unit: &["stride_ak", "stride_bn", "stride_cn"],
    }
}

/// `style` in f16 with 128x256x64 tiles.
fn styled(context: &melior::Context, style: Style) -> tile_dialect::Result<Kernel<'_>> {
    let tiles = StyleConfig {
        block_m: 128,
        block_n: 256,
        block_k: 64,
        group_m: 8,
    };
    matmul_styles::kernel(context, style, tiles, DType::F16)
}

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
            _ if kernel.unit.contains(&p.name.as_str()) => tile::Fact::EqualToOne,
            _ => tile::Fact::DivisibleBy16,
        })
        .collect();
    options.specialized(tile::Specialization { facts })
}
