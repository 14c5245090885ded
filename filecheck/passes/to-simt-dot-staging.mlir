// RUN: tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s

// Operands staged from registers for a product lie one after the other,
// each starting on a 1024-byte boundary (the swizzle's period): here `a`
// (64x32 f16, 4 KiB) and `b` (32x64 f16, 4 KiB) take 8 KiB exactly, and
// with the product summed along its rows (no 64x64 conversion after it)
// they are the kernel's whole shared memory, on sm_90 (wgmma) and sm_80
// (mma.sync) alike. Rounding a boundary up one period too far would make
// it 10 KiB.
// CHECK: llvm.mlir.global internal @__tile_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i8>
// CHECK-LABEL: gpu.func @row_sums
// CHECK: gpu.barrier

module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @row_sums(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %c1, %c0) {order = array<i32: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = "tile.reduce"(%d) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<64x64xf32>) -> tensor<64xf32>
    "tile.block_store"(%pc, %r) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64xf32>>, tensor<64xf32>) -> ()
    return
  }
}


