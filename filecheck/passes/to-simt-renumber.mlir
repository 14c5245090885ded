// RUN: tile-opt %s --tile-to-simt | FileCheck %s

// A conversion between layouts of different roots that keep every element
// in the thread that holds it (here only the order of each thread's 2 x 4
// registers differs) renumbers registers: no shared memory, no barrier.
// CHECK-LABEL: gpu.func @same_threads
// CHECK-NOT: !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
module attributes {tile.num_warps = 4 : i32} {
  func.func @same_threads(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c256 = arith.constant 256 : i64
    %px = "tile.make_block_ptr"(%x, %c256, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<256x4xf32>>
    %py = "tile.make_block_ptr"(%y, %c256, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<256x4xf32>>
    %v = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<256x4xf32>>) -> tensor<256x4xf32, #tile.blocked<array<i32: 2, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.convert_layout"(%v) : (tensor<256x4xf32, #tile.blocked<array<i32: 2, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<256x4xf32, #tile.blocked<array<i32: 2, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 0, 1>>>
    "tile.block_store"(%py, %c) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<256x4xf32>>, tensor<256x4xf32, #tile.blocked<array<i32: 2, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 0, 1>>>) -> ()
    return
  }
}
