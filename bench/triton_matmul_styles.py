#!/usr/bin/env python3
"""Triton 3.6 and cuBLAS baselines for `tile-tools matmul-bench --styles`.

The same product C = A @ B written the ways users write it, each kernel
the Triton source of the style of the same name in
examples/src/matmul_styles.rs (which is written to read like it, line for
line):

    block_ptr     make_block_ptr + advance, boundary checks
    pointers      tutorial 03: pointer tensors carried and advanced, % M / % N, a mask on K
    recomputed    offsets rebuilt from the loop index, masks on M, N and K
    b_transposed  A @ B^T, B stored [N, K], its tile loaded [BN, BK] and .T'd
    batched       program_id(1) over a batch of 4, batch strides
    split_k       program_id(1) over 4 slices of K, atomic_add into an f32 C
    persistent    one program per SM, stepping over tiles by num_programs
    while_k       tutorial 03 with a while loop on the offset into K

Each case runs every configuration given (the same list ours runs) and
reports the fastest, as an autotuner would choose; cuBLAS is torch.matmul
(torch.bmm for the batch, A @ B.T for b_transposed; TF32 with
allow_tf32, int8 through torch._int_mm).

    python3 bench/triton_matmul_styles.py [--warmup W] [--reps R] [--flush-bytes B]
        --case STYLE DTYPE MxNxK CONFIGS [--case ...]

CONFIGS is a comma-separated list of BMxBNxBK/wW/sS.

DTYPE is f16, bf16, tf32 or i8. Inputs are random from a fixed seed
(integers in [-4, 4) for i8). Each Triton result is checked against torch
(the largest difference over the largest magnitude at most TOLERANCE;
exact for i8). Timing as `tile-tools matmul-bench`: warm-up calls and a
synchronize, then per repetition zero (`cuMemsetD8Async`, as `tile-tools` does)
a flush buffer (L2), record a start
event, call once, record an end event; one synchronize; the median.

Output: protocol lines (bench/protocol.py: one JSON object a line): one
`info` line (versions, device, SMs), `log` lines (each configuration's
time or failure), then per case

    {"protocol": 1, "kind": "result", "style": STYLE, "dtype": DTYPE,
     "size": "MxNxK", "triton_ms": MEDIAN, "torch_ms": MEDIAN, "ok": true|false,
     "config": "BMxBNxBK/wW/sS"}

times to 4 decimals, null for what could not be measured. Exit status 0
when every Triton output matched, 1 otherwise, 2 for bad arguments, 3
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

TOLERANCE = 2e-2
BATCH = 4
SPLITS = 4
GROUP_M = 8  # passed to every kernel as the constexpr GROUP


@triton.jit
def grouped(pid, M, N, BM: tl.constexpr, BN: tl.constexpr, GROUP: tl.constexpr):
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GROUP * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP
    group_size_m = min(num_pid_m - first_pid_m, GROUP)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def store_c(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr):
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=c_mask)


@triton.jit
def pointers_tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, pid_m, pid_n, ACC: tl.constexpr, BM: tl.constexpr,
                  BN: tl.constexpr, BK: tl.constexpr, TRANSPOSED_B: tl.constexpr):
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    if TRANSPOSED_B:
        b_ptrs = b_ptr + (offs_bn[:, None] * stride_bn + offs_k[None, :] * stride_bk)
    else:
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0)
        if TRANSPOSED_B:
            b = tl.load(b_ptrs, mask=offs_k[None, :] < K - k * BK, other=0).T
        else:
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    store_c(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BM, BN)


@triton.jit
def k_pointers(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               stride_cm, stride_cn, ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr, TRANSPOSED_B: tl.constexpr, GROUP: tl.constexpr):
    pid_m, pid_n = grouped(tl.program_id(0), M, N, BM, BN, GROUP)
    pointers_tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, pid_m, pid_n, ACC, BM, BN, BK, TRANSPOSED_B)


@triton.jit
def k_batched(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
              stride_cm, stride_cn, stride_ab, stride_bb, stride_cb, ACC: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    batch = tl.program_id(1)
    pid_m, pid_n = grouped(tl.program_id(0), M, N, BM, BN, GROUP)
    pointers_tile(a_ptr + batch * stride_ab, b_ptr + batch * stride_bb, c_ptr + batch * stride_cb,
                  M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  pid_m, pid_n, ACC, BM, BN, BK, False)


@triton.jit
def k_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                 stride_cm, stride_cn, ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr, GROUP: tl.constexpr):
    tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    for tile in range(tl.program_id(0), tiles, tl.num_programs(0)):
        pid_m, pid_n = grouped(tile, M, N, BM, BN, GROUP)
        pointers_tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                      stride_cm, stride_cn, pid_m, pid_n, ACC, BM, BN, BK, False)


@triton.jit
def k_while(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
            stride_cm, stride_cn, ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
            BK: tl.constexpr, GROUP: tl.constexpr):
    pid_m, pid_n = grouped(tl.program_id(0), M, N, BM, BN, GROUP)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BM, BN), dtype=ACC)
    at = 0
    while at < K:
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - at, other=0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - at, other=0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
        at += BK
    store_c(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BM, BN)


@triton.jit
def k_recomputed(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                 stride_cm, stride_cn, ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr, GROUP: tl.constexpr):
    pid_m, pid_n = grouped(tl.program_id(0), M, N, BM, BN, GROUP)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for i in range(0, tl.cdiv(K, BK)):
        offs_k = i * BK + tl.arange(0, BK)
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
        a_mask = (offs_m[:, None] < M) & (offs_k[None, :] < K)
        b_mask = (offs_k[:, None] < K) & (offs_n[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0)
        b = tl.load(b_ptrs, mask=b_mask, other=0)
        acc = tl.dot(a, b, acc)
    store_c(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, stride_cn, BM, BN)


@triton.jit
def k_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                stride_cm, stride_cn, ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr, GROUP: tl.constexpr):
    pid_m, pid_n = grouped(tl.program_id(0), M, N, BM, BN, GROUP)
    a_block = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_block = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=ACC)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_block = tl.advance(a_block, (0, BK))
        b_block = tl.advance(b_block, (BK, 0))
    c_block = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_block, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def k_split_k(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
              stride_cm, stride_cn, ACC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
              BK: tl.constexpr, GROUP: tl.constexpr):
    pid_m, pid_n = grouped(tl.program_id(0), M, N, BM, BN, GROUP)
    slice_ = tl.program_id(1)
    slices = tl.num_programs(1)
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = slice_ * BK + tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for i in range(0, tl.cdiv(K, BK * slices)):
        left = K - (i * slices + slice_) * BK
        a = tl.load(a_ptrs, mask=tl.arange(0, BK)[None, :] < left, other=0)
        b = tl.load(b_ptrs, mask=tl.arange(0, BK)[:, None] < left, other=0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * slices * stride_ak
        b_ptrs += BK * slices * stride_bk
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.atomic_add(c_ptrs, acc, mask=c_mask)


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "tf32": torch.float32, "i8": torch.int8}


def out_dtype(style, dtype):
    if dtype == "i8":
        return torch.int32
    if style == "split_k" or dtype == "tf32":
        return torch.float32
    return DTYPES[dtype]


def parse_config(text):
    tiles, rest = text.split("/w")
    warps, stages = rest.split("/s")
    bm, bn, bk = (int(x) for x in tiles.split("x"))
    return bm, bn, bk, int(warps), int(stages)


def make_inputs(style, dtype, m, n, k):
    g = torch.Generator(device="cuda").manual_seed(1234)
    batch = BATCH if style == "batched" else 1
    if dtype == "i8":
        a = torch.randint(-4, 4, (batch, m, k), device="cuda", dtype=torch.int8, generator=g)
        b = torch.randint(-4, 4, (batch, k, n), device="cuda", dtype=torch.int8, generator=g)
    else:
        a = torch.randn((batch, m, k), device="cuda", generator=g).to(DTYPES[dtype])
        b = torch.randn((batch, k, n), device="cuda", generator=g).to(DTYPES[dtype])
    if style == "b_transposed":
        # B stored [N, K]: the same values, transposed storage.
        b = b.transpose(1, 2).contiguous()
    if batch == 1:
        a, b = a[0], b[0]
    return a, b


def reference(style, dtype, a, b):
    bt = b.transpose(-1, -2) if style == "b_transposed" else b
    # Exact for i8 (sums of at most 2^22 products of 4 bits each fit f64's
    # 53-bit mantissa); CUDA has no int32 matmul.
    if dtype == "i8":
        return torch.matmul(a.to(torch.float64), bt.to(torch.float64))
    return torch.matmul(a.to(torch.float32), bt.to(torch.float32))


def launcher(style, dtype, a, b, c, m, n, k, config, sms):
    bm, bn, bk, warps, stages = config
    acc = tl.int32 if dtype == "i8" else tl.float32
    tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
    common = dict(ACC=acc, BM=bm, BN=bn, BK=bk, GROUP=GROUP_M, num_warps=warps, num_stages=stages)
    if style == "b_transposed":
        # b is [N, K]: stride_bk = 1, stride_bn = K.
        strides = (a.stride(0), a.stride(1), b.stride(1), b.stride(0), c.stride(0), c.stride(1))
    elif style == "batched":
        strides = (a.stride(1), a.stride(2), b.stride(1), b.stride(2), c.stride(1), c.stride(2))
    else:
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    args = (a, b, c, m, n, k) + strides
    if style in ("pointers", "b_transposed"):
        return lambda: k_pointers[(tiles,)](*args, TRANSPOSED_B=(style == "b_transposed"), **common)
    if style == "batched":
        extra = (a.stride(0), b.stride(0), c.stride(0))
        return lambda: k_batched[(tiles, BATCH)](*args, *extra, **common)
    if style == "persistent":
        return lambda: k_persistent[(min(tiles, sms),)](*args, **common)
    kernel = {"recomputed": k_recomputed, "block_ptr": k_block_ptr, "while_k": k_while,
              "split_k": k_split_k}[style]
    grid = (tiles, SPLITS) if style == "split_k" else (tiles,)
    return lambda: kernel[grid](*args, **common)


def cublas(style, dtype, a, b):
    if dtype == "i8":
        # cuBLAS's int8 product wants B column-major: B^T's storage is, a
        # row-major B is copied so once, outside the timing.
        if style == "b_transposed":
            return lambda: torch._int_mm(a, b.T)
        if style == "batched":
            return None
        b_cols = b.t().contiguous().t()
        return lambda: torch._int_mm(a, b_cols)
    if style == "b_transposed":
        return lambda: torch.matmul(a, b.T)
    return lambda: torch.matmul(a, b)



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--flush-bytes", type=int, default=256 << 20)
    parser.add_argument("--case", nargs=4, action="append", default=[],
                        metavar=("STYLE", "DTYPE", "MxNxK", "CONFIGS"))
    args = parser.parse_args()
    if not args.case:
        print("need at least one --case", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = True
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    protocol.info(f"triton={triton.__version__} torch={torch.__version__} "
                  f"device={torch.cuda.get_device_name()} sms={sms}")
    flush = L2Flush(args.flush_bytes)
    status = 0
    for style, dtype, size, config_list in args.case:
        names = config_list.split(",")
        configs = [parse_config(c) for c in names]
        m, n, k = (int(x) for x in size.split("x"))
        a, b = make_inputs(style, dtype, m, n, k)
        shape = (BATCH, m, n) if style == "batched" else (m, n)
        c = torch.zeros(shape, device="cuda", dtype=out_dtype(style, dtype))
        want = reference(style, dtype, a, b)
        best, best_config, ok = None, None, True
        for config in configs:
            try:
                fn = launcher(style, dtype, a, b, c, m, n, k, config, sms)
                c.zero_()
                fn()
                torch.cuda.synchronize()
                got = c.to(want.dtype)
                if dtype == "i8":
                    good = bool(torch.equal(got, want))
                else:
                    err = (got - want).abs().max().item() / max(want.abs().max().item(), 1e-30)
                    good = err <= TOLERANCE
                if not good:
                    ok = False
                    protocol.log(f"{style} {dtype} {size} {names[configs.index(config)]}: wrong result")
                    continue
                ms = median_ms(fn, args.warmup, args.reps, flush)
                protocol.log(f"{style} {dtype} {size} {names[configs.index(config)]}: {ms:.4f} ms")
                if best is None or ms < best:
                    best, best_config = ms, names[configs.index(config)]
            except Exception as error:  # a configuration Triton cannot compile
                # The message's own lines, not the source excerpt and caret.
                lines = [l.strip() for l in str(error).splitlines() if l.strip() and set(l.strip()) != {"^"}]
                text = " | ".join(lines[-3:])[:400]
                protocol.log(f"{style} {dtype} {size} {names[configs.index(config)]}: "
                             f"{type(error).__name__}: {text}")
        torch_ms = None
        fn = cublas(style, dtype, a, b)
        if fn is not None:
            try:
                torch_ms = protocol.rounded(median_ms(fn, args.warmup, args.reps, flush), ".4f")
            except Exception as error:
                protocol.log(f"cublas {style} {dtype} {size}: {type(error).__name__}: {str(error)[:200]}")
        triton_ms = protocol.rounded(best, ".4f")
        if best is None:
            ok = False
        status |= 0 if ok else 1
        protocol.result(style=style, dtype=dtype, size=size, triton_ms=triton_ms,
                        torch_ms=torch_ms, ok=bool(ok), config=best_config)
    return status


if __name__ == "__main__":
    sys.exit(main())
