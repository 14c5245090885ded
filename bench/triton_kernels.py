#!/usr/bin/env python3
"""Triton 3.6 and PyTorch baselines for `tile-tools bench`.

The same kernels as ours (examples/src/{vector_add,row_sum,weighted_sum,
softmax}.rs), written line for line as the seeds write them, the LayerNorm
forward (examples/src/layer_norm.rs) as Triton's tutorial 05 writes it, the
cross-entropy forward (examples/src/cross_entropy.rs) with the same
algorithm as ours, and their PyTorch equivalents (for the cross-entropy:
F.cross_entropy without reduction, and argmax; the predictions must agree
exactly). `tile-tools bench` defines the cases and the timing
and passes them on the command line:

    python3 bench/triton_kernels.py [--warmup W] [--reps R] [--flush-bytes B]
        [--seed S] --case KERNEL SIZE BLOCK WARPS [--case ...]

KERNEL is vector_add, row_sum, weighted_sum_fwd, weighted_sum_bwd, softmax,
layer_norm, cross_entropy or layer_norm_bwd; SIZE is N (vector_add) or ROWSxCOLS; BLOCK is BLOCK
(vector_add, softmax, cross_entropy), BLOCK_N (row_sum, layer_norm_bwd), ROWS_TILExD_TILE (weighted sums)
or BLOCK_SIZE (layer_norm, which must be the tutorial's heuristic for COLS,
as WARPS must); WARPS is num_warps. Inputs are random normal fp32,
contiguous, from a fixed seed.

Each Triton output is poisoned (NaN), computed once and compared with
PyTorch's: the largest absolute difference over the largest magnitude of
PyTorch's output must be at most TOLERANCE. Then both are timed as
`tile-tools bench` times ours: `warmup` untimed calls and a synchronize,
then for each of `reps` repetitions: zero (`cuMemsetD8Async`, as `tile-tools`
does) a `flush_bytes` buffer (L2
flush), record a start event, call once, record an end event; one
synchronize at the end; the median of the elapsed times.

Output: protocol lines (bench/protocol.py: one JSON object a line): one
`info` line (versions, device), then one `result` per case:

    {"protocol": 1, "kind": "result", "kernel": KERNEL, "size": SIZE,
     "triton_ms": MEDIAN, "torch_ms": MEDIAN, "max_err": ERR, "ok": true|false}

times to 5 decimals, the error to 4 significant digits, null for what
could not be measured (the error is on an `error` line before it). Exit
status: 0 when every Triton output matched, 1 when one did not or a case
failed, 2 for bad arguments, 3 when torch or triton cannot be imported
(after a `skip` line).
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

# Where the tensors live (the kernels also run under TRITON_INTERPRET=1 on
# "cpu", which is how they can be checked without a GPU).
DEVICE = "cuda"

# The largest accepted max_err (fp32 throughout).
TOLERANCE = 1e-4

# The LayerNorm's eps, as tile-tools bench passes it (PyTorch's default).
EPS = 1e-5


# ---- the kernels, as in the seeds ----


@triton.jit
def safe_kernel(x_ptr, y_ptr, out_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    z = x + y
    tl.store(out_ptr + offs, z, mask=m)


# Seed 002's sum_row_blocked_iterative_kernel. As in ours, M and N are
# runtime arguments (the seed makes them constexpr) and the loads pad with
# zeros.
@triton.jit
def row_sum(A_ptr, outputs_ptr, M, N, BLOCK_N: tl.constexpr, A_strides_x, A_strides_y):
    program_id = tl.program_id(axis=0)
    input_block_ptr = tl.make_block_ptr(
        base=A_ptr, shape=(M, N), strides=(A_strides_x, A_strides_y),
        offsets=(program_id, 0), block_shape=(1, BLOCK_N), order=(1, 0))
    output_block_ptr = tl.make_block_ptr(
        base=outputs_ptr, shape=(M, ), strides=(1, ),
        offsets=(program_id, ), block_shape=(1, ), order=(0, ))
    accumulator = tl.zeros((1, ), dtype=tl.float32)
    for _ in range(0, N, BLOCK_N):
        input_block = tl.load(input_block_ptr, boundary_check=(0, 1), padding_option="zero")
        accumulator += tl.sum(input_block, axis=1)
        input_block_ptr = tl.advance(input_block_ptr, (0, BLOCK_N))
    tl.store(output_block_ptr, accumulator)


# Seed 004 (CS336 assignment 2): the weighted sum x @ w, forward.
@triton.jit
def weighted_sum_fwd(
    x_ptr, weight_ptr,
    output_ptr,
    x_stride_row, x_stride_dim,
    weight_stride_dim,
    output_stride_row,
    ROWS, D,
    ROWS_TILE_SIZE: tl.constexpr, D_TILE_SIZE: tl.constexpr,
):
    row_tile_idx = tl.program_id(0)
    x_block_ptr = tl.make_block_ptr(
        x_ptr,
        shape=(ROWS, D),
        strides=(x_stride_row, x_stride_dim),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0),
        block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE),
        order=(1, 0),
    )
    weight_block_ptr = tl.make_block_ptr(
        weight_ptr,
        shape=(D, ),
        strides=(weight_stride_dim, ),
        offsets=(0, ),
        block_shape=(D_TILE_SIZE, ),
        order=(0, ),
    )
    output_block_ptr = tl.make_block_ptr(
        output_ptr,
        shape=(ROWS, ),
        strides=(output_stride_row, ),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, ),
        block_shape=(ROWS_TILE_SIZE, ),
        order=(0, ),
    )
    output = tl.zeros((ROWS_TILE_SIZE, ), dtype=tl.float32)
    for i in range(tl.cdiv(D, D_TILE_SIZE)):
        row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")
        weight = tl.load(weight_block_ptr, boundary_check=(0, ), padding_option="zero")
        output += tl.sum(row * weight[None, :], axis=1)
        x_block_ptr = tl.advance(x_block_ptr, (0, D_TILE_SIZE))
        weight_block_ptr = tl.advance(weight_block_ptr, (D_TILE_SIZE, ))
    tl.store(output_block_ptr, output, boundary_check=(0, ))


# Seed 004: the weighted sum, backward. One row of partial weight gradients
# per program, in a (n_programs, D) buffer.
@triton.jit
def weighted_sum_bwd(
    x_ptr, weight_ptr,
    grad_output_ptr,
    grad_x_ptr, partial_grad_weight_ptr,
    stride_xr, stride_xd,
    stride_wd,
    stride_gr,
    stride_gxr, stride_gxd,
    stride_gwb, stride_gwd,
    NUM_ROWS, D,
    ROWS_TILE_SIZE: tl.constexpr, D_TILE_SIZE: tl.constexpr,
):
    row_tile_idx = tl.program_id(0)
    n_row_tiles = tl.num_programs(0)

    # Inputs.
    grad_output_block_ptr = tl.make_block_ptr(
        grad_output_ptr,
        shape=(NUM_ROWS, ), strides=(stride_gr, ),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, ),
        block_shape=(ROWS_TILE_SIZE, ),
        order=(0, ),
    )
    x_block_ptr = tl.make_block_ptr(
        x_ptr,
        shape=(NUM_ROWS, D), strides=(stride_xr, stride_xd),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0),
        block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE),
        order=(1, 0),
    )
    weight_block_ptr = tl.make_block_ptr(
        weight_ptr,
        shape=(D, ), strides=(stride_wd, ),
        offsets=(0, ), block_shape=(D_TILE_SIZE, ),
        order=(0, ),
    )
    # Outputs.
    grad_x_block_ptr = tl.make_block_ptr(
        grad_x_ptr,
        shape=(NUM_ROWS, D), strides=(stride_gxr, stride_gxd),
        offsets=(row_tile_idx * ROWS_TILE_SIZE, 0),
        block_shape=(ROWS_TILE_SIZE, D_TILE_SIZE),
        order=(1, 0),
    )
    partial_grad_weight_block_ptr = tl.make_block_ptr(
        partial_grad_weight_ptr,
        shape=(n_row_tiles, D), strides=(stride_gwb, stride_gwd),
        offsets=(row_tile_idx, 0),
        block_shape=(1, D_TILE_SIZE),
        order=(1, 0),
    )

    for i in range(tl.cdiv(D, D_TILE_SIZE)):
        grad_output = tl.load(grad_output_block_ptr, boundary_check=(0, ), padding_option="zero")  # (ROWS_TILE_SIZE,)

        # Outer product for grad_x.
        weight = tl.load(weight_block_ptr, boundary_check=(0, ), padding_option="zero")  # (D_TILE_SIZE,)
        grad_x_row = grad_output[:, None] * weight[None, :]
        tl.store(grad_x_block_ptr, grad_x_row, boundary_check=(0, 1))

        # Reduce as many rows as possible for the grad_weight result.
        row = tl.load(x_block_ptr, boundary_check=(0, 1), padding_option="zero")  # (ROWS_TILE_SIZE, D_TILE_SIZE)
        grad_weight_row = tl.sum(row * grad_output[:, None], axis=0, keep_dims=True)
        # Never out of bounds on axis 0: one row per program.
        tl.store(partial_grad_weight_block_ptr, grad_weight_row, boundary_check=(1, ))

        x_block_ptr = tl.advance(x_block_ptr, (0, D_TILE_SIZE))
        weight_block_ptr = tl.advance(weight_block_ptr, (D_TILE_SIZE, ))
        partial_grad_weight_block_ptr = tl.advance(partial_grad_weight_block_ptr, (0, D_TILE_SIZE))
        grad_x_block_ptr = tl.advance(grad_x_block_ptr, (0, D_TILE_SIZE))


# Row softmax (seed 000's warning: masked lanes read -inf before the max).
@triton.jit
def softmax(x_ptr, out_ptr, stride_xr, stride_outr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n_cols
    x = tl.load(x_ptr + row * stride_xr + offs, mask=m, other=-float('inf'))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride_outr + offs, num / den, mask=m)


# LayerNorm forward after Triton's tutorial 05: one program per row; the
# mean, then the (biased) variance, by loops over blocks of columns
# accumulated in fp32, masked lanes reading 0 and kept out of the variance by
# tl.where; 1 / sqrt(var + eps); Mean and Rstd stored per row; a last loop
# normalizes, scales by W, shifts by B and stores Y.
@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        m = cols < N
        x = tl.load(X + cols, mask=m, other=0.).to(tl.float32)
        d = tl.where(m, x - mean, 0.)
        acc += d * d
    var = tl.sum(acc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        m = cols < N
        w = tl.load(W + cols, mask=m)
        b = tl.load(B + cols, mask=m)
        x = tl.load(X + cols, mask=m, other=0.).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=m)


def layer_norm_config(n, element_size):
    """The tutorial's heuristics for rows of `n` elements: BLOCK_SIZE (the
    next power of two of n, at most 64 KiB of elements) and num_warps (one
    per 256 elements, 1 to 8)."""
    block = min(65536 // element_size, triton.next_power_of_2(n))
    return block, min(max(block // 256, 1), 8)


# Cross-entropy forward (examples/src/cross_entropy.rs): one program per
# row, BLOCK logits per iteration; the online log-sum-exp (the running sum
# rescaled by exp(old max - new max)), and the first index of the maximum:
# the first block whose max beats every earlier one, argmax's first index
# within it.
@triton.jit
def cross_entropy_fwd(X, T, Loss, Pred, stride, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = X + row * stride
    m = -float("inf")
    s = 0.0
    best = -float("inf")
    best_i = 0
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < V, other=-float("inf"))
        bm = tl.max(x, 0)
        new_m = tl.maximum(m, bm)
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), 0)
        m = new_m
        bi = tl.argmax(x, 0)
        best_i = tl.where(bm > best, off + bi, best_i)
        best = tl.maximum(best, bm)
    t = tl.load(T + row)
    tl.store(Loss + row, tl.log(s) + m - tl.load(x_row + t))
    tl.store(Pred + row, best_i)


# LayerNorm backward (examples/src/layer_norm_bwd.rs): a fixed number of
# programs, each over every programs-th row; DX per row; the partial DW and
# DB summed in registers, then one atomic add per column.
@triton.jit
def layer_norm_bwd(X, DY, DX, W, Mean, Rstd, DW, DB, stride, M, N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0)
    dw = tl.zeros((BLOCK_N, ), dtype=tl.float32)
    db = tl.zeros((BLOCK_N, ), dtype=tl.float32)
    for row in range(pid, M, programs):
        x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
        dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0)
        mean = tl.load(Mean + row)
        rstd = tl.load(Rstd + row)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / N
        c2 = tl.sum(wdy, axis=0) / N
        tl.store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=mask)
        dw += dy * xhat
        db += dy
    tl.atomic_add(DW + cols, dw, mask=mask, sem="relaxed")
    tl.atomic_add(DB + cols, db, mask=mask, sem="relaxed")


# ---- the cases: a Triton launch, its PyTorch equivalent, the check ----


def rand(*shape):
    """Random normal fp32, contiguous, from the seeded generator."""
    return torch.randn(*shape, device=DEVICE, dtype=torch.float32)


def poisoned(*shape):
    """An output filled with NaN, so that an unwritten element shows."""
    return torch.full(shape, float("nan"), device=DEVICE, dtype=torch.float32)


def empty(*shape):
    """An fp32 output for PyTorch."""
    return torch.empty(*shape, device=DEVICE, dtype=torch.float32)


def rel_err(got, want):
    """The largest |got - want| over the largest |want|; inf on NaN."""
    if got.shape != want.shape or bool(torch.isnan(got).any()):
        return math.inf
    diff = (got - want).abs().max().item()
    scale = want.abs().max().item()
    return diff / scale if scale > 0 else diff


def vector_add_case(dims, block, warps):
    (n, ), (BLOCK, ) = dims, block
    x, y = rand(n), rand(n)
    out, ref = poisoned(n), empty(n)
    grid = (triton.cdiv(n, BLOCK), )

    def run_triton():
        safe_kernel[grid](x, y, out, n, BLOCK=BLOCK, num_warps=warps)

    def run_torch():
        torch.add(x, y, out=ref)

    return run_triton, run_torch, lambda: rel_err(out, ref)


def row_sum_case(dims, block, warps):
    (m, n), (BLOCK_N, ) = dims, block
    a = rand(m, n)
    out, ref = poisoned(m), empty(m)

    def run_triton():
        row_sum[(m, )](a, out, m, n, BLOCK_N=BLOCK_N, A_strides_x=a.stride(0),
                       A_strides_y=a.stride(1), num_warps=warps)

    def run_torch():
        torch.sum(a, dim=1, out=ref)

    return run_triton, run_torch, lambda: rel_err(out, ref)


def weighted_sum_fwd_case(dims, block, warps):
    (rows, d), (ROWS_TILE, D_TILE) = dims, block
    x, w = rand(rows, d), rand(d)
    out, ref = poisoned(rows), empty(rows)
    grid = (triton.cdiv(rows, ROWS_TILE), )

    def run_triton():
        weighted_sum_fwd[grid](
            x, w, out, x.stride(0), x.stride(1), w.stride(0), out.stride(0), rows, d,
            ROWS_TILE_SIZE=ROWS_TILE, D_TILE_SIZE=D_TILE, num_warps=warps)

    def run_torch():
        torch.mv(x, w, out=ref)  # x @ w

    return run_triton, run_torch, lambda: rel_err(out, ref)


def weighted_sum_bwd_case(dims, block, warps):
    (rows, d), (ROWS_TILE, D_TILE) = dims, block
    x, w, g = rand(rows, d), rand(d), rand(rows)
    programs = triton.cdiv(rows, ROWS_TILE)
    grad_x, partial = poisoned(rows, d), poisoned(programs, d)
    ref_grad_x, ref_partial = empty(rows, d), empty(programs, d)
    # PyTorch's partial grad weight: one batched (1 x ROWS_TILE) @
    # (ROWS_TILE x d) product per program (rows padded with zeros, once,
    # when they do not fill the last tile).
    pad = programs * ROWS_TILE - rows
    x_tiles = torch.nn.functional.pad(x, (0, 0, 0, pad)) if pad else x
    g_tiles = torch.nn.functional.pad(g, (0, pad)) if pad else g
    x_tiles = x_tiles.view(programs, ROWS_TILE, d)
    g_tiles = g_tiles.view(programs, 1, ROWS_TILE)
    ref_partial_3d = ref_partial.view(programs, 1, d)

    def run_triton():
        weighted_sum_bwd[(programs, )](
            x, w, g, grad_x, partial,
            x.stride(0), x.stride(1), w.stride(0), g.stride(0),
            grad_x.stride(0), grad_x.stride(1), partial.stride(0), partial.stride(1),
            rows, d, ROWS_TILE_SIZE=ROWS_TILE, D_TILE_SIZE=D_TILE, num_warps=warps)

    def run_torch():
        torch.mul(g[:, None], w[None, :], out=ref_grad_x)
        torch.bmm(g_tiles, x_tiles, out=ref_partial_3d)

    def error():
        return max(rel_err(grad_x, ref_grad_x), rel_err(partial, ref_partial))

    return run_triton, run_torch, error


def softmax_case(dims, block, warps):
    (rows, cols), (BLOCK, ) = dims, block
    x = rand(rows, cols)
    out = poisoned(rows, cols)
    ref = []

    def run_triton():
        softmax[(rows, )](x, out, x.stride(0), out.stride(0), cols, BLOCK=BLOCK, num_warps=warps)

    def run_torch():
        ref[:] = [torch.softmax(x, dim=1)]

    return run_triton, run_torch, lambda: rel_err(out, ref[0])


def layer_norm_case(dims, block, warps):
    (rows, cols), (BLOCK_SIZE, ) = dims, block
    if (BLOCK_SIZE, warps) != layer_norm_config(cols, 4):
        raise ValueError(f"layer_norm {rows}x{cols}: BLOCK_SIZE {BLOCK_SIZE} and {warps} warps, "
                         f"not the tutorial's {layer_norm_config(cols, 4)}")
    x, w, b = rand(rows, cols), rand(cols), rand(cols)
    y, mean, rstd = poisoned(rows, cols), poisoned(rows), poisoned(rows)
    # PyTorch's layer_norm returns Y only: Mean and Rstd (biased variance,
    # as layer_norm uses) are computed once, outside the timing.
    ref_mean = x.mean(dim=1)
    ref_rstd = 1 / torch.sqrt(x.var(dim=1, unbiased=False) + EPS)
    ref = []

    def run_triton():
        layer_norm_fwd[(rows, )](x, y, w, b, mean, rstd, x.stride(0), cols, EPS,
                                 BLOCK_SIZE=BLOCK_SIZE, num_warps=warps)

    def run_torch():
        ref[:] = [torch.nn.functional.layer_norm(x, (cols, ), w, b, EPS)]

    def error():
        return max(rel_err(y, ref[0]), rel_err(mean, ref_mean), rel_err(rstd, ref_rstd))

    return run_triton, run_torch, error


def cross_entropy_case(dims, block, warps):
    (rows, cols), (BLOCK, ) = dims, block
    x = rand(rows, cols)
    t = torch.randint(0, cols, (rows, ), device=DEVICE, dtype=torch.int32)
    loss = poisoned(rows)
    pred = torch.full((rows, ), -1, device=DEVICE, dtype=torch.int32)
    ref = []

    def run_triton():
        cross_entropy_fwd[(rows, )](x, t, loss, pred, x.stride(0), cols, BLOCK=BLOCK,
                                    num_warps=warps)

    def run_torch():
        ref[:] = [torch.nn.functional.cross_entropy(x, t.long(), reduction="none"),
                  x.argmax(dim=1)]

    def error():
        if not bool((pred.long() == ref[1]).all()):
            return math.inf
        return rel_err(loss, ref[0])

    return run_triton, run_torch, error


# Programs of the LayerNorm backward (layer_norm_bwd::PROGRAMS).
LN_BWD_PROGRAMS = 264


def layer_norm_bwd_case(dims, block, warps):
    (rows, cols), (BLOCK_N, ) = dims, block
    x, dy, w, b = rand(rows, cols), rand(rows, cols), rand(cols), rand(cols)
    mean = x.mean(dim=1)
    rstd = 1 / torch.sqrt(x.var(dim=1, unbiased=False) + EPS)
    dx = poisoned(rows, cols)
    dw = torch.zeros(cols, device=DEVICE, dtype=torch.float32)
    db = torch.zeros(cols, device=DEVICE, dtype=torch.float32)
    xr, wr, br = x.clone().requires_grad_(), w.clone().requires_grad_(), b.clone().requires_grad_()
    ref = []
    # Triton's first call (the one checked) finds DW and DB zero; later
    # calls accumulate into them, as ours do, which only the timing sees.

    def run_triton():
        layer_norm_bwd[(LN_BWD_PROGRAMS, )](x, dy, dx, w, mean, rstd, dw, db, x.stride(0),
                                            rows, cols, BLOCK_N=BLOCK_N, num_warps=warps)

    def run_torch():
        y = torch.nn.functional.layer_norm(xr, (cols, ), wr, br, EPS)
        ref[:] = torch.autograd.grad(y, (xr, wr, br), dy)

    def error():
        return max(rel_err(dx, ref[0]), rel_err(dw, ref[1]), rel_err(db, ref[2]))

    return run_triton, run_torch, error


CASES = {
    "vector_add": vector_add_case,
    "row_sum": row_sum_case,
    "weighted_sum_fwd": weighted_sum_fwd_case,
    "weighted_sum_bwd": weighted_sum_bwd_case,
    "softmax": softmax_case,
    "layer_norm": layer_norm_case,
    "cross_entropy": cross_entropy_case,
    "layer_norm_bwd": layer_norm_bwd_case,
}


# ---- timing and the driver ----



def run_case(kernel, size, block, warps, opts, flush):
    """Checks and times one case and prints its result line; True when
    Triton's output matched PyTorch's."""
    torch.manual_seed(opts.seed)
    run_triton, run_torch, error = CASES[kernel](dims(size), dims(block), int(warps))
    torch_ms = triton_ms = err = None
    try:
        run_torch()
        torch.cuda.synchronize()
        torch_ms = median_ms(run_torch, opts.warmup, opts.reps, flush)
    except Exception as e:  # noqa: BLE001 - reported, and the case goes on
        protocol.error(f"{kernel} {size} torch: {type(e).__name__}: {e}")
    try:
        run_triton()
        torch.cuda.synchronize()
        if torch_ms is not None:
            err = error()
        triton_ms = median_ms(run_triton, opts.warmup, opts.reps, flush)
    except Exception as e:  # noqa: BLE001 - reported, and the case goes on
        protocol.error(f"{kernel} {size} triton: {type(e).__name__}: {e}")
    ok = err is not None and math.isfinite(err) and err <= TOLERANCE
    protocol.result(kernel=kernel, size=size, triton_ms=protocol.rounded(triton_ms, ".5f"),
                    torch_ms=protocol.rounded(torch_ms, ".5f"),
                    max_err=protocol.rounded(err, ".3e"), ok=bool(ok))
    return ok


def dims(text):
    """`1024` -> (1024,), `65536x1024` -> (65536, 1024)."""
    return tuple(int(part) for part in text.split("x"))


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--flush-bytes", type=int, default=256 << 20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--case", nargs=4, action="append", required=True,
                        metavar=("KERNEL", "SIZE", "BLOCK", "WARPS"))
    opts = parser.parse_args(argv)
    for kernel, size, block, warps in opts.case:
        if kernel not in CASES:
            parser.error(f"unknown kernel {kernel}: want one of {', '.join(CASES)}")
        try:
            dims(size), dims(block), int(warps)
        except ValueError:
            parser.error(f"--case {kernel} {size} {block} {warps}: SIZE and BLOCK are numbers joined by x, WARPS a number")
    return opts


def main(argv=None):
    opts = parse_args(argv)
    # PyTorch's fp32 products in full fp32, as ours and Triton's.
    torch.backends.cuda.matmul.allow_tf32 = False
    name = torch.cuda.get_device_name().replace(" ", "_")
    protocol.info(f"triton={triton.__version__} torch={torch.__version__} device={name}")
    flush = L2Flush(opts.flush_bytes)
    failed = 0
    for kernel, size, block, warps in opts.case:
        try:
            ok = run_case(kernel, size, block, warps, opts, flush)
        except Exception as e:  # noqa: BLE001 - the case failed; the next one runs
            protocol.error(f"{kernel} {size}: {type(e).__name__}: {e}")
            protocol.result(kernel=kernel, size=size, triton_ms=None, torch_ms=None,
                            max_err=None, ok=False)
            ok = False
        failed += not ok
    if failed:
        protocol.error(f"FAIL {failed} of {len(opts.case)} cases: Triton's output did not "
                       f"match PyTorch's within {TOLERANCE:g}, or a case could not run")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
