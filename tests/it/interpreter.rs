//! The CPU interpreter, in CI (no GPU): every example kernel at several
//! sizes, irregular ones included, against the plain Rust references of the
//! GPU check (`tile_tools::gpu_check`: the same case functions, on an
//! interpreter device); the block-pointer sweep; faults reported with the
//! user's source line.

use tile::{Arg, DType, Device, InterpretFault, Kernel, Options, RuntimeError};
use tile_examples::{masked_tile_2d, vector_add};
use tile_tools::gpu_check::layer_norm::{heuristic_block, layer_norm_case};
use tile_tools::gpu_check::padding::padding_case;
use tile_tools::gpu_check::reductions::{
    row_sum_case, softmax_case, weighted_sum_bwd_case, weighted_sum_fwd_case,
};
use tile_tools::gpu_check::{Storage, k_tile_case, q_tile_case, tile_2d_case, vector_add_case};

/// Runs every case, then fails listing those that failed (all of them, not
/// just the first).
fn all_pass(group: &str, cases: Vec<(String, Result<(), String>)>) {
    assert!(cases.len() >= 5, "{group}: only {} cases", cases.len());
    let failed: Vec<String> = cases
        .into_iter()
        .filter_map(|(case, outcome)| outcome.err().map(|e| format!("{case}: {e}")))
        .collect();
    assert!(failed.is_empty(), "{group}:\n{}", failed.join("\n"));
}

#[test]
fn vector_add_at_every_size() {
    let device = Device::interpreter();
    let mut cases = Vec::new();
    for n in [1, 100, 1023, 1024, 1025, 4097, 10_000] {
        cases.push((
            format!("n={n}"),
            vector_add_case(&device, vector_add::BLOCK, n),
        ));
    }
    for n in [1, 129, 1000] {
        cases.push((format!("BLOCK=128 n={n}"), vector_add_case(&device, 128, n)));
    }
    all_pass("safe_kernel", cases);
}

#[test]
fn masked_tile_2d_at_every_size_and_storage() {
    let device = Device::interpreter();
    let (bm, bk) = (masked_tile_2d::BM, masked_tile_2d::BK);
    let mut cases = Vec::new();
    for (m, k) in [(1, 1), (17, 33), (64, 64), (100, 70), (130, 257)] {
        for storage in [
            Storage::Contiguous,
            Storage::Transposed,
            Storage::ColumnSliced,
        ] {
            cases.push((
                format!("{m}x{k} {}", storage.name()),
                tile_2d_case(&device, bm, bk, m, k, storage),
            ));
        }
    }
    all_pass("masked_tile_2d", cases);
}

#[test]
fn attention_tiles_at_every_size() {
    let device = Device::interpreter();
    let sizes = [
        (1, 1, 1, 1),
        (1, 70, 2, 64),
        (2, 65, 3, 40),
        (1, 128, 1, 64),
        (3, 33, 2, 17),
    ];
    let mut q = Vec::new();
    let mut k = Vec::new();
    for (b, t, h, kd) in sizes {
        let case = format!("b={b} t={t} h={h} k={kd}");
        q.push((case.clone(), q_tile_case(&device, b, t, h, kd)));
        k.push((case, k_tile_case(&device, b, t, h, kd)));
    }
    all_pass("q_tile_load", q);
    all_pass("k_tile_load_transposed", k);
}

#[test]
fn row_sum_at_every_size() {
    let device = Device::interpreter();
    let mut cases = Vec::new();
    for (m, n, block) in [
        (1, 1, 1024),
        (3, 1000, 1024),
        (17, 1024, 1024),
        (100, 1500, 512),
        (7, 4101, 1024),
        (5, 300, 128),
    ] {
        for storage in [Storage::Contiguous, Storage::Transposed] {
            cases.push((
                format!("{m}x{n} BLOCK_N={block} {}", storage.name()),
                row_sum_case(&device, m, n, storage, DType::F32, block),
            ));
        }
    }
    cases.push((
        "33x777 bf16".into(),
        row_sum_case(&device, 33, 777, Storage::Contiguous, DType::BF16, 1024),
    ));
    all_pass("row_sum", cases);
}

