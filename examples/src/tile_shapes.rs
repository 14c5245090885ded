//! Memory-bound kernels written the way Triton users write them, pointer
//! tensors and masks on both axes, each parameterised by its tile sizes
//! (and launched with any warps), for `tile-tools shapes-bench`, which
//! runs them beside Triton 3.6 compiling the same source
//! (`bench/triton_shapes.py`, line for line) at several tile shapes:
//!
//! | [`ShapeKernel`] | what one program does |
//! | --- | --- |
//! | `Softmax` | softmax of `BM` rows: a `[BM, BLOCK_N]` tile, max, exp, sum and divide along axis 1 |
//! | `LayerNorm` | LayerNorm forward of `BM` rows (tutorial 05 in one pass, 2-D): `Y`, `Mean`, `Rstd` |
//! | `LayerNormY` | the same, storing `Y` only |
//! | `LayerNormBlock` | `LayerNormY` through block pointers (`boundary_check` on both axes, zero padding) |
//! | `ScaleBias` | `out = x * scale[:, None] + bias[None, :]` on a `[BM, BN]` tile |
//! | `Transpose` | `y = x^T`: a `[BM, BN]` tile of `x`, stored `.trans()`ed |
//! | `TransposeBlock` | the same through block pointers: a `[BM, BN]` block of `x`, stored `.trans()`ed into the `[BN, BM]` block of `y` |
//! | `TransposeOrder` | no `trans`: the `[BN, BM]` block of `x^T` read through a block pointer with `order` (0, 1), stored into `y`'s |
//! | `ColSumStep` | the sum over rows of a `BN`-wide column strip, `BM` rows a step, `sum(axis=0)` each step |
//! | `ColSumEnd` | the same, a `[BM, BN]` accumulator summed along axis 0 after the loop |
//! | `Gelu` | `y = gelu_tanh(x + bias[None, :])` on a `[BM, BN]` tile, in f32 |
//! | `GeluFast` | the same with [`Tile::tanh_approx`] (PTX `tanh.approx.f32`, relative error at most 2^-10.987) |
//! | `ChunkCumsum` | flash-linear-attention's `chunk_local_cumsum`: a `[BM, BN]` block scanned along its rows (`cumsum(axis=0)`), column blocks on grid axis 0 |
//! | `ChunkCumsumPtrs` | the same through pointer tensors and masks, row blocks on axis 0 |
//! | `ChunkCumsumRev` | the pointer form scanning from each chunk's last row (`reverse`) |
//! | `RowCumsum` | `BM` whole rows: a `[BM, BLOCK_N]` tile scanned along its rows' axis (`cumsum(axis=1)`) |
//! | `LayerNormLoop` | LayerNorm forward of `BM` rows in three loops over `BN` columns at a time (tutorial 05's loops, 2-D) |
//! | `RowSumLoop` | sums of `BM` rows through a `[BM, BN]` block pointer advanced along the row (seed 002 on `BM` rows) |
//! | `SoftmaxOnline` | softmax of `BM` rows in two loops over `BN` columns: a running max and rescaled sum, then the outputs |
//!
//! ```python
//! @triton.jit
//! def softmax(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BLOCK_N: tl.constexpr):
//!     rows = tl.program_id(0) * BM + tl.arange(0, BM)
//!     cols = tl.arange(0, BLOCK_N)
//!     mask = (rows[:, None] < M) & (cols[None, :] < N)
//!     x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
//!                 other=-float("inf")).to(tl.float32)
//!     z = x - tl.max(x, axis=1)[:, None]
//!     num = tl.exp(z)
//!     den = tl.sum(num, axis=1)
//!     y = num / den[:, None]
//!     tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)
//!
//! @triton.jit
//! def transpose(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
//!     rows = tl.program_id(0) * BM + tl.arange(0, BM)
//!     cols = tl.program_id(1) * BN + tl.arange(0, BN)
//!     mask = (rows[:, None] < M) & (cols[None, :] < N)
//!     tile = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask)
//!     mask_t = (cols[:, None] < N) & (rows[None, :] < M)
//!     tl.store(y_ptr + cols[:, None] * stride_y + rows[None, :], tile.trans(), mask=mask_t)
//! ```
//!
//! (the others are in `bench/triton_shapes.py`). Sizes and strides are
//! `i32` arguments, in elements; rows are contiguous. Grids: [`grid`].
//! Loads read the tensor's type (`f32`, `f16`, `bf16`) and compute in
//! `f32`; outputs are stored in the tensor's type (the column sums, Mean
//! and Rstd in `f32`).

