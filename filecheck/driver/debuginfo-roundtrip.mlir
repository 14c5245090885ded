// RUN: tile-opt %s --mlir-print-debuginfo -o %t.1 && tile-opt %t.1 --mlir-print-debuginfo -o %t.2 && diff %t.1 %t.2
// RUN: tile-opt %s --mlir-print-debuginfo | tile-opt --mlir-print-debuginfo | FileCheck %s --implicit-check-not="<stdin>"
// RUN: tile-opt %s --split-input-file --mlir-print-debuginfo -o %t.s1 && tile-opt %t.s1 --split-input-file --mlir-print-debuginfo -o %t.s2 && diff %t.s1 %t.s2
// RUN: tile-opt %s | tile-opt | FileCheck %s --check-prefix=PLAIN

// Printing with debug info and parsing the result again is a fixed point:
// the second run reads the locations the first one wrote, so they still
// name this file (not the intermediate file or <stdin>) and the same lines.

// CHECK-DAG: "tile.load"(%{{.*}}) {{.*}} loc(#[[LOAD:loc[0-9]*]])
// CHECK-DAG: #[[LOAD]] = loc("{{.*}}debuginfo-roundtrip.mlir":[[@LINE+11]]:8)
// CHECK-DAG: "tile.reduce"(%{{.*}}) {{.*}} loc(#[[RED:loc[0-9]*]])
// CHECK-DAG: #[[RED]] = loc("{{.*}}debuginfo-roundtrip.mlir":[[@LINE+11]]:8)
// CHECK-DAG: #[[BLOCK:loc[0-9]*]] = loc("{{.*}}debuginfo-roundtrip.mlir":[[@LINE+6]]:1)
// CHECK-DAG: } loc(#[[BLOCK]])

// PLAIN-NOT: loc(
// PLAIN: "tile.reduce"

func.func @row_max(%p: tensor<16x64x!tile.ptr<f16>>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %x = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x64x!tile.ptr<f16>>) -> tensor<16x64xf16>
  %y = arith.extf %x : tensor<16x64xf16> to tensor<16x64xf32>
  %m = "tile.reduce"(%y) {kind = "max", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
  return %m : tensor<16xf32>
}

// -----

func.func @second_part(%b: !tile.block_ptr<tensor<8xi64>>) -> tensor<8xi64> {
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = -1 : i64, volatile = false} : (!tile.block_ptr<tensor<8xi64>>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}
