"""Our kernel and Triton's of one `shapes-bench` case timed in one process,
on the same buffers, in interleaved rounds.

`tile-tools shapes-bench` times ours in Rust and Triton's in a Python
subprocess after it. For kernels of 8-20 µs that costs accuracy: on an
H200 the same PTX read 1.1-1.5 µs longer there than here, Triton's not
(`bench/results/2026-12-02-h200-layer-norm-short-tiles.md`, runs 2-8).
This script takes our PTX as the GPU's JIT compiles it (`tile-tools
shapes-bench --ptx-only`), loads it through the driver (`cuModuleLoadData`)
and launches it on the tensors of `triton_shapes.Case`, with the grid and
arguments Triton's kernel gets (`Case.launch_args`, the order both take).
Each side is checked against PyTorch first (`Case.error`, `Case.tolerance`),
then timed as `bench/timing.py` times (warm-ups, then per repetition a
`cuMemsetD8Async` of the flush buffer, events around one launch, one
synchronize; the median), alternately for `--rounds` rounds.

    python3 bench/same_process.py --tile-tools /tmp/tile-tools [--rounds 3]
        [--warmup W] [--reps R] [--flush-bytes B]
        --case KERNEL DTYPE MxN CONFIGS [--case ...]

KERNEL, DTYPE, MxN and CONFIGS are as `bench/triton_shapes.py` takes them.
Prints one Markdown table: each configuration's median time of each side
(the median of its rounds' medians), ours over Triton's, and that ratio in
each round (their spread is the resolution of the figure). Exit status 0
when both sides matched PyTorch everywhere, 1 otherwise, 2 for bad
arguments, 3 without torch and triton.
"""

import argparse
import ctypes
import math
import os
import statistics
import subprocess
import sys
import tempfile

import protocol

try:
    import torch
except ImportError as error:
    protocol.skip(f"cannot import torch: {error}")
    sys.exit(3)

import triton_shapes as ts  # noqa: E402 (exits 3 itself without triton)
from jit_vs_ptxas import entry, load  # noqa: E402
from timing import L2Flush, median_ms  # noqa: E402

_cuda = ctypes.CDLL("libcuda.so.1")


def _check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: CUDA error {status}")


def our_ptx(tile_tools, kernel, dtype, size, config, folder):
    """Our PTX of one configuration, as `tile-tools shapes-bench
    --ptx-only` writes it."""
    subprocess.run([tile_tools, "shapes-bench", "--ptx-only", folder, "--case",
                    f"{kernel}:{dtype}:{size}", "--config", config],
                   check=True, capture_output=True, text=True)
    tiles, rest = config.split("/w")
    warps, stages = rest.split("/s")
    path = os.path.join(folder, f"{kernel}-{dtype}-{size}-{tiles}-w{warps}-s{stages}.ptx")
    with open(path) as f:
        return f.read()


class OurKernel:
    """A PTX entry loaded through the driver (`jit_vs_ptxas.load`, as our
    runtime loads PTX), launched on torch's stream."""

    def __init__(self, ptx, warps):
        if ".extern .shared" in ptx:
            raise ValueError("the kernel takes dynamic shared memory, which this script "
                             "does not size")
        name, self.params = entry(ptx)
        self.function = load(ptx.encode() + b"\0", name)
        self.threads = 32 * warps

    def launcher(self, grid, args):
        """A call that launches the kernel on `grid` with `args`, each
        passed as its PTX parameter's type (`u64`: a tensor's address)."""
        if len(args) != len(self.params):
            raise ValueError(f"{len(args)} arguments for {len(self.params)} parameters")
        kinds = {"u64": lambda a: ctypes.c_uint64(a.data_ptr()), "f32": ctypes.c_float,
                 "u32": ctypes.c_int32, "s32": ctypes.c_int32, "b32": ctypes.c_int32}
        values = [kinds[p](a) for p, a in zip(self.params, args)]
        params = (ctypes.c_void_p * len(values))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
        dims = list(grid) + [1] * (3 - len(grid))

        def launch():
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            _check(_cuda.cuLaunchKernel(self.function, *dims, self.threads, 1, 1, 0, stream,
                                        params, None), "cuLaunchKernel")

        # The tensors too: the launch writes where they live.
        launch.keep = (args, values, params)
        return launch


def checked(case, make):
    """`make()`'s launcher after one checked launch on fresh outputs; the
    error against PyTorch's and whether it is within the tolerance."""
    case.poison()
    fn = make()
    fn()
    torch.cuda.synchronize()
    err = case.error()
    return fn, err, math.isfinite(err) and err <= case.tolerance()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tile-tools", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    ts.add_case_options(parser)
    args = parser.parse_args()
    ts.check_cases(parser, args)
    if args.rounds < 1:
        parser.error("need at least one round")
    flush = L2Flush(args.flush_bytes)
    status = 0
    print("| kernel | dtype | MxN | tile/warps/stages | ours ms | Triton ms | ours/Triton "
          "| each round | ours err | Triton err |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for kernel, dtype, size, configs in args.case:
            m, n = (int(v) for v in size.split("x"))
            case = ts.Case(kernel, dtype, m, n)
            for config in configs.split(","):
                bm, bn, warps, stages = ts.parse_config(config)
                ours = OurKernel(our_ptx(args.tile_tools, kernel, dtype, size, config, folder),
                                 warps)
                mine, our_err, our_ok = checked(case, lambda: ours.launcher(
                    *case.launch_args(bm, bn)))
                theirs, their_err, their_ok = checked(
                    case, lambda: case.launcher(bm, bn, warps, stages))
                status |= 0 if our_ok and their_ok else 1
                times = {"ours": [], "triton": []}
                for _ in range(args.rounds):
                    times["ours"].append(median_ms(mine, args.warmup, args.reps, flush))
                    times["triton"].append(median_ms(theirs, args.warmup, args.reps, flush))
                o, t = (statistics.median(times[s]) for s in ("ours", "triton"))
                each = " ".join(f"{a / b:.3f}" for a, b in zip(times["ours"], times["triton"]))
                flag = lambda ok: "" if ok else " WRONG"  # noqa: E731
                print(f"| {kernel} | {dtype} | {size} | {config} | {o:.4f} | {t:.4f} | "
                      f"{o / t:.3f} | {each} | {our_err:.2e}{flag(our_ok)} | "
                      f"{their_err:.2e}{flag(their_ok)} |", flush=True)
            del case
            torch.cuda.empty_cache()
    return status


if __name__ == "__main__":
    sys.exit(main())
