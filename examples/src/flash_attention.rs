//! Flash-attention forward (seed 001's tiles, multiplied): for each query
//! block of one head of one sequence, `O = softmax(Q K^T * sm_scale) V`
//! with an online softmax over key blocks, and the log-sum-exp of every
//! row for a backward pass.
//!
//! `q`, `k`, `v` and `o` are `[B, T, H, D]` tensors (contiguous), or, for
//! variable-length batches, `[total_T, H, D]` with the sequences packed
//! one after another and `cu_seqlens` (`B + 1` i32, starting at 0) giving
//! where each begins, as flash-linear-attention does. The block pointers
//! are the seed's: the q tile at `(bos * H + i_h) * D` with shape `(T, D)`
//! and strides `(H*D, 1)`; k viewed as transposed for free, shape `(D, T)`,
//! strides `(1, H*D)`, order `(0, 1)`; v as q.
//!
//! ```python
//! @triton.jit
//! def attn_fwd(q, k, v, o, lse, cu_seqlens, T, H, sm_scale,
//!              D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
//!              CAUSAL: tl.constexpr, IS_VARLEN: tl.constexpr):
//!     i_t, i_bh = tl.program_id(0), tl.program_id(1)
//!     i_b, i_h = i_bh // H, i_bh % H
//!     if IS_VARLEN:
//!         bos, eos = tl.load(cu_seqlens + i_b), tl.load(cu_seqlens + i_b + 1)
//!         T = eos - bos
//!     else:
//!         bos = i_b * T
//!     p_q = tl.make_block_ptr(q + (bos * H + i_h) * D, (T, D), (H*D, 1), (i_t * BM, 0), (BM, D), (1, 0))
//!     p_k = tl.make_block_ptr(k + (bos * H + i_h) * D, (D, T), (1, H*D), (0, 0), (D, BN), (0, 1))
//!     p_v = tl.make_block_ptr(v + (bos * H + i_h) * D, (T, D), (H*D, 1), (0, 0), (BN, D), (1, 0))
//!     b_q = tl.load(p_q, boundary_check=(0, 1))
//!     offs_m = i_t * BM + tl.arange(0, BM)
//!     m_i = tl.full([BM], float("-inf"), tl.float32)
//!     l_i = tl.zeros([BM], tl.float32)
//!     acc = tl.zeros([BM, D], tl.float32)
//!     qk_scale = sm_scale * 1.44269504   # exp(x) = exp2(x * log2(e))
//!     last_key = tl.minimum(offs_m, T - 1)   # causal: a row's last visible key
//!     # key blocks every row of the query block sees whole (inside the
//!     # sequence: loads without bounds checks, no mask), then the rest
//!     # (the diagonal and the sequence's end), masked
//!     for start_n in range(0, n_full * BN, BN): ...unmasked body...
//!     for start_n in range(n_full * BN, n_all * BN, BN):
//!         b_k = tl.load(p_k, boundary_check=(0, 1))
//!         s = tl.dot(b_q, b_k)
//!         offs_n = start_n + tl.arange(0, BN)
//!         if CAUSAL: keep = offs_n[None, :] <= last_key[:, None]
//!         else: keep = offs_n[None, :] < T
//!         s = tl.where(keep, s, float("-inf"))
//!         m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
//!         p = tl.math.exp2(tl.fma(s, qk_scale, -m_new[:, None]))
//!         alpha = tl.math.exp2(m_i - m_new)
//!         l_i = tl.fma(l_i, alpha, tl.sum(p, 1))
//!         acc = acc * alpha[:, None]
//!         b_v = tl.load(p_v, boundary_check=(0, 1))
//!         acc = tl.dot(p.to(b_v.dtype), b_v, acc)
//!         m_i = m_new
//!         p_k, p_v = tl.advance(p_k, (0, BN)), tl.advance(p_v, (BN, 0))
//!     tl.store(lse + (bos + offs_m) * H + i_h, (m_i + tl.math.log2(l_i)) * 0.69314718, mask=offs_m < T)
//!     p_o = tl.make_block_ptr(o + (bos * H + i_h) * D, (T, D), (H*D, 1), (i_t * BM, 0), (BM, D), (1, 0))
//!     tl.store(p_o, (acc * (1.0 / l_i)[:, None]).to(p_o.dtype.element_ty), boundary_check=(0, 1))
//! ```
//!
//! Launch a grid of `(cdiv(T_max, BM), B * H)`. Programs whose query block
//! starts past their sequence's end run no iteration and store nothing.

use tile_dialect::{DType, Kernel, KernelBuilder, Padding, Result, Tile};

/// `log2(e)`: `exp(x) = exp2(x * LOG2_E)`.
const LOG2_E: f32 = std::f32::consts::LOG2_E;
/// `ln(2)`: `ln(x) = log2(x) * LN_2`.
const LN_2: f32 = std::f32::consts::LN_2;

