// RUN: tile-opt %s --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s
// RUN: sed 's/tile.compute_capability = 80/tile.compute_capability = 90/' %s | tile-opt --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s

// A loop-invariant product operand is staged in shared memory once,
// before its loop, and stays there while the block holding the loop runs
// (later loops of the block may read it). When that block ends (here the
// `scf.if`'s), its 8 KiB go back to scratch: the 128x128 f32 transpose
// after the `if` reuses them, and the kernel needs 64 KiB and 256 bytes of
// padding (the transpose's), not 8 KiB more (as when the operand's bytes
// stay taken to the end of the kernel).
// CHECK: module attributes {{.*}}tile.dynamic_shared_bytes = 65792 : i64
// CHECK: gpu.func @invariant_b



module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @invariant_b(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32, %cond: i1, %x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %c64i = arith.constant 64 : i32
    %c1i = arith.constant 1 : i32
    %pq = "tile.make_block_ptr"(%q, %c64, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %pk = "tile.make_block_ptr"(%k, %c64, %n, %c1, %c64, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %po = "tile.make_block_ptr"(%o, %c64, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    scf.if %cond {
    %xq = "tile.block_load"(%pq) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
    %r:2 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %ck = %pk) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %xk = "tile.block_load"(%ck) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
      %s = "tile.dot"(%xk, %xq, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %nk = "tile.advance"(%ck, %c0, %c64i) : (!tile.block_ptr<tensor<64x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %nk : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    }
    "tile.block_store"(%po, %r#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    }
    %c128 = arith.constant 128 : i64
    %px = "tile.make_block_ptr"(%x, %c128, %c128, %c128, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x128xf32>>
    %py = "tile.make_block_ptr"(%y, %c128, %c128, %c128, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x128xf32>>
    %v = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128x128xf32>>) -> tensor<128x128xf32>
    %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<128x128xf32>) -> tensor<128x128xf32>
    "tile.block_store"(%py, %t) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128x128xf32>>, tensor<128x128xf32>) -> ()
    return
  }
}
