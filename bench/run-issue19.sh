#!/usr/bin/env bash
# The GPU run for issue 19 (the Rust GPU ecosystem), on the GPU machine,
# from the repository root, with .gpu/tile-tools.xz carried over (bash
# scripts/gpu-pack.sh):
#   bash bench/run-issue19.sh
# 1. gpu-check interop: the cudarc example (a tile kernel on cudarc memory
#    on a non-default stream, ordered after another stream's writes by an
#    event; and by cudarc's own tracking), slice extents, buffer <-> slice,
#    f16/bf16 buffers, every visible GPU; then the same under memcheck.
# 2. gpu-check: every case (stream-ordered copies and per-chip variants
#    under every kernel).
# 3. bench --out: the table, its JSON and its PNG.
# Every log under $OUT; a summary last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
run() {
  local name=$1 limit=$2
  shift 2
  local started=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  echo "$name exit=$? $((SECONDS - started)) s" >> "$OUT/summary.txt"
}
run interop 120 /tmp/tile-tools gpu-check interop
run memcheck-interop 240 compute-sanitizer --tool memcheck --leak-check full \
  /tmp/tile-tools gpu-check interop
run gpu-check 300 /tmp/tile-tools gpu-check
run bench 240 /tmp/tile-tools bench --out "$OUT/bench.md"
echo "--- device"; cat "$OUT/device.txt"
cat "$OUT/summary.txt"
echo "--- interop"; grep -E '^(PASS|FAIL)' "$OUT/interop.log" | cut -c1-200
echo "--- memcheck"; grep -E 'ERROR SUMMARY|LEAK SUMMARY|^(PASS|FAIL) interop' "$OUT/memcheck-interop.log" | head -5
echo "--- gpu-check: $(grep -c '^PASS' "$OUT/gpu-check.log") passed, $(grep -c '^FAIL' "$OUT/gpu-check.log") failed"
grep '^FAIL' "$OUT/gpu-check.log" | cut -c1-300 | head -10
grep -E '^(PASS|FAIL) (cudarc|half|every_gpu)' "$OUT/gpu-check.log" | cut -c1-200
tail -3 "$OUT/gpu-check.log"
echo "--- bench"; grep -E '^(wrote|WARNING|FAIL)' "$OUT/bench.log"; tail -14 "$OUT/bench.log"
