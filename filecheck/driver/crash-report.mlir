// A crash inside MLIR or LLVM (the fuzzer's upstream parser crashes are
// refused before the parser now, so the signal is sent from outside while
// tile-opt waits to open its input, a FIFO) is reported in one line and a
// stack, and the process still ends with the signal (139 = 128 + SIGSEGV).
// RUN: rm -f %t.fifo && mkfifo %t.fifo
// RUN: sh -c 'tile-opt %t.fifo & pid=$!; sleep 3; kill -SEGV $pid; wait $pid; echo "exit $?"' 2>&1 | FileCheck %s
// RUN: rm -f %t.fifo

// CHECK: tile-opt: crashed inside MLIR or LLVM (SIGSEGV, a segmentation fault): the input reaches a bug of MLIR or LLVM 22, past every check of ours; please report it with the input.
// CHECK-NEXT: Stack:
// CHECK-NEXT: {{.*}}tile-opt
// CHECK: exit 139
