// RUN: tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s --check-prefix=MMA
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 90/' %s | tile-opt --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s --check-prefix=WGMMA

// A pipelined loop whose product's B operand is loop-invariant: the
// operand is staged in shared memory once, before the loop. Only `wgmma`
// reads shared memory through the async proxy, so only on sm_90 does the
// staging end with a proxy fence; on sm_80 (`mma.sync`, and a chip with
// no such fence) there is none anywhere.
// MMA-LABEL: gpu.func @invariant_b
// MMA-NOT: fence.proxy.async
// MMA: gpu.return
// WGMMA-LABEL: gpu.func @invariant_b
// WGMMA: fence.proxy.async
// WGMMA: wgmma.mma_async

module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @invariant_b(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %c64i = arith.constant 64 : i32
    %c1i = arith.constant 1 : i32
    %pq = "tile.make_block_ptr"(%q, %c64, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %pk = "tile.make_block_ptr"(%k, %c64, %n, %c1, %c64, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %po = "tile.make_block_ptr"(%o, %c64, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %xq = "tile.block_load"(%pq) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
    %r:2 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %ck = %pk) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %xk = "tile.block_load"(%ck) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
      %s = "tile.dot"(%xk, %xq, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %nk = "tile.advance"(%ck, %c0, %c64i) : (!tile.block_ptr<tensor<64x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %nk : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    }
    "tile.block_store"(%po, %r#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
