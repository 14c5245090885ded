//! The limits of issue 18: every input that used to abort, hang, exhaust
//! memory or disagree between the GPU and the interpreter is now a typed
//! error with the user's line, and the process lives on. Each offending
//! call sits on the same line as the `line!()` it is compared with.

use crate::errors::build_error;
use tile::{BuildError, CompileError, DType, Kernel, Options, Padding, Rule};

/// Asserts the error is `op` at this file's `line`.
fn assert_at(e: &BuildError, op: &str, line: u32) {
    assert_eq!((e.op, e.at.file.as_str(), e.at.line), (op, file!(), line), "{e}");
    assert!(e.to_string().starts_with(&format!("{}:{line}:", file!())), "{e}");
}

/// Compiles text through the same entry the JIT uses.
fn compile_text(text: &str, options: &Options) -> Result<tile::Compiled, CompileError> {
    let context = tile::context().unwrap();
    tile_codegen::compile_text(&context, text, "limits.mlir", options)
}

fn options() -> Options {
    Options { dump: None, ..Options::default() }
}

#[test]
fn tiles_above_two_to_the_twenty_elements_are_refused() {
    let mut line = 0;
    // Aborted the process in the layout distribution (an allocation of
    // 864691128455135232 bytes).
    let e = build_error(|k| {
        line = line!(); let _ = k.zeros(&[1 << 62], DType::F32);
    });
    assert_at(&e, "arith.constant", line);
    assert_eq!(e.rule, Rule::TileTooLarge { shape: vec![1 << 62] });
    assert!(e.to_string().contains("at most 1048576"), "{e}");
    // Ate memory until the OOM killer came.
    let e = build_error(|k| {
        line = line!(); let _ = k.arange(-(1 << 30), 1 << 30);
    });
    assert_at(&e, "tile.arange", line);
    // Reached through a broadcast, and a product that overflows i64.
    let e = build_error(|k| {
        let a = k.arange(0, 1024).expand_dims(1);
        line = line!(); let _ = a.broadcast_to(&[1024, 2048]);
    });
    assert_at(&e, "tile.broadcast", line);
    let e = build_error(|k| {
        line = line!(); let _ = k.zeros(&[1 << 40, 1 << 40], DType::F32);
    });
    assert!(e.to_string().contains("more than 2^64"), "{e}");
    // 2^20 itself is allowed.
    let context = tile::context().unwrap();
    assert!(Kernel::build(&context, "k", |k| { let _ = k.zeros(&[1 << 20], DType::I8); }).is_ok());
    // And from text.
    let text = "func.func @k() attributes {tile.kernel} {\n  %c = arith.constant dense<0.0> : tensor<2097152xf32>\n  return\n}";
    let e = compile_text(text, &options()).unwrap_err();
    assert!(e.diagnostics.iter().any(|d| d.location.contains("limits.mlir:2") && d.message.contains("at most 1048576")), "{e}");
}

#[test]
fn loops_nest_at_most_sixty_four_deep() {
    // 3,000 nested loops overflowed the stack in canonicalize; the
    // builder stops at the limit (without running deeper bodies).
    fn nest<'k>(k: &'k tile::KernelBuilder<'k>, depth: usize, line: &mut u32) {
        if depth == 0 {
            return;
        }
        *line = line!(); let _ = k.for_range(0, 2, 1, [], |_, []| { nest(k, depth - 1, line); [] });
    }
    let mut line = 0;
    let e = build_error(|k| nest(k, 3000, &mut line));
    assert_at(&e, "scf.for", line);
    assert_eq!(e.rule, Rule::TooDeep { depth: 65 });
    // 63 loops in the body (depth 64) build, and compile on a 2 MiB
    // thread: compilation switches to a stack sized for the limit.
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let context = tile::context().unwrap();
            let kernel = Kernel::build(&context, "deep", |k| {
                let x = k.arg_ptr("x", DType::F32);
                fn store_inside<'k>(k: &'k tile::KernelBuilder<'k>, x: tile::Tile<'k>, depth: usize) {
                    if depth == 0 {
                        k.store(x + k.arange(0, 32), k.zeros(&[32], DType::F32)).build();
                        return;
                    }
                    let _ = k.for_range(0, 2, 1, [], |_, []| { store_inside(k, x, depth - 1); [] });
                }
                store_inside(k, x, 63);
            })
            .unwrap();
            tile::compile(&kernel, &options()).unwrap();
        })
        .unwrap()
        .join()
        .unwrap();
    // Text nested deeper than the parser may recurse is refused before it.
    let mut text = String::from("func.func @k(%n: i32) attributes {tile.kernel} {\n  %c0 = arith.constant 0 : i32\n  %c1 = arith.constant 1 : i32\n");
    for i in 0..3000 {
        text.push_str(&format!("scf.for %i{i} = %c0 to %n step %c1 : i32 {{\n"));
    }
    for _ in 0..3000 {
        text.push_str("}\n");
    }
    text.push_str("return\n}\n");
    let e = compile_text(&text, &options()).unwrap_err();
    assert!(e.diagnostics.iter().any(|d| d.message.contains("brackets nest more than 256 deep")), "{e}");
    // 70 deep parses, and the verifier refuses the regions past 64.
    let mut depth_70 = String::from("func.func @k(%n: i32) attributes {tile.kernel} {\n  %c0 = arith.constant 0 : i32\n  %c1 = arith.constant 1 : i32\n");
    for i in 0..69 {
        depth_70.push_str(&format!("scf.for %i{i} = %c0 to %n step %c1 : i32 {{\n"));
    }
    depth_70.push_str(&"}\n".repeat(69));
    depth_70.push_str("return\n}\n");
    let e = compile_text(&depth_70, &options()).unwrap_err();
    assert!(e.diagnostics.iter().any(|d| d.message.contains("regions nest 65 deep")), "{e}");
}

