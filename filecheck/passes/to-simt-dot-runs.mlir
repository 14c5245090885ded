// RUN: tile-opt %s --tile-to-simt | FileCheck %s

// A product's operands are written to shared memory (staged) in runs of
// at most 16 bytes, each aligned by its size: the swizzle moves 16-byte
// chunks of a row as wholes, so a longer run would be split by it. Here
// `a` (TF32, sm_80) holds 8 consecutive f32 of K in each thread: two runs
// of four, not one of eight; `b`, whose registers run along N while it is
// staged K-major, goes out one element at a time.
// CHECK-LABEL: gpu.func @wide_runs
// CHECK:         gpu.barrier
// CHECK-COUNT-4: llvm.store volatile {{%.+}}, {{%.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-COUNT-8: llvm.store volatile {{%.+}}, {{%.+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT:    gpu.barrier
// CHECK:         nvvm.mma.sync

module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @wide_runs(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %pc = "tile.make_block_ptr"(%c, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z = arith.constant dense<0.0> : tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "tf32"} : (tensor<32x32xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %o = "tile.convert_layout"(%d) : (tensor<32x32xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%pc, %o) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x32xf32>>, tensor<32x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}
