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

/// A 2-D tile through tensors of pointers with masks on both axes,
/// copied (the builder's [`crate::masked_tile_2d::masked_tile_2d`]).
#[tile::kernel]
pub fn masked_tile_2d(
    x_ptr: Ptr<f32>,
    out_ptr: Ptr<f32>,
    m: i32,
    k: i32,
    stride_xm: i32,
    stride_xk: i32,
    stride_om: i32,
    stride_ok: i32,
    #[constexpr] bm: i32,
    #[constexpr] bk: i32,
) {
    let (pid_m, pid_k) = (program_id(0), program_id(1));
    let offs_m = pid_m * bm + arange(0, bm);
    let offs_k = pid_k * bk + arange(0, bk);
    let rows = offs_m.expand_dims(1);
    let cols = offs_k.expand_dims(0);
    let addrs = x_ptr + rows * stride_xm + cols * stride_xk;
    let mask = rows.lt(m) & cols.lt(k);
    let x_tile = load(addrs).mask(mask).other(0.0).build();
    store(out_ptr + rows * stride_om + cols * stride_ok, x_tile)
        .mask(mask)
        .build();
}

/// Each row's sum through a block pointer, `block_n` columns a step, in
/// any element type `T` (the builder's [`crate::row_sum::row_sum`], whose
/// dtype argument is `T` here).
#[tile::kernel]
pub fn row_sum<T>(
    a_ptr: Ptr<T>,
    outputs_ptr: Ptr<f32>,
    m: i32,
    n: i32,
    a_strides_x: i64,
    a_strides_y: i64,
    #[constexpr] block_n: i64,
) {
    let program_id = program_id(0);
    let mut input = make_block_ptr(a_ptr)
        .shape([m, n])
        .strides([a_strides_x, a_strides_y])
        .offsets([program_id, i32(0)])
        .block_shape([1, block_n])
        .order([1, 0])
        .build();
    let output = make_block_ptr(outputs_ptr)
        .shape([m])
        .strides([1])
        .offsets([program_id])
        .block_shape([1])
        .order([0])
        .build();
    let mut accumulator = zeros(&[1], DType::F32);
    for _ in range(0, n, block_n) {
        let block = load(input)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32);
        accumulator = accumulator + block.sum(1);
        input = input.advance([0, block_n]);
    }
    store(output, accumulator).build();
}

/// `output[r] = sum_d x[r, d] * weight[d]` over tiles of rows (the
/// builder's [`crate::weighted_sum::weighted_sum_fwd`]).
#[tile::kernel]
pub fn weighted_sum_fwd<T>(
    x_ptr: Ptr<T>,
    weight_ptr: Ptr<T>,
    output_ptr: Ptr<f32>,
    x_stride_row: i64,
    x_stride_dim: i64,
    weight_stride_dim: i64,
    output_stride_row: i64,
    rows: i32,
    d: i32,
    #[constexpr] rows_tile: i64,
    #[constexpr] d_tile: i64,
) {
    let row_tile_idx = program_id(0);
    let mut x_block = make_block_ptr(x_ptr)
        .shape([rows, d])
        .strides([x_stride_row, x_stride_dim])
        .offsets([row_tile_idx * rows_tile, i32(0)])
        .block_shape([rows_tile, d_tile])
        .order([1, 0])
        .build();
    let mut weight_block = make_block_ptr(weight_ptr)
        .shape([d])
        .strides([weight_stride_dim])
        .offsets([0])
        .block_shape([d_tile])
        .order([0])
        .build();
    let output_block = make_block_ptr(output_ptr)
        .shape([rows])
        .strides([output_stride_row])
        .offsets([row_tile_idx * rows_tile])
        .block_shape([rows_tile])
        .order([0])
        .build();
    let mut output = zeros(&[rows_tile], DType::F32);
    for _ in range(0, d.cdiv(d_tile), 1) {
        let row = load(x_block)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32);
        let weight = load(weight_block)
            .boundary_check(&[0])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32);
        output = output + (row * weight.expand_dims(0)).sum(1);
        x_block = x_block.advance([0, d_tile]);
        weight_block = weight_block.advance([d_tile]);
    }
    store(output_block, output).boundary_check(&[0]).build();
}

