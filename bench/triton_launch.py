"""Host time per launch of a cached 4-argument Triton kernel (the vector
add, 4096 elements, BLOCK 1024), measured the way `tile-tools
gpu-check launch-bench` measures ours: each launch timed on its own with a
monotonic clock, the device drained every 200 launches (untimed).
Prints one Markdown table row."""

import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr + offs, x + y, mask=m)


def main():
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    n = 4096
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    grid = (4,)
    for _ in range(2000):
        add_kernel[grid](x, x, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    times = []
    for i in range(samples):
        if i % 200 == 0:
            torch.cuda.synchronize()
        t0 = time.perf_counter_ns()
        add_kernel[grid](x, x, out, n, BLOCK=1024)
        times.append((time.perf_counter_ns() - t0) / 1e3)
    torch.cuda.synchronize()
    assert torch.equal(out, x + x)
    mean = sum(times) / len(times)
    times.sort()
    at = lambda q: times[round((len(times) - 1) * q)]
    print(f"| Triton {triton.__version__} `add_kernel[grid](...)` | {samples} | {at(0.5):.2f} | {at(0.99):.2f} | {mean:.2f} | (reference) |")


if __name__ == "__main__":
    main()
