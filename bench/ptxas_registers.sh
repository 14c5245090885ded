#!/usr/bin/env bash
# Registers and spills of one shapes-bench kernel in several
# configurations, ours beside Triton's, on the GPU machine: our PTX
# (dumped by tile-tools through TILE_DUMP_DIR) through the ptxas that
# Triton bundles (`ptxas -v`), and Triton's compiled kernel's n_regs and
# n_spills. Written for the row prefix sums of
# 2026-12-02-h200-held-out-shapes.md run 5:
#
#     bash bench/ptxas_registers.sh
#
# (.gpu/tile-tools.xz carried; bash scripts/gpu-pack.sh builds it).
set -euo pipefail
T=/tmp/tile-tools
[ -x $T ] || { xz -dc .gpu/tile-tools.xz > $T && chmod +x $T; }
PTXAS=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin/ptxas'))")
for c in 4x4096/w32/s3 8x4096/w32/s3 16x4096/w32/s3 4x4096/w16/s3; do
  d=/tmp/dump-$(echo $c | tr '/' '_'); rm -rf "$d"
  TILE_DUMP_DIR=$d $T shapes-bench --quick --ours-only --case row_cumsum:bf16:16384x4096 --config $c > /dev/null 2>&1
  f=$(find "$d" -name '*kernel.ptx' | head -1)
  echo "ours $c: $($PTXAS -arch=sm_90 -v "$f" -o /tmp/k.cubin 2>&1 | grep -E 'registers|spill' | tr '\n' ' ')"
done
cd bench && python3 - <<'PY'
import torch, triton, triton_shapes as ts
x = torch.randn(16384, 4096, device="cuda", dtype=torch.bfloat16); y = torch.empty_like(x)
for bm, w in [(4, 32), (8, 32), (16, 32), (4, 16)]:
    k = ts.row_cumsum[(16384 // bm,)](x, y, 16384, 4096, 4096, 4096, BM=bm, BN=4096, num_warps=w)
    print(f"triton {bm}x4096/w{w}: regs {k.n_regs} spills {k.n_spills}")
PY
