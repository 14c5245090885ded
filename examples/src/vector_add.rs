//! Seed 000: the masked 1-D vector add, `safe_kernel`.
//!
//! ```python
//! @triton.jit
//! def safe_kernel(x_ptr, y_ptr, out_ptr, N, BLOCK: tl.constexpr):
//!     pid  = tl.program_id(0)
//!     offs = pid * BLOCK + tl.arange(0, BLOCK)
//!     m    = offs < N
//!     x    = tl.load(x_ptr + offs, mask=m, other=0.0)
//!     y    = tl.load(y_ptr + offs, mask=m, other=0.0)
//!     z    = x + y
//!     tl.store(out_ptr + offs, z, mask=m)
//! ```
//!
//! Launch it on a grid of `cdiv(n, block)` programs.

use tile_dialect::{DType, Kernel, Result};

/// The default `BLOCK`.
pub const BLOCK: i32 = 1024;

/// `out[i] = x[i] + y[i]` for `i < n`, `block` elements per program.
///
/// Arguments: `x_ptr`, `y_ptr`, `out_ptr` (`f32` pointers), `n` (`i32`).
/// `block` must be a power of two. Every load and store is masked by
/// `offs < n`, so `n` need not be a multiple of `block`.
pub fn safe_kernel<'c>(context: &'c melior::Context, block: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "safe_kernel", |k| {
        let x_ptr = k.arg_ptr("x_ptr", DType::F32);
        let y_ptr = k.arg_ptr("y_ptr", DType::F32);
        let out_ptr = k.arg_ptr("out_ptr", DType::F32);
        let n = k.arg("n", DType::I32);

        let pid = k.program_id(0);
        let offs = pid * block + k.arange(0, block);
        let m = offs.lt(n);
        let x = k.load(x_ptr + offs).mask(m).other(0.0).build();
        let y = k.load(y_ptr + offs).mask(m).other(0.0).build();
        let z = x + y;
        k.store(out_ptr + offs, z).mask(m).build();
    })
}
