//! `tile.dot` on the CPU interpreter: the tutorial matmul in every input
//! type and precision, on each lowering's layouts (wgmma, mma.sync, fma),
//! transposed operands and the epilogue, against an f64 reference (the
//! cases of `tile_tools::gpu_check::matmul`, which the GPU check runs on
//! the GPU). Their sm_80 cases on the PTX executor: `ptx_exec/dot.rs`.

use tile::Device;
use tile_tools::gpu_check::matmul::cases;

#[test]
fn matmul_cases_run_on_the_interpreter() {
    let device = Device::interpreter();
    let all = cases(false);
    let failed: Vec<String> = all
        .iter()
        .filter_map(|c| c.run(&device).err().map(|e| format!("{}: {e}", c.name())))
        .collect();
    assert!(all.len() >= 60, "only {} cases", all.len());
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The matmul written each way users write it (`matmul_styles`), in every
/// input type, on the interpreter against an f64 reference (the cases of
/// `tile_tools::gpu_check::matmul_styles`); each kernel is also compiled
/// to PTX, specialized as the GPU's JIT would be.
#[test]
fn matmul_styles_run_on_the_interpreter() {
    let device = Device::interpreter();
    let all = tile_tools::gpu_check::matmul_styles::cases(false);
    let failed: Vec<String> = all
        .iter()
        .filter_map(|c| c.run(&device).err().map(|e| format!("{}: {e}", c.name())))
        .collect();
    assert!(all.len() >= 100, "only {} cases", all.len());
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// `matmul::autotuner` compiles each configuration with its own warps and
/// pipeline stages, and its kernel with the configuration's tiles.
#[test]
fn autotuned_matmul_configurations_carry_warps_and_stages() {
    use tile_dialect::DType;
    use tile_examples::matmul::{self, Epilogue};
    let options = tile::Options {
        num_stages: 2,
        ..tile::Options::default()
    };
    let tuner = matmul::autotuner(DType::F16, DType::F32, Epilogue::None, options).unwrap();
    let configs: Vec<tile::Config> = tuner.configs().cloned().collect();
    assert_eq!(configs.len(), matmul::tuning_configs().len());
    for (i, config) in configs.iter().enumerate() {
        let compiler = tuner.launcher(i).source();
        assert_eq!(compiler.options().num_warps, config.num_warps, "{config}");
        assert_eq!(
            Some(compiler.options().num_stages),
            config.num_stages,
            "{config}"
        );
        let tiles = matmul::tiles_of(config);
        let ir = compiler.ir();
        let a_tile = format!("tensor<{}x{}xf16", tiles.block_m, tiles.block_k);
        assert!(ir.contains(&a_tile), "{config}: no {a_tile} in the kernel");
    }
    let first = &configs[0];
    assert_eq!(
        first.to_string(),
        "BLOCK_M=128 BLOCK_N=256 BLOCK_K=64 warps=8 stages=3"
    );
    let grid = matmul::autotuned_grid(first, 1000, 1000);
    assert_eq!(grid, tile::Grid::from(8 * 4));
}
