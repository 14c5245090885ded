#!/bin/bash
xz -dc .gpu/tile-tools.xz > /tmp/tt && chmod +x /tmp/tt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
timeout 240 /tmp/tt gpu-check attention > $OUT/gpu-check-attention.log 2>&1; echo "rc $?" >> $OUT/gpu-check-attention.log
timeout 120 compute-sanitizer --tool memcheck --leak-check full /tmp/tt gpu-check attention --quick > $OUT/memcheck-attention.log 2>&1; echo "memcheck rc $?" >> $OUT/memcheck-attention.log
timeout 100 /tmp/tt gpu-check matmul --quick > $OUT/gpu-check-matmul-quick.log 2>&1; echo "rc $?" >> $OUT/gpu-check-matmul-quick.log
grep -E "^FAIL" $OUT/gpu-check-attention.log | cut -c1-400 | head -20; grep -c "^PASS" $OUT/gpu-check-attention.log; tail -2 $OUT/gpu-check-attention.log; tail -3 $OUT/memcheck-attention.log; grep -c "^FAIL" $OUT/gpu-check-matmul-quick.log; tail -2 $OUT/gpu-check-matmul-quick.log
