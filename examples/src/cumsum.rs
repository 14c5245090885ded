//! The inclusive prefix sum of a vector of any length, across programs,
//! in three launches:
//!
//! 1. [`block_scan`]: each program scans its `block` elements
//!    (`cumsum`) and writes its block's total to `Sums`;
//! 2. [`scan_sums`]: one program scans the totals in place, `block` at a
//!    time, carrying the running total between chunks;
//! 3. [`add_offsets`]: each program but the first adds the scanned total
//!    of the blocks before it.
//!
//! ```python
//! @triton.jit
//! def block_scan(X, Y, Sums, N, BLOCK: tl.constexpr):
//!     pid = tl.program_id(0)
//!     offs = pid * BLOCK + tl.arange(0, BLOCK)
//!     x = tl.load(X + offs, mask=offs < N, other=0)
//!     tl.store(Y + offs, tl.cumsum(x, 0), mask=offs < N)
//!     tl.store(Sums + pid, tl.sum(x, 0))
//! ```
//!
//! Integer sums wrap, so an `i32` prefix sum is exact; `f32` sums group
//! their terms by block.

use tile_dialect::{DType, Kernel, Result};

/// The default `BLOCK`.
pub const BLOCK: i32 = 1024;

/// `Y[b*block..][..block] = cumsum(X[..]); Sums[b] = sum(X[..])`.
///
/// Arguments: `X`, `Y`, `Sums` (pointers to `d`), `N` (`i32`).
pub fn block_scan<'c>(context: &'c melior::Context, block: i32, d: DType) -> Result<Kernel<'c>> {
    Kernel::build(context, "block_scan", |k| {
        let x_ptr = k.arg_ptr("X", d);
        let y_ptr = k.arg_ptr("Y", d);
        let sums = k.arg_ptr("Sums", d);
        let n = k.arg("N", DType::I32);
        let pid = k.program_id(0);
        let offs = pid * block + k.arange(0, block);
        let m = offs.lt(n);
        let x = k.load(x_ptr + offs).mask(m).other(0).build();
        k.store(y_ptr + offs, x.cumsum(0)).mask(m).build();
        k.store(sums + pid, x.sum(0)).build();
    })
}

/// `Sums[..B] = cumsum(Sums[..B])`, by one program.
///
/// Arguments: `Sums` (pointer to `d`), `B` (`i32`, the number of blocks).
pub fn scan_sums<'c>(context: &'c melior::Context, block: i32, d: DType) -> Result<Kernel<'c>> {
    Kernel::build(context, "scan_sums", |k| {
        let sums = k.arg_ptr("Sums", d);
        let b = k.arg("B", DType::I32);
        let carry = k.constant(0, d);
        k.for_range(0, b, block, [carry], |off, [carry]| {
            let offs = off + k.arange(0, block);
            let m = offs.lt(b);
            let s = k.load(sums + offs).mask(m).other(0).build();
            let scanned = s.cumsum(0) + carry;
            k.store(sums + offs, scanned).mask(m).build();
            [carry + s.sum(0)]
        });
    })
}

/// `Y[b*block..][..block] += Sums[b - 1]` for every block `b > 0`.
///
/// Arguments: `Y`, `Sums` (pointers to `d`), `N` (`i32`).
pub fn add_offsets<'c>(context: &'c melior::Context, block: i32, d: DType) -> Result<Kernel<'c>> {
    Kernel::build(context, "add_offsets", |k| {
        let y_ptr = k.arg_ptr("Y", d);
        let sums = k.arg_ptr("Sums", d);
        let n = k.arg("N", DType::I32);
        let pid = k.program_id(0);
        let offs = pid * block + k.arange(0, block);
        let m = offs.lt(n);
        let before = k
            .load(sums + (pid - 1).maximum(0))
            .mask(pid.gt(0))
            .other(0)
            .build();
        let y = k.load(y_ptr + offs).mask(m).build();
        k.store(y_ptr + offs, y + before).mask(m).build();
    })
}
