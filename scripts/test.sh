#!/usr/bin/env bash
# Runs every test: formatting, clippy, the cargo tests, and the FileCheck
# tests through lit with our tile-opt. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace
echo "== lit (FileCheck tests)"
cargo build -p tile-passes --bin tile-opt
TILE_OPT="$PWD/target/debug/tile-opt" /usr/lib/llvm-22/bin/lit -v filecheck
