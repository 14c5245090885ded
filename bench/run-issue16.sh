#!/usr/bin/env bash
# The GPU run for issue 16 (tile.dot on tensor cores, pipelining, the
# matmul), on the GPU machine, from the repository root, with
# .gpu/tile-tools.xz carried over (bash scripts/gpu-pack.sh). One call:
#   bash bench/run-issue16.sh
# matmul-bench (ours autotuned over its configurations, Triton 3.6
# autotuned, cuBLAS), the whole GPU check, and compute-sanitizer memcheck
# over the quick matmul cases. Writes every log under $OUT and prints a
# short summary last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
run() { local name=$1; shift; "$@" > "$OUT/$name.log" 2>&1; echo "$name exit=$?" >> "$OUT/summary.txt"; }
run matmul-bench /tmp/tile-tools matmul-bench --out "$OUT/matmul-bench.md"
run gpu-check /tmp/tile-tools gpu-check
run memcheck-matmul compute-sanitizer --tool memcheck --leak-check full /tmp/tile-tools gpu-check matmul --quick
cat "$OUT/summary.txt"
echo "--- device"; cat "$OUT/device.txt"
grep '^FAIL' "$OUT/gpu-check.log" | head -20
grep -E "cases, " "$OUT/gpu-check.log"
tail -2 "$OUT/memcheck-matmul.log"
grep -E '^\|' "$OUT/matmul-bench.md" | tail -10
true
