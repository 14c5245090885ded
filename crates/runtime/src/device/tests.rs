//! Tests of [`Device`] on both backends (the GPU ones skip without a
//! GPU).

use super::*;
use crate::backend::cuda::{driver_library_present, visible_devices};
use crate::host::Allocation;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn read_bytes_copies_a_window_of_one_allocation() {
    let device = Device::interpreter();
    let data: Vec<u8> = (1..=10).collect();
    let buf = device.upload(&data).unwrap();
    let at = DevicePtr(buf.ptr().0 + 3);
    assert_eq!(device.read_bytes(at, 4).unwrap(), vec![4, 5, 6, 7]);
    assert_eq!(device.read_bytes(at, 0).unwrap(), Vec::<u8>::new());
    assert!(
        device.read_bytes(at, 8).is_err(),
        "past the end of the buffer"
    );
}

#[test]
fn handles_are_send_and_sync() {
    assert_send_sync::<Device>();
    assert_send_sync::<Buffer<f32>>();
    assert_send_sync::<LoadedKernel>();
}

/// Meaningful on a machine without the driver (CI); on a GPU machine it
/// only checks that the calls return.
#[test]
fn without_a_driver_count_is_zero_and_new_says_why() {
    let _env = crate::testing::env_lock();
    if interpret_requested() {
        eprintln!("{INTERPRET_VAR} is on: device 0 is the interpreter");
        return;
    }
    let n = Device::count();
    if driver_library_present() {
        eprintln!("driver library present: {n} device(s)");
        return;
    }
    assert_eq!(n, 0);
    match Device::new(0) {
        Err(RuntimeError::NoDevice { ordinal: 0, reason }) => {
            assert!(reason.contains("libcuda.so"), "{reason}");
        }
        other => panic!("expected NoDevice, got {other:?}"),
    }
}

#[test]
fn queued_zero_copy_and_timed_repetitions() {
    let _env = crate::testing::env_lock();
    // The interpreter always (CI runs it), and the GPU when one is visible.
    let gpu = crate::device_or_skip("queued_zero_copy_and_timed_repetitions")
        .filter(|d| !d.is_interpreter());
    for device in std::iter::once(Device::interpreter()).chain(gpu) {
        queue_zero_copy_and_time(&device);
    }
}

fn queue_zero_copy_and_time(device: &Device) {
    let src = device.upload(&[1.5f32, -2.0, 3.0]).unwrap();
    let mut dst = device.upload(&[9.0f32; 3]).unwrap();
    let mut flush = device.upload(&[7u8; 4096]).unwrap();
    let times = device
        .time_each_ms(
            3,
            || device.zero_async(&mut flush),
            || device.copy_async(&src, &mut dst),
        )
        .unwrap();
    assert_eq!(times.len(), 3);
    assert!(
        times.iter().all(|t| t.is_finite() && *t >= 0.0),
        "{times:?}"
    );
    assert_eq!(device.download(&dst).unwrap(), vec![1.5, -2.0, 3.0]);
    assert_eq!(device.download(&flush).unwrap(), vec![0u8; 4096]);
    let mut short = device.alloc::<f32>(2).unwrap();
    assert!(matches!(
        device.copy_async(&src, &mut short),
        Err(RuntimeError::LengthMismatch {
            expected: 2,
            given: 3,
            ..
        })
    ));
}

#[test]
fn an_ordinal_past_the_devices_is_no_device() {
    match Device::new(1_000) {
        Err(RuntimeError::NoDevice { ordinal: 1_000, .. }) => {}
        other => panic!("expected NoDevice, got {other:?}"),
    }
}

/// The bytes the interpreter `device` holds now.
fn held(device: &Device) -> u64 {
    device.with_host_memory(|m| m.allocated_bytes()).unwrap()
}

#[test]
fn the_interpreter_is_a_device_without_a_gpu() {
    let device = Device::interpreter();
    assert!(device.is_interpreter());
    assert_eq!(device.ordinal(), 0);
    assert_eq!(device.name().unwrap(), "tile CPU interpreter");
    assert_eq!(
        device.limits(),
        DeviceLimits {
            max_grid: [2_147_483_647, 65_535, 65_535],
            max_threads_per_block: 1024,
            max_shared_mem_per_block: 232_448,
            multiprocessors: 132,
        }
    );
    assert_eq!(
        device.compute_capability(),
        Err(RuntimeError::NotInterpretable {
            kernel: None,
            message: "a compute capability needs a CUDA GPU, and this device is the CPU \
                      interpreter"
                .into(),
        })
    );
    device.synchronize().unwrap();
    assert!(format!("{device:?}").contains("CPU interpreter"));
    // Each interpreter is a context of its own; clones share it.
    let other = Device::interpreter();
    assert_eq!(device.context_id() % 2, 1);
    assert_ne!(device.context_id(), other.context_id());
    assert_eq!(device.context_id(), device.clone().context_id());
    assert!(device.same_as(&device.clone()));
    assert!(!device.same_as(&other));
}

