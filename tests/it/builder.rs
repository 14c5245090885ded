//! What the builder produces for valid programs: coercions, broadcasting,
//! casts, constants, loops and locations.

use tile::{DType, Elem, Kernel, KernelBuilder, Padding, TileType};

fn build(body: impl for<'k> FnOnce(&'k KernelBuilder<'k>)) -> String {
    let context = tile::context().unwrap();
    match Kernel::build(&context, "k", body) {
        Ok(k) => k.to_string(),
        Err(e) => panic!("{e}"),
    }
}

fn f32s(shape: &[i64]) -> Option<TileType> {
    Some(TileType::tensor(shape, Elem::Num(DType::F32)))
}

#[test]
fn outer_broadcast_of_a_column_and_a_row() {
    let text = build(|k| {
        let col = k.zeros(&[16, 1], DType::F32);
        let row = k.zeros(&[1, 64], DType::F32);
        let outer = col * row;
        assert_eq!(outer.ty(), f32s(&[16, 64]));
        let v = k.zeros(&[64], DType::F32);
        assert_eq!(
            (outer + v).ty(),
            f32s(&[16, 64]),
            "lower ranks gain leading axes"
        );
    });
    assert_eq!(text.matches("\"tile.broadcast\"").count(), 3, "{text}");
    assert!(text.contains("\"tile.expand_dims\""), "{text}");
}

#[test]
fn literals_take_the_type_of_the_tile_beside_them() {
    let text = build(|k| {
        let h = k.zeros(&[8], DType::BF16);
        assert_eq!((h * 2).ty().unwrap().num(), Some(DType::BF16));
        let i = k.arange(0, 8);
        assert_eq!((3i32 + i).ty().unwrap().num(), Some(DType::I32));
        let w = k.zeros(&[8], DType::I64);
        assert_eq!((w - 1).ty().unwrap().num(), Some(DType::I64));
    });
    assert!(
        text.contains("dense<2.000000e+00> : tensor<8xbf16>"),
        "{text}"
    );
    assert!(text.contains("dense<3> : tensor<8xi32>"), "{text}");
    assert!(text.contains("dense<1> : tensor<8xi64>"), "{text}");
}

#[test]
fn infinities_and_nan_in_every_float_type() {
    let text = build(|k| {
        for d in [DType::F16, DType::BF16, DType::F32, DType::F64] {
            let _ = k.full(&[4], f64::NEG_INFINITY, d);
            let _ = k.full(&[4], f64::INFINITY, d);
            let _ = k.full(&[4], f64::NAN, d);
        }
    });
    for expected in [
        "dense<0xFC00> : tensor<4xf16>",
        "dense<0x7C00> : tensor<4xf16>",
        "dense<0x7E00> : tensor<4xf16>",
        "dense<0xFF80> : tensor<4xbf16>",
        "dense<0xFF800000> : tensor<4xf32>",
        "dense<0x7FC00000> : tensor<4xf32>",
        "dense<0xFFF0000000000000> : tensor<4xf64>",
    ] {
        assert!(text.contains(expected), "{expected} missing from\n{text}");
    }
}

#[test]
fn casts_pick_the_right_arith_op() {
    let text = build(|k| {
        let h = k.zeros(&[8], DType::F16);
        let b = h.to(DType::BF16);
        let f = b.to(DType::F32);
        let i = f.to(DType::I32);
        let l = i.to(DType::I64);
        let back = l.to(DType::I32).to(DType::F32).to(DType::F16);
        let m = back.to(DType::I1);
        assert_eq!(m.ty().unwrap().num(), Some(DType::I1));
    });
    for op in [
        "arith.extf",
        "arith.truncf",
        "arith.fptosi",
        "arith.extsi",
        "arith.trunci",
        "arith.sitofp",
        "arith.cmpf une",
    ] {
        assert!(text.contains(op), "{op} missing from\n{text}");
    }
}

#[test]
fn comparisons_are_signed_and_ordered() {
    let text = build(|k| {
        let i = k.arange(0, 16);
        let f = i.to(DType::F32);
        let a = i.lt(5) & i.ge(1);
        let b = f.le(2.5) | f.gt(7.0);
        let _ = k.where_(a & !b, f, 0.0);
    });
    for s in [
        "arith.cmpi slt",
        "arith.cmpi sge",
        "arith.cmpf ole",
        "arith.cmpf ogt",
        "arith.andi",
        "arith.ori",
        "arith.xori",
        "arith.select",
    ] {
        assert!(text.contains(s), "{s} missing from\n{text}");
    }
}

#[test]
fn masked_load_without_other_and_scalar_store() {
    let text = build(|k| {
        let x = k.arg_ptr("x", DType::F16);
        let offs = k.arange(0, 32);
        let v = k.load(x + offs).mask(offs.lt(7)).build();
        assert_eq!(v.ty().unwrap().num(), Some(DType::F16));
        k.store(x + offs, 0.0).mask(offs.ge(7)).build();
        let s = k.load(x).build();
        assert!(s.ty().unwrap().is_scalar());
    });
    assert!(
        text.contains("operandSegmentSizes = array<i32: 1, 1, 0>"),
        "{text}"
    );
}

