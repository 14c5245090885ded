//! The case lists `tile-tools gpu-check` runs, group by group: the
//! basics (vector add, masked 2-d tiles, `other`, grid ids, scalar
//! arguments, block-pointer tiles), the reductions, the block-pointer
//! paddings and the LayerNorm forward. Each case's outcome goes to the
//! [`Report`].

use super::report::Report;
use crate::gpu_check::padding::padding_case;
use crate::gpu_check::reductions::{
    row_sum_beyond_2_31_case, row_sum_case, softmax_case, weighted_sum_bwd_case,
    weighted_sum_fwd_case,
};
use crate::gpu_check::{
    GUARD, Outcome, Storage, compare, fill_other_kernel, grid_ids_kernel, inputs, jagged_rows_case,
    k_tile_case, poisoned, q_tile_case, scalar_args_kernel, tile_2d_case, vector_add_case,
};
use crate::gpu_check::{layer_norm, offsets};
use crate::timing::compile_and_load;
use tile::{Arg, Device, Options};
use tile_dialect::{DType, Padding};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Loads n of 256 elements under a mask with `other` (or none) and
/// stores all 256: the masked lanes must read `other` (zero without one).
fn other_case(device: &Device, other: Option<f32>) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = fill_other_kernel(&context, other).map_err(err)?;
    let loaded = compile_and_load(device, &kernel, &Options::default())?;
    let n = 100usize;
    // Only n elements exist: masked lanes must not read beyond them.
    let x = inputs(n, 7);
    let mut want = x.clone();
    want.resize(256, other.unwrap_or(0.0));
    let dx = device.upload(&x).map_err(err)?;
    let dout = device.upload(&poisoned(256)).map_err(err)?;
    loaded
        .launch(
            1u32,
            &[Arg::from(&dx), Arg::from(&dout), Arg::from(n as i32)],
        )
        .map_err(err)?;
    compare(&device.download(&dout).map_err(err)?, &want)
}

/// Every program writes its ids and the grid size on all three axes.
fn grid_case(device: &Device, grid: (u32, u32, u32)) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = grid_ids_kernel(&context).map_err(err)?;
    let loaded = compile_and_load(device, &kernel, &Options::default())?;
    let (gx, gy, gz) = grid;
    let count = (gx * gy * gz) as usize;
    let mut want = Vec::with_capacity(count * 6);
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                want.extend([x, y, z, gx, gy, gz].map(|v| v as i32));
            }
        }
    }
    let sentinel = -7i32;
    let dout = device
        .upload(&vec![sentinel; count * 6 + GUARD])
        .map_err(err)?;
    loaded.launch(grid, &[Arg::from(&dout)]).map_err(err)?;
    let got = device.download(&dout).map_err(err)?;
    if got[..count * 6] != want[..] {
        let bad = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
        return Err(format!("[{bad}] = {}, want {}", got[bad], want[bad]));
    }
    if got[count * 6..].iter().any(|&g| g != sentinel) {
        return Err("guard written".into());
    }
    Ok(())
}

/// Scalar arguments of every supported type reach the kernel.
fn scalar_args_case(device: &Device) -> Outcome {
    let context = tile::context().map_err(err)?;
    let kernel = scalar_args_kernel(&context).map_err(err)?;
    let loaded = compile_and_load(device, &kernel, &Options::default())?;
    let dout = device.upload(&poisoned(5)).map_err(err)?;
    let args = [
        Arg::from(&dout),
        Arg::from(-123i32),
        Arg::from(1i64 << 40),
        Arg::from(2.5f32),
        Arg::from(half::f16::from_f32(1.5)),
        Arg::from(half::bf16::from_f32(-5.0)),
    ];
    loaded.launch(1u32, &args).map_err(err)?;
    let want = [-123.0, (1u64 << 40) as f32, 2.5, 1.5, -5.0];
    compare(&device.download(&dout).map_err(err)?, &want)
}

const STORAGES: [Storage; 3] = [
    Storage::Contiguous,
    Storage::Transposed,
    Storage::ColumnSliced,
];

