"""Time per kernel of windows of 200 launches of Triton's vector add (4096
elements, BLOCK 1024, 4 programs), launched one by one from Python and
replayed from a torch CUDAGraph of the same 200 launches: end to end (the
stream drained after each window) and the host's part, as `tile-tools
gpu-check graph-bench` times ours. Prints two Markdown table rows."""

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


WINDOW = 200


def main():
    windows = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    n = 4096
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for _ in range(50):
            add_kernel[(4,)](x, x, out, n, BLOCK=1024)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            for _ in range(WINDOW):
                add_kernel[(4,)](x, x, out, n, BLOCK=1024)
        torch.cuda.synchronize()

        def plain():
            for _ in range(WINDOW):
                add_kernel[(4,)](x, x, out, n, BLOCK=1024)

        def replay():
            graph.replay()

        for name, queue in [
            (f"Triton {triton.__version__} `add_kernel[grid](...)` x 200", plain),
            ("torch `CUDAGraph.replay()` of the 200", replay),
        ]:
            total, host = [], []
            for w in range(windows + 5):
                torch.cuda.synchronize()
                t0 = time.perf_counter_ns()
                queue()
                t1 = time.perf_counter_ns()
                torch.cuda.synchronize()
                t2 = time.perf_counter_ns()
                if w >= 5:
                    host.append((t1 - t0) / 1e3 / WINDOW)
                    total.append((t2 - t0) / 1e3 / WINDOW)
            total.sort()
            host.sort()
            mid = lambda v: v[len(v) // 2]
            p99 = total[round((len(total) - 1) * 0.99)]
            print(f"| {name} | {windows} | {mid(total):.2f} | {p99:.2f} | {mid(host):.3f} |")
    assert torch.equal(out, x + x)


if __name__ == "__main__":
    main()
