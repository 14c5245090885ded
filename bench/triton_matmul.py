#!/usr/bin/env python3
"""Triton 3.6 and cuBLAS (torch.matmul) baselines for `tile-tools matmul-bench`.

Triton's kernel is its tutorial 03 matmul written with block pointers, as
ours (examples/src/matmul.rs) is: grouped program order (GROUP_M = 8), a K
loop of block-pointer loads with boundary checks, `tl.dot` accumulating in
fp32, the result stored in the inputs' type. It is autotuned over the
tutorial's CUDA configurations (the eight that are not marked for fp8), on
M, N and K. cuBLAS is `torch.matmul`.

    python3 bench/triton_matmul.py [--warmup W] [--reps R] [--flush-bytes B]
        --case DTYPE MxNxK [--case ...]

DTYPE is f16 or bf16; A is M x K and B is K x N, both row-major, random
normal from a fixed seed. Triton's output is checked against torch's: the
largest absolute difference over the largest magnitude must be at most
TOLERANCE. Both are timed as `tile-tools matmul-bench` times ours:
`warmup` untimed calls and a synchronize, then for each of `reps`
repetitions: zero (`cuMemsetD8Async`, as `tile-tools` does) a `flush_bytes`
buffer (L2 flush), record a start event,
call once, record an end event; one synchronize at the end; the median.

Output: protocol lines (bench/protocol.py: one JSON object a line): one
`info` line, then per case

    {"protocol": 1, "kind": "result", "dtype": DTYPE, "size": "MxNxK",
     "triton_ms": MEDIAN, "torch_ms": MEDIAN, "max_err": ERR, "ok": true|false,
     "config": "BMxBNxBK/wW/sS"}

times to 4 decimals, the error to 4 significant digits, null for what
could not be measured (the error is on an `error` line before it). Exit
status 0 when every Triton output matched, 1 otherwise, 2 for bad
arguments, 3 without torch/triton (after a `skip` line).
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
    triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}, num_warps=w, num_stages=s)
    for (bm, bn, bk, w, s) in [
        (128, 256, 64, 8, 3),
        (64, 256, 32, 4, 4),
        (128, 128, 32, 4, 4),
        (128, 64, 32, 4, 4),
        (64, 128, 32, 4, 4),
        (128, 32, 32, 4, 4),
        (64, 32, 32, 2, 5),
        (32, 64, 32, 2, 5),
    ]
]


@triton.autotune(configs=CONFIGS, key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    a_block = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak),
                                (pid_m * BLOCK_M, 0), (BLOCK_M, BLOCK_K), (1, 0))
    b_block = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn),
                                (0, pid_n * BLOCK_N), (BLOCK_K, BLOCK_N), (1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_block = tl.advance(a_block, (0, BLOCK_K))
        b_block = tl.advance(b_block, (BLOCK_K, 0))
    c = acc.to(c_ptr.dtype.element_ty)
    c_block = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn),
                                (pid_m * BLOCK_M, pid_n * BLOCK_N), (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(c_block, c, boundary_check=(0, 1))


def triton_matmul(a, b, c):
    M, K = a.shape
    _, N = b.shape
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1))



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--flush-bytes", type=int, default=256 << 20)
    parser.add_argument("--case", nargs=2, action="append", metavar=("DTYPE", "MxNxK"), required=True)
    args = parser.parse_args()
    protocol.info(f"triton={triton.__version__} torch={torch.__version__} "
                  f"device={torch.cuda.get_device_name().replace(' ', '_')}")
    flush = L2Flush(args.flush_bytes)
    all_ok = True
    for dtype_name, size in args.case:
        dtype = {"f16": torch.float16, "bf16": torch.bfloat16}.get(dtype_name)
        try:
            m, n, k = (int(x) for x in size.split("x"))
        except ValueError:
            protocol.error(f"bad size {size}")
            sys.exit(2)
        if dtype is None:
            protocol.error(f"bad dtype {dtype_name}")
            sys.exit(2)
        gen = torch.Generator(device="cuda").manual_seed(m * 7 + n * 3 + k)
        a = torch.randn((m, k), device="cuda", dtype=dtype, generator=gen)
        b = torch.randn((k, n), device="cuda", dtype=dtype, generator=gen)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        triton_ms = torch_ms = err = None
        ok = 0
        config = None
        try:
            want = torch.matmul(a, b)
            triton_matmul(a, b, c)
            torch.cuda.synchronize()
            scale = want.float().abs().max().item()
            err_value = (c.float() - want.float()).abs().max().item() / max(scale, 1e-30)
            err = protocol.rounded(err_value, ".3e")
            ok = int(err_value <= TOLERANCE)
            best = matmul_kernel.best_config
            config = (f"{best.kwargs['BLOCK_M']}x{best.kwargs['BLOCK_N']}x{best.kwargs['BLOCK_K']}"
                      f"/w{best.num_warps}/s{best.num_stages}")
            triton_ms = protocol.rounded(
                median_ms(lambda: triton_matmul(a, b, c), args.warmup, args.reps, flush), ".4f")
            torch_ms = protocol.rounded(
                median_ms(lambda: torch.matmul(a, b, out=c), args.warmup, args.reps, flush), ".4f")
        except Exception as error:  # report and go on with the next case
            protocol.error(f"{dtype_name} {size}: {error}")
        all_ok &= bool(ok)
        protocol.result(dtype=dtype_name, size=size, triton_ms=triton_ms, torch_ms=torch_ms,
                        max_err=err, ok=bool(ok), config=config)
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