/// The compile-time parameters of one attention kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionConfig {
    /// The head dimension `D` (16 to 256, a power of two).
    pub head_dim: i64,
    /// Query rows per program.
    pub block_m: i64,
    /// Keys per iteration.
    pub block_n: i64,
    /// Whether row `i` sees only keys `j <= i` (of its own sequence).
    pub causal: bool,
    /// Whether sequences are packed and located by `cu_seqlens`.
    pub varlen: bool,
}

impl AttentionConfig {
    /// Non-causal, fixed-length, `head_dim` wide, 128 x 64 blocks.
    pub fn new(head_dim: i64) -> Self {
        AttentionConfig {
            head_dim,
            block_m: 128,
            block_n: 64,
            causal: false,
            varlen: false,
        }
    }

    /// The same, causal or not.
    pub fn causal(self, causal: bool) -> Self {
        AttentionConfig { causal, ..self }
    }

    /// The same, for packed variable-length sequences or not.
    pub fn varlen(self, varlen: bool) -> Self {
        AttentionConfig { varlen, ..self }
    }

    /// The same with other block sizes.
    pub fn blocks(self, block_m: i64, block_n: i64) -> Self {
        AttentionConfig {
            block_m,
            block_n,
            ..self
        }
    }

    /// The kernel's name: `attention_fwd`, with `_causal` and `_varlen`.
    pub fn name(&self) -> &'static str {
        match (self.causal, self.varlen) {
            (false, false) => "attention_fwd",
            (true, false) => "attention_fwd_causal",
            (false, true) => "attention_fwd_varlen",
            (true, true) => "attention_fwd_causal_varlen",
        }
    }
}

/// The forward pass of attention (see the module docs) for inputs and
/// output of `dtype` (f16 or bf16), accumulating in f32.
///
/// Arguments: `q_ptr`, `k_ptr`, `v_ptr`, `o_ptr` (`dtype`), `lse_ptr`
/// (f32, `[B, T, H]` or `[total_T, H]`: the natural log of each row's sum
/// of `exp(q.k * sm_scale)`), `cu_seqlens` (i32, `B + 1`; read only when
/// `config.varlen`), `t` (i32, the sequence length; ignored when
/// `config.varlen`), `h` (i32, heads), `sm_scale` (f32).
pub fn attention_fwd<'c>(
    context: &'c melior::Context,
    config: AttentionConfig,
    dtype: DType,
) -> Result<Kernel<'c>> {
    let AttentionConfig {
        head_dim: d,
        block_m: bm,
        block_n: bn,
        causal,
        varlen,
    } = config;
    Kernel::build(context, config.name(), |k| {
        let q_ptr = k.arg_ptr("q_ptr", dtype);
        let k_ptr = k.arg_ptr("k_ptr", dtype);
        let v_ptr = k.arg_ptr("v_ptr", dtype);
        let o_ptr = k.arg_ptr("o_ptr", dtype);
        let lse_ptr = k.arg_ptr("lse_ptr", DType::F32);
        let cu_seqlens = k.arg_ptr("cu_seqlens", DType::I32);
        let t_arg = k.arg("t", DType::I32);
        let h = k.arg("h", DType::I32);
        let sm_scale = k.arg("sm_scale", DType::F32);

        let i_t = k.program_id(0);
        let i_bh = k.program_id(1);
        let i_b = i_bh / h;
        let i_h = i_bh % h;
        let (bos, t) = if varlen {
            let bos = k.load(cu_seqlens + i_b).build();
            let eos = k.load(cu_seqlens + (i_b + 1)).build();
            (bos, eos - bos)
        } else {
            (i_b * t_arg, t_arg)
        };
        let head = (bos * h + i_h).to(DType::I64) * d;
        let stride_t = (h * d as i32).to(DType::I64);
        let start_m = i_t * bm as i32;

        let p_q = k
            .make_block_ptr(q_ptr + head)
            .shape([t, k.i32(d as i32)])
            .strides([stride_t, k.i64(1)])
            .offsets([start_m, k.i32(0)])
            .block_shape([bm, d])
            .order([1, 0])
            .build();
        let p_k = k
            .make_block_ptr(k_ptr + head)
            .shape([k.i32(d as i32), t])
            .strides([k.i64(1), stride_t])
            .offsets([k.i32(0), k.i32(0)])
            .block_shape([d, bn])
            .order([0, 1])
            .build();
        let p_v = k
            .make_block_ptr(v_ptr + head)
            .shape([t, k.i32(d as i32)])
            .strides([stride_t, k.i64(1)])
            .offsets([k.i32(0), k.i32(0)])
            .block_shape([bn, d])
            .order([1, 0])
            .build();
        let b_q = k
            .load(p_q)
            .boundary_check(&[0, 1])
            .padding(Padding::Zero)
            .build();
        let offs_m = start_m + k.arange(0, bm as i32);
        let qk_scale = sm_scale * LOG2_E;

        // Key blocks [0, n_full) are seen whole by every row of the block;
        // [n_full, n_all) need the mask. Past the sequence's end: none.
        let inside = start_m.lt(t);
        let (n_full, n_all) = if causal {
            let end_m = (start_m + bm as i32).minimum(t);
            (start_m.minimum(t) / bn as i32, end_m.cdiv(bn as i32))
        } else {
            (t / bn as i32, t.cdiv(bn as i32))
        };
        let n_all = k.where_(inside, n_all, 0i32);
        let n_full = n_full.minimum(n_all);

        let init = [
            k.zeros(&[bm, d], DType::F32),
            k.full(&[bm], f32::NEG_INFINITY, DType::F32),
            k.zeros(&[bm], DType::F32),
            p_k,
            p_v,
        ];
        let tiles = Tiles {
            b_q,
            last_key: causal.then(|| offs_m.minimum(t - 1i32)),
            t,
            qk_scale,
        };
        let state = k.for_range(0, n_full, 1, init, |j, s| {
            step(k, config, dtype, &tiles, false, j, s)
        });
        let [acc, m_i, l_i, _, _] = k.for_range(n_full, n_all, 1, state, |j, s| {
            step(k, config, dtype, &tiles, true, j, s)
        });

        let in_rows = offs_m.lt(t);
        let lse = (m_i + l_i.log2()) * LN_2;
        let lse_at = lse_ptr + ((bos + offs_m) * h + i_h);
        k.store(lse_at, lse).mask(in_rows).build();
        // One division a row, then a multiply an element.
        let o = acc * (1.0f32 / l_i).expand_dims(1);
        let p_o = k
            .make_block_ptr(o_ptr + head)
            .shape([t, k.i32(d as i32)])
            .strides([stride_t, k.i64(1)])
            .offsets([start_m, k.i32(0)])
            .block_shape([bm, d])
            .order([1, 0])
            .build();
        k.store(p_o, o.to(dtype)).boundary_check(&[0, 1]).build();
    })
}

