//! Every invalid program returns a typed error naming the op, the rule it
//! broke and the builder call's `file:line`. Each offending call sits on the
//! same line as the `line!()` it is compared with.

use tile::{BuildError, DType, IrError as Error, Kernel, KernelBuilder, Padding, Rule};

/// Builds a kernel whose body must fail; returns the error.
pub(crate) fn build_error(body: impl for<'k> FnOnce(&'k KernelBuilder<'k>)) -> BuildError {
    let context = tile::context().unwrap();
    match Kernel::build(&context, "bad", body) {
        Err(Error::Build(e)) => e,
        Err(other) => panic!("expected a build error, got {other}"),
        Ok(k) => panic!("expected a build error, got a kernel:\n{k}"),
    }
}

/// Asserts the error is `op` at this file's `line` and its message says so.
fn assert_at(e: &BuildError, op: &str, line: u32) {
    assert_eq!(e.op, op, "{e}");
    assert_eq!(e.at.file, file!(), "{e}");
    assert_eq!(e.at.line, line, "{e}");
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("{}:{line}:", file!())), "{shown}");
    assert!(shown.contains(op), "{shown}");
}

fn row_major_block<'k>(k: &'k KernelBuilder<'k>, shape: [i64; 2]) -> tile::Tile<'k> {
    let x = k.arg_ptr("x", DType::F32);
    let n = k.arg("n", DType::I64);
    k.make_block_ptr(x)
        .shape([n, n])
        .strides([n, k.i64(1)])
        .offsets([0, 0])
        .block_shape(shape)
        .order([1, 0])
        .build()
}

#[test]
fn elementwise_shape_mismatch() {
    let mut line = 0;
    let e = build_error(|k| {
        let (a, b) = (k.arange(0, 16), k.arange(0, 32));
        line = line!(); let _ = a + b;
    });
    assert_at(&e, "arith.addi", line);
    assert_eq!(e.rule, Rule::ShapeMismatch { lhs: vec![16], rhs: vec![32] });
}

#[test]
fn impossible_broadcast() {
    let mut line = 0;
    let e = build_error(|k| {
        let a = k.arange(0, 16).expand_dims(0);
        line = line!(); let _ = a.broadcast_to(&[16, 32]);
    });
    assert_at(&e, "tile.broadcast", line);
    assert!(matches!(e.rule, Rule::ImpossibleBroadcast { .. }), "{e}");
}

#[test]
fn two_dimensional_broadcast_mismatch() {
    let mut line = 0;
    let e = build_error(|k| {
        let a = k.zeros(&[16, 2], DType::F32);
        let b = k.zeros(&[4, 64], DType::F32);
        line = line!(); let _ = a * b;
    });
    assert_at(&e, "arith.mulf", line);
    assert!(matches!(e.rule, Rule::ShapeMismatch { .. }), "{e}");
}

#[test]
fn dtype_mismatch() {
    let mut line = 0;
    let e = build_error(|k| {
        let a = k.zeros(&[16], DType::F32);
        let b = k.zeros(&[16], DType::F16);
        line = line!(); let _ = a + b;
    });
    assert_at(&e, "arith.addf", line);
    assert_eq!(e.rule, Rule::DTypeMismatch { expected: "f32".into(), found: "f16".into() });
}

#[test]
fn float_literal_on_an_integer_tile() {
    let mut line = 0;
    let e = build_error(|k| {
        let a = k.arange(0, 16);
        line = line!(); let _ = a * 0.5;
    });
    assert_at(&e, "arith.muli", line);
    assert!(matches!(e.rule, Rule::DTypeMismatch { .. }), "{e}");
}

#[test]
fn mask_on_a_block_pointer_load() {
    let mut line = 0;
    let e = build_error(|k| {
        let p = row_major_block(k, [16, 64]);
        let m = k.full(&[16, 64], true, DType::I1);
        line = line!(); let _ = k.load(p).mask(m).build();
    });
    assert_at(&e, "tile.block_load", line);
    assert_eq!(e.rule, Rule::MaskOnBlockPointer);
}

