//! The runtime against a device. The memory test runs on every device
//! there is: the CPU interpreter always (so CI runs it), and the GPU when
//! one is visible. The tests that load PTX need a CUDA GPU: they are
//! ignored by default, so `cargo test` reports them as "ignored, needs a
//! CUDA GPU" rather than as passing. On the GPU machine `bash bench/gpu.sh
//! cargo-tests` runs them with `TILE_REQUIRE_GPU=1` (a missing device is
//! then a failure):
//! `TILE_REQUIRE_GPU=1 cargo test -p tile-runtime --test gpu -- --include-ignored --skip illegal_address`.
//!
//! `illegal_address_is_reported` kills the CUDA context of its process, so
//! it runs alone, in a process of its own:
//! `cargo test -p tile-runtime --test gpu -- --ignored --exact illegal_address_is_reported`.

use tile_runtime::{Arg, Device, DevicePtr, KernelSpec, ParamType, RuntimeError, device_or_skip};

/// Device 0 for a test that loads PTX: `None` (after saying so) when it is
/// the CPU interpreter, which cannot, or when there is no device.
fn gpu_or_skip(test_name: &str) -> Option<Device> {
    let device = device_or_skip(test_name)?;
    if device.is_interpreter() {
        let line =
            format!("skipped: loads PTX, which the CPU interpreter cannot run ({test_name})");
        println!("{line}");
        eprintln!("{line}");
        return None;
    }
    Some(device)
}

/// `x[i] += 1.0` for `i < n`, one element per thread.
const ADD_ONE_PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64

