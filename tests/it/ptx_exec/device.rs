//! `tile_ptx_exec::device()` end to end: `tile::jit` compiles for its
//! chip (sm_80), loads the PTX through the executor and runs it on the
//! device's host memory; faults and refused opcodes come back typed.

use tile::{Arg, DType, Kernel, Options, RuntimeError, Specialization, VariantSource};
use tile_examples::vector_add;
use tile_runtime::InterpretFault;

#[test]
fn jit_compiles_for_sm_80_and_the_executor_runs_the_ptx() {
    let device = tile_ptx_exec::device();
    assert!(!device.is_interpreter());
    assert_eq!(device.chip().unwrap(), "sm_80");
    assert_eq!(device.name().unwrap(), tile_ptx_exec::device::DEVICE_NAME);
    let context = tile::context().unwrap();
    let kernel = vector_add::safe_kernel(&context, 128).unwrap();
    let jit = tile::jit(&kernel, Options::default()).unwrap();
    let n = 300usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    let (xb, yb) = (device.upload(&x).unwrap(), device.upload(&y).unwrap());
    let out = device.upload(&vec![-7.0f32; n + 20]).unwrap();
    let args = [
        Arg::from(&xb),
        Arg::from(&yb),
        Arg::from(&out),
        Arg::I32(n as i32),
    ];
    jit.launch(&device, 3u32, &args).unwrap();
    let got = device.download(&out).unwrap();
    for i in 0..n {
        assert_eq!(got[i], x[i] + y[i], "[{i}]");
    }
    // The mask keeps the last program's lanes past n from storing.
    assert!(got[n..].iter().all(|&v| v == -7.0));
    // One variant, compiled (not interpreted) for sm_80.
    let events = jit.events();
    assert_eq!(events.len(), 1, "{events:?}");
    let key = jit
        .source()
        .cache_key_for(&Specialization::of(&args), "sm_80");
    assert_eq!(events[0].key, key);
}

#[test]
fn an_unmasked_store_past_the_end_faults_naming_the_ptx_line() {
    let device = tile_ptx_exec::device();
    let context = tile::context().unwrap();
    let kernel = Kernel::build(&context, "unmasked", |k| {
        let out = k.arg_ptr("out", DType::I32);
        let offs = k.arange(0, 128);
        k.store(out + offs, offs).build();
    })
    .unwrap();
    let jit = tile::jit(&kernel, Options::default()).unwrap();
    let out = device.alloc::<i32>(100).unwrap();
    let e = jit.launch(&device, 1u32, &[Arg::from(&out)]).unwrap_err();
    let RuntimeError::Interpreter(fault) = &e else {
        panic!("{e}");
    };
    assert!(
        matches!(fault.fault, InterpretFault::OutOfBounds { write: true, .. }),
        "{e}"
    );
    assert!(fault.op.starts_with("st.global"), "{e}");
}

#[test]
fn an_opcode_outside_the_executors_subset_is_refused_at_load() {
    let device = tile_ptx_exec::device();
    let context = tile::context().unwrap();
    let kernel = Kernel::build(&context, "printing", |k| {
        let x = k.arg_ptr("x", DType::F32);
        let v = k.load(x + k.arange(0, 32)).build();
        k.device_print("v", &[v]);
    })
    .unwrap();
    let jit = tile::jit(&kernel, Options::default()).unwrap();
    let x = device.alloc::<f32>(32).unwrap();
    let e = jit.launch(&device, 1u32, &[Arg::from(&x)]).unwrap_err();
    assert!(
        matches!(&e, RuntimeError::BadPtx { kernel, message }
            if kernel == "printing" && message.contains("PTX executor")),
        "{e}"
    );
}
