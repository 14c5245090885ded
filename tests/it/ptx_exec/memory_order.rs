//! Memory order through the executor device: the cases of
//! `tile_tools::gpu_check::memory_order` (which `tests/it/memory_order.rs`
//! runs on the interpreter) compiled for sm_80 by `tile::jit` and run as
//! PTX: a load after a store through the same addresses reads what was
//! stored, through masked and unmasked pointer tensors and block
//! pointers, at -O0 to -O3. All 36 cases.

use tile_tools::gpu_check::memory_order::memory_order;

#[test]
fn a_load_after_a_store_reads_what_was_stored_on_the_executor() {
    let cases = memory_order(&tile_ptx_exec::device());
    assert_eq!(cases.len(), 36);
    let failed: Vec<String> = cases
        .into_iter()
        .filter_map(|(case, outcome)| outcome.err().map(|e| format!("{case}: {e}")))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
