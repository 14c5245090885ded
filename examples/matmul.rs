//! `cargo run --example matmul`: `C = A @ B` on tensor cores, written as
//! Triton's tutorial 03 writes it (tensors of pointers, masked loads, a
//! loop carrying the accumulator and the pointers), on GPU 0 or the CPU
//! interpreter, checked against a plain Rust product.

use tile::prelude::*;

#[tile::kernel(num_warps = 4, num_stages = 3)]
fn matmul(
    a: Ptr<f16>,
    b: Ptr<f16>,
    c: Ptr<f32>,
    m: i32,
    n: i32,
    k: i32,
    #[constexpr] bm: i32,
    #[constexpr] bn: i32,
    #[constexpr] bk: i32,
) {
    let pid = program_id(0);
    let grid_n = n.cdiv(bn);
    let (pid_m, pid_n) = (pid / grid_n, pid % grid_n);
    let rm = pid_m * bm + arange(0, bm);
    let rn = pid_n * bn + arange(0, bn);
    let rk = arange(0, bk);
    // Rows and columns past the edge wrap (the tutorial's `% M`): they
    // load real elements, and their results are masked off at the store.
    let mut a_ptrs = a + (rm % m).expand_dims(1) * k + rk.expand_dims(0);
    let mut b_ptrs = b + rk.expand_dims(1) * n + (rn % n).expand_dims(0);
    let mut acc = zeros(&[bm as i64, bn as i64], DType::F32);
    for kk in range(0, k.cdiv(bk)) {
        let left = k - kk * bk;
        let a_tile = load(a_ptrs)
            .mask(rk.expand_dims(0).lt(left))
            .other(0.0)
            .build();
        let b_tile = load(b_ptrs)
            .mask(rk.expand_dims(1).lt(left))
            .other(0.0)
            .build();
        acc = dot(a_tile, b_tile).acc(acc).build();
        a_ptrs = a_ptrs + bk;
        b_ptrs = b_ptrs + bk * n;
    }
    let mask = rm.expand_dims(1).lt(m) & rn.expand_dims(0).lt(n);
    store(c + rm.expand_dims(1) * n + rn.expand_dims(0), acc)
        .mask(mask)
        .build();
}

fn main() -> tile::Result<()> {
    run()
}

/// The example (also run on the GPU machine by `tile-tools examples`).
pub fn run() -> tile::Result<()> {
    let device = Device::gpu_or_interpreter();
    let (m, n, k) = if device.is_interpreter() {
        (100, 72, 130)
    } else {
        (4096, 4096, 4096)
    };
    let a: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32(((i * 7) % 11) as f32 / 8.0 - 0.5))
        .collect();
    let b: Vec<f16> = (0..k * n)
        .map(|i| f16::from_f32(((i * 5) % 13) as f32 / 8.0 - 0.75))
        .collect();
    let (ad, bd) = (device.upload(&a)?, device.upload(&b)?);
    let mut c = device.alloc::<f32>(m * n)?;
    let (bm, bn, bk) = (128, 128, 32);
    let grid = (m as u32).div_ceil(bm as u32) * (n as u32).div_ceil(bn as u32);
    matmul::launch(
        &device, grid, &ad, &bd, &mut c, m as i32, n as i32, k as i32, bm, bn, bk,
    )?;
    let got = device.download(&c)?;
    // Products of eighths summed in f32 are exact here: compare exactly,
    // on a sample of rows (all of them on the interpreter).
    let step = m.div_ceil(32);
    let mut wrong = 0;
    for i in (0..m).step_by(step) {
        for j in 0..n {
            let want: f64 = (0..k)
                .map(|l| f64::from(a[i * k + l].to_f32()) * f64::from(b[l * n + j].to_f32()))
                .sum();
            wrong += usize::from(f64::from(got[i * n + j]) != want);
        }
    }
    println!(
        "matmul on {}: {m}x{n}x{k} f16 -> f32, rows checked every {step}: {wrong} wrong",
        device.name()?
    );
    assert_eq!(wrong, 0);
    Ok(())
}