#[test]
fn other_on_a_block_pointer_load() {
    let mut line = 0;
    let e = build_error(|k| {
        let p = row_major_block(k, [16, 64]);
        line = line!(); let _ = k.load(p).other(0.0).build();
    });
    assert_at(&e, "tile.block_load", line);
    assert_eq!(e.rule, Rule::OtherOnBlockPointer);
}

#[test]
fn mask_on_a_block_pointer_store() {
    let mut line = 0;
    let e = build_error(|k| {
        let p = row_major_block(k, [16, 64]);
        let m = k.full(&[16, 64], true, DType::I1);
        line = line!(); k.store(p, 0.0).mask(m).build();
    });
    assert_at(&e, "tile.block_store", line);
    assert_eq!(e.rule, Rule::MaskOnBlockPointer);
}

#[test]
fn boundary_check_on_a_pointer_tensor_load() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let p = x + k.arange(0, 64);
        line = line!(); let _ = k.load(p).boundary_check(&[0]).build();
    });
    assert_at(&e, "tile.load", line);
    assert_eq!(e.rule, Rule::BoundaryCheckWithoutBlockPointer);
}

#[test]
fn padding_on_a_pointer_tensor_load() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let p = x + k.arange(0, 64);
        line = line!(); let _ = k.load(p).padding(Padding::Nan).build();
    });
    assert_at(&e, "tile.load", line);
    assert_eq!(e.rule, Rule::PaddingWithoutBlockPointer);
}

#[test]
fn boundary_check_axis_out_of_range() {
    let mut line = 0;
    let e = build_error(|k| {
        let p = row_major_block(k, [16, 64]);
        line = line!(); let _ = k.load(p).boundary_check(&[0, 2]).build();
    });
    assert_at(&e, "tile.block_load", line);
    assert_eq!(e.rule, Rule::AxisOutOfRange { what: "boundary_check", axis: 2, rank: 2 });
}

#[test]
fn order_not_a_permutation() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let n = k.arg("n", DType::I64);
        let b = k.make_block_ptr(x).shape([n, n]).strides([n, n]).offsets([0, 0]).block_shape([16, 16]);
        line = line!(); let _ = b.order([0, 0]).build();
    });
    // The error names the make_block_ptr call, where the builder started.
    assert_at(&e, "tile.make_block_ptr", line - 1);
    assert_eq!(e.rule, Rule::OrderNotPermutation { order: vec![0, 0] });
}

#[test]
fn block_pointer_parts_of_different_ranks() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let n = k.arg("n", DType::I64);
        line = line!(); let _ = k.make_block_ptr(x).shape([n, n]).strides([n]).offsets([0, 0]).block_shape([16, 16]).order([1, 0]).build();
    });
    assert_at(&e, "tile.make_block_ptr", line);
    assert_eq!(
        e.rule,
        Rule::RankMismatch { shape: 2, strides: 1, offsets: 2, block_shape: 2, order: 2 }
    );
}

#[test]
fn block_dims_not_powers_of_two() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let n = k.arg("n", DType::I64);
        line = line!(); let _ = k.make_block_ptr(x).shape([n, n]).strides([n, n]).offsets([0, 0]).block_shape([16, 48]).build();
    });
    assert_at(&e, "tile.make_block_ptr", line);
    assert_eq!(e.rule, Rule::NotPowerOfTwo { what: "block_shape", dims: vec![16, 48] });
}

#[test]
fn reduce_axis_out_of_range() {
    let mut line = 0;
    let e = build_error(|k| {
        let t = k.zeros(&[16, 64], DType::F32);
        line = line!(); let _ = t.sum(2);
    });
    assert_at(&e, "tile.reduce", line);
    assert_eq!(e.rule, Rule::AxisOutOfRange { what: "reduce", axis: 2, rank: 2 });
}

#[test]
fn store_value_shape_differs_from_the_pointer_tile() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let p = x + k.arange(0, 64);
        let v = k.zeros(&[32], DType::F32);
        line = line!(); k.store(p, v).build();
    });
    assert_at(&e, "tile.store", line);
    assert_eq!(e.rule, Rule::StoreShapeMismatch { value: vec![32], ptr: vec![64] });
}

