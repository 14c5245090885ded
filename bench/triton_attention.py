#!/usr/bin/env python3
"""Triton 3.6 and torch SDPA baselines for `tile-tools attention-bench`.

Triton's kernel is a flash-attention forward written as ours is
(examples/src/flash_attention.rs): one program per (query block, batch x
head) over [B, T, H, D] tensors, the q block and v through block pointers,
k viewed transposed through a block pointer of order (0, 1), an online
softmax in exp2 with the scale folded in, and, when causal, Triton's
tutorial-06 split: key blocks below the diagonal without a mask, the
diagonal block with it. Autotuned over block sizes, warps and stages on
(T, D, causal). SDPA is torch.nn.functional.scaled_dot_product_attention
on [B, H, T, D] views of the same tensors (the flash backend for f16).

    python3 bench/triton_attention.py [--warmup W] [--reps R] [--flush-bytes B]
        [--config BMxBN/wW/sS] --case BxHxTxD causal|full [--case ...]

`--config` runs Triton's kernel in that one configuration instead of
autotuning (to compare the same blocks, warps and stages, or to profile).

`--ours-dir DIR` (written by `tile-tools attention-bench`): for each case
whose files `DIR/<BxHxTxD>-<mask>.{q,k,v,o}` exist (raw f16, [B, T, H, D]),
SDPA in f32 on those q, k and v against that o: `ours_err` (the largest
absolute difference) on the case's result line.

Inputs are random normal (fixed seed), f16. Triton's output is checked
against SDPA's computed in f32: the largest absolute difference must be at
most TOLERANCE. Timing as bench/triton_matmul.py: `warmup` untimed calls
and a synchronize, then per repetition zero (`cuMemsetD8Async`, as `tile-tools`
does) a `flush_bytes` buffer (L2
flush), record a start event, call once, record an end event; one
synchronize; the median.

Output: protocol lines (bench/protocol.py: one JSON object a line): `info`
lines (versions and device, a case that failed), then per case

    {"protocol": 1, "kind": "result", "dtype": "f16", "size": "BxHxTxD",
     "mask": "causal"|"full", "triton_ms": MEDIAN, "sdpa_ms": MEDIAN,
     "max_err": ERR, "ok": true|false, "config": "BMxBN/wW/sS", "ours_err": ERR}

times to 4 decimals, errors to 4 significant digits, null for what could
not be measured (`ours_err` without --ours-dir or its files). Exit status
0 when every Triton output matched, 1 otherwise, 2 for bad arguments, 3
without torch/triton (after a `skip` line).
"""

import argparse
import sys

import protocol

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as error:
    protocol.skip(f"cannot import torch and triton: {error}")
    sys.exit(3)

from timing import L2Flush, median_ms  # noqa: E402 (after torch, which it needs)

TOLERANCE = 1e-2

CONFIGS = [
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=w, num_stages=s)
    for (bm, bn) in [(64, 64), (128, 64), (128, 128)]
    for s in [2, 3]
    for w in [4, 8]
]


def keep(configs, named_args, **kwargs):
    """Tutorial 06's pruning: BLOCK_N at most BLOCK_M for the causal split."""
    causal = kwargs.get("CAUSAL", named_args.get("CAUSAL", False))
    return [c for c in configs if not causal or c.kwargs["BLOCK_N"] <= c.kwargs["BLOCK_M"]]


