// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// Upstream arith ops on tile tensors, as the builder emits them for the
// binary operators (float and integer forms).

// CHECK-LABEL: {{^  }}func.func @float_binary
// CHECK: arith.addf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.subf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.mulf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.divf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.remf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.maximumf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.minimumf %arg0, %arg1 : tensor<16x64xf32>
// CHECK: arith.negf %arg0 : tensor<16x64xf32>
func.func @float_binary(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) {
  %0 = arith.addf %a, %b : tensor<16x64xf32>
  %1 = arith.subf %a, %b : tensor<16x64xf32>
  %2 = arith.mulf %a, %b : tensor<16x64xf32>
  %3 = arith.divf %a, %b : tensor<16x64xf32>
  %4 = arith.remf %a, %b : tensor<16x64xf32>
  %5 = arith.maximumf %a, %b : tensor<16x64xf32>
  %6 = arith.minimumf %a, %b : tensor<16x64xf32>
  %7 = arith.negf %a : tensor<16x64xf32>
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @integer_binary
// CHECK: arith.addi %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.subi %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.muli %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.divsi %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.remsi %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.andi %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.ori %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.xori %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.maxsi %arg0, %arg1 : tensor<128xi32>
// CHECK: arith.minsi %arg0, %arg1 : tensor<128xi32>
func.func @integer_binary(%a: tensor<128xi32>, %b: tensor<128xi32>) {
  %0 = arith.addi %a, %b : tensor<128xi32>
  %1 = arith.subi %a, %b : tensor<128xi32>
  %2 = arith.muli %a, %b : tensor<128xi32>
  %3 = arith.divsi %a, %b : tensor<128xi32>
  %4 = arith.remsi %a, %b : tensor<128xi32>
  %5 = arith.andi %a, %b : tensor<128xi32>
  %6 = arith.ori %a, %b : tensor<128xi32>
  %7 = arith.xori %a, %b : tensor<128xi32>
  %8 = arith.maxsi %a, %b : tensor<128xi32>
  %9 = arith.minsi %a, %b : tensor<128xi32>
  return
}

// -----

// Comparisons give i1 tensors (masks); select picks per lane; masks combine
// with andi after a broadcast, as in a 2-d masked tile.
// CHECK-LABEL: {{^  }}func.func @compare_select
// CHECK: %[[LT:.*]] = arith.cmpi slt, %arg0, %arg1 : tensor<16x1xi32>
// CHECK: %[[OLT:.*]] = arith.cmpf olt, %arg2, %arg3 : tensor<16x64xf32>
// CHECK: %[[B:.*]] = "tile.broadcast"(%[[LT]]) : (tensor<16x1xi1>) -> tensor<16x64xi1>
// CHECK: %[[M:.*]] = arith.andi %[[B]], %[[OLT]] : tensor<16x64xi1>
// CHECK: arith.select %[[M]], %arg2, %arg3 : tensor<16x64xi1>, tensor<16x64xf32>
func.func @compare_select(%i: tensor<16x1xi32>, %n: tensor<16x1xi32>, %x: tensor<16x64xf32>, %y: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = arith.cmpi slt, %i, %n : tensor<16x1xi32>
  %1 = arith.cmpf olt, %x, %y : tensor<16x64xf32>
  %2 = "tile.broadcast"(%0) : (tensor<16x1xi1>) -> tensor<16x64xi1>
  %3 = arith.andi %2, %1 : tensor<16x64xi1>
  %4 = arith.select %3, %x, %y : tensor<16x64xi1>, tensor<16x64xf32>
  return %4 : tensor<16x64xf32>
}
