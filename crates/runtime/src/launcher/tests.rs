//! Tests of [`Launcher`] on the CPU interpreter.

use super::*;
use crate::cache_key::CacheKey;
use crate::host::{HostMemory, InterpretError, InterpretFault};
use crate::kernel::ParamType;
use crate::precompiled::Precompiled;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `x + 100 * y + 10000 * z` of each program to element
/// `x + gx * (y + gy * z)` of `out`, `n` elements long.
struct ProgramIds {
    runs: Arc<AtomicUsize>,
}

impl HostKernel for ProgramIds {
    fn name(&self) -> &str {
        "program_ids"
    }

    fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        let [Arg::Ptr { ptr, .. }, Arg::I32(n)] = args else {
            panic!("the launcher checked the arguments: {args:?}");
        };
        let [gx, gy, gz] = grid;
        for index in 0..gx * gy * gz {
            if i64::from(index) >= i64::from(*n) {
                continue;
            }
            let program = [index % gx, index / gx % gy, index / (gx * gy)];
            let [x, y, z] = program;
            let value = (x + 100 * y + 10_000 * z) as i32;
            store(memory, ptr.0, u64::from(index), value, program)?;
        }
        Ok(())
    }
}

/// Stores `value` at element `index` of the i32s at `base`, or faults
/// as the interpreter does.
fn store(
    memory: &mut HostMemory,
    base: u64,
    index: u64,
    value: i32,
    program: [u32; 3],
) -> Result<()> {
    let address = base + 4 * index;
    let allocation = memory.allocation(base);
    let Some(to) = memory.range_mut(address, 4) else {
        let error = InterpretError {
            kernel: "program_ids".into(),
            op: "tile.store".into(),
            location: "test".into(),
            program,
            fault: InterpretFault::OutOfBounds {
                write: true,
                index: vec![0],
                address,
                bytes: 4,
                pointer: "out".into(),
                allocation,
            },
        };
        return Err(RuntimeError::Interpreter(Box::new(error)));
    };
    to.copy_from_slice(&value.to_ne_bytes());
    Ok(())
}

/// A source of [`ProgramIds`] that counts the host kernels it makes,
/// failing the first ask when told to.
struct Source {
    asked: AtomicUsize,
    fail_first: bool,
    runs: Arc<AtomicUsize>,
}

impl Source {
    fn new(fail_first: bool) -> Source {
        Source {
            asked: AtomicUsize::new(0),
            fail_first,
            runs: Arc::new(AtomicUsize::new(0)),
        }
    }

    fn asked(&self) -> usize {
        self.asked.load(Ordering::SeqCst)
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }
}

impl VariantSource for Source {
    fn name(&self) -> &str {
        "program_ids"
    }

    fn params(&self) -> &[(String, ParamType)] {
        static PARAMS: OnceLock<Vec<(String, ParamType)>> = OnceLock::new();
        PARAMS.get_or_init(|| vec![("out".into(), ParamType::Ptr), ("n".into(), ParamType::I32)])
    }

    fn cache_key(&self, _: &Specialization) -> Option<CacheKey> {
        None
    }

    fn produce(&self, _: &Specialization) -> Result<Artifact> {
        panic!("an interpreter launch asked for PTX");
    }

    fn host_kernel(&self) -> Result<Arc<dyn HostKernel>> {
        if self.asked.fetch_add(1, Ordering::SeqCst) == 0 && self.fail_first {
            return Err(RuntimeError::NotInterpretable {
                kernel: Some("program_ids".into()),
                message: "not this time".into(),
            });
        }
        Ok(Arc::new(ProgramIds {
            runs: self.runs.clone(),
        }))
    }
}

fn launcher(fail_first: bool) -> Launcher<Source> {
    Launcher::with_cache(Source::new(fail_first), Arc::new(KernelCache::new(None)))
}

#[test]
fn launches_on_the_interpreter_run_the_host_kernel() {
    let device = Device::interpreter();
    let launcher = launcher(false);
    let out = device.alloc::<i32>(12).unwrap();
    launcher
        .launch(&device, (3, 2, 2), &[Arg::from(&out), Arg::I32(12)])
        .unwrap();
    assert_eq!(
        device.download(&out).unwrap(),
        vec![
            0, 1, 2, 100, 101, 102, 10_000, 10_001, 10_002, 10_100, 10_101, 10_102
        ]
    );
    // `launch_async` has run the kernel when it returns.
    let out = device.alloc::<i32>(4).unwrap();
    launcher
        .launch_async(&device, 4, &[Arg::from(&out), Arg::I32(3)])
        .unwrap();
    assert_eq!(launcher.source().runs(), 2);
    assert_eq!(device.download(&out).unwrap(), vec![0, 1, 2, 0]);
    // The host kernel was made once, and no PTX variant at all.
    assert_eq!(launcher.source().asked(), 1);
    assert!(launcher.events().is_empty());
    assert_eq!(launcher.compiles(), 0);
    assert!(matches!(
        launcher.variant(&device, &[Arg::from(&out), Arg::I32(3)]),
        Err(RuntimeError::NotInterpretable { kernel: Some(k), .. }) if k == "program_ids"
    ));
}

