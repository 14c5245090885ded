//! Every op the builder offers, in every element type it accepts: built,
//! compiled through the whole pipeline to PTX, and run on the CPU
//! interpreter against a plain-Rust reference (the sweep of
//! `tile_tools::gpu_check::ops`, which the GPU check runs on the GPU). Ops
//! the GPU path cannot compile (float math that would need libdevice) are
//! refused by the builder, naming the op and the line. The same sweep on
//! the PTX executor, compiled for sm_80: `ptx_exec/ops.rs`.

use tile::{DType, Device, Kernel};
use tile_tools::gpu_check::ops::{Accuracy, SCAN_SAMPLE, groups, ops_of, scans_unsampled};

/// Runs the sweep `group` on the interpreter and fails listing every case
/// that failed; returns how many cases ran. `scan` runs the cases the PTX
/// executor's sweep does not (`ptx_exec/ops.rs` runs one in
/// [`SCAN_SAMPLE`]): each of its 768 cases runs once in CI.
fn sweep_passes(group: &str) -> usize {
    let device = Device::interpreter();
    let cases = if group == "scan" {
        scans_unsampled(&device, SCAN_SAMPLE)
            .into_iter()
            .map(|(case, outcome)| ("scan", case, outcome))
            .collect()
    } else {
        ops_of(&device, Accuracy::Exact, Some(group))
    };
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|(group, case, outcome)| {
            outcome
                .as_ref()
                .err()
                .map(|e| format!("{group} {case}: {e}"))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    cases.len()
}

/// One test per sweep of `gpu_check::ops` in a module `$module` (so that
/// the test harness runs them side by side), each running `$run(group)`,
/// which returns how many cases ran, with the number of cases it has now
/// as the least it may have: a sweep that loses cases fails until this is
/// changed with it. Here on the interpreter; `ptx_exec/ops.rs` on the PTX
/// executor.
macro_rules! one_test_per_sweep {
    ($(#[$doc:meta])* $module:ident, $run:path, $($group:ident >= $least:expr),* $(,)?) => {
        $(#[$doc])*
        mod $module {
            $(
                #[test]
                fn $group() {
                    let cases = $run(stringify!($group));
                    assert!(cases >= $least, "only {cases} cases");
                }
            )*

            /// The sweeps tested here, in the order `ops::groups` lists them.
            pub(super) const TESTED: &[&str] = &[$(stringify!($group)),*];
        }
    };
}
pub(crate) use one_test_per_sweep;

one_test_per_sweep! {
    /// Every op in every type, compiled through the whole pipeline and
    /// run on the interpreter against the plain-Rust references, one sweep
    /// a test.
    every_op_in_every_type,
    super::sweep_passes,
    float_unary >= 72,
    binary >= 120,
    nan >= 24,
    approximate >= 8,
    compare >= 72,
    fma >= 4,
    integer_neg_abs >= 8,
    cast >= 81,
    reduce >= 96,
    argmax >= 160,
    scan >= 512,
    atomic >= 54,
    control >= 184,
    shape >= 217,
    fp8 >= 18,
}

#[test]
fn every_sweep_has_its_test() {
    assert_eq!(groups().collect::<Vec<_>>(), every_op_in_every_type::TESTED);
}

#[test]
fn ops_that_need_libdevice_are_refused_by_the_builder_at_the_users_line() {
    let context = tile::context().unwrap();
    for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
        let tanh = Kernel::build(&context, "tanh", |k| {
            let x = k.arg_ptr("x", d);
            let v = k.load(x + k.arange(0, 16)).build();
            k.store(x + k.arange(0, 16), v.tanh()).build();
        });
        let rem = Kernel::build(&context, "remf", |k| {
            let x = k.arg_ptr("x", d);
            let v = k.load(x + k.arange(0, 16)).build();
            k.store(x + k.arange(0, 16), v % v).build();
        });
        // tanh is computed without libdevice, except in f64.
        assert_eq!(tanh.is_ok(), d != DType::F64, "tanh on {d}");
        let mut refused = vec![("arith.remf", rem)];
        if d == DType::F64 {
            refused.push(("math.tanh", tanh));
        }
        for (what, k) in refused {
            let e = k.err().unwrap_or_else(|| panic!("{what} on {d} accepted"));
            let text = e.to_string();
            assert!(text.contains(what) && text.contains("libdevice"), "{text}");
            assert!(text.contains(file!()), "{text}");
        }
    }
    // f64 transcendentals too; the exact ops are accepted in every float type.
    let exp = Kernel::build(&context, "exp64", |k| {
        let x = k.arg_ptr("x", DType::F64);
        let v = k.load(x + k.arange(0, 16)).build();
        k.store(x + k.arange(0, 16), v.exp()).build();
    });
    assert!(
        exp.err()
            .is_some_and(|e| e.to_string().contains("math.exp on f64"))
    );
}

#[test]
fn powers_and_clamps_are_built_from_arithmetic() {
    let context = tile::context().unwrap();
    let text = |build: fn(tile::Tile<'_>) -> tile::Tile<'_>| {
        Kernel::build(&context, "k", |k| {
            let x = k.arg_ptr("x", DType::F32);
            let v = k.load(x + k.arange(0, 16)).build();
            k.store(x + k.arange(0, 16), build(v)).build();
        })
        .unwrap()
        .to_string()
    };
    // x^5 by squaring: x*x, (x*x)*(x*x), x*(x^4): three multiplications.
    assert_eq!(text(|v| v.powi(5)).matches("arith.mulf").count(), 3);
    let inverse = text(|v| v.powi(-1));
    assert!(
        inverse.contains("arith.divf") && !inverse.contains("arith.mulf"),
        "{inverse}"
    );
    // x^0 is 1 even for NaN: zeros made by maxnum, then + 1.
    assert!(text(|v| v.powi(0)).contains("arith.maxnumf"));
    let pow = text(|v| v.pow(2.5));
    for op in ["math.log2", "math.exp2", "math.floor", "arith.select"] {
        assert!(pow.contains(op), "{op} missing from\n{pow}");
    }
    let clamp = text(|v| v.clamp(-1.0, 1.0, true));
    assert!(clamp.contains("arith.maximumf") && clamp.contains("arith.minimumf"));
}