#[test]
fn compiling_on_a_small_stack_switches_to_the_compile_stack() {
    // Loops 64 deep (the limit) as text, parsed, verified and compiled on
    // a thread of 128 KiB: every step that recurses per level runs on the
    // compile stack (`tile_passes::stack`), not the caller's.
    let mut text = String::from("func.func @k(%n: i32) attributes {tile.kernel} {\n  %c0 = arith.constant 0 : i32\n  %c1 = arith.constant 1 : i32\n");
    for i in 0..63 {
        text.push_str(&format!("scf.for %i{i} = %c0 to %n step %c1 : i32 {{\n"));
    }
    text.push_str(&"}\n".repeat(63));
    text.push_str("return\n}\n");
    std::thread::Builder::new()
        .stack_size(128 << 10)
        .spawn(move || compile_text(&text, &options()).map(|_| ()).map_err(|e| e.to_string()))
        .unwrap()
        .join()
        .unwrap()
        .unwrap();
}

#[test]
fn literals_must_be_values_of_their_type() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.full(&[16], 1e10, DType::F16);
    });
    assert_at(&e, "arith.constant", line);
    assert_eq!(e.rule, Rule::LiteralOutOfRange { value: "10000000000".into(), dtype: DType::F16 });
    let e = build_error(|k| {
        let x = k.arange(0, 16).to(DType::F16);
        line = line!(); let _ = x * 70000;
    });
    assert_at(&e, "arith.mulf", line);
    for (dtype, padding) in [(DType::F16, 1e300), (DType::I8, 300.0)] {
        let e = build_error(|k| {
            let x = k.arg_ptr("x", dtype);
            let n = k.arg("n", DType::I64);
            let p = k.make_block_ptr(x).shape([n]).strides([k.i64(1)]).offsets([0]).block_shape([16]).build();
            line = line!(); let _ = k.load(p).boundary_check(&[0]).padding(Padding::Value(padding)).build();
        });
        assert_at(&e, "tile.block_load", line);
        assert!(matches!(e.rule, Rule::BadPadding { .. }), "{dtype}: {e}");
    }
    // Infinity and the largest finite f16 are values of f16.
    let context = tile::context().unwrap();
    Kernel::build(&context, "k", |k| {
        let _ = k.full(&[16], f64::INFINITY, DType::F16);
        let _ = k.full(&[16], 65504.0, DType::F16);
    })
    .unwrap();
}

#[test]
fn integer_division_by_a_literal_zero_is_refused() {
    let mut line = 0;
    let e = build_error(|k| {
        let a = k.arange(0, 16);
        line = line!(); let _ = a / 0;
    });
    assert_at(&e, "arith.divsi", line);
    assert_eq!(e.rule, Rule::DivisionByZero);
    let e = build_error(|k| {
        let a = k.arange(0, 16);
        line = line!(); let _ = a % k.i32(0);
    });
    assert_at(&e, "arith.remsi", line);
    let e = build_error(|k| {
        let a = k.arange(0, 16);
        line = line!(); let _ = a.cdiv(0);
    });
    assert_eq!(e.rule, Rule::DivisionByZero, "{e}");
    // Float division by zero is IEEE's (infinity), and a dynamic divisor
    // is the program's business.
    let context = tile::context().unwrap();
    Kernel::build(&context, "k", |k| {
        let n = k.arg("n", DType::I32);
        let _ = k.arange(0, 16).to(DType::F32) / 0.0;
        let _ = k.arange(0, 16) / n;
    })
    .unwrap();
    let text = "func.func @k(%a: i32) attributes {tile.kernel} {\n  %z = arith.constant 0 : i32\n  %q = arith.remui %a, %z : i32\n  return\n}";
    let e = compile_text(text, &options()).unwrap_err();
    assert!(e.diagnostics.iter().any(|d| d.location.contains("limits.mlir:3") && d.message.contains("by a literal zero")), "{e}");
}

