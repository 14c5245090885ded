// RUN: not tile-opt %s --split-input-file --tile-to-simt 2>&1 | FileCheck %s

// IR whose layouts come from elsewhere (tile-assign-layouts never makes
// these) is checked before wgmma is emitted: a warpgroup holds 64 rows of
// the accumulator and each warp along N whole instructions, so a #tile.mma
// version 3 layout whose rows or columns do not divide into them is an
// error at the product, not a wrong or partial result.

// Columns: 64 is not a whole number of 48-wide instructions.
// CHECK: error: 'tile.dot' op has a 64x64 accumulator that #tile.mma<3 : i32, array<i32: 4, 1>, 48 : i32> does not tile (warpgroups hold 64 rows)
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @f16(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f16>, %arg2: !tile.ptr<f32>, %arg3: i64, %arg4: i64, %arg5: i64) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %0 = "tile.make_block_ptr"(%arg0, %arg3, %arg5, %arg5, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %1 = "tile.make_block_ptr"(%arg1, %arg5, %arg4, %arg4, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %2 = "tile.make_block_ptr"(%arg2, %arg3, %arg4, %arg4, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %3 = "tile.block_load"(%0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %4 = "tile.block_load"(%1) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 48 : i32>>
    %5 = "tile.dot"(%3, %4, %cst) {input_precision = "ieee"} : (tensor<64x32xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x64xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>, tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 48 : i32>>) -> tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 48 : i32>>
    %6 = "tile.convert_layout"(%5) : (tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 48 : i32>>) -> tensor<64x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>
    "tile.block_store"(%2, %6) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// Rows: 32 rows are half of the one warpgroup's 64.
// CHECK: error: 'tile.dot' op has a 32x64 accumulator that #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32> does not tile (warpgroups hold 64 rows)
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @f16(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f16>, %arg2: !tile.ptr<f32>, %arg3: i64, %arg4: i64, %arg5: i64) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %0 = "tile.make_block_ptr"(%arg0, %arg3, %arg5, %arg5, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
    %1 = "tile.make_block_ptr"(%arg1, %arg5, %arg4, %arg4, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %2 = "tile.make_block_ptr"(%arg2, %arg3, %arg4, %arg4, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %3 = "tile.block_load"(%0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf16>>) -> tensor<32x32xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %4 = "tile.block_load"(%1) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>
    %cst = arith.constant dense<0.000000e+00> : tensor<32x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>
    %5 = "tile.dot"(%3, %4, %cst) {input_precision = "ieee"} : (tensor<32x32xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x64xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>, tensor<32x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>) -> tensor<32x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>
    %6 = "tile.convert_layout"(%5) : (tensor<32x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>) -> tensor<32x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>
    "tile.block_store"(%2, %6) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// Warps along N: two warps of 64-wide instructions need 128 columns.
// CHECK: error: 'tile.dot' op has a 64x64 accumulator that #tile.mma<3 : i32, array<i32: 4, 2>, 64 : i32> does not tile (warpgroups hold 64 rows)
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 8 : i32} {
  func.func @f16(%arg0: !tile.ptr<f16>, %arg1: !tile.ptr<f16>, %arg2: !tile.ptr<f32>, %arg3: i64, %arg4: i64, %arg5: i64) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %0 = "tile.make_block_ptr"(%arg0, %arg3, %arg5, %arg5, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %1 = "tile.make_block_ptr"(%arg1, %arg5, %arg4, %arg4, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %2 = "tile.make_block_ptr"(%arg2, %arg3, %arg4, %arg4, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %3 = "tile.block_load"(%0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>
    %4 = "tile.block_load"(%1) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 2>, array<i32: 1, 0>>>
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 2>, 64 : i32>>
    %5 = "tile.dot"(%3, %4, %cst) {input_precision = "ieee"} : (tensor<64x32xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>, tensor<32x64xf16, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 2>, array<i32: 1, 0>>>, tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 2>, 64 : i32>>) -> tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 2>, 64 : i32>>
    %6 = "tile.convert_layout"(%5) : (tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 2>, 64 : i32>>) -> tensor<64x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 2>, array<i32: 1, 0>>>
    "tile.block_store"(%2, %6) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 2>, array<i32: 1, 0>>>) -> ()
    return
  }
}