use tile_dialect::{DType, Kernel, KernelBuilder, Padding, Result, Tile};

mod block_rows;
mod column_sums;
mod row_loops;
mod scans;
mod transposes;

pub use scans::{chunk_cumsum_reference, row_cumsum_reference};

/// A kernel of the benchmark (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKernel {
    /// Softmax of `BM` rows per program.
    Softmax,
    /// LayerNorm forward of `BM` rows per program: `Y`, `Mean`, `Rstd`.
    LayerNorm,
    /// LayerNorm forward of `BM` rows per program: `Y` only.
    LayerNormY,
    /// [`ShapeKernel::LayerNormY`] through block pointers.
    LayerNormBlock,
    /// `x * scale[:, None] + bias[None, :]`.
    ScaleBias,
    /// `y = x^T` through `.trans()` of a loaded tile.
    Transpose,
    /// `y = x^T` through block pointers (`order` 1, 0 on both, both axes
    /// checked): a `[BM, BN]` block of `x` loaded, stored `.trans()`ed.
    TransposeBlock,
    /// `y = x^T` without `trans`: a `[BN, BM]` block of `x^T` read
    /// through a block pointer with `order` (0, 1), stored as it comes.
    TransposeOrder,
    /// Column sums, `sum(axis=0)` of each `[BM, BN]` step.
    ColSumStep,
    /// Column sums, one `sum(axis=0)` of a `[BM, BN]` accumulator.
    ColSumEnd,
    /// [`ShapeKernel::ColSumEnd`] with its loop asking for
    /// [`STREAM_STAGES`] stages (`for_range_staged`, Triton's
    /// `tl.range(..., num_stages=3)`).
    ColSumStaged,
    /// [`ShapeKernel::ColSumStaged`] through a tensor of pointers the loop
    /// carries and steps by `BM` rows (`ptrs += BM * stride_x`).
    ColSumPtrs,
    /// [`ShapeKernel::ColSumStaged`] through a block pointer advanced by
    /// `BM` rows, both axes checked, zero padding.
    ColSumBlock,
    /// `gelu_tanh(x + bias[None, :])` with an accurate `tanh`.
    Gelu,
    /// `gelu_tanh(x + bias[None, :])` with `tanh_approx`.
    GeluFast,
    /// Prefix sums within chunks of `BM` rows through block pointers,
    /// flash-linear-attention's grid ([`Cover::TilesByColumns`]).
    ChunkCumsum,
    /// The same through pointer tensors and masks.
    ChunkCumsumPtrs,
    /// The pointer form, each chunk scanned from its last row.
    ChunkCumsumRev,
    /// Prefix sums along whole rows, `BM` rows a program.
    RowCumsum,
    /// LayerNorm forward of `BM` rows, looping over `BN` columns a step.
    LayerNormLoop,
    /// Row sums through a block pointer advanced by `BN` columns a step.
    RowSumLoop,
    /// Softmax of `BM` rows with a running max, looping over `BN`
    /// columns a step.
    SoftmaxOnline,
}

/// How a kernel's programs cover its `[M, N]` input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// `BM` whole rows per program (`BLOCK_N >= N`): a grid of
    /// `cdiv(M, BM)`.
    Rows,
    /// One `[BM, BN]` tile per program: a grid of `(cdiv(M, BM),
    /// cdiv(N, BN))`.
    Tiles,
    /// One `[BM, BN]` tile per program, column blocks first: a grid of
    /// `(cdiv(N, BN), cdiv(M, BM))`.
    TilesByColumns,
    /// One `BN`-wide column strip per program, looping over the rows: a
    /// grid of `cdiv(N, BN)`.
    Columns,
    /// `BM` rows per program, looping over their columns `BN` at a time:
    /// a grid of `cdiv(M, BM)`.
    RowSteps,
}

