#!/usr/bin/env bash
# The main job: builds every example kernel and writes its IR, stage by
# stage, to a folder (default: out/). Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo run -q -p tile-examples --bin tile-kernels -- "${1:-out}"
