// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm90a | FileCheck %s --check-prefix=WGMMA
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm80 | FileCheck %s --check-prefix=MMA
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s --check-prefix=MMA-SHARED

// Attention's inner loop, down to PTX: s = q @ k, p = exp2(s) rounded to
// f16, acc = acc * 2 + p @ v.
//
// - p is in the accumulator layout of the first product, with the same
//   warps (all along M) as the second: the second product reads it from
//   registers. wgmma takes it as four 32-bit words (no transpose flag for
//   a), each two rounded elements made by one cvt.rn.f16x2.f32; no
//   shared-memory store is left in the loop. On sm_80 the mma.sync layout
//   of a 64x64 product splits the 4 warps 2 x 2, so the warps holding a
//   row of p do not hold all of it: p goes through shared memory there
//   (what reading from registers leaves alone).
// - q is defined before the loop: it is written to shared memory once
//   (16 bytes a store),
//   before the loop (its stores come before the loop's label), and the
//   first product reads it from there.
// - acc is only carried on by the loop, so the second product's group is
//   left in flight: the next iteration's first product waits for it with
//   its own group (wait_group 0, acc's registers tied through), and only
//   then does the scaling read acc. That wait retired every earlier
//   group, so the second product waits for none (no wait_group 1). After
//   the loop, the last group is waited for.
// - The copies of k and v reach wgmma through the wait and the barrier
//   alone: no proxy fence in the loop (only after q's st.shared).

// WGMMA-LABEL: .entry chained(
// WGMMA: st.volatile.shared.v4.b32
// WGMMA: fence.proxy.async.shared::cta;
// WGMMA: [[LOOP:\$L__BB[0-9_]+]]:
// WGMMA: cp.async.wait_group
// WGMMA-NOT: fence.proxy
// WGMMA: bar.sync
// WGMMA-NOT: st.volatile.shared
// WGMMA-NOT: add.rn.f32
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{]}}%r{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// WGMMA-NOT: add.rn.f32
// WGMMA: wgmma.wait_group.sync.aligned 0;
// WGMMA-NOT: st.volatile.shared
// WGMMA: ex2.approx.ftz.f32
// The scaling by 2 (acc + acc), after the wait.
// WGMMA: add.rn.f32 {{\\09}}[[ACC:%r[0-9]+]], [[ACC]], [[ACC]];
// WGMMA: cvt.rn.f16x2.f32
// WGMMA-NOT: st.volatile.shared
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{]}}%r{{[^}]*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA-NOT: wgmma.wait_group
// WGMMA-NOT: st.volatile.shared
// WGMMA: bra{{.*}}[[LOOP]];
// WGMMA: wgmma.wait_group.sync.aligned 0;

// mma.sync is synchronous: no product is left in flight on sm_80, so p's
// staging needs one region, not two alternating by the iteration's parity
// (as wgmma's in-flight products do). The kernel's 64 KiB: k's and v's
// copies (3 stages of 8 KiB each), q (8 KiB, staged once) and p (8 KiB).
// MMA-SHARED: tile.dynamic_shared_bytes = 65536 : i64

// MMA-LABEL: .entry chained(
// mma.sync reads registers: nothing goes through the async proxy, so no
// proxy fence anywhere (sm_80 has none).
// MMA-NOT: fence.proxy.async
// MMA: st.volatile.shared.v4.b32
// MMA: [[LOOP:\$L__BB[0-9_]+]]:
// MMA-NOT: st.volatile.shared
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA: ex2.approx.ftz.f32
// MMA: st.volatile.shared
// MMA: bar.sync
// MMA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MMA: bra{{.*}}[[LOOP]];
// MMA-NOT: fence.proxy.async
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @chained(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %iters: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %c64 = arith.constant 64 : i64
    %pq = "tile.make_block_ptr"(%q, %c64, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %pk = "tile.make_block_ptr"(%k, %c64, %n, %c1, %c64, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %pv = "tile.make_block_ptr"(%v, %n, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
    %po = "tile.make_block_ptr"(%o, %c64, %c64, %c64, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %xq = "tile.block_load"(%pq) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %two = arith.constant dense<2.0> : tensor<64x64xf32>
    %c64i = arith.constant 64 : i32
    %c1i = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %ck = %pk, %cv = %pv) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %xk = "tile.block_load"(%ck) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
      %s = "tile.dot"(%xq, %xk, %z) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %e = math.exp2 %s : tensor<64x64xf32>
      %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
      %scaled = arith.mulf %acc, %two : tensor<64x64xf32>
      %xv = "tile.block_load"(%cv) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x64xf16>
      %d = "tile.dot"(%p, %xv, %scaled) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %nk = "tile.advance"(%ck, %c0, %c64i) : (!tile.block_ptr<tensor<64x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
      %nv = "tile.advance"(%cv, %c64i, %c0) : (!tile.block_ptr<tensor<64x64xf16>>, i32, i32) -> !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %d, %nk, %nv : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x64xf16>>
    }
    "tile.block_store"(%po, %r#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
