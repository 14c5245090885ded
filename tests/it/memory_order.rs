//! Memory order: a load after a store through the same addresses reads
//! what was stored — through pointer tensors and block pointers, masked
//! and not — on the interpreter (the cases of
//! `tile_tools::gpu_check::memory_order`, which the GPU check runs on the
//! GPU), and in the PTX at every optimisation level (-O0 to -O3): a
//! predicated reload is never merged with the load before the store.
//! The same cases on the PTX executor: `ptx_exec/memory_order.rs`.

use tile::{Device, Options};
use tile_tools::gpu_check::memory_order::{Access, kernel, memory_order};

#[test]
fn a_load_after_a_store_reads_what_was_stored_on_the_interpreter() {
    let cases = memory_order(&Device::interpreter());
    assert_eq!(cases.len(), 36);
    for (case, outcome) in cases {
        assert!(outcome.is_ok(), "{case}: {outcome:?}");
    }
}

/// The PTX instructions (one per line) that move global memory, in order.
fn global_accesses(ptx: &str) -> Vec<String> {
    ptx.lines()
        .map(str::trim)
        .filter(|l| l.contains("ld.global") || l.contains("st.global"))
        .map(str::to_string)
        .collect()
}

#[test]
fn predicated_reloads_survive_every_optimisation_level() {
    let context = tile::context().unwrap();
    for how in [Access::Masked, Access::Block] {
        let k = kernel(&context, "load_store_load", how);
        for opt_level in 0..=3 {
            let options = Options {
                opt_level,
                ..Options::default()
            };
            let ptx = tile::compile(&k, &options).unwrap().ptx;
            let kinds: Vec<&str> = global_accesses(&ptx)
                .iter()
                .map(|l| if l.contains("ld.global") { "ld" } else { "st" })
                .collect();
            // One element per thread: load, store, reload, store to y.
            assert_eq!(
                kinds,
                ["ld", "st", "ld", "st"],
                "{how:?} at -O{opt_level}:\n{ptx}"
            );
        }
    }
}
