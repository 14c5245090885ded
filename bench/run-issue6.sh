#!/usr/bin/env bash
# The GPU run for issue 6 (runtime), on the GPU machine, from the repository
# root, with .gpu/tile-tools.xz and .gpu/tile-aot-example carried over
# (bash scripts/gpu-pack.sh; strip -o .gpu/tile-aot-example
# target/release/tile-aot-example). Writes every log under $OUT and prints a
# short summary last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
cp .gpu/tile-aot-example /tmp/tile-aot-example && chmod +x /tmp/tile-aot-example
export TILE_REQUIRE_GPU=1 TILE_CACHE_DIR=/tmp/tile-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
run() { local name=$1; shift; "$@" > "$OUT/$name.log" 2>&1; echo "$name exit=$?" >> "$OUT/summary.txt"; }
run check /tmp/tile-tools gpu-check
run check-warm-cache /tmp/tile-tools gpu-check --quick
run launch-bench /tmp/tile-tools gpu-check launch-bench
python3 bench/triton_launch.py > "$OUT/triton-launch.log" 2>&1; echo "triton-launch exit=$?" >> "$OUT/summary.txt"
run autotune /tmp/tile-tools gpu-check autotune --cache-dir /tmp/tile-tune
run aot-example /tmp/tile-aot-example --out /tmp/aot.bin
run aot-compare /tmp/tile-tools gpu-check aot-compare /tmp/aot.bin
run memcheck compute-sanitizer --tool memcheck /tmp/tile-tools gpu-check --quick
run fault /tmp/tile-tools gpu-check fault
ls /tmp/tile-cache | wc -l > "$OUT/cache-entries.txt"
cat "$OUT/summary.txt"
echo "--- device"; cat "$OUT/device.txt"
echo "--- check"; tail -22 "$OUT/check.log"
echo "--- launch"; tail -3 "$OUT/launch-bench.log"; cat "$OUT/triton-launch.log" | tail -2
echo "--- autotune"; tail -10 "$OUT/autotune.log"
echo "--- aot"; tail -8 "$OUT/aot-example.log"; tail -6 "$OUT/aot-compare.log"
echo "--- memcheck"; tail -3 "$OUT/memcheck.log"
echo "--- fault"; tail -4 "$OUT/fault.log"
