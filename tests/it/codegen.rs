//! Compiling kernels to PTX (no GPU needed).

use tile::{DType, Padding};
use tile::{Kernel, Options};
use tile_examples::{masked_tile_2d, row_sum, softmax, vector_add, weighted_sum};
use tile_tools::gpu_check;

fn options() -> Options {
    Options {
        dump: None,
        ..Options::default()
    }
}

fn compile(kernel: &Kernel) -> String {
    tile::compile(kernel, &options())
        .unwrap_or_else(|e| panic!("{e}"))
        .ptx
}

#[test]
fn check_kernels_compile() {
    let context = tile::context().unwrap();
    for block in [128, 256, 1024] {
        compile(&vector_add::safe_kernel(&context, block).unwrap());
    }
    for (bm, bk) in [(16, 64), (64, 64)] {
        compile(&masked_tile_2d::masked_tile_2d(&context, bm, bk).unwrap());
    }
    for other in [Some(0.0), Some(f32::NEG_INFINITY), None] {
        compile(&gpu_check::fill_other_kernel(&context, other).unwrap());
    }
    compile(&gpu_check::scalar_args_kernel(&context).unwrap());
    // Every example lowers all the way, with no call into libdevice.
    for example in tile_examples::ALL {
        let ptx = compile(&(example.build)(&context).unwrap());
        assert!(ptx.contains(&format!(".entry {}", example.name)), "{ptx}");
        // No call into anything outside (dynamic shared memory is
        // `.extern .shared`).
        assert!(!ptx.contains(".extern .func"), "{ptx}");
    }
    let ptx = compile(&gpu_check::grid_ids_kernel(&context).unwrap());
    assert!(
        ptx.contains("%ctaid.z") && ptx.contains("%nctaid.y"),
        "{ptx}"
    );
}

/// The variants the GPU check runs with reductions and padding: bf16
/// inputs, the smallest tiles (`D = 1`, `BLOCK = 1`), every padding option
/// and boundary-check subset, both orders.
#[test]
fn gpu_check_reduction_and_padding_kernels_compile() {
    let context = tile::context().unwrap();
    for dtype in [DType::F32, DType::BF16] {
        for block_n in [1024, 128] {
            compile(&row_sum::row_sum(&context, block_n, dtype).unwrap());
        }
        for d in [1, 100, 1000, 1024] {
            let d_tile = weighted_sum::d_tile_for(d);
            let rows = weighted_sum::ROWS_TILE;
            compile(&weighted_sum::weighted_sum_fwd(&context, rows, d_tile, dtype).unwrap());
            compile(&weighted_sum::weighted_sum_bwd(&context, rows, d_tile, dtype).unwrap());
        }
    }
    for block in [1, 128, 256, 512, 1024] {
        compile(&softmax::softmax(&context, block).unwrap());
    }
    for padding in [
        Padding::Nan,
        Padding::Zero,
        Padding::Value(f64::NEG_INFINITY),
    ] {
        for check in [&[0, 1][..], &[0], &[1], &[]] {
            for order in [[1, 0], [0, 1]] {
                let kernel =
                    gpu_check::padding::padded_tile_copy(&context, (32, 64), check, padding, order)
                        .unwrap();
                compile(&kernel);
            }
        }
    }
}

/// The i64-offset kernel of the beyond-2^31 GPU case is not limited to
/// i32 offsets; the vector add (i32 offsets) is, on its three pointers.
#[test]
fn offset_widths_reach_the_launch_spec() {
    let context = tile::context().unwrap();
    let wide = gpu_check::offsets::add_one_i64(&context, 1024).unwrap();
    let spec = tile::compile(&wide, &options()).unwrap().spec;
    assert_eq!(spec.i32_offset_elem_bytes, vec![None, None, None]);
    let narrow = vector_add::safe_kernel(&context, 1024).unwrap();
    let spec = tile::compile(&narrow, &options()).unwrap().spec;
    assert_eq!(
        spec.i32_offset_elem_bytes,
        vec![Some(4), Some(4), Some(4), None]
    );
}

/// The PTX instructions of the kernel body (no directives, labels or
/// comments), one a line.
fn instructions(ptx: &str) -> Vec<&str> {
    ptx.lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("//") && !l.starts_with('.') && !l.ends_with(':')
        })
        .filter(|l| !l.starts_with('{') && !l.starts_with('}') && !l.starts_with(')'))
        .collect()
}

