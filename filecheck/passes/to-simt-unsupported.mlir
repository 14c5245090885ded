// RUN: not tile-opt %s --split-input-file --tile-to-simt 2>&1 | FileCheck %s

// An op of a dialect tile-to-simt has no lowering for is refused at the
// op, with its name, not lowered as if it were elementwise arithmetic.

// CHECK: error: 'llvm.add' op cannot be lowered to SIMT code yet
func.func @llvm_in_a_kernel(%x: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %y = "llvm.add"(%x, %x) : (i32, i32) -> i32
  return
}

// -----

// A broadcast whose result layout is not its operand's root (hand-written
// IR: tile-assign-layouts inserts a tile.convert_layout there) is refused,
// not moved through shared memory as if it were a conversion.
// CHECK: error: 'tile.broadcast' op has operand and result layouts that do not line up (a tile.convert_layout is missing)
module attributes {tile.num_warps = 4 : i32} {
  func.func @broadcast_across_roots(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c32 = arith.constant 32 : i64
    %px = "tile.make_block_ptr"(%x, %c1, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<1x64xf32>>
    %py = "tile.make_block_ptr"(%y, %c32, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %v = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<1x64xf32>>) -> tensor<1x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.broadcast"(%v) : (tensor<1x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<32x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 32, 1>, array<i32: 1, 4>, array<i32: 0, 1>>>
    "tile.block_store"(%py, %b) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 32, 1>, array<i32: 1, 4>, array<i32: 0, 1>>>) -> ()
    return
  }
}

// -----

// A function without tile.kernel beside a kernel is refused at the
// function (there are no device-side calls), not lowered as one more
// kernel; an op other than a function at the top level is refused too.
// CHECK: error: 'func.func' op is not a tile kernel (no tile.kernel attribute); helper functions are not supported
module attributes {tile.num_warps = 4 : i32} {
  func.func @helper(%x: i32) -> i32 {
    return %x : i32
  }
  func.func @kernel(%x: i32) attributes {tile.kernel} {
    return
  }
}

// -----

// CHECK: error: 'memref.global' op cannot be lowered: only kernels (func.func) may appear at the top level
module attributes {tile.num_warps = 4 : i32} {
  memref.global "private" @table : memref<4xi32> = dense<0>
  func.func @kernel(%x: i32) attributes {tile.kernel} {
    return
  }
}
