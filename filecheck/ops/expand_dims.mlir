// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.expand_dims: insert an axis of size 1 at 0..=rank.

// CHECK-LABEL: {{^  }}func.func @vector
// CHECK: "tile.expand_dims"(%arg0) {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1x64xf32>
// CHECK: "tile.expand_dims"(%arg0) {axis = 1 : i32} : (tensor<64xf32>) -> tensor<64x1xf32>
func.func @vector(%x: tensor<64xf32>) {
  %0 = "tile.expand_dims"(%x) {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1x64xf32>
  %1 = "tile.expand_dims"(%x) {axis = 1 : i32} : (tensor<64xf32>) -> tensor<64x1xf32>
  return
}

// -----

// The middle axis of a matrix, then the usual expand + broadcast pair.
// CHECK-LABEL: {{^  }}func.func @matrix
// CHECK: "tile.expand_dims"(%arg0) {axis = 1 : i32} : (tensor<16x64xi32>) -> tensor<16x1x64xi32>
// CHECK: %[[E:.*]] = "tile.expand_dims"(%arg1) {axis = 0 : i32} : (tensor<32x!tile.ptr<f32>>) -> tensor<1x32x!tile.ptr<f32>>
// CHECK: "tile.broadcast"(%[[E]]) : (tensor<1x32x!tile.ptr<f32>>) -> tensor<8x32x!tile.ptr<f32>>
func.func @matrix(%m: tensor<16x64xi32>, %p: tensor<32x!tile.ptr<f32>>) {
  %0 = "tile.expand_dims"(%m) {axis = 1 : i32} : (tensor<16x64xi32>) -> tensor<16x1x64xi32>
  %1 = "tile.expand_dims"(%p) {axis = 0 : i32} : (tensor<32x!tile.ptr<f32>>) -> tensor<1x32x!tile.ptr<f32>>
  %2 = "tile.broadcast"(%1) : (tensor<1x32x!tile.ptr<f32>>) -> tensor<8x32x!tile.ptr<f32>>
  return
}