#[test]
fn masked_vector_add_is_predicated_without_branches() {
    let context = tile::context().unwrap();
    for block in [128, 1024] {
        let ptx = compile(&vector_add::safe_kernel(&context, block).unwrap());
        let body = instructions(&ptx);
        let loads: Vec<&&str> = body.iter().filter(|l| l.contains("ld.global")).collect();
        let stores: Vec<&&str> = body.iter().filter(|l| l.contains("st.global")).collect();
        // 128 threads: block / 128 elements each, two loads and a store each.
        let per_thread = block as usize / 128;
        assert_eq!(loads.len(), 2 * per_thread, "{ptx}");
        assert_eq!(stores.len(), per_thread, "{ptx}");
        for access in loads.iter().chain(&stores) {
            assert!(
                access.starts_with("@%p"),
                "unpredicated access `{access}` in\n{ptx}"
            );
        }
        // No branch anywhere: masked lanes are predicated off, not jumped over.
        assert!(
            !body
                .iter()
                .any(|l| l.starts_with("bra") || l.contains(" bra") || l.contains("\tbra")),
            "branch in\n{ptx}"
        );
    }
}

#[test]
fn the_ptx_line_table_points_at_the_rust_source() {
    let context = tile::context().unwrap();
    let ptx = compile(&vector_add::safe_kernel(&context, 256).unwrap());
    assert!(
        ptx.contains(".file\t1 \"examples/src/vector_add.rs\""),
        "{ptx}"
    );
    // The masked loads sit under the line of the builder's `k.load(...)`.
    let source = include_str!("../../examples/src/vector_add.rs");
    let load_line = source
        .lines()
        .position(|l| l.contains("k.load(x_ptr + offs)"))
        .unwrap()
        + 1;
    let mut current = 0;
    let mut load_lines = Vec::new();
    for line in ptx.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix(".loc\t1 ") {
            current = rest.split_whitespace().next().unwrap().parse().unwrap();
        }
        if line.contains("ld.global") {
            load_lines.push(current);
        }
    }
    assert!(
        load_lines.contains(&load_line),
        "loads at lines {load_lines:?}, want {load_line}"
    );
}

#[test]
fn every_stage_is_dumped_to_numbered_files_for_matching_kernels() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dump-stages");
    let _ = std::fs::remove_dir_all(&dir);
    let context = tile::context().unwrap();
    let dump = |filter: Option<&str>| Options {
        dump: Some(tile::Dump {
            dir: dir.clone(),
            filter: filter.map(str::to_string),
        }),
        ..Options::default()
    };
    let add = vector_add::safe_kernel(&context, 256).unwrap();
    let tile2d = masked_tile_2d::masked_tile_2d(&context, 16, 64).unwrap();
    tile::compile(&add, &dump(Some("safe"))).unwrap();
    tile::compile(&tile2d, &dump(Some("safe"))).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(dir.join("safe_kernel"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "00-tile.mlir",
            "01-simplified.mlir",
            "02-layouts.mlir",
            "03-predicated.mlir",
            "04-vectorized.mlir",
            "05-pipelined.mlir",
            "06-simt.mlir",
            "07-nvvm.mlir",
            "08-llvm.mlir",
            "09-ptx.mlir",
            "10-kernel.ptx"
        ]
    );
    assert!(
        !dir.join("masked_tile_2d").exists(),
        "the filter let masked_tile_2d through"
    );
    let layouts = std::fs::read_to_string(dir.join("safe_kernel/02-layouts.mlir")).unwrap();
    assert!(layouts.contains("#tile.blocked<"), "{layouts}");
    let simt = std::fs::read_to_string(dir.join("safe_kernel/06-simt.mlir")).unwrap();
    assert!(
        simt.contains("gpu.func @safe_kernel") && simt.contains("vector_add.rs"),
        "{simt}"
    );
    // The ptx stage puts a gpu.binary holding the PTX in the gpu.module's
    // place, as upstream's gpu-module-to-binary does.
    let ptx_stage = std::fs::read_to_string(dir.join("safe_kernel/09-ptx.mlir")).unwrap();
    assert!(
        ptx_stage.contains("gpu.binary @")
            && !ptx_stage.contains("gpu.module")
            && ptx_stage.contains(".entry safe_kernel"),
        "{ptx_stage}"
    );
    // Each MLIR stage reads back through tile-opt's parser.
    for f in &files[..8] {
        let text = std::fs::read_to_string(dir.join("safe_kernel").join(f)).unwrap();
        tile::parse_module(&context, &text, f).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

/// Set in a child: it compiles with `Options::default()`, which reads
/// `TILE_DUMP_DIR` and `TILE_DUMP_FILTER`.
const DUMP_CHILD_VAR: &str = "TILE_DUMP_CHILD";

/// The child's side; does nothing when run as an ordinary test.
#[test]
fn dump_child() {
    if std::env::var_os(DUMP_CHILD_VAR).is_some() {
        let context = tile::context().unwrap();
        let add = vector_add::safe_kernel(&context, 256).unwrap();
        let tile2d = masked_tile_2d::masked_tile_2d(&context, 16, 64).unwrap();
        for kernel in [add, tile2d] {
            tile::compile(&kernel, &Options::default()).unwrap();
        }
    }
}

/// The environment's dump variables, as a user sets them: a filter
/// dumps only the kernels whose names contain it, an empty one every
/// kernel. Each case runs in a child process (this binary, only
/// `dump_child`), so the variables reach nothing else.
/// This test binary again, running only its test `codegen::{name}` (the
/// child's side of a test of environment variables, which must not reach
/// the other tests).
fn child(name: &str) -> std::process::Command {
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    command.args([&format!("codegen::{name}"), "--exact", "--nocapture"]);
    command
}

#[test]
fn the_dump_variables_dump_the_kernels_they_name() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dump-variables");
    for (filter, dumped) in [
        ("safe", &["safe_kernel"][..]),
        ("", &["masked_tile_2d", "safe_kernel"][..]),
    ] {
        let dir = root.join(if filter.is_empty() { "all" } else { filter });
        let _ = std::fs::remove_dir_all(&dir);
        let status = child("dump_child")
            .env(DUMP_CHILD_VAR, "1")
            .env("TILE_DUMP_DIR", &dir)
            .env("TILE_DUMP_FILTER", filter)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
        let mut kernels: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().into_string().unwrap())
                    .collect()
            })
            .unwrap_or_default();
        kernels.sort();
        assert_eq!(kernels, dumped, "filter '{filter}'");
        assert!(dir.join("safe_kernel/10-kernel.ptx").exists());
    }
}

