//! `cargo run --example attention`: a flash-attention forward pass
//! (online softmax over blocks of keys, two products on tensor cores a
//! step) for `heads` heads of one sequence, on GPU 0 or the CPU
//! interpreter, checked against a plain Rust attention on sampled rows.

use tile::prelude::*;

/// `out = softmax(q k^T * scale) v` per head; `q`, `k`, `v` are
/// `[heads, seq, head_dim]` f16, `out` the same in f32.
#[tile::kernel(num_warps = 4)]
fn attention(
    q: Ptr<f16>,
    k: Ptr<f16>,
    v: Ptr<f16>,
    out: Ptr<f32>,
    seq: i32,
    scale: f32,
    #[constexpr] block_m: i32,
    #[constexpr] block_n: i32,
    #[constexpr] head_dim: i32,
) {
    let base = program_id(1) * seq * head_dim;
    let rows = program_id(0) * block_m + arange(0, block_m);
    let dims = arange(0, head_dim);
    let row_ok = rows.expand_dims(1).lt(seq);
    let q_at = base + rows.expand_dims(1) * head_dim + dims.expand_dims(0);
    let q_tile = load(q + q_at).mask(row_ok).other(0.0).build();
    let (bm, d) = (i64::from(block_m), i64::from(head_dim));
    let mut m_i = full(&[bm], f64::NEG_INFINITY, DType::F32);
    let mut l_i = zeros(&[bm], DType::F32);
    let mut acc = zeros(&[bm, d], DType::F32);
    for start in range(0, seq, block_n) {
        let cols = start + arange(0, block_n);
        let col_ok = cols.lt(seq);
        let k_at = base + cols.expand_dims(0) * head_dim + dims.expand_dims(1);
        let k_t = load(k + k_at)
            .mask(col_ok.expand_dims(0))
            .other(0.0)
            .build();
        let s = dot(q_tile, k_t).build() * scale;
        let s = where_(col_ok.expand_dims(0), s, f64::NEG_INFINITY);
        let m_new = m_i.maximum(s.max(1));
        let p = (s - m_new.expand_dims(1)).exp();
        let alpha = (m_i - m_new).exp();
        l_i = l_i * alpha + p.sum(1);
        let v_at = base + cols.expand_dims(1) * head_dim + dims.expand_dims(0);
        let v_tile = load(v + v_at)
            .mask(col_ok.expand_dims(1))
            .other(0.0)
            .build();
        acc = dot(p.to(DType::F16), v_tile)
            .acc(acc * alpha.expand_dims(1))
            .build();
        m_i = m_new;
    }
    store(out + q_at, acc / l_i.expand_dims(1))
        .mask(row_ok)
        .build();
}

fn main() -> tile::Result<()> {
    run()
}

/// The example (also run on the GPU machine by `tile-tools examples`).
pub fn run() -> tile::Result<()> {
    let device = Device::gpu_or_interpreter();
    let (heads, seq, d) = if device.is_interpreter() {
        (2, 100, 64)
    } else {
        (16, 4096, 64)
    };
    let values = |salt: usize| -> Vec<f16> {
        (0..heads * seq * d)
            .map(|i| f16::from_f32((((i * 31 + salt) % 97) as f32 / 97.0 - 0.5) * 2.0))
            .collect()
    };
    let (q, k, v) = (values(1), values(2), values(3));
    let [qd, kd, vd] = [&q, &k, &v].map(|x| device.upload(x));
    let (qd, kd, vd) = (qd?, kd?, vd?);
    let mut out = device.alloc::<f32>(heads * seq * d)?;
    let scale = 1.0 / (d as f32).sqrt();
    let (bm, bn) = (64, 64);
    let grid = ((seq as u32).div_ceil(bm as u32), heads as u32);
    attention::launch(
        &device, grid, &qd, &kd, &vd, &mut out, seq as i32, scale, bm, bn, d as i32,
    )?;
    let got = device.download(&out)?;
    let f = |x: &f16| f64::from(x.to_f32());
    fn row(t: &[f16], h: usize, i: usize, seq: usize, d: usize) -> &[f16] {
        &t[(h * seq + i) * d..(h * seq + i + 1) * d]
    }
    let mut worst = 0.0f64;
    for h in 0..heads {
        for r in (0..seq).step_by(seq.div_ceil(16)) {
            let s: Vec<f64> = (0..seq)
                .map(|j| {
                    row(&q, h, r, seq, d)
                        .iter()
                        .zip(row(&k, h, j, seq, d))
                        .map(|(a, b)| f(a) * f(b))
                        .sum::<f64>()
                        * f64::from(scale)
                })
                .collect();
            let max = s.iter().cloned().fold(f64::MIN, f64::max);
            let p: Vec<f64> = s.iter().map(|x| (x - max).exp()).collect();
            let den: f64 = p.iter().sum();
            for c in 0..d {
                let want: f64 = (0..seq)
                    .map(|j| p[j] * f(&row(&v, h, j, seq, d)[c]))
                    .sum::<f64>()
                    / den;
                let have = f64::from(got[(h * seq + r) * d + c]);
                worst = worst.max((want - have).abs());
            }
        }
    }
    println!(
        "attention on {}: {heads} heads x {seq} x {d}, sampled rows: largest error {worst:.1e} (p rounded to f16 for the second product)",
        device.name()?
    );
    assert!(worst < 2e-3);
    Ok(())
}
