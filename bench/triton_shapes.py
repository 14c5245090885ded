#!/usr/bin/env python3
"""Triton 3.6 baselines for `tile-tools shapes-bench`.

The memory-bound kernels of examples/src/tile_shapes.rs, written the same
way in Triton (pointer tensors, masks on both axes, the same arguments in
the same order), each launched with the tiles, num_warps and num_stages it
is given:

    softmax        BM rows a program: max, exp, sum, divide along axis 1
    layer_norm     BM rows a program, one pass: Y, Mean and Rstd (tutorial 05, 2-D)
    layer_norm_y   the same, Y only
    layer_norm_block layer_norm_y through block pointers (boundary_check, zero padding)
    scale_bias     x * scale[:, None] + bias[None, :] on [BM, BN] tiles
    transpose      a [BM, BN] tile of x stored .trans()ed into y = x^T
    transpose_block the same through block pointers (order (1, 0), both axes checked)
    transpose_order no trans: the [BN, BM] block of x^T read through a block pointer
                   with order (0, 1) (shape (N, M), strides (1, stride_x)), stored into y
    col_sum_step   column sums of BN-wide strips, BM rows a step, tl.sum(axis=0) each step
    col_sum_end    the same into a [BM, BN] accumulator, tl.sum(axis=0) after the loop
    col_sum_staged col_sum_end with its loop tl.range(..., num_stages=STREAM_STAGES)
    col_sum_ptrs   col_sum_staged through a pointer tensor the loop carries, += BM * stride_x
    col_sum_block  col_sum_staged through a block pointer advanced by BM rows (boundary checks)
    gelu           gelu_tanh(x + bias[None, :]) in f32, tanh from libdevice
                   (triton.language.extra.cuda.libdevice.tanh, CUDA's __nv_tanhf)
    gelu_fast      the same with tanh.approx.f32 through tl.inline_asm_elementwise
                   (Triton's fastest tanh; relative error at most 2^-10.987)
    chunk_cumsum   flash-linear-attention's chunk_local_cumsum: a [BM, BN] block
                   (block pointers, both axes checked) scanned along its rows in
                   f32, tl.cumsum(axis=0); column blocks on grid axis 0
    chunk_cumsum_ptrs  the same through pointer tensors and masks, row blocks on axis 0
    chunk_cumsum_rev   chunk_cumsum_ptrs with tl.cumsum(..., reverse=True)
    row_cumsum     BM rows a program: tl.cumsum(axis=1) of a [BM, BN] tile in f32
    layer_norm_loop  BM rows a program, three loops over BN columns a step (tutorial 05's
                   loops, 2-D): Y, Mean and Rstd
    row_sum_loop   BM rows a program through a [BM, BN] block pointer advanced by BN
                   columns a step (seed 002 on BM rows); f32 sums
    softmax_online BM rows a program, two loops over BN columns a step: a running max
                   and rescaled sum, then exp(x - max) / sum

    python3 bench/triton_shapes.py [--warmup W] [--reps R] [--flush-bytes B]
        --case KERNEL DTYPE MxN CONFIGS [--case ...]

DTYPE is f32, f16 or bf16 (the input's type; Mean, Rstd and the column
sums are f32); CONFIGS is a comma-separated list of BMxBN/wW/sS (BN is
BLOCK_N for softmax and the LayerNorms: at least N). Inputs are uniform in
[-8, 8), as ours, from a fixed seed.

Each configuration's output is poisoned (NaN), computed once and compared
with PyTorch's (torch.softmax, F.layer_norm with the mean and biased
variance, x.t(), a float64 sum, F.gelu(approximate="tanh"), all in f32 and
rounded to the type): the largest difference over the largest magnitude at
most 1e-4 for f32 outputs and 4e-3 for 16-bit ones (the column sums over
the largest sum of magnitudes; the transpose exactly). Then it is timed as
`tile-tools shapes-bench` times ours: warm-up calls and a synchronize, then
per repetition zero (`cuMemsetD8Async`, as `tile-tools` does) a flush buffer
(L2), record a start event, call once,
record an end event; one synchronize; the median.

Output: protocol lines (bench/protocol.py): one `info` line (versions,
device, the tanh used), `log` lines (each configuration's time or
failure), then per case and configuration

    {"protocol": 1, "kind": "result", "kernel": KERNEL, "dtype": DTYPE,
     "size": "MxN", "config": "BMxBN/wW/sS", "triton_ms": MEDIAN,
     "max_err": ERR, "ok": true|false}

times to 4 decimals, null for what could not be measured. Exit status 0
when every Triton output matched, 1 otherwise, 2 for bad arguments, 3
without torch/triton (after a `skip` line).
"""

