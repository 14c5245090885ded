#!/usr/bin/env bash
# The GPU run for issue 15 (IR in MLIR, built with builders; every math op
# compiles; memory order; the LayerNorm), on the GPU machine, from the
# repository root, with .gpu/tile-tools.xz carried over
# (bash scripts/gpu-pack.sh). Two parts, so that each fits one call:
#   bash bench/run-issue15.sh check    # gpu-check (every case, compared with
#                                      # the interpreter) and the benchmark
#   bash bench/run-issue15.sh memcheck # compute-sanitizer memcheck over
#                                      # gpu-check --quick, and compile-bench
# Writes every log under $OUT and prints a short summary last.
set -uo pipefail
part=${1:-check}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
export TILE_REQUIRE_GPU=1 TILE_CACHE_DIR=/tmp/tile-cache PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
run() { local name=$1; shift; "$@" > "$OUT/$name.log" 2>&1; echo "$name exit=$?" >> "$OUT/summary.txt"; }
case "$part" in
  check)
    run check /tmp/tile-tools gpu-check
    run bench /tmp/tile-tools bench --out "$OUT/bench.md"
    ;;
  memcheck)
    run memcheck compute-sanitizer --tool memcheck /tmp/tile-tools gpu-check --quick
    run compile /tmp/tile-tools compile-bench --out "$OUT/compile.md"
    ;;
esac
cat "$OUT/summary.txt"
echo "--- device"; cat "$OUT/device.txt"
for log in check memcheck; do
  [ -f "$OUT/$log.log" ] || continue
  echo "--- $log failures"; grep '^FAIL' "$OUT/$log.log" | head -20
  echo "--- $log tally"; grep -E "cases|ERROR SUMMARY|launches" "$OUT/$log.log" | tail -4
done
[ -f "$OUT/bench.md" ] && { echo "--- bench"; grep -E '^\|' "$OUT/bench.md" | tail -12; }
[ -f "$OUT/compile.md" ] && { echo "--- compile"; grep -E 'cold compile|first compile' "$OUT/compile.md"; }
true
