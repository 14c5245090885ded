// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline | FileCheck %s --check-prefix=MARK
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s --check-prefix=SIMT
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm90a | FileCheck %s --check-prefix=WGMMA
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm80 | FileCheck %s --check-prefix=MMA

// tile-software-pipeline and the loop tile-to-simt makes of its choice.
// A K loop whose block loads feed tile.dot through carried, advanced
// block pointers (16-byte accesses, zero padding) is marked with the
// module's tile.num_stages and its loads tile.async_copy; then the first
// S - 1 = 2 tiles are copied before the loop (cp.async, one commit group
// each), and each iteration waits until at most one group is in flight
// (its tile has landed), synchronizes (no proxy fence: the copies reach
// wgmma's async proxy through the wait and the barrier), multiplies,
// leaves its wgmma group running while the previous one retires
// (wait_group 1), synchronizes again and copies the tile two iterations
// ahead into the buffer the previous iteration read.
// After the loop every product and copy is waited for. On sm_80 the loop
// is the same around mma.sync, without wgmma's fences and waits.

// MARK-LABEL: func.func @pipelined
// MARK: scf.for
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: "tile.dot"
// MARK: } {tile.num_stages = 3 : i64}

// The rings' layouts, in the per-thread code: A (64x32 f16, K along its
// 64-byte rows) in the 64-byte swizzle, whose wgmma descriptor has mode 2
// in bits 62-63, 512 bytes (32 x 16) from one group of 8 rows to the next
// and a leading offset of 1; B (32x64 f16 copied as it lies: 32 rows of K,
// N along 128-byte rows, read MN-major) in the 128-byte swizzle, mode 1,
// 1024 bytes between groups of 8 rows, 4096 between column blocks. Each
// copy's destination is its linear offset with the 16-byte chunk XORed by
// the row within the swizzle's span: (x >> 7) & 3, or & 7, shifted by 4.
// Each thread copies two runs of each tile.
// SIMT-LABEL: gpu.func @pipelined
// SIMT-DAG: arith.constant -9223371899415756800 : i64
// SIMT-DAG: arith.constant 4611686293322072064 : i64
// SIMT: %[[AHI:.*]] = arith.shrui %[[A:.*]], %c7_i32 : i32
// SIMT-NEXT: %[[ACH:.*]] = arith.andi %[[AHI]], %c3_i32 : i32
// SIMT-NEXT: %[[ASH:.*]] = arith.shli %[[ACH]], %c4_i32 : i32
// SIMT-NEXT: %[[AX:.*]] = arith.xori %[[A]], %[[ASH]] : i32
// SIMT-NEXT: %[[AOFF:.*]] = arith.addi %[[AX]], %c0_i32 : i32
// The second run lies 16 rows (2048 bytes, a multiple of the swizzle's
// 8-row span) further in every thread: its address is the first's plus
// 32 rows' stride, its place the first's plus 2048 bytes, both without a
// second swizzle.
// SIMT-NEXT: %[[ASTEP:.*]] = arith.muli %c32_i64, %arg5 : i64
// SIMT-NEXT: llvm.getelementptr %{{.*}}[%[[ASTEP]]]
// SIMT-NEXT: arith.addi %{{.*}}, %c32_i32 : i32
// SIMT-NEXT: arith.addi %[[AOFF]], %c2048_i32 : i32
// SIMT: %[[BHI:.*]] = arith.shrui %[[B:.*]], %c7_i32 : i32
// SIMT-NEXT: %[[BCH:.*]] = arith.andi %[[BHI]], %c7_i32 : i32
// SIMT-NEXT: %[[BSH:.*]] = arith.shli %[[BCH]], %c4_i32 : i32
// SIMT-NEXT: %[[BX:.*]] = arith.xori %[[B]], %[[BSH]] : i32
// SIMT-NEXT: %[[BOFF:.*]] = arith.addi %[[BX]], %c0_i32 : i32
// SIMT-NEXT: %[[BSTEP:.*]] = arith.muli %c16_i64, %arg4 : i64
// SIMT-NEXT: llvm.getelementptr %{{.*}}[%[[BSTEP]]]
// SIMT-NEXT: arith.addi %{{.*}}, %c16_i32 : i32
// SIMT-NEXT: arith.addi %[[BOFF]], %c2048_i32 : i32