impl ShapeKernel {
    /// Every kernel, in table order.
    pub const ALL: [ShapeKernel; 22] = [
        ShapeKernel::Softmax,
        ShapeKernel::LayerNorm,
        ShapeKernel::LayerNormY,
        ShapeKernel::LayerNormBlock,
        ShapeKernel::ScaleBias,
        ShapeKernel::Transpose,
        ShapeKernel::TransposeBlock,
        ShapeKernel::TransposeOrder,
        ShapeKernel::ColSumStep,
        ShapeKernel::ColSumEnd,
        ShapeKernel::ColSumStaged,
        ShapeKernel::ColSumPtrs,
        ShapeKernel::ColSumBlock,
        ShapeKernel::Gelu,
        ShapeKernel::GeluFast,
        ShapeKernel::ChunkCumsum,
        ShapeKernel::ChunkCumsumPtrs,
        ShapeKernel::ChunkCumsumRev,
        ShapeKernel::RowCumsum,
        ShapeKernel::LayerNormLoop,
        ShapeKernel::RowSumLoop,
        ShapeKernel::SoftmaxOnline,
    ];

    /// The kernel's name on command lines and in tables (also its
    /// `func.func` symbol's suffix).
    pub fn name(self) -> &'static str {
        match self {
            ShapeKernel::Softmax => "softmax",
            ShapeKernel::LayerNorm => "layer_norm",
            ShapeKernel::LayerNormY => "layer_norm_y",
            ShapeKernel::LayerNormBlock => "layer_norm_block",
            ShapeKernel::ScaleBias => "scale_bias",
            ShapeKernel::Transpose => "transpose",
            ShapeKernel::TransposeBlock => "transpose_block",
            ShapeKernel::TransposeOrder => "transpose_order",
            ShapeKernel::ColSumStep => "col_sum_step",
            ShapeKernel::ColSumEnd => "col_sum_end",
            ShapeKernel::ColSumStaged => "col_sum_staged",
            ShapeKernel::ColSumPtrs => "col_sum_ptrs",
            ShapeKernel::ColSumBlock => "col_sum_block",
            ShapeKernel::Gelu => "gelu",
            ShapeKernel::GeluFast => "gelu_fast",
            ShapeKernel::ChunkCumsum => "chunk_cumsum",
            ShapeKernel::ChunkCumsumPtrs => "chunk_cumsum_ptrs",
            ShapeKernel::ChunkCumsumRev => "chunk_cumsum_rev",
            ShapeKernel::RowCumsum => "row_cumsum",
            ShapeKernel::LayerNormLoop => "layer_norm_loop",
            ShapeKernel::RowSumLoop => "row_sum_loop",
            ShapeKernel::SoftmaxOnline => "softmax_online",
        }
    }

    /// The kernel named `name`.
    pub fn from_name(name: &str) -> Option<ShapeKernel> {
        ShapeKernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether it is one of the transposes (`y` is `[N, M]`).
    pub fn is_transpose(self) -> bool {
        matches!(
            self,
            ShapeKernel::Transpose | ShapeKernel::TransposeBlock | ShapeKernel::TransposeOrder
        )
    }

    /// Whether it is one of the chunked prefix sums.
    pub fn is_chunk_scan(self) -> bool {
        matches!(
            self,
            ShapeKernel::ChunkCumsum | ShapeKernel::ChunkCumsumPtrs | ShapeKernel::ChunkCumsumRev
        )
    }

    /// How its programs cover the input.
    pub fn cover(self) -> Cover {
        match self {
            ShapeKernel::Softmax
            | ShapeKernel::LayerNorm
            | ShapeKernel::LayerNormY
            | ShapeKernel::LayerNormBlock
            | ShapeKernel::RowCumsum => Cover::Rows,
            ShapeKernel::ColSumStep
            | ShapeKernel::ColSumEnd
            | ShapeKernel::ColSumStaged
            | ShapeKernel::ColSumPtrs
            | ShapeKernel::ColSumBlock => Cover::Columns,
            ShapeKernel::ChunkCumsum => Cover::TilesByColumns,
            ShapeKernel::LayerNormLoop | ShapeKernel::RowSumLoop | ShapeKernel::SoftmaxOnline => {
                Cover::RowSteps
            }
            _ => Cover::Tiles,
        }
    }

    /// The element type of its pointer argument `pointer` when the input
    /// is `dtype`: `f32` for `Mean`, `Rstd`, the column and the row sums,
    /// else `dtype`.
    pub fn pointer_type(self, pointer: &str, dtype: DType) -> DType {
        let sums = self.cover() == Cover::Columns || self == ShapeKernel::RowSumLoop;
        let f32_out = matches!(pointer, "Mean" | "Rstd") || (sums && pointer == "out_ptr");
        if f32_out { DType::F32 } else { dtype }
    }

    /// Whether the pointer argument `pointer` is an output.
    pub fn is_output(self, pointer: &str) -> bool {
        matches!(pointer, "y_ptr" | "Y" | "Mean" | "Rstd" | "out_ptr")
    }

    /// The names of its pointer arguments, in order (each followed by the
    /// scalars of [`kernel`]'s docs).
    pub fn pointers(self) -> &'static [&'static str] {
        match self {
            ShapeKernel::Softmax
            | ShapeKernel::Transpose
            | ShapeKernel::TransposeBlock
            | ShapeKernel::TransposeOrder
            | ShapeKernel::ChunkCumsum
            | ShapeKernel::ChunkCumsumPtrs
            | ShapeKernel::ChunkCumsumRev
            | ShapeKernel::RowCumsum
            | ShapeKernel::SoftmaxOnline => &["x_ptr", "y_ptr"],
            ShapeKernel::LayerNorm | ShapeKernel::LayerNormLoop => {
                &["X", "Y", "W", "B", "Mean", "Rstd"]
            }
            ShapeKernel::LayerNormY | ShapeKernel::LayerNormBlock => &["X", "Y", "W", "B"],
            ShapeKernel::ScaleBias => &["x_ptr", "scale_ptr", "bias_ptr", "out_ptr"],
            ShapeKernel::ColSumStep
            | ShapeKernel::ColSumEnd
            | ShapeKernel::ColSumStaged
            | ShapeKernel::ColSumPtrs
            | ShapeKernel::ColSumBlock
            | ShapeKernel::RowSumLoop => &["x_ptr", "out_ptr"],
            ShapeKernel::Gelu | ShapeKernel::GeluFast => &["x_ptr", "bias_ptr", "y_ptr"],
        }
    }
}

