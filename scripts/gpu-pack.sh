#!/usr/bin/env bash
# Builds the one program for the GPU machine, tile-tools (the GPU check, the
# benchmark against Triton and PyTorch, the compile-latency benchmark), in
# release mode, strips it and compresses it into .gpu/ (ignored by git),
# ready to be carried there (about 24 MB; at most 64 MiB travel per call),
# with the runtime's cargo test binaries, the only cargo tests that need a
# GPU (.gpu/cargo-tests/, 3 MB; `bash bench/gpu.sh cargo-tests` runs them):
#   bash scripts/gpu-pack.sh                    # .gpu/tile-tools.xz
# On the GPU machine, from the repository root:
#   xz -dc .gpu/tile-tools.xz > /tmp/tile-tools && chmod +x /tmp/tile-tools
#   /tmp/tile-tools gpu-check
#   compute-sanitizer --tool memcheck /tmp/tile-tools gpu-check --quick
#   /tmp/tile-tools bench --out $OUT/bench.md
#   /tmp/tile-tools matmul-bench --out $OUT/matmul-bench.md
# See ../shared/GPU.md, README.md ("On the GPU machine") and bench/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  echo "gpu-pack.sh takes no arguments: tile-tools holds every GPU program" \
    "(tile-tools gpu-check | bench | matmul-bench | compile-bench)" >&2
  exit 2
fi
bash scripts/setup.sh
cargo build --release -p tile-tools --bin tile-tools
target_dir=${CARGO_TARGET_DIR:-target}
mkdir -p .gpu
strip -o .gpu/tile-tools "$target_dir/release/tile-tools"
xz -6 -T2 -f .gpu/tile-tools
# The runtime's test binaries (its unit tests and tests/gpu.rs), by the
# names cargo gives their targets.
rm -rf .gpu/cargo-tests
mkdir -p .gpu/cargo-tests
cargo test --release -p tile-runtime --no-run --message-format=json 2> /dev/null \
  | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["target"]["name"], m["executable"])
' | while read -r name path; do strip -o ".gpu/cargo-tests/$name" "$path"; done
ls .gpu/cargo-tests
# The commit the binary was built from (the GPU machine gets no .git).
{ git rev-parse HEAD; git status --porcelain --untracked-files=no | grep -q . && echo "(with uncommitted changes)"; } > .gpu/commit.txt || true
ls -l .gpu/tile-tools.xz
