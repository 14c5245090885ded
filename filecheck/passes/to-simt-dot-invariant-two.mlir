// RUN: tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 90/' %s | tile-opt --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s

// A loop whose two products each multiply by their own loop-invariant
// operand (`xq`, `xq2`, both `b`, 64x64 f16, their registers along N):
// both are staged once, before the loop (32 two-byte stores a thread
// each), and no invariant operand is written inside the loop.
// CHECK-LABEL: gpu.func @two_invariants
// CHECK:         gpu.barrier
// CHECK-COUNT-64: llvm.store volatile {{%.+}}, {{%.+}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK-NOT:     : f16, !llvm.ptr<3>
// CHECK:         gpu.return

module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @two_invariants(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
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
    %xq2 = "tile.block_load"(%pq) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
    %r:2 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %ck = %pk) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %xk = "tile.block_load"(%ck) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
      %s = "tile.dot"(%xk, %xq, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %s2 = "tile.dot"(%xk, %xq2, %s) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %nk = "tile.advance"(%ck, %c0, %c64i) : (!tile.block_ptr<tensor<64x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s2, %nk : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    }
    "tile.block_store"(%po, %r#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