/// The tile of one program: `[BM, BN]` (`BN` is `BLOCK_N`, at least the
/// row length, for [`Cover::Rows`] kernels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tiles {
    /// Rows of the tile.
    pub bm: i64,
    /// Columns of the tile.
    pub bn: i64,
}

/// `BLOCK_N` of a [`Cover::Rows`] kernel on rows of `n`: the next power of
/// two (as `triton.next_power_of_2`).
pub fn block_n(n: usize) -> i64 {
    n.next_power_of_two() as i64
}

/// The launch grid of `kernel` with `tiles` over an `[m, n]` input (see
/// [`Cover`]).
pub fn grid(kernel: ShapeKernel, tiles: Tiles, (m, n): (usize, usize)) -> (u32, u32) {
    let cdiv = |a: usize, b: i64| u32::try_from(a.div_ceil(b as usize)).unwrap_or(u32::MAX);
    match kernel.cover() {
        Cover::Rows | Cover::RowSteps => (cdiv(m, tiles.bm), 1),
        Cover::Tiles => (cdiv(m, tiles.bm), cdiv(n, tiles.bn)),
        Cover::TilesByColumns => (cdiv(n, tiles.bn), cdiv(m, tiles.bm)),
        Cover::Columns => (cdiv(n, tiles.bn), 1),
    }
}

/// The stages the staged column sums' loops ask for.
pub const STREAM_STAGES: u32 = 3;

/// `sqrt(2 / pi)`, the tanh-GELU's inner scale.
pub const GELU_K0: f64 = 0.797_884_560_802_865_4;

/// The tanh-GELU's cubic coefficient.
pub const GELU_K1: f64 = 0.044715;

/// `eps` of the LayerNorms (PyTorch's default).
pub const EPS: f32 = 1e-5;