#[test]
fn block_store_value_shape_differs_from_the_block() {
    let mut line = 0;
    let e = build_error(|k| {
        let p = row_major_block(k, [16, 64]);
        let v = k.zeros(&[16, 32], DType::F32);
        line = line!(); k.store(p, v).build();
    });
    assert_at(&e, "tile.block_store", line);
    assert!(matches!(e.rule, Rule::StoreShapeMismatch { .. }), "{e}");
}

#[test]
fn mask_not_broadcastable_to_the_pointer_tile() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let rows = k.arange(0, 16).expand_dims(1);
        let cols = k.arange(0, 64).expand_dims(0);
        let p = x + rows * 64 + cols;
        let m = k.arange(0, 16).lt(10);
        line = line!(); let _ = k.load(p).mask(m).build();
    });
    assert_at(&e, "tile.load", line);
    assert_eq!(e.rule, Rule::MaskNotBroadcastable { mask: vec![16], ptr: vec![16, 64] });
}

#[test]
fn mask_not_broadcastable_on_a_store() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let p = x + k.arange(0, 64);
        let m = k.arange(0, 32).lt(10);
        line = line!(); k.store(p, 1.0).mask(m).build();
    });
    assert_at(&e, "tile.store", line);
    assert!(matches!(e.rule, Rule::MaskNotBroadcastable { .. }), "{e}");
}

#[test]
fn arange_of_non_power_of_two_length() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.arange(0, 100);
    });
    assert_at(&e, "tile.arange", line);
    assert_eq!(e.rule, Rule::BadRange { start: 0, end: 100 });
}

#[test]
fn program_id_axis_out_of_range() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.program_id(3);
    });
    assert_at(&e, "tile.program_id", line);
}

#[test]
fn value_used_outside_its_loop() {
    let mut line = 0;
    let e = build_error(|k| {
        let mut escaped = None;
        let [_] = k.for_range(0, 4, 1, [k.f32(0.0)], |i, [acc]| {
            escaped = Some(i);
            [acc]
        });
        line = line!(); let _ = escaped.unwrap() + 1;
    });
    assert_at(&e, "arith.addi", line);
    assert_eq!(e.rule, Rule::ValueOutOfScope);
}

#[test]
fn loop_body_yielding_another_type() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.for_range(0, 4, 1, [k.zeros(&[16], DType::F32)], |_, [acc]| [acc.sum(0).to(DType::F32)]);
    });
    assert_at(&e, "scf.for", line);
    assert!(matches!(e.rule, Rule::LoopCarriedMismatch { index: 0, .. }), "{e}");
}

#[test]
fn branches_yielding_other_types() {
    let mut line = 0;
    let e = build_error(|k| {
        let c = k.program_id(0).eq(0);
        line = line!(); let _ = k.if_else(c, || [k.zeros(&[16], DType::F32)], || [k.zeros(&[16], DType::F16)]);
    });
    assert_at(&e, "scf.if", line);
    assert!(matches!(e.rule, Rule::BranchMismatch { index: 0, .. }), "{e}");
    assert!(e.to_string().contains("tensor<16xf32>") && e.to_string().contains("tensor<16xf16>"), "{e}");
}

#[test]
fn conditions_must_be_scalar_i1() {
    // A tensor of i1 (a per-element choice is `where_`), and an i32.
    for (which, mut line) in [("tensor", 0), ("i32", 0)] {
        let e = build_error(|k| {
            let c = if which == "tensor" { k.arange(0, 16).lt(4) } else { k.program_id(0) };
            line = line!(); k.if_then(c, || {});
        });
        assert_at(&e, "scf.if", line);
        assert!(e.to_string().contains("a scalar i1"), "{e}");
    }
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.while_loop([k.i32(0)], |[i]| i + 1, |[i]| [i + 1]);
    });
    assert_at(&e, "scf.while", line);
    assert!(matches!(e.rule, Rule::WrongOperand { what: "condition", .. }), "{e}");
}