/// The weighted sum's backward pass: `grad_x` as an outer product and one
/// partial `grad_weight` row per program (the builder's
/// [`crate::weighted_sum::weighted_sum_bwd`]).
#[tile::kernel]
pub fn weighted_sum_bwd<T>(
    x_ptr: Ptr<T>,
    weight_ptr: Ptr<T>,
    grad_output_ptr: Ptr<T>,
    grad_x_ptr: Ptr<f32>,
    partial_grad_weight_ptr: Ptr<f32>,
    stride_xr: i64,
    stride_xd: i64,
    stride_wd: i64,
    stride_gr: i64,
    stride_gxr: i64,
    stride_gxd: i64,
    stride_gwb: i64,
    stride_gwd: i64,
    num_rows: i32,
    d: i32,
    #[constexpr] rows_tile: i64,
    #[constexpr] d_tile: i64,
) {
    let row_tile_idx = program_id(0);
    let n_row_tiles = num_programs(0);
    let grad_output_block = make_block_ptr(grad_output_ptr)
        .shape([num_rows])
        .strides([stride_gr])
        .offsets([row_tile_idx * rows_tile])
        .block_shape([rows_tile])
        .order([0])
        .build();
    let mut x_block = make_block_ptr(x_ptr)
        .shape([num_rows, d])
        .strides([stride_xr, stride_xd])
        .offsets([row_tile_idx * rows_tile, i32(0)])
        .block_shape([rows_tile, d_tile])
        .order([1, 0])
        .build();
    let mut weight_block = make_block_ptr(weight_ptr)
        .shape([d])
        .strides([stride_wd])
        .offsets([0])
        .block_shape([d_tile])
        .order([0])
        .build();
    let mut grad_x_block = make_block_ptr(grad_x_ptr)
        .shape([num_rows, d])
        .strides([stride_gxr, stride_gxd])
        .offsets([row_tile_idx * rows_tile, i32(0)])
        .block_shape([rows_tile, d_tile])
        .order([1, 0])
        .build();
    let mut partial_grad_weight_block = make_block_ptr(partial_grad_weight_ptr)
        .shape([n_row_tiles, d])
        .strides([stride_gwb, stride_gwd])
        .offsets([row_tile_idx, i32(0)])
        .block_shape([1, d_tile])
        .order([1, 0])
        .build();
    for _ in range(0, d.cdiv(d_tile), 1) {
        let grad_output = load(grad_output_block)
            .boundary_check(&[0])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32);
        let weight = load(weight_block)
            .boundary_check(&[0])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32);
        let grad_x_row = grad_output.expand_dims(1) * weight.expand_dims(0);
        store(grad_x_block, grad_x_row)
            .boundary_check(&[0, 1])
            .build();
        let row = load(x_block)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build()
            .to(DType::F32);
        let grad_weight_row = (row * grad_output.expand_dims(1)).reduce(ReduceKind::Sum, 0, true);
        store(partial_grad_weight_block, grad_weight_row)
            .boundary_check(&[1])
            .build();
        x_block = x_block.advance([0, d_tile]);
        weight_block = weight_block.advance([d_tile]);
        partial_grad_weight_block = partial_grad_weight_block.advance([0, d_tile]);
        grad_x_block = grad_x_block.advance([0, d_tile]);
    }
}

/// One `(BT, BK)` tile of `q` for a head, through a block pointer, copied
/// (the builder's [`crate::attention_tiles::q_tile_load`]).
#[tile::kernel]
pub fn q_tile_load(
    q_ptr: Ptr<f32>,
    o_ptr: Ptr<f32>,
    t: i32,
    hq: i32,
    k: i32,
    #[constexpr] bt: i64,
    #[constexpr] bk: i64,
) {
    let i_t = program_id(0);
    let i_bh = program_id(1);
    let (i_b, i_hq) = (i_bh / hq, i_bh % hq);
    let bos = i_b * t;
    let head = (bos * hq + i_hq) * k;
    let stride_t = (hq * k).to(DType::I64);
    let p_q = make_block_ptr(q_ptr + head)
        .shape([t, k])
        .strides([stride_t, i64(1)])
        .offsets([i_t * bt, i32(0)])
        .block_shape([bt, bk])
        .order([1, 0])
        .build();
    let b_q = load(p_q)
        .boundary_check(&[0, 1])
        .padding(Padding::Zero)
        .build();
    let p_o = make_block_ptr(o_ptr + head)
        .shape([t, k])
        .strides([stride_t, i64(1)])
        .offsets([i_t * bt, i32(0)])
        .block_shape([bt, bk])
        .order([1, 0])
        .build();
    store(p_o, b_q).boundary_check(&[0, 1]).build();
}

