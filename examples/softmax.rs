//! `cargo run --example softmax`: a row softmax with several rows per
//! program (a 2-D tile, masks on both axes, reductions along rows), on
//! GPU 0 or the CPU interpreter, checked against a plain Rust softmax.

use tile::prelude::*;

/// `out[r, :] = softmax(x[r, :])` for `rows` rows of `cols` columns
/// (row stride `stride`), `block_rows` rows per program, `block_cols >=
/// cols`.
#[tile::kernel(num_warps = 8)]
fn softmax(
    x: Ptr<f32>,
    out: Ptr<f32>,
    rows: i32,
    cols: i32,
    stride: i32,
    #[constexpr] block_rows: i32,
    #[constexpr] block_cols: i32,
) {
    let r = program_id(0) * block_rows + arange(0, block_rows);
    let c = arange(0, block_cols);
    let at = r.expand_dims(1) * stride + c.expand_dims(0);
    let m = r.expand_dims(1).lt(rows) & c.expand_dims(0).lt(cols);
    let v = load(x + at).mask(m).other(f64::NEG_INFINITY).build();
    let e = (v - v.max(1).expand_dims(1)).exp();
    store(out + at, e / e.sum(1).expand_dims(1)).mask(m).build();
}

fn main() -> tile::Result<()> {
    run()
}

/// The example (also run on the GPU machine by `tile-tools examples`).
pub fn run() -> tile::Result<()> {
    let device = Device::gpu_or_interpreter();
    let (rows, cols) = if device.is_interpreter() {
        (37, 1000)
    } else {
        (65_536, 1000)
    };
    let stride = 1024;
    let x: Vec<f32> = (0..rows * stride)
        .map(|i| ((i * 37) % 101) as f32 * 0.05)
        .collect();
    let xd = device.upload(&x)?;
    let mut out = device.alloc::<f32>(rows * stride)?;
    let block_rows = 4;
    let grid = (rows as u32).div_ceil(block_rows as u32);
    softmax::launch(
        &device,
        grid,
        &xd,
        &mut out,
        rows as i32,
        cols as i32,
        stride as i32,
        block_rows,
        1024,
    )?;
    let got = device.download(&out)?;
    let mut worst = 0.0f64;
    for r in (0..rows).step_by(rows.div_ceil(64)) {
        let row = &x[r * stride..r * stride + cols];
        let max = row.iter().fold(f32::MIN, |a, &b| a.max(b));
        let den: f64 = row.iter().map(|&v| f64::from(v - max).exp()).sum();
        for c in 0..cols {
            let want = f64::from(row[c] - max).exp() / den;
            worst = worst.max((want - f64::from(got[r * stride + c])).abs());
        }
    }
    println!(
        "softmax on {}: {rows} rows of {cols}, {block_rows} rows a program; largest error {worst:.1e} (rows checked: every {})",
        device.name()?,
        rows.div_ceil(64)
    );
    assert!(worst < 1e-6);
    Ok(())
}
