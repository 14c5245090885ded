//! The seed kernels written with `#[tile::kernel]` ([`crate::kernel_fns`])
//! run through their typed launchers and checked against plain Rust:
//! `tests/it/kernel_fn.rs` runs [`cases`] on the interpreter at small
//! sizes, `tile-tools gpu-check kernel-fns` on the GPU at large ones.

use crate::kernel_fns;
use tile::Device;
use tile::half::{bf16, f16};

/// One checked run: its name and what went wrong, if anything.
pub type Case = (&'static str, Result<(), String>);

/// Runs each seed kernel on `device` (sizes for a GPU when `large`, for
/// the interpreter otherwise) and compares every output element.
pub fn cases(device: &Device, large: bool) -> Vec<Case> {
    vec![
        ("vector_add", vector_add(device, large)),
        ("softmax", softmax(device, large)),
        ("layer_norm_fwd", layer_norm(device, large)),
        ("matmul", matmul(device, large)),
        ("masked_tile_2d", masked_tile_2d(device, large)),
        ("row_sum f32", row_sum::<f32>(device, large)),
        ("row_sum bf16", row_sum::<bf16>(device, large)),
        ("weighted_sum_fwd f16", weighted_sum_fwd(device, large)),
        (
            "k_tile_load_transposed",
            k_tile_load_transposed(device, large),
        ),
        ("matmul_tuned", matmul_tuned(device, large)),
        ("weighted_sum_bwd f32", weighted_sum_bwd(device, large)),
        ("q_tile_load", q_tile_load(device, large)),
    ]
}

/// The weighted sum's backward: `grad_x[r, d] = grad_out[r] * w[d]` and
/// one row of partial `grad_w` per program (small integers: exact).
fn weighted_sum_bwd(device: &Device, large: bool) -> Result<(), String> {
    let (rows, d, rows_tile): (usize, usize, usize) =
        if large { (4099, 300, 16) } else { (37, 70, 16) };
    let tiles = rows.div_ceil(rows_tile);
    let x: Vec<f32> = (0..rows * d).map(|i| (i % 7) as f32).collect();
    let w: Vec<f32> = (0..d).map(|i| (i % 3) as f32 - 1.0).collect();
    let g: Vec<f32> = (0..rows).map(|i| (i % 5) as f32).collect();
    let run = || -> tile::Result<(Vec<f32>, Vec<f32>)> {
        let (xb, wb, gb) = (device.upload(&x)?, device.upload(&w)?, device.upload(&g)?);
        let mut gx = device.alloc::<f32>(rows * d)?;
        let mut gw = device.alloc::<f32>(tiles * d)?;
        let di = d as i64;
        kernel_fns::weighted_sum_bwd::launch(
            device,
            tiles as u32,
            &xb,
            &wb,
            &gb,
            &mut gx,
            &mut gw,
            di,
            1,
            1,
            1,
            di,
            1,
            di,
            1,
            rows as i32,
            d as i32,
            rows_tile as i64,
            32,
        )?;
        Ok((device.download(&gx)?, device.download(&gw)?))
    };
    let (gx, gw) = run().map_err(|e| e.to_string())?;
    for r in 0..rows {
        for j in 0..d {
            if gx[r * d + j] != g[r] * w[j] {
                return Err(format!(
                    "grad_x[{r}, {j}] = {} for {}",
                    gx[r * d + j],
                    g[r] * w[j]
                ));
            }
        }
    }
    for t in 0..tiles {
        for j in 0..d {
            let want: f32 = (t * rows_tile..((t + 1) * rows_tile).min(rows))
                .map(|r| x[r * d + j] * g[r])
                .sum();
            if gw[t * d + j] != want {
                return Err(format!("grad_w[{t}, {j}] = {} for {want}", gw[t * d + j]));
            }
        }
    }
    Ok(())
}

/// Tiles of `q` (batch, t, hq, k) copied through block pointers: the
/// output equals the input, tails included.
fn q_tile_load(device: &Device, large: bool) -> Result<(), String> {
    let (b, t, hq, kd): (usize, usize, usize, usize) = if large {
        (2, 1000, 4, 64)
    } else {
        (1, 50, 2, 16)
    };
    let q: Vec<f32> = (0..b * t * hq * kd).map(|i| i as f32).collect();
    let run = || -> tile::Result<Vec<f32>> {
        let qb = device.upload(&q)?;
        let mut o = device.upload(&vec![-1.0f32; q.len()])?;
        let grid = ((t as u32).div_ceil(64), (b * hq) as u32);
        let (ti, hi, ki) = (t as i32, hq as i32, kd as i32);
        kernel_fns::q_tile_load::launch(device, grid, &qb, &mut o, ti, hi, ki, 64, 64)?;
        Ok(device.download(&o)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    match (0..q.len()).find(|&i| got[i] != q[i]) {
        None => Ok(()),
        Some(i) => Err(format!("o[{i}] = {} for {}", got[i], q[i])),
    }
}

/// The autotuned tutorial matmul (timed over its configurations on a GPU;
/// the first configuration on the interpreter), with M, N and K tails.
fn matmul_tuned(device: &Device, large: bool) -> Result<(), String> {
    let (m, n, k) = if large {
        (1000, 1030, 777)
    } else {
        (40, 24, 48)
    };
    let a: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32(((i % 7) as f32 - 3.0) * 0.125))
        .collect();
    let b: Vec<f16> = (0..k * n)
        .map(|i| f16::from_f32(((i % 5) as f32 - 2.0) * 0.5))
        .collect();
    let run = || -> tile::Result<Vec<f32>> {
        let (ab, bb) = (device.upload(&a)?, device.upload(&b)?);
        let mut c = device.alloc::<f32>(m * n)?;
        let grid = |config: &tile::Config| {
            let (bm, bn) = (config.get("bm").unwrap_or(1), config.get("bn").unwrap_or(1));
            let blocks = (m as i64 + bm - 1) / bm * ((n as i64 + bn - 1) / bn);
            tile::Grid::from(blocks as u32)
        };
        let (mi, ni, ki) = (m as i32, n as i32, k as i32);
        kernel_fns::matmul_tuned::launch(device, grid, &ab, &bb, &mut c, mi, ni, ki)?;
        Ok(device.download(&c)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k)
                .map(|l| a[i * k + l].to_f32() * b[l * n + j].to_f32())
                .sum();
            if got[i * n + j] != want {
                return Err(format!("C[{i}, {j}] = {} for {want}", got[i * n + j]));
            }
        }
    }
    Ok(())
}

/// A copy of an `m x k` window through 2-D masks: every element inside
/// copied, every one outside left as it was.
fn masked_tile_2d(device: &Device, large: bool) -> Result<(), String> {
    let (m, k, stride) = if large {
        (1000, 777, 1024)
    } else {
        (37, 50, 64)
    };
    let x: Vec<f32> = (0..m * stride).map(|i| i as f32).collect();
    let run = || -> tile::Result<Vec<f32>> {
        let xb = device.upload(&x)?;
        let mut out = device.upload(&vec![-1.0f32; m * stride])?;
        let grid = ((m as u32).div_ceil(32), (k as u32).div_ceil(64));
        let (mi, ki, s) = (m as i32, k as i32, stride as i32);
        kernel_fns::masked_tile_2d::launch(
            device, grid, &xb, &mut out, mi, ki, s, 1, s, 1, 32, 64,
        )?;
        Ok(device.download(&out)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for i in 0..m * stride {
        let want = if i % stride < k { x[i] } else { -1.0 };
        if got[i] != want {
            return Err(format!("out[{i}] = {} for {want}", got[i]));
        }
    }
    Ok(())
}

/// Row sums of an `m x n` matrix of `T` (small integers: exact in any
/// type and order).
fn row_sum<T: tile::Element + From<u8>>(device: &Device, large: bool) -> Result<(), String> {
    let (m, n) = if large { (4099, 1000) } else { (7, 300) };
    let values: Vec<u8> = (0..m * n).map(|i| (i % 5) as u8).collect();
    let a: Vec<T> = values.iter().map(|&v| T::from(v)).collect();
    let run = || -> tile::Result<Vec<f32>> {
        let ab = device.upload(&a)?;
        let mut out = device.alloc::<f32>(m)?;
        let (mi, ni) = (m as i32, n as i32);
        kernel_fns::row_sum::launch(device, m as u32, &ab, &mut out, mi, ni, n as i64, 1, 128)?;
        Ok(device.download(&out)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for r in 0..m {
        let want: f32 = values[r * n..(r + 1) * n]
            .iter()
            .map(|&v| f32::from(v))
            .sum();
        if got[r] != want {
            return Err(format!("row {r}: {} for {want}", got[r]));
        }
    }
    Ok(())
}

/// `x @ weight` for rows of f16 (quarters: exact in f32).
fn weighted_sum_fwd(device: &Device, large: bool) -> Result<(), String> {
    let (rows, d) = if large { (10_007, 300) } else { (37, 70) };
    let x: Vec<f16> = (0..rows * d)
        .map(|i| f16::from_f32((i % 9) as f32 * 0.25))
        .collect();
    let w: Vec<f16> = (0..d)
        .map(|i| f16::from_f32((i % 4) as f32 - 1.5))
        .collect();
    let run = || -> tile::Result<Vec<f32>> {
        let (xb, wb) = (device.upload(&x)?, device.upload(&w)?);
        let mut out = device.alloc::<f32>(rows)?;
        let grid = (rows as u32).div_ceil(16);
        kernel_fns::weighted_sum_fwd::launch(
            device,
            grid,
            &xb,
            &wb,
            &mut out,
            d as i64,
            1,
            1,
            1,
            rows as i32,
            d as i32,
            16,
            32,
        )?;
        Ok(device.download(&out)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for r in 0..rows {
        let want: f32 = (0..d).map(|j| x[r * d + j].to_f32() * w[j].to_f32()).sum();
        if got[r] != want {
            return Err(format!("row {r}: {} for {want}", got[r]));
        }
    }
    Ok(())
}

/// `k` of shape (batch, t, h, k) read through a column-major block pointer
/// and written as (batch * h) row-major `(k, t)` matrices: a transpose.
fn k_tile_load_transposed(device: &Device, large: bool) -> Result<(), String> {
    let (b, t, h, kd) = if large {
        (2, 1000, 4, 64)
    } else {
        (1, 50, 2, 16)
    };
    let kv: Vec<f32> = (0..b * t * h * kd).map(|i| i as f32).collect();
    let run = || -> tile::Result<Vec<f32>> {
        let kb = device.upload(&kv)?;
        let mut kt = device.alloc::<f32>(b * h * kd * t)?;
        let grid = ((t as u32).div_ceil(64), (b * h) as u32);
        let (ti, hi, ki) = (t as i32, h as i32, kd as i32);
        kernel_fns::k_tile_load_transposed::launch(device, grid, &kb, &mut kt, ti, hi, ki, 64, 64)?;
        Ok(device.download(&kt)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for bh in 0..b * h {
        let (bi, hi) = (bh / h, bh % h);
        for c in 0..kd {
            for r in 0..t {
                let want = kv[((bi * t + r) * h + hi) * kd + c];
                let have = got[(bh * kd + c) * t + r];
                if have != want {
                    return Err(format!("kt[{bh}][{c}][{r}] = {have} for {want}"));
                }
            }
        }
    }
    Ok(())
}

fn vector_add(device: &Device, large: bool) -> Result<(), String> {
    let n = if large { 10_000_019 } else { 1000 };
    let x: Vec<f32> = (0..n).map(|i| (i % 1024) as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 0.5 * (i % 77) as f32).collect();
    let run = || -> tile::Result<Vec<f32>> {
        let (xb, yb) = (device.upload(&x)?, device.upload(&y)?);
        let mut out = device.alloc::<f32>(n)?;
        let grid = (n as u32).div_ceil(256);
        kernel_fns::safe_kernel::launch(device, grid, &xb, &yb, &mut out, n as i32, 256)?;
        Ok(device.download(&out)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    match (0..n).find(|&i| got[i] != x[i] + y[i]) {
        None => Ok(()),
        Some(i) => Err(format!("out[{i}] = {} for {}", got[i], x[i] + y[i])),
    }
}

fn softmax(device: &Device, large: bool) -> Result<(), String> {
    let (rows, cols, stride) = if large {
        (4099, 1000, 1024)
    } else {
        (3, 100, 128)
    };
    let x: Vec<f32> = (0..rows * stride)
        .map(|i| ((i * 7) % 13) as f32 * 0.25)
        .collect();
    let run = || -> tile::Result<Vec<f32>> {
        let xb = device.upload(&x)?;
        let mut out = device.alloc::<f32>(rows * stride)?;
        let s = stride as i32;
        kernel_fns::softmax::launch(device, rows as u32, &xb, &mut out, s, s, cols as i32, 1024)?;
        Ok(device.download(&out)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for r in 0..rows {
        let row = &x[r * stride..r * stride + cols];
        let max = row.iter().cloned().fold(f32::MIN, f32::max);
        let den: f64 = row.iter().map(|v| f64::from(v - max).exp()).sum();
        for c in 0..cols {
            let want = f64::from(row[c] - max).exp() / den;
            let have = f64::from(got[r * stride + c]);
            if (want - have).abs() > 1e-6 {
                return Err(format!("row {r} col {c}: {have} for {want}"));
            }
        }
    }
    Ok(())
}

fn layer_norm(device: &Device, large: bool) -> Result<(), String> {
    let (rows, n, eps) = if large {
        (1031, 4100, 1e-5f32)
    } else {
        (4, 300, 1e-5)
    };
    let x: Vec<f32> = (0..rows * n)
        .map(|i| ((i * 31) % 17) as f32 - 8.0)
        .collect();
    let w: Vec<f32> = (0..n).map(|i| 1.0 + (i % 5) as f32 * 0.1).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 3) as f32 * 0.5).collect();
    let run = || -> tile::Result<Vec<f32>> {
        let (xb, wb, bb) = (device.upload(&x)?, device.upload(&w)?, device.upload(&b)?);
        let mut y = device.alloc::<f32>(rows * n)?;
        let mut mean = device.alloc::<f32>(rows)?;
        let mut rstd = device.alloc::<f32>(rows)?;
        let (ni, grid) = (n as i32, rows as u32);
        kernel_fns::layer_norm_fwd::launch(
            device, grid, &xb, &mut y, &wb, &bb, &mut mean, &mut rstd, ni, ni, eps, 128,
        )?;
        Ok(device.download(&y)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    let want = crate::layer_norm::reference(&x, &w, &b, (rows, n, n), eps);
    for (i, (g, w)) in got.iter().zip(&want.y).enumerate() {
        if (f64::from(*g) - w).abs() > 1e-4 {
            return Err(format!("y[{i}] = {g} for {w}"));
        }
    }
    Ok(())
}

fn matmul(device: &Device, large: bool) -> Result<(), String> {
    // Tails in M, N and K (the block pointers' boundary checks); values
    // in eighths, so f32 sums are exact in any order.
    let (m, n, k) = if large {
        (1000, 520, 776)
    } else {
        (40, 24, 48)
    };
    let (bm, bn, bk) = if large { (128, 64, 32) } else { (32, 16, 16) };
    let a: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32(((i % 7) as f32 - 3.0) * 0.125))
        .collect();
    let b: Vec<f16> = (0..k * n)
        .map(|i| f16::from_f32(((i % 5) as f32 - 2.0) * 0.5))
        .collect();
    let run = || -> tile::Result<Vec<f32>> {
        let (ab, bb) = (device.upload(&a)?, device.upload(&b)?);
        let mut c = device.alloc::<f32>(m * n)?;
        let (mi, ni, ki) = (m as i64, n as i64, k as i64);
        let grid = ((mi + bm - 1) / bm * ((ni + bn - 1) / bn)) as u32;
        kernel_fns::matmul::launch(
            device, grid, &ab, &bb, &mut c, m as i32, n as i32, k as i32, ki, 1, ni, 1, ni, 1, bm,
            bn, bk, 8,
        )?;
        Ok(device.download(&c)?)
    };
    let got = run().map_err(|e| e.to_string())?;
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k)
                .map(|l| a[i * k + l].to_f32() * b[l * n + j].to_f32())
                .sum();
            if got[i * n + j] != want {
                return Err(format!("C[{i}, {j}] = {} for {want}", got[i * n + j]));
            }
        }
    }
    Ok(())
}
