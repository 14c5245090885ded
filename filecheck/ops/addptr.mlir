// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.addptr: pointer(s) plus i32/i64 offset(s) of the same shape; the
// result has the pointer operand's type.

// CHECK-LABEL: {{^  }}func.func @scalar
// CHECK: "tile.addptr"(%arg0, %arg1) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
// CHECK: "tile.addptr"(%arg0, %arg2) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
func.func @scalar(%p: !tile.ptr<f32>, %i: i32, %j: i64) {
  %0 = "tile.addptr"(%p, %i) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
  %1 = "tile.addptr"(%p, %j) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
  return
}

// -----

// The vector-add pattern: splat the base, add an arange of offsets.
// CHECK-LABEL: {{^  }}func.func @tensor
// CHECK: %[[OFFS:.*]] = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
// CHECK: %[[BASE:.*]] = "tile.splat"(%arg0) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
// CHECK: "tile.addptr"(%[[BASE]], %[[OFFS]]) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
func.func @tensor(%p: !tile.ptr<f16>) {
  %0 = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %1 = "tile.splat"(%p) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %2 = "tile.addptr"(%1, %0) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @tensor_2d_i64
// CHECK: "tile.addptr"(%arg0, %arg1) : (tensor<16x64x!tile.ptr<i8>>, tensor<16x64xi64>) -> tensor<16x64x!tile.ptr<i8>>
func.func @tensor_2d_i64(%p: tensor<16x64x!tile.ptr<i8>>, %o: tensor<16x64xi64>) {
  %0 = "tile.addptr"(%p, %o) : (tensor<16x64x!tile.ptr<i8>>, tensor<16x64xi64>) -> tensor<16x64x!tile.ptr<i8>>
  return
}