.visible .entry add_one(
	.param .u64 add_one_param_0,
	.param .u32 add_one_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [add_one_param_0];
	ld.param.u32 	%r2, [add_one_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L_done;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f1, [%rd4];
	add.f32 	%f2, %f1, 0f3F800000;
	st.global.f32 	[%rd4], %f2;
$L_done:
	ret;
}
"#;

fn add_one_spec(num_warps: u32) -> KernelSpec {
    KernelSpec {
        name: "add_one".into(),
        params: vec![("x".into(), ParamType::Ptr), ("n".into(), ParamType::I32)],
        num_warps,
        shared_mem_bytes: 0,
        // `x` is indexed by a 32-bit thread index (`mul.wide.s32`).
        i32_offset_elem_bytes: vec![Some(4), None],
        specialization: Default::default(),
    }
}

/// The interpreter, and device 0 when a GPU is visible (`None` there after
/// saying so, or a failure under `TILE_REQUIRE_GPU`).
fn every_device(test_name: &str) -> Vec<Device> {
    let mut devices = vec![Device::interpreter()];
    devices.extend(device_or_skip(test_name).filter(|d| !d.is_interpreter()));
    devices
}

#[test]
fn upload_download_round_trip() -> Result<(), RuntimeError> {
    for device in every_device("upload_download_round_trip") {
        round_trip(&device)?;
    }
    Ok(())
}

fn round_trip(device: &Device) -> Result<(), RuntimeError> {
    if device.is_interpreter() {
        eprintln!("device 0: {}", device.name()?);
    } else {
        eprintln!(
            "device 0: {} (sm_{}{})",
            device.name()?,
            device.compute_capability()?.0,
            device.compute_capability()?.1
        );
    }
    let data: Vec<i64> = (0..10_000).map(|i| i * 3 - 7).collect();
    let buf = device.upload(&data)?;
    assert_eq!(buf.len(), data.len());
    assert_eq!(device.download(&buf)?, data);

    let mut zeros = device.alloc::<f32>(513)?;
    assert_eq!(device.download(&zeros)?, vec![0.0; 513]);
    let ramp: Vec<f32> = (0..513).map(|i| i as f32).collect();
    device.write(&mut zeros, &ramp)?;
    assert_eq!(device.download(&zeros)?, ramp);
    assert!(matches!(
        device.write(&mut zeros, &ramp[1..]),
        Err(RuntimeError::LengthMismatch {
            expected: 513,
            given: 512,
            ..
        })
    ));

    let empty = device.upload::<u8>(&[])?;
    assert!(empty.is_empty());
    assert_eq!(device.download(&empty)?, Vec::<u8>::new());

    assert_eq!(zeros.ptr_at(0)?, zeros.ptr());
    assert_eq!(zeros.ptr_at(2)?, DevicePtr(zeros.ptr().0 + 8));
    assert!(zeros.ptr_at(513).is_ok());
    assert!(matches!(
        zeros.ptr_at(514),
        Err(RuntimeError::OutOfBounds {
            offset: 514,
            len: 513
        })
    ));
    Ok(())
}

#[test]
#[ignore = "needs a CUDA GPU (bash bench/gpu.sh cargo-tests)"]
fn add_one_kernel() -> Result<(), RuntimeError> {
    let Some(device) = gpu_or_skip("add_one_kernel") else {
        return Ok(());
    };
    let kernel = device.load(ADD_ONE_PTX, &add_one_spec(4))?;
    // What the driver made of it: a few registers, no spills, and as many
    // 128-thread blocks a multiprocessor as it allows (16 on sm_90).
    let used = kernel.resources().expect("a GPU kernel reports resources");
    assert!((1..=32).contains(&used.registers), "{used:?}");
    assert_eq!(used.local_bytes, 0, "{used:?}");
    assert!(used.blocks_per_multiprocessor >= 8, "{used:?}");
    let n: i32 = 1000;
    let host: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let x = device.upload(&host)?;
    let blocks = (n as u32).div_ceil(128);
    kernel.launch(blocks, &[Arg::from(&x), Arg::from(n)])?;
    let out = device.download(&x)?;
    let want: Vec<f32> = host.iter().map(|v| v + 1.0).collect();
    assert_eq!(out, want);

    // Asynchronous launches, ordered on the stream, timed with events.
    let ms = device.time_ms(|| {
        for _ in 0..10 {
            kernel.launch_async(blocks, &[Arg::from(&x), Arg::from(n)])?;
        }
        Ok(())
    })?;
    assert!(ms >= 0.0, "{ms}");
    eprintln!("10 launches of add_one: {ms:.3} ms");
    let out = device.download(&x)?;
    let want: Vec<f32> = host.iter().map(|v| v + 11.0).collect();
    assert_eq!(out, want);

    // An offset pointer: only the second half moves.
    let half = n as usize / 2;
    kernel.launch(
        blocks,
        &[Arg::from(x.ptr_at(half)?), Arg::from(n - half as i32)],
    )?;
    let out = device.download(&x)?;
    assert_eq!(out[half - 1], host[half - 1] + 11.0);
    assert_eq!(out[half], host[half] + 12.0);
    device.synchronize()?;
    Ok(())
}

#[test]
#[ignore = "needs a CUDA GPU (bash bench/gpu.sh cargo-tests)"]
fn launch_errors_name_the_kernel() -> Result<(), RuntimeError> {
    let Some(device) = gpu_or_skip("launch_errors_name_the_kernel") else {
        return Ok(());
    };
    let kernel = device.load(ADD_ONE_PTX, &add_one_spec(4))?;
    let x = device.alloc::<f32>(4)?;

    let err = kernel
        .launch(1, &[Arg::from(&x), Arg::from(4i64)])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "kernel `add_one`: argument 1 (`n`) must be an i32, given an i64"
    );
    let err = kernel.launch(1, &[Arg::from(&x)]).unwrap_err();
    assert!(
        matches!(err, RuntimeError::ArgCount { given: 1, .. }),
        "{err}"
    );
    let err = kernel
        .launch((1, 0), &[Arg::from(&x), Arg::from(4)])
        .unwrap_err();
    assert!(matches!(err, RuntimeError::BadLaunch { .. }), "{err}");
    let err = kernel
        .launch((1, 70_000), &[Arg::from(&x), Arg::from(4)])
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("grid y = 70000 exceeds the device limit 65535"),
        "{err}"
    );
    // The context is still usable after refused launches.
    kernel.launch(1, &[Arg::from(&x), Arg::from(4)])?;
    assert_eq!(device.download(&x)?, vec![1.0; 4]);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA GPU (bash bench/gpu.sh cargo-tests)"]
fn buffers_past_the_reach_of_i32_offsets_are_refused() -> Result<(), RuntimeError> {
    let Some(device) = gpu_or_skip("buffers_past_the_reach_of_i32_offsets_are_refused") else {
        return Ok(());
    };
    let kernel = device.load(ADD_ONE_PTX, &add_one_spec(4))?;
    // 2^31 f32s (8 GiB): one more than i32 offsets reach from the start.
    let big = match device.alloc::<f32>(1 << 31) {
        Ok(big) => big,
        Err(e) => {
            eprintln!("skipped: cannot allocate 8 GiB on the device ({e})");
            return Ok(());
        }
    };
    let n = i32::MAX;
    let blocks = (n as u32).div_ceil(128);
    let err = kernel
        .launch(blocks, &[Arg::from(&big), Arg::from(n)])
        .unwrap_err();
    assert!(
        matches!(
            &err,
            RuntimeError::OffsetOverflow {
                index: 0,
                elements: 2_147_483_648,
                elem_bytes: 4,
                ..
            }
        ),
        "{err:?}"
    );
    eprintln!("{err}");
    // From element 1 on, exactly i32::MAX elements remain: the kernel runs
    // and reaches the last one.
    kernel.launch(blocks, &[big.arg_at(1)?, Arg::from(n)])?;
    let out = device.download(&big)?;
    assert_eq!(out[0], 0.0);
    assert_eq!(out[1], 1.0);
    assert_eq!(out[out.len() - 1], 1.0);
    assert!(out[1..].iter().all(|&v| v == 1.0));
    Ok(())
}

