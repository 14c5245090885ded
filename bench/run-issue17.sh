#!/usr/bin/env bash
# The GPU run for issue 17 (flash attention), on the GPU machine, from the
# repository root, with .gpu/tile-tools.xz carried over (bash
# scripts/gpu-pack.sh). One call a part:
#   bash bench/run-issue17.sh check   # gpu-check attention, matmul --quick,
#                                     # memcheck over the quick attention cases
#   bash bench/run-issue17.sh bench   # attention-bench against Triton 3.6
#                                     # (autotuned) and torch SDPA, twice
#                                     # (two processes), then matmul-bench
#                                     # (the pipelined loops the two kernels
#                                     # share)
# Writes every log under $OUT and prints a short summary last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
run() {
  local name=$1 limit=$2; shift 2
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  echo "$name exit=$?" >> "$OUT/summary.txt"
}
case "${1:-}" in
  check)
    run gpu-check-attention 300 /tmp/tile-tools gpu-check attention
    run gpu-check-matmul-quick 120 /tmp/tile-tools gpu-check matmul --quick
    run memcheck-attention 150 compute-sanitizer --tool memcheck --leak-check full \
      /tmp/tile-tools gpu-check attention --quick
    ;;
  bench)
    run attention-bench 300 /tmp/tile-tools attention-bench --reps 30 --out "$OUT/attention-bench.md"
    # A second process: how far a configuration's time moves between runs.
    run attention-bench-2 300 /tmp/tile-tools attention-bench --reps 30 --out "$OUT/attention-bench-2.md"
    run matmul-bench 260 /tmp/tile-tools matmul-bench --out "$OUT/matmul-bench.md"
    ;;
  *)
    echo "usage: bash bench/run-issue17.sh check|bench" >&2
    exit 2
    ;;
esac
cat "$OUT/summary.txt"
echo "--- device"; cat "$OUT/device.txt"
for log in "$OUT"/gpu-check-*.log; do
  [ -f "$log" ] || continue
  echo "--- $(basename "$log"): $(grep -c '^PASS' "$log") passed, $(grep -c '^FAIL' "$log") failed"
  grep '^FAIL' "$log" | cut -c1-300 | head -10
done
[ -f "$OUT/memcheck-attention.log" ] && tail -3 "$OUT/memcheck-attention.log"
for name in attention-bench attention-bench-2; do
  [ -f "$OUT/$name.log" ] || continue
  echo "--- $name"
  grep -E '^  ours' "$OUT/$name.log" | cut -c1-120
  grep -E 'RESULT' "$OUT/$name.log" | cut -c1-220
  grep -E '^\|' "$OUT/$name.md" 2>/dev/null | tail -6
done
if [ -f "$OUT/matmul-bench.log" ]; then
  grep -E '^\|' "$OUT/matmul-bench.md" 2>/dev/null | tail -10
  tail -3 "$OUT/matmul-bench.log"
fi
true
