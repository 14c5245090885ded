"""Does the way the L2 flush is made change the time of the kernel after it?

`tile-tools` zeroes its 256 MiB flush buffer with `cuMemsetD8Async`; the
Triton scripts zeroed theirs with torch's `zero_()`. This times Triton's
kernels of `bench/triton_shapes.py` both ways, alternating, twice each, by
the shapes benchmark's protocol otherwise (warm-up, then per repetition:
flush, start event, one call, end event; the median of 100):

    python3 bench/flush_method.py gelu_fast f16 8192x4096 32x32/w4/s3,128x128/w8/s3 [...]

Arguments come in fours: kernel, type, MxN, configurations. Prints a
Markdown table.
"""
import ctypes
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_shapes as shapes  # noqa: E402
from timing import median_ms  # noqa: E402

cu = ctypes.CDLL("libcuda.so.1")
FLUSH_BYTES = 256 << 20


def memset(buffer):
    """`buffer` zeroed by the driver's memset on torch's current stream."""
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    r = cu.cuMemsetD8Async(ctypes.c_uint64(buffer.data_ptr()), ctypes.c_ubyte(0),
                           ctypes.c_size_t(buffer.numel()), stream)
    if r != 0:
        raise SystemExit(f"cuMemsetD8Async: CUDA error {r}")



def main():
    args = sys.argv[1:]
    if not args or len(args) % 4:
        raise SystemExit(__doc__)
    buffer = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device="cuda")
    ways = {"torch zero_()": buffer.zero_, "cuMemsetD8Async": lambda: memset(buffer)}
    print("| kernel | dtype | MxN | tiles | torch zero_() ms | cuMemsetD8Async ms | memset / zero_ |")
    print("|---|---|---|---|---|---|---|")
    for kernel, dtype, size, configs in zip(*[iter(args)] * 4):
        m, n = (int(v) for v in size.split("x"))
        case = shapes.Case(kernel, dtype, m, n)
        for config in configs.split(","):
            fn = case.launcher(*shapes.parse_config(config))
            times = {way: [] for way in ways}
            for _ in range(2):
                for way, flush in ways.items():
                    times[way].append(median_ms(fn, 10, 100, flush))
            z = statistics.mean(times["torch zero_()"])
            d = statistics.mean(times["cuMemsetD8Async"])
            print(f"| {kernel} | {dtype} | {size} | {config} | {z:.4f} "
                  f"({', '.join(f'{t:.4f}' for t in times['torch zero_()'])}) | {d:.4f} "
                  f"({', '.join(f'{t:.4f}' for t in times['cuMemsetD8Async'])}) | {d / z:.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