/// Set in a child: whether its `Options::default()` must ask for a debug
/// build ("1" or "0"), as `TILE_DEBUG` says.
const DEBUG_CHILD_VAR: &str = "TILE_DEBUG_CHILD_EXPECTS";

/// The child's side; does nothing when run as an ordinary test.
#[test]
fn debug_variable_child() {
    if let Ok(expects) = std::env::var(DEBUG_CHILD_VAR) {
        assert_eq!(Options::default().debug, expects == "1");
    }
}

/// `TILE_DEBUG=1` asks for debug builds; any other value, or none, does
/// not. Each case runs in a child process.
#[test]
fn the_debug_variable_turns_on_debug_builds_only_when_1() {
    for (value, expects) in [
        (Some("1"), "1"),
        (Some("0"), "0"),
        (Some("yes"), "0"),
        (None, "0"),
    ] {
        let mut command = child("debug_variable_child");
        command.env(DEBUG_CHILD_VAR, expects);
        match value {
            Some(v) => command.env("TILE_DEBUG", v),
            None => command.env_remove("TILE_DEBUG"),
        };
        let out = command.output().unwrap();
        assert!(out.status.success(), "TILE_DEBUG={value:?}: {out:?}");
    }
}

/// A kernel that uses wgmma is compiled for sm_90a from the `nvvm` stage
/// on (where the target is attached), not only at the end: the dumped
/// `nvvm` stage and the PTX both name it.
#[test]
fn a_wgmma_kernel_targets_sm_90a_from_the_nvvm_stage() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dump-sm90a");
    let _ = std::fs::remove_dir_all(&dir);
    let context = tile::context().unwrap();
    let config = tile_examples::matmul::MatmulConfig {
        block_m: 64,
        block_n: 64,
        block_k: 32,
        ..Default::default()
    };
    let kernel = tile_examples::matmul::matmul(
        &context,
        config,
        DType::F16,
        DType::F32,
        None,
        tile_examples::matmul::Epilogue::None,
    )
    .unwrap();
    let options = Options {
        chip: "sm_90".into(),
        dump: Some(tile::Dump {
            dir: dir.clone(),
            filter: None,
        }),
        ..options()
    };
    let ptx = tile::compile(&kernel, &options).unwrap().ptx;
    assert!(ptx.contains(".target sm_90a"), "{ptx}");
    let nvvm = std::fs::read_to_string(dir.join("matmul/07-nvvm.mlir")).unwrap();
    assert!(nvvm.contains("chip = \"sm_90a\""), "{nvvm}");
    // The native and upstream PTX stages, compared: both for sm_90a, and
    // without dumping anything where the options ask for dumps.
    let quiet = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dump-both-ways");
    let _ = std::fs::remove_dir_all(&quiet);
    let options = Options {
        dump: Some(tile::Dump {
            dir: quiet.clone(),
            filter: None,
        }),
        ..options
    };
    let (ours, upstream) =
        tile_codegen::ptx_both_ways(&context, kernel.module(), &options).unwrap();
    assert!(ours.contains(".target sm_90a"), "{ours}");
    assert_eq!(ours, upstream);
    assert!(
        !quiet.exists(),
        "ptx_both_ways dumped into {}",
        quiet.display()
    );
}

