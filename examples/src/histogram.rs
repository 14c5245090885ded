//! A histogram with atomic adds: each program counts `block` values into
//! shared bins in global memory.
//!
//! ```python
//! @triton.jit
//! def histogram(X, H, N, BINS, BLOCK: tl.constexpr):
//!     offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
//!     m = offs < N
//!     x = tl.load(X + offs, mask=m, other=0)
//!     tl.atomic_add(H + x, 1, mask=m & (x >= 0) & (x < BINS), sem="relaxed")
//! ```
//!
//! Values outside `0..BINS` are not counted. Launch `ceil(N / block)`
//! programs on zeroed bins.

use tile_dialect::{DType, Kernel, MemSem, Result};

/// The default `BLOCK`.
pub const BLOCK: i32 = 1024;

/// `H[x] += 1` for every `x` of `X[:N]` in `0..BINS`.
///
/// Arguments: `X` (`i32` values), `H` (`i32` bins), `N` and `BINS`
/// (`i32`). `block` must be a power of two.
pub fn histogram<'c>(context: &'c melior::Context, block: i32) -> Result<Kernel<'c>> {
    Kernel::build(context, "histogram", |k| {
        let x_ptr = k.arg_ptr("X", DType::I32);
        let h_ptr = k.arg_ptr("H", DType::I32);
        let n = k.arg("N", DType::I32);
        let bins = k.arg("BINS", DType::I32);
        let offs = k.program_id(0) * block + k.arange(0, block);
        let m = offs.lt(n);
        let x = k.load(x_ptr + offs).mask(m).other(0).build();
        let counted = m & x.ge(0) & x.lt(bins);
        let _old = k
            .atomic_add(h_ptr + x, 1)
            .mask(counted)
            .sem(MemSem::Relaxed)
            .build();
    })
}
