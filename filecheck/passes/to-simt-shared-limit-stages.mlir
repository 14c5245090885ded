// RUN: not tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt 2>&1 | FileCheck %s

// A pipelined loop whose stages do not fit the chip's shared memory is
// refused at the loop, with advice about its stages: eight stages of a
// 128x64 and a 64x128 f16 tile are 256 KiB, over sm_80's 163.
// CHECK: to-simt-shared-limit-stages.mlir:[[@LINE+13]]:10: error: 'scf.for' op the kernel needs 262144 bytes of shared memory, more than the 166912 a block may have on sm_80: this loop keeps 8 stages of its tiles in shared memory; fewer stages or smaller tiles fit
module attributes {tile.num_stages = 8 : i32, tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
func.func @eight_stages(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c1 = arith.constant 1 : i64
  %c128 = arith.constant 128 : i64
  %c4096 = arith.constant 4096 : i64
  %pa = "tile.make_block_ptr"(%a, %c128, %c4096, %c4096, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x64xf16>>
  %pb = "tile.make_block_ptr"(%b, %c4096, %c128, %c128, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x128xf16>>
  %po = "tile.make_block_ptr"(%o, %c128, %c128, %c128, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x128xf32>>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<128x128xf32>, !tile.block_ptr<tensor<128x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>) : i32 {
    %xa = "tile.block_load"(%qa) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128x64xf16>>) -> tensor<128x64xf16>
    %xb = "tile.block_load"(%qb) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x128xf16>>) -> tensor<64x128xf16>
    %s = "tile.dot"(%xa, %xb, %acc) {input_precision = "ieee"} : (tensor<128x64xf16>, tensor<64x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    %na = "tile.advance"(%qa, %c0, %c64i) : (!tile.block_ptr<tensor<128x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<128x64xf16>>
    %nb = "tile.advance"(%qb, %c64i, %c0) : (!tile.block_ptr<tensor<64x128xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x128xf16>>
    scf.yield %s, %na, %nb : tensor<128x128xf32>, !tile.block_ptr<tensor<128x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>
  }
  "tile.block_store"(%po, %r#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128x128xf32>>, tensor<128x128xf32>) -> ()
  return
}
}