// WGMMA-LABEL: .entry pipelined(
// The ring's bytes may still be read by whatever used them before (a
// persistent kernel's previous epilogue): a barrier before the first copy.
// WGMMA-NOT: cp.async
// WGMMA: bar.sync
// WGMMA-NOT: bar.sync
// WGMMA: cp.async.cg.shared.global [ %r{{[0-9]+}} ], [ %rd{{[0-9]+}} ], 16, %p{{[0-9]+}};
// WGMMA: cp.async.commit_group;
// WGMMA: cp.async.cg.shared.global
// WGMMA: cp.async.commit_group;
// WGMMA-NOT: wgmma
// WGMMA: [[LOOP:\$L__BB[0-9_]+]]:
// WGMMA: cp.async.wait_group 1;
// WGMMA-NOT: fence.proxy
// WGMMA: bar.sync
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// WGMMA-NOT: wgmma.mma_async
// WGMMA: wgmma.commit_group.sync.aligned;
// The previous iteration's group may still run: it retires here.
// WGMMA: wgmma.wait_group.sync.aligned 1;
// WGMMA: bar.sync
// WGMMA: cp.async.cg.shared.global
// WGMMA: cp.async.commit_group;
// WGMMA: bra{{.*}}[[LOOP]];
// WGMMA: wgmma.wait_group.sync.aligned 0;
// WGMMA: cp.async.wait_group 0;
// WGMMA: bar.sync

