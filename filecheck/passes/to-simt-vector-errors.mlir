// RUN: not tile-opt %s --split-input-file --tile-to-simt 2>&1 | FileCheck %s

// A tile.vector_width the layout cannot give (the thread holds fewer
// contiguous elements, or the vector would move more than 16 bytes) is an
// error at the op, not a wrong access.

// CHECK: error: 'tile.load' op has tile.vector_width = 8, which its layout cannot give: the thread holds 4 contiguous elements
func.func @too_wide(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, tile.vector_width = 8 : i32, volatile = false} : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  return
}

// -----

// The same check holds for a vector atomic add (sm_90, PTX 8.1): a thread
// holding one element cannot add four at once.
// CHECK: error: 'tile.atomic_rmw' op has tile.vector_width = 4, which its layout cannot give: the thread holds 1 contiguous elements
module attributes {tile.compute_capability = 90 : i32, tile.ptx_version = 81 : i32} {
func.func @atomic_too_wide(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = arith.constant dense<1.0> : tensor<128xf32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %old = "tile.atomic_rmw"(%p, %v) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>, tile.vector_width = 4 : i32} : (tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<128xf32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128xf32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  return
}
}
