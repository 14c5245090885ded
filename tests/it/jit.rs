//! The JIT path without a GPU: cache keys, the kernel cache in memory and
//! on disk (cold, warm, another process, a damaged entry, 16 processes at
//! once), the variant per argument facts, compile events, dumps from a
//! cached kernel, and threads compiling at once.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use tile::jit::TileCompiler;
use tile::{
    Arg, CompileEvent, Dump, Fact, KernelCache, Options, Origin, Specialization, VariantSource,
};
use tile_examples::{row_sum, vector_add};
use tile_runtime::{CompileCause, DevicePtr, DiskCache, VariantReason};

/// A directory of its own for one test, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tile-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The vector add's compiler, built in a context of its own.
fn vector_add_source(block: i32, options: Options) -> TileCompiler {
    let context = tile::context().unwrap();
    let kernel = vector_add::safe_kernel(&context, block).unwrap();
    TileCompiler::new(&kernel, options).unwrap()
}

fn no_dumps() -> Options {
    Options {
        dump: None,
        ..Options::default()
    }
}

/// Vector-add arguments: three pointers at `addr` (16-byte aligned or
/// not) and `n`.
fn args(addr: u64, n: i32) -> Vec<Arg> {
    let p = Arg::from(DevicePtr(addr));
    vec![p, p, p, Arg::I32(n)]
}

fn jit_with(dir: Option<&Path>, source: TileCompiler) -> tile::Jit {
    let cache = Arc::new(KernelCache::new(dir.map(DiskCache::at)));
    tile::Launcher::with_cache(source, cache)
}

#[test]
fn the_jit_compiles_what_compile_compiles() {
    let context = tile::context().unwrap();
    let kernel = vector_add::safe_kernel(&context, 256).unwrap();
    let aligned = Specialization {
        facts: vec![Fact::DivisibleBy16; 4],
    };
    for spec in [Specialization::none(), aligned] {
        let direct = tile::compile(&kernel, &no_dumps().specialized(spec.clone())).unwrap();
        let jit = TileCompiler::new(&kernel, no_dumps())
            .unwrap()
            .compile(&spec)
            .unwrap();
        assert_eq!(jit.ptx, direct.ptx);
        assert_eq!(jit.spec, direct.spec);
    }
}

#[test]
fn the_key_changes_with_every_input_and_nothing_else() {
    let base = vector_add_source(1024, no_dumps());
    let none = Specialization::none();
    let key = |s: &TileCompiler, spec: &Specialization| s.cache_key(spec).unwrap();
    let k0 = key(&base, &none);
    // Stable: the same kernel built again, in another context, and the two
    // spellings of "nothing assumed".
    assert_eq!(key(&vector_add_source(1024, no_dumps()), &none), k0);
    assert_eq!(
        key(
            &base,
            &Specialization {
                facts: vec![Fact::None; 4]
            }
        ),
        k0
    );
    // Dumps do not change the code, so not the key.
    let dumping = Options {
        dump: Some(Dump::to("/tmp/somewhere")),
        ..no_dumps()
    };
    assert_eq!(key(&vector_add_source(1024, dumping), &none), k0);
    // Everything else does.
    let changed = [
        ("kernel", key(&vector_add_source(512, no_dumps()), &none)),
        (
            "num_warps",
            key(&vector_add_source(1024, Options::with_warps(8)), &none),
        ),
        (
            "opt_level",
            key(
                &vector_add_source(
                    1024,
                    Options {
                        opt_level: 2,
                        ..no_dumps()
                    },
                ),
                &none,
            ),
        ),
        (
            "chip",
            key(
                &vector_add_source(
                    1024,
                    Options {
                        chip: "sm_80".into(),
                        ..no_dumps()
                    },
                ),
                &none,
            ),
        ),
        (
            "features",
            key(
                &vector_add_source(
                    1024,
                    Options {
                        features: "+ptx82".into(),
                        ..no_dumps()
                    },
                ),
                &none,
            ),
        ),
        (
            "debug flag",
            key(
                &vector_add_source(
                    1024,
                    Options {
                        debug: !no_dumps().debug,
                        ..no_dumps()
                    },
                ),
                &none,
            ),
        ),
        (
            "fusion flag",
            key(
                &vector_add_source(
                    1024,
                    Options {
                        fp_fusion: false,
                        ..no_dumps()
                    },
                ),
                &none,
            ),
        ),
        (
            "specialization",
            key(
                &base,
                &Specialization {
                    facts: vec![Fact::DivisibleBy16],
                },
            ),
        ),
        (
            "compiler version",
            base.cache_key_for_compiler("0.1.0+another-build mlir-22", &none),
        ),
    ];
    for (what, k) in &changed {
        assert_ne!(*k, k0, "the key ignores the {what}");
    }
    assert_eq!(
        base.cache_key_for_compiler(tile::COMPILER_VERSION, &none),
        k0
    );
    let mut all: Vec<_> = changed.iter().map(|(_, k)| *k).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), changed.len(), "two changes gave one key");
}