/// The kernel `kernel` with `tiles`, reading a `dtype` input.
///
/// Arguments after the pointers ([`ShapeKernel::pointers`], all `dtype`
/// but `Mean`, `Rstd` and the column and row sums' `out_ptr`, which are
/// `f32`): `M`, `N` (`i32`), then the row strides: `stride_x`, `stride_y`
/// (the softmaxes, the transposes: `y` is `[N, M]`, GELU, the prefix
/// sums), `stride` (LayerNorms, then `eps`, `f32`), `stride_x`,
/// `stride_out` (scale-bias), `stride_x` (column and row sums). Tile
/// sizes must be powers of two.
pub fn kernel<'c>(
    context: &'c melior::Context,
    kernel: ShapeKernel,
    tiles: Tiles,
    dtype: DType,
) -> Result<Kernel<'c>> {
    let name = format!("shapes_{}", kernel.name());
    Kernel::build(context, &name, |k| {
        let ptrs: Vec<Tile> = kernel
            .pointers()
            .iter()
            .map(|&p| k.arg_ptr(p, kernel.pointer_type(p, dtype)))
            .collect();
        let m = k.arg("M", DType::I32);
        let n = k.arg("N", DType::I32);
        let sizes = Sizes { m, n, tiles, dtype };
        match kernel {
            ShapeKernel::Softmax => softmax(k, sizes, &ptrs),
            ShapeKernel::LayerNorm => layer_norm(k, sizes, &ptrs, true),
            ShapeKernel::LayerNormY => layer_norm(k, sizes, &ptrs, false),
            ShapeKernel::LayerNormBlock => block_rows::layer_norm_block(k, sizes, &ptrs),
            ShapeKernel::ScaleBias => scale_bias(k, sizes, &ptrs),
            ShapeKernel::Transpose => transposes::transpose(k, sizes, &ptrs),
            ShapeKernel::TransposeBlock => transposes::transpose_block(k, sizes, &ptrs),
            ShapeKernel::TransposeOrder => transposes::transpose_order(k, sizes, &ptrs),
            ShapeKernel::ColSumStep => column_sums::col_sum(k, sizes, &ptrs, true, None),
            ShapeKernel::ColSumEnd => column_sums::col_sum(k, sizes, &ptrs, false, None),
            ShapeKernel::ColSumStaged => {
                column_sums::col_sum(k, sizes, &ptrs, false, Some(STREAM_STAGES))
            }
            ShapeKernel::ColSumPtrs => column_sums::col_sum_ptrs(k, sizes, &ptrs),
            ShapeKernel::ColSumBlock => column_sums::col_sum_block(k, sizes, &ptrs),
            ShapeKernel::Gelu => gelu(k, sizes, &ptrs, false),
            ShapeKernel::GeluFast => gelu(k, sizes, &ptrs, true),
            ShapeKernel::ChunkCumsum => scans::chunk_cumsum_block(k, sizes, &ptrs),
            ShapeKernel::ChunkCumsumPtrs => scans::chunk_cumsum_ptrs(k, sizes, &ptrs, false),
            ShapeKernel::ChunkCumsumRev => scans::chunk_cumsum_ptrs(k, sizes, &ptrs, true),
            ShapeKernel::RowCumsum => scans::row_cumsum(k, sizes, &ptrs),
            ShapeKernel::LayerNormLoop => row_loops::layer_norm_loop(k, sizes, &ptrs),
            ShapeKernel::RowSumLoop => row_loops::row_sum_loop(k, sizes, &ptrs),
            ShapeKernel::SoftmaxOnline => row_loops::softmax_online(k, sizes, &ptrs),
        }
    })
}

/// The sizes every kernel takes, its tiles and its input type.
#[derive(Clone, Copy)]
struct Sizes<'k> {
    m: Tile<'k>,
    n: Tile<'k>,
    tiles: Tiles,
    dtype: DType,
}

impl<'k> Sizes<'k> {
    /// `BM` and `BN` as the builder's `i32`s.
    fn bm_bn(&self) -> (i32, i32) {
        (self.tiles.bm as i32, self.tiles.bn as i32)
    }
}

