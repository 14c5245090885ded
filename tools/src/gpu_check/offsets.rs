//! GPU cases for tensors of more than 2^31 elements addressed through
//! pointer tensors: with i64 offsets they are reached in full; a kernel
//! with i32 offsets is refused at launch instead of wrapping around.

use super::Outcome;
use tile::{Arg, Device, Options, RuntimeError};
use tile_dialect::{DType, Kernel, Result};
use tile_examples::vector_add;

/// Elements in each buffer: just over 2^31.
pub const ELEMENTS: usize = (1 << 31) + 1000;

/// `out[i] = x[i] + 1` for `i < n`, with i64 offsets:
/// `pid.to(i64) * block + arange(0, block).to(i64)`.
pub fn add_one_i64(context: &melior::Context, block: i32) -> Result<Kernel<'_>> {
    Kernel::build(context, "add_one_i64", |k| {
        let x = k.arg_ptr("x_ptr", DType::F32);
        let out = k.arg_ptr("out_ptr", DType::F32);
        let n = k.arg("n", DType::I64);
        let start = k.program_id(0).to(DType::I64) * i64::from(block);
        let offs = start + k.arange(0, block).to(DType::I64);
        let mask = offs.lt(n);
        let v = k.load(x + offs).mask(mask).build();
        k.store(out + offs, v + 1.0f32).mask(mask).build();
    })
}

/// Runs [`add_one_i64`] over [`ELEMENTS`] zeros and checks that every
/// output is 1 (8.6 GB each way); then launches the i32-offset vector add
/// on the same buffers and expects `RuntimeError::OffsetOverflow`.
pub fn beyond_2_31_case(device: &Device) -> Outcome {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let context = tile::context().map_err(|x| e(&x))?;
    let block = 1024;
    let wide = add_one_i64(&context, block).map_err(|x| e(&x))?;
    let compiled = tile::compile(&wide, &Options::default()).map_err(|x| e(&x))?;
    let loaded = device
        .load(&compiled.ptx, &compiled.spec)
        .map_err(|x| e(&x))?;
    let x = device.alloc::<f32>(ELEMENTS).map_err(|x| e(&x))?;
    let out = device.alloc::<f32>(ELEMENTS).map_err(|x| e(&x))?;
    let grid = ELEMENTS.div_ceil(block as usize) as u32;
    loaded
        .launch(
            grid,
            &[Arg::from(&x), Arg::from(&out), Arg::from(ELEMENTS as i64)],
        )
        .map_err(|x| e(&x))?;
    let got = device.download(&out).map_err(|x| e(&x))?;
    if let Some(i) = got.iter().position(|&v| v != 1.0) {
        return Err(format!(
            "i64 offsets: out[{i}] = {}, want 1 (of {ELEMENTS})",
            got[i]
        ));
    }
    drop(got);

    let narrow = vector_add::safe_kernel(&context, block).map_err(|x| e(&x))?;
    let compiled = tile::compile(&narrow, &Options::default()).map_err(|x| e(&x))?;
    let loaded = device
        .load(&compiled.ptx, &compiled.spec)
        .map_err(|x| e(&x))?;
    let args = [
        Arg::from(&x),
        Arg::from(&x),
        Arg::from(&out),
        Arg::from(i32::MAX),
    ];
    match loaded.launch(grid, &args) {
        Err(RuntimeError::OffsetOverflow { .. }) => Ok(()),
        Err(other) => Err(format!(
            "i32 offsets: refused with the wrong error: {other}"
        )),
        Ok(()) => Err("i32 offsets over 2^31 elements were launched, not refused".into()),
    }
}
