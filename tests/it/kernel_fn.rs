//! `#[tile::kernel]`: kernels written as Rust functions build the same IR
//! (and so the same PTX) as their builder versions, run through their
//! typed launchers on the interpreter, and carry values through loops and
//! branches as Triton does.

use tile::prelude::*;
use tile::{Arg, Options};
use tile_examples::kernel_fns;

/// The PTX without its line table and debug sections (the two versions
/// are written on different lines).
fn code_of(kernel: &Kernel, chip: &str) -> String {
    let options = Options {
        chip: chip.into(),
        ..Options::default()
    };
    let ptx = tile::compile(kernel, &options).unwrap().ptx;
    ptx.lines()
        .take_while(|l| !l.trim_start().starts_with(".section"))
        .filter(|l| !l.trim_start().starts_with(".loc") && !l.trim_start().starts_with(".file"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The macro's kernel and the builder's: the same IR (ops, types, names,
/// in order) and the same PTX.
fn assert_same(by_macro: &Kernel, by_builder: &Kernel, chips: &[&str]) {
    assert_eq!(by_macro.to_string(), by_builder.to_string());
    for chip in chips {
        let (a, b) = (code_of(by_macro, chip), code_of(by_builder, chip));
        assert!(a.contains(".entry"), "{a}");
        assert_eq!(a, b, "{chip}");
    }
}

#[test]
fn seed_kernels_as_functions_compile_to_the_builders_ptx() {
    use tile_examples::{layer_norm, matmul, softmax, vector_add};
    let context = tile::context().unwrap();
    assert_same(
        &kernel_fns::safe_kernel::build(&context, 1024).unwrap(),
        &vector_add::safe_kernel(&context, 1024).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::softmax::build(&context, 1024).unwrap(),
        &softmax::softmax(&context, 1024).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::layer_norm_fwd::build(&context, 512).unwrap(),
        &layer_norm::layer_norm_fwd(&context, 512).unwrap(),
        &["sm_80"],
    );
    let config = matmul::MatmulConfig {
        block_m: 128,
        block_n: 64,
        block_k: 32,
        group_m: 8,
        a_order: [1, 0],
        b_order: [1, 0],
    };
    let builder = matmul::matmul(
        &context,
        config,
        DType::F16,
        DType::F32,
        None,
        matmul::Epilogue::None,
    )
    .unwrap();
    let by_macro = kernel_fns::matmul::build(&context, 128, 64, 32, 8).unwrap();
    assert_same(&by_macro, &builder, &["sm_80", "sm_90"]);
}

/// The other seeds: tensors of pointers with 2-D masks, block pointers
/// (a virtual transpose among them), loops carrying block pointers, and
/// kernels generic over their element type (`fn row_sum<T>(a_ptr:
/// Ptr<T>, ..)`, one kernel per `T`, as the builder's dtype argument).
#[test]
fn the_other_seed_kernels_as_functions_build_the_builders_ir() {
    use tile::half::{bf16, f16};
    use tile_examples::{attention_tiles, masked_tile_2d, row_sum, weighted_sum};
    let context = tile::context().unwrap();
    assert_same(
        &kernel_fns::masked_tile_2d::build(&context, 32, 64).unwrap(),
        &masked_tile_2d::masked_tile_2d(&context, 32, 64).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::row_sum::build::<f32>(&context, 256).unwrap(),
        &row_sum::row_sum(&context, 256, DType::F32).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::row_sum::build::<bf16>(&context, 256).unwrap(),
        &row_sum::row_sum(&context, 256, DType::BF16).unwrap(),
        &[],
    );
    assert_same(
        &kernel_fns::weighted_sum_fwd::build::<f16>(&context, 16, 64).unwrap(),
        &weighted_sum::weighted_sum_fwd(&context, 16, 64, DType::F16).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::weighted_sum_bwd::build::<f32>(&context, 16, 64).unwrap(),
        &weighted_sum::weighted_sum_bwd(&context, 16, 64, DType::F32).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::q_tile_load::build(&context, 64, 32).unwrap(),
        &attention_tiles::q_tile_load(&context, 64, 32).unwrap(),
        &["sm_90"],
    );
    assert_same(
        &kernel_fns::k_tile_load_transposed::build(&context, 64, 32).unwrap(),
        &attention_tiles::k_tile_load_transposed(&context, 64, 32).unwrap(),
        &["sm_90"],
    );
    // One kernel per element type, each made once.
    let (a, b) = (
        kernel_fns::row_sum::jit::<f32>(128).unwrap(),
        kernel_fns::row_sum::jit::<bf16>(128).unwrap(),
    );
    assert!(!std::sync::Arc::ptr_eq(&a, &b));
    assert!(std::sync::Arc::ptr_eq(
        &a,
        &kernel_fns::row_sum::jit::<f32>(128).unwrap()
    ));
}

#[test]
fn typed_launches_run_the_seed_kernels_on_the_interpreter() {
    let device = Device::interpreter();
    let cases = tile_examples::kernel_fn_checks::cases(&device, false);
    assert_eq!(cases.len(), 12);
    for (name, outcome) in cases {
        outcome.unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// Loops and branches: what a loop carries and a branch yields is found
/// from the assignments, on tiles and on constexpr `bool`s alike.
#[tile::kernel]
fn flow(x: Ptr<f32>, out: Ptr<f32>, n: i32, #[constexpr] twice: bool) {
    let offs = arange(0, 64);
    let mut acc = zeros(&[64], DType::F32);
    let mut count = i32(0);
    for i in range(n) {
        let v = load(x + i * 64 + offs).build();
        if i.lt(2) {
            acc += v;
        } else {
            acc = acc + v * 2.0;
        }
        for _ in range(0, 2).num_stages(2) {
            count += 1;
        }
    }
    let scale = if n.gt(3) {
        full(&[64], 10.0f64, DType::F32)
    } else {
        full(&[64], 1.0f64, DType::F32)
    };
    if twice {
        acc = acc * 2.0;
    }
    // An `else if` chain on tiles, carrying `acc` through both levels.
    if n.eq(1) {
        acc = acc + 1000.0;
    } else if n.eq(3) {
        acc = acc + 3000.0;
    } else {
        acc = acc + 0.0;
    }
    let mut unrolled = zeros(&[64], DType::F32);
    for _ in 0..3 {
        unrolled += 1.0;
    }
    if count.gt(100) {
        store(out + offs, -1.0).build();
    } else {
        store(out + offs, acc * scale + count.to(DType::F32) + unrolled).build();
    }
}

#[test]
fn loops_carry_and_branches_yield_what_they_assign() {
    let device = Device::interpreter();
    let rows = 5;
    let x: Vec<f32> = (0..rows * 64)
        .map(|i| (i % 64) as f32 + (i / 64) as f32 * 100.0)
        .collect();
    let xb = device.upload(&x).unwrap();
    for (n, twice) in [(5, false), (3, true), (0, false)] {
        let mut out = device.alloc::<f32>(64).unwrap();
        flow::launch(&device, 1, &xb, &mut out, n, twice).unwrap();
        let got = device.download(&out).unwrap();
        for (c, g) in got.iter().enumerate() {
            let mut acc = 0.0f32;
            for i in 0..n as usize {
                let v = x[i * 64 + c];
                acc += if i < 2 { v } else { v * 2.0 };
            }
            if twice {
                acc *= 2.0;
            }
            acc += match n {
                1 => 1000.0,
                3 => 3000.0,
                _ => 0.0,
            };
            let scale = if n > 3 { 10.0 } else { 1.0 };
            let want = acc * scale + (2 * n) as f32 + 3.0;
            assert_eq!(*g, want, "n {n}, twice {twice}, column {c}");
        }
    }
    // One kernel per constexpr value, each made once.
    let context = tile::context().unwrap();
    let a = flow::build(&context, false).unwrap().to_string();
    let b = flow::build(&context, true).unwrap().to_string();
    assert_ne!(a, b);
    assert!(std::sync::Arc::ptr_eq(
        &flow::jit(true).unwrap(),
        &flow::jit(true).unwrap()
    ));
    assert!(a.contains("scf.for") && a.contains("scf.if"), "{a}");
}

#[tile::kernel]
fn not_a_power_of_two(x: Ptr<f32>) {
    let offs = arange(0, 48);
    store(x + offs, 1.0).build();
}

#[test]
fn errors_name_the_line_in_the_kernel_function() {
    let context = tile::context().unwrap();
    let Err(e) = not_a_power_of_two::build(&context) else {
        panic!("a 48-element arange is refused")
    };
    let message = e.to_string();
    // `Debug` is the message, for `?` in `main`.
    assert_eq!(format!("{e:?}"), message);
    let e = message;
    let at = e
        .split("kernel_fn.rs:")
        .nth(1)
        .unwrap_or_else(|| panic!("{e}"));
    let line: usize = at.split(':').next().unwrap().parse().unwrap();
    let source = include_str!("kernel_fn.rs");
    assert!(
        source
            .lines()
            .nth(line - 1)
            .unwrap()
            .contains("arange(0, 48)"),
        "{e}"
    );
}

#[test]
fn arg_arrays_still_launch_a_jit_of_the_function() {
    let device = Device::interpreter();
    let x = device.upload(&[1.0f32; 300]).unwrap();
    let y = device.upload(&[2.0f32; 300]).unwrap();
    let out = device.alloc::<f32>(300).unwrap();
    let jit = kernel_fns::safe_kernel::jit(128).unwrap();
    jit.launch(
        &device,
        3,
        &[Arg::from(&x), Arg::from(&y), Arg::from(&out), Arg::I32(300)],
    )
    .unwrap();
    assert_eq!(device.download(&out).unwrap(), vec![3.0; 300]);
}

#[test]
fn arg_arrays_are_checked_for_the_pointers_element_type() {
    let device = Device::interpreter();
    let wide = device.upload(&[1.0f64; 300]).unwrap();
    let y = device.upload(&[2.0f32; 300]).unwrap();
    let out = device.alloc::<f32>(300).unwrap();
    let jit = kernel_fns::safe_kernel::jit(128).unwrap();
    let e = jit
        .launch(
            &device,
            3,
            &[
                Arg::from(&wide),
                Arg::from(&y),
                Arg::from(&out),
                Arg::I32(300),
            ],
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel `safe_kernel`: argument 0 (`x_ptr`) points at f64 elements, but the kernel reads f32 through it"
    );
    // Integers of the kernel's width pass either signedness; bare
    // addresses are not known, so not checked.
    let bytes = device.upload(&[7u32; 300]).unwrap();
    let ints = tile::jit(
        &tile::Kernel::build(&tile::context().unwrap(), "copy_i32", |k| {
            let (x, o) = (k.arg_ptr("x", DType::I32), k.arg_ptr("o", DType::I32));
            let offs = k.arange(0, 512);
            let m = offs.lt(300);
            k.store(o + offs, k.load(x + offs).mask(m).build())
                .mask(m)
                .build();
        })
        .unwrap(),
        Options::default(),
    )
    .unwrap();
    let copy = device.alloc::<i32>(300).unwrap();
    ints.launch(&device, 1, &[Arg::from(&bytes), Arg::from(&copy)])
        .unwrap();
    assert_eq!(device.download(&copy).unwrap(), vec![7; 300]);
    ints.launch(&device, 1, &[Arg::from(bytes.ptr()), Arg::from(&copy)])
        .unwrap();
}
