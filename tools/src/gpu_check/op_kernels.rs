//! The kernels issue 20's ops make possible, end to end against plain-Rust
//! references: the cross-entropy forward (online log-sum-exp and `argmax`,
//! with tied maxima placed on purpose), a histogram by atomic adds, and a
//! prefix sum of 2^24 elements across programs (exact: `i32`, and `f32`
//! values whose every partial sum is an integer below 2^24).

use super::cross_entropy::{Buffers, targets};
use super::{Outcome, inputs};
use tile::{Arg, DType, Device, Options};
use tile_examples::{cross_entropy, cumsum, histogram};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The cross-entropy of `rows x v` logits: loss within 1e-5 relative (of
/// max(1, |loss|)), prediction exact.
fn cross_entropy_case(device: &Device, rows: usize, v: usize) -> Outcome {
    let mut x: Vec<f32> = inputs(rows * v, 31).iter().map(|a| a * 0.75).collect();
    // Ties: in every third row, the maximum again further on (and, in
    // every sixth, earlier in another block too).
    for r in (0..rows).step_by(3) {
        let row = &mut x[r * v..(r + 1) * v];
        let (i, &m) = row
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .expect("a row");
        row[(i + v / 2) % v] = m;
        if r % 6 == 0 {
            row[(i + 7) % v] = m;
        }
    }
    let targets = targets(rows, v);
    let context = tile::context().map_err(err)?;
    let kernel = cross_entropy::cross_entropy_fwd(&context, cross_entropy::BLOCK).map_err(err)?;
    let jit = tile::jit(&kernel, Options::with_warps(cross_entropy::NUM_WARPS)).map_err(err)?;
    let buffers = Buffers::upload(device, &x, &targets, &vec![f32::NAN; rows])?;
    jit.launch(device, rows as u32, &buffers.args(v))
        .map_err(err)?;
    let loss = device.download(&buffers.loss).map_err(err)?;
    let (want_loss, want_pred) = cross_entropy::reference(&x, &targets, v);
    buffers.check_predictions(device, &want_pred)?;
    for r in 0..rows {
        let diff = (f64::from(loss[r]) - want_loss[r]).abs();
        if diff.is_nan() || diff > 1e-5 * want_loss[r].abs().max(1.0) {
            return Err(format!("row {r}: loss {}, want {}", loss[r], want_loss[r]));
        }
    }
    Ok(())
}

/// `n` values in `-5..bins + 5` counted into `bins` bins.
fn histogram_case(device: &Device, n: usize, bins: usize) -> Outcome {
    let x: Vec<i32> = (0..n)
        .map(|i| ((i as u64 * 2654435761 % 1000003) % (bins as u64 + 10)) as i32 - 5)
        .collect();
    let mut want = vec![0i32; bins];
    for &v in &x {
        if (0..bins as i32).contains(&v) {
            want[v as usize] += 1;
        }
    }
    let context = tile::context().map_err(err)?;
    let kernel = histogram::histogram(&context, histogram::BLOCK).map_err(err)?;
    let jit = tile::jit(&kernel, Options::default()).map_err(err)?;
    let dx = device.upload(&x).map_err(err)?;
    let dh = device.upload(&vec![0i32; bins]).map_err(err)?;
    let args = [
        Arg::from(&dx),
        Arg::from(&dh),
        Arg::from(n as i32),
        Arg::from(bins as i32),
    ];
    let programs = n.div_ceil(histogram::BLOCK as usize) as u32;
    jit.launch(device, programs, &args).map_err(err)?;
    let got = device.download(&dh).map_err(err)?;
    match (0..bins).find(|&b| got[b] != want[b]) {
        None => Ok(()),
        Some(b) => Err(format!("bin {b}: {} counted, want {}", got[b], want[b])),
    }
}

/// The three launches of the prefix sum on `x`; returns `Y`.
fn prefix_sum<T: tile_runtime::DeviceCopy + Copy + Default>(
    device: &Device,
    d: DType,
    x: &[T],
) -> Result<Vec<T>, String> {
    let n = x.len();
    let block = cumsum::BLOCK;
    let blocks = n.div_ceil(block as usize);
    let context = tile::context().map_err(err)?;
    let scan = tile::jit(
        &cumsum::block_scan(&context, block, d).map_err(err)?,
        Options::default(),
    )
    .map_err(err)?;
    let sums = tile::jit(
        &cumsum::scan_sums(&context, block, d).map_err(err)?,
        Options::default(),
    )
    .map_err(err)?;
    let add = tile::jit(
        &cumsum::add_offsets(&context, block, d).map_err(err)?,
        Options::default(),
    )
    .map_err(err)?;
    let dx = device.upload(x).map_err(err)?;
    let dy = device.alloc::<T>(n).map_err(err)?;
    let ds = device.alloc::<T>(blocks).map_err(err)?;
    let ni = Arg::from(n as i32);
    scan.launch(
        device,
        blocks as u32,
        &[Arg::from(&dx), Arg::from(&dy), Arg::from(&ds), ni],
    )
    .map_err(err)?;
    sums.launch(device, 1, &[Arg::from(&ds), Arg::from(blocks as i32)])
        .map_err(err)?;
    add.launch(device, blocks as u32, &[Arg::from(&dy), Arg::from(&ds), ni])
        .map_err(err)?;
    device.download(&dy).map_err(err)
}

/// The prefix sum of `n` elements, `i32` and `f32`, exactly.
fn cumsum_case(device: &Device, n: usize) -> Outcome {
    let ints: Vec<i32> = (0..n)
        .map(|i| ((i as u64 * 40503 + 17) % 201) as i32 - 100)
        .collect();
    let got = prefix_sum(device, DType::I32, &ints)?;
    let mut acc = 0i32;
    for (i, &v) in ints.iter().enumerate() {
        acc = acc.wrapping_add(v);
        if got[i] != acc {
            return Err(format!("i32 [{i}] = {}, want {acc}", got[i]));
        }
    }
    // -1, 0 or 1: every partial sum is an integer of magnitude below 2^24,
    // exact in f32 whatever the grouping.
    let floats: Vec<f32> = (0..n)
        .map(|i| ((i as u64 * 2654435761 % 97) % 3) as f32 - 1.0)
        .collect();
    let got = prefix_sum(device, DType::F32, &floats)?;
    let mut acc = 0f32;
    for (i, &v) in floats.iter().enumerate() {
        acc += v;
        if got[i] != acc {
            return Err(format!("f32 [{i}] = {}, want {acc}", got[i]));
        }
    }
    Ok(())
}

/// Every case: `(case, outcome)`; `full` adds the largest sizes.
pub fn cases(device: &Device, full: bool) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let ce: &[(usize, usize)] = if full {
        &[(37, 1000), (64, 32768), (5, 50257), (4096, 32768)]
    } else {
        &[(37, 1000), (64, 32768), (5, 50257)]
    };
    for &(rows, v) in ce {
        out.push((
            format!("cross_entropy {rows}x{v}"),
            cross_entropy_case(device, rows, v),
        ));
    }
    let ln: &[(usize, usize)] = if full {
        &[(3, 100), (1000, 1000), (4096, 8192)]
    } else {
        &[(3, 100), (1000, 1000)]
    };
    for &(rows, n) in ln {
        out.push((
            format!("layer_norm_bwd {rows}x{n} (DW, DB by atomic_add)"),
            super::layer_norm_bwd::atomic_add_case(device, rows, n),
        ));
        out.push((
            format!("layer_norm_bwd {rows}x{n} (tutorial 05: locks, partial sums)"),
            super::layer_norm_bwd::grouped_case(device, rows, n),
        ));
    }
    for (n, bins) in [(1000, 7), (1_000_003, 256), (1 << 22, 4096)] {
        out.push((
            format!("histogram n={n} bins={bins}"),
            histogram_case(device, n, bins),
        ));
    }
    let sizes: &[usize] = if full {
        &[1, 1000, 1025, 1 << 20, 1 << 24]
    } else {
        &[1, 1000, 1025, 1 << 20]
    };
    for &n in sizes {
        out.push((format!("cumsum n={n} i32 and f32"), cumsum_case(device, n)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cross-entropy case on the interpreter: the shared launch
    /// ([`super::super::cross_entropy`]) computes and checks it.
    #[test]
    fn the_cross_entropy_case_runs_on_the_interpreter() {
        let device = Device::interpreter();
        cross_entropy_case(&device, 7, 300).unwrap();
        let buffers = Buffers::upload(&device, &[1.0, 2.0], &[0], &[0.0]).unwrap();
        let e = buffers.check_predictions(&device, &[1]).unwrap_err();
        assert_eq!(e, "row 0: argmax -1, want 1");
        assert_eq!(targets(3, 5), vec![0, 4, 3]);
    }
}
