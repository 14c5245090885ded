# Sourced by bench/profile-*.sh: `profile NAME KERNEL_REGEX COMMAND...`
# profiles the second launch of the kernels matching KERNEL_REGEX that
# COMMAND makes (the first is its correctness check) with Nsight Compute's
# full set, and writes $OUT/ncu-NAME.details.txt (the details page) and
# $OUT/ncu-NAME.sass.csv (the SASS with its stall samples); its exit
# status goes to $OUT/summary.txt.
profile() {
  local name=$1 kernel=$2; shift 2
  timeout 300 ncu --set full --import-source no --kernel-name "regex:$kernel" \
    --launch-skip 1 --launch-count 1 -f -o "$OUT/ncu-$name" "$@" \
    > "$OUT/ncu-$name.run.log" 2>&1
  echo "ncu-$name exit=$?" >> "$OUT/summary.txt"
  ncu -i "$OUT/ncu-$name.ncu-rep" --page details > "$OUT/ncu-$name.details.txt" 2>&1
  ncu -i "$OUT/ncu-$name.ncu-rep" --page source --print-source sass --csv \
    > "$OUT/ncu-$name.sass.csv" 2>&1
}