/// Set in a child: it compiles one kernel.
const TIMINGS_CHILD_VAR: &str = "TILE_TIMINGS_CHILD";

/// The child's side; does nothing when run as an ordinary test.
#[test]
fn timings_child() {
    if std::env::var_os(TIMINGS_CHILD_VAR).is_some() {
        let context = tile::context().unwrap();
        compile(&vector_add::safe_kernel(&context, 256).unwrap());
    }
}

/// `TILE_TIMINGS=1` prints each compilation's timing table to standard
/// error; any other value prints nothing.
#[test]
fn the_timings_variable_prints_the_table_only_when_1() {
    for (value, prints) in [("1", true), ("0", false)] {
        let out = child("timings_child")
            .env(TIMINGS_CHILD_VAR, "1")
            .env("TILE_TIMINGS", value)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.contains("| safe_kernel | ms |") && stderr.contains("| **total** |"),
            prints,
            "TILE_TIMINGS={value}: {stderr}"
        );
    }
}

/// Options that assume `facts` of the kernel's arguments.
fn specialized(facts: &[tile::Fact]) -> Options {
    options().specialized(tile::Specialization {
        facts: facts.to_vec(),
    })
}

fn count(ptx: &str, needle: &str) -> usize {
    ptx.matches(needle).count()
}

/// With 16-byte aligned pointers and `n` a multiple of 16, the masked
/// vector add moves 16 bytes per access: two `ld.global.v4.f32` per input
/// and two `st.global.v4.f32` per thread for BLOCK 1024 on 4 warps, each
/// predicated, and no scalar access left.
#[test]
fn aligned_vector_add_uses_128_bit_accesses() {
    use tile::Fact::{DivisibleBy16 as D16, None as No};
    let context = tile::context().unwrap();
    let kernel = vector_add::safe_kernel(&context, 1024).unwrap();
    let ptx = tile::compile(&kernel, &specialized(&[D16, D16, D16, D16]))
        .unwrap()
        .ptx;
    assert_eq!(count(&ptx, "ld.global.v4.f32"), 4, "{ptx}");
    assert_eq!(count(&ptx, "st.global.v4.f32"), 2, "{ptx}");
    assert_eq!(count(&ptx, "ld.global.f32"), 0, "{ptx}");
    for line in ptx.lines().filter(|l| l.contains(".global.v4")) {
        assert!(line.trim_start().starts_with("@%p"), "unpredicated: {line}");
    }
    // n not known to be a multiple of 16: the mask may change inside a
    // vector, so every access moves one element.
    let ptx = tile::compile(&kernel, &specialized(&[D16, D16, D16, No]))
        .unwrap()
        .ptx;
    assert_eq!(count(&ptx, ".v4."), 0, "{ptx}");
    assert_eq!(count(&ptx, "ld.global.f32"), 16, "{ptx}");
    // Pointers only known to be 4-byte aligned: scalar as well.
    let ptx = tile::compile(&kernel, &specialized(&[No, No, No, D16]))
        .unwrap()
        .ptx;
    assert_eq!(count(&ptx, ".v4."), 0, "{ptx}");
    // Fewer facts than parameters leave the rest unknown (scalar again);
    // more facts than parameters are refused.
    let ptx = tile::compile(&kernel, &specialized(&[D16, D16, D16]))
        .unwrap()
        .ptx;
    assert_eq!(count(&ptx, ".v4."), 0, "{ptx}");
    let e = tile::compile(&kernel, &specialized(&[D16; 5])).unwrap_err();
    assert!(
        e.to_string()
            .contains("the specialization has 5 facts for 4 parameters"),
        "{e}"
    );
}