#[test]
fn while_body_yielding_another_type_and_values_escaping_a_branch() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.while_loop([k.i32(0)], |[i]| i.lt(4), |[i]| [i.to(DType::I64)]);
    });
    assert_at(&e, "scf.while", line);
    assert!(matches!(e.rule, Rule::LoopCarriedMismatch { index: 0, .. }), "{e}");
    let e = build_error(|k| {
        let mut escaped = None;
        k.if_then(k.program_id(0).eq(0), || escaped = Some(k.arange(0, 16)));
        line = line!(); let _ = escaped.unwrap() + 1;
    });
    assert_at(&e, "arith.addi", line);
    assert_eq!(e.rule, Rule::ValueOutOfScope);
}

#[test]
fn shape_ops_refuse_what_does_not_fit() {
    let mut line = 0;
    let e = build_error(|k| {
        let a = k.arange(0, 64);
        line = line!(); let _ = a.reshape(&[8, 4]);
    });
    assert_at(&e, "tile.reshape", line);
    assert_eq!(e.rule, Rule::ReshapeSize { from: vec![64], to: vec![8, 4] });

    let e = build_error(|k| {
        let a = k.arange(0, 64).reshape(&[8, 8]);
        line = line!(); let _ = a.permute(&[0, 0]);
    });
    assert_at(&e, "tile.permute", line);
    assert_eq!(e.rule, Rule::OrderNotPermutation { order: vec![0, 0] });

    let e = build_error(|k| {
        let (a, b) = (k.arange(0, 64), k.arange(0, 32));
        line = line!(); let _ = a.join(b);
    });
    assert_at(&e, "tile.join", line);
    assert_eq!(e.rule, Rule::UnequalShapes { lhs: vec![64], rhs: vec![32], axis: None });

    let e = build_error(|k| {
        let a = k.arange(0, 64);
        line = line!(); let _ = a.split();
    });
    assert_at(&e, "tile.split", line);
    assert!(matches!(e.rule, Rule::WrongOperand { what: "split source", .. }), "{e}");

    let e = build_error(|k| {
        let a = k.arange(0, 64).reshape(&[8, 8]);
        let b = k.arange(0, 32).reshape(&[4, 8]);
        line = line!(); let _ = a.cat(b, 1);
    });
    assert_at(&e, "tile.cat", line);
    assert_eq!(e.rule, Rule::UnequalShapes { lhs: vec![8, 8], rhs: vec![4, 8], axis: Some(1) });

    let e = build_error(|k| {
        let a = k.arange(0, 64).reshape(&[8, 8]);
        let b = k.arange(0, 32).reshape(&[4, 8]);
        line = line!(); let _ = a.cat(b, 0);
    });
    assert_at(&e, "tile.cat", line);
    assert!(matches!(e.rule, Rule::NotPowerOfTwo { .. }), "{e}");
}

#[test]
fn the_first_error_wins_and_later_calls_do_nothing() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let a = k.arange(0, 3);
        let b = a + k.arange(0, 64); // poison in, poison out: no second error
        assert!(b.ty().is_none());
    });
    assert_at(&e, "tile.arange", line);
}

#[test]
fn kernel_names_must_be_identifiers() {
    let context = tile::context().unwrap();
    let line = line!(); let r = Kernel::build(&context, "not a name", |_| {});
    let Err(Error::Build(e)) = r else { panic!("expected a build error") };
    assert_at(&e, "func.func", line);
}

#[test]
fn printing_a_pointer_and_asserting_a_number_are_refused() {
    let mut line = 0;
    let e = build_error(|k| {
        let p = k.arg_ptr("p", DType::F32) + k.arange(0, 16);
        line = line!(); k.device_print("p", &[k.arange(0, 16), p]);
    });
    assert_at(&e, "tile.print", line);
    assert!(matches!(e.rule, Rule::WrongOperand { what: "printed value", .. }), "{e}");
    let e = build_error(|k| {
        line = line!(); k.device_assert(k.arange(0, 16), "not a condition");
    });
    assert_at(&e, "tile.assert", line);
    assert!(e.to_string().contains("tensor<16xi32>"), "{e}");
}

