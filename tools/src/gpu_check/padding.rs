//! GPU cases for block-pointer boundary checks and padding: a tile loaded
//! with `boundary_check` on a subset of axes and a padding option, then
//! written out whole, so that every padded position can be inspected.

use super::{Outcome, POISON, Storage, inputs, poisoned, verdict};
use tile::{Arg, Device};
use tile_dialect::{DType, Kernel, Padding, Result};

/// Loads the `(bm, bn)` tile at `(program_id(0) * bm, program_id(1) * bn)`
/// of an `m x n` f32 view through a block pointer with `order`, checking
/// the axes `check` and padding with `padding`, and stores it whole into a
/// dense row-major `(grid0 * bm) x (grid1 * bn)` output.
///
/// Arguments: `x_ptr`, `out_ptr` (`f32`), `m`, `n` (`i32`), `stride_m`,
/// `stride_n`, `out_stride` (`i64`, in elements).
pub fn padded_tile_copy<'c>(
    context: &'c melior::Context,
    (bm, bn): (i64, i64),
    check: &[i64],
    padding: Padding,
    order: [i64; 2],
) -> Result<Kernel<'c>> {
    Kernel::build(context, "padded_tile_copy", |k| {
        let x_ptr = k.arg_ptr("x_ptr", DType::F32);
        let out_ptr = k.arg_ptr("out_ptr", DType::F32);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let stride_m = k.arg("stride_m", DType::I64);
        let stride_n = k.arg("stride_n", DType::I64);
        let out_stride = k.arg("out_stride", DType::I64);
        let (pm, pn) = (k.program_id(0) * bm, k.program_id(1) * bn);
        let (gm, gn) = (k.num_programs(0) * bm, k.num_programs(1) * bn);
        let input = k
            .make_block_ptr(x_ptr)
            .shape([m, n])
            .strides([stride_m, stride_n])
            .offsets([pm, pn])
            .block_shape([bm, bn])
            .order(order)
            .build();
        let output = k
            .make_block_ptr(out_ptr)
            .shape([gm, gn])
            .strides([out_stride, k.i64(1)])
            .offsets([pm, pn])
            .block_shape([bm, bn])
            .order([1, 0])
            .build();
        let tile = k.load(input).boundary_check(check).padding(padding).build();
        k.store(output, tile).build();
    })
}

/// Runs [`padded_tile_copy`] over an `m x n` view stored as `storage`
/// (`(bm, bn)` tiles, enough programs to cover it) and checks every output
/// element: the input inside the view, the padding outside it along a
/// checked axis (NaN: any NaN but the poison; a constant: its exact bits).
///
/// Along an unchecked axis whose extent is not a multiple of the block,
/// the last blocks read past the view: the backing storage is made long
/// enough that those reads stay inside it, and they must return what the
/// storage holds there (the strided address, as the GPU computes it).
#[allow(clippy::too_many_arguments)]
pub fn padding_case(
    device: &Device,
    (m, n): (usize, usize),
    (bm, bn): (usize, usize),
    check: &[i64],
    padding: Padding,
    order: [i64; 2],
    storage: Storage,
) -> Outcome {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let context = tile::context().map_err(|x| e(&x))?;
    let kernel = padded_tile_copy(&context, (bm as i64, bn as i64), check, padding, order)
        .map_err(|x| e(&x))?;
    let loaded = super::Specializing::new(device, &kernel);
    let (gm, gn) = (m.div_ceil(bm), n.div_ceil(bn));
    let (rows, cols) = (gm * bm, gn * bn);
    let (len, sm, sn) = storage.layout(m, n);
    // Whether output element (i, j) is padding: outside the view along a
    // checked axis.
    let padded =
        |i: usize, j: usize| (check.contains(&0) && i >= m) || (check.contains(&1) && j >= n);
    // Unchecked axes read up to the covered extent, not the view's.
    let reach_m = if check.contains(&0) { m } else { rows };
    let reach_n = if check.contains(&1) { n } else { cols };
    let len = len.max((reach_m - 1) * sm + (reach_n - 1) * sn + 1);
    let x = inputs(len, (m * 7 + n * 3) as u64);
    let dx = device.upload(&x).map_err(|x| e(&x))?;
    let out = device.upload(&poisoned(rows * cols)).map_err(|x| e(&x))?;
    let args = [
        Arg::from(&dx),
        Arg::from(&out),
        Arg::from(m as i32),
        Arg::from(n as i32),
        Arg::from(sm as i64),
        Arg::from(sn as i64),
        Arg::from(cols as i64),
    ];
    loaded
        .launch((gm as u32, gn as u32), &args)
        .map_err(|x| e(&x))?;
    let got = device.download(&out).map_err(|x| e(&x))?;
    let mut errors = Vec::new();
    for i in 0..rows {
        for j in 0..cols {
            let g = got[i * cols + j];
            let ok = if !padded(i, j) {
                g.to_bits() == x[i * sm + j * sn].to_bits()
            } else {
                match padding {
                    Padding::Nan => g.is_nan() && g.to_bits() != POISON.to_bits(),
                    Padding::Zero => g.to_bits() == 0,
                    Padding::Value(v) => g.to_bits() == (v as f32).to_bits(),
                    Padding::Undefined => g.to_bits() != POISON.to_bits(),
                }
            };
            if !ok {
                errors.push(format!("[{i}, {j}] = {g} (bits {:#x})", g.to_bits()));
            }
        }
    }
    verdict(&got, rows * cols, errors)
}