/// What every iteration reads: the q tile, each row's last visible key
/// when causal (its own position, at most the sequence's last), the
/// sequence length and the scale of the scores (in log2 units).
#[derive(Clone, Copy)]
struct Tiles<'k> {
    b_q: Tile<'k>,
    last_key: Option<Tile<'k>>,
    t: Tile<'k>,
    qk_scale: Tile<'k>,
}

/// One key block: scores, the online softmax's update of the running max
/// `m_i`, the running sum `l_i` and the accumulator, and the next block
/// pointers. `masked` applies the sequence-end (and causal) mask to the
/// scores of block `j`.
fn step<'k>(
    k: &'k KernelBuilder<'k>,
    config: AttentionConfig,
    dtype: DType,
    tiles: &Tiles<'k>,
    masked: bool,
    j: Tile<'k>,
    state: [Tile<'k>; 5],
) -> [Tile<'k>; 5] {
    let bn = config.block_n;
    let Tiles {
        b_q,
        last_key,
        t,
        qk_scale,
    } = *tiles;
    let [acc, m_i, l_i, p_k, p_v] = state;
    // Blocks before `n_full` lie inside the sequence (and D is the block's
    // width): only the masked loop's loads check bounds.
    let checked: &[i64] = if masked { &[0, 1] } else { &[] };
    let b_k = k
        .load(p_k)
        .boundary_check(checked)
        .padding(Padding::Zero)
        .build();
    let mut s = k.dot(b_q, b_k).build();
    if masked {
        let offs_n = j * bn as i32 + k.arange(0, bn as i32);
        // Causal: keys up to the row's own position and inside the
        // sequence, one comparison an element against the row's last
        // visible key.
        let keep = match last_key {
            Some(last) => offs_n.expand_dims(0).le(last.expand_dims(1)),
            None => offs_n.expand_dims(0).lt(t),
        };
        s = k.where_(keep, s, f32::NEG_INFINITY);
    }
    let m_new = m_i.maximum(s.max(1) * qk_scale);
    // s * qk_scale - m_new, rounded once.
    let p = s.fma(qk_scale, -m_new.expand_dims(1)).exp2();
    let alpha = (m_i - m_new).exp2();
    let l_i = l_i.fma(alpha, p.sum(1));
    let acc = acc * alpha.expand_dims(1);
    let b_v = k
        .load(p_v)
        .boundary_check(checked)
        .padding(Padding::Zero)
        .build();
    let acc = k.dot(p.to(dtype), b_v).acc(acc).build();
    [acc, m_new, l_i, p_k.advance([0, bn]), p_v.advance([bn, 0])]
}
