//! `tile.dot` on the CPU interpreter: the tutorial matmul in every input
//! type and precision, on each lowering's layouts (wgmma, mma.sync, fma),
//! transposed operands and the epilogue, against an f64 reference (the
//! cases of `tile_tools::gpu_check::matmul`, which the GPU check runs on
//! the GPU).

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