#[test]
fn weighted_sum_forward_and_backward_at_every_size() {
    let device = Device::interpreter();
    let mut fwd = Vec::new();
    let mut bwd = Vec::new();
    for (rows, d) in [(1, 1), (17, 100), (64, 64), (100, 300), (33, 1000)] {
        for storage in [Storage::Contiguous, Storage::Transposed] {
            let case = format!("{rows}x{d} {}", storage.name());
            fwd.push((
                case.clone(),
                weighted_sum_fwd_case(&device, rows, d, storage, DType::F32),
            ));
            bwd.push((
                case,
                weighted_sum_bwd_case(&device, rows, d, storage, DType::F32),
            ));
        }
    }
    fwd.push((
        "40x130 bf16".into(),
        weighted_sum_fwd_case(&device, 40, 130, Storage::Contiguous, DType::BF16),
    ));
    bwd.push((
        "40x130 bf16".into(),
        weighted_sum_bwd_case(&device, 40, 130, Storage::Contiguous, DType::BF16),
    ));
    all_pass("weighted_sum_fwd", fwd);
    all_pass("weighted_sum_bwd", bwd);
}

#[test]
fn softmax_at_every_size() {
    let device = Device::interpreter();
    let mut cases = Vec::new();
    for (rows, cols, stride, block) in [
        (50, 500, 500, 512),
        (64, 200, 256, 256),
        (100, 100, 100, 128),
        (100, 1, 1, 1),
        (37, 1000, 2000, 1024),
        (3, 1024, 1024, 1024),
    ] {
        cases.push((
            format!("{rows}x{cols} stride={stride} BLOCK={block}"),
            softmax_case(&device, rows, cols, stride, block),
        ));
    }
    all_pass("softmax", cases);
}

/// The LayerNorm forward (`sqrt` then a division) against its f64
/// reference: with the tutorial's `BLOCK_SIZE` (one iteration a row), and
/// with smaller blocks where `N` is larger and not a multiple (several
/// iterations, the last one partial), on contiguous and padded rows.
#[test]
fn layer_norm_at_every_size() {
    let device = Device::interpreter();
    // (rows, N, row stride, BLOCK_SIZE)
    let shapes = [
        (1, 1, 1, heuristic_block(1)),
        (3, 17, 17, heuristic_block(17)),
        (3, 17, 20, 8),
        (16, 1000, 1000, heuristic_block(1000)),
        (5, 1000, 1024, 256),
        (7, 4097, 4097, 1024),
        (2, 130, 130, 64),
    ];
    let run = |(rows, n, stride, block)| {
        let case = format!("{rows}x{n} stride={stride} BLOCK_SIZE={block}");
        (case, layer_norm_case(&device, rows, n, stride, block))
    };
    all_pass("layer_norm", shapes.map(run).into());
}