#[test]
#[ignore = "needs a CUDA GPU (bash bench/gpu.sh cargo-tests)"]
fn load_errors_are_explained() -> Result<(), RuntimeError> {
    let Some(device) = gpu_or_skip("load_errors_are_explained") else {
        return Ok(());
    };
    // Too many warps.
    let err = device.load(ADD_ONE_PTX, &add_one_spec(33)).unwrap_err();
    assert!(
        matches!(
            err,
            RuntimeError::TooManyThreads {
                threads: 1056,
                limit: 1024,
                ..
            }
        ),
        "{err}"
    );
    // An entry that is not there.
    let mut spec = add_one_spec(4);
    spec.name = "add_two".into();
    let err = device.load(ADD_ONE_PTX, &spec).unwrap_err();
    assert_eq!(
        err.to_string(),
        "kernel `add_two`: the PTX has no `.entry add_two`; it defines: add_one"
    );
    // A spec whose parameters do not match the PTX.
    let mut spec = add_one_spec(4);
    spec.params[1].1 = ParamType::I64;
    let err = device.load(ADD_ONE_PTX, &spec).unwrap_err();
    assert!(matches!(err, RuntimeError::BadPtx { .. }), "{err}");
    // PTX the assembler rejects: the JIT log comes back.
    let broken = ADD_ONE_PTX.replace("%f2, %f1, 0f3F800000", "%f9, %f1, 0f3F800000");
    let err = device.load(&broken, &add_one_spec(4)).unwrap_err();
    eprintln!("{err}");
    match &err {
        RuntimeError::Jit { kernel, log, .. } => {
            assert_eq!(kernel, "add_one");
            assert!(log.contains("%f9"), "{log}");
        }
        other => panic!("expected a JIT error, got {other:?}"),
    }
    // Large dynamic shared memory is opted in to.
    let mut spec = add_one_spec(4);
    spec.shared_mem_bytes = 100 * 1024;
    let kernel = device.load(ADD_ONE_PTX, &spec)?;
    let x = device.alloc::<f32>(4)?;
    kernel.launch(1, &[Arg::from(&x), Arg::from(4)])?;
    assert_eq!(device.download(&x)?, vec![1.0; 4]);
    Ok(())
}

#[test]
#[ignore = "needs a CUDA GPU (bash bench/gpu.sh cargo-tests)"]
fn kernels_and_buffers_work_from_other_threads() -> Result<(), RuntimeError> {
    let Some(device) = gpu_or_skip("kernels_and_buffers_work_from_other_threads") else {
        return Ok(());
    };
    let kernel = device.load(ADD_ONE_PTX, &add_one_spec(1))?;
    let x = device.upload(&[0.0f32; 64])?;
    std::thread::scope(|s| {
        s.spawn(|| kernel.launch(2, &[Arg::from(&x), Arg::from(64)]))
            .join()
            .unwrap()
    })?;
    assert_eq!(device.download(&x)?, vec![1.0; 64]);
    Ok(())
}

#[test]
#[ignore = "kills the process's CUDA context: run alone (bash bench/gpu.sh cargo-tests does)"]
fn illegal_address_is_reported() -> Result<(), RuntimeError> {
    let Some(device) = gpu_or_skip("illegal_address_is_reported") else {
        return Ok(());
    };
    let kernel = device.load(ADD_ONE_PTX, &add_one_spec(4))?;
    let err = kernel
        .launch(1, &[Arg::from(DevicePtr(0x10)), Arg::from(128)])
        .unwrap_err();
    eprintln!("{err}");
    assert_eq!(err.kernel(), Some("add_one"));
    assert!(err.is_context_lost(), "{err:?}");
    assert!(
        err.to_string().contains("CUDA_ERROR_ILLEGAL_ADDRESS"),
        "{err}"
    );
    // Later calls fail with an error too (no panic), and drops are quiet.
    let later = device.upload(&[1.0f32]).and_then(|b| device.download(&b));
    let later = later.unwrap_err();
    eprintln!("{later}");
    assert!(later.is_context_lost(), "{later:?}");
    drop(kernel);
    Ok(())
}
