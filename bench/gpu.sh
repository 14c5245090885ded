#!/usr/bin/env bash
# Every GPU run, by purpose: on the GPU machine, from the repository root,
# with .gpu/tile-tools.xz carried over (bash scripts/gpu-pack.sh builds it;
# name .gpu in the device tool's `carry`). Each mode writes its logs under
# $OUT (default /tmp/out); a summary of every mode run comes last: exit
# codes and times, check counts and first failures, sanitizer verdicts,
# and the table each benchmark printed.
#
# Correctness:
#   bash bench/gpu.sh check         # every GPU correctness case but the
#                                   # tensor-core ones (gpu-check core,
#                                   # attention, ops, op-kernels, math, interop):
#                                   # each kernel against a CPU reference and
#                                   # the CPU interpreter
#   bash bench/gpu.sh matmul        # the tensor-core cases: the tutorial
#                                   # matmul and every style (`check` and
#                                   # `matmul` together are every case of
#                                   # gpu-check, in two calls)
#   bash bench/gpu.sh ops           # the op sweeps and op kernels, the debug
#                                   # ops (device_print, device_assert), the
#                                   # math accuracy and GELU beside PyTorch
#   bash bench/gpu.sh runtime       # the runtime: launch overhead beside the
#                                   # driver and Triton, the autotuner, faults,
#                                   # cudarc interop, ahead-of-time artifacts
#                                   # (with .gpu/tile-aot-example, if carried)
#   bash bench/gpu.sh memcheck      # compute-sanitizer memcheck and racecheck
#                                   # over the quick tensor-core, attention,
#                                   # op-kernel, shape-op, fp8 and interop checks
#   bash bench/gpu.sh cargo-tests   # the cargo tests that need a GPU (the
#                                   # runtime's, from .gpu/cargo-tests) with
#                                   # TILE_REQUIRE_GPU=1 and their ignored
#                                   # GPU tests, the context-killing one alone
#   bash bench/gpu.sh fuzz          # four `fuzz --programs` campaigns on the
#                                   # GPU against the interpreter (PROGRAMS
#                                   # each, LIMIT seconds)
# Speed (each beside Triton 3.6 and PyTorch/cuBLAS from the same run):
#   bash bench/gpu.sh bench         # memory-bound kernels
#   bash bench/gpu.sh matmul-bench  # the tutorial matmul
#   bash bench/gpu.sh styles        # the matmul written every way users write
#                                   # it (STYLE_ARGS: extra arguments, e.g.
#                                   # "--style pointers --style recomputed")
#   bash bench/gpu.sh attention     # flash attention (and SDPA)
#   bash bench/gpu.sh shapes        # memory-bound kernels at several tile shapes
#                                   # beside Triton on the same source, and a
#                                   # device copy (SHAPES_ARGS: extra arguments,
#                                   # e.g. "--case transpose --case softmax:f16")
#   bash bench/gpu.sh same-process  # ours and Triton's of shapes-bench cases in
#                                   # one process, alternately in rounds
#                                   # (bench/same_process.py; SAME_PROCESS_ARGS:
#                                   # its --case arguments, by default LayerNorm
#                                   # and softmax of a few rows on small inputs)
#   bash bench/gpu.sh compile       # cold compile latency on the GPU host
#   bash bench/gpu.sh profile       # Nsight Compute's full set on one launch of
#                                   # ours for each of PROFILE_CASES (style
#                                   # cases, STYLE:DTYPE:MxNxK) in PROFILE_CONFIG
#                                   # (BMxBNxBK/wW/sS): details and SASS
# Everything:
#   bash bench/gpu.sh all           # check matmul memcheck bench matmul-bench styles
#                                   # attention shapes (about 50 minutes: split it
#                                   # over calls of at most 10 minutes)
#
# Modes run in the order given. TILE_TOOLS=path runs that binary instead of
# unpacking .gpu/tile-tools.xz (to try the script elsewhere: without a GPU
# every check says it was skipped).
set -uo pipefail
cd "$(dirname "$0")/.."
modes=("$@")
[ ${#modes[@]} -eq 0 ] && { awk 'NR > 1 && /^#/ {print; next} NR > 1 {exit}' "$0"; exit 2; }
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
: > "$OUT/summary.txt"
if [ -n "${TILE_TOOLS:-}" ]; then
  tools=$TILE_TOOLS
else
  xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
  tools=/tmp/tile-tools
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1 \
  || echo "no GPU (nvidia-smi failed)" > "$OUT/device.txt"
cp .gpu/commit.txt "$OUT/commit.txt" 2>/dev/null || echo unknown > "$OUT/commit.txt"

# run NAME LIMIT_SECONDS COMMAND...: the command's output to $OUT/NAME.log.
run() {
  local name=$1 limit=$2
  shift 2
  local started=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  echo "$name exit=$? $((SECONDS - started)) s" >> "$OUT/summary.txt"
}

# sanitize TOOL NAME LIMIT ARGS...: tile-tools ARGS under compute-sanitizer.
sanitize() {
  local tool=$1 name=$2 limit=$3
  shift 3
  local leaks=()
  [ "$tool" = memcheck ] && leaks=(--leak-check full)
  run "$name" "$limit" compute-sanitizer --tool "$tool" "${leaks[@]}" "$tools" "$@"
}

# The counts of a gpu-check log, and its first failures.
checks() {
  local name=$1
  [ -f "$OUT/$name.log" ] || return 0
  echo "--- $name: $(grep -c '^PASS' "$OUT/$name.log") passed, $(grep -c '^FAIL' "$OUT/$name.log") failed" \
    "$(grep -m1 -o 'skipped: .*' "$OUT/$name.log")"
  grep '^FAIL' "$OUT/$name.log" | cut -c1-300 | head -10
}

# The sanitizer's verdict lines of a log.
sanitized() {
  local name=$1
  [ -f "$OUT/$name.log" ] || return 0
  local verdict
  verdict=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$OUT/$name.log" | tr '\n' ' ')
  echo "--- $name: ${verdict:-no verdict: $(tail -1 "$OUT/$name.log")}"
}

# The table a benchmark printed last.
table() {
  local name=$1
  [ -f "$OUT/$name.log" ] || return 0
  echo "--- $name"
  awk '/^\|/{print} /^$/{if (seen) exit} /^\|/{seen=1}' "$OUT/$name.log" | tail -n 120
}

[ "${modes[*]}" = "all" ] && modes=(check matmul memcheck bench matmul-bench styles attention shapes)
export TILE_CACHE_DIR=${TILE_CACHE_DIR:-/tmp/tile-cache}
for mode in "${modes[@]}"; do
  case $mode in
    check)
      # Every case but the tensor-core families (mode `matmul`), in parts
      # that each fit one call to the GPU machine.
      run check 300 "$tools" gpu-check core
      run attention-check 400 "$tools" gpu-check attention
      run ops 300 "$tools" gpu-check ops
      run op-kernels 300 "$tools" gpu-check op-kernels
      run math-accuracy 300 "$tools" gpu-check math-accuracy
      run interop 120 "$tools" gpu-check interop
      run kernel-fns 120 "$tools" gpu-check kernel-fns
      ;;
    matmul)
      run matmul 600 "$tools" gpu-check matmul
      # The f64 reference checks every output; the interpreter's second
      # opinion is left to the quick sizes (memcheck mode) and CI.
      TILE_CHECK_INTERPRETER=0 run matmul-styles 600 "$tools" gpu-check matmul-styles
      ;;
    ops)
      run ops 300 "$tools" gpu-check ops
      run op-kernels 300 "$tools" gpu-check op-kernels
      run debug 300 "$tools" gpu-check debug
      run math-accuracy 300 "$tools" gpu-check math-accuracy
      run gelu-dump 120 "$tools" gpu-check gelu-dump /tmp/gelu
      run gelu-vs-torch 120 python3 bench/gelu_vs_torch.py /tmp/gelu
      ;;
    runtime)
      run launch-bench 300 "$tools" gpu-check launch-bench
      run triton-launch 300 python3 bench/triton_launch.py
      run graph-bench 300 "$tools" gpu-check graph-bench
      run triton-graph 300 python3 bench/triton_graph.py
      run autotune 300 "$tools" gpu-check autotune --cache-dir /tmp/tile-tune
      run fault 120 "$tools" gpu-check fault
      run interop 120 "$tools" gpu-check interop
      if [ -f .gpu/tile-aot-example ]; then
        run aot-example 120 bash -c 'cp .gpu/tile-aot-example /tmp/tile-aot-example &&
          chmod +x /tmp/tile-aot-example && /tmp/tile-aot-example --out /tmp/aot.bin'
        run aot-compare 120 "$tools" gpu-check aot-compare /tmp/aot.bin
      else
        echo "aot-example skipped: .gpu/tile-aot-example not carried" >> "$OUT/summary.txt"
      fi
      ;;
    memcheck)
      sanitize memcheck memcheck-styles 600 gpu-check matmul-styles --quick
      sanitize memcheck memcheck-matmul 600 gpu-check matmul --quick
      sanitize racecheck racecheck-styles 600 gpu-check matmul-styles --quick
      sanitize memcheck memcheck-attention 600 gpu-check attention --quick
      sanitize memcheck memcheck-op-kernels 300 gpu-check op-kernels --quick
      sanitize racecheck racecheck-op-kernels 300 gpu-check op-kernels --quick
      sanitize memcheck memcheck-shape 300 gpu-check ops --group shape
      sanitize racecheck racecheck-shape 300 gpu-check ops --group shape
      sanitize memcheck memcheck-fp8 300 gpu-check ops --group fp8
      sanitize memcheck memcheck-interop 240 gpu-check interop
      ;;
    cargo-tests)
      # A missing GPU fails these instead of skipping them.
      for test in .gpu/cargo-tests/*; do
        name=$(basename "$test")
        TILE_REQUIRE_GPU=1 run "cargo-test-$name" 300 "$test" --include-ignored \
          --skip illegal_address_is_reported
      done
      # It kills its process's CUDA context: a process of its own.
      TILE_REQUIRE_GPU=1 run cargo-test-illegal-address 120 .gpu/cargo-tests/gpu --ignored \
        --exact illegal_address_is_reported
      ;;
    fuzz)
      started=$SECONDS
      for seed in 11 12 13 14; do
        mkdir -p "$OUT/fuzz-$seed"
        timeout "${LIMIT:-330}" "$tools" fuzz --programs --inputs "${PROGRAMS:-10000}" \
          --seed "$seed" --out "$OUT/fuzz-$seed" > "$OUT/fuzz-$seed.log" 2>&1 &
      done
      wait
      echo "fuzz (4 campaigns) $((SECONDS - started)) s" >> "$OUT/summary.txt"
      ;;
    bench)
      run bench 600 "$tools" bench --out "$OUT/bench.md"
      ;;
    matmul-bench)
      run matmul-bench 600 "$tools" matmul-bench --out "$OUT/matmul-bench.md"
      ;;
    styles)
      # shellcheck disable=SC2086
      run styles 600 "$tools" matmul-bench --styles ${STYLE_ARGS:-} --out "$OUT/styles.md"
      ;;
    attention)
      run attention 600 "$tools" attention-bench --out "$OUT/attention.md"
      ;;
    shapes)
      # shellcheck disable=SC2086
      run shapes 600 "$tools" shapes-bench ${SHAPES_ARGS:-} --out "$OUT/shapes.md"
      ;;
    same-process)
      # Kernels of 8-20 µs, where timing the two sides in two processes
      # (shapes-bench) is worth up to 8% either way.
      default_cases="--case layer_norm f16 8192x1536 2x2048/w4/s3,4x2048/w8/s3,8x2048/w16/s3
        --case layer_norm bf16 4096x768 2x1024/w4/s3,4x1024/w4/s3,8x1024/w8/s3
        --case softmax bf16 20000x1280 2x2048/w4/s3,4x2048/w8/s3"
      # shellcheck disable=SC2086
      run same-process 300 python3 bench/same_process.py --tile-tools "$tools" --rounds 3 \
        ${SAME_PROCESS_ARGS:-$default_cases}
      ;;
    compile)
      run compile 600 "$tools" compile-bench --out "$OUT/compile.md"
      ;;
    profile)
      for case in ${PROFILE_CASES:?PROFILE_CASES lists style cases}; do
        name=$(echo "$case" | tr ':x' '--')
        kernel="matmul_${case%%:*}"
        # The second launch: the first is the correctness check.
        timeout 300 ncu --set full --import-source no --kernel-name "regex:^$kernel\$" \
          --launch-skip 1 --launch-count 1 -f -o "$OUT/ncu-$name" \
          "$tools" matmul-bench --styles --ours-only --warmup 1 --reps 1 \
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
      echo "unknown mode $mode (check, matmul, ops, runtime, memcheck, cargo-tests, fuzz, bench," \
        "matmul-bench, styles, attention, shapes, same-process, compile, profile, all)" >&2
      exit 2
      ;;
  esac
done

echo "=== $(cat "$OUT/device.txt")  commit $(tr '\n' ' ' < "$OUT/commit.txt")"
cat "$OUT/summary.txt"
for name in check attention-check matmul matmul-styles ops op-kernels debug math-accuracy autotune fault interop aot-compare; do
  checks $name
done
for name in memcheck-styles memcheck-matmul racecheck-styles memcheck-attention \
  memcheck-op-kernels racecheck-op-kernels memcheck-shape racecheck-shape memcheck-fp8 \
  memcheck-interop; do
  sanitized $name
done
for log in "$OUT"/cargo-test-*.log; do
  [ -f "$log" ] || continue
  echo "--- $(basename "$log" .log): $(grep -E '^test result' "$log" | tr '\n' ' ')"
  grep -E '^test .* FAILED$|panicked' "$log" | head -5
done
for seed in 11 12 13 14; do
  [ -f "$OUT/fuzz-$seed.log" ] || continue
  echo "--- fuzz seed $seed: $(grep -E '^(fuzz|Disagreed|Panicked)' "$OUT/fuzz-$seed.log" | head -3 | tr '\n' ' ')"
  ls "$OUT/fuzz-$seed"/finding-* 2>/dev/null | head -3
done
if ls -d "$OUT"/fuzz-1? > /dev/null 2>&1; then
  (cd "$OUT" && tar czf fuzz-out.tgz fuzz-1? && rm -rf fuzz-1?)
fi
for name in launch-bench triton-launch graph-bench triton-graph math-accuracy gelu-vs-torch; do
  [ -f "$OUT/$name.log" ] && { echo "--- $name"; tail -8 "$OUT/$name.log"; }
done
for name in bench matmul-bench styles attention shapes same-process compile; do table $name; done
true
