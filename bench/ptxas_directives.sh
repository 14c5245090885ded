#!/usr/bin/env bash
# What ptxas (Triton's, CUDA 12.8) makes of one PTX file under flags and
# directives: its registers and the order of global loads (LDG), float adds
# (FADD) and branches (BRA) in the SASS, runs counted. On the GPU machine:
#   bash bench/ptxas_directives.sh KERNEL.ptx
# (2026-11-27: `-c` and any of .minnctapersm/.maxnreg gave the column sum's
# loop all four loads in flight; see bench/results/2026-11-27-h200-latency-directive.md.)
set -uo pipefail
ptx=${1:?usage: ptxas_directives.sh KERNEL.ptx}
bin=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin'))")
tmp=$(mktemp -d)
one() { # label file flags...
  local label=$1 file=$2; shift 2
  if ! "$bin/ptxas" -arch=sm_90 "$@" -v "$file" -o "$tmp/k.cubin" 2> "$tmp/log"; then
    echo "[$label] ptxas failed: $(head -1 "$tmp/log")"; return
  fi
  local regs order
  regs=$(grep -o "Used [0-9]* registers" "$tmp/log")
  order=$("$bin/nvdisasm" -c "$tmp/k.cubin" | grep -oE "\b(LDG|FADD|BRA)" | uniq -c \
    | awk '{printf "%s%s ", $2, ($1 > 1 ? "x" $1 : "")}')
  echo "[$label] $regs :: $order"
}
"$bin/ptxas" --version | tail -1
one "default" "$ptx"
for flags in -c -ewp -O2 -lineinfo "--maxrregcount 128" "--allow-expensive-optimizations=false"; do
  # shellcheck disable=SC2086
  one "$flags" "$ptx" $flags
done
for d in ".minnctapersm 1" ".minnctapersm 2" ".maxnreg 64" ".maxnreg 255"; do
  sed "s/^\(\.maxntid.*\)/\1\n$d/" "$ptx" > "$tmp/d.ptx"
  one "$d" "$tmp/d.ptx"
done
rm -rf "$tmp"
