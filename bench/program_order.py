"""Does the order in which programs run move a transpose of 2-byte
elements toward copy speed? The tiled transpose as issue 36's benchmark
writes it (`program_id(0)` over rows), the same kernel with the grid's
axes swapped (`program_id(0)` over columns: programs that share the
input's 128-byte lines run one after another), the same tiles taken in
turn by a fixed number of programs (each loops over tiles, rows first:
a persistent kernel, here 8 programs an SM), and a device copy; f16,
Triton 3.6, CUDA events, 256 MiB zeroed before each launch:

    python3 bench/program_order.py [M N]
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, COLS_FIRST: tl.constexpr):
    if COLS_FIRST:
        pm, pn = tl.program_id(1), tl.program_id(0)
    else:
        pm, pn = tl.program_id(0), tl.program_id(1)
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask)
    mask_t = (cols[:, None] < N) & (rows[None, :] < M)
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], tile.trans(), mask=mask_t)


@triton.jit
def transpose_persistent(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    gm = tl.cdiv(M, BM)
    tiles = gm * tl.cdiv(N, BN)
    for t in range(tl.program_id(0), tiles, tl.num_programs(0)):
        rows = (t % gm) * BM + tl.arange(0, BM)
        cols = (t // gm) * BN + tl.arange(0, BN)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask)
        mask_t = (cols[:, None] < N) & (rows[None, :] < M)
        tl.store(y_ptr + cols[:, None] * M + rows[None, :], tile.trans(), mask=mask_t)


def median_ms(fn, flush, reps=100):
    for _ in range(10):
        fn()
    times = []
    for _ in range(reps):
        flush.zero_()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def main():
    m, n = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (8192, 8192)
    x = torch.randn(m, n, device="cuda", dtype=torch.float16)
    y = torch.empty(n, m, device="cuda", dtype=torch.float16)
    c = torch.empty_like(x)
    flush = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    copy = median_ms(lambda: c.copy_(x), flush)
    print(f"f16 {m}x{n}: copy {copy:.4f} ms")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    print("| tile/warps | rows first ms | /copy | columns first ms | /copy | persistent ms | /copy |")
    print("|---|---|---|---|---|---|---|")
    for bm, bn, w in [(32, 32, 4), (128, 32, 4), (16, 256, 4), (64, 64, 4), (32, 128, 4), (128, 128, 8)]:
        out = []
        for cols_first in (False, True):
            gm, gn = triton.cdiv(m, bm), triton.cdiv(n, bn)
            grid = (gn, gm) if cols_first else (gm, gn)
            fn = lambda: transpose[grid](x, y, m, n, BM=bm, BN=bn, COLS_FIRST=cols_first, num_warps=w)
            y.zero_()
            fn()
            assert torch.equal(y, x.t()), (bm, bn, cols_first)
            out.append(median_ms(fn, flush))
        fn = lambda: transpose_persistent[(8 * sms,)](x, y, m, n, BM=bm, BN=bn, num_warps=w)
        y.zero_()
        fn()
        assert torch.equal(y, x.t()), (bm, bn, "persistent")
        out.append(median_ms(fn, flush))
        print(f"| {bm}x{bn}/w{w} | {out[0]:.4f} | {out[0] / copy:.3f} | {out[1]:.4f} | {out[1] / copy:.3f} "
              f"| {out[2]:.4f} | {out[2] / copy:.3f} |")


if __name__ == "__main__":
    main()
