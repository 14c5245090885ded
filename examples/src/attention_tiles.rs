//! Seed 001: attention tiles through `make_block_ptr`.
//!
//! `q` and `k` are `[B, T, H, K]` tensors stored contiguously (strides
//! `(T*H*K, H*K, K, 1)`). One program handles one `BT`-token tile of one
//! head of one sequence: launch a grid of `(cdiv(T, BT), B * H)`, where
//! program `(i_t, i_bh)` takes `i_b = i_bh / H`, `i_h = i_bh % H` and
//! `bos = i_b * T` (the fixed-length case of the seed's `bos`).
//!
//! The seed only builds the block pointers; each kernel here also writes
//! the tile it loads to an output buffer, so that it is complete.

use tile_dialect::{DType, Kernel, Padding, Result};

/// The default token tile `BT`.
pub const BT: i64 = 64;
/// The default head-dimension tile `BK`.
pub const BK: i64 = 64;

/// Loads the `(BT, BK)` q tile of the seed and copies it to `o`:
///
/// ```python
/// p_q = tl.make_block_ptr(q + (bos * HQ + i_hq) * K, (T, K), (HQ*K, 1),
///                         (i_t * BT, 0), (BT, BK), (1, 0))
/// b_q = tl.load(p_q, boundary_check=(0, 1))
/// p_o = tl.make_block_ptr(o + (bos * HQ + i_hq) * K, (T, K), (HQ*K, 1),
///                         (i_t * BT, 0), (BT, BK), (1, 0))
/// tl.store(p_o, b_q, boundary_check=(0, 1))
/// ```
///
/// Arguments: `q_ptr`, `o_ptr` (`f32` pointers to `[B, T, HQ, K]` tensors),
/// `t`, `hq`, `k` (`i32`). The whole head is copied when `bk >= k`; the
/// boundary check keeps the last token tile and the columns past `k` in
/// bounds. `bt` and `bk` must be powers of two.
pub fn q_tile_load<'c>(context: &'c melior::Context, bt: i64, bk: i64) -> Result<Kernel<'c>> {
    Kernel::build(context, "q_tile_load", |k| {
        let q_ptr = k.arg_ptr("q_ptr", DType::F32);
        let o_ptr = k.arg_ptr("o_ptr", DType::F32);
        let t = k.arg("t", DType::I32);
        let hq = k.arg("hq", DType::I32);
        let k_dim = k.arg("k", DType::I32);

        let i_t = k.program_id(0);
        let i_bh = k.program_id(1);
        let i_b = i_bh / hq;
        let i_hq = i_bh % hq;
        let bos = i_b * t;
        let head = (bos * hq + i_hq) * k_dim;
        let stride_t = (hq * k_dim).to(DType::I64);

        let p_q = k
            .make_block_ptr(q_ptr + head)
            .shape([t, k_dim])
            .strides([stride_t, k.i64(1)])
            .offsets([i_t * bt, k.i32(0)])
            .block_shape([bt, bk])
            .order([1, 0])
            .build();
        let b_q = k
            .load(p_q)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build(); // (BT, BK)

        let p_o = k
            .make_block_ptr(o_ptr + head)
            .shape([t, k_dim])
            .strides([stride_t, k.i64(1)])
            .offsets([i_t * bt, k.i32(0)])
            .block_shape([bt, bk])
            .order([1, 0])
            .build();
        k.store(p_o, b_q).boundary_check(&[0, 1]).build();
    })
}

/// Loads the seed's virtual-transposed `(BK, BT)` k tile and writes it to
/// `kt`, a contiguous `[B, H, K, T]` tensor (the materialized transpose):
///
/// ```python
/// p_k = tl.make_block_ptr(k + (bos * H + i_h) * K, (K, T), (1, H*K),
///                         (0, i_t * BT), (BK, BT), (0, 1))
/// b_k = tl.load(p_k, boundary_check=(0, 1))
/// p_kt = tl.make_block_ptr(kt + (i_b * H + i_h) * K * T, (K, T), (T, 1),
///                          (0, i_t * BT), (BK, BT), (1, 0))
/// tl.store(p_kt, b_k, boundary_check=(0, 1))
/// ```
///
/// The load's `order=(0, 1)` says axis 0 (stride 1) is the contiguous one;
/// the store's `order=(1, 0)` says the same of axis 1 of `kt`.
///
/// Arguments: `k_ptr` (`f32`, `[B, T, H, K]`), `kt_ptr` (`f32`,
/// `[B, H, K, T]`), `t`, `h`, `k` (`i32`). The whole head is copied when
/// `bk >= k`. `bt` and `bk` must be powers of two.
pub fn k_tile_load_transposed<'c>(
    context: &'c melior::Context,
    bt: i64,
    bk: i64,
) -> Result<Kernel<'c>> {
    Kernel::build(context, "k_tile_load_transposed", |k| {
        let k_ptr = k.arg_ptr("k_ptr", DType::F32);
        let kt_ptr = k.arg_ptr("kt_ptr", DType::F32);
        let t = k.arg("t", DType::I32);
        let h = k.arg("h", DType::I32);
        let k_dim = k.arg("k", DType::I32);

        let i_t = k.program_id(0);
        let i_bh = k.program_id(1);
        let i_b = i_bh / h;
        let i_h = i_bh % h;
        let bos = i_b * t;

        // A virtual transpose: shape (K, T), strides (1, H*K), order (0, 1).
        let p_k = k
            .make_block_ptr(k_ptr + (bos * h + i_h) * k_dim)
            .shape([k_dim, t])
            .strides([k.i64(1), (h * k_dim).to(DType::I64)])
            .offsets([k.i32(0), i_t * bt])
            .block_shape([bk, bt])
            .order([0, 1])
            .build();
        let b_k = k
            .load(p_k)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build(); // (BK, BT)

        // kt[i_b, i_h] is a row-major (K, T) matrix.
        let p_kt = k
            .make_block_ptr(kt_ptr + i_bh * k_dim * t)
            .shape([k_dim, t])
            .strides([t.to(DType::I64), k.i64(1)])
            .offsets([k.i32(0), i_t * bt])
            .block_shape([bk, bt])
            .order([1, 0])
            .build();
        k.store(p_kt, b_k).boundary_check(&[0, 1]).build();
    })
}
