//! Seed 002: the iterative row sum through a block pointer and `advance`.
//!
//! ```python
//! @triton.jit
//! def sum_row_blocked_iterative_kernel(A_ptr, outputs_ptr, M, N,
//!                                      BLOCK_N: tl.constexpr,
//!                                      A_strides_x, A_strides_y):
//!     program_id = tl.program_id(axis=0)
//!     input_block_ptr = tl.make_block_ptr(
//!         base=A_ptr, shape=(M, N), strides=(A_strides_x, A_strides_y),
//!         offsets=(program_id, 0), block_shape=(1, BLOCK_N), order=(1, 0))
//!     output_block_ptr = tl.make_block_ptr(
//!         base=outputs_ptr, shape=(M, ), strides=(1, ),
//!         offsets=(program_id, ), block_shape=(1, ), order=(0, ))
//!     accumulator = tl.zeros((1, ), dtype=tl.float32)
//!     for _ in range(0, N, BLOCK_N):
//!         input_block = tl.load(input_block_ptr, boundary_check=(0, 1))
//!         accumulator += tl.sum(input_block, axis=1)
//!         input_block_ptr = tl.advance(input_block_ptr, (0, BLOCK_N))
//!     tl.store(output_block_ptr, accumulator)
//! ```
//!
//! `M` and `N` are runtime arguments here (the seed makes them
//! `constexpr`, which only the Python launcher needs). Launch one program
//! per row: a grid of `(M,)`.

use tile_dialect::{DType, Kernel, Padding, Result};

/// The default `BLOCK_N`.
pub const BLOCK_N: i64 = 1024;

/// `outputs[r] = sum(A[r, :])`, one program per row, reading `block_n`
/// columns per iteration and accumulating in `f32`.
///
/// Arguments: `a_ptr` (a pointer to `dtype`: `f32`, or `f16`/`bf16`, which
/// are widened to `f32` before summing), `outputs_ptr` (`f32`), `m`, `n` (`i32`),
/// `a_strides_x`, `a_strides_y` (`i64`, in elements). The loop runs
/// `cdiv(n, block_n)` times (`for _ in range(0, n, block_n)`), each load
/// boundary-checked on both axes with zero padding, and advances the block
/// pointer by `(0, block_n)`. `block_n` must be a power of two.
pub fn row_sum<'c>(context: &'c melior::Context, block_n: i64, dtype: DType) -> Result<Kernel<'c>> {
    Kernel::build(context, "row_sum", |k| {
        let a_ptr = k.arg_ptr("a_ptr", dtype);
        let outputs_ptr = k.arg_ptr("outputs_ptr", DType::F32);
        let m = k.arg("m", DType::I32);
        let n = k.arg("n", DType::I32);
        let a_strides_x = k.arg("a_strides_x", DType::I64);
        let a_strides_y = k.arg("a_strides_y", DType::I64);

        let program_id = k.program_id(0);
        let input_block_ptr = k
            .make_block_ptr(a_ptr)
            .shape([m, n])
            .strides([a_strides_x, a_strides_y])
            .offsets([program_id, k.i32(0)])
            .block_shape([1, block_n])
            .order([1, 0])
            .build();
        let output_block_ptr = k
            .make_block_ptr(outputs_ptr)
            .shape([m])
            .strides([1])
            .offsets([program_id])
            .block_shape([1])
            .order([0])
            .build();

        let accumulator = k.zeros(&[1], DType::F32);
        let [accumulator, _] = k.for_range(
            0,
            n,
            block_n,
            [accumulator, input_block_ptr],
            |_, [accumulator, input_block_ptr]| {
                let input_block = k
                    .load(input_block_ptr)
                    .boundary_check(&[0, 1])
                    .padding(Padding::Zero)
                    .build()
                    .to(DType::F32);
                [
                    accumulator + input_block.sum(1),
                    input_block_ptr.advance([0, block_n]),
                ]
            },
        );
        k.store(output_block_ptr, accumulator).build();
    })
}