// MMA-LABEL: .entry pipelined(
// MMA-NOT: cp.async
// MMA: bar.sync
// MMA: cp.async.commit_group;
// MMA: cp.async.commit_group;
// MMA: [[LOOP:\$L__BB[0-9_]+]]:
// MMA-NOT: fence.proxy
// MMA: cp.async.wait_group 1;
// MMA-NOT: fence.proxy
// MMA: bar.sync
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA: bar.sync
// MMA: cp.async.cg.shared.global
// MMA: cp.async.commit_group;
// MMA: bra{{.*}}[[LOOP]];
// MMA: cp.async.wait_group 0;
// MMA-NOT: wgmma
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @pipelined(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: a tile that is also stored (the dot is not its only use)
// is loaded into registers as before; the other is still copied ahead.
// MARK-LABEL: func.func @also_stored
// WGMMA-LABEL: .entry also_stored(
// MARK: "tile.block_load"(%arg9) {{{.*}} padding = "zero", tile.vector_width = 8 : i32
// MARK: "tile.block_load"(%arg10) {{{.*}} padding = "zero", tile.async_copy,
// MARK: } {tile.num_stages = 3 : i64}
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @also_stored(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      "tile.block_store"(%qa, %x) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x32xf16>>, tensor<64x32xf16>) -> ()
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// A tile padded with NaN is not copied ahead (cp.async fills zeros): it is
// loaded one iteration ahead into registers instead.
// MARK-LABEL: func.func @nan_padding
// MARK: "tile.block_load"(%arg9) {{{.*}} padding = "nan", tile.prefetch, tile.vector_width = 8 : i32
// MARK: "tile.block_load"(%arg10) {{{.*}} padding = "zero", tile.async_copy,
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @nan_padding(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// f32 operands multiplied as tf32 go to the tensor cores as they are
// stored (they read an f32 operand with the low 13 bits dropped, which is
// tf32's definition): A, K contiguous, is copied ahead like a 16-bit tile;
// B, N contiguous, cannot be (wgmma reads TF32 K-major only) and is loaded
// one iteration ahead into registers, then staged K-major: its layout
// gives each thread 4 rows of K (one 16-byte chunk of a K-major row) by 2
// columns, loaded 8 bytes at a time. Nothing is rounded on the way.
// MARK-LABEL: func.func @tf32
// MARK: "tile.block_load"(%arg9) {{{.*}} padding = "zero", tile.async_copy, tile.vector_width = 4 : i32
// MARK: "tile.block_load"(%arg10) {{{.*}} padding = "zero", tile.prefetch, tile.vector_width = 2 : i32, {{.*}} -> tensor<32x64xf32, #tile.blocked<array<i32: 4, 2>, array<i32: 1, 32>
// MARK: } {tile.num_stages = 3 : i64}
// WGMMA-LABEL: .entry tf32(
// WGMMA-NOT: cvt.rna
// WGMMA: cp.async.cg.shared.global
// WGMMA-NOT: cvt.rna
// WGMMA: st.volatile.shared.v4.b32
// WGMMA-NOT: cvt.rna
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// WGMMA-NOT: cvt.rna
// WGMMA: .entry tf32x3(
// MMA-LABEL: .entry tf32(
// MMA-NOT: cvt.rna
// MMA: cp.async.cg.shared.global
// MMA-NOT: cvt.rna
// MMA: st.volatile.shared.v4.b32
// MMA-NOT: cvt.rna
// MMA: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// MMA-NOT: cvt.rna
// MMA: .entry tf32x3(
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @tf32(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf32>>, !tile.block_ptr<tensor<32x64xf32>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "tf32"} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf32>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf32>>, !tile.block_ptr<tensor<32x64xf32>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// tf32x3 splits each input in registers (high part and remainder, each
// rounded to nearest): neither tile is copied ahead, both are loaded one
// iteration ahead, and three products accumulate per step.
// MARK-LABEL: func.func @tf32x3
// MARK: "tile.block_load"(%arg9) {{{.*}} padding = "zero", tile.prefetch, tile.vector_width = 4 : i32
// MARK: "tile.block_load"(%arg10) {{{.*}} padding = "zero", tile.prefetch, tile.vector_width = 2 : i32
// WGMMA-NOT: cp.async
// WGMMA: cvt.rna.tf32.f32
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// MMA-NOT: cp.async
// MMA: cvt.rna.tf32.f32
// MMA: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @tf32x3(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf32>>, !tile.block_ptr<tensor<32x64xf32>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "tf32x3"} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf32>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf32>>, !tile.block_ptr<tensor<32x64xf32>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: a module that asks for no stages (no tile.num_stages: one).
// MARK-LABEL: func.func @no_stages_attribute
// MARK-NOT: tile.async_copy
// MARK-NOT: tile.num_stages
// MARK: return
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @no_stages_attribute(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Two stages: one tile in flight, the loop marked with 2.
// MARK-LABEL: func.func @two_stages
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: } {tile.num_stages = 2 : i64}
module attributes {tile.num_stages = 2 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @two_stages(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: a block pointer the loop does not carry and advance (B
// reads the same tile every iteration) is not copied ahead; it is loaded
// one iteration ahead into registers instead.
// MARK-LABEL: func.func @not_advanced
// MARK: "tile.block_load"(%arg9) {{{.*}} tile.async_copy
// MARK: "tile.block_load"(%1) {{{.*}} tile.prefetch
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @not_advanced(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: B advanced by an offset the loop computes is not copied
// ahead (its address is not a carried value stepped by an invariant).
// MARK-LABEL: func.func @advanced_by_a_loop_value
// MARK: "tile.block_load"(%arg9) {{{.*}} tile.async_copy
// MARK-NOT: tile.async_copy
// MARK: "tile.dot"
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @advanced_by_a_loop_value(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %k32 = arith.muli %i, %c32 : i32
      %nb = "tile.advance"(%qb, %k32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: a loop that writes memory moves no load ahead into
// registers (it could read before the write it followed); the NaN-padded
// A stays where it is. B is still copied ahead.
// MARK-LABEL: func.func @stored_in_loop
// MARK-NOT: tile.prefetch
// MARK: "tile.block_load"(%arg10) {{{.*}} tile.async_copy
// MARK-NOT: tile.prefetch
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @stored_in_loop(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: a load of one element an access (A's pointer of unknown
// alignment) is not moved ahead into registers either.
// MARK-LABEL: func.func @scalar_accesses
// MARK-NOT: tile.prefetch
// MARK: "tile.block_load"(%arg10) {{{.*}} tile.async_copy
// MARK-NOT: tile.prefetch
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @scalar_accesses(%a: !tile.ptr<f16>, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: a load whose tile reaches no product (here an element-wise
// op nothing reads) is neither copied nor moved ahead.
// MARK-LABEL: func.func @load_not_reaching_dot
// MARK: "tile.block_load"(%arg9) {{{.*}} tile.async_copy
// MARK: "tile.block_load"(%arg10) {{{.*}} tile.async_copy
// MARK: "tile.block_load"(%0) {{{.*}} padding = "zero", tile.vector_width = 8 : i32, volatile = false}
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @load_not_reaching_dot(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %w = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %w2 = arith.addf %w, %w : tensor<64x32xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// Left alone: one stage asked for.
// MARK-LABEL: func.func @one_stage
// MARK-NOT: tile.async_copy
// MARK-NOT: tile.num_stages = 1 : i64
// MARK: return
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @one_stage(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// A loop's own stages (tile.loop_stages, Triton's tl.range(num_stages=S))
// override the module's both ways: four asked in a module of one, so the
// loads are copied three tiles ahead into a ring of four; one asked in a
// module of three, so nothing is marked.
// MARK-LABEL: func.func @loop_asks_four
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: } {tile.loop_stages = 4 : i32, tile.num_stages = 4 : i64}
// WGMMA-LABEL: .entry loop_asks_four(
// WGMMA: cp.async.wait_group 2;
module attributes {tile.num_stages = 1 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @loop_asks_four(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    } {tile.loop_stages = 4 : i32}
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}


// -----

// MARK-LABEL: func.func @loop_asks_one
// MARK-NOT: tile.async_copy
// MARK-NOT: tile.num_stages = 3 : i64
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @loop_asks_one(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    } {tile.loop_stages = 1 : i32}
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// An operand that reaches the product through a layout conversion is
// still copied ahead: the conversion reads the buffer.
// MARK-LABEL: func.func @through_conversion
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: "tile.block_load"{{.*}}tile.async_copy
// MARK: } {tile.num_stages = 3 : i64}
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @through_conversion(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %c32 = arith.constant 32 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
      %xc = "tile.convert_layout"(%x) : (tensor<64x32xf16>) -> tensor<64x32xf16>
      %d = "tile.dot"(%xc, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %na = "tile.advance"(%qa, %c0, %c32) : (!tile.block_ptr<tensor<64x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
      %nb = "tile.advance"(%qb, %c32, %c0) : (!tile.block_ptr<tensor<32x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
    }
    "tile.block_store"(%pc, %r#0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

