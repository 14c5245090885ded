// RUN: tile-opt %s --split-input-file --tile-predicate | FileCheck %s

// tile-predicate gives a masked load without `other` an explicit zero,
// drops masks known to be all true, removes accesses whose mask is all
// false, and leaves run-time masks and unmasked accesses alone.

// CHECK-LABEL: func.func @no_other
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK: "tile.load"(%{{.*}}, %{{.*}}, %[[Z]]) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 1>{{.*}}}
func.func @no_other(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>) -> tensor<128xf32> attributes {tile.kernel} {
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  return %v : tensor<128xf32>
}

// -----

// Integer loads get an integer zero; booleans get false.

// CHECK-LABEL: func.func @int_zero
// CHECK: arith.constant dense<0> : tensor<64xi32>
// CHECK: arith.constant dense<false> : tensor<64xi1>
func.func @int_zero(%p: tensor<64x!tile.ptr<i32>>, %q: tensor<64x!tile.ptr<i1>>, %m: tensor<64xi1>) attributes {tile.kernel} {
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<64x!tile.ptr<i32>>, tensor<64xi1>) -> tensor<64xi32>
  %w = "tile.load"(%q, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<64x!tile.ptr<i1>>, tensor<64xi1>) -> tensor<64xi1>
  return
}

// -----

// A run-time mask with an `other` and an unmasked access: unchanged.

// CHECK-LABEL: func.func @left_alone
// CHECK: "tile.load"(%arg0, %arg1, %arg2) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 1>
// CHECK: "tile.load"(%arg0) {{{.*}}operandSegmentSizes = array<i32: 1, 0, 0>
// CHECK: "tile.store"(%arg0, %{{.*}}, %arg1) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 1>}
// CHECK-NOT: arith.constant
func.func @left_alone(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>) attributes {tile.kernel} {
  %v = "tile.load"(%p, %m, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %w = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}

// -----

// Masks that are splats of constants: all true drops the mask (and the
// load's other); all false removes the store and turns the load into its
// other.

// CHECK-LABEL: func.func @constant_masks
// CHECK: %[[O:.*]] = arith.constant dense<2.000000e+00>
// CHECK: %[[V:.*]] = "tile.load"(%arg0) {{{.*}}operandSegmentSizes = array<i32: 1, 0, 0>
// CHECK: "tile.store"(%arg0, %[[V]]) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK-NEXT: "tile.store"(%arg0, %[[O]]) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK-NOT: "tile.store"
// CHECK: return
func.func @constant_masks(%p: tensor<128x!tile.ptr<f32>>) attributes {tile.kernel} {
  %t = arith.constant true
  %f = arith.constant false
  %all = "tile.splat"(%t) : (i1) -> tensor<128xi1>
  %none = arith.constant dense<false> : tensor<128xi1>
  %o = arith.constant dense<2.0> : tensor<128xf32>
  %v = "tile.load"(%p, %all, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %w = "tile.load"(%p, %none, %o) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  "tile.store"(%p, %v, %all) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  "tile.store"(%p, %w, %all) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  "tile.store"(%p, %v, %none) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}

// -----

// A known mask keeps being known through expand_dims and broadcast: a 2-D
// mask made from a splat of true is dropped.
// CHECK-LABEL: func.func @expanded_mask
// CHECK: "tile.store"(%arg0, %{{.*}}) {{{.*}}operandSegmentSizes = array<i32: 1, 1, 0>}
// CHECK: return
func.func @expanded_mask(%p: tensor<4x32x!tile.ptr<f32>>, %v: tensor<4x32xf32>) attributes {tile.kernel} {
  %t = arith.constant true
  %row = "tile.splat"(%t) : (i1) -> tensor<32xi1>
  %row0 = "tile.expand_dims"(%row) {axis = 0 : i32} : (tensor<32xi1>) -> tensor<1x32xi1>
  %all = "tile.broadcast"(%row0) : (tensor<1x32xi1>) -> tensor<4x32xi1>
  "tile.store"(%p, %v, %all) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xf32>, tensor<4x32xi1>) -> ()
  return
}