/// One `(BK, BT)` tile of `k` read transposed through a column-major
/// block pointer (a virtual transpose) and stored row-major (the
/// builder's [`crate::attention_tiles::k_tile_load_transposed`]).
#[tile::kernel]
pub fn k_tile_load_transposed(
    k_ptr: Ptr<f32>,
    kt_ptr: Ptr<f32>,
    t: i32,
    h: i32,
    k: i32,
    #[constexpr] bt: i64,
    #[constexpr] bk: i64,
) {
    let i_t = program_id(0);
    let i_bh = program_id(1);
    let (i_b, i_h) = (i_bh / h, i_bh % h);
    let bos = i_b * t;
    let p_k = make_block_ptr(k_ptr + (bos * h + i_h) * k)
        .shape([k, t])
        .strides([i64(1), (h * k).to(DType::I64)])
        .offsets([i32(0), i_t * bt])
        .block_shape([bk, bt])
        .order([0, 1])
        .build();
    let b_k = load(p_k)
        .boundary_check(&[0, 1])
        .padding(Padding::Zero)
        .build();
    let p_kt = make_block_ptr(kt_ptr + i_bh * k * t)
        .shape([k, t])
        .strides([t.to(DType::I64), i64(1)])
        .offsets([i32(0), i_t * bt])
        .block_shape([bk, bt])
        .order([1, 0])
        .build();
    store(p_kt, b_k).boundary_check(&[0, 1]).build();
}

/// The configurations [`matmul_tuned`] is timed over (tiles, warps,
/// stages), as Triton's `@triton.autotune(configs=[...])`.
pub fn matmul_tuned_configs() -> Vec<tile::Config> {
    let config = |warps, stages, bm, bn, bk| {
        tile::Config::new(warps)
            .with_stages(stages)
            .with("bm", bm)
            .with("bn", bn)
            .with("bk", bk)
    };
    vec![
        config(4, 3, 128, 128, 32),
        config(4, 4, 64, 128, 32),
        config(8, 3, 128, 256, 64),
    ]
}

/// `C = A @ B` as Triton's tutorial 03 writes it (tensors of pointers,
/// wrapped rows and columns, a masked K tail), autotuned: the tile sizes
/// come from [`matmul_tuned_configs`], the tuning is keyed by `m`, `n`
/// and `k`, and `launch` takes the grid as a function of the chosen
/// configuration.
#[tile::kernel(autotune = matmul_tuned_configs, key = [m, n, k])]
pub fn matmul_tuned(
    a: Ptr<f16>,
    b: Ptr<f16>,
    c: Ptr<f32>,
    m: i32,
    n: i32,
    k: i32,
    #[constexpr] bm: i32,
    #[constexpr] bn: i32,
    #[constexpr] bk: i32,
) {
    let pid = program_id(0);
    let grid_n = n.cdiv(bn);
    let (pid_m, pid_n) = (pid / grid_n, pid % grid_n);
    let rm = pid_m * bm + arange(0, bm);
    let rn = pid_n * bn + arange(0, bn);
    let rk = arange(0, bk);
    let mut a_ptrs = a + (rm % m).expand_dims(1) * k + rk.expand_dims(0);
    let mut b_ptrs = b + rk.expand_dims(1) * n + (rn % n).expand_dims(0);
    let mut acc = zeros(&[bm as i64, bn as i64], DType::F32);
    for kk in range(0, k.cdiv(bk)) {
        let left = k - kk * bk;
        let a_tile = load(a_ptrs)
            .mask(rk.expand_dims(0).lt(left))
            .other(0.0)
            .build();
        let b_tile = load(b_ptrs)
            .mask(rk.expand_dims(1).lt(left))
            .other(0.0)
            .build();
        acc = dot(a_tile, b_tile).acc(acc).build();
        a_ptrs = a_ptrs + bk;
        b_ptrs = b_ptrs + bk * n;
    }
    let mask = rm.expand_dims(1).lt(m) & rn.expand_dims(0).lt(n);
    store(c + rm.expand_dims(1) * n + rn.expand_dims(0), acc)
        .mask(mask)
        .build();
}
