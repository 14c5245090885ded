#!/bin/bash
xz -dc .gpu/tile-tools.xz > /tmp/tt && chmod +x /tmp/tt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
timeout 560 /tmp/tt attention-bench --reps 30 --out $OUT/attention-bench.md > $OUT/attention-bench.log 2>&1; echo "rc $?" >> $OUT/attention-bench.log
grep -E "^  ours" $OUT/attention-bench.log | cut -c1-160; grep -E "RESULT|INFO" $OUT/attention-bench.log | cut -c1-200; tail -8 $OUT/attention-bench.log
