#!/usr/bin/env bash
# Nsight Compute profiles of one LayerNorm-backward launch (the bench's
# atomic_add variant, 4096x8192, BLOCK_N 8192, 8 warps, 264 programs), ours
# and Triton's, on the GPU machine, from the repository root, with
# .gpu/tile-tools.xz carried over (bash scripts/gpu-pack.sh):
#   bash bench/profile-layer-norm-bwd.sh
# For each: the details page, the SASS with its stall samples (CSV), and
# for Triton the PTX and cubin it compiled (its cache), under $OUT; a short
# summary is printed last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
source bench/ncu-profile.sh
TILE_DUMP_DIR=$OUT/ours-dump TILE_DUMP_FILTER=layer_norm_bwd \
  profile ours '^layer_norm_bwd$' /tmp/tile-tools bench --warmup 1 --reps 1
TRITON_CACHE_DIR=$OUT/triton-cache profile triton '^layer_norm_bwd$' python3 bench/triton_kernels.py \
  --warmup 1 --reps 1 --case layer_norm_bwd 4096x8192 8192 8
find "$OUT/triton-cache" -name '*.ptx' -exec cp {} "$OUT/triton-layer_norm_bwd.ptx" \;
rm -f "$OUT"/*.ncu-rep
cat "$OUT/summary.txt"
for f in "$OUT"/ncu-*.details.txt; do
  echo "--- $(basename "$f" .details.txt)"
  grep -E "^\s+(Duration|DRAM Throughput|Memory Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued Instruction|Local Memory Spilling Requests|Block Limit Registers|Static Shared Memory Per Block|Executed Instructions)\b" "$f" \
    | sed 's/  */ /g'
done
