// RUN: tile-opt %s | tile-opt | FileCheck %s

// math ops on tile tensors (the builder's unary functions), and abs.

// CHECK-LABEL: {{^  }}func.func @unary
// CHECK: math.exp %arg0 : tensor<1024xf32>
// CHECK: math.exp2 %arg0 : tensor<1024xf32>
// CHECK: math.log %arg0 : tensor<1024xf32>
// CHECK: math.log2 %arg0 : tensor<1024xf32>
// CHECK: math.sqrt %arg0 : tensor<1024xf32>
// CHECK: math.rsqrt %arg0 : tensor<1024xf32>
// CHECK: math.sin %arg0 : tensor<1024xf32>
// CHECK: math.cos %arg0 : tensor<1024xf32>
// CHECK: math.tanh %arg0 : tensor<1024xf32>
// CHECK: math.floor %arg0 : tensor<1024xf32>
// CHECK: math.ceil %arg0 : tensor<1024xf32>
// CHECK: math.absf %arg0 : tensor<1024xf32>
// CHECK: math.absi %arg1 : tensor<1024xi32>
func.func @unary(%x: tensor<1024xf32>, %i: tensor<1024xi32>) {
  %0 = math.exp %x : tensor<1024xf32>
  %1 = math.exp2 %x : tensor<1024xf32>
  %2 = math.log %x : tensor<1024xf32>
  %3 = math.log2 %x : tensor<1024xf32>
  %4 = math.sqrt %x : tensor<1024xf32>
  %5 = math.rsqrt %x : tensor<1024xf32>
  %6 = math.sin %x : tensor<1024xf32>
  %7 = math.cos %x : tensor<1024xf32>
  %8 = math.tanh %x : tensor<1024xf32>
  %9 = math.floor %x : tensor<1024xf32>
  %10 = math.ceil %x : tensor<1024xf32>
  %11 = math.absf %x : tensor<1024xf32>
  %12 = math.absi %i : tensor<1024xi32>
  return
}

// The softmax core: max-reduce, subtract the splatted max, exp, sum, divide.
// CHECK-LABEL: {{^  }}func.func @softmax_row
// CHECK: %[[MAX:.*]] = "tile.reduce"(%arg0) {axis = 0 : i32, keep_dims = false, kind = "max"} : (tensor<1024xf32>) -> f32
// CHECK: %[[MAXS:.*]] = "tile.splat"(%[[MAX]]) : (f32) -> tensor<1024xf32>
// CHECK: %[[SH:.*]] = arith.subf %arg0, %[[MAXS]] : tensor<1024xf32>
// CHECK: %[[E:.*]] = math.exp %[[SH]] : tensor<1024xf32>
// CHECK: %[[SUM:.*]] = "tile.reduce"(%[[E]]) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<1024xf32>) -> f32
// CHECK: %[[SUMS:.*]] = "tile.splat"(%[[SUM]]) : (f32) -> tensor<1024xf32>
// CHECK: arith.divf %[[E]], %[[SUMS]] : tensor<1024xf32>
func.func @softmax_row(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = "tile.reduce"(%x) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<1024xf32>) -> f32
  %1 = "tile.splat"(%0) : (f32) -> tensor<1024xf32>
  %2 = arith.subf %x, %1 : tensor<1024xf32>
  %3 = math.exp %2 : tensor<1024xf32>
  %4 = "tile.reduce"(%3) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<1024xf32>) -> f32
  %5 = "tile.splat"(%4) : (f32) -> tensor<1024xf32>
  %6 = arith.divf %3, %5 : tensor<1024xf32>
  return %6 : tensor<1024xf32>
}