/// The row sum, the weighted sum forward and backward and the softmax.
pub(super) fn reductions(device: &Device, quick: bool, report: &mut Report) {
    let big: &[(usize, usize)] = if quick { &[] } else { &[(65536, 1024)] };
    let shapes: Vec<(usize, usize)> = [(1000, 500), (64, 200), (100, 100), (777, 1), (300, 1000)]
        .into_iter()
        .chain(big.iter().copied())
        .collect();
    let label = |m: usize, n: usize, s: Storage, d: DType| format!("{m}x{n} {} {d}", s.name());
    for &(m, n) in &shapes {
        for storage in STORAGES {
            for block_n in [1024, 128] {
                let case = format!("{} BLOCK_N={block_n}", label(m, n, storage, DType::F32));
                let outcome = row_sum_case(device, m, n, storage, DType::F32, block_n);
                report.record("row_sum", case, outcome);
            }
        }
    }
    for &(m, n) in shapes.iter().filter(|s| s.1 >= 100) {
        for storage in [Storage::Contiguous, Storage::Transposed] {
            let outcome = row_sum_case(device, m, n, storage, DType::BF16, 1024);
            report.record("row_sum", label(m, n, storage, DType::BF16), outcome);
        }
    }
    if !quick {
        report.record(
            "offsets_beyond_2_31",
            "add_one_i64 on 2^31+1000 f32; safe_kernel (i32 offsets) refused".into(),
            offsets::beyond_2_31_case(device),
        );
        report.record(
            "row_sum",
            "(2^21+3)x1024 bf16 (2^31 + 3072 elements, 4.3 GB)".into(),
            row_sum_beyond_2_31_case(device),
        );
    }
    // The seed's (..., D) inputs are flattened to rows x D: (4, 250, 500)
    // is 1000x500.
    let weighted: Vec<(usize, usize)> = [
        (1000, 500),
        (64, 200),
        (100, 100),
        (50, 1),
        (333, 1000),
        (128, 1024),
    ]
    .into_iter()
    .chain(big.iter().copied())
    .collect();
    for &(rows, d) in &weighted {
        for storage in STORAGES {
            let case = label(rows, d, storage, DType::F32);
            let outcome = weighted_sum_fwd_case(device, rows, d, storage, DType::F32);
            report.record("weighted_sum_fwd", case.clone(), outcome);
            let outcome = weighted_sum_bwd_case(device, rows, d, storage, DType::F32);
            report.record("weighted_sum_bwd", case, outcome);
        }
        let case = label(rows, d, Storage::Contiguous, DType::BF16);
        let outcome = weighted_sum_fwd_case(device, rows, d, Storage::Contiguous, DType::BF16);
        report.record("weighted_sum_fwd", case.clone(), outcome);
        let outcome = weighted_sum_bwd_case(device, rows, d, Storage::Contiguous, DType::BF16);
        report.record("weighted_sum_bwd", case, outcome);
    }
    let rows = if quick { 256 } else { 4096 };
    for (rows, cols, stride, block) in [
        (1000, 500, 500, 512),
        (64, 200, 256, 256),
        (100, 100, 100, 128),
        (100, 1, 1, 1),
        (37, 1000, 2000, 1024),
        (rows, 1024, 1024, 1024),
    ] {
        report.record(
            "softmax",
            format!("{rows}x{cols} row_stride={stride} BLOCK={block}"),
            softmax_case(device, rows, cols, stride, block),
        );
    }
}

/// Block-pointer loads with boundary checks on each subset of axes and
/// each padding option, in both orders.
pub(super) fn paddings(device: &Device, report: &mut Report) {
    let fills = [
        ("nan", Padding::Nan),
        ("zero", Padding::Zero),
        ("-inf", Padding::Value(f64::NEG_INFINITY)),
        ("7.5", Padding::Value(7.5)),
    ];
    for order in [[1, 0], [0, 1]] {
        for storage in [Storage::Contiguous, Storage::Transposed] {
            // Every subset of checked axes on shapes that are block
            // multiples along neither axis (unchecked axes then read past
            // the view, into storage that is there) and on one that is.
            let checks: [&[i64]; 4] = [&[0, 1], &[0], &[1], &[]];
            let shapes = [(100, 70), (33, 130), (96, 128)];
            for (check, shape) in checks.into_iter().flat_map(|c| shapes.map(|s| (c, s))) {
                for (name, padding) in fills {
                    let case = format!(
                        "{}x{} tile 32x64 check={check:?} padding={name} order={order:?} {}",
                        shape.0,
                        shape.1,
                        storage.name()
                    );
                    let outcome =
                        padding_case(device, shape, (32, 64), check, padding, order, storage);
                    report.record("block_ptr_padding", case, outcome);
                }
            }
        }
    }
}

