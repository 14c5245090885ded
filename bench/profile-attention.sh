#!/usr/bin/env bash
# Nsight Compute profiles of one flash-attention launch, ours and Triton's,
# in the same configuration, on the GPU machine, from the repository root,
# with .gpu/tile-tools.xz carried over (bash scripts/gpu-pack.sh):
#   bash bench/profile-attention.sh D causal|full BMxBN/wW/sS [BINARY.xz ...]
# Each extra BINARY.xz (another build of tile-tools) is profiled as well.
# B = 4, H = 32, T = 4096, f16. The second launch of each is profiled (the
# first is the correctness check). For each: the details page (speed of
# light, occupancy, warp states, scheduler) and the SASS with its stall
# samples (CSV), under $OUT/ncu-<name>.*; a short summary is printed last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
if [ $# -lt 3 ]; then
  echo "usage: bash bench/profile-attention.sh D causal|full BMxBN/wW/sS [BINARY.xz ...]" >&2
  exit 2
fi
d=$1 mask=$2 config=$3
shift 3
source bench/ncu-profile.sh
ours_args=(attention-bench --ours-only --config "$config" --head-dim "$d" --mask "$mask"
  --warmup 1 --reps 1)
for bin in .gpu/tile-tools.xz "$@"; do
  name=ours-$(basename "$bin" .xz)
  xz -dc "$bin" > "/tmp/$name" && chmod +x "/tmp/$name"
  profile "$name" attention_fwd "/tmp/$name" "${ours_args[@]}"
done
profile triton attn_fwd python3 bench/triton_attention.py --config "$config" \
  --warmup 1 --reps 1 --case "4x32x4096x$d" "$mask"
cat "$OUT/summary.txt"
for f in "$OUT"/ncu-*.details.txt; do
  echo "--- $(basename "$f" .details.txt)"
  grep -E "^\s+(Duration|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued Instruction|Executed Ipc Active|Dynamic Shared Memory Per Block|Block Limit Registers|Block Limit Shared Mem)\b" "$f" \
    | sed 's/  */ /g'
done
