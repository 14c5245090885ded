#!/usr/bin/env bash
# Each configuration a shapes-bench run compiled under a register cap
# (its log's "capped at" lines, crates/runtime/src/launch/occupancy.rs),
# timed again by ours alone with the cap turned off
# (TILE_NO_REGISTER_CAP=1), beside the capped time from the same log:
#
#     bash bench/register_cap.sh shapes.log
#
# on the GPU machine, with .gpu/tile-tools.xz carried (bash
# scripts/gpu-pack.sh builds it). Prints a Markdown table.
set -euo pipefail
log=${1:?usage: register_cap.sh SHAPES_BENCH_LOG}
T=/tmp/tile-tools
[ -x $T ] || { xz -dc .gpu/tile-tools.xz > $T && chmod +x $T; }
echo "| kernel | dtype | MxN | config | capped | ms | uncapped | ms | uncapped/capped |"
echo "|---|---|---|---|---|---|---|---|---|"
grep "capped at" "$log" | while read -r _ kernel dtype size config rest; do
  config=${config%:}
  capped_ms=$(sed -E 's/.*checked, ([0-9.]+) ms.*/\1/' <<< "$rest")
  capped=$(sed -E 's/.*\((.*)\).*/\1/' <<< "$rest")
  line=$(TILE_NO_REGISTER_CAP=1 $T shapes-bench --ours-only --case "$kernel:$dtype:$size" \
           --config "$config" 2>&1 | grep "ours $kernel $dtype $size $config:" || true)
  plain_ms=$(sed -E 's/.*checked, ([0-9.]+) ms.*/\1/' <<< "$line")
  plain=$(sed -E 's/.*\((.*)\).*/\1/' <<< "$line")
  ratio=$(python3 -c "print(f'{float(\"$plain_ms\") / float(\"$capped_ms\"):.3f}')" 2>/dev/null || echo -)
  echo "| $kernel | $dtype | $size | $config | $capped | $capped_ms | $plain | $plain_ms | $ratio |"
done
