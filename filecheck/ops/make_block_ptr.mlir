// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.make_block_ptr: base pointer, then `rank` i64 shape entries, `rank`
// i64 strides and `rank` i32 offsets; `order` is a permutation of the axes
// and the block shape (in the result type) has power-of-two dimensions.

// CHECK-LABEL: {{^  }}func.func @rank2
// CHECK: "tile.make_block_ptr"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
func.func @rank2(%p: !tile.ptr<f32>, %rows: i64, %cols: i64, %s0: i64, %s1: i64, %o0: i32, %o1: i32) {
  %0 = "tile.make_block_ptr"(%p, %rows, %cols, %s0, %s1, %o0, %o1) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

// Rank 1, and a transposed view (order [0, 1]).
// CHECK-LABEL: {{^  }}func.func @rank1_and_transposed
// CHECK: "tile.make_block_ptr"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<bf16>, i64, i64, i32) -> !tile.block_ptr<tensor<256xbf16>>
// CHECK: "tile.make_block_ptr"(%arg0, %arg1, %arg1, %arg2, %arg2, %arg3, %arg3) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 0, 1>} : (!tile.ptr<bf16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xbf16>>
func.func @rank1_and_transposed(%p: !tile.ptr<bf16>, %n: i64, %s: i64, %o: i32) {
  %0 = "tile.make_block_ptr"(%p, %n, %s, %o) {order = array<i32: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!tile.ptr<bf16>, i64, i64, i32) -> !tile.block_ptr<tensor<256xbf16>>
  %1 = "tile.make_block_ptr"(%p, %n, %n, %s, %s, %o, %o) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<bf16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xbf16>>
  return
}

// -----

// Rank 3 with offsets computed from the program id.
// CHECK-LABEL: {{^  }}func.func @rank3
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: "tile.make_block_ptr"(%arg0, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %[[PID]], %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 3, 3, 3>, order = array<i32: 2, 1, 0>} : (!tile.ptr<i32>, i64, i64, i64, i64, i64, i64, i32, i32, i32) -> !tile.block_ptr<tensor<2x4x8xi32>>
func.func @rank3(%p: !tile.ptr<i32>, %n: i64) {
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c0 = arith.constant 0 : i32
  %1 = "tile.make_block_ptr"(%p, %n, %n, %n, %n, %n, %n, %0, %c0, %c0) {order = array<i32: 2, 1, 0>, operandSegmentSizes = array<i32: 1, 3, 3, 3>} : (!tile.ptr<i32>, i64, i64, i64, i64, i64, i64, i32, i32, i32) -> !tile.block_ptr<tensor<2x4x8xi32>>
  return
}
