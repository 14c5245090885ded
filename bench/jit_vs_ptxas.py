"""Which compiler makes the difference: our PTX and Triton's PTX of the same
kernel, each compiled two ways (the CUDA driver's JIT, as our runtime loads
PTX, and the `ptxas` Triton ships, as Triton does), launched the same way
(`cuLaunchKernel`, same buffers, same grid) and timed with CUDA events.

    TILE_DUMP_DIR=/tmp/d tile-tools shapes-bench --case gelu_fast:f16:8192x4096 \
        --config 64x64/w4/s3 --ours-only
    python3 bench/jit_vs_ptxas.py 64x64/w4 /tmp/d/<kernel>/<NN>-ptx.ptx ...

Each argument pair is a tile configuration (`BMxBN/wW`) and the PTX our
compiler made for it (`tile-tools shapes-bench` with `TILE_DUMP_DIR`). The
kernel is `gelu_fast` of `bench/triton_shapes.py` on f16 [8192, 4096] with
a bias (`y = gelu_tanh(x + b)`, `tanh.approx.f32` on both sides). Prints a
Markdown table: milliseconds (median of 30 windows of 10 launches) for each
PTX and compiler, and the largest difference from torch's result.
"""
import ctypes
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triton_shapes import gelu_fast  # noqa: E402

PTXAS = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas")
M, N = 8192, 4096
cu = ctypes.CDLL("libcuda.so.1")


def check(r, what):
    if r != 0:
        raise SystemExit(f"{what}: CUDA error {r}")


def load(image, name):
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), image), "load " + name)
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "function " + name)
    return fn


def entry(ptx):
    """The entry's name, and its parameters' PTX types in order."""
    name = re.search(r"\.entry\s+(\w+)\s*\(", ptx).group(1)
    body = ptx[ptx.index(".entry"):]
    params = re.findall(r"\.param\s+\.(\w+)", body[: body.index(")")])
    return name, params


def cubin(ptx, arch):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        open(src, "w").write(ptx)
        subprocess.run([PTXAS, f"-arch={arch}", src, "-o", out], check=True)
        return open(out, "rb").read()


def time(fn, params, grid, threads, shared, x, b, y, want):
    words = []
    pointers = iter([x.data_ptr(), b.data_ptr(), y.data_ptr()])
    scalars = iter([M, N, N, N])
    for ty in params:
        if ty in ("u64", "b64", "s64"):
            words.append(ctypes.c_uint64(next(pointers, 0)))
        else:
            words.append(ctypes.c_uint32(next(scalars)))
    argv = (ctypes.c_void_p * len(words))(
        *[ctypes.cast(ctypes.byref(w), ctypes.c_void_p) for w in words])

    def launch():
        check(cu.cuLaunchKernel(fn, grid[0], grid[1], 1, threads, 1, 1, shared, None, argv,
                                None), "launch")

    y.zero_()
    for _ in range(20):
        launch()
    torch.cuda.synchronize()
    err = (y.float() - want).abs().max().item()
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(10):
            launch()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e) / 10)
    times.sort()
    return times[len(times) // 2], err


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        raise SystemExit(__doc__)
    g = torch.Generator(device="cuda").manual_seed(0)
    x = (torch.rand((M, N), device="cuda", generator=g) * 16 - 8).half()
    b = (torch.rand((N,), device="cuda", generator=g) * 16 - 8).half()
    h = x.float() + b.float()[None, :]
    want = (0.5 * h * (1 + torch.tanh(0.7978845608028654 * (h + 0.044715 * h ** 3)))).half().float()
    y = torch.empty_like(x)
    print("| tiles | PTX | compiled by | registers | ms | max abs err |")
    print("|---|---|---|---|---|---|")
    for config, ours_path in zip(args[0::2], args[1::2]):
        bm, bn, warps = map(int, re.fullmatch(r"(\d+)x(\d+)/w(\d+)", config).groups())
        grid = (triton.cdiv(M, bm), triton.cdiv(N, bn))
        k = gelu_fast[grid](x, b, y, M, N, N, N, BM=bm, BN=bn, num_warps=warps, num_stages=3)
        theirs = k.asm["ptx"]
        ours = open(ours_path).read()
        for who, ptx, shared in [("ours", ours, 0), ("Triton", theirs, k.metadata.shared)]:
            name, params = entry(ptx)
            arch = re.search(r"\.target\s+(\w+)", ptx).group(1)
            for how, image in [("driver JIT", ptx.encode() + b"\0"), ("ptxas", cubin(ptx, arch))]:
                fn = load(image, name)
                regs = ctypes.c_int()
                cu.cuFuncGetAttribute(ctypes.byref(regs), 4, fn)  # NUM_REGS
                ms, err = time(fn, params, grid, 32 * warps, shared, x, b, y, want)
                print(f"| {config} | {who} | {how} | {regs.value} | {ms:.4f} | {err:.3g} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
