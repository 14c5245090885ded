//! `cargo run --example vector_add`: the first kernel, written as a Rust
//! function, launched with typed arguments on GPU 0, or on the CPU
//! interpreter when there is no GPU.

use tile::prelude::*;

/// `out = x + y`, `block` elements per program; the masks make any `n`
/// safe.
#[tile::kernel]
fn add(x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, n: i32, #[constexpr] block: i32) {
    let offs = program_id(0) * block + arange(0, block);
    let m = offs.lt(n);
    let a = load(x + offs).mask(m).other(0.0).build();
    let b = load(y + offs).mask(m).other(0.0).build();
    store(out + offs, a + b).mask(m).build();
}

fn main() -> tile::Result<()> {
    run()
}

/// The example (also run on the GPU machine by `tile-tools examples`).
pub fn run() -> tile::Result<()> {
    let device = Device::gpu_or_interpreter();
    let n = if device.is_interpreter() {
        100_003
    } else {
        50_000_017
    };
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 0.5 * (i % 7) as f32).collect();
    let (xd, yd) = (device.upload(&x)?, device.upload(&y)?);
    let mut out = device.alloc::<f32>(n)?;
    let block = 1024;
    let grid = (n as u32).div_ceil(block as u32);
    add::launch(&device, grid, &xd, &yd, &mut out, n as i32, block)?;
    let got = device.download(&out)?;
    let wrong = (0..n).filter(|&i| got[i] != x[i] + y[i]).count();
    println!(
        "vector_add on {}: {n} elements, {wrong} wrong",
        device.name()?
    );
    assert_eq!(wrong, 0);
    Ok(())
}
