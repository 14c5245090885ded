// RUN: tile-opt %s --canonicalize=max-iterations=2 --cse --mlir-print-ir-after=canonicalize 2>&1 | FileCheck %s
// RUN: tile-opt %s --canonicalize=no-such-option=1 > %t 2>&1 || echo "exit code $?" >> %t
// RUN: FileCheck %s --check-prefix=BAD --input-file=%t

// An upstream pass takes its options after `=`, as mlir-opt's flags do:
// they reach the pass (an option it does not have is refused), and the
// step keeps the pass's name for the printing flags.
// CHECK: // -----// IR Dump After canonicalize //----- //
// CHECK: arith.extsi %arg0
// CHECK-NOT: IR Dump After cse
// CHECK: func.func @twice

// BAD: no-such-option
// BAD: exit code {{[1-9]}}

func.func @twice(%arg0: i32) -> (i64, i64) {
  %c0 = arith.constant 0 : i32
  %a = arith.addi %arg0, %c0 : i32
  %0 = arith.extsi %a : i32 to i64
  %1 = arith.extsi %a : i32 to i64
  return %0, %1 : i64, i64
}