#[test]
fn the_iterative_row_sum_carries_a_block_pointer() {
    const BLOCK_N: i64 = 256;
    let text = build(|k| {
        let a = k.arg_ptr("a_ptr", DType::F32);
        let out = k.arg_ptr("out_ptr", DType::F32);
        let m = k.arg("m", DType::I64);
        let n = k.arg("n", DType::I32);
        let (sx, sy) = (k.arg("stride_x", DType::I64), k.arg("stride_y", DType::I64));
        let pid = k.program_id(0);
        let block = k
            .make_block_ptr(a)
            .shape([m, n.to(DType::I64)])
            .strides([sx, sy])
            .offsets([pid, k.i32(0)])
            .block_shape([1, BLOCK_N])
            .order([1, 0])
            .build();
        let acc = k.zeros(&[1], DType::F32);
        let [acc, _] = k.for_range(
            0,
            n.cdiv(BLOCK_N as i32),
            1,
            [acc, block],
            |_, [acc, block]| {
                let x = k
                    .load(block)
                    .boundary_check(&[0, 1])
                    .padding(Padding::Zero)
                    .build();
                [acc + x.sum(1), block.advance([0, BLOCK_N as i32])]
            },
        );
        let out_block = k
            .make_block_ptr(out)
            .shape([m])
            .strides([1])
            .offsets([pid])
            .block_shape([1])
            .build();
        k.store(out_block, acc).build();
    });
    assert!(text.contains("scf.for"), "{text}");
    assert!(text.contains("arith.ceildivsi"), "{text}");
    assert!(text.contains("iter_args"), "{text}");
    assert!(
        text.contains("-> (tensor<1xf32>, !tile.block_ptr<tensor<1x256xf32>>)"),
        "{text}"
    );
    assert!(text.contains("boundary_check = array<i32: 0, 1>"), "{text}");
}

#[test]
fn ops_carry_the_rust_source_line_as_their_location() {
    let context = tile::context().unwrap();
    let line = line!() + 2;
    let kernel = Kernel::build(&context, "k", |k| {
        let _ = k.program_id(1);
    })
    .unwrap();
    let text = kernel.to_mlir_with_locations();
    let expected = format!("loc(\"{}\":{line}:", file!());
    assert!(text.contains(&expected), "{expected} missing from\n{text}");
    assert_eq!(kernel.params(), &[]);
}

#[test]
fn parameters_keep_their_names_and_types() {
    let context = tile::context().unwrap();
    let kernel = Kernel::build(&context, "k", |k| {
        let _ = k.arg_ptr("x_ptr", DType::BF16);
        let _ = k.arg("n", DType::I64);
    })
    .unwrap();
    let names: Vec<&str> = kernel.params().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["x_ptr", "n"]);
    assert_eq!(kernel.params()[0].ty, TileType::ptr(DType::BF16));
    let text = kernel.to_string();
    assert!(
        text.contains("%arg0: !tile.ptr<bf16> {tile.name = \"x_ptr\"}"),
        "{text}"
    );
    assert!(text.contains("attributes {tile.kernel}"), "{text}");
}

/// `/` divides f16, bf16 and f32 as Triton's does (`arith.divf` marked
/// `fastmath<afn>`: `div.full.f32` on the GPU); `div_rn` and f64's `/` are
/// plain (correctly rounded); integers divide with `arith.divsi`.
#[test]
fn division_is_tritons_on_f32_and_below_and_correctly_rounded_on_request() {
    for (d, approximate) in [
        (DType::F16, true),
        (DType::BF16, true),
        (DType::F32, true),
        (DType::F64, false),
    ] {
        let text = build(|k| {
            let x = k.arg_ptr("x", d);
            let offs = k.arange(0, 16);
            let v = k.load(x + offs).build();
            k.store(x + offs, v / (v + 1.0)).build();
            k.store(x + offs, v.div_rn(v + 2.0)).build();
        });
        let divisions: Vec<&str> = text.lines().filter(|l| l.contains("arith.divf")).collect();
        assert_eq!(divisions.len(), 2, "{d}: {text}");
        assert_eq!(
            divisions[0].contains("fastmath<afn>"),
            approximate,
            "{d} `/`: {}",
            divisions[0]
        );
        assert!(
            !divisions[1].contains("fastmath"),
            "{d} div_rn: {}",
            divisions[1]
        );
    }
    let ints = build(|k| {
        let x = k.arg_ptr("x", DType::I32);
        let offs = k.arange(0, 16);
        let v = k.load(x + offs).build();
        k.store(x + offs, v / 3).build();
    });
    assert!(
        ints.contains("arith.divsi") && !ints.contains("fastmath"),
        "{ints}"
    );
}
