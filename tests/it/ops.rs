//! Every op the builder offers, in every element type it accepts: built,
//! compiled through the whole pipeline to PTX, and run on the CPU
//! interpreter against a plain-Rust reference (the sweep of
//! `tile_tools::gpu_check::ops`, which the GPU check runs on the GPU). Ops
//! the GPU path cannot compile (float math that would need libdevice) are
//! refused by the builder, naming the op and the line.

use tile::{DType, Device, Kernel};
use tile_tools::gpu_check::ops::{Accuracy, every_op};

#[test]
fn every_op_in_every_type_compiles_and_runs_on_the_interpreter() {
    let cases = every_op(&Device::interpreter(), Accuracy::Exact);
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|(group, case, outcome)| {
            outcome
                .as_ref()
                .err()
                .map(|e| format!("{group} {case}: {e}"))
        })
        .collect();
    println!("{} cases", cases.len());
    assert!(cases.len() >= 390, "only {} cases", cases.len());
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
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
