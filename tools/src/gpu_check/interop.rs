//! The GPU check's cases for the Rust GPU ecosystem: cudarc memory and
//! streams ([`tile::CudaArgs`], `Device::from_cuda_stream`, buffers to and
//! from slices), `half` elements, and every visible GPU.

use tile::cudarc::driver::{CudaContext, DevicePtr};
use tile::half::{bf16, f16};
use tile::{Arg, Buffer, CudaArgs, Device, Options};
use tile_examples::cudarc_interop::{Ordering, run};
use tile_examples::vector_add;

type Outcome = Result<(), String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Every case: `(group, case, outcome)`.
pub fn cases(device: &Device) -> Vec<(&'static str, String, Outcome)> {
    let mut out = Vec::new();
    for (ordering, len) in [
        (Ordering::Event, 1_000_003),
        (Ordering::Event, 1 << 24),
        (Ordering::Tracking, 1_000_003),
    ] {
        out.push((
            "cudarc",
            format!("example {ordering:?} n={len}"),
            example(device.ordinal(), len, ordering),
        ));
    }
    out.push(("cudarc", "slice extents".into(), slice_extents(device)));
    out.push((
        "cudarc",
        "buffer <-> slice".into(),
        buffer_round_trip(device),
    ));
    out.push(("half", "f16/bf16 buffers".into(), half_buffers(device)));
    out
}

/// The example of `tile_examples::cudarc_interop`: correct, on a stream
/// that is not a default one.
fn example(ordinal: usize, len: usize, ordering: Ordering) -> Outcome {
    let report = run(ordinal, len, ordering).map_err(err)?;
    if !report.non_default_stream {
        return Err("the kernel ran on a default stream".into());
    }
    if report.wrong != 0 {
        return Err(format!("{} of {len} elements wrong", report.wrong));
    }
    Ok(())
}

/// A view's argument starts at the view and reaches to its end; the
/// interpreter takes no cudarc arguments.
fn slice_extents(device: &Device) -> Outcome {
    let ctx = CudaContext::new(device.ordinal()).map_err(err)?;
    let stream = ctx.new_stream().map_err(err)?;
    let on_stream = Device::from_cuda_stream(stream.clone()).map_err(err)?;
    let x = stream.alloc_zeros::<f32>(1000).map_err(err)?;
    let view = x.slice(10..);
    let args = CudaArgs::new(&on_stream).map_err(err)?.arg(&view).arg(7i32);
    let got = args.args().map_err(err)?.to_vec();
    drop(args);
    let Arg::Ptr {
        ptr, extent_bytes, ..
    } = got[0]
    else {
        return Err(format!("not a pointer: {:?}", got[0]));
    };
    let (base, _record) = x.device_ptr(&stream);
    if extent_bytes != Some(990 * 4) {
        return Err(format!("extent {extent_bytes:?}, want {}", 990 * 4));
    }
    if ptr.0 != base + 40 {
        return Err(format!("pointer {ptr}, want the slice's {base:#x} + 40"));
    }
    if CudaArgs::new(&Device::interpreter()).is_ok() {
        return Err("the interpreter accepted cudarc arguments".into());
    }
    Ok(())
}

/// A buffer handed to cudarc and back keeps its contents, and a kernel
/// launched through a `tile::jit` launcher on it sees them.
fn buffer_round_trip(device: &Device) -> Outcome {
    let n = 100_003usize;
    let x = tile_runtime::pattern_f32(n, 3);
    let buffer = device.upload(&x).map_err(err)?;
    let slice = buffer.into_cuda_slice().map_err(err)?;
    let stream = device.cuda_stream().ok_or("no stream")?.clone();
    let back = stream.clone_dtoh(&slice).map_err(err)?;
    if back != x {
        return Err("the slice does not hold the buffer's data".into());
    }
    let other = CudaContext::new(device.ordinal())
        .and_then(|c| c.new_stream())
        .map_err(err)?;
    let on_other = Device::from_cuda_stream(other).map_err(err)?;
    let buffer = Buffer::from_cuda_slice(&on_other, slice).map_err(err)?;
    let wrong = doubled_wrong(&vector_add_jit()?, &on_other, &buffer, &x)?;
    if wrong != 0 {
        return Err(format!("{wrong} of {n} elements wrong"));
    }
    Ok(())
}

/// The seed vector add through `tile::jit`.
fn vector_add_jit() -> Result<tile::Jit, String> {
    let context = tile::context().map_err(err)?;
    tile::jit(
        &vector_add::safe_kernel(&context, vector_add::BLOCK).map_err(err)?,
        Options::default(),
    )
    .map_err(err)
}

/// `x + x` by `add` on `device` from the buffer `dx` holding `x`: how many
/// elements are wrong.
fn doubled_wrong(
    add: &tile::Jit,
    device: &Device,
    dx: &Buffer<f32>,
    x: &[f32],
) -> Result<usize, String> {
    let n = x.len();
    let out = device.alloc::<f32>(n).map_err(err)?;
    add.launch(
        device,
        n.div_ceil(vector_add::BLOCK as usize) as u32,
        &[
            Arg::from(dx),
            Arg::from(dx),
            Arg::from(&out),
            Arg::from(n as i32),
        ],
    )
    .map_err(err)?;
    let got = device.download(&out).map_err(err)?;
    Ok((0..n).filter(|&i| got[i] != x[i] + x[i]).count())
}

/// `half` values go to the device and come back bit for bit.
fn half_buffers(device: &Device) -> Outcome {
    let h: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    let b: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
    let dh = device.upload(&h).map_err(err)?;
    let db = device.upload(&b).map_err(err)?;
    let same_bits = |x: &[u16], y: &[u16]| x == y;
    let hb: Vec<u16> = device
        .download(&dh)
        .map_err(err)?
        .iter()
        .map(|v| v.to_bits())
        .collect();
    let bb: Vec<u16> = device
        .download(&db)
        .map_err(err)?
        .iter()
        .map(|v| v.to_bits())
        .collect();
    let all: Vec<u16> = (0..=u16::MAX).collect();
    if !same_bits(&hb, &all) || !same_bits(&bb, &all) {
        return Err("a 16-bit float changed on the way".into());
    }
    Ok(())
}

/// The vector add through one `tile::jit` launcher on every visible GPU
/// (each loads its own module), or a visible skip with fewer than two.
pub fn every_device() -> (String, Outcome) {
    let count = Device::count();
    if count < 2 {
        return (format!("skipped: {count} visible GPU (needs 2)"), Ok(()));
    }
    let outcome = (|| {
        let add = vector_add_jit()?;
        let x = tile_runtime::pattern_f32(1_000_003, 5);
        for ordinal in 0..count {
            let device = Device::new(ordinal).map_err(err)?;
            let dx = device.upload(&x).map_err(err)?;
            let wrong = doubled_wrong(&add, &device, &dx, &x)?;
            if wrong != 0 {
                return Err(format!("{wrong} elements wrong on GPU {ordinal}"));
            }
        }
        Ok(())
    })();
    (format!("{count} GPUs"), outcome)
}