#[test]
fn interpreter_launches_are_checked_before_they_run() {
    let device = Device::interpreter();
    let launcher = launcher(false);
    let out = device.alloc::<i32>(4).unwrap();
    assert!(matches!(
        launcher.launch(&device, 1, &[Arg::from(&out)]),
        Err(RuntimeError::ArgCount { given: 1, .. })
    ));
    assert!(matches!(
        launcher.launch(&device, 1, &[Arg::from(&out), Arg::F32(4.0)]),
        Err(RuntimeError::BadArgument {
            index: 1,
            expected: ParamType::I32,
            given: ParamType::F32,
            ..
        })
    ));
    let args = [Arg::from(&out), Arg::I32(4)];
    for grid in [
        Grid::from(0),
        Grid::from((1, 70_000)),
        Grid::from((1, 1, 0)),
    ] {
        assert!(
            matches!(
                launcher.launch_async(&device, grid, &args),
                Err(RuntimeError::BadLaunch { .. })
            ),
            "{grid}"
        );
    }
    assert_eq!(launcher.source().asked(), 0);
    assert_eq!(launcher.source().runs(), 0);
    // A fault of the kernel comes back as it made it.
    let err = launcher
        .launch(&device, 8, &[Arg::from(&out), Arg::I32(8)])
        .unwrap_err();
    match err {
        RuntimeError::Interpreter(e) => {
            assert_eq!(e.program, [4, 0, 0]);
            assert_eq!(e.kernel, "program_ids");
        }
        other => panic!("expected an interpreter fault, got {other:?}"),
    }
    assert_eq!(device.download(&out).unwrap(), vec![0, 1, 2, 3]);
}

#[test]
fn a_host_kernel_that_could_not_be_made_is_asked_for_again() {
    let device = Device::interpreter();
    let launcher = launcher(true);
    let out = device.alloc::<i32>(2).unwrap();
    let args = [Arg::from(&out), Arg::I32(2)];
    assert!(matches!(
        launcher.launch(&device, 2, &args),
        Err(RuntimeError::NotInterpretable { .. })
    ));
    launcher.launch(&device, 2, &args).unwrap();
    launcher.launch(&device, 2, &args).unwrap();
    assert_eq!(launcher.source().asked(), 2);
    assert_eq!(launcher.source().runs(), 2);
    assert_eq!(device.download(&out).unwrap(), vec![0, 1]);
}

#[test]
fn precompiled_code_is_not_interpretable() {
    let artifact = Artifact {
        spec: KernelSpec {
            name: "k".into(),
            params: vec![("x".into(), ParamType::Ptr)],
            num_warps: 4,
            shared_mem_bytes: 0,
            i32_offset_elem_bytes: vec![],
            specialization: Specialization::none(),
        },
        ptx: String::new(),
    };
    let launcher = Launcher::with_cache(
        Precompiled::new(vec![artifact]).unwrap(),
        Arc::new(KernelCache::new(None)),
    );
    let device = Device::interpreter();
    let x = device.alloc::<f32>(1).unwrap();
    match launcher.launch(&device, 1, &[Arg::from(&x)]) {
        Err(RuntimeError::NotInterpretable {
            kernel: Some(kernel),
            message,
        }) => {
            assert_eq!(kernel, "k");
            assert!(message.contains("tile::jit"), "{message}");
        }
        other => panic!("expected NotInterpretable, got {other:?}"),
    }
}

#[test]
fn the_autotuner_runs_the_first_configuration_untimed() {
    use crate::autotune::{Autotuner, Config};
    let device = Device::interpreter();
    let tuner = Autotuner::with_cache(
        "ids",
        vec![
            (Config::new(4).with("BLOCK", 1), Source::new(false)),
            (Config::new(4).with("BLOCK", 2), Source::new(false)),
        ],
        Arc::new(KernelCache::new(None)),
    )
    .unwrap();
    let out = device.alloc::<i32>(3).unwrap();
    let args = [Arg::from(&out), Arg::I32(3)];
    let grid = |c: &Config| Grid::from(3 / c.get("BLOCK").unwrap() as u32);
    assert_eq!(tuner.choose(&device, "n=3", grid, &args).unwrap(), 0);
    tuner.launch(&device, "n=3", grid, &args).unwrap();
    assert_eq!(device.download(&out).unwrap(), vec![0, 1, 2]);
    assert_eq!(tuner.launcher(0).source().runs(), 1);
    assert_eq!(tuner.launcher(1).source().runs(), 0);
    assert!(tuner.tunings().is_empty());
}