/// The LayerNorm forward: the benchmark's widths (1151x8192, 4096x781)
/// and irregular small shapes, with the tutorial's `BLOCK_SIZE` (one loop
/// iteration a row) and with smaller blocks (several, the last one
/// partial), on contiguous and padded rows.
pub(super) fn layer_norms(device: &Device, report: &mut Report) {
    let heuristic = layer_norm::heuristic_block;
    // (rows, N, row stride, BLOCK_SIZE)
    let cases = [
        (1151, 8192, 8192, heuristic(8192)),
        (4096, 781, 781, heuristic(781)),
        (1, 1, 1, heuristic(1)),
        (3, 17, 17, heuristic(17)),
        (3, 17, 20, 8),
        (64, 1000, 1000, heuristic(1000)),
        (64, 1000, 1024, 256),
        (7, 4097, 4097, heuristic(4097)),
        (7, 4097, 4097, 1024),
        (4096, 781, 800, 128),
    ];
    for (rows, n, stride, block) in cases {
        let warps = tile_examples::layer_norm::num_warps(block);
        report.record(
            "layer_norm",
            format!("{rows}x{n} stride={stride} BLOCK_SIZE={block} warps={warps}"),
            layer_norm::layer_norm_case(device, rows, n, stride, block),
        );
    }
}

/// The vector add at every size, jagged rows gathered with and without
/// a hint, the masked 2-d tile copy on each storage, masked loads with `other`, grid ids, scalar arguments and the
/// block-pointer q and k tiles.
pub(super) fn basics(device: &Device, quick: bool, report: &mut Report) {
    let sizes: &[usize] = if quick {
        &[1, 255, 4097]
    } else {
        &[1, 255, 256, 1000, 4097, (1 << 20) + 3, 1 << 24]
    };
    for &block in &[128, 256, 1024] {
        for &n in sizes {
            let outcome = vector_add_case(device, block, n);
            report.record("vector_add", format!("BLOCK={block} N={n}"), outcome);
        }
    }
    for hinted in [false, true] {
        for (rows, width) in [(1, 1), (17, 100), (1000, 1024), (333, 4096)] {
            let outcome = jagged_rows_case(device, hinted, rows, width);
            let form = if hinted { "multiple_of" } else { "unhinted" };
            report.record(
                "jagged_rows",
                format!("{form} rows={rows} width={width}"),
                outcome,
            );
        }
    }
    for (bm, bk) in [(16, 64), (64, 64)] {
        for (m, k) in [(1, 1), (1000, 500), (333, 777)] {
            for storage in [
                Storage::Contiguous,
                Storage::Transposed,
                Storage::ColumnSliced,
            ] {
                let outcome = tile_2d_case(device, bm, bk, m, k, storage);
                report.record(
                    "masked_tile_2d",
                    format!("tile={bm}x{bk} MxK={m}x{k} {}", storage.name()),
                    outcome,
                );
            }
        }
    }
    for other in [
        Some(0.0),
        Some(1.0),
        Some(f32::NEG_INFINITY),
        Some(f32::INFINITY),
        None,
    ] {
        let label = other.map_or("none (reads 0)".to_string(), |o| o.to_string());
        report.record(
            "load_other",
            format!("other={label}"),
            other_case(device, other),
        );
    }
    for grid in [(1, 1, 1), (7, 3, 2), (2, 5, 3)] {
        report.record(
            "grid_ids",
            format!("grid={grid:?}"),
            grid_case(device, grid),
        );
    }
    report.record(
        "scalar_args",
        "i32 i64 f32 f16 bf16".into(),
        scalar_args_case(device),
    );
    // Block pointers: boundary checks on both axes, T not a multiple of BT,
    // K below BK, the virtual transpose.
    for (b, t, h, k) in [(2, 100, 3, 64), (1, 1, 1, 1), (3, 130, 2, 40)] {
        let case = format!("B={b} T={t} H={h} K={k}");
        report.record("q_tile_load", case.clone(), q_tile_case(device, b, t, h, k));
        report.record("k_tile_transposed", case, k_tile_case(device, b, t, h, k));
    }
}
