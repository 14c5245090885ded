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

// -----

// An i8 operand read down the rows of shared memory (K along rows: here
// `b`, marked by hand to be copied as it is loaded, N contiguous; the
// pipeliner copies i8 only K-major) is gathered a byte at a time, a
// whole 32-byte step at once: with K = 16 it is refused.
// CHECK: error: 'tile.dot' op multiplies i8 with K = 16 read down rows of shared memory; mma.sync needs K a multiple of 32 there
module attributes {tile.compute_capability = 80 : i32, tile.num_stages = 2 : i32, tile.num_warps = 4 : i32} {
  func.func @i8_k16(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64, %steps: i32) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %ck_i32 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0> : tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x16xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x32xi8>>
    %r:3 = scf.for %i = %c0_i32 to %steps step %c1_i32 iter_args(%acc = %acc0, %qa = %pa, %qb = %pb) -> (tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x16xi8>>, !tile.block_ptr<tensor<16x32xi8>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x16xi8>>) -> tensor<32x16xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<16x32xi8>>) -> tensor<16x32xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<32x16xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<16x32xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
      %na = "tile.advance"(%qa, %c0_i32, %ck_i32) : (!tile.block_ptr<tensor<32x16xi8>>, i32, i32) -> !tile.block_ptr<tensor<32x16xi8>>
      %nb = "tile.advance"(%qb, %ck_i32, %c0_i32) : (!tile.block_ptr<tensor<16x32xi8>>, i32, i32) -> !tile.block_ptr<tensor<16x32xi8>>
      scf.yield %d, %na, %nb : tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x16xi8>>, !tile.block_ptr<tensor<16x32xi8>>
    } {tile.num_stages = 2 : i64}
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xi32>>
    %o = "tile.convert_layout"(%r#0) : (tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%pc, %o) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", tile.vector_width = 4 : i32} : (!tile.block_ptr<tensor<32x32xi32>>, tensor<32x32xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// tf32x3 splits each f32 operand into a TF32 part and its remainder in
// registers: an operand copied into shared memory as it is (marked by
// hand; the pipeliner copies f32 only for plain TF32) cannot be split.
// CHECK: error: 'tile.dot' op splits its f32 operands into TF32 parts (tf32x3) in registers, but one was copied into shared memory as it is (tile.async_copy)
module attributes {tile.compute_capability = 80 : i32, tile.num_stages = 2 : i32, tile.num_warps = 4 : i32} {
  func.func @f32_k32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64, %steps: i32) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %ck_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.0> : tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %r:3 = scf.for %i = %c0_i32 to %steps step %c1_i32 iter_args(%acc = %acc0, %qa = %pa, %qb = %pb) -> (tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x32xf32>>, !tile.block_ptr<tensor<32x32xf32>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "tf32x3"} : (tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
      %na = "tile.advance"(%qa, %c0_i32, %ck_i32) : (!tile.block_ptr<tensor<32x32xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
      %nb = "tile.advance"(%qb, %ck_i32, %c0_i32) : (!tile.block_ptr<tensor<32x32xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x32xf32>>, !tile.block_ptr<tensor<32x32xf32>>
    } {tile.num_stages = 2 : i64}
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %o = "tile.convert_layout"(%r#0) : (tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%pc, %o) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", tile.vector_width = 4 : i32} : (!tile.block_ptr<tensor<32x32xf32>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// Only an f32 product in full precision is computed on the CUDA cores
// (FMA) from a blocked layout; a 16-bit one needs a tensor-core layout.
// CHECK: error: 'tile.dot' op has its result in layout #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>; a f16 product needs a tensor-core layout (#tile.mma)
module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @f16_blocked(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
    %pc = "tile.make_block_ptr"(%c, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf16>>) -> tensor<32x32xf16, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf16>>) -> tensor<32x32xf16, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z = arith.constant dense<0.0> : tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<32x32xf16, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf16, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x32xf32>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}