#[test]
fn loop_steps_must_be_positive() {
    // Canonicalize deleted these loops: the GPU ran them zero times while
    // the interpreter faulted.
    for step in [0, -1] {
        let mut line = 0;
        let e = build_error(|k| {
            line = line!(); let _ = k.for_range(0, 8, step, [], |_, []| []);
        });
        assert_at(&e, "scf.for", line);
        assert_eq!(e.rule, Rule::NonPositiveStep { step });
    }
    let mut line = 0;
    let e = build_error(|k| {
        let step = k.i32(0);
        line = line!(); let _ = k.for_range(0, 8, step, [], |_, []| []);
    });
    assert_at(&e, "scf.for", line);
    let text = "func.func @k(%n: i32) attributes {tile.kernel} {\n  %c0 = arith.constant 0 : i32\n  %s = arith.constant -2 : i32\n  scf.for %i = %c0 to %n step %s : i32 {\n  }\n  return\n}";
    let e = compile_text(text, &options()).unwrap_err();
    assert!(e.diagnostics.iter().any(|d| d.location.contains("limits.mlir:4") && d.message.contains("must be positive, got -2")), "{e}");
}

#[test]
fn a_loops_stages_are_one_to_eight() {
    for stages in [0, 9] {
        let mut line = 0;
        let e = build_error(|k| {
            line = line!(); let _ = k.for_range_staged(stages, 0, 8, 1, [], |_, []| []);
        });
        assert_at(&e, "scf.for", line);
        assert_eq!(e.rule, Rule::LoopStages { stages: i64::from(stages) });
    }
    for stages in [1, 8] {
        Kernel::build(&tile::context().unwrap(), "k", |k| {
            let _ = k.for_range_staged(stages, 0, 8, 1, [], |_, []| []);
        })
        .unwrap();
    }
}

#[test]
fn kernel_arguments_are_checked_by_name_and_type() {
    let mut line = 0;
    let e = build_error(|k| {
        line = line!(); let _ = k.arg("flag", DType::I1);
    });
    assert_at(&e, "func.func", line);
    assert!(e.to_string().contains("kernel argument `flag` cannot be i1"), "{e}");
    // An fp8 scalar was refused only when compiled, as `kernel ?`: now at
    // the user's line. Pointers to fp8 stay allowed.
    for d in [DType::F8E4M3, DType::F8E5M2] {
        let e = build_error(|k| {
            let _ = k.arg_ptr("p", d);
            line = line!(); let _ = k.arg("scale", d);
        });
        assert_at(&e, "func.func", line);
        assert!(e.to_string().contains("an fp8 scalar as an f16 or f32"), "{e}");
    }
    let e = build_error(|k| {
        let _ = k.arg("n", DType::I32);
        line = line!(); let _ = k.arg_ptr("n", DType::F32);
    });
    assert_at(&e, "func.func", line);
    assert_eq!(e.rule, Rule::DuplicateName { name: "n".into() });
}

#[test]
fn options_are_checked_before_mlir_and_llvm() {
    let context = tile::context().unwrap();
    let kernel = tile_examples::vector_add::safe_kernel(&context, 1024).unwrap();
    // The first segfaulted; the second made LLVM exit the process.
    for (chip, features, says) in [
        ("", "+ptx80", "chip must be"),
        ("sm_90", "+ptx60", "needs PTX 7.8"),
        ("sm_999", "", "chip must be"),
        ("sm_70", "", "older than sm_80"),
        ("sm_90", "+ptx80} ,canonicalize", "LLVM 22 knows"),
    ] {
        let o = Options { chip: chip.into(), features: features.into(), ..options() };
        let e = tile::compile(&kernel, &o).unwrap_err();
        assert_eq!(e.stage, "options", "{e}");
        assert!(e.message.contains(says), "{chip} {features}: {e}");
    }
    let o = Options { opt_level: 9, ..options() };
    assert!(tile::compile(&kernel, &o).unwrap_err().message.contains("opt_level"));
    // A chip without wgmma compiles a dot with mma.sync.
    let matmul = tile_examples::matmul::matmul(&context, Default::default(), DType::F16, DType::F16, None, tile_examples::matmul::Epilogue::None).unwrap();
    let ptx = tile::compile(&matmul, &Options { chip: "sm_120".into(), features: String::new(), ..options() }).unwrap().ptx;
    assert!(ptx.contains("mma.sync") && !ptx.contains("wgmma"), "sm_120 PTX uses wgmma");
}

