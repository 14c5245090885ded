// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.load through a scalar pointer or a tensor of pointers, with an
// optional i1 mask and an optional `other` (only with a mask); the operand
// segments say which are present.

// CHECK-LABEL: {{^  }}func.func @scalar
// CHECK: "tile.load"(%arg0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f32
func.func @scalar(%p: !tile.ptr<f32>) -> f32 {
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<f32>) -> f32
  return %0 : f32
}

// -----

// A scalar load with a scalar mask and a scalar `other`.
// CHECK-LABEL: {{^  }}func.func @scalar_masked
// CHECK: "tile.load"(%arg0, %arg1, %arg2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (!tile.ptr<i32>, i1, i32) -> i32
func.func @scalar_masked(%p: !tile.ptr<i32>, %m: i1, %o: i32) -> i32 {
  %0 = "tile.load"(%p, %m, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (!tile.ptr<i32>, i1, i32) -> i32
  return %0 : i32
}

// -----

// CHECK-LABEL: {{^  }}func.func @tensor
// CHECK: "tile.load"(%arg0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x64x!tile.ptr<bf16>>) -> tensor<16x64xbf16>
func.func @tensor(%p: tensor<16x64x!tile.ptr<bf16>>) -> tensor<16x64xbf16> {
  %0 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x64x!tile.ptr<bf16>>) -> tensor<16x64xbf16>
  return %0 : tensor<16x64xbf16>
}

// -----

// Mask only: masked-off lanes read zero.
// CHECK-LABEL: {{^  }}func.func @masked
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK: "tile.load"(%arg0, %[[MASK]]) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
func.func @masked(%p: tensor<128x!tile.ptr<f32>>, %n: i32) {
  %0 = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %1 = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %2 = arith.cmpi slt, %0, %1 : tensor<128xi32>
  %3 = "tile.load"(%p, %2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  return
}

// -----

// Mask and other: masked-off lanes read -inf.
// CHECK-LABEL: {{^  }}func.func @masked_other
// CHECK: %[[OTHER:.*]] = arith.constant dense<0xFF800000> : tensor<128xf32>
// CHECK: "tile.load"(%arg0, %arg1, %[[OTHER]]) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
func.func @masked_other(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>) {
  %cst = arith.constant dense<0xFF800000> : tensor<128xf32>
  %0 = "tile.load"(%p, %m, %cst) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

// Every cache modifier and eviction policy a load accepts, and volatile.
// CHECK-LABEL: {{^  }}func.func @hints
// CHECK: "tile.load"(%arg0) {cache_modifier = "ca", eviction_policy = "evict_first", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false}
// CHECK: "tile.load"(%arg0) {cache_modifier = "cg", eviction_policy = "evict_last", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false}
// CHECK: "tile.load"(%arg0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = true}
func.func @hints(%p: tensor<64x!tile.ptr<f16>>) {
  %0 = "tile.load"(%p) {cache_modifier = "ca", eviction_policy = "evict_first", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f16>>) -> tensor<64xf16>
  %1 = "tile.load"(%p) {cache_modifier = "cg", eviction_policy = "evict_last", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f16>>) -> tensor<64xf16>
  %2 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = true} : (tensor<64x!tile.ptr<f16>>) -> tensor<64xf16>
  return
}
