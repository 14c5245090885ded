//! The seed kernels, written with the tile kernel builder.
//!
//! Each module holds one family of kernels from the seed documents, written
//! with [`tile_dialect::Kernel::build`] so that they read like the Triton
//! originals:
//!
//! | module | kernels | seed |
//! | --- | --- | --- |
//! | [`vector_add`] | [`safe_kernel`](vector_add::safe_kernel) | 000: masked 1-D add |
//! | [`masked_tile_2d`] | [`masked_tile_2d`](masked_tile_2d::masked_tile_2d) | 000: 2-D tile with explicit strides and masks |
//! | [`attention_tiles`] | [`q_tile_load`](attention_tiles::q_tile_load), [`k_tile_load_transposed`](attention_tiles::k_tile_load_transposed) | 001: `make_block_ptr` over `[B, T, H, K]`, virtual transpose |
//! | [`row_sum`] | [`row_sum`](row_sum::row_sum) | 002: iterative row sum with `advance` |
//! | [`weighted_sum`] | [`weighted_sum_fwd`](weighted_sum::weighted_sum_fwd), [`weighted_sum_bwd`](weighted_sum::weighted_sum_bwd) | 004: weighted sum, forward and backward |
//! | [`softmax`] | [`softmax`](softmax::softmax) | 000: `other = -inf` before a max reduction |
//! | [`layer_norm`] | [`layer_norm_fwd`](layer_norm::layer_norm_fwd) | Triton's tutorial 05: three loops, `where`, `sqrt` |
//! | [`matmul`] | [`matmul`](matmul::matmul) | Triton's tutorial 03: `dot` on tensor cores, K loop, grouped programs |
//! | [`gelu`] | [`gelu`](gelu::gelu) (`gelu_erf`, `gelu_tanh`) | PyTorch's GELU, exact and tanh forms: `erf` and `tanh` without libdevice |
//! | [`cross_entropy`] | [`cross_entropy_fwd`](cross_entropy::cross_entropy_fwd) | row log-sum-exp (online) and `argmax` over a vocabulary |
//! | [`layer_norm_bwd`] | [`layer_norm_bwd`](layer_norm_bwd::layer_norm_bwd) | LayerNorm backward: `DW` and `DB` summed per program, then `atomic_add` |
//! | [`histogram`] | [`histogram`](histogram::histogram) | `atomic_add` into shared bins |
//! | [`cumsum`] | [`block_scan`](cumsum::block_scan), [`scan_sums`](cumsum::scan_sums), [`add_offsets`](cumsum::add_offsets) | a prefix sum across programs: `cumsum` per block, then the blocks' totals |
//! | [`flash_attention`] | [`attention_fwd`](flash_attention::attention_fwd) | 001's q and transposed k tiles, multiplied: online softmax, causal, variable length |
//! | [`tile_shapes`] | [`kernel`](tile_shapes::kernel) (softmax and LayerNorm of `BM` rows, scale-bias, transpose, column sums, bias + GELU) | memory-bound kernels as Triton users write them, at any tile shape (`tile-tools shapes-bench`) |
//!
//! [`cudarc_interop`] runs the vector add inside a cudarc program: on
//! cudarc slices, on a stream of its own, ordered after another stream's
//! writes by an event.
//!
//! Compile-time parameters (block and tile sizes, Triton's `tl.constexpr`)
//! are arguments of the Rust functions; runtime values (sizes, strides) are
//! kernel arguments. [`ALL`] lists every kernel with its default parameters;
//! the `tile-kernels` binary builds them all and writes their IR. The
//! programs that run them on a GPU (the GPU check, the benchmarks) are in
//! the `tile-tools` crate (`tools/`).
//!
//! ```
//! let context = tile_dialect::new_context().unwrap();
//! for example in tile_examples::all() {
//!     let kernel = (example.build)(&context).unwrap();
//!     assert_eq!(kernel.name(), example.name);
//! }
//! ```

pub mod attention_tiles;
pub mod cross_entropy;
pub mod cudarc_interop;
pub mod cumsum;
pub mod flash_attention;
pub mod gelu;
pub mod histogram;
pub mod jagged_rows;
pub mod kernel_fn_checks;
pub mod kernel_fns;
pub mod layer_norm;
pub mod layer_norm_bwd;
pub mod layer_norm_bwd_grouped;
pub mod masked_tile_2d;
pub mod matmul;
pub mod matmul_styles;
pub mod row_sum;
pub mod softmax;
pub mod tile_shapes;
pub mod vector_add;
pub mod weighted_sum;

use tile_dialect::{DType, Kernel, Result};

/// One seed kernel with its default compile-time parameters.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The kernel's name: its `func.func` symbol and its output directory.
    pub name: &'static str,
    /// Builds (and verifies) the kernel in a context with the tile dialect.
    pub build: for<'c> fn(&'c melior::Context) -> Result<Kernel<'c>>,
}

