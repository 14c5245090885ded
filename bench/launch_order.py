"""Which order of programs brings a 2-D tiled kernel of 2-byte elements to
copy speed at tiles with a narrow side? The tiled transpose of issue 36's
benchmark and a same-layout elementwise kernel (y = 2x + 1), each launched
on a 1-D grid whose block index is mapped to (pm, pn) in a chosen order:
rows first (as written), columns first, or super-tiles of GM x GN tiles
(rows first inside a super-tile, super-tiles rows first). f16, Triton 3.6,
the diagonal orders of the classic CUDA transpose (a wavefront skewed by
one tile per step, against partition camping); CUDA events, 256 MiB
zeroed before each launch; time / device copy:

    python3 bench/launch_order.py [--transpose-only] [--diagonal] [M N [DTYPE]]

(--diagonal: only the rows-first, columns-first and the two diagonal orders)
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def _order(gm, gn, GM: tl.constexpr, GN: tl.constexpr):
    pid = tl.program_id(0)
    if GM == -1:
        # diagonal, rows first: a column of tiles at a time, each one tile
        # further along the rows than the one before (Ruetsch and Micikevicius)
        pm = pid % gm
        return pm, (pid // gm + pm) % gn
    if GM == -2:
        # diagonal, columns first
        pn = pid % gn
        return (pid // gn + pn) % gm, pn
    if GM == 0:
        # columns first
        return pid // gn, pid % gn
    per_band = GM * gn
    band = pid // per_band
    first_m = band * GM
    rows_here = tl.minimum(gm - first_m, GM)
    local = pid % per_band
    if GN == 0:
        # bands of GM tile rows, rows first inside a band
        return first_m + local % rows_here, local // rows_here
    per_super = rows_here * GN
    sup = local // per_super
    first_n = sup * GN
    inner = local % per_super
    return first_m + inner % rows_here, first_n + inner // rows_here


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, GM: tl.constexpr,
              GN: tl.constexpr, SAME: tl.constexpr):
    gm, gn = tl.cdiv(M, BM), tl.cdiv(N, BN)
    pm, pn = _order(gm, gn, GM, GN)
    rows = pm * BM + tl.arange(0, BM)
    cols = pn * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask)
    if SAME:
        tl.store(y_ptr + rows[:, None] * N + cols[None, :], tile * 2 + 1, mask=mask)
    else:
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


ORDERS = [("rows first", None), ("cols first", (0, 0)), ("diag rows", (-1, 0)),
          ("diag cols", (-2, 0)), ("bands 8", (8, 0)), ("bands 32", (32, 0)),
          ("4x16", (4, 16)), ("8x8", (8, 8)), ("16x16", (16, 16)), ("8x32", (8, 32)),
          ("32x8", (32, 8)), ("16x64", (16, 64))]


def main():
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    kinds = (False,) if "--transpose-only" in flags else (False, True)
    orders = ORDERS[:4] if "--diagonal" in flags else ORDERS
    m, n = (int(args[0]), int(args[1])) if len(args) > 1 else (8192, 8192)
    name = args[2] if len(args) > 2 else "f16"
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[name]
    x = torch.randn(m, n, device="cuda", dtype=dtype)
    y = torch.empty(n, m, device="cuda", dtype=dtype)
    flush = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    c = torch.empty_like(x)
    copy = median_ms(lambda: c.copy_(x), flush)
    print(f"{name} {m}x{n}: copy {copy:.4f} ms; time / copy")
    print("| kernel | tile/warps | " + " | ".join(o for o, _ in orders) + " |")
    print("|---|---" + "|---" * len(orders) + "|")
    for same in kinds:
        want = x * 2 + 1 if same else x.t()
        out_buf = c if same else y
        for bm, bn, w in [(32, 32, 4), (128, 32, 4), (16, 256, 4), (64, 64, 4), (32, 128, 4),
                          (128, 128, 8)]:
            gm, gn = triton.cdiv(m, bm), triton.cdiv(n, bn)
            row = []
            for _, order in orders:
                if order is None:
                    # as written: a 2-D grid, program_id(0) over rows (through the 1-D
                    # mapping with one band of every row: the same order)
                    g_m, g_n = gm, 0
                else:
                    g_m, g_n = order
                fn = lambda g_m=g_m, g_n=g_n: transpose[(gm * gn,)](
                    x, out_buf, m, n, BM=bm, BN=bn, GM=g_m if order is not None else gm, GN=g_n,
                    SAME=same, num_warps=w)
                out_buf.zero_()
                fn()
                assert torch.equal(out_buf, want), (bm, bn, order)
                row.append(median_ms(fn, flush) / copy)
            kind = "y = 2x + 1" if same else "transpose"
            print(f"| {kind} | {bm}x{bn}/w{w} | " + " | ".join(f"{r:.3f}" for r in row) + " |",
                  flush=True)


if __name__ == "__main__":
    main()
