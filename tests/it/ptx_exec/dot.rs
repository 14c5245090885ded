//! `tile.dot` through the executor device: the cases of
//! `tile_tools::gpu_check::matmul` and `matmul_styles` (which
//! `tests/it/dot.rs` runs on the interpreter) launched by their own code
//! on `tile_ptx_exec::device()`, so `tile::jit` compiles them for sm_80
//! (`mma.sync`, `ldmatrix`, `cp.async` pipelines) and the executor runs
//! the PTX; C is checked against the f64 reference, and each launch is
//! also cross-checked against the interpreter over the same inputs (the
//! GPU check's `Specializing` does that on any device but the
//! interpreter).
//!
//! A subset, to keep the suite's time: on this device a case's chip is
//! always sm_80, so the sm_90 cases would repeat the sm_80 ones, and the
//! autotuned ones would time every configuration on the CPU (minutes).
//! Kept: the sm_80 cases but those of the sweep of sizes, of which only
//! 100x33x70 (ragged in every dimension, several tiles) runs, in every
//! input type, and the 8-warp one of the tiles and warps (4 warps on the
//! same tiles, and 1 warp, run); and of the styles the sm_80 case of each (pipelined,
//! 130x64x192).

use tile_tools::gpu_check::{matmul, matmul_styles};

/// Fails listing every case that failed.
fn all_pass(what: &str, failed: Vec<String>, ran: usize, least: usize) {
    assert!(ran >= least, "{what}: only {ran} cases");
    assert!(
        failed.is_empty(),
        "{what}: {} of {ran} failed on the PTX executor:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn matmul_cases_run_on_the_executor() {
    let device = tile_ptx_exec::device();
    let skipped_sizes = [(1, 1, 1), (17, 17, 17), (64, 64, 64), (17, 64, 1000)];
    let cases: Vec<_> = matmul::cases(false)
        .into_iter()
        .filter(|c| c.chip == "sm_80" && !c.autotuned && c.warps != 8)
        .filter(|c| !skipped_sizes.contains(&(c.m, c.n, c.k)))
        .collect();
    let failed = cases
        .iter()
        .filter_map(|c| c.run(&device).err().map(|e| format!("{}: {e}", c.name())))
        .collect();
    all_pass("matmul", failed, cases.len(), 10);
}

#[test]
fn matmul_styles_run_on_the_executor() {
    let device = tile_ptx_exec::device();
    let cases: Vec<_> = matmul_styles::cases(false)
        .into_iter()
        .filter(|c| c.chip == "sm_80")
        .collect();
    let failed = cases
        .iter()
        .filter_map(|c| c.run(&device).err().map(|e| format!("{}: {e}", c.name())))
        .collect();
    all_pass("matmul styles", failed, cases.len(), 8);
}
