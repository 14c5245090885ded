//! The kernels of `tile-tools shapes-bench` (`tile_examples::tile_shapes`)
//! on the CPU interpreter at an odd size (37x200: partial tiles on both
//! axes) in several tile shapes and types, each checked as the benchmark
//! checks it on the GPU (`tile_tools::shapes_bench::check`: every output
//! element written, guards untouched, every element against a plain Rust
//! reference in f64; the row loops with a ragged last step); and each
//! default case of the benchmark compiled to PTX as the GPU's JIT compiles
//! it.

use tile::{DType, Device};
use tile_examples::tile_shapes::{Cover, ShapeKernel};
use tile_tools::shapes_bench::cases::{Case, Config, cases, configs_for};
use tile_tools::shapes_bench::ours::{self, Operands, run_checked};

/// The tile shapes each kind of kernel runs in here: `BM` of 1, 4 and 16
/// rows (a `BLOCK_N` of 256), tiles taller, wider and smaller than the
/// input's 37x200, column strips with a ragged last step.
fn configs(cover: Cover) -> Vec<Config> {
    let list: &[(i64, i64, u32)] = match cover {
        Cover::Rows => &[(1, 256, 1), (4, 256, 4), (16, 256, 4)],
        Cover::Tiles | Cover::TilesByColumns => {
            &[(16, 64, 2), (32, 32, 4), (64, 128, 4), (128, 16, 2)]
        }
        Cover::Columns => &[(8, 32, 1), (16, 64, 2), (64, 16, 2)],
        Cover::RowSteps => &[(1, 64, 1), (4, 128, 2), (16, 32, 4)],
    };
    list.iter()
        .map(|&(bm, bn, w)| Config::new(bm, bn, w))
        .collect()
}

#[test]
fn every_kernel_at_an_odd_size_in_several_tile_shapes() {
    let device = Device::interpreter();
    let mut failed = Vec::new();
    let mut runs = 0;
    for kernel in ShapeKernel::ALL {
        let types: &[DType] = match kernel {
            ShapeKernel::Gelu | ShapeKernel::GeluFast => &[DType::F16],
            ShapeKernel::Softmax
            | ShapeKernel::LayerNorm
            | ShapeKernel::Transpose
            | ShapeKernel::TransposeBlock
            | ShapeKernel::TransposeOrder
            | ShapeKernel::ChunkCumsum
            | ShapeKernel::ChunkCumsumRev
            | ShapeKernel::LayerNormLoop
            | ShapeKernel::SoftmaxOnline => &[DType::F32, DType::F16],
            ShapeKernel::ScaleBias => &[DType::F32, DType::BF16],
            _ => &[DType::F32],
        };
        for &dtype in types {
            let case = Case {
                kernel,
                dtype,
                m: 37,
                n: 200,
            };
            let mut operands = Operands::new(&device, &case).unwrap();
            for config in configs(kernel.cover()) {
                runs += 1;
                if let Err(e) = run_checked(&device, &mut operands, &config, true) {
                    failed.push(format!("{} {}: {e}", case.label(), config.name()));
                }
            }
        }
    }
    assert!(runs >= 60, "only {runs} runs");
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A row kernel whose `BLOCK_N` would miss columns is refused before it
/// runs (the check's own tests, in `tile_tools::shapes_bench::check`,
/// show wrong, unwritten and overrunning outputs caught).
#[test]
fn a_block_n_below_the_row_length_is_refused() {
    let device = Device::interpreter();
    let case = Case {
        kernel: ShapeKernel::Softmax,
        dtype: DType::F32,
        m: 37,
        n: 200,
    };
    let mut operands = Operands::new(&device, &case).unwrap();
    let e = run_checked(&device, &mut operands, &Config::new(4, 128, 4), true)
        .err()
        .unwrap();
    assert!(e.contains("BLOCK_N 128 is below N = 200"), "{e}");
}

/// Every default case of the benchmark compiles to PTX, specialized on its
/// launch arguments as the GPU's JIT specializes them, in its largest
/// configuration (the most elements a thread, the largest tile among
/// equals); the fast GELU's `tanh` is one `tanh.approx.f32`, the accurate
/// one's is not. (Every default configuration compiles; this keeps the
/// test to one a case.)
#[test]
fn each_default_case_compiles_to_ptx_specialized() {
    for case in cases(false) {
        let config = configs_for(&case)
            .into_iter()
            .max_by_key(|c| (c.per_thread(), c.tiles.bm * c.tiles.bn))
            .unwrap();
        let name = format!("{} {}", case.label(), config.name());
        let ptx = ours::ptx(&case, &config, true).unwrap_or_else(|e| panic!("{name}: {e}"));
        let approx = ptx.contains("tanh.approx.f32");
        assert_eq!(approx, case.kernel == ShapeKernel::GeluFast, "{name}");
    }
}
