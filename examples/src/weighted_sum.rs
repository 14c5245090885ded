//! Seed 004: the weighted sum `y = x @ w` of CS336's assignment 2, forward
//! and backward, with block pointers.
//!
//! `x` has shape `(ROWS, D)`, `weight` shape `(D,)`, the output shape
//! `(ROWS,)`. Each program handles `ROWS_TILE` rows and walks the `D` axis
//! `D_TILE` columns at a time; launch both kernels on a grid of
//! `(cdiv(ROWS, ROWS_TILE),)`. The backward kernel writes one row of
//! partial weight gradients per program into a `(n_programs, D)` buffer,
//! which the host then sums over axis 0.

use tile_dialect::{DType, Kernel, Padding, ReduceKind, Result};

/// The default `ROWS_TILE_SIZE` (the seed's choice).
pub const ROWS_TILE: i64 = 16;
/// The default `D_TILE_SIZE` (the seed's choice for `D = 1024`).
pub const D_TILE: i64 = 64;

/// The seed's `D_TILE_SIZE` for embedding width `d`:
/// `triton.next_power_of_2(d) // 16`, at least 1 (the seed's formula
/// gives 0 below `d = 16`, which no tile can have).
pub fn d_tile_for(d: usize) -> i64 {
    (d.max(1).next_power_of_two() as i64 / 16).max(1)
}

/// The forward kernel, the seed's `weighted_sum_fwd`:
///
/// ```python
/// output = tl.zeros((ROWS_TILE_SIZE,), dtype=tl.float32)
/// for i in range(tl.cdiv(D, D_TILE_SIZE)):
///     row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
///     weight = tl.load(weight_block_ptr, boundary_check=(0,), padding_option="zero")
///     output += tl.sum(row * weight[None, :], axis=1)
///     x_block_ptr = x_block_ptr.advance((0, D_TILE_SIZE))
///     weight_block_ptr = weight_block_ptr.advance((D_TILE_SIZE,))
/// tl.store(output_block_ptr, output, boundary_check=(0,))
/// ```
///
/// Arguments: `x_ptr`, `weight_ptr` (pointers to `dtype`: `f32`, or
/// `f16`/`bf16`, widened to `f32`), `output_ptr` (`f32`),
/// `x_stride_row`, `x_stride_dim`, `weight_stride_dim`, `output_stride_row`
/// (`i64`, in elements), `rows`, `d` (`i32`). Accumulates in `f32`.
/// `rows_tile` and `d_tile` must be powers of two.
pub fn weighted_sum_fwd<'c>(
    context: &'c melior::Context,
    rows_tile: i64,
    d_tile: i64,
    dtype: DType,
) -> Result<Kernel<'c>> {
    Kernel::build(context, "weighted_sum_fwd", |k| {
        let x_ptr = k.arg_ptr("x_ptr", dtype);
        let weight_ptr = k.arg_ptr("weight_ptr", dtype);
        let output_ptr = k.arg_ptr("output_ptr", DType::F32);
        let x_stride_row = k.arg("x_stride_row", DType::I64);
        let x_stride_dim = k.arg("x_stride_dim", DType::I64);
        let weight_stride_dim = k.arg("weight_stride_dim", DType::I64);
        let output_stride_row = k.arg("output_stride_row", DType::I64);
        let rows = k.arg("rows", DType::I32);
        let d = k.arg("d", DType::I32);

        let row_tile_idx = k.program_id(0);
        let x_block_ptr = k
            .make_block_ptr(x_ptr)
            .shape([rows, d])
            .strides([x_stride_row, x_stride_dim])
            .offsets([row_tile_idx * rows_tile, k.i32(0)])
            .block_shape([rows_tile, d_tile])
            .order([1, 0])
            .build();
        let weight_block_ptr = k
            .make_block_ptr(weight_ptr)
            .shape([d])
            .strides([weight_stride_dim])
            .offsets([0])
            .block_shape([d_tile])
            .order([0])
            .build();
        let output_block_ptr = k
            .make_block_ptr(output_ptr)
            .shape([rows])
            .strides([output_stride_row])
            .offsets([row_tile_idx * rows_tile])
            .block_shape([rows_tile])
            .order([0])
            .build();

        let output = k.zeros(&[rows_tile], DType::F32);
        let [output, _, _] = k.for_range(
            0,
            d.cdiv(d_tile),
            1,
            [output, x_block_ptr, weight_block_ptr],
            |_, [output, x_block_ptr, weight_block_ptr]| {
                let row = k
                    .load(x_block_ptr)
                    .boundary_check(&[0, 1])
                    .padding(Padding::Zero)
                    .build()
                    .to(DType::F32); // (ROWS_TILE, D_TILE)
                let weight = k
                    .load(weight_block_ptr)
                    .boundary_check(&[0])
                    .padding(Padding::Zero)
                    .build()
                    .to(DType::F32); // (D_TILE,)
                let output = output + (row * weight.expand_dims(0)).sum(1);
                [
                    output,
                    x_block_ptr.advance([0, d_tile]),
                    weight_block_ptr.advance([d_tile]),
                ]
            },
        );
        k.store(output_block_ptr, output)
            .boundary_check(&[0])
            .build();
    })
}

