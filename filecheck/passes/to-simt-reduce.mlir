// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s

// tile.reduce in per-thread code: registers along the axis combine in the
// thread, lanes along it through a gpu.shuffle xor butterfly over exactly
// the lane bits that number the axis, warps along it through shared memory
// (one lane per group writes between two barriers, with a predicated
// st.shared rather than a branch, so that the code around a reduction stays
// one block; every thread reads all partials in warp order). The first
// barrier, which guards the scratch against its earlier readers, comes
// before the reduction's own work, so the loads of the ops before it issue
// before it. Steps a layout does not need are not emitted.
// Each kernel stores its results: tile-to-simt removes what nothing uses.

// 16x64 with 4 warps: threads [1, 32], warps [2, 2]. Along axis 1 each
// thread holds one element per row it covers (8 rows), so 8 butterflies of
// 5 steps, then 2 warps through shared memory (2 x 16 floats).
// CHECK-LABEL: llvm.mlir.global internal @__tile_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<128 x i8>
// CHECK-LABEL: gpu.func @rows
// CHECK-NOT: arith.addf
// CHECK: gpu.barrier
// CHECK-NOT: arith.addf
// CHECK-COUNT-8: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-COUNT-8: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK-COUNT-8: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK-COUNT-8: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK-COUNT-8: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[LANE0:.*]] = arith.cmpi eq
// CHECK-NOT: gpu.barrier
// CHECK-NOT: scf.if
// CHECK-COUNT-8: llvm.inline_asm has_side_effects "@$2 st.shared.f32 [ $0 ], $1;", "l,f,b" %{{.*}}, %{{.*}}, %[[LANE0]] : (!llvm.ptr<3>, f32, i1) -> ()
// CHECK-NOT: scf.if
// CHECK: gpu.barrier
// CHECK-COUNT-16: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @rows(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<16x64xf32>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
  %r_s = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %ps_s = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
  %p_s = "tile.addptr"(%ps_s, %r_s) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
  "tile.store"(%p_s, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> ()
  return
}

// -----

// Along axis 0 of the same tile: no lane spans axis 0, so no shuffle; the
// 8 rows a thread holds combine as a tree (7 adds), then 2 warps.
// CHECK-LABEL: gpu.func @cols
// CHECK: gpu.barrier
// CHECK-NOT: gpu.shuffle
// CHECK-COUNT-7: arith.addf
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-2: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: arith.addf
// CHECK-NOT: llvm.load
// CHECK: gpu.return
func.func @cols(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<16x64xf32>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<64xf32>
  %r_s = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %ps_s = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %p_s = "tile.addptr"(%ps_s, %r_s) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  "tile.store"(%p_s, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
  return
}

// -----

// To a scalar: max with maxnum across 32 lanes and 4 warps; every thread
// ends with the value (4 partials read back).
// CHECK-LABEL: gpu.func @to_scalar
// CHECK: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.maxnum.f32"
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.maxnum.f32"
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.maxnum.f32"
func.func @to_scalar(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<128xf32>
  %s = "tile.reduce"(%t) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<128xf32>) -> f32
  "tile.store"(%out, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}

// -----

// keep_dims keeps the source layout; integer min is signed.
// CHECK-LABEL: gpu.func @keep_dims_int_min
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : i32
// CHECK-NEXT: arith.minsi
// CHECK: gpu.barrier
// CHECK: arith.minsi
func.func @keep_dims_int_min(%v: i32, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (i32) -> tensor<4x64xi32>
  %s = "tile.reduce"(%t) {kind = "min", axis = 1 : i32, keep_dims = true} : (tensor<4x64xi32>) -> tensor<4x1xi32>
  %r = "tile.arange"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
  %c = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %ps = "tile.splat"(%out) : (!tile.ptr<i32>) -> tensor<4x1x!tile.ptr<i32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<4x1x!tile.ptr<i32>>, tensor<4x1xi32>) -> tensor<4x1x!tile.ptr<i32>>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x1x!tile.ptr<i32>>, tensor<4x1xi32>) -> ()
  return
}

// -----

// Half-precision sums accumulate in f32 and round once; a half max stays
// f16 and is shuffled as a 32-bit integer.
// CHECK-LABEL: gpu.func @half
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.bitcast %{{.*}} : f16 to i16
// CHECK-NEXT: arith.extui %{{.*}} : i16 to i32
// CHECK-NEXT: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK-NEXT: arith.trunci %{{.*}} : i32 to i16
// CHECK-NEXT: arith.bitcast %{{.*}} : i16 to f16
// CHECK-NEXT: llvm.call_intrinsic "llvm.maxnum.f16"(%{{.*}}, %{{.*}}) : (f16, f16) -> f16
func.func @half(%v: f16, %out: !tile.ptr<f16>, %out2: !tile.ptr<f16>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f16) -> tensor<128xf16>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<128xf16>) -> f16
  %m = "tile.reduce"(%t) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<128xf16>) -> f16
  "tile.store"(%out, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f16>, f16) -> ()
  "tile.store"(%out2, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f16>, f16) -> ()
  return
}

// -----

// 4 elements over 128 threads: the index wraps and 32 threads hold each
// element. A sum counts only the first copy (unwrapped index < 4, others
// add zero); a max needs no such care.
// CHECK-LABEL: gpu.func @wrapped
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %c4_i32 : i32
// CHECK-NEXT: arith.select %[[FIRST]], %{{.*}}, %cst{{.*}} : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: arith.addf
// CHECK-NOT: arith.select
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.maxnum.f32"
func.func @wrapped(%v: f32, %out: !tile.ptr<f32>, %out2: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<4xf32>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<4xf32>) -> f32
  %m = "tile.reduce"(%t) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<4xf32>) -> f32
  "tile.store"(%out, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  "tile.store"(%out2, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}

// -----

// Explicit layouts (left as they are by tile-assign-layouts). Axis 1 held
// whole by each thread (size_per_thread 4): three adds in the thread, no
// shuffle, no shared memory.
// CHECK-LABEL: gpu.func @in_thread
// CHECK-NOT: llvm.mlir.global
// CHECK-COUNT-3: arith.addf
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @in_thread(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<128x4xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<128x4xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<128xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %r_s = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %ps_s = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %p_s = "tile.addptr"(%ps_s, %r_s) : (tensor<128x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>, tensor<128xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> tensor<128x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  "tile.store"(%p_s, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>, tensor<128xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 32, 1>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> ()
  return
}

// -----

// Threads [4, 8], warps [4, 1], order (1, 0): axis 1 owns lane bits 0-2,
// axis 0 lane bits 3-4 and all warps. Along axis 1: masks 1, 2, 4, no
// shared memory; along axis 0: masks 8, 16, then 4 warps.
// CHECK-LABEL: gpu.func @lane_bits
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
func.func @lane_bits(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<16x8xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
  %a = "tile.reduce"(%t) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<16x8xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<16xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %b = "tile.reduce"(%t) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<16x8xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<8xf32, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %r_a = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %ps_a = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %p_a = "tile.addptr"(%ps_a, %r_a) : (tensor<16x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>, tensor<16xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> tensor<16x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  "tile.store"(%p_a, %a) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>, tensor<16xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> ()
  %r_b = "tile.arange"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %ps_b = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<8x!tile.ptr<f32>, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  %p_b = "tile.addptr"(%ps_b, %r_b) : (tensor<8x!tile.ptr<f32>, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>, tensor<8xi32, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> tensor<8x!tile.ptr<f32>, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
  "tile.store"(%p_b, %b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x!tile.ptr<f32>, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>, tensor<8xf32, #tile.slice<0 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> ()
  return
}
