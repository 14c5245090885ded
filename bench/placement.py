"""How much a memory-bound kernel's time moves with where its buffers lie.

The fast GELU of `bench/triton_shapes.py` (f16 [8192, 4096], a bias),
ours (the PTX `tile-tools shapes-bench` dumped, see `jit_vs_ptxas.py`) and
Triton's, each timed on the same six placements of its buffers (each set
allocated after a different amount of padding), by the shapes protocol:
warm-up, then per repetition an L2 flush as `tile-tools` makes it, a start
event, one launch, an end event; the median of 100.

    python3 bench/placement.py 64x64/w4 /tmp/d/.../10-kernel.ptx [...]

Prints a Markdown table: per tile shape and placement, both times and
their ratio, then each side's spread over the placements.
"""
import ctypes
import os
import statistics
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jit_vs_ptxas import M, N, check, cu, entry, load  # noqa: E402
from timing import L2Flush, median_ms  # noqa: E402
from triton_shapes import gelu_fast  # noqa: E402

PLACEMENTS = 6



def ours_launcher(fn, params, grid, threads, x, b, y):
    words, pointers, scalars = [], iter([x, b, y]), iter([M, N, N, N])
    for ty in params:
        if ty in ("u64", "b64", "s64"):
            words.append(ctypes.c_uint64(next(pointers).data_ptr()))
        else:
            words.append(ctypes.c_uint32(next(scalars)))
    argv = (ctypes.c_void_p * len(words))(
        *[ctypes.cast(ctypes.byref(w), ctypes.c_void_p) for w in words])
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def launch():
        check(cu.cuLaunchKernel(fn, grid[0], grid[1], 1, threads, 1, 1, 0, stream, argv, None),
              "launch")
    launch.keep = (words, argv)
    return launch


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        raise SystemExit(__doc__)
    flush = L2Flush(256 << 20)
    g = torch.Generator(device="cuda").manual_seed(0)
    sets, pads = [], []
    for p in range(PLACEMENTS):
        pads.append(torch.empty((p * 37 + 1) << 20, dtype=torch.uint8, device="cuda"))
        x = (torch.rand((M, N), device="cuda", generator=g) * 16 - 8).half()
        b = (torch.rand((N,), device="cuda", generator=g) * 16 - 8).half()
        sets.append((x, b, torch.empty_like(x)))
    print("| tiles | placement | x address (MiB) | ours ms | Triton ms | ours / Triton |")
    print("|---|---|---|---|---|---|")
    spreads = []
    for config, ours_path in zip(args[0::2], args[1::2]):
        bm, bn, warps = (int(v) for v in config.replace("/w", "x").split("x"))
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
        name, params = entry(open(ours_path).read())
        fn = load(open(ours_path, "rb").read() + b"\0", name)
        ours_ms, theirs_ms = [], []
        for p, (x, b, y) in enumerate(sets):
            ours = ours_launcher(fn, params, grid, 32 * warps, x, b, y)

            def theirs():
                gelu_fast[grid](x, b, y, M, N, N, N, BM=bm, BN=bn, num_warps=warps, num_stages=3)
            o, t = median_ms(ours, 10, 100, flush), median_ms(theirs, 10, 100, flush)
            ours_ms.append(o)
            theirs_ms.append(t)
            print(f"| {config} | {p} | {x.data_ptr() >> 20} | {o:.4f} | {t:.4f} | {o / t:.3f} |",
                  flush=True)
        spreads.append((config, min(ours_ms), max(ours_ms), min(theirs_ms), max(theirs_ms),
                        statistics.median(o / t for o, t in zip(ours_ms, theirs_ms))))
    print()
    print("| tiles | ours min-max ms | Triton min-max ms | ours spread | Triton spread "
          "| median ours / Triton |")
    print("|---|---|---|---|---|---|")
    for c, olo, ohi, tlo, thi, r in spreads:
        print(f"| {c} | {olo:.4f}-{ohi:.4f} | {tlo:.4f}-{thi:.4f} | {ohi / olo - 1:.1%} "
              f"| {thi / tlo - 1:.1%} | {r:.3f} |")


if __name__ == "__main__":
    main()
