"""Which compiler makes the difference: our PTX (and hand-edited variants of
it) and Triton's PTX of the same kernel, each compiled two ways (the CUDA
driver's JIT, as our runtime loads PTX, and the `ptxas` Triton ships, as
Triton does), launched the same way (`cuLaunchKernel`, same buffers, same
grid) and timed with CUDA events.

    TILE_DUMP_DIR=/tmp/d tile-tools shapes-bench --case gelu_fast:f16:8192x4096 \
        --config 64x64/w4/s3 --ours-only
    python3 bench/jit_vs_ptxas.py [--kernel K] [--sass] CONFIG PTX[,PTX...] ...

Each argument pair is a tile configuration (`BMxBN/wW`) and the PTX files
to time for it, comma-separated: ours as `tile-tools shapes-bench` dumps it
with `TILE_DUMP_DIR`, and any variants of it. `--kernel` picks the kernel
of `bench/triton_shapes.py`: `gelu_fast` (the default; f16 [8192, 4096]
with a bias, `y = gelu_tanh(x + b)`, `tanh.approx.f32` on both sides) or
`col_sum_end` (f32 [16384, 4096], column sums). `--sass` also prints, for
each PTX and compiler, the order of the global loads (`LDG`) and float
adds (`FADD`) in the kernel's loop, from `nvdisasm` of the cubin (the
driver JIT's cubin through `cuLink*`).

Prints a Markdown table: for each PTX and compiler (the driver's JIT
through `cuModuleLoadData` as our runtime loads PTX, the same JIT through
`cuLink*`, and `ptxas`), its registers, milliseconds (the median of 30
windows of 10 launches, and the median of 30 single launches each after
zeroing 256 MiB, as `tile-tools` times), and the largest difference from
torch's result.
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
from triton_shapes import col_sum_end, gelu_fast  # noqa: E402

BIN = os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin")
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


def ptxas_cubin(ptx, arch):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        open(src, "w").write(ptx)
        subprocess.run([os.path.join(BIN, "ptxas"), f"-arch={arch}", src, "-o", out], check=True)
        return open(out, "rb").read()


def jit_cubin(ptx):
    """The cubin the driver's JIT makes of `ptx` (cuLinkCreate/AddData/Complete)."""
    cu.cuLinkComplete.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                  ctypes.POINTER(ctypes.c_size_t)]
    state, out, size = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_size_t()
    check(cu.cuLinkCreate_v2(0, None, None, ctypes.byref(state)), "cuLinkCreate")
    data = ptx.encode() + b"\0"
    check(cu.cuLinkAddData_v2(state, 1, data, ctypes.c_size_t(len(data)), b"k.ptx", 0, None,
                              None),
          "cuLinkAddData")  # 1: CU_JIT_INPUT_PTX
    check(cu.cuLinkComplete(state, ctypes.byref(out), ctypes.byref(size)), "cuLinkComplete")
    image = ctypes.string_at(out, size.value)
    cu.cuLinkDestroy(state)
    return image