/// Divisibility is a fact of integers and pointers, being one a fact of
/// integers: a float scalar divisible by 16, or a pointer equal to one, is
/// refused, naming the argument.
#[test]
fn facts_a_parameter_cannot_have_are_refused() {
    use tile::Fact::{DivisibleBy16 as D16, EqualToOne as One, None as No};
    let context = tile::context().unwrap();
    let kernel = Kernel::build(&context, "scale", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let a = k.arg("a", DType::F32);
        let n = k.arg("n", DType::I32);
        let i = k.arange(0, 128);
        let v = k.load(x + i).mask(i.lt(n)).build();
        k.store(x + i, v * a).mask(i.lt(n)).build();
    })
    .unwrap();
    for (facts, says) in [
        (
            [No, D16, No],
            "argument 1 (`a`: f32) cannot be specialized as",
        ),
        (
            [One, No, No],
            "argument 0 (`x`: ptr) cannot be specialized as",
        ),
    ] {
        let e = tile::compile(&kernel, &specialized(&facts)).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
    // The facts each can have compile.
    tile::compile(&kernel, &specialized(&[D16, No, One])).unwrap();
    tile::compile(&kernel, &specialized(&[No, No, D16])).unwrap();
}

/// A `multiple_of` hint on offsets loaded from memory reaches the PTX:
/// specialized as a launch with aligned pointers and a width divisible by
/// 16 would be, the hinted gather reads its rows four f32 an access, the
/// same kernel without the hint one at a time.
#[test]
fn a_multiple_of_hint_gives_vector_loads() {
    use tile::{Arg, Specialization};
    use tile_examples::jagged_rows::jagged_rows;
    use tile_runtime::DevicePtr;
    let context = tile::context().unwrap();
    let aligned = Arg::from(DevicePtr(0x1000));
    let args = [aligned, aligned, aligned, Arg::I32(17), Arg::I32(128)];
    let options = Options {
        specialization: Specialization::of(&args),
        ..options()
    };
    let ptx = |hinted| {
        let kernel = jagged_rows(&context, 16, 128, hinted).unwrap();
        tile::compile(&kernel, &options)
            .unwrap_or_else(|e| panic!("{e}"))
            .ptx
    };
    let (hinted, plain) = (ptx(true), ptx(false));
    assert!(hinted.contains("ld.global.v4.f32"), "{hinted}");
    assert!(!plain.contains("ld.global.v"), "{plain}");
}

/// A kernel whose tile is `rows` x 4096 f32 over 4 warps, loaded, doubled
/// and stored; the line of its load.
fn wide_tile(context: &melior::Context, rows: i32) -> (Kernel<'_>, u32) {
    let mut line = 0;
    let kernel = Kernel::build(context, "wide_tile", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let offsets = k.arange(0, rows).expand_dims(1) * 4096 + k.arange(0, 4096).expand_dims(0);
        line = line!() + 1;
        let tile = k.load(x + offsets).build();
        k.store(x + offsets, tile * 2.0).build();
    })
    .unwrap();
    (kernel, line)
}

#[test]
fn tiles_that_spill_are_reported_with_their_line() {
    let context = tile::context().unwrap();
    // 16 x 4096 f32 over 128 threads: 512 registers each, over the 255 a
    // thread has, and its pointers (64-bit) 1024; each named once, at the
    // line of the op that makes it.
    let (kernel, line) = wide_tile(&context, 16);
    let compiled = tile::compile(&kernel, &options()).unwrap();
    let at_line = |what: &str| {
        compiled
            .warnings
            .iter()
            .filter(|w| w.contains(&format!("codegen.rs:{line}:")) && w.contains(what))
            .count()
    };
    let f32_tile = "a tile of shape [16, 4096] of f32 takes 512 registers in each thread, \
                    more than the 255 a thread has: it spills to local memory";
    assert_eq!(at_line(f32_tile), 1, "{:?}", compiled.warnings);
    assert_eq!(
        at_line("of !tile.ptr<f32> takes 1024 registers"),
        1,
        "{:?}",
        compiled.warnings
    );
    // 2 x 4096: 64 registers, nothing to say.
    let (kernel, _) = wide_tile(&context, 2);
    let compiled = tile::compile(&kernel, &options()).unwrap();
    assert_eq!(compiled.warnings, Vec::<String>::new());
}
