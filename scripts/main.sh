#!/usr/bin/env bash
# The main job: builds every example kernel, writes each compilation stage
# and the PTX to a folder (default: out/<kernel>/), and runs the kernels on
# the GPU when one is present. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo run -q -p tile-examples --bin tile-kernels -- "${1:-out}"
