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

// -----

// Four f64 a thread are 32 bytes: more than one access moves, whatever
// the thread holds.
// CHECK: error: 'tile.load' op has tile.vector_width = 4, which its layout cannot give: the thread holds 4 contiguous elements, and a vector must move 4 to 16 bytes
func.func @too_many_bytes(%x: !tile.ptr<f64>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f64>) -> tensor<512x!tile.ptr<f64>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<512x!tile.ptr<f64>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512x!tile.ptr<f64>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, tile.vector_width = 4 : i32, volatile = false} : (tensor<512x!tile.ptr<f64>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512xf64, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  return
}

// -----

// A width of 0 moves nothing: refused, not divided by.
// CHECK: error: 'tile.load' op has tile.vector_width = 0, which its layout cannot give
func.func @no_width(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, tile.vector_width = 0 : i32, volatile = false} : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  return
}

// -----

// One byte at a time is no vector and is allowed (a width of 1 is the
// scalar access, whatever its size); the next chunk would fail if it were
// refused.
// CHECK-NOT: error: 'tile.load' op has tile.vector_width = 1
func.func @one_byte(%x: !tile.ptr<i8>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<i8>) -> tensor<128x!tile.ptr<i8>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<i8>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128x!tile.ptr<i8>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, tile.vector_width = 1 : i32, volatile = false} : (tensor<128x!tile.ptr<i8>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128xi8, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, tile.vector_width = 1 : i32} : (tensor<128x!tile.ptr<i8>, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<128xi8, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
  return
}
