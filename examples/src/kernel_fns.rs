//! The seed kernels written as Rust functions with `#[tile::kernel]`,
//! beside their builder versions (the modules of the same names one level
//! up): each builds the same IR, op for op, so it compiles to the same
//! PTX (`tests/it/kernel_fn.rs` compares them), and `gpu-check
//! kernel-fns` runs them on the GPU.
//!
//! Each becomes a module: `vector_add::launch(&device, grid, &x, &y,
//! &mut out, n, block)` launches it with its arguments type-checked by
//! Rust; `vector_add::build(&context, block)` gives the [`tile::Kernel`].

use tile::prelude::*;

/// `out[i] = x[i] + y[i]` for `i < n` (the builder's
/// [`crate::vector_add::safe_kernel`]).
#[tile::kernel]
pub fn safe_kernel(
    x_ptr: Ptr<f32>,
    y_ptr: Ptr<f32>,
    out_ptr: Ptr<f32>,
    n: i32,
    #[constexpr] block: i32,
) {
    let pid = program_id(0);
    let offs = pid * block + arange(0, block);
    let m = offs.lt(n);
    let x = load(x_ptr + offs).mask(m).other(0.0).build();
    let y = load(y_ptr + offs).mask(m).other(0.0).build();
    let z = x + y;
    store(out_ptr + offs, z).mask(m).build();
}

/// A numerically stable softmax of each row, one program per row (the
/// builder's [`crate::softmax::softmax`]).
#[tile::kernel]
pub fn softmax(
    x_ptr: Ptr<f32>,
    out_ptr: Ptr<f32>,
    stride_xr: i32,
    stride_outr: i32,
    n_cols: i32,
    #[constexpr] block: i32,
) {
    let row = program_id(0);
    let offs = arange(0, block);
    let m = offs.lt(n_cols);
    let x = load(x_ptr + row * stride_xr + offs)
        .mask(m)
        .other(f64::NEG_INFINITY)
        .build();
    let z = x - x.max(0);
    let num = z.exp();
    let den = num.sum(0);
    store(out_ptr + row * stride_outr + offs, num / den)
        .mask(m)
        .build();
}

/// LayerNorm forward, one program per row, `block_size` columns a step
/// (the builder's [`crate::layer_norm::layer_norm_fwd`]): three loops,
/// the first two carrying their sums.
#[tile::kernel]
pub fn layer_norm_fwd(
    X: Ptr<f32>,
    Y: Ptr<f32>,
    W: Ptr<f32>,
    B: Ptr<f32>,
    Mean: Ptr<f32>,
    Rstd: Ptr<f32>,
    stride: i32,
    N: i32,
    eps: f32,
    #[constexpr] block_size: i32,
) {
    let row = program_id(0);
    let x_row = X + row * stride;
    let y_row = Y + row * stride;
    let block = i64::from(block_size);

    let mut sum = zeros(&[block], DType::F32);
    for off in range(0, N, block_size) {
        let cols = off + arange(0, block_size);
        let a = load(x_row + cols).mask(cols.lt(N)).other(0.0).build();
        sum += a;
    }
    let mean = sum.sum(0) / N.to(DType::F32);

    let mut squares = zeros(&[block], DType::F32);
    for off in range(0, N, block_size) {
        let cols = off + arange(0, block_size);
        let m = cols.lt(N);
        let x = load(x_row + cols).mask(m).other(0.0).build();
        let d = where_(m, x - mean, 0.0);
        squares = squares + d * d;
    }
    let var = squares.sum(0) / N.to(DType::F32);
    let rstd = 1.0f32 / (var + eps).sqrt();
    store(Mean + row, mean).build();
    store(Rstd + row, rstd).build();

    for off in range(0, N, block_size) {
        let cols = off + arange(0, block_size);
        let mask = cols.lt(N);
        let w = load(W + cols).mask(mask).build();
        let b = load(B + cols).mask(mask).build();
        let x = load(x_row + cols).mask(mask).other(0.0).build();
        let x_hat = (x - mean) * rstd;
        store(y_row + cols, x_hat * w + b).mask(mask).build();
    }
}

/// `C = A @ B` in f16 with f32 accumulation and output, through block
/// pointers, programs in groups of `group_m` block-rows (the builder's
/// [`crate::matmul::matmul`] with row-major operands and no epilogue).
#[tile::kernel]
pub fn matmul(
    a_ptr: Ptr<f16>,
    b_ptr: Ptr<f16>,
    c_ptr: Ptr<f32>,
    m: i32,
    n: i32,
    k: i32,
    stride_am: i64,
    stride_ak: i64,
    stride_bk: i64,
    stride_bn: i64,
    stride_cm: i64,
    stride_cn: i64,
    #[constexpr] block_m: i64,
    #[constexpr] block_n: i64,
    #[constexpr] block_k: i64,
    #[constexpr] group_m: i64,
) {
    let pid = program_id(0);
    let num_pid_m = m.cdiv(block_m as i32);
    let num_pid_n = n.cdiv(block_n as i32);
    let num_pid_in_group = num_pid_n * group_m as i32;
    let group_id = pid / num_pid_in_group;
    let first_pid_m = group_id * group_m as i32;
    let group_size_m = (num_pid_m - first_pid_m).minimum(group_m as i32);
    let in_group = pid % num_pid_in_group;
    let pid_m = first_pid_m + in_group % group_size_m;
    let pid_n = in_group / group_size_m;

    let mut a = make_block_ptr(a_ptr)
        .shape([m, k])
        .strides([stride_am, stride_ak])
        .offsets([pid_m * block_m, i32(0)])
        .block_shape([block_m, block_k])
        .order([1, 0])
        .build();
    let mut b = make_block_ptr(b_ptr)
        .shape([k, n])
        .strides([stride_bk, stride_bn])
        .offsets([i32(0), pid_n * block_n])
        .block_shape([block_k, block_n])
        .order([1, 0])
        .build();
    let mut acc = zeros(&[block_m, block_n], DType::F32);
    for _ in range(0, k.cdiv(block_k as i32), 1) {
        let a_tile = load(a)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build();
        let b_tile = load(b)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build();
        acc = dot(a_tile, b_tile).acc(acc).build();
        a = a.advance([0, block_k]);
        b = b.advance([block_k, 0]);
    }
    let c = make_block_ptr(c_ptr)
        .shape([m, n])
        .strides([stride_cm, stride_cn])
        .offsets([pid_m * block_m, pid_n * block_n])
        .block_shape([block_m, block_n])
        .order([1, 0])
        .build();
    store(c, acc.to(DType::F32)).boundary_check(&[0, 1]).build();
}