import argparse
import math
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

try:
    from triton.language.extra.cuda import libdevice
except ImportError:  # older layouts
    from triton.language.extra import libdevice


@triton.jit
def softmax(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
                other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=1)[:, None]
    num = tl.exp(z)
    den = tl.sum(num, axis=1)
    y = num / den[:, None]
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty),
             mask=mask)


@triton.jit
def layer_norm_rows(X, Y, W, B, M, N, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    row_mask = rows < M
    col_mask = cols < N
    mask = row_mask[:, None] & col_mask[None, :]
    at = rows[:, None] * stride + cols[None, :]
    x = tl.load(X + at, mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(x, axis=1) / N
    xc = tl.where(mask, x - mean[:, None], 0.)
    var = tl.sum(xc * xc, axis=1) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=col_mask).to(tl.float32)
    b = tl.load(B + cols, mask=col_mask).to(tl.float32)
    x_hat = xc * rstd[:, None]
    y = x_hat * w[None, :] + b[None, :]
    tl.store(Y + at, y.to(Y.dtype.element_ty), mask=mask)
    return rows, row_mask, mean, rstd


@triton.jit
def layer_norm(X, Y, W, B, Mean, Rstd, M, N, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    rows, row_mask, mean, rstd = layer_norm_rows(X, Y, W, B, M, N, stride, eps, BM, BN)
    tl.store(Mean + rows, mean, mask=row_mask)
    tl.store(Rstd + rows, rstd, mask=row_mask)


@triton.jit
def layer_norm_y(X, Y, W, B, M, N, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    layer_norm_rows(X, Y, W, B, M, N, stride, eps, BM, BN)


@triton.jit
def layer_norm_block(X, Y, W, B, M, N, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    row0 = tl.program_id(0) * BM
    xb = tl.make_block_ptr(X, (M, N), (stride, 1), (row0, 0), (BM, BN), (1, 0))
    x = tl.load(xb, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
    cols = tl.arange(0, BN)
    mean = tl.sum(x, axis=1) / N
    xc = tl.where(cols[None, :] < N, x - mean[:, None], 0.)
    var = tl.sum(xc * xc, axis=1) / N
    rstd = 1 / tl.sqrt(var + eps)
    wb = tl.make_block_ptr(W, (N, ), (1, ), (0, ), (BN, ), (0, ))
    bb = tl.make_block_ptr(B, (N, ), (1, ), (0, ), (BN, ), (0, ))
    w = tl.load(wb, boundary_check=(0, ), padding_option="zero").to(tl.float32)
    b = tl.load(bb, boundary_check=(0, ), padding_option="zero").to(tl.float32)
    y = xc * rstd[:, None] * w[None, :] + b[None, :]
    yb = tl.make_block_ptr(Y, (M, N), (stride, 1), (row0, 0), (BM, BN), (1, 0))
    tl.store(yb, y.to(Y.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def scale_bias(x_ptr, scale_ptr, bias_ptr, out_ptr, M, N, stride_x, stride_out,
               BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask).to(tl.float32)
    scale = tl.load(scale_ptr + rows, mask=rows < M).to(tl.float32)
    bias = tl.load(bias_ptr + cols, mask=cols < N).to(tl.float32)
    out = x * scale[:, None] + bias[None, :]
    tl.store(out_ptr + rows[:, None] * stride_out + cols[None, :],
             out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def transpose(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask)
    mask_t = (cols[:, None] < N) & (rows[None, :] < M)
    tl.store(y_ptr + cols[:, None] * stride_y + rows[None, :], tile.trans(), mask=mask_t)


@triton.jit
def transpose_block(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    xb = tl.make_block_ptr(x_ptr, (M, N), (stride_x, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    yb = tl.make_block_ptr(y_ptr, (N, M), (stride_y, 1), (pn * BN, pm * BM), (BN, BM), (1, 0))
    tile = tl.load(xb, boundary_check=(0, 1))
    tl.store(yb, tile.trans(), boundary_check=(0, 1))


@triton.jit
def transpose_order(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    xt = tl.make_block_ptr(x_ptr, (N, M), (1, stride_x), (pn * BN, pm * BM), (BN, BM), (0, 1))
    yb = tl.make_block_ptr(y_ptr, (N, M), (stride_y, 1), (pn * BN, pm * BM), (BN, BM), (1, 0))
    tl.store(yb, tl.load(xt, boundary_check=(0, 1)), boundary_check=(0, 1))


@triton.jit
def col_sum(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr,
            PER_STEP: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    col_mask = cols < N
    if PER_STEP:
        acc = tl.zeros([BN], dtype=tl.float32)
    else:
        acc = tl.zeros([BM, BN], dtype=tl.float32)
    for off in range(0, M, BM):
        rows = off + tl.arange(0, BM)
        mask = (rows[:, None] < M) & col_mask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
                    other=0.).to(tl.float32)
        if PER_STEP:
            acc += tl.sum(x, axis=0)
        else:
            acc += x
    if not PER_STEP:
        acc = tl.sum(acc, axis=0)
    tl.store(out_ptr + cols, acc, mask=col_mask)


@triton.jit
def col_sum_step(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
    col_sum(x_ptr, out_ptr, M, N, stride_x, BM, BN, True)


@triton.jit
def col_sum_end(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
    col_sum(x_ptr, out_ptr, M, N, stride_x, BM, BN, False)


STREAM_STAGES = tl.constexpr(3)


@triton.jit
def col_sum_staged(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    col_mask = cols < N
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for off in tl.range(0, M, BM, num_stages=STREAM_STAGES):
        rows = off + tl.arange(0, BM)
        mask = (rows[:, None] < M) & col_mask[None, :]
        acc += tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
                       other=0.).to(tl.float32)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=col_mask)


@triton.jit
def col_sum_ptrs(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    col_mask = cols < N
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    ptrs = x_ptr + tl.arange(0, BM)[:, None] * stride_x + cols[None, :]
    for off in tl.range(0, M, BM, num_stages=STREAM_STAGES):
        rows = off + tl.arange(0, BM)
        mask = (rows[:, None] < M) & col_mask[None, :]
        acc += tl.load(ptrs, mask=mask, other=0.).to(tl.float32)
        ptrs += BM * stride_x
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=col_mask)


@triton.jit
def col_sum_block(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
    start = tl.program_id(0) * BN
    block = tl.make_block_ptr(x_ptr, (M, N), (stride_x, 1), (0, start), (BM, BN), (1, 0))
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for _ in tl.range(0, M, BM, num_stages=STREAM_STAGES):
        acc += tl.load(block, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
        block = tl.advance(block, (BM, 0))
    cols = start + tl.arange(0, BN)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def tanh_approx(x):
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def gelu_tile(x_ptr, bias_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr,
              BN: tl.constexpr, FAST: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
                other=0.).to(tl.float32)
    b = tl.load(bias_ptr + cols, mask=cols < N, other=0.).to(tl.float32)
    h = x + b[None, :]
    inner = (h + h * h * h * 0.044715) * 0.7978845608028654
    if FAST:
        t = tanh_approx(inner)
    else:
        t = libdevice.tanh(inner)
    y = h * 0.5 * (t + 1.0)
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty),
             mask=mask)


@triton.jit
def gelu(x_ptr, bias_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    gelu_tile(x_ptr, bias_ptr, y_ptr, M, N, stride_x, stride_y, BM, BN, False)


@triton.jit
def gelu_fast(x_ptr, bias_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr,
              BN: tl.constexpr):
    gelu_tile(x_ptr, bias_ptr, y_ptr, M, N, stride_x, stride_y, BM, BN, True)


@triton.jit
def chunk_cumsum(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    i_s, i_t = tl.program_id(0), tl.program_id(1)
    p_x = tl.make_block_ptr(x_ptr, (M, N), (stride_x, 1), (i_t * BM, i_s * BN), (BM, BN), (1, 0))
    p_y = tl.make_block_ptr(y_ptr, (M, N), (stride_y, 1), (i_t * BM, i_s * BN), (BM, BN), (1, 0))
    b = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
    tl.store(p_y, tl.cumsum(b, axis=0).to(p_y.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def chunk_cumsum_tile(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr,
                      REVERSE: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0).to(tl.float32)
    y = tl.cumsum(x, axis=0, reverse=REVERSE)
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty),
             mask=mask)


@triton.jit
def chunk_cumsum_ptrs(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    chunk_cumsum_tile(x_ptr, y_ptr, M, N, stride_x, stride_y, BM, BN, False)


@triton.jit
def chunk_cumsum_rev(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    chunk_cumsum_tile(x_ptr, y_ptr, M, N, stride_x, stride_y, BM, BN, True)


@triton.jit
def row_cumsum(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0).to(tl.float32)
    y = tl.cumsum(x, axis=1)
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty),
             mask=mask)


@triton.jit
def layer_norm_loop(X, Y, W, B, Mean, Rstd, M, N, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    row_mask = rows < M
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for off in range(0, N, BN):
        cols = off + tl.arange(0, BN)
        mask = row_mask[:, None] & (cols[None, :] < N)
        acc += tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=1) / N
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for off in range(0, N, BN):
        cols = off + tl.arange(0, BN)
        mask = row_mask[:, None] & (cols[None, :] < N)
        x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.).to(tl.float32)
        d = tl.where(mask, x - mean[:, None], 0.)
        acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=1) / N + eps)
    tl.store(Mean + rows, mean, mask=row_mask)
    tl.store(Rstd + rows, rstd, mask=row_mask)
    for off in range(0, N, BN):
        cols = off + tl.arange(0, BN)
        mask = row_mask[:, None] & (cols[None, :] < N)
        w = tl.load(W + cols, mask=cols < N).to(tl.float32)
        b = tl.load(B + cols, mask=cols < N).to(tl.float32)
        x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.).to(tl.float32)
        y = (x - mean[:, None]) * rstd[:, None] * w[None, :] + b[None, :]
        tl.store(Y + rows[:, None] * stride + cols[None, :], y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def row_sum_loop(x_ptr, out_ptr, M, N, stride_x, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    block = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride_x, 1), offsets=(pid * BM, 0),
                              block_shape=(BM, BN), order=(1, 0))
    acc = tl.zeros([BM], dtype=tl.float32)
    for _ in range(0, N, BN):
        x = tl.load(block, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
        acc += tl.sum(x, axis=1)
        block = tl.advance(block, (0, BN))
    rows = pid * BM + tl.arange(0, BM)
    tl.store(out_ptr + rows, acc, mask=rows < M)


@triton.jit
def softmax_online(x_ptr, y_ptr, M, N, stride_x, stride_y, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    row_mask = rows < M
    m = tl.full([BM], -float("inf"), tl.float32)
    s = tl.zeros([BM], dtype=tl.float32)
    for off in range(0, N, BN):
        cols = off + tl.arange(0, BN)
        mask = row_mask[:, None] & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
                    other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=1))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new[:, None]), axis=1)
        m = m_new
    for off in range(0, N, BN):
        cols = off + tl.arange(0, BN)
        mask = row_mask[:, None] & (cols[None, :] < N)
        x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask,
                    other=-float("inf")).to(tl.float32)
        y = tl.exp(x - m[:, None]) / s[:, None]
        tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y.to(y_ptr.dtype.element_ty),
                 mask=mask)


DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
EPS = 1e-5
ROWS = ("softmax", "layer_norm", "layer_norm_y", "layer_norm_block", "row_cumsum")
# The LayerNorms, and those of them that store Y only (no Mean, Rstd).
LAYER_NORMS = ("layer_norm", "layer_norm_y", "layer_norm_block", "layer_norm_loop")
Y_ONLY = ("layer_norm_y", "layer_norm_block")
COLUMNS = ("col_sum_step", "col_sum_end", "col_sum_staged", "col_sum_ptrs", "col_sum_block")
TRANSPOSES = ("transpose", "transpose_block", "transpose_order")
SCANS = ("chunk_cumsum", "chunk_cumsum_ptrs", "chunk_cumsum_rev")
ROW_LOOPS = ("layer_norm_loop", "row_sum_loop", "softmax_online")
KERNELS = (ROWS + COLUMNS + ("scale_bias", ) + TRANSPOSES + ("gelu", "gelu_fast") + SCANS
           + ROW_LOOPS)


def uniform(shape, dtype, g):
    """Uniform in [-8, 8), as ours draws its inputs, rounded to `dtype`."""
    return (torch.rand(shape, device="cuda", generator=g) * 16 - 8).to(dtype)


def poisoned(shape, dtype):
    return torch.full(shape, float("nan"), device="cuda", dtype=dtype)


def rel_err(got, want, scale=None):
    """The largest |got - want| over `scale` (the largest |want|); inf on NaN."""
    got, want = got.double(), want.double()
    if got.shape != want.shape or bool(torch.isnan(got).any()):
        return math.inf
    scale = want.abs().max().item() if scale is None else scale
    diff = (got - want).abs().max().item()
    return diff / scale if scale > 0 else diff


class Case:
    """One case's tensors, launcher and check."""

    def __init__(self, kernel, dtype, m, n):
        self.kernel, self.dtype, self.m, self.n = kernel, DTYPES[dtype], m, n
        g = torch.Generator(device="cuda").manual_seed(1234)
        dt = self.dtype
        self.x = uniform((m, n), dt, g)
        if kernel in LAYER_NORMS:
            self.w, self.b = uniform((n, ), dt, g), uniform((n, ), dt, g)
        if kernel == "scale_bias":
            self.scale, self.bias = uniform((m, ), dt, g), uniform((n, ), dt, g)
        if kernel in ("gelu", "gelu_fast"):
            self.bias = uniform((n, ), dt, g)
        self.poison()

    def poison(self):
        m, n, dt = self.m, self.n, self.dtype
        if self.kernel in COLUMNS:
            self.outs = [poisoned((n, ), torch.float32)]
        elif self.kernel in TRANSPOSES:
            self.outs = [poisoned((n, m), dt)]
        elif self.kernel in ("layer_norm", "layer_norm_loop"):
            self.outs = [poisoned((m, n), dt), poisoned((m, ), torch.float32),
                         poisoned((m, ), torch.float32)]
        elif self.kernel == "row_sum_loop":
            self.outs = [poisoned((m, ), torch.float32)]
        else:
            self.outs = [poisoned((m, n), dt)]

    def launcher(self, bm, bn, warps, stages):
        grid, args = self.launch_args(bm, bn)
        fn = globals()[self.kernel]
        opts = dict(BM=bm, BN=bn, num_warps=warps, num_stages=stages)
        return lambda: fn[grid](*args, **opts)

    def launch_args(self, bm, bn):
        """The grid and the arguments of one launch in `bm` x `bn` tiles:
        the tensors, M, N, then the strides (and eps), as ours takes them."""
        m, n, k = self.m, self.n, self.kernel
        if k in ROWS and bn < n:
            raise ValueError(f"BLOCK_N {bn} is below N = {n}")
        x, o = self.x, self.outs
        self.bm = bm
        if k in ROWS or k in ROW_LOOPS:
            grid = (triton.cdiv(m, bm), )
        elif k in COLUMNS:
            grid = (triton.cdiv(n, bn), )
        elif k == "chunk_cumsum":
            grid = (triton.cdiv(n, bn), triton.cdiv(m, bm))
        else:
            grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
        if k in ("layer_norm", "layer_norm_loop"):
            args = (x, o[0], self.w, self.b, o[1], o[2], m, n, n, EPS)
        elif k in Y_ONLY:
            args = (x, o[0], self.w, self.b, m, n, n, EPS)
        elif k == "scale_bias":
            args = (x, self.scale, self.bias, o[0], m, n, n, n)
        elif k in TRANSPOSES:
            args = (x, o[0], m, n, n, m)
        elif k in COLUMNS or k == "row_sum_loop":
            args = (x, o[0], m, n, n)
        elif k in ("gelu", "gelu_fast"):
            args = (x, self.bias, o[0], m, n, n, n)
        else:
            args = (x, o[0], m, n, n, n)
        return grid, args

    def error(self):
        """The largest relative error of the outputs against PyTorch's."""
        x, dt, k, o = self.x.float(), self.dtype, self.kernel, self.outs
        if k in ("softmax", "softmax_online"):
            return rel_err(o[0], torch.softmax(x, dim=1).to(dt))
        if k in LAYER_NORMS:
            y = torch.nn.functional.layer_norm(x, (self.n, ), self.w.float(), self.b.float(), EPS)
            err = rel_err(o[0], y.to(dt))
            if k not in Y_ONLY:
                mean = x.mean(dim=1)
                rstd = 1 / torch.sqrt(x.var(dim=1, unbiased=False) + EPS)
                err = max(err, rel_err(o[1], mean, x.abs().max().item()), rel_err(o[2], rstd))
            return err
        if k == "scale_bias":
            return rel_err(o[0], (x * self.scale.float()[:, None] + self.bias.float()[None, :]).to(dt))
        if k in TRANSPOSES:
            return 0.0 if torch.equal(o[0], self.x.t().contiguous()) else math.inf
        if k in COLUMNS:
            want = self.x.double().sum(dim=0)
            return rel_err(o[0], want, self.x.double().abs().sum(dim=0).max().item())
        if k == "row_sum_loop":
            want = self.x.double().sum(dim=1)
            return rel_err(o[0], want, self.x.double().abs().sum(dim=1).max().item())
        if k == "row_cumsum":
            return rel_err(o[0], self.x.double().cumsum(1).to(dt),
                           self.x.double().abs().sum(1).max().item())
        if k in SCANS:
            return rel_err(o[0], chunk_cumsum_reference(self.x, self.bm, k == "chunk_cumsum_rev")
                           .to(dt), chunk_magnitude(self.x, self.bm))
        h = x + self.bias.float()[None, :]
        return rel_err(o[0], torch.nn.functional.gelu(h, approximate="tanh").to(dt))

    def tolerance(self):
        """Of `error()`: f32 outputs 1e-4. A 16-bit output is compared with
        the reference rounded to its type, so one element may be a whole
        ulp off: f16 keeps 4e-3 (about four ulps of 2^-10), bf16 gets one
        ulp of 2^-7 (plus the f32 allowance)."""
        out = torch.float32 if self.kernel in COLUMNS + ("row_sum_loop", ) else self.dtype
        if out == torch.float32:
            return 1e-4
        return 4e-3 if out == torch.float16 else 2.0 ** -7 + 1e-4



def chunk_cumsum_reference(x, bm, reverse):
    """Prefix sums of `x` within chunks of `bm` rows, in f64 (from each
    chunk's last row when `reverse`)."""
    m, n = x.shape
    pad = (-m) % bm
    chunks = torch.nn.functional.pad(x.double(), (0, 0, 0, pad)).view(-1, bm, n)
    if reverse:
        chunks = chunks.flip(1).cumsum(1).flip(1)
    else:
        chunks = chunks.cumsum(1)
    return chunks.reshape(-1, n)[:m]


def chunk_magnitude(x, bm):
    """The largest sum of a chunk's magnitudes down one column: the scale
    of a chunked prefix sum's error."""
    m, n = x.shape
    pad = (-m) % bm
    chunks = torch.nn.functional.pad(x.double().abs(), (0, 0, 0, pad)).view(-1, bm, n)
    return chunks.sum(1).max().item()


def parse_config(text):
    tiles, rest = text.split("/w")
    warps, stages = rest.split("/s")
    bm, bn = (int(v) for v in tiles.split("x"))
    return bm, bn, int(warps), int(stages)


def short(error):
    """An exception's own lines, not Triton's source excerpt and caret."""
    lines = [line.strip() for line in str(error).splitlines()
             if line.strip() and set(line.strip()) != {"^"}]
    return f"{type(error).__name__}: {' | '.join(lines[-3:])[:400]}"


def run_config(case, label, name, opts, flush):
    """Checks and times one configuration; returns (ms, err, ok)."""
    label = f"{label} {name}"
    try:
        case.poison()
        fn = case.launcher(*parse_config(name))
        fn()
        torch.cuda.synchronize()
        err = case.error()
        ok = math.isfinite(err) and err <= case.tolerance()
        ms = median_ms(fn, opts.warmup, opts.reps, flush)
        protocol.log(f"{label}: {ms:.4f} ms, max_err {err:.3e}{'' if ok else ' WRONG'}")
        return ms, err, ok
    except Exception as error:  # a configuration that cannot compile or run
        protocol.log(f"{label}: {short(error)}")
        return None, None, False


def add_case_options(parser):
    """The timing options and `--case KERNEL DTYPE MxN CONFIGS` (repeated),
    as this script and `bench/same_process.py` take them."""
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--flush-bytes", type=int, default=256 << 20)
    parser.add_argument("--case", nargs=4, action="append", default=[],
                        metavar=("KERNEL", "DTYPE", "MxN", "CONFIGS"))


def check_cases(parser, args):
    """Stops with a usage error unless `args.case` names at least one case,
    each of a known kernel and type and an MxN size."""
    if not args.case:
        parser.error("need at least one --case")
    for kernel, dtype, size, _ in args.case:
        if kernel not in KERNELS or dtype not in DTYPES or len(size.split("x")) != 2:
            parser.error(f"--case {kernel} {dtype} {size}: want one of {', '.join(KERNELS)}, "
                         f"a type of {', '.join(DTYPES)} and MxN")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_case_options(parser)
    args = parser.parse_args()
    check_cases(parser, args)
    protocol.info(f"triton={triton.__version__} torch={torch.__version__} "
                  f"device={torch.cuda.get_device_name().replace(' ', '_')} "
                  f"gelu_tanh={libdevice.__name__}.tanh gelu_fast_tanh=tanh.approx.f32")
    flush = L2Flush(args.flush_bytes)
    status = 0
    for kernel, dtype, size, configs in args.case:
        m, n = (int(v) for v in size.split("x"))
        case = Case(kernel, dtype, m, n)
        for name in configs.split(","):
            ms, err, ok = run_config(case, f"{kernel} {dtype} {size}", name, args, flush)
            status |= 0 if ok else 1
            protocol.result(kernel=kernel, dtype=dtype, size=size, config=name,
                            triton_ms=protocol.rounded(ms, ".4f"),
                            max_err=protocol.rounded(err, ".3e"), ok=bool(ok))
        del case
        torch.cuda.empty_cache()
    return status


if __name__ == "__main__":
    sys.exit(main())
