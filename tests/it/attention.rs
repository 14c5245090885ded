//! The flash-attention forward on the CPU interpreter: fixed-length and
//! ragged batches, causal or not, head dimensions 64 and 128, f16 and bf16,
//! against an f64 reference (the small cases of
//! `tile_tools::gpu_check::attention`, which the GPU check runs on the
//! GPU with more).

use tile::Device;
use tile_tools::gpu_check::attention::cases;

#[test]
fn attention_cases_run_on_the_interpreter() {
    let device = Device::interpreter();
    let all = cases(false);
    let failed: Vec<String> = all
        .iter()
        .filter_map(|c| c.run(&device).err().map(|e| format!("{}: {e}", c.name())))
        .collect();
    assert!(all.len() >= 12, "only {} cases", all.len());
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
