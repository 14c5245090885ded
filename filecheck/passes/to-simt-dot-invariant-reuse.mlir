// RUN: tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 90/' %s | tile-opt --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s

// Two loops of one block multiply by the same loop-invariant operand:
// the first stages it in shared memory, the second reads that copy. The
// kernel needs the operand's 8 KiB once and the loops' copies of `k`
// (3 stages of 8 KiB): 32 KiB, on sm_80 and sm_90 alike; staging it again
// for the second loop would make it 40 KiB.
// CHECK: llvm.mlir.global internal @__tile_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<32768 x i8>
// CHECK-LABEL: gpu.func @two_loops

module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @two_loops(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
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
    %r2:2 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %r#0, %ck = %r#1) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %xk = "tile.block_load"(%ck) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
      %s = "tile.dot"(%xk, %xq, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %nk = "tile.advance"(%ck, %c0, %c64i) : (!tile.block_ptr<tensor<64x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %nk : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    }
    "tile.block_store"(%po, %r2#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
