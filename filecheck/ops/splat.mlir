// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.splat: a scalar number or pointer to a tensor of any power-of-two
// shape.

// CHECK-LABEL: {{^  }}func.func @numbers
// CHECK: "tile.splat"(%arg0) : (i32) -> tensor<1024xi32>
// CHECK: "tile.splat"(%arg1) : (f32) -> tensor<16x64xf32>
// CHECK: "tile.splat"(%arg2) : (i1) -> tensor<2x4x8xi1>
func.func @numbers(%n: i32, %x: f32, %b: i1) {
  %0 = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %1 = "tile.splat"(%x) : (f32) -> tensor<16x64xf32>
  %2 = "tile.splat"(%b) : (i1) -> tensor<2x4x8xi1>
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @pointers
// CHECK: "tile.splat"(%arg0) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
// CHECK: "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<16x32x!tile.ptr<i64>>
func.func @pointers(%p: !tile.ptr<f16>, %q: !tile.ptr<i64>) {
  %0 = "tile.splat"(%p) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %1 = "tile.splat"(%q) : (!tile.ptr<i64>) -> tensor<16x32x!tile.ptr<i64>>
  return
}