@triton.jit
def _step(acc, l_i, m_i, q, k_ptr, v_ptr, start_m, qk_scale, lo, hi,
          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, MASKED: tl.constexpr):
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    k_ptr = tl.advance(k_ptr, (0, lo))
    v_ptr = tl.advance(v_ptr, (lo, 0))
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(k_ptr)
        qk = tl.dot(q, k)
        if MASKED:
            offs_n = start_n + tl.arange(0, BLOCK_N)
            qk = tl.where(offs_m[:, None] >= offs_n[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
        k_ptr = tl.advance(k_ptr, (0, BLOCK_N))
        v_ptr = tl.advance(v_ptr, (BLOCK_N, 0))
    return acc, l_i, m_i


@triton.autotune(configs=CONFIGS, key=["T", "D", "CAUSAL"], prune_configs_by={"early_config_prune": keep})
@triton.jit
def attn_fwd(q, k, v, o, lse, T, H, sm_scale,
             D: tl.constexpr, CAUSAL: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    head = (i_b * T * H + i_h).to(tl.int64) * D
    p_q = tl.make_block_ptr(q + head, (T, D), (H * D, 1), (start_m * BLOCK_M, 0), (BLOCK_M, D), (1, 0))
    p_k = tl.make_block_ptr(k + head, (D, T), (1, H * D), (0, 0), (D, BLOCK_N), (0, 1))
    p_v = tl.make_block_ptr(v + head, (T, D), (H * D, 1), (0, 0), (BLOCK_N, D), (1, 0))
    p_o = tl.make_block_ptr(o + head, (T, D), (H * D, 1), (start_m * BLOCK_M, 0), (BLOCK_M, D), (1, 0))
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    b_q = tl.load(p_q)
    if CAUSAL:
        acc, l_i, m_i = _step(acc, l_i, m_i, b_q, p_k, p_v, start_m, qk_scale,
                              0, start_m * BLOCK_M, BLOCK_M, BLOCK_N, False)
        acc, l_i, m_i = _step(acc, l_i, m_i, b_q, p_k, p_v, start_m, qk_scale,
                              start_m * BLOCK_M, (start_m + 1) * BLOCK_M, BLOCK_M, BLOCK_N, True)
    else:
        acc, l_i, m_i = _step(acc, l_i, m_i, b_q, p_k, p_v, start_m, qk_scale,
                              0, T, BLOCK_M, BLOCK_N, False)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(lse + (i_b * T + offs_m) * H + i_h, (m_i + tl.math.log2(l_i)) * 0.6931471805599453)
    tl.store(p_o, (acc / l_i[:, None]).to(o.dtype.element_ty))



def ours_error(stem, b, h, t, d, causal):
    """The largest |ours - SDPA in f32| on ours' inputs, or None without files."""
    import os
    paths = [f"{stem}.{x}" for x in "qkvo"]
    if not all(os.path.exists(p) for p in paths):
        return None
    n = b * t * h * d
    q, k, v, o = (torch.from_file(p, size=n, dtype=torch.float16).cuda().view(b, t, h, d)
                  for p in paths)
    ref = torch.nn.functional.scaled_dot_product_attention(
        *(x.permute(0, 2, 1, 3).float() for x in (q, k, v)),
        is_causal=causal, scale=d ** -0.5).permute(0, 2, 1, 3)
    return (o.float() - ref).abs().max().item()


def run_case(b, h, t, d, causal, args, flush):
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, t, h, d, device="cuda", dtype=torch.float16) for _ in range(3))
    sm_scale = d ** -0.5
    o = torch.empty_like(q)
    lse = torch.empty(b, t, h, device="cuda", dtype=torch.float32)
    if t % 128 != 0:
        raise ValueError("T must be a multiple of 128 (the largest BLOCK_M; no boundary checks)")
    grid = lambda meta: (triton.cdiv(t, meta["BLOCK_M"]), b * h)  # noqa: E731

    def triton_call():
        if args.config is None:
            attn_fwd[grid](q, k, v, o, lse, t, h, sm_scale, D=d, CAUSAL=causal)
        else:
            bm, bn, w, s = args.config
            attn_fwd.fn[(triton.cdiv(t, bm), b * h)](
                q, k, v, o, lse, t, h, sm_scale, D=d, CAUSAL=causal,
                BLOCK_M=bm, BLOCK_N=bn, num_warps=w, num_stages=s)

    qt, kt, vt = (x.permute(0, 2, 1, 3) for x in (q, k, v))

    def sdpa_call():
        return torch.nn.functional.scaled_dot_product_attention(qt, kt, vt, is_causal=causal, scale=sm_scale)

    triton_call()
    torch.cuda.synchronize()
    ref = torch.nn.functional.scaled_dot_product_attention(
        qt.float(), kt.float(), vt.float(), is_causal=causal, scale=sm_scale).permute(0, 2, 1, 3)
    err = (o.float() - ref).abs().max().item()
    if args.config is None:
        config = attn_fwd.best_config
        name = f"{config.kwargs['BLOCK_M']}x{config.kwargs['BLOCK_N']}/w{config.num_warps}/s{config.num_stages}"
    else:
        name = "{}x{}/w{}/s{}".format(*args.config)
    triton_ms = median_ms(triton_call, args.warmup, args.reps, flush)
    sdpa_ms = median_ms(sdpa_call, args.warmup, args.reps, flush)
    return triton_ms, sdpa_ms, err, name


def parse_config(text):
    """`BMxBN/wW/sS` as (BM, BN, W, S)."""
    try:
        blocks, rest = text.split("/w")
        warps, stages = rest.split("/s")
        bm, bn = blocks.split("x")
        return int(bm), int(bn), int(warps), int(stages)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: want BMxBN/wW/sS")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--flush-bytes", type=int, default=256 << 20)
    parser.add_argument("--ours-dir", default=None, metavar="DIR")
    parser.add_argument("--config", type=parse_config, default=None, metavar="BMxBN/wW/sS")
    parser.add_argument("--case", nargs=2, action="append", default=[], metavar=("BxHxTxD", "MASK"))
    args = parser.parse_args()
    if not args.case:
        parser.error("no --case")
    protocol.info(f"torch={torch.__version__} triton={triton.__version__} "
                  f"device={torch.cuda.get_device_name()}")
    flush = L2Flush(args.flush_bytes)
    status = 0
    for size, mask in args.case:
        try:
            b, h, t, d = (int(x) for x in size.split("x"))
        except ValueError:
            parser.error(f"bad size {size}")
        causal = mask == "causal"
        try:
            triton_ms, sdpa_ms, err, name = run_case(b, h, t, d, causal, args, flush)
            ok = err <= TOLERANCE
            status |= 0 if ok else 1
            ours = None
            if args.ours_dir is not None:
                ours = ours_error(f"{args.ours_dir}/{size}-{mask}", b, h, t, d, causal)
            protocol.result(dtype="f16", size=size, mask=mask,
                            triton_ms=protocol.rounded(triton_ms, ".4f"),
                            sdpa_ms=protocol.rounded(sdpa_ms, ".4f"),
                            max_err=protocol.rounded(err, ".3e"), ok=bool(ok), config=name,
                            ours_err=protocol.rounded(ours, ".3e"))
        except Exception as error:  # a case that fails is reported, the others still run
            status = 1
            protocol.info(f"{size} {mask} failed: {error}")
            protocol.result(dtype="f16", size=size, mask=mask, triton_ms=None, sdpa_ms=None,
                            max_err=None, ok=False, config=None, ours_err=None)
    sys.exit(status)


if __name__ == "__main__":
    main()
