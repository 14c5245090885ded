#!/usr/bin/env bash
# Builds the GPU check program (and the binaries named as arguments) in
# release mode, strips them and compresses them into .gpu/ (ignored by git),
# ready to be carried to the GPU machine:
#   bash scripts/gpu-pack.sh               # .gpu/tile-gpu-check.xz
#   bash scripts/gpu-pack.sh tile-bench    # and .gpu/tile-bench.xz
#   xz -dc .gpu/tile-gpu-check.xz > /tmp/tile-gpu-check && chmod +x /tmp/tile-gpu-check
#   xz -dc .gpu/tile-bench.xz > /tmp/tile-bench && chmod +x /tmp/tile-bench && /tmp/tile-bench --out $OUT/bench.md
# See ../shared/GPU.md and bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bins=(tile-gpu-check "$@")
args=()
for b in "${bins[@]}"; do args+=(--bin "$b"); done
cargo build --release -p tile-examples "${args[@]}"
mkdir -p .gpu
for b in "${bins[@]}"; do
  strip -o ".gpu/$b" "target/release/$b"
  xz -6 -T2 -f ".gpu/$b"
  ls -l ".gpu/$b.xz"
done