/// Every seed kernel, with default parameters, in a stable order.
pub const ALL: &[Example] = &[
    Example {
        name: "safe_kernel",
        build: |c| vector_add::safe_kernel(c, vector_add::BLOCK),
    },
    Example {
        name: "masked_tile_2d",
        build: |c| masked_tile_2d::masked_tile_2d(c, masked_tile_2d::BM, masked_tile_2d::BK),
    },
    Example {
        name: "row_sum",
        build: |c| row_sum::row_sum(c, row_sum::BLOCK_N, DType::F32),
    },
    Example {
        name: "weighted_sum_fwd",
        build: |c| {
            weighted_sum::weighted_sum_fwd(
                c,
                weighted_sum::ROWS_TILE,
                weighted_sum::D_TILE,
                DType::F32,
            )
        },
    },
    Example {
        name: "weighted_sum_bwd",
        build: |c| {
            weighted_sum::weighted_sum_bwd(
                c,
                weighted_sum::ROWS_TILE,
                weighted_sum::D_TILE,
                DType::F32,
            )
        },
    },
    Example {
        name: "q_tile_load",
        build: |c| attention_tiles::q_tile_load(c, attention_tiles::BT, attention_tiles::BK),
    },
    Example {
        name: "k_tile_load_transposed",
        build: |c| {
            attention_tiles::k_tile_load_transposed(c, attention_tiles::BT, attention_tiles::BK)
        },
    },
    Example {
        name: "softmax",
        build: |c| softmax::softmax(c, softmax::BLOCK),
    },
    Example {
        name: "layer_norm_fwd",
        build: |c| layer_norm::layer_norm_fwd(c, layer_norm::BLOCK_SIZE),
    },
    Example {
        name: "gelu_erf",
        build: |c| gelu::gelu(c, gelu::Gelu::Erf, gelu::BLOCK, DType::F32),
    },
    Example {
        name: "gelu_tanh",
        build: |c| gelu::gelu(c, gelu::Gelu::Tanh, gelu::BLOCK, DType::F32),
    },
    Example {
        name: "cross_entropy_fwd",
        build: |c| cross_entropy::cross_entropy_fwd(c, cross_entropy::BLOCK),
    },
    Example {
        name: "layer_norm_bwd",
        build: |c| layer_norm_bwd::layer_norm_bwd(c, layer_norm_bwd::BLOCK_N),
    },
    Example {
        name: "layer_norm_bwd_dx_fused",
        build: |c| {
            layer_norm_bwd_grouped::dx_fused(
                c,
                layer_norm_bwd::BLOCK_N,
                layer_norm_bwd_grouped::GROUP,
            )
        },
    },
    Example {
        name: "layer_norm_bwd_dwdb",
        build: |c| layer_norm_bwd_grouped::dwdb(c, layer_norm_bwd_grouped::SUM_BLOCK),
    },
    Example {
        name: "histogram",
        build: |c| histogram::histogram(c, histogram::BLOCK),
    },
    Example {
        name: "block_scan",
        build: |c| cumsum::block_scan(c, cumsum::BLOCK, DType::I32),
    },
    Example {
        name: "scan_sums",
        build: |c| cumsum::scan_sums(c, cumsum::BLOCK, DType::I32),
    },
    Example {
        name: "add_offsets",
        build: |c| cumsum::add_offsets(c, cumsum::BLOCK, DType::I32),
    },
    Example {
        name: "matmul",
        build: |c| {
            matmul::matmul(
                c,
                matmul::MatmulConfig::default(),
                DType::F16,
                DType::F16,
                None,
                matmul::Epilogue::None,
            )
        },
    },
];

/// Every seed kernel with its default parameters ([`ALL`] as a vector).
pub fn all() -> Vec<Example> {
    ALL.to_vec()
}

/// The example called `name`, if there is one.
pub fn find(name: &str) -> Option<Example> {
    ALL.iter().copied().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_builds_and_prints_its_name() {
        let context = tile_dialect::new_context().unwrap();
        let mut names = Vec::new();
        for example in all() {
            let kernel = (example.build)(&context)
                .unwrap_or_else(|e| panic!("{} failed to build: {e}", example.name));
            assert_eq!(kernel.name(), example.name);
            let text = kernel.to_string();
            assert!(
                text.contains(&format!("@{}(", example.name)),
                "{} does not print its name:\n{text}",
                example.name
            );
            assert!(
                kernel.to_mlir_with_locations().contains("examples/src/"),
                "{}: locations should name the example sources",
                example.name
            );
            assert!(!names.contains(&example.name), "duplicate {}", example.name);
            names.push(example.name);
        }
        assert_eq!(names.len(), 20);
        assert!(find("softmax").is_some() && find("nope").is_none());
    }

    #[test]
    fn non_power_of_two_blocks_are_rejected() {
        let context = tile_dialect::new_context().unwrap();
        assert!(vector_add::safe_kernel(&context, 1000).is_err());
        assert!(row_sum::row_sum(&context, 48, DType::F32).is_err());
    }
}