#[test]
fn a_layout_that_needs_too_many_registers_per_thread_is_refused() {
    let context = tile::context().unwrap();
    let mut line = 0;
    let kernel = Kernel::build(&context, "big", |k| {
        let x = k.arg_ptr("x", DType::F32);
        line = line!(); let offs = k.arange(0, 1 << 18);
        k.store(x + offs, offs.to(DType::F32)).build();
    })
    .unwrap();
    let e = tile::compile(&kernel, &options()).unwrap_err();
    assert!(e.diagnostics.iter().any(|d| d.location.contains(&format!("limits.rs:{line}"))), "{e}");
    assert!(e.diagnostics.iter().any(|d| d.message.contains("spread over 4 warps takes 2048 registers")), "{e}");
    // With 32 warps it fits.
    tile::compile(&kernel, &Options { num_warps: 32, ..options() }).unwrap();
}

/// A K loop multiplying 128x128 f16 tiles of a 128x1024 A and a 1024x128
/// B through block pointers, asking for `stages`: each stage's buffers
/// take 64 KiB. Returns the kernel and the loop's line.
fn staged_product(context: &melior::Context, stages: u32) -> (Kernel<'_>, u32) {
    let mut line = 0;
    let kernel = Kernel::build(context, "staged_product", |k| {
        let a = k.arg_ptr("a", DType::F16);
        let b = k.arg_ptr("b", DType::F16);
        let c = k.arg_ptr("c", DType::F32);
        let block = |base, shape: [i32; 2]| {
            k.make_block_ptr(base)
                .shape([k.i32(shape[0]), k.i32(shape[1])])
                .strides([k.i32(shape[1]), k.i32(1)])
                .offsets([0, 0])
                .block_shape([128, 128])
                .build()
        };
        let (pa, pb) = (block(a, [128, 1024]), block(b, [1024, 128]));
        let acc = k.zeros(&[128, 128], DType::F32);
        line = line!() + 1;
        let [acc, _, _] = k.for_range_staged(stages, 0, 1024, 128, [acc, pa, pb], |_, [acc, pa, pb]| {
            let x = k.load(pa).boundary_check(&[0, 1]).padding(Padding::Zero).build();
            let y = k.load(pb).boundary_check(&[0, 1]).padding(Padding::Zero).build();
            [k.dot(x, y).acc(acc).build(), pa.advance([0, 128]), pb.advance([128, 0])]
        });
        let r = k.arange(0, 128);
        k.store(c + r.expand_dims(1) * 128 + r.expand_dims(0), acc).build();
    })
    .unwrap();
    (kernel, line)
}

#[test]
fn shared_memory_is_bounded_per_chip_at_compile_time() {
    let context = tile::context().unwrap();
    let at_loop = |e: &CompileError, line: u32| {
        e.diagnostics.iter().any(|d| d.location.contains(&format!("limits.rs:{line}:")))
    };
    // Eight stages of 64 KiB: 512 KiB against sm_90's 227.
    // Aligned pointers (as the JIT specializes them): 16-byte copies.
    let aligned = tile::Specialization::of(&[tile::Arg::from(tile::DevicePtr(1 << 20)); 3]);
    let eight = Options { num_warps: 8, ..options() }.specialized(aligned);
    let (kernel, line) = staged_product(&context, 8);
    let e = tile::compile(&kernel, &eight).unwrap_err();
    assert!(at_loop(&e, line), "{e}");
    assert!(
        e.to_string().contains("more than the 232448 a block may have on sm_90: this loop keeps 8 stages"),
        "{e}"
    );
    // Three stages (192 KiB) fit sm_90's 227 KiB, not sm_80's 163.
    let (kernel, line) = staged_product(&context, 3);
    tile::compile(&kernel, &eight).unwrap();
    let sm80 = Options { chip: "sm_80".into(), ..eight.clone() };
    let e = tile::compile(&kernel, &sm80).unwrap_err();
    assert!(at_loop(&e, line), "{e}");
    assert!(e.to_string().contains("more than the 166912 a block may have on sm_80"), "{e}");
    let (kernel, _) = staged_product(&context, 2);
    tile::compile(&kernel, &sm80).unwrap();
}
