#!/usr/bin/env bash
# The GPU run for issue 7 (the CPU interpreter), on the GPU machine, from the
# repository root, with .gpu/tile-tools.xz carried over
# (bash scripts/gpu-pack.sh). Every case that launches through the JIT is
# also run on the CPU interpreter over the same inputs and the memories
# compared (tools/src/gpu_check/cross_check.rs). Writes every log under
# $OUT and prints a short summary last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
export TILE_REQUIRE_GPU=1 TILE_CACHE_DIR=/tmp/tile-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
run() { local name=$1; shift; "$@" > "$OUT/$name.log" 2>&1; echo "$name exit=$?" >> "$OUT/summary.txt"; }
run check /tmp/tile-tools gpu-check
run memcheck compute-sanitizer --tool memcheck /tmp/tile-tools gpu-check --quick
cat "$OUT/summary.txt"
echo "--- device"; cat "$OUT/device.txt"
echo "--- failures"; grep '^FAIL' "$OUT/check.log" | head -20
echo "--- check"; tail -26 "$OUT/check.log"
echo "--- memcheck"; grep -E "ERROR SUMMARY|^[0-9]+ cases" "$OUT/memcheck.log" | tail -3
