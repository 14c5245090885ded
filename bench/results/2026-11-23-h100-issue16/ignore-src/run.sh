#!/bin/bash
xz -dc .gpu/tile-tools.xz > /tmp/tt && chmod +x /tmp/tt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
git log -1 --format=%H > $OUT/commit.txt 2>/dev/null
timeout 150 /tmp/tt matmul-bench --out $OUT/matmul-bench.md > $OUT/matmul-bench.log 2>&1; echo "matmul-bench rc $?" >> $OUT/matmul-bench.log
timeout 150 /tmp/tt gpu-check matmul > $OUT/gpu-check-matmul.log 2>&1; echo "gpu-check rc $?" >> $OUT/gpu-check-matmul.log
timeout 100 compute-sanitizer --tool memcheck --leak-check full /tmp/tt gpu-check matmul --quick > $OUT/memcheck-matmul.log 2>&1; echo "memcheck rc $?" >> $OUT/memcheck-matmul.log
grep -E "^FAIL" $OUT/gpu-check-matmul.log | head; tail -3 $OUT/gpu-check-matmul.log; tail -3 $OUT/memcheck-matmul.log; grep -E '^\|' $OUT/matmul-bench.md | tail -10
