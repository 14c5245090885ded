// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// tile.scan in per-thread code: a running combination in the thread, a
// Hillis-Steele scan over the lanes along the axis with gpu.shuffle up
// (down in reverse), the lanes' exclusive prefix by one more shuffle, the
// warp total by shuffle idx from the last lane, the warps' totals through
// shared memory, and chunks carried in order.

// 1024 f32 along the only axis with 4 warps: 32 lanes, 4 warps, and 8
// chunks of 128 per thread.
// CHECK-LABEL: gpu.func @cumsum_1d
// CHECK: gpu.shuffle  up %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  up %{{.*}}, %c16_i32, %c32_i32 : f32
// Five steps cover 32 lanes: no sixth of distance 32.
// CHECK-NOT: gpu.shuffle  up %{{.*}}, %c32_i32, %c32_i32
// CHECK: gpu.shuffle  up %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  idx
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %c31_i32
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: "@$2 st.shared.f32 [ $0 ], $1;", "l,f,b" %{{.*}}, %{{.*}}, %[[LAST]]
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.shuffle  down
// An f32 load scanned: nothing narrow to scan again from.
// CHECK-NOT: cvt.f32
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry cumsum_1d
// PTX-SAME: shfl.sync.up.b32
// PTX-SAME: shfl.sync.idx.b32
// PTX-SAME: bar.sync
// PTX-SAME: st.shared
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared
// PTX-SAME: st.global
func.func @cumsum_1d(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<1024xf32>) -> tensor<1024xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// A reverse running max of i16 along axis 0 of 16x8: the lanes along the
// axis shuffle down (the i16 widened to i32 and back), signed max.
// CHECK-LABEL: gpu.func @cummax_reverse
// CHECK-NOT: gpu.shuffle  up
// CHECK: arith.maxsi
// CHECK: gpu.shuffle  down
// CHECK-NOT: gpu.shuffle  up
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry cummax_reverse
// PTX-SAME: shfl.sync.down.b32
// PTX-SAME: max.s16
func.func @cummax_reverse(%x: !tile.ptr<i16>, %out: !tile.ptr<i16>) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<8xi32>) -> tensor<1x8xi32>
  %k = arith.constant dense<8> : tensor<16x1xi32>
  %row = arith.muli %r2, %k : tensor<16x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<16x1xi32>) -> tensor<16x8xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x8xi32>) -> tensor<16x8xi32>
  %off = arith.addi %rb, %cb : tensor<16x8xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<i16>) -> tensor<16x8x!tile.ptr<i16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<16x8x!tile.ptr<i16>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<i16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x8x!tile.ptr<i16>>) -> tensor<16x8xi16>
  %s = "tile.scan"(%v) {kind = "max", axis = 0 : i32, reverse = true} : (tensor<16x8xi16>) -> tensor<16x8xi16>
  %os = "tile.splat"(%out) : (!tile.ptr<i16>) -> tensor<16x8x!tile.ptr<i16>>
  %o = "tile.addptr"(%os, %off) : (tensor<16x8x!tile.ptr<i16>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<i16>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x8x!tile.ptr<i16>>, tensor<16x8xi16>) -> ()
  return
}

// -----

// A scan whose axis lies within one warp (rows of 32 over 32 lanes, the 4
// warps on other rows) needs no warp totals: no shared memory and no
// barrier.
// CHECK-LABEL: gpu.module @tile
// CHECK-NEXT: gpu.func @cumsum_rows
// CHECK-COUNT-5: gpu.shuffle  up
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @cumsum_rows(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %k = arith.constant dense<32> : tensor<4x1xi32>
  %row = arith.muli %r2, %k : tensor<4x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<4x1xi32>) -> tensor<4x32xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x32xi32>) -> tensor<4x32xi32>
  %off = arith.addi %rb, %cb : tensor<4x32xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<4x32x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xi32>) -> tensor<4x32x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x32x!tile.ptr<f32>>) -> tensor<4x32xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 1 : i32, reverse = false} : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<4x32x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xi32>) -> tensor<4x32x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xf32>) -> ()
  return
}

// -----

// The same tile scanned along its rows' axis, which lies across the warps
// (one row a warp): no shuffles, and each warp's total is stored by every
// thread of it without a predicate (one thread along the axis: each is
// the last).
// CHECK-LABEL: gpu.func @cumsum_cols
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: st.shared
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: st.shared
// CHECK: gpu.return
func.func @cumsum_cols(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %k = arith.constant dense<32> : tensor<4x1xi32>
  %row = arith.muli %r2, %k : tensor<4x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<4x1xi32>) -> tensor<4x32xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x32xi32>) -> tensor<4x32xi32>
  %off = arith.addi %rb, %cb : tensor<4x32xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<4x32x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xi32>) -> tensor<4x32x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x32x!tile.ptr<f32>>) -> tensor<4x32xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<4x32x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xi32>) -> tensor<4x32x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x32x!tile.ptr<f32>>, tensor<4x32xf32>) -> ()
  return
}

// -----

// A sum of bf16 widened to f32 before the scan (`x.to(f32).cumsum()`):
// the thread's totals come from the widened values, and once the lanes'
// and warps' prefixes are known each element is widened and scanned
// again from the bf16 register (a conversion of its own, kept apart by
// its side effect), so the f32 prefixes are not live across the barrier.
// CHECK-LABEL: gpu.func @cumsum_of_widened_bf16
// CHECK-COUNT-8: arith.extf %{{.*}} : bf16 to f32
// CHECK: gpu.shuffle  up
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-COUNT-8: llvm.inline_asm has_side_effects "cvt.f32.bf16 $0, $1;", "=f,h"
// CHECK: gpu.return
// PTX: .entry cumsum_of_widened_bf16
// PTX-SAME: cvt.f32.bf16
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared
// PTX-SAME: cvt.f32.bf16
// PTX-SAME: st.global
func.func @cumsum_of_widened_bf16(%x: !tile.ptr<bf16>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<bf16>) -> tensor<1024x!tile.ptr<bf16>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<bf16>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<bf16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!tile.ptr<bf16>>) -> tensor<1024xbf16>
  %w = arith.extf %v : tensor<1024xbf16> to tensor<1024xf32>
  %s = "tile.scan"(%w) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<1024xf32>) -> tensor<1024xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}