#[test]
fn cold_warm_memory_and_a_damaged_entry() {
    let dir = scratch("cache-cycle");
    let spec_args = args(0x1000, 1000);
    // Cold: compiled and written.
    let cold = jit_with(Some(&dir), vector_add_source(1024, no_dumps()));
    let artifact = cold.prepare(&spec_args).unwrap();
    let [event] = &cold.events()[..] else {
        panic!("{:?}", cold.events())
    };
    assert_eq!(event.origin, Origin::Compiled(CompileCause::NotCached));
    assert_eq!(event.reason, VariantReason::First);
    let entries = DiskCache::at(&dir).entries().unwrap();
    assert_eq!(entries.len(), 1);
    // Warm, same cache: from memory, through another launcher.
    let shared = tile::Launcher::with_cache(
        vector_add_source(1024, no_dumps()),
        Arc::new(KernelCache::new(Some(DiskCache::at(&dir)))),
    );
    shared.prepare(&spec_args).unwrap();
    assert_eq!(shared.events()[0].origin, Origin::Disk(entries[0].clone()));
    let again = shared.prepare(&spec_args).unwrap();
    assert_eq!(*again, *artifact);
    assert_eq!(shared.events().len(), 1, "one variant, made once");
    // A damaged entry is recompiled and repaired.
    for damage in [Damage::Truncate, Damage::Flip, Damage::Empty] {
        damage.apply(&entries[0]);
        let repaired = jit_with(Some(&dir), vector_add_source(1024, no_dumps()));
        assert_eq!(*repaired.prepare(&spec_args).unwrap(), *artifact);
        assert!(
            matches!(
                &repaired.events()[0].origin,
                Origin::Compiled(CompileCause::Corrupt { path, .. }) if *path == entries[0]
            ),
            "{damage:?}: {:?}",
            repaired.events()
        );
        let after = jit_with(Some(&dir), vector_add_source(1024, no_dumps()));
        after.prepare(&spec_args).unwrap();
        assert!(matches!(after.events()[0].origin, Origin::Disk(_)));
    }
    assert_eq!(DiskCache::at(&dir).entries().unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ways to damage a cache file.
#[derive(Clone, Copy, Debug)]
enum Damage {
    Truncate,
    Flip,
    Empty,
}

impl Damage {
    fn apply(self, path: &Path) {
        let mut bytes = std::fs::read(path).unwrap();
        match self {
            Damage::Truncate => bytes.truncate(bytes.len() / 2),
            Damage::Flip => {
                let i = bytes.len() - 100;
                bytes[i] ^= 0x01;
            }
            Damage::Empty => bytes.clear(),
        }
        std::fs::write(path, bytes).unwrap();
    }
}

/// The environment variable that tells [`child_compiles_into_the_cache`]
/// where to compile, and what it must find.
const CHILD_DIR: &str = "TILE_IT_CHILD_CACHE_DIR";
const CHILD_EXPECT: &str = "TILE_IT_CHILD_EXPECT";

/// Runs [`child_compiles_into_the_cache`] in `n` processes at once.
fn spawn_children(n: usize, dir: &Path, expect: &str) -> Vec<std::process::Output> {
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..n)
        .map(|_| {
            Command::new(&exe)
                .args([
                    "--ignored",
                    "--exact",
                    "jit::child_compiles_into_the_cache",
                    "--nocapture",
                ])
                .env(CHILD_DIR, dir)
                .env(CHILD_EXPECT, expect)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

/// Not a test of its own: the other tests run it in child processes (it
/// fails when run without them). Compiles the vector add and the row sum
/// through a cache in `$TILE_IT_CHILD_CACHE_DIR` and checks where the code
/// came from against `$TILE_IT_CHILD_EXPECT` (`disk` or `any`).
#[test]
#[ignore = "run by the cache tests in child processes"]
fn child_compiles_into_the_cache() {
    let dir = std::env::var_os(CHILD_DIR).expect("run by jit::another_process_* only");
    let expect = std::env::var(CHILD_EXPECT).unwrap();
    let cache = Arc::new(KernelCache::new(Some(DiskCache::at(PathBuf::from(dir)))));
    let context = tile::context().unwrap();
    let add = tile::Launcher::with_cache(
        TileCompiler::new(
            &vector_add::safe_kernel(&context, 1024).unwrap(),
            no_dumps(),
        )
        .unwrap(),
        cache.clone(),
    );
    let sum = tile::Launcher::with_cache(
        TileCompiler::new(
            &row_sum::row_sum(&context, 1024, tile::DType::F32).unwrap(),
            no_dumps(),
        )
        .unwrap(),
        cache,
    );
    add.prepare(&args(0x1000, 1000)).unwrap();
    let p = Arg::from(DevicePtr(0x2000));
    sum.prepare(&[
        p,
        p,
        Arg::I32(64),
        Arg::I32(1000),
        Arg::I64(1000),
        Arg::I64(1),
    ])
    .unwrap();
    for event in add.events().iter().chain(&sum.events()) {
        println!("child: {event}");
        if expect == "disk" {
            assert!(matches!(event.origin, Origin::Disk(_)), "{event}");
        }
    }
}

#[test]
fn another_process_reads_what_this_one_wrote() {
    let dir = scratch("second-process");
    let outputs = spawn_children(1, &dir, "any");
    assert!(outputs[0].status.success(), "{outputs:?}");
    assert_eq!(DiskCache::at(&dir).entries().unwrap().len(), 2);
    let outputs = spawn_children(1, &dir, "disk");
    assert!(
        outputs[0].status.success(),
        "{}",
        String::from_utf8_lossy(&outputs[0].stdout)
    );
    assert!(String::from_utf8_lossy(&outputs[0].stdout).contains("from the disk cache"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sixteen_processes_compile_into_one_cache_directory() {
    let dir = scratch("sixteen");
    let outputs = spawn_children(16, &dir, "any");
    for (i, out) in outputs.iter().enumerate() {
        assert!(
            out.status.success(),
            "process {i}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // One entry per kernel, every one valid, and no temporary file left.
    let cache = DiskCache::at(&dir);
    let entries = cache.entries().unwrap();
    assert_eq!(entries.len(), 2, "{entries:?}");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 2, "{files:?}");
    for entry in &entries {
        let key = tile::CacheKey::from_hex(entry.file_stem().unwrap().to_str().unwrap()).unwrap();
        assert!(matches!(cache.load(&key), tile_runtime::Lookup::Hit(_)));
    }
    // And a later process finds both on disk.
    let outputs = spawn_children(1, &dir, "disk");
    assert!(outputs[0].status.success(), "{outputs:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_thousand_launches_varying_an_integer_compile_once() {
    let jit = jit_with(None, vector_add_source(1024, no_dumps()));
    for i in 0..1000 {
        // 16i + 3: never 1, never a multiple of 16.
        jit.prepare(&args(0x1000, 16 * i + 3)).unwrap();
    }
    assert_eq!(jit.compiles(), 1);
    assert_eq!(jit.events().len(), 1);
    // A multiple of 16 is another variant; the event names the argument.
    jit.prepare(&args(0x1000, 4096)).unwrap();
    let events = jit.events();
    assert_eq!(jit.compiles(), 2);
    let VariantReason::Specialization(changes) = &events[1].reason else {
        panic!("{:?}", events[1])
    };
    assert_eq!(changes.len(), 1);
    assert_eq!(
        (changes[0].index, changes[0].name.as_str()),
        (3, "n"),
        "{changes:?}"
    );
    assert_eq!(
        (changes[0].from, changes[0].to),
        (Fact::None, Fact::DivisibleBy16)
    );
    assert!(
        events[1]
            .to_string()
            .contains("argument 3 (`n`) none -> %16")
    );
    // A misaligned pointer: the three pointers change, `n` does not.
    jit.prepare(&args(0x1004, 4096)).unwrap();
    let VariantReason::Specialization(changes) = &jit.events()[2].reason else {
        panic!()
    };
    let names: Vec<_> = changes.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["x_ptr", "y_ptr", "out_ptr"]);
    // Going back to an earlier variant compiles nothing.
    jit.prepare(&args(0x1000, 35)).unwrap();
    assert_eq!(jit.compiles(), 3);
}

#[test]
fn wrong_arguments_are_refused_before_compiling() {
    let jit = jit_with(None, vector_add_source(1024, no_dumps()));
    let err = jit.prepare(&args(0x1000, 3)[..3]).unwrap_err();
    assert!(
        matches!(err, tile::RuntimeError::ArgCount { given: 3, .. }),
        "{err}"
    );
    let mut wrong = args(0x1000, 3);
    wrong[3] = Arg::I64(3);
    assert!(matches!(
        jit.prepare(&wrong),
        Err(tile::RuntimeError::BadArgument { index: 3, .. })
    ));
    assert_eq!(jit.events(), Vec::<CompileEvent>::new());
}

#[test]
fn dumps_are_written_even_when_the_kernel_is_cached() {
    let dir = scratch("dump-cache");
    let dumps = scratch("dump-out");
    let warm = jit_with(Some(&dir), vector_add_source(1024, no_dumps()));
    warm.prepare(&args(0x1000, 7)).unwrap();
    let dumping = jit_with(
        Some(&dir),
        vector_add_source(
            1024,
            Options {
                dump: Some(Dump::to(&dumps)),
                ..no_dumps()
            },
        ),
    );
    dumping.prepare(&args(0x1000, 7)).unwrap();
    let event = &dumping.events()[0];
    assert!(
        matches!(&event.origin, Origin::Compiled(CompileCause::Fresh(why)) if why.contains("dumps")),
        "{event}"
    );
    let kernel_dir = dumps.join("safe_kernel");
    let files: Vec<_> = std::fs::read_dir(&kernel_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("kernel.ptx")), "{files:?}");
    assert!(files.iter().any(|f| f.starts_with("00-tile")), "{files:?}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&dumps).unwrap();
}

#[test]
fn threads_compile_at_once_and_each_key_once() {
    let cache = Arc::new(KernelCache::new(None));
    let blocks = [256, 512, 1024];
    let launchers: Vec<_> = blocks
        .iter()
        .map(|&b| tile::Launcher::with_cache(vector_add_source(b, no_dumps()), cache.clone()))
        .collect();
    let expected: Vec<_> = blocks
        .iter()
        .map(|&b| {
            vector_add_source(b, no_dumps())
                .compile(&Specialization::of(&args(0x1000, 3)))
                .unwrap()
        })
        .collect();
    std::thread::scope(|s| {
        for t in 0..6 {
            let launchers = &launchers;
            let expected = &expected;
            s.spawn(move || {
                for k in 0..launchers.len() {
                    let i = (k + t) % launchers.len();
                    let a = launchers[i]
                        .prepare(&args(0x1000, 3 + 16 * t as i32))
                        .unwrap();
                    assert_eq!(*a, expected[i]);
                }
            });
        }
    });
    // Every launcher made its one variant once, compiled or from memory;
    // each key was compiled once in all.
    let compiled: usize = launchers.iter().map(|l| l.compiles()).sum();
    assert_eq!(compiled, blocks.len());
    for l in &launchers {
        assert_eq!(l.events().len(), 1);
    }
}

#[test]
fn ahead_of_time_variants_are_the_jits_and_picked_per_launch() {
    let dir = scratch("aot");
    std::fs::create_dir_all(&dir).unwrap();
    let context = tile::context().unwrap();
    let kernel = vector_add::safe_kernel(&context, 1024).unwrap();
    let aligned = Specialization {
        facts: vec![Fact::DivisibleBy16; 4],
    };
    let paths = tile::aot::write_variants(
        &kernel,
        &no_dumps(),
        &[Specialization::none(), aligned.clone()],
        &dir,
    )
    .unwrap();
    assert_eq!(
        paths,
        [
            dir.join("safe_kernel.0.tile"),
            dir.join("safe_kernel.1.tile")
        ]
    );
    let bytes: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let slices: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    let aot = tile::Launcher::new(tile::Precompiled::from_bytes(&slices).unwrap());
    let jit = TileCompiler::new(&kernel, no_dumps()).unwrap();
    // Aligned pointers and n % 16 == 0: the aligned variant, the JIT's PTX.
    let fast = aot.prepare(&args(0x1000, 4096)).unwrap();
    assert_eq!(*fast, jit.compile(&aligned).unwrap());
    // n not a multiple of 16: the generic variant.
    let generic = aot.prepare(&args(0x1000, 4097)).unwrap();
    assert_eq!(*generic, jit.compile(&Specialization::none()).unwrap());
    assert!(aot.events().iter().all(|e| e.origin == Origin::Precompiled));
    assert_eq!(aot.compiles(), 0);
    // A damaged variant is refused, not loaded.
    let mut damaged = bytes[0].clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    assert!(tile::Precompiled::from_bytes(&[&damaged]).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
