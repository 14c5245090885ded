//! Tests of a host device that loads PTX through a fake loader, whose
//! kernels write what they were launched with.

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use crate::device::{Device, HostPtxLoader};
use crate::error::{Result, RuntimeError};
use crate::host::{HostKernel, HostMemory};
use crate::kernel::{Arg, KernelSpec, ParamType};
use crate::kernel_cache::KernelCache;
use crate::launcher::{Launcher, VariantSource};
use crate::specialization::Specialization;
use std::sync::{Arc, Mutex};

/// Writes `i + 1000 * grid.x` to element `i < n` of `out`.
struct Fill;

impl HostKernel for Fill {
    fn name(&self) -> &str {
        "fill"
    }

    fn run(&self, memory: &mut HostMemory, grid: [u32; 3], args: &[Arg]) -> Result<()> {
        let [Arg::Ptr { ptr, .. }, Arg::I32(n)] = args else {
            panic!("the launch checked the arguments: {args:?}");
        };
        for i in 0..*n {
            let value = i + 1000 * grid[0] as i32;
            let at = ptr.0 + 4 * i as u64;
            memory
                .range_mut(at, 4)
                .expect("in bounds")
                .copy_from_slice(&value.to_ne_bytes());
        }
        Ok(())
    }
}

fn params() -> Vec<(String, ParamType)> {
    vec![("out".into(), ParamType::Ptr), ("n".into(), ParamType::I32)]
}

fn spec(num_warps: u32) -> KernelSpec {
    KernelSpec {
        name: "fill".into(),
        params: params(),
        num_warps,
        shared_mem_bytes: 0,
        i32_offset_elem_bytes: vec![],
        specialization: Specialization::none(),
    }
}

/// A device whose loader records the PTX it is given and makes [`Fill`]s.
fn device(loaded: Arc<Mutex<Vec<String>>>) -> Device {
    Device::host_with_loader(HostPtxLoader {
        name: "fake PTX executor".into(),
        compute_capability: (8, 0),
        limits: Device::interpreter().limits(),
        load: Arc::new(move |ptx, spec| {
            loaded.lock().unwrap().push(ptx.to_string());
            assert_eq!(spec.name, "fill");
            Ok(Box::new(Fill))
        }),
    })
}

/// Compiled code of `fill` that names the chip it is for.
struct Source {
    chips: Mutex<Vec<String>>,
}

impl VariantSource for Source {
    fn name(&self) -> &str {
        "fill"
    }

    fn params(&self) -> &[(String, ParamType)] {
        static PARAMS: std::sync::OnceLock<Vec<(String, ParamType)>> = std::sync::OnceLock::new();
        PARAMS.get_or_init(params)
    }

    fn cache_key(&self, _: &Specialization) -> Option<CacheKey> {
        None
    }

    fn produce(&self, _: &Specialization) -> Result<Artifact> {
        panic!("a launch on a device with a chip asked for code for no chip");
    }

    fn produce_for(&self, _: &Specialization, chip: &str) -> Result<Artifact> {
        self.chips.lock().unwrap().push(chip.to_string());
        Ok(Artifact {
            spec: spec(2),
            ptx: format!("// fill for {chip}\n"),
        })
    }

    fn host_kernel(&self) -> Result<Arc<dyn HostKernel>> {
        panic!("a device that loads PTX asked for the interpreter's kernel");
    }
}

#[test]
fn a_host_device_with_a_loader_has_a_chip_and_host_memory() {
    let device = device(Arc::default());
    assert!(!device.is_interpreter());
    assert!(!device.id().interpreter);
    assert_eq!(device.compute_capability().unwrap(), (8, 0));
    assert_eq!(device.chip().unwrap(), "sm_80");
    assert_eq!(device.name().unwrap(), "fake PTX executor");
    let buf = device.upload(&[1i32, 2, 3]).unwrap();
    assert_eq!(device.download(&buf).unwrap(), [1, 2, 3]);
    let in_memory = device
        .with_host_memory(|m| m.range(buf.ptr().0, 12).map(<[u8]>::to_vec))
        .unwrap();
    assert_eq!(in_memory.unwrap().len(), 12);
    assert!(format!("{device:?}").contains("CPU PTX loader"));
}

#[test]
fn a_launcher_compiles_for_the_loaders_chip_and_runs_the_loaded_kernel() {
    let loaded = Arc::new(Mutex::new(Vec::new()));
    let device = device(loaded.clone());
    let source = Source {
        chips: Mutex::new(Vec::new()),
    };
    let launcher = Launcher::with_cache(source, Arc::new(KernelCache::new(None)));
    let out = device.alloc::<i32>(4).unwrap();
    launcher
        .launch(&device, 3u32, &[Arg::from(&out), Arg::I32(3)])
        .unwrap();
    assert_eq!(device.download(&out).unwrap(), [3000, 3001, 3002, 0]);
    launcher
        .launch_async(&device, 5u32, &[Arg::from(&out), Arg::I32(3)])
        .unwrap();
    assert_eq!(device.download(&out).unwrap(), [5000, 5001, 5002, 0]);
    // One variant (the arguments have the same facts), compiled for sm_80
    // and loaded once.
    assert_eq!(*launcher.source().chips.lock().unwrap(), ["sm_80"]);
    assert_eq!(*loaded.lock().unwrap(), ["// fill for sm_80\n"]);
    let kernel = launcher
        .variant(&device, &[Arg::from(&out), Arg::I32(3)])
        .unwrap();
    assert_eq!(kernel.spec().num_warps, 2);
    // No driver compiled it: nothing to report of registers or blocks.
    assert_eq!(kernel.resources(), None);
    kernel
        .launch(1u32, &[Arg::from(&out), Arg::I32(1)])
        .unwrap();
    assert_eq!(device.download(&out).unwrap(), [1000, 5001, 5002, 0]);
}

#[test]
fn host_launches_are_checked_as_gpu_launches_are() {
    let loaded = Arc::new(Mutex::new(Vec::new()));
    let device = device(loaded.clone());
    // Too many threads: refused before the loader sees the PTX.
    assert!(matches!(
        device.load("", &spec(64)),
        Err(RuntimeError::TooManyThreads { threads: 2048, .. })
    ));
    assert!(loaded.lock().unwrap().is_empty());
    let kernel = device.load("", &spec(1)).unwrap();
    let out = device.alloc::<i32>(2).unwrap();
    assert!(matches!(
        kernel.launch(1u32, &[Arg::from(&out)]),
        Err(RuntimeError::ArgCount { .. })
    ));
    assert!(matches!(
        kernel.launch(0u32, &[Arg::from(&out), Arg::I32(2)]),
        Err(RuntimeError::BadLaunch { .. })
    ));
    // Another device's buffer, or another device's stream.
    let other = self::device(Arc::default());
    let theirs = other.alloc::<i32>(2).unwrap();
    assert!(matches!(
        kernel.launch(1u32, &[Arg::from(&theirs), Arg::I32(2)]),
        Err(RuntimeError::ArgOnWrongDevice { .. })
    ));
    assert!(matches!(
        kernel.launch_on(&other, 1u32, &[Arg::from(&out), Arg::I32(2)]),
        Err(RuntimeError::WrongDevice { .. })
    ));
    // The interpreter still loads no PTX.
    assert!(matches!(
        Device::interpreter().load("", &spec(1)),
        Err(RuntimeError::NotInterpretable { .. })
    ));
}
