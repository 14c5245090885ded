// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.broadcast: same rank, axes of size 1 grow.

// CHECK-LABEL: {{^  }}func.func @rows_and_columns
// CHECK: "tile.broadcast"(%arg0) : (tensor<16x1xf32>) -> tensor<16x64xf32>
// CHECK: "tile.broadcast"(%arg1) : (tensor<1x64xf32>) -> tensor<16x64xf32>
func.func @rows_and_columns(%col: tensor<16x1xf32>, %row: tensor<1x64xf32>) {
  %0 = "tile.broadcast"(%col) : (tensor<16x1xf32>) -> tensor<16x64xf32>
  %1 = "tile.broadcast"(%row) : (tensor<1x64xf32>) -> tensor<16x64xf32>
  return
}

// -----

// Pointers broadcast like numbers; an identity broadcast is allowed.
// CHECK-LABEL: {{^  }}func.func @pointers_and_identity
// CHECK: "tile.broadcast"(%arg0) : (tensor<1x1x!tile.ptr<bf16>>) -> tensor<32x8x!tile.ptr<bf16>>
// CHECK: "tile.broadcast"(%arg1) : (tensor<4x8xi32>) -> tensor<4x8xi32>
func.func @pointers_and_identity(%p: tensor<1x1x!tile.ptr<bf16>>, %t: tensor<4x8xi32>) {
  %0 = "tile.broadcast"(%p) : (tensor<1x1x!tile.ptr<bf16>>) -> tensor<32x8x!tile.ptr<bf16>>
  %1 = "tile.broadcast"(%t) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  return
}
