#!/usr/bin/env bash
# The GPU run for issue 18 (hardening), on the GPU machine, from the
# repository root, with .gpu/tile-tools.xz carried over (bash
# scripts/gpu-pack.sh):
#   bash bench/run-issue18.sh
#   CHECK=0 PROGRAMS=12000 LIMIT=380 bash bench/run-issue18.sh   # fuzz only
# Four `tile-tools fuzz --programs` campaigns at once (seeds 11-14): random
# builder programs compiled with random options, launched on the GPU and
# checked against the interpreter; meanwhile the quick GPU check, to see
# that the limits changed no kernel. Every log under $OUT; a summary last.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
PROGRAMS=${PROGRAMS:-10000}
LIMIT=${LIMIT:-330}
for seed in 11 12 13 14; do
  mkdir -p "$OUT/fuzz-$seed"
  timeout "$LIMIT" /tmp/tile-tools fuzz --programs --inputs "$PROGRAMS" --seed "$seed" \
    --out "$OUT/fuzz-$seed" > "$OUT/fuzz-$seed.log" 2>&1 &
done
if [ "${CHECK:-1}" = 1 ]; then
  timeout "$LIMIT" /tmp/tile-tools gpu-check --quick > "$OUT/gpu-check-quick.log" 2>&1
  echo "gpu-check-quick exit=$?" >> "$OUT/summary.txt"
fi
wait
touch "$OUT/summary.txt" "$OUT/gpu-check-quick.log"
cat "$OUT/summary.txt"
echo "--- device"; cat "$OUT/device.txt"
echo "--- gpu-check --quick: $(grep -c '^PASS' "$OUT/gpu-check-quick.log") passed, $(grep -c '^FAIL' "$OUT/gpu-check-quick.log") failed"
grep '^FAIL' "$OUT/gpu-check-quick.log" | cut -c1-300 | head -10
tail -2 "$OUT/gpu-check-quick.log"
for seed in 11 12 13 14; do
  echo "--- fuzz seed $seed"
  grep -E '^(fuzz|Disagreed|Panicked)' "$OUT/fuzz-$seed.log" | head -5
  grep -E 'programs, slowest' "$OUT/fuzz-$seed.log" | tail -1
done
ls "$OUT"/fuzz-*/finding-* 2>/dev/null | head
(cd "$OUT" && tar czf fuzz-out.tgz fuzz-1? && rm -rf fuzz-1?)
true