/// The backward kernel, the seed's `weighted_sum_backward`:
///
/// ```python
/// for i in range(tl.cdiv(D, D_TILE_SIZE)):
///     grad_output = tl.load(grad_output_block_ptr, boundary_check=(0,), padding_option="zero")
///     weight = tl.load(weight_block_ptr, boundary_check=(0,), padding_option="zero")
///     grad_x_row = grad_output[:, None] * weight[None, :]
///     tl.store(grad_x_block_ptr, grad_x_row, boundary_check=(0, 1))
///     row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
///     grad_weight_row = tl.sum(row * grad_output[:, None], axis=0, keep_dims=True)
///     tl.store(partial_grad_weight_block_ptr, grad_weight_row, boundary_check=(1,))
///     x_block_ptr = x_block_ptr.advance((0, D_TILE_SIZE))
///     weight_block_ptr = weight_block_ptr.advance((D_TILE_SIZE,))
///     partial_grad_weight_block_ptr = partial_grad_weight_block_ptr.advance((0, D_TILE_SIZE))
///     grad_x_block_ptr = grad_x_block_ptr.advance((0, D_TILE_SIZE))
/// ```
///
/// Arguments: `x_ptr`, `weight_ptr`, `grad_output_ptr` (pointers to
/// `dtype`: `f32`, or `f16`/`bf16`, widened to `f32`), `grad_x_ptr`,
/// `partial_grad_weight_ptr` (`f32` pointers), `stride_xr`, `stride_xd`,
/// `stride_wd`, `stride_gr`, `stride_gxr`, `stride_gxd`, `stride_gwb`,
/// `stride_gwd` (`i64`, in elements), `num_rows`, `d` (`i32`). The partial
/// gradient buffer has shape `(num_programs(0), d)`; program `p` writes its
/// row `p`. `rows_tile` and `d_tile` must be powers of two.
pub fn weighted_sum_bwd<'c>(
    context: &'c melior::Context,
    rows_tile: i64,
    d_tile: i64,
    dtype: DType,
) -> Result<Kernel<'c>> {
    Kernel::build(context, "weighted_sum_bwd", |k| {
        let x_ptr = k.arg_ptr("x_ptr", dtype);
        let weight_ptr = k.arg_ptr("weight_ptr", dtype);
        let grad_output_ptr = k.arg_ptr("grad_output_ptr", dtype);
        let grad_x_ptr = k.arg_ptr("grad_x_ptr", DType::F32);
        let partial_grad_weight_ptr = k.arg_ptr("partial_grad_weight_ptr", DType::F32);
        let stride_xr = k.arg("stride_xr", DType::I64);
        let stride_xd = k.arg("stride_xd", DType::I64);
        let stride_wd = k.arg("stride_wd", DType::I64);
        let stride_gr = k.arg("stride_gr", DType::I64);
        let stride_gxr = k.arg("stride_gxr", DType::I64);
        let stride_gxd = k.arg("stride_gxd", DType::I64);
        let stride_gwb = k.arg("stride_gwb", DType::I64);
        let stride_gwd = k.arg("stride_gwd", DType::I64);
        let num_rows = k.arg("num_rows", DType::I32);
        let d = k.arg("d", DType::I32);

        let row_tile_idx = k.program_id(0);
        let n_row_tiles = k.num_programs(0);

        // Inputs.
        let grad_output_block_ptr = k
            .make_block_ptr(grad_output_ptr)
            .shape([num_rows])
            .strides([stride_gr])
            .offsets([row_tile_idx * rows_tile])
            .block_shape([rows_tile])
            .order([0])
            .build();
        let x_block_ptr = k
            .make_block_ptr(x_ptr)
            .shape([num_rows, d])
            .strides([stride_xr, stride_xd])
            .offsets([row_tile_idx * rows_tile, k.i32(0)])
            .block_shape([rows_tile, d_tile])
            .order([1, 0])
            .build();
        let weight_block_ptr = k
            .make_block_ptr(weight_ptr)
            .shape([d])
            .strides([stride_wd])
            .offsets([0])
            .block_shape([d_tile])
            .order([0])
            .build();
        // Outputs.
        let grad_x_block_ptr = k
            .make_block_ptr(grad_x_ptr)
            .shape([num_rows, d])
            .strides([stride_gxr, stride_gxd])
            .offsets([row_tile_idx * rows_tile, k.i32(0)])
            .block_shape([rows_tile, d_tile])
            .order([1, 0])
            .build();
        let partial_grad_weight_block_ptr = k
            .make_block_ptr(partial_grad_weight_ptr)
            .shape([n_row_tiles, d])
            .strides([stride_gwb, stride_gwd])
            .offsets([row_tile_idx, k.i32(0)])
            .block_shape([1, d_tile])
            .order([1, 0])
            .build();

        k.for_range(
            0,
            d.cdiv(d_tile),
            1,
            [
                x_block_ptr,
                weight_block_ptr,
                partial_grad_weight_block_ptr,
                grad_x_block_ptr,
            ],
            |_,
             [
                x_block_ptr,
                weight_block_ptr,
                partial_grad_weight_block_ptr,
                grad_x_block_ptr,
            ]| {
                let grad_output = k
                    .load(grad_output_block_ptr)
                    .boundary_check(&[0])
                    .padding(Padding::Zero)
                    .build()
                    .to(DType::F32); // (ROWS_TILE,)

                // Outer product for grad_x.
                let weight = k
                    .load(weight_block_ptr)
                    .boundary_check(&[0])
                    .padding(Padding::Zero)
                    .build()
                    .to(DType::F32); // (D_TILE,)
                let grad_x_row = grad_output.expand_dims(1) * weight.expand_dims(0);
                k.store(grad_x_block_ptr, grad_x_row)
                    .boundary_check(&[0, 1])
                    .build();

                // Reduce as many rows as possible for the grad_weight result.
                let row = k
                    .load(x_block_ptr)
                    .boundary_check(&[0, 1])
                    .padding(Padding::Zero)
                    .build()
                    .to(DType::F32); // (ROWS_TILE, D_TILE)
                let grad_weight_row =
                    (row * grad_output.expand_dims(1)).reduce(ReduceKind::Sum, 0, true); // (1, D_TILE)
                // Never out of bounds on axis 0: one row per program.
                k.store(partial_grad_weight_block_ptr, grad_weight_row)
                    .boundary_check(&[1])
                    .build();

                [
                    x_block_ptr.advance([0, d_tile]),
                    weight_block_ptr.advance([d_tile]),
                    partial_grad_weight_block_ptr.advance([0, d_tile]),
                    grad_x_block_ptr.advance([0, d_tile]),
                ]
            },
        );
    })
}
