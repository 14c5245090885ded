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
profile() {
  local name=$1; shift
  timeout 300 ncu --set full --import-source no --kernel-name "regex:^layer_norm_bwd$" \
    --launch-skip 1 --launch-count 1 -f -o "$OUT/ncu-$name" "$@" \
    > "$OUT/ncu-$name.run.log" 2>&1
  echo "ncu-$name exit=$?" >> "$OUT/summary.txt"
  ncu -i "$OUT/ncu-$name.ncu-rep" --page details > "$OUT/ncu-$name.details.txt" 2>&1
  ncu -i "$OUT/ncu-$name.ncu-rep" --page source --print-source sass --csv \
    > "$OUT/ncu-$name.sass.csv" 2>&1
}
TILE_DUMP_DIR=$OUT/ours-dump TILE_DUMP_FILTER=layer_norm_bwd \
  profile ours /tmp/tile-tools bench --warmup 1 --reps 1
TRITON_CACHE_DIR=$OUT/triton-cache profile triton python3 bench/triton_kernels.py \
  --warmup 1 --reps 1 --case layer_norm_bwd 4096x8192 8192 8
find "$OUT/triton-cache" -name '*.ptx' -exec cp {} "$OUT/triton-layer_norm_bwd.ptx" \;
rm -f "$OUT"/*.ncu-rep
cat "$OUT/summary.txt"
for f in "$OUT"/ncu-*.details.txt; do
  echo "--- $(basename "$f" .details.txt)"
  grep -E "^\s+(Duration|DRAM Throughput|Memory Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued Instruction|Local Memory Spilling Requests|Block Limit Registers|Static Shared Memory Per Block|Executed Instructions)\b" "$f" \
    | sed 's/  */ /g'
done
