// RUN: not tile-opt %s --split-input-file --tile-to-simt 2>&1 | FileCheck %s

// Marks that come from elsewhere are checked: tile-software-pipeline
// marks a load `tile.async_copy` (unit) only when a product reads its
// tile, which is then a matrix laid out for the product. A vector marked
// so (here a memory-bound loop's, which the pass marks "thread") is an
// error at the load, not a copy into a layout it does not have.
// CHECK: error: 'tile.load' op copies ahead a tile that is not a matrix
module attributes {tile.num_warps = 4 : i32} {
  func.func @vector_sum(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %1 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1024_i32 iter_args(%arg4 = %cst) -> (tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>)  : i32 {
      %5 = "tile.splat"(%arg3) : (i32) -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %6 = arith.addi %5, %0 : tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %7 = "tile.addptr"(%1, %6) : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %8 = "tile.load"(%7) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %9 = arith.addf %arg4, %8 : tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      scf.yield %9 : tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    } {tile.loop_stages = 3 : i32, tile.num_stages = 3 : i64}
    %3 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %4 = "tile.addptr"(%3, %0) : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    "tile.store"(%4, %2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, tile.vector_width = 4 : i32} : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
    return
  }
}

// -----

// A tile.async_copy that is neither unit (a product's copy) nor "thread"
// (each thread's own slots) is no mark the pass makes: an error at the
// load, not a copy into slots of its own.
// CHECK: error: 'tile.load' op has a tile.async_copy that is neither unit nor "thread"
module attributes {tile.num_warps = 4 : i32} {
  func.func @vector_sum(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg2: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %0 = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %1 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1024_i32 iter_args(%arg4 = %cst) -> (tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>)  : i32 {
      %5 = "tile.splat"(%arg3) : (i32) -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %6 = arith.addi %5, %0 : tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %7 = "tile.addptr"(%1, %6) : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %8 = "tile.load"(%7) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, tile.async_copy = "warp", tile.vector_width = 4 : i32, volatile = false} : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      %9 = arith.addf %arg4, %8 : tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
      scf.yield %9 : tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    } {tile.loop_stages = 3 : i32, tile.num_stages = 3 : i64}
    %3 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %4 = "tile.addptr"(%3, %0) : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    "tile.store"(%4, %2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, tile.vector_width = 4 : i32} : (tensor<1024x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
    return
  }
}
