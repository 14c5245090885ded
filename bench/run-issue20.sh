#!/usr/bin/env bash
# The GPU runs for issue 20 (the op set real kernels use), on the GPU
# machine, from the repository root, with .gpu/tile-tools.xz carried over
# (bash scripts/gpu-pack.sh):
#   bash bench/run-issue20.sh ops       # the per-op sweeps (argmax, scans, ...)
#   bash bench/run-issue20.sh kernels   # the done-when kernels against torch,
#                                       # with memcheck and racecheck
#   bash bench/run-issue20.sh bench     # speed beside Triton
#   bash bench/run-issue20.sh debug     # device_print / device_assert, the
#                                       # children's raw output, memcheck
#   bash bench/run-issue20.sh gelu      # the GELU kernels against torch
#   bash bench/run-issue20.sh shape     # the shape-op sweep under memcheck
#                                       # and racecheck (shared memory)
#   bash bench/run-issue20.sh fp8       # the 8-bit float conversions under
#                                       # memcheck
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
    debug)
      run debug 300 /tmp/tile-tools gpu-check debug
      run debug-print 60 /tmp/tile-tools gpu-check debug-child print
      run debug-assert 60 /tmp/tile-tools gpu-check debug-child assert-fires
      run debug-memcheck 120 compute-sanitizer --tool memcheck --leak-check full \
        /tmp/tile-tools gpu-check debug-child print
      ;;
    fp8)
      run fp8-memcheck 300 compute-sanitizer --tool memcheck --leak-check full \
        /tmp/tile-tools gpu-check ops --group fp8
      ;;
    shape)
      run shape-memcheck 300 compute-sanitizer --tool memcheck --leak-check full \
        /tmp/tile-tools gpu-check ops --group shape
      run shape-racecheck 300 compute-sanitizer --tool racecheck \
        /tmp/tile-tools gpu-check ops --group shape
      ;;
    gelu)
      run gelu-dump 120 /tmp/tile-tools gpu-check gelu-dump /tmp/gelu
      run gelu 120 python3 bench/gelu_vs_torch.py /tmp/gelu
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
    debug)
      summary debug
      echo "--- debug-print: $(grep -c '^pid (' "$OUT/debug-print.log") lines"; head -3 "$OUT/debug-print.log"
      echo "--- debug-assert"; grep -v '^pid (' "$OUT/debug-assert.log" | cut -c1-300 | head -6
      echo "--- debug-memcheck"; grep -E 'ERROR SUMMARY|LEAK SUMMARY|^RESULT' "$OUT/debug-memcheck.log" | head -4
      ;;
    fp8)
      echo "--- fp8-memcheck: $(grep -c '^PASS ops fp8' "$OUT/fp8-memcheck.log") passed, $(grep -c '^FAIL' "$OUT/fp8-memcheck.log") failed"
      grep '^FAIL' "$OUT/fp8-memcheck.log" | cut -c1-300 | head -10
      grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$OUT/fp8-memcheck.log" | head -3
      ;;
    shape)
      for tool in memcheck racecheck; do
        echo "--- shape-$tool: $(grep -c '^PASS ops shape' "$OUT/shape-$tool.log") passed, $(grep -c '^FAIL' "$OUT/shape-$tool.log") failed"
        grep -E 'ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY' "$OUT/shape-$tool.log" | head -3
      done
      ;;
    gelu)
      echo "--- gelu"; grep -E '^(INFO|RESULT)|Error' "$OUT/gelu.log" "$OUT/gelu-dump.log" | cut -c1-300
      ;;
  esac
done
exit 0
