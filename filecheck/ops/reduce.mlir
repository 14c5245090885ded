// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.reduce: sum, max or min along an axis; without keep_dims the axis
// disappears (a 1-d tensor reduces to a scalar), with it the axis becomes 1.
// argmax and argmin give the i32 index of the best element.

// CHECK-LABEL: {{^  }}func.func @drop_axis
// CHECK: "tile.reduce"(%arg0) {axis = 1 : i32, keep_dims = false, kind = "sum"} : (tensor<16x64xf32>) -> tensor<16xf32>
// CHECK: "tile.reduce"(%arg0) {axis = 0 : i32, keep_dims = false, kind = "max"} : (tensor<16x64xf32>) -> tensor<64xf32>
func.func @drop_axis(%x: tensor<16x64xf32>) {
  %0 = "tile.reduce"(%x) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
  %1 = "tile.reduce"(%x) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<64xf32>
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @keep_dims
// CHECK: %[[R:.*]] = "tile.reduce"(%arg0) {axis = 1 : i32, keep_dims = true, kind = "max"} : (tensor<16x64xf32>) -> tensor<16x1xf32>
// CHECK: "tile.broadcast"(%[[R]]) : (tensor<16x1xf32>) -> tensor<16x64xf32>
func.func @keep_dims(%x: tensor<16x64xf32>) {
  %0 = "tile.reduce"(%x) {kind = "max", axis = 1 : i32, keep_dims = true} : (tensor<16x64xf32>) -> tensor<16x1xf32>
  %1 = "tile.broadcast"(%0) : (tensor<16x1xf32>) -> tensor<16x64xf32>
  return
}

// -----

// To a scalar, on integers, and keep_dims on a 1-d tensor.
// CHECK-LABEL: {{^  }}func.func @scalar
// CHECK: "tile.reduce"(%arg0) {axis = 0 : i32, keep_dims = false, kind = "min"} : (tensor<128xi32>) -> i32
// CHECK: "tile.reduce"(%arg0) {axis = 0 : i32, keep_dims = true, kind = "sum"} : (tensor<128xi32>) -> tensor<1xi32>
func.func @scalar(%x: tensor<128xi32>) -> i32 {
  %0 = "tile.reduce"(%x) {kind = "min", axis = 0 : i32, keep_dims = false} : (tensor<128xi32>) -> i32
  %1 = "tile.reduce"(%x) {kind = "sum", axis = 0 : i32, keep_dims = true} : (tensor<128xi32>) -> tensor<1xi32>
  return %0 : i32
}

// -----

// CHECK-LABEL: {{^  }}func.func @arg
// CHECK: "tile.reduce"(%arg0) {axis = 1 : i32, keep_dims = false, kind = "argmax"} : (tensor<16x64xf16>) -> tensor<16xi32>
// CHECK: "tile.reduce"(%arg0) {axis = 0 : i32, keep_dims = true, kind = "argmin"} : (tensor<16x64xf16>) -> tensor<1x64xi32>
func.func @arg(%x: tensor<16x64xf16>) {
  %0 = "tile.reduce"(%x) {kind = "argmax", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf16>) -> tensor<16xi32>
  %1 = "tile.reduce"(%x) {kind = "argmin", axis = 0 : i32, keep_dims = true} : (tensor<16x64xf16>) -> tensor<1x64xi32>
  return
}