/// `rows[:, None] * stride + cols[None, :]`.
fn offsets<'k>(rows: Tile<'k>, stride: Tile<'k>, cols: Tile<'k>) -> Tile<'k> {
    rows.expand_dims(1) * stride + cols.expand_dims(0)
}

/// `(rows[:, None] < M) & (cols[None, :] < N)`.
fn mask_2d<'k>(rows: Tile<'k>, m: Tile<'k>, cols: Tile<'k>, n: Tile<'k>) -> Tile<'k> {
    rows.expand_dims(1).lt(m) & cols.expand_dims(0).lt(n)
}

/// This program's `BM` rows and `BN` columns: a row block on axis 0 and,
/// for a 2-D grid, a column block on axis 1 (`None`: columns from 0).
fn rows_cols<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, axis1: bool) -> (Tile<'k>, Tile<'k>) {
    let (bm, bn) = s.bm_bn();
    let rows = k.program_id(0) * bm + k.arange(0, bm);
    let cols = if axis1 {
        k.program_id(1) * bn + k.arange(0, bn)
    } else {
        k.arange(0, bn)
    };
    (rows, cols)
}

fn softmax<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (rows, cols) = rows_cols(k, s, false);
    let mask = mask_2d(rows, s.m, cols, s.n);
    let x = k
        .load(p[0] + offsets(rows, stride_x, cols))
        .mask(mask)
        .other(f64::NEG_INFINITY)
        .build()
        .to(DType::F32);
    let z = x - x.max(1).expand_dims(1);
    let num = z.exp();
    let den = num.sum(1);
    let y = num / den.expand_dims(1);
    k.store(p[1] + offsets(rows, stride_y, cols), y.to(s.dtype))
        .mask(mask)
        .build();
}

/// Tutorial 05's forward in one pass over a `[BM, BLOCK_N]` tile: the
/// mean, the biased variance of the masked, centred values, `1 /
/// sqrt(var + eps)`, then `Y`; with `stats`, `Mean` and `Rstd` too.
fn layer_norm<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>], stats: bool) {
    let stride = k.arg("stride", DType::I32);
    let eps = k.arg("eps", DType::F32);
    let (rows, cols) = rows_cols(k, s, false);
    let (row_mask, col_mask) = (rows.lt(s.m), cols.lt(s.n));
    let mask = row_mask.expand_dims(1) & col_mask.expand_dims(0);
    let at = offsets(rows, stride, cols);
    let x = k
        .load(p[0] + at)
        .mask(mask)
        .other(0.0)
        .build()
        .to(DType::F32);
    let n = s.n.to(DType::F32);
    let mean = x.sum(1) / n;
    let xc = k.where_(mask, x - mean.expand_dims(1), 0.0);
    let var = (xc * xc).sum(1) / n;
    let rstd = 1.0f32 / (var + eps).sqrt();
    let w = k.load(p[2] + cols).mask(col_mask).build().to(DType::F32);
    let b = k.load(p[3] + cols).mask(col_mask).build().to(DType::F32);
    let x_hat = xc * rstd.expand_dims(1);
    let y = x_hat * w.expand_dims(0) + b.expand_dims(0);
    k.store(p[1] + at, y.to(s.dtype)).mask(mask).build();
    if stats {
        k.store(p[4] + rows, mean).mask(row_mask).build();
        k.store(p[5] + rows, rstd).mask(row_mask).build();
    }
}

fn scale_bias<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>]) {
    let stride_x = k.arg("stride_x", DType::I32);
    let stride_out = k.arg("stride_out", DType::I32);
    let (rows, cols) = rows_cols(k, s, true);
    let mask = mask_2d(rows, s.m, cols, s.n);
    let x = k
        .load(p[0] + offsets(rows, stride_x, cols))
        .mask(mask)
        .build()
        .to(DType::F32);
    let scale = k
        .load(p[1] + rows)
        .mask(rows.lt(s.m))
        .build()
        .to(DType::F32);
    let bias = k
        .load(p[2] + cols)
        .mask(cols.lt(s.n))
        .build()
        .to(DType::F32);
    let out = x * scale.expand_dims(1) + bias.expand_dims(0);
    k.store(p[3] + offsets(rows, stride_out, cols), out.to(s.dtype))
        .mask(mask)
        .build();
}