def loop_order(image):
    """`LDG`, `FADD` and `BRA` of the cubin's SASS in order, runs counted."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cubin")
        open(path, "wb").write(image)
        sass = subprocess.run([os.path.join(BIN, "nvdisasm"), "-c", path], check=True,
                              capture_output=True, text=True).stdout
    runs = []
    for line in sass.splitlines():
        m = re.search(r"\b(LDG|FADD|BRA)\S*", line)
        if not m:
            continue
        if runs and runs[-1][0] == m.group(1):
            runs[-1][1] += 1
        else:
            runs.append([m.group(1), 1])
    return " ".join(op if n == 1 else f"{op}x{n}" for op, n in runs)


class GeluFast:
    """gelu_fast on f16 [8192, 4096] with a bias."""
    M, N = 8192, 4096

    def __init__(self):
        g = torch.Generator(device="cuda").manual_seed(0)
        self.x = (torch.rand((self.M, self.N), device="cuda", generator=g) * 16 - 8).half()
        self.b = (torch.rand((self.N,), device="cuda", generator=g) * 16 - 8).half()
        h = self.x.float() + self.b.float()[None, :]
        self.want = (0.5 * h * (1 + torch.tanh(0.7978845608028654 * (h + 0.044715 * h ** 3))))
        self.want = self.want.half().float()
        self.y = torch.empty_like(self.x)

    def grid(self, bm, bn):
        return (triton.cdiv(self.M, bm), triton.cdiv(self.N, bn))

    def triton(self, bm, bn, warps):
        return gelu_fast[self.grid(bm, bn)](self.x, self.b, self.y, self.M, self.N, self.N,
                                            self.N, BM=bm, BN=bn, num_warps=warps, num_stages=3)

    def pointers(self):
        return [self.x, self.b, self.y]

    def scalars(self):
        return [self.M, self.N, self.N, self.N]


class ColSumEnd:
    """col_sum_end on f32 [16384, 4096]: a [BM, BN] accumulator summed after the loop."""
    M, N = 16384, 4096

    def __init__(self):
        g = torch.Generator(device="cuda").manual_seed(0)
        self.x = torch.rand((self.M, self.N), device="cuda", generator=g) * 16 - 8
        self.want = self.x.double().sum(0).float()
        self.y = torch.empty((self.N,), device="cuda")

    def grid(self, bm, bn):
        return (triton.cdiv(self.N, bn), 1)

    def triton(self, bm, bn, warps):
        return col_sum_end[self.grid(bm, bn)](self.x, self.y, self.M, self.N, self.N, BM=bm,
                                              BN=bn, num_warps=warps, num_stages=3)

    def pointers(self):
        return [self.x, self.y]

    def scalars(self):
        return [self.M, self.N, self.N]


def time(fn, params, grid, threads, shared, kernel):
    words = []
    pointers = iter([t.data_ptr() for t in kernel.pointers()])
    scalars = iter(kernel.scalars())
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

    kernel.y.zero_()
    for _ in range(20):
        launch()
    torch.cuda.synchronize()
    err = (kernel.y.float() - kernel.want).abs().max().item()
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
    flushed = []
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        flush.zero_()
        s.record()
        launch()
        e.record()
        torch.cuda.synchronize()
        flushed.append(s.elapsed_time(e))
    flushed.sort()
    return times[len(times) // 2], flushed[len(flushed) // 2], err


def main():
    args = sys.argv[1:]
    kernel, sass = GeluFast, False
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--kernel":
            kernel = {"gelu_fast": GeluFast, "col_sum_end": ColSumEnd}[args.pop(0)]
        elif flag == "--sass":
            sass = True
        else:
            raise SystemExit(__doc__)
    if not args or len(args) % 2:
        raise SystemExit(__doc__)
    kernel = kernel()
    print("| tiles | PTX | compiled by | registers | ms | ms, one launch after an L2 flush "
          "| max abs err |" + (" loop |" if sass else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if sass else ""))
    for config, paths in zip(args[0::2], args[1::2]):
        bm, bn, warps = map(int, re.fullmatch(r"(\d+)x(\d+)/w(\d+)", config).groups())
        grid = kernel.grid(bm, bn)
        k = kernel.triton(bm, bn, warps)
        variants = [(os.path.basename(p), open(p).read(), 0) for p in paths.split(",")]
        variants.append(("Triton", k.asm["ptx"], k.metadata.shared))
        for who, ptx, shared in variants:
            name, params = entry(ptx)
            arch = re.search(r"\.target\s+(\w+)", ptx).group(1)
            images = [("driver JIT (module)", None), ("driver JIT (link)", jit_cubin(ptx)),
                      ("ptxas", ptxas_cubin(ptx, arch))]
            for how, image in images:
                fn = load(ptx.encode() + b"\0" if image is None else image, name)
                regs = ctypes.c_int()
                cu.cuFuncGetAttribute(ctypes.byref(regs), 4, fn)  # NUM_REGS
                ms, flushed, err = time(fn, params, grid, 32 * warps, shared, kernel)
                row = (f"| {config} | {who} | {how} | {regs.value} | {ms:.4f} | {flushed:.4f} "
                       f"| {err:.3g} |")
                if sass and image is not None:
                    row += f" {loop_order(image)} |"
                print(row, flush=True)


if __name__ == "__main__":
    main()
