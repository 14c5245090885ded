#!/usr/bin/env bash
# The GPU runs, by purpose, on the GPU machine from the repository root,
# with .gpu/tile-tools.xz carried over (bash scripts/gpu-pack.sh builds
# it). Each mode writes its log under $OUT (default /tmp/out); a summary
# of every mode comes last.
#
#   bash bench/gpu.sh check         # every GPU correctness case (gpu-check)
#   bash bench/gpu.sh matmul        # the tensor-core cases alone: the
#                                   # tutorial matmul and every style
#   bash bench/gpu.sh memcheck      # compute-sanitizer memcheck and racecheck
#                                   # over the quick tensor-core, attention
#                                   # and op-kernel checks
#   bash bench/gpu.sh bench         # memory-bound kernels beside Triton
#   bash bench/gpu.sh matmul-bench  # the tutorial matmul beside Triton, cuBLAS
#   bash bench/gpu.sh styles        # the matmul written every way users write
#                                   # it, beside Triton on the same source and
#                                   # cuBLAS (STYLE_ARGS: extra arguments, e.g.
#                                   # "--style pointers --style recomputed")
#   bash bench/gpu.sh attention     # flash attention beside Triton and SDPA
#   bash bench/gpu.sh profile       # Nsight Compute's full set on one launch of
#                                   # ours for each of PROFILE_CASES (style
#                                   # cases, STYLE:DTYPE:MxNxK) in PROFILE_CONFIG
#                                   # (BMxBNxBK/wW/sS): details and SASS
#   bash bench/gpu.sh all           # all of the above
#
# Modes run in the order given.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
cp .gpu/commit.txt "$OUT/commit.txt" 2>/dev/null || echo unknown > "$OUT/commit.txt"
tools=/tmp/tile-tools

# run NAME LIMIT_SECONDS COMMAND...: the command's output to $OUT/NAME.log.
run() {
  local name=$1 limit=$2
  shift 2
  local started=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  echo "$name exit=$? $((SECONDS - started)) s" >> "$OUT/summary.txt"
}

# The counts of a gpu-check log, and its first failures.
checks() {
  local name=$1
  [ -f "$OUT/$name.log" ] || return
  echo "--- $name: $(grep -c '^PASS' "$OUT/$name.log") passed, $(grep -c '^FAIL' "$OUT/$name.log") failed"
  grep '^FAIL' "$OUT/$name.log" | cut -c1-300 | head -10
}

# The sanitizer's verdict lines of a log.
sanitized() {
  local name=$1
  [ -f "$OUT/$name.log" ] || return
  echo "--- $name: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$OUT/$name.log" | tr '\n' ' ')"
}

# The table a benchmark printed last.
table() {
  local name=$1
  [ -f "$OUT/$name.log" ] || return
  echo "--- $name"
  awk '/^\|/{print} /^$/{if (seen) exit} /^\|/{seen=1}' "$OUT/$name.log" | tail -n 100
}

modes=("$@")
[ "${modes[*]}" = "all" ] && modes=(check memcheck bench matmul-bench styles attention)
for mode in "${modes[@]}"; do
  case $mode in
    check)
      run check 900 $tools gpu-check
      ;;
    matmul)
      run matmul 600 $tools gpu-check matmul
      # The f64 reference checks every output; the interpreter's second
      # opinion is left to the quick sizes (memcheck mode) and CI.
      TILE_CHECK_INTERPRETER=0 run matmul-styles 600 $tools gpu-check matmul-styles
      ;;
    memcheck)
      run memcheck-styles 600 compute-sanitizer --tool memcheck --leak-check full \
        $tools gpu-check matmul-styles --quick
      run memcheck-matmul 600 compute-sanitizer --tool memcheck --leak-check full \
        $tools gpu-check matmul --quick
      run racecheck-styles 600 compute-sanitizer --tool racecheck \
        $tools gpu-check matmul-styles --quick
      ;;
    bench)
      run bench 600 $tools bench --out "$OUT/bench.md"
      ;;
    matmul-bench)
      run matmul-bench 600 $tools matmul-bench --out "$OUT/matmul-bench.md"
      ;;
    styles)
      # shellcheck disable=SC2086
      run styles 600 $tools matmul-bench --styles ${STYLE_ARGS:-} --out "$OUT/styles.md"
      ;;
    attention)
      run attention 600 $tools attention-bench --out "$OUT/attention.md"
      ;;
    profile)
      for case in ${PROFILE_CASES:?PROFILE_CASES lists style cases}; do
        name=$(echo "$case" | tr ':x' '--')
        kernel="matmul_${case%%:*}"
        # The second launch: the first is the correctness check.
        timeout 300 ncu --set full --import-source no --kernel-name "regex:^$kernel\$" \
          --launch-skip 1 --launch-count 1 -f -o "$OUT/ncu-$name" \
          $tools matmul-bench --styles --ours-only --warmup 1 --reps 1 \
          --style-case "$case" --config "${PROFILE_CONFIG:-128x256x64/w8/s3}" \
          > "$OUT/ncu-$name.run.log" 2>&1
        echo "ncu-$name exit=$?" >> "$OUT/summary.txt"
        ncu -i "$OUT/ncu-$name.ncu-rep" --page details > "$OUT/ncu-$name.details.txt" 2>&1
        ncu -i "$OUT/ncu-$name.ncu-rep" --page source --print-source sass --csv \
          > "$OUT/ncu-$name.sass.csv" 2>&1
        rm -f "$OUT/ncu-$name.ncu-rep"
      done
      ;;
    *)
      echo "unknown mode $mode (check, matmul, memcheck, bench, matmul-bench, styles, attention, profile, all)" >&2
      exit 2
      ;;
  esac
done

echo "=== $(cat "$OUT/device.txt")  commit $(tr '\n' ' ' < "$OUT/commit.txt")"
cat "$OUT/summary.txt"
for name in check matmul matmul-styles; do checks $name; done
for name in memcheck-styles memcheck-matmul racecheck-styles; do sanitized $name; done
for name in bench matmul-bench styles attention; do table $name; done