/// The block of `block`, both axes checked and padded with zeros, in
/// f32.
fn zero_padded<'k>(k: &'k KernelBuilder<'k>, block: Tile<'k>) -> Tile<'k> {
    k.load(block)
        .boundary_check(&[0, 1])
        .padding(Padding::Zero)
        .build()
        .to(DType::F32)
}

/// `gelu_tanh(x + bias[None, :])` in f32, its `tanh` accurate or, with
/// `fast`, `tanh_approx`.
fn gelu<'k>(k: &'k KernelBuilder<'k>, s: Sizes<'k>, p: &[Tile<'k>], fast: bool) {
    let (stride_x, stride_y) = (k.arg("stride_x", DType::I32), k.arg("stride_y", DType::I32));
    let (rows, cols) = rows_cols(k, s, true);
    let mask = mask_2d(rows, s.m, cols, s.n);
    let x = k
        .load(p[0] + offsets(rows, stride_x, cols))
        .mask(mask)
        .other(0.0)
        .build()
        .to(DType::F32);
    let b = k
        .load(p[1] + cols)
        .mask(cols.lt(s.n))
        .other(0.0)
        .build()
        .to(DType::F32);
    let h = x + b.expand_dims(0);
    let inner = (h + h * h * h * GELU_K1) * GELU_K0;
    let t = if fast {
        inner.tanh_approx()
    } else {
        inner.tanh()
    };
    let y = h * 0.5 * (t + 1.0);
    k.store(p[2] + offsets(rows, stride_y, cols), y.to(s.dtype))
        .mask(mask)
        .build();
}

/// The largest relative error of `tanh.approx.f32`, `2^-10.987` (the PTX
/// ISA's bound), which [`ShapeKernel::GeluFast`]'s `tanh` may make.
pub const TANH_APPROX_REL_ERROR: f64 = 4.927_009_930_882_233e-4;

/// The tanh-GELU of `h`, in f64 (the reference: `tanh` exact).
pub fn gelu_reference(h: f64) -> f64 {
    0.5 * h * (1.0 + (GELU_K0 * (h + GELU_K1 * h * h * h)).tanh())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_builds_at_several_tiles_and_types() {
        let context = tile_dialect::new_context().unwrap();
        for kernel in ShapeKernel::ALL {
            assert_eq!(ShapeKernel::from_name(kernel.name()), Some(kernel));
            for (bm, bn) in [(1, 256), (4, 1024), (32, 32), (128, 32)] {
                for dtype in [DType::F32, DType::F16] {
                    let built = super::kernel(&context, kernel, Tiles { bm, bn }, dtype)
                        .unwrap_or_else(|e| panic!("{} {bm}x{bn} {dtype}: {e}", kernel.name()));
                    let pointers = kernel.pointers().len();
                    assert!(built.params().len() > pointers + 2, "{}", kernel.name());
                }
            }
        }
        assert_eq!(ShapeKernel::from_name("nope"), None);
        let odd = super::kernel(
            &context,
            ShapeKernel::Transpose,
            Tiles { bm: 48, bn: 32 },
            DType::F32,
        );
        assert!(odd.is_err());
    }

    #[test]
    fn grids_cover_the_input() {
        let t = Tiles { bm: 4, bn: 64 };
        assert_eq!(grid(ShapeKernel::Softmax, t, (37, 200)), (10, 1));
        assert_eq!(grid(ShapeKernel::Transpose, t, (37, 200)), (10, 4));
        assert_eq!(grid(ShapeKernel::ColSumEnd, t, (37, 200)), (4, 1));
        assert_eq!(grid(ShapeKernel::ChunkCumsum, t, (37, 200)), (4, 10));
        assert_eq!(grid(ShapeKernel::ChunkCumsumPtrs, t, (37, 200)), (10, 4));
        assert_eq!(block_n(1000), 1024);
        assert_eq!(block_n(4096), 4096);
        assert!((gelu_reference(1.0) - 0.841_191_990).abs() < 1e-8);
        assert_eq!(gelu_reference(0.0), 0.0);
        assert!((TANH_APPROX_REL_ERROR / 2f64.powf(-10.987) - 1.0).abs() < 1e-12);
    }
}