#[test]
fn arithmetic_and_sums_on_8_bit_floats_are_refused() {
    let mut line = 0;
    let e = build_error(|k| {
        let x = k.load(k.arg_ptr("x", DType::F8E4M3) + k.arange(0, 16)).build();
        line = line!(); let _ = x * x;
    });
    assert_at(&e, "arith.mulf", line);
    assert!(matches!(&e.rule, Rule::Fp8Arithmetic { dtype } if dtype == "f8E4M3FN"), "{e}");
    let e = build_error(|k| {
        let x = k.load(k.arg_ptr("x", DType::F8E5M2) + k.arange(0, 16)).build();
        line = line!(); let _ = x.sum(0);
    });
    assert_at(&e, "tile.reduce", line);
    // Converting first is the way: no error.
    let context = tile::context().unwrap();
    let ok = Kernel::build(&context, "fp8_ok", |k| {
        let p = k.arg_ptr("x", DType::F8E4M3) + k.arange(0, 16);
        let x = k.load(p).build().to(DType::F32);
        k.store(p, (x * x).to(DType::F8E4M3)).build();
    });
    assert!(ok.is_ok(), "{:?}", ok.err());
}

#[test]
fn hints_on_what_they_cannot_describe() {
    let mut line = 0;
    // A kernel argument: its facts come from specialization.
    let e = build_error(|k| {
        let n = k.arg("n", DType::I32);
        line = line!(); let _ = n.multiple_of(&[16]);
    });
    assert_at(&e, "tile.multiple_of", line);
    assert_eq!(e.rule, Rule::HintTarget { hint: "multiple_of" });
    // A loop's result.
    let e = build_error(|k| {
        let [s] = k.for_range(0, 4, 1, [k.i32(0)], |i, [s]| [s + i]);
        line = line!(); let _ = s.max_contiguous(&[1]);
    });
    assert_at(&e, "tile.max_contiguous", line);
    assert_eq!(e.rule, Rule::HintTarget { hint: "max_contiguous" });
    // Floats.
    let e = build_error(|k| {
        let x = k.arg_ptr("x", DType::F32);
        let v = k.load(x + k.arange(0, 16)).build();
        line = line!(); let _ = v.max_constancy(&[4]);
    });
    assert_at(&e, "tile.max_constancy", line);
    assert!(matches!(e.rule, Rule::HintType { hint: "max_constancy", .. }), "{e}");
    // One value for a 2-D tile, and a run longer than its axis.
    for (values, rank2) in [(&[16][..], true), (&[1, 64][..], true), (&[0][..], false)] {
        let e = build_error(|k| {
            let r = k.arange(0, 32);
            let t = if rank2 { r.expand_dims(0) + r.expand_dims(1) } else { r + 1 };
            line = line!(); let _ = t.max_contiguous(values);
        });
        assert_at(&e, "tile.max_contiguous", line);
        assert!(matches!(e.rule, Rule::HintValues { .. }), "{e}");
    }
}

/// `sigmoid`, `pow` and `powi` are built of several ops; on an integer
/// tile they blamed one the user never wrote (`arith.muli`, a float
/// literal). The error now names the function at the user's line.
#[test]
fn composite_float_functions_on_integer_tiles_name_the_function() {
    let mut line = 0;
    for d in [DType::I32, DType::I8] {
        let check = |e: BuildError, what: &'static str, line: u32| {
            assert_at(&e, what, line);
            assert_eq!(e.rule, Rule::UnsupportedDType { what, dtype: d }, "{e}");
        };
        let e = build_error(|k| {
            let t = k.arange(0, 16).to(d);
            line = line!(); let _ = t.sigmoid();
        });
        check(e, "sigmoid", line);
        let e = build_error(|k| {
            let t = k.arange(0, 16).to(d);
            line = line!(); let _ = t.pow(2.0);
        });
        check(e, "pow", line);
        for n in [0, 3] {
            let e = build_error(|k| {
                let t = k.arange(0, 16).to(d);
                line = line!(); let _ = t.powi(n);
            });
            check(e, "powi", line);
        }
    }
}
