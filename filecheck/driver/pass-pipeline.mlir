// RUN: tile-opt %s --pass-pipeline='builtin.module(canonicalize,cse)' | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s --check-prefix=NESTED
// RUN: tile-opt %s --pass-pipeline='builtin.module(canonicalize)' --cse --dump-ir-after-each 2>&1 >/dev/null | FileCheck %s --check-prefix=ORDER
// RUN: tile-opt %s --canonicalize=max-iterations=1 | FileCheck %s --check-prefix=OPTIONS
// RUN: tile-opt %s --pass-pipeline='builtin.module(func.func(loop-invariant-code-motion),symbol-dce)' | FileCheck %s --check-prefix=UPSTREAM
// RUN: tile-opt %s --loop-invariant-code-motion | FileCheck %s --check-prefix=UPSTREAM

// --pass-pipeline takes a textual MLIR pipeline; it is one step among the
// --PASS flags, in command-line order. --PASS=OPTIONS passes options on.
// Every upstream pass is there, not only those the compiler runs
// (loop-invariant-code-motion, symbol-dce: nothing to move or drop here,
// and nothing folded).

// UPSTREAM-LABEL: {{^  }}func.func @f
// UPSTREAM: arith.addi

// CHECK-LABEL: {{^  }}func.func @f
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[EXT:.*]] = arith.extsi %arg0 : i32 to i64
// CHECK-NOT: arith.extsi
// CHECK-NOT: arith.addi
// CHECK: "tile.splat"(%[[C8]]) : (i32) -> tensor<8xi32>
// CHECK: return %[[EXT]], %[[EXT]], %{{.*}} : i64, i64, tensor<8xi32>

// canonicalize on each function folds the constants; without cse both extsi stay.
// NESTED-LABEL: {{^  }}func.func @f
// NESTED-NOT: arith.addi
// NESTED: arith.extsi %arg0
// NESTED: arith.extsi %arg0
// NESTED: "tile.splat"

// ORDER: // -----// IR Dump After input //----- //
// ORDER: // -----// IR Dump After pass-pipeline //----- //
// ORDER: // -----// IR Dump After cse //----- //

// OPTIONS-LABEL: {{^  }}func.func @f
// OPTIONS: arith.constant 8 : i32
// OPTIONS-NOT: arith.addi

func.func @f(%n: i32) -> (i64, i64, tensor<8xi32>) {
  %a = arith.constant 3 : i32
  %b = arith.constant 5 : i32
  %c = arith.addi %a, %b : i32
  %x = arith.extsi %n : i32 to i64
  %y = arith.extsi %n : i32 to i64
  %s = "tile.splat"(%c) : (i32) -> tensor<8xi32>
  return %x, %y, %s : i64, i64, tensor<8xi32>
}
