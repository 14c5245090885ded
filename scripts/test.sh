#!/usr/bin/env bash
# Runs every test: formatting, clippy, the docs' links, the cargo tests,
# the FileCheck tests through lit with our tile-opt, two bounded fuzz
# campaigns (tile-tools fuzz: 3000 mutated IR inputs, 2000 builder
# programs on the interpreter), and the library crates packaged and built
# as published. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

# Every binary links LLVM and MLIR, and each distinct build of mlir-sys and
# tblgen is a 400 MB archive: CI's disk is small. So every step builds with
# one profile (test) and one feature resolution (the whole workspace, all
# targets), which lets them share one copy, with the packaged crates'
# verification too; incremental state is not kept.
export CARGO_INCREMENTAL=0
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --profile test --workspace --all-targets -- -D warnings
echo "== cargo doc (broken intra-doc links fail)"
RUSTDOCFLAGS="-D warnings" cargo doc --profile test --no-deps --workspace
echo "== cargo test"
cargo test --workspace
echo "== lit (FileCheck tests)"
# tile-opt and tile-tools, built as `cargo test` built everything else.
cargo build --profile test --workspace --all-targets
TILE_OPT="$target_dir/debug/tile-opt" /usr/lib/llvm-22/bin/lit -v filecheck
echo "== fuzz (a bounded campaign: mutated FileCheck inputs, each compiled in a worker process)"
"$target_dir/debug/tile-tools" fuzz --inputs 3000 --seed 1 --out "$target_dir/fuzz-out"
echo "== fuzz --programs (a bounded campaign: random builder programs, on the interpreter without a GPU)"
"$target_dir/debug/tile-tools" fuzz --programs --inputs 2000 --seed 1 --out "$target_dir/fuzz-programs-out"
echo "== cargo package (the library crates as crates.io would get them, each built from its package)"
# Cargo verifies each crate against its siblings as packaged, unpacked into
# $CARGO_HOME/registry/src/-<hash>/<crate>-<version>, and reuses such a
# directory when it exists: after a change to a sibling at the same
# version it would verify against the stale copy. Remove ours first. The
# verification builds in the workspace's target directory with the
# profiles of .cargo/config.toml, so it reuses every dependency built
# above and compiles only our seven crates.
rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/tile-{dialect,passes,coalesce,codegen,runtime,interpreter}-*
cargo package --allow-dirty -p tile -p tile-dialect -p tile-passes -p tile-coalesce \
  -p tile-codegen -p tile-runtime -p tile-interpreter
