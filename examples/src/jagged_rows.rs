//! Rows of a jagged tensor gathered into a dense one: each row starts at an
//! element offset read from memory (as the rows of a packed batch of
//! sequences do), which no analysis can know. With `hinted`, the kernel
//! states what its caller guarantees, as a Triton user writes
//! `tl.multiple_of(start, 4)`: every start is a multiple of 4 elements
//! (16 bytes of f32), so each row is read 16 bytes an access.
//!
//! ```python
//! @triton.jit
//! def jagged_rows(src, starts, dst, rows, width, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
//!     r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
//!     start = tl.load(starts + r, mask=r < rows, other=0)
//!     start = tl.multiple_of(start, 4)          # only with `hinted`
//!     for c0 in range(0, width, BLOCK_C):
//!         c = c0 + tl.arange(0, BLOCK_C)
//!         m = (r < rows)[:, None] & (c < width)[None, :]
//!         v = tl.load(src + start[:, None] + c[None, :], mask=m)
//!         tl.store(dst + r[:, None] * width + c[None, :], v, mask=m)
//! ```
//!
//! Launch it on `cdiv(rows, block_rows)` programs.

use tile_dialect::{DType, Kernel, Result};

/// The default rows per program.
pub const BLOCK_ROWS: i32 = 16;
/// The default columns per step.
pub const BLOCK_COLS: i32 = 128;

/// `dst[r * width + c] = src[starts[r] + c]` for `r < rows`, `c < width`.
///
/// Arguments: `src` (`f32` pointer), `starts` (`i32` pointer, one element
/// offset per row), `dst` (`f32` pointer), `rows` and `width` (`i32`).
/// With `hinted`, every start must be a multiple of 4 (the kernel's
/// results are undefined otherwise).
pub fn jagged_rows<'c>(
    context: &'c melior::Context,
    block_rows: i32,
    block_cols: i32,
    hinted: bool,
) -> Result<Kernel<'c>> {
    Kernel::build(context, "jagged_rows", |k| {
        let src = k.arg_ptr("src", DType::F32);
        let starts = k.arg_ptr("starts", DType::I32);
        let dst = k.arg_ptr("dst", DType::F32);
        let rows = k.arg("rows", DType::I32);
        let width = k.arg("width", DType::I32);

        let r = k.program_id(0) * block_rows + k.arange(0, block_rows);
        let in_rows = r.lt(rows);
        let mut start = k.load(starts + r).mask(in_rows).other(0).build();
        if hinted {
            start = start.multiple_of(&[4]);
        }
        k.for_range(0, width, block_cols, [], |c0, []| {
            let c = c0 + k.arange(0, block_cols);
            let m = in_rows.expand_dims(1) & c.lt(width).expand_dims(0);
            let v = k
                .load(src + (start.expand_dims(1) + c.expand_dims(0)))
                .mask(m)
                .build();
            k.store(dst + (r.expand_dims(1) * width + c.expand_dims(0)), v)
                .mask(m)
                .build();
            []
        });
    })
}

/// What [`jagged_rows`] writes: `rows` rows of `width` elements.
pub fn jagged_rows_reference(src: &[f32], starts: &[i32], width: usize) -> Vec<f32> {
    starts
        .iter()
        .flat_map(|&s| src[s as usize..s as usize + width].iter().copied())
        .collect()
}
