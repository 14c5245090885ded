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
