#!/usr/bin/env bash
# The GPU runs for issue 20 (the op set real kernels use), on the GPU
# machine, from the repository root, with .gpu/tile-tools.xz carried over
# (bash scripts/gpu-pack.sh):
#   bash bench/run-issue20.sh ops       # the per-op sweeps (argmax, scans, ...)
#   bash bench/run-issue20.sh kernels   # the done-when kernels against torch,
#                                       # with memcheck and racecheck
#   bash bench/run-issue20.sh bench     # speed beside Triton
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
summary() {
  local name=$1
  echo "--- $name: $(grep -c '^PASS' "$OUT/$name.log") passed, $(grep -c '^FAIL' "$OUT/$name.log") failed"
  grep '^FAIL' "$OUT/$name.log" | cut -c1-300 | head -20
}
for mode in "$@"; do
  case $mode in
    ops)
      run ops 300 /tmp/tile-tools gpu-check ops
      ;;
    kernels)
      run op-kernels 300 /tmp/tile-tools gpu-check op-kernels
      run memcheck 300 compute-sanitizer --tool memcheck --leak-check full \
        /tmp/tile-tools gpu-check op-kernels --quick
      run racecheck 300 compute-sanitizer --tool racecheck \
        /tmp/tile-tools gpu-check op-kernels --quick
      ;;
    bench)
      run bench 300 /tmp/tile-tools bench --out "$OUT/bench.md"
      ;;
    *)
      echo "unknown mode $mode" >&2
      exit 2
      ;;
  esac
done
echo "--- device"; cat "$OUT/device.txt"
cat "$OUT/summary.txt"
for mode in "$@"; do
  case $mode in
    ops) summary ops ;;
    kernels)
      summary op-kernels
      echo "--- memcheck"; grep -E 'ERROR SUMMARY|LEAK SUMMARY|^(PASS|FAIL) op-kernels' "$OUT/memcheck.log" | head -5
      echo "--- racecheck"; grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|^(PASS|FAIL) op-kernels' "$OUT/racecheck.log" | head -5
      ;;
    bench)
      echo "--- bench"; grep -E '^(wrote|WARNING|FAIL)' "$OUT/bench.log"; tail -14 "$OUT/bench.log"
      ;;
  esac
done
exit 0
