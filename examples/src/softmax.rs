//! Row softmax, the kernel seed 000 warns about: a max reduction needs
//! `other = -inf` on the boundary tile, or masked lanes win with 0.
//!
//! ```python
//! @triton.jit
//! def softmax(x_ptr, out_ptr, stride_xr, stride_outr, n_cols, BLOCK: tl.constexpr):
//!     row  = tl.program_id(0)
//!     offs = tl.arange(0, BLOCK)
//!     m    = offs < n_cols
//!     x    = tl.load(x_ptr + row * stride_xr + offs, mask=m, other=-float('inf'))
//!     z    = x - tl.max(x, axis=0)
//!     num  = tl.exp(z)
//!     den  = tl.sum(num, axis=0)
//!     tl.store(out_ptr + row * stride_outr + offs, num / den, mask=m)
//! ```
//!
//! Launch one program per row: a grid of `(n_rows,)`.

use tile_dialect::{DType, Kernel, Result};

/// The default `BLOCK` (rows of up to 1024 columns).
pub const BLOCK: i32 = 1024;

/// `out[r, :] = softmax(x[r, :])`, one program per row.
///
/// Arguments: `x_ptr`, `out_ptr` (`f32` pointers), `stride_xr`,
/// `stride_outr` (`i32` row strides, in elements; columns are contiguous),
/// `n_cols` (`i32`). `block` must be a power of two with `block >= n_cols`.
/// Masked-off lanes read `-inf`, so they neither win the max nor add to the
/// sum (`exp(-inf) = 0`), and are not stored.
pub fn softmax<'c>(context: &'c melior::Context, block: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "softmax", |k| {
        let x_ptr = k.arg_ptr("x_ptr", DType::F32);
        let out_ptr = k.arg_ptr("out_ptr", DType::F32);
        let stride_xr = k.arg("stride_xr", DType::I32);
        let stride_outr = k.arg("stride_outr", DType::I32);
        let n_cols = k.arg("n_cols", DType::I32);

        let row = k.program_id(0);
        let offs = k.arange(0, block);
        let m = offs.lt(n_cols);
        let x = k
            .load(x_ptr + row * stride_xr + offs)
            .mask(m)
            .other(f64::NEG_INFINITY)
            .build();
        let z = x - x.max(0);
        let num = z.exp();
        let den = num.sum(0);
        k.store(out_ptr + row * stride_outr + offs, num / den)
            .mask(m)
            .build();
    })
}
