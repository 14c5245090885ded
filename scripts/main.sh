#!/usr/bin/env bash
# The main job: builds every example kernel and writes each compilation
# stage and the PTX to a folder (default: out/<kernel>/). Running the kernels
# on a GPU against CPU references is `tile-tools gpu-check` (see README.md,
# "On the GPU machine"). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo run -q -p tile-examples --bin tile-kernels -- "${1:-out}"