#[test]
fn interpreter_memory_round_trips() {
    let device = Device::interpreter();
    let data: Vec<i64> = (0..1000).map(|i| i * 3 - 7).collect();
    let buf = device.upload(&data).unwrap();
    assert_ne!(buf.ptr().0, 0);
    assert_eq!(buf.ptr().0 % 256, 0);
    assert_eq!(device.download(&buf).unwrap(), data);
    // Pointer arithmetic is the GPU's: element 3 is 24 bytes in.
    let third = buf.ptr_at(3).unwrap().0;
    assert_eq!(third, buf.ptr().0 + 24);
    let bytes = device
        .with_host_memory(|m| m.range(third, 8).map(<[u8]>::to_vec))
        .unwrap()
        .unwrap();
    assert_eq!(i64::from_ne_bytes(bytes.try_into().unwrap()), 2);

    let mut zeros = device.alloc::<f32>(513).unwrap();
    assert_eq!(device.download(&zeros).unwrap(), vec![0.0; 513]);
    let ramp: Vec<f32> = (0..513).map(|i| i as f32 * 0.5).collect();
    device.write(&mut zeros, &ramp).unwrap();
    assert_eq!(device.download(&zeros).unwrap(), ramp);
    assert!(matches!(
        device.write(&mut zeros, &ramp[1..]),
        Err(RuntimeError::LengthMismatch {
            expected: 513,
            given: 512,
            ..
        })
    ));

    let src = device.upload(&[1.5f32, -2.0, 3.0]).unwrap();
    let mut dst = device.upload(&[9.0f32; 3]).unwrap();
    device.copy_async(&src, &mut dst).unwrap();
    assert_eq!(device.download(&dst).unwrap(), vec![1.5, -2.0, 3.0]);
    assert_eq!(device.download(&src).unwrap(), vec![1.5, -2.0, 3.0]);
    device.zero_async(&mut dst).unwrap();
    assert_eq!(device.download(&dst).unwrap(), vec![0.0; 3]);
    let mut short = device.alloc::<f32>(2).unwrap();
    assert!(matches!(
        device.copy_async(&src, &mut short),
        Err(RuntimeError::LengthMismatch {
            expected: 2,
            given: 3,
            ..
        })
    ));

    let empty = device.upload::<u8>(&[]).unwrap();
    assert_eq!(empty.ptr().0, 0);
    assert_eq!(device.download(&empty).unwrap(), Vec::<u8>::new());

    let live = 1000 * 8 + 513 * 4 + 3 * 4 + 3 * 4 + 2 * 4;
    assert_eq!(held(&device), live);
    assert_eq!(device.memory_info().unwrap(), (u64::MAX - live, u64::MAX));
}

#[test]
fn interpreter_buffers_free_their_memory_on_drop() {
    let device = Device::interpreter();
    let buf = device.upload(&[1u32, 2, 3]).unwrap();
    let base = buf.ptr().0;
    let at = |addr| device.with_host_memory(|m| m.allocation(addr)).unwrap();
    assert_eq!(at(base + 11), Some(Allocation { base, len: 12 }));
    // A clone of the device keeps the memory alive for the buffer.
    let clone = device.clone();
    let kept = clone.upload(&[7u8; 100]).unwrap();
    drop(buf);
    assert_eq!(at(base), None);
    assert_eq!(held(&device), 100);
    drop(clone);
    drop(kept);
    assert_eq!(held(&device), 0);
}

