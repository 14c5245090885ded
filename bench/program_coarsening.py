"""Does running several programs in one CTA, with every program's loads
issued before any program's stores, move a transpose of 2-byte elements
toward copy speed at the tiles where the kernel as written stays past 1.10
of a copy? The tiled transpose as issue 36's benchmark writes it, and the
same source coarsened by hand: each program does K of the original
programs, adjacent along the column axis (`pn`: the input's lines) or the
row axis (`pm`: the output's lines), loads first. f16, Triton 3.6, CUDA
events, 256 MiB zeroed before each launch:

    python3 bench/program_coarsening.py [M N]
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def _tile(x_ptr, pm, pn, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    return tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask)


@triton.jit
def _put(y_ptr, tile, pm, pn, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    mask_t = (cols[:, None] < N) & (rows[None, :] < M)
    tl.store(y_ptr + cols[:, None] * M + rows[None, :], tile.trans(), mask=mask_t)


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    _put(y_ptr, _tile(x_ptr, pm, pn, M, N, BM, BN), pm, pn, M, N, BM, BN)


@triton.jit
def transpose_k2(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, ALONG_N: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    if ALONG_N:
        pm0, pn0, pm1, pn1 = pm, 2 * pn, pm, 2 * pn + 1
    else:
        pm0, pn0, pm1, pn1 = 2 * pm, pn, 2 * pm + 1, pn
    a = _tile(x_ptr, pm0, pn0, M, N, BM, BN)
    b = _tile(x_ptr, pm1, pn1, M, N, BM, BN)
    _put(y_ptr, a, pm0, pn0, M, N, BM, BN)
    _put(y_ptr, b, pm1, pn1, M, N, BM, BN)


@triton.jit
def transpose_k4(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, ALONG_N: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    if ALONG_N:
        a = _tile(x_ptr, pm, 4 * pn, M, N, BM, BN)
        b = _tile(x_ptr, pm, 4 * pn + 1, M, N, BM, BN)
        c = _tile(x_ptr, pm, 4 * pn + 2, M, N, BM, BN)
        d = _tile(x_ptr, pm, 4 * pn + 3, M, N, BM, BN)
        _put(y_ptr, a, pm, 4 * pn, M, N, BM, BN)
        _put(y_ptr, b, pm, 4 * pn + 1, M, N, BM, BN)
        _put(y_ptr, c, pm, 4 * pn + 2, M, N, BM, BN)
        _put(y_ptr, d, pm, 4 * pn + 3, M, N, BM, BN)
    else:
        a = _tile(x_ptr, 4 * pm, pn, M, N, BM, BN)
        b = _tile(x_ptr, 4 * pm + 1, pn, M, N, BM, BN)
        c = _tile(x_ptr, 4 * pm + 2, pn, M, N, BM, BN)
        d = _tile(x_ptr, 4 * pm + 3, pn, M, N, BM, BN)
        _put(y_ptr, a, 4 * pm, pn, M, N, BM, BN)
        _put(y_ptr, b, 4 * pm + 1, pn, M, N, BM, BN)
        _put(y_ptr, c, 4 * pm + 2, pn, M, N, BM, BN)
        _put(y_ptr, d, 4 * pm + 3, pn, M, N, BM, BN)


@triton.jit
def _scaled(x_ptr, y_ptr, pm, pn, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    return tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask) * 2 + 1


@triton.jit
def _put_same(y_ptr, tile, pm, pn, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(y_ptr + rows[:, None] * N + cols[None, :], tile, mask=mask)


@triton.jit
def scale(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    _put_same(y_ptr, _scaled(x_ptr, y_ptr, pm, pn, M, N, BM, BN), pm, pn, M, N, BM, BN)


@triton.jit
def scale_k4(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    a = _scaled(x_ptr, y_ptr, 4 * pm, pn, M, N, BM, BN)
    b = _scaled(x_ptr, y_ptr, 4 * pm + 1, pn, M, N, BM, BN)
    c = _scaled(x_ptr, y_ptr, 4 * pm + 2, pn, M, N, BM, BN)
    d = _scaled(x_ptr, y_ptr, 4 * pm + 3, pn, M, N, BM, BN)
    _put_same(y_ptr, a, 4 * pm, pn, M, N, BM, BN)
    _put_same(y_ptr, b, 4 * pm + 1, pn, M, N, BM, BN)
    _put_same(y_ptr, c, 4 * pm + 2, pn, M, N, BM, BN)
    _put_same(y_ptr, d, 4 * pm + 3, pn, M, N, BM, BN)


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
    print(f"f16 {m}x{n}: copy {copy:.4f} ms; time / copy")
    variants = ["as written", "K2 along n", "K2 along m", "K4 along n", "K4 along m"]
    print("| tile/warps | " + " | ".join(variants) + " |")
    print("|---" * (len(variants) + 1) + "|")
    for bm, bn, w in [(32, 32, 4), (128, 32, 4), (16, 256, 4), (64, 64, 4), (32, 128, 4), (128, 128, 8)]:
        gm, gn = triton.cdiv(m, bm), triton.cdiv(n, bn)
        fns = [lambda: transpose[(gm, gn)](x, y, m, n, BM=bm, BN=bn, num_warps=w)]
        for k, kern in ((2, transpose_k2), (4, transpose_k4)):
            fns.append(lambda k=k, kern=kern: kern[(gm, triton.cdiv(gn, k))](
                x, y, m, n, BM=bm, BN=bn, ALONG_N=True, num_warps=w))
            fns.append(lambda k=k, kern=kern: kern[(triton.cdiv(gm, k), gn)](
                x, y, m, n, BM=bm, BN=bn, ALONG_N=False, num_warps=w))
        fns = [fns[0], fns[1], fns[2], fns[3], fns[4]]
        out = []
        for i, fn in enumerate(fns):
            y.zero_()
            fn()
            assert torch.equal(y, x.t()), (bm, bn, variants[i])
            out.append(median_ms(fn, flush) / copy)
        print(f"| {bm}x{bn}/w{w} | " + " | ".join(f"{r:.3f}" for r in out) + " |", flush=True)
    print("elementwise y = 2x + 1 (same layout in and out), time / copy: as written, K4 along m")
    for bm, bn, w in [(32, 32, 4), (128, 32, 4), (16, 256, 4), (64, 64, 4), (128, 128, 8)]:
        gm, gn = triton.cdiv(m, bm), triton.cdiv(n, bn)
        out = []
        for fn in (lambda: scale[(gm, gn)](x, c, m, n, BM=bm, BN=bn, num_warps=w),
                   lambda: scale_k4[(triton.cdiv(gm, 4), gn)](x, c, m, n, BM=bm, BN=bn, num_warps=w)):
            c.zero_()
            fn()
            assert torch.equal(c, x * 2 + 1), (bm, bn)
            out.append(median_ms(fn, flush) / copy)
        print(f"| {bm}x{bn}/w{w} | " + " | ".join(f"{r:.3f}" for r in out) + " |", flush=True)


if __name__ == "__main__":
    main()