/// Shapes that are block multiples along neither axis, every subset of
/// checked axes, both paddings, both orders, two storages: each output
/// element must be the input, the padding, or (along an unchecked axis)
/// what the storage holds past the view.
#[test]
fn block_pointer_sweep_of_checks_paddings_and_orders() {
    use tile::Padding;
    let device = Device::interpreter();
    let checks: [&[i64]; 4] = [&[], &[0], &[1], &[0, 1]];
    let mut cases = Vec::new();
    for shape in [(100, 70), (33, 130), (5, 3)] {
        for block in [(32, 64), (16, 16)] {
            for check in checks {
                for (name, padding) in [("zero", Padding::Zero), ("nan", Padding::Nan)] {
                    for order in [[1, 0], [0, 1]] {
                        for storage in [Storage::Contiguous, Storage::Transposed] {
                            cases.push((
                                format!(
                                    "{shape:?} block={block:?} check={check:?} {name} \
                                     order={order:?} {}",
                                    storage.name()
                                ),
                                padding_case(&device, shape, block, check, padding, order, storage),
                            ));
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cases.len(), 3 * 2 * 4 * 2 * 2 * 2);
    all_pass("block_ptr_padding", cases);
}

/// Loads 64 elements from `x` without a mask and stores them to `out`.
fn unmasked_copy(context: &melior::Context) -> (Kernel<'_>, u32) {
    let mut line = 0;
    let kernel = Kernel::build(context, "unmasked_copy", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let out = k.arg_ptr("out", DType::F32);
        let offs = k.program_id(0) * 64 + k.arange(0, 64);
        line = line!() + 1;
        let v = k.load(x + offs).build();
        k.store(out + offs, v).build();
    })
    .unwrap();
    (kernel, line)
}

#[test]
fn an_unmasked_load_out_of_bounds_names_the_op_and_its_source_line() {
    let context = tile::context().unwrap();
    let (kernel, line) = unmasked_copy(&context);
    let copy = tile::jit(&kernel, Options::default()).unwrap();
    let device = Device::interpreter();
    // 100 elements: program 1 reads elements 64..128 and runs off the end.
    let x = device.upload(&vec![1.5f32; 100]).unwrap();
    let out = device.upload(&vec![0f32; 128]).unwrap();
    let err = copy
        .launch(&device, 2, &[Arg::from(&x), Arg::from(&out)])
        .unwrap_err();
    let text = err.to_string();
    println!("{text}");
    let RuntimeError::Interpreter(e) = err else {
        panic!("not an interpreter fault: {text}");
    };
    assert_eq!(e.op, "tile.load");
    let at_line = format!("{}:{line}:", file!());
    assert!(e.location.starts_with(&at_line), "{text}");
    assert_eq!(e.program, [1, 0, 0]);
    let InterpretFault::OutOfBounds {
        write,
        index,
        pointer,
        bytes,
        ..
    } = &e.fault
    else {
        panic!("{text}");
    };
    assert!(!write);
    assert_eq!(
        index,
        &vec![36],
        "element 64 + 36 = 100 is the first past the end"
    );
    assert_eq!(pointer, "x");
    assert_eq!(*bytes, 4);
    assert!(text.starts_with(&at_line), "{text}");
    assert!(
        text.contains("0 bytes past the end of its 400 bytes"),
        "{text}"
    );
    // Program 0 ran before the fault; what it stored is there.
    assert_eq!(device.download(&out).unwrap()[..64], [1.5f32; 64]);
    // With 128 elements the same launch is in bounds.
    let x = device.upload(&vec![2.5f32; 128]).unwrap();
    copy.launch(&device, 2, &[Arg::from(&x), Arg::from(&out)])
        .unwrap();
    assert_eq!(device.download(&out).unwrap(), vec![2.5f32; 128]);
}

#[test]
fn an_unmasked_store_out_of_bounds_is_a_fault_and_writes_nothing_past_the_end() {
    let context = tile::context().unwrap();
    let (kernel, _) = unmasked_copy(&context);
    let copy = tile::jit(&kernel, Options::default()).unwrap();
    let device = Device::interpreter();
    let x = device.upload(&vec![1.0f32; 64]).unwrap();
    let out = device.upload(&vec![0f32; 63]).unwrap();
    let err = copy
        .launch(&device, 1, &[Arg::from(&x), Arg::from(&out)])
        .unwrap_err();
    let RuntimeError::Interpreter(e) = err else {
        panic!("{err}");
    };
    assert_eq!(e.op, "tile.store");
    assert!(matches!(
        e.fault,
        InterpretFault::OutOfBounds { write: true, ref index, .. } if index == &vec![63]
    ));
}

#[test]
fn a_buffer_of_another_interpreter_is_refused_at_launch_and_download() {
    let context = tile::context().unwrap();
    let (kernel, _) = unmasked_copy(&context);
    let copy = tile::jit(&kernel, Options::default()).unwrap();
    let (a, b) = (Device::interpreter(), Device::interpreter());
    let x = a.upload(&vec![1.0f32; 64]).unwrap();
    let out_a = a.upload(&vec![0f32; 64]).unwrap();
    // b has a buffer at the same address as out_a: aliasing it silently
    // was the defect.
    let out_b = b.upload(&vec![0f32; 64]).unwrap();
    let err = copy
        .launch(&b, 1, &[Arg::from(&x), Arg::from(&out_b)])
        .unwrap_err();
    let RuntimeError::ArgOnWrongDevice {
        index,
        owner,
        used_with,
        ..
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!((*index, *owner, *used_with), (0, a.id(), b.id()));
    assert!(
        err.to_string()
            .contains("argument 0 is a buffer of CPU interpreter #"),
        "{err}"
    );
    assert_eq!(b.download(&out_b).unwrap(), vec![0f32; 64]);
    let err = b.download(&out_a).unwrap_err();
    assert!(matches!(err, RuntimeError::WrongDevice { .. }), "{err}");
    assert_ne!(a.id(), b.id());
    assert!(!err.to_string().contains("CUDA"), "{err}");
    // The same device through a clone is the same memory.
    let a2 = a.clone();
    copy.launch(&a2, 1, &[Arg::from(&x), Arg::from(&out_a)])
        .unwrap();
    assert_eq!(a.download(&out_a).unwrap(), vec![1.0f32; 64]);
}

/// Rows gathered from offsets read from memory, with and without the
/// `multiple_of` hint on the offsets (`gpu_check::jagged_rows_case`): the
/// same results, at row counts and widths that end inside a block.
#[test]
fn jagged_rows_with_and_without_hints() {
    let device = Device::interpreter();
    let mut cases = Vec::new();
    for hinted in [false, true] {
        for (rows, width) in [(1, 1), (17, 40), (33, 130)] {
            cases.push((
                format!("hinted={hinted} rows={rows} width={width}"),
                tile_tools::gpu_check::jagged_rows_case(&device, hinted, rows, width),
            ));
        }
    }
    all_pass("jagged_rows", cases);
}

/// A `while` loop whose condition never fails: the launch stops at the
/// step limit with the loop named, the default limit within seconds.
#[test]
fn a_loop_that_never_ends_stops_at_the_step_limit() {
    let context = tile::context().unwrap();
    let mut line = 0;
    let kernel = Kernel::build(&context, "forever", |k| {
        let out = k.arg_ptr("out", DType::I32);
        let n = k.arg("n", DType::I32);
        line = line!() + 1;
        let [i] = k.while_loop([k.i32(0)], |[i]| i.lt(n), |[i]| [i * 1]);
        k.store(out + k.arange(0, 16), i.broadcast_to(&[16]))
            .build();
    })
    .unwrap();
    let interpreter = tile::Interpreter::from_module(kernel.module()).unwrap();
    let run = |limit: Option<u64>, n: i32| {
        let interpreter = interpreter.clone().step_limit(limit);
        let mut memory = tile_runtime::HostMemory::new();
        let out = memory.alloc(64);
        let args = [Arg::from(tile::DevicePtr(out)), Arg::from(n)];
        interpreter.run(&mut memory, [2, 1, 1], &args)
    };
    let started = std::time::Instant::now();
    let err = run(Some(tile::interpreter::program::DEFAULT_STEP_LIMIT), 1).unwrap_err();
    let seconds = started.elapsed().as_secs_f64();
    let RuntimeError::Interpreter(e) = &err else {
        panic!("not an interpreter fault: {err}");
    };
    assert_eq!(e.op, "scf.while");
    assert!(
        e.location.starts_with(&format!("{}:{line}:", file!())),
        "{err}"
    );
    assert_eq!(e.program, [0, 0, 0]);
    assert_eq!(
        e.fault,
        InterpretFault::StepLimit {
            limit: tile::interpreter::program::DEFAULT_STEP_LIMIT
        }
    );
    assert!(err.to_string().contains("never ends"), "{err}");
    assert!(seconds < 60.0, "the default limit took {seconds:.1} s");
    println!("default step limit reached in {seconds:.1} s");
    // The limit counts iterations of the whole launch: program 1 gets what
    // program 0 left. A loop that ends is untouched; no limit is no limit.
    assert!(run(Some(10), 0).is_ok());
    let RuntimeError::Interpreter(e) = run(Some(10), 1).unwrap_err() else {
        panic!("not an interpreter fault");
    };
    assert_eq!(e.fault, InterpretFault::StepLimit { limit: 10 });
}

/// Program 0 waits for a flag program 1 sets. On a GPU the programs run
/// side by side and this ends; the interpreter runs program 0 first, so
/// the wait reaches the step limit, which says why.
#[test]
fn programs_waiting_on_one_another_reach_the_step_limit() {
    let context = tile::context().unwrap();
    let kernel = Kernel::build(&context, "handshake", |k| {
        let flag = k.arg_ptr("flag", DType::I32);
        let pid = k.program_id(0);
        k.if_then(pid.eq(1), || {
            k.store(flag, k.i32(1)).build();
        });
        k.if_then(pid.eq(0), || {
            let first = k.load(flag).build();
            let _ = k.while_loop([first], |[f]| f.eq(0), |[_]| [k.load(flag).build()]);
        });
    })
    .unwrap();
    let interpreter = tile::Interpreter::from_module(kernel.module())
        .unwrap()
        .step_limit(Some(1000));
    let mut memory = tile_runtime::HostMemory::new();
    let flag = memory.alloc(4);
    let args = [Arg::from(tile::DevicePtr(flag))];
    let err = interpreter.run(&mut memory, [2, 1, 1], &args).unwrap_err();
    let RuntimeError::Interpreter(e) = &err else {
        panic!("not an interpreter fault: {err}");
    };
    assert_eq!((e.op.as_str(), e.program), ("scf.while", [0, 0, 0]));
    assert!(err.to_string().contains("waiting on one another"), "{err}");
}