#[test]
fn interpreter_errors() {
    let device = Device::interpreter();
    let spec = KernelSpec {
        name: "add_one".into(),
        params: vec![],
        num_warps: 4,
        shared_mem_bytes: 0,
        i32_offset_elem_bytes: vec![],
        specialization: Default::default(),
    };
    match device.load(".version 8.0", &spec) {
        Err(RuntimeError::NotInterpretable {
            kernel: Some(kernel),
            message,
        }) => {
            assert_eq!(kernel, "add_one");
            assert!(message.contains("tile::jit"), "{message}");
        }
        other => panic!("expected NotInterpretable, got {other:?}"),
    }
    // A buffer of another interpreter is another device's.
    let other = Device::interpreter();
    let theirs = other.upload(&[1.0f32]).unwrap();
    assert!(matches!(
        device.download(&theirs),
        Err(RuntimeError::WrongDevice { .. })
    ));
    // More than the host could ever give is refused, not an abort.
    let requested = isize::MAX as u64 + 1;
    assert!(matches!(
        device.alloc::<u8>(requested as usize),
        Err(RuntimeError::HostOutOfMemory { requested: r, .. }) if r == requested
    ));
    let err = device
        .alloc::<u8>(requested as usize)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("the CPU interpreter could not allocate"),
        "{err}"
    );
    assert!(!err.contains(&u64::MAX.to_string()), "{err}");
    // Memory freed behind the buffer's back is reported, not read.
    let buf = device.upload(&[1u16, 2]).unwrap();
    assert!(device.with_host_memory(|m| m.free(buf.ptr().0)).unwrap());
    assert!(matches!(
        device.download(&buf),
        Err(RuntimeError::Driver { code, .. }) if code == "TILE_INTERPRETER_MEMORY"
    ));
}

#[test]
fn interpreter_timing_is_wall_clock() {
    let device = Device::interpreter();
    let (mut before, mut timed) = (0, 0);
    let times = device
        .time_each_ms(
            3,
            || {
                before += 1;
                Ok(())
            },
            || {
                timed += 1;
                std::thread::sleep(std::time::Duration::from_millis(2));
                Ok(())
            },
        )
        .unwrap();
    assert_eq!((before, timed), (3, 3));
    assert_eq!(times.len(), 3);
    assert!(
        times.iter().all(|t| *t >= 2.0 && t.is_finite()),
        "{times:?}"
    );
    let t = device
        .time_ms(|| {
            std::thread::sleep(std::time::Duration::from_millis(2));
            Ok(())
        })
        .unwrap();
    assert!(t >= 2.0, "{t}");
}

/// Puts [`INTERPRET_VAR`] back as it was when dropped.
struct RestoreVar(Option<std::ffi::OsString>);

impl Drop for RestoreVar {
    fn drop(&mut self) {
        set_interpret_var(self.0.as_deref());
    }
}

fn set_interpret_var(value: Option<&std::ffi::OsStr>) {
    // SAFETY: `set_var` and `remove_var` race with reads of the
    // environment on other threads. The crate's tests that read this
    // variable hold `env_lock` (as the caller does), and std's readers
    // take std's environment lock. What is left is C code reading the
    // environment on another test thread meanwhile: the only such code
    // here is the CUDA driver's initialisation, which
    // `the_environment_switch` runs (through `Device::count`) before it
    // changes anything.
    unsafe {
        match value {
            Some(v) => std::env::set_var(INTERPRET_VAR, v),
            None => std::env::remove_var(INTERPRET_VAR),
        }
    }
}

/// Every assertion that sets [`INTERPRET_VAR`] is here, under the
/// environment lock, and the variable is restored at the end.
#[test]
fn the_environment_switch() {
    let _env = crate::testing::env_lock();
    let gpus = visible_devices().unwrap_or(0);
    let _restore = RestoreVar(std::env::var_os(INTERPRET_VAR));
    for on in ["1", "true", "YES"] {
        set_interpret_var(Some(on.as_ref()));
        assert!(interpret_requested(), "{on:?}");
        assert_eq!(Device::count(), 1, "{on:?}");
    }
    let a = Device::new(0).unwrap();
    assert!(a.is_interpreter());
    assert_eq!(a.ordinal(), 0);
    // Every `Device::new(0)` is the same interpreter, as on a GPU.
    let b = Device::new(0).unwrap();
    assert!(a.same_as(&b));
    let buf = a.upload(&[4i32, 5]).unwrap();
    assert_eq!(b.download(&buf).unwrap(), vec![4, 5]);
    match Device::new(1) {
        Err(RuntimeError::NoDevice { ordinal: 1, reason }) => {
            assert!(reason.contains("only ordinal 0"), "{reason}");
            assert!(reason.contains(INTERPRET_VAR), "{reason}");
        }
        other => panic!("expected NoDevice, got {other:?}"),
    }
    for off in ["0", "", "false", "not-a-switch"] {
        set_interpret_var(Some(off.as_ref()));
        assert!(!interpret_requested(), "{off:?}");
        assert_eq!(Device::count(), gpus, "{off:?}");
        if let Ok(d) = Device::new(0) {
            assert!(!d.is_interpreter(), "{off:?}");
        }
    }
    set_interpret_var(None);
    assert_eq!(Device::count(), gpus);
    assert!(Device::new(0).map_or(true, |d| !d.is_interpreter()));
}
