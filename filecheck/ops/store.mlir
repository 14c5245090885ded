// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.store through a scalar pointer or a tensor of pointers, with an
// optional i1 mask; no results.

// CHECK-LABEL: {{^  }}func.func @scalar
// CHECK: "tile.store"(%arg0, %arg1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i64>, i64) -> ()
func.func @scalar(%p: !tile.ptr<i64>, %v: i64) {
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i64>, i64) -> ()
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @tensor
// CHECK: "tile.store"(%arg0, %arg1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xf32>) -> ()
func.func @tensor(%p: tensor<16x64x!tile.ptr<f32>>, %v: tensor<16x64xf32>) {
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: {{^  }}func.func @masked
// CHECK: "tile.store"(%arg0, %arg1, %arg2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f16>>, tensor<1024xf16>, tensor<1024xi1>) -> ()
func.func @masked(%p: tensor<1024x!tile.ptr<f16>>, %v: tensor<1024xf16>, %m: tensor<1024xi1>) {
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f16>>, tensor<1024xf16>, tensor<1024xi1>) -> ()
  return
}

// -----

// Every cache modifier and eviction policy a store accepts.
// CHECK-LABEL: {{^  }}func.func @hints
// CHECK: "tile.store"(%arg0, %arg1) {cache_modifier = "wb", eviction_policy = "evict_first", operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK: "tile.store"(%arg0, %arg1) {cache_modifier = "cg", eviction_policy = "evict_last", operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK: "tile.store"(%arg0, %arg1) {cache_modifier = "cs", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK: "tile.store"(%arg0, %arg1) {cache_modifier = "wt", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>}
func.func @hints(%p: tensor<64x!tile.ptr<i8>>, %v: tensor<64xi8>) {
  "tile.store"(%p, %v) {cache_modifier = "wb", eviction_policy = "evict_first", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<i8>>, tensor<64xi8>) -> ()
  "tile.store"(%p, %v) {cache_modifier = "cg", eviction_policy = "evict_last", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<i8>>, tensor<64xi8>) -> ()
  "tile.store"(%p, %v) {cache_modifier = "cs", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<i8>>, tensor<64xi8>) -> ()
  "tile.store"(%p, %v) {cache_modifier = "wt", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<i8>>, tensor<64xi8>) -> ()
  return
}
