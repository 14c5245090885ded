// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// In a module marked tile.fp_fusion (Options::fp_fusion, on by default),
// float products, sums and differences are marked contract, so LLVM fuses
// a product feeding a sum into one fma (as Triton's enable_fp_fusion);
// other ops and integer ops keep their flags. Without the mark each op
// rounds on its own.

// CHECK-LABEL: gpu.func @fused
// CHECK: %[[M:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %[[M]], %{{.*}} fastmath<contract> : f32
// CHECK: arith.subf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry fused
// PTX-SAME: fma.rn.f32
// PTX-NOT: mul.rn.f32
module attributes {tile.fp_fusion} {
func.func @fused(%x: !tile.ptr<f32>, %y: !tile.ptr<i32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %m = arith.mulf %v, %v : tensor<128xf32>
  %s = arith.addf %m, %v : tensor<128xf32>
  %d = arith.subf %s, %v : tensor<128xf32>
  %q = arith.divf %d, %v : tensor<128xf32>
  "tile.store"(%p, %q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %ys = "tile.splat"(%y) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
  %yp = "tile.addptr"(%ys, %c) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i32>>
  %sq = arith.muli %c, %c : tensor<128xi32>
  "tile.store"(%yp, %sq) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> ()
  return
}
}

// -----

// CHECK-LABEL: gpu.func @separate
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: fastmath
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry separate
// PTX-SAME: mul.rn.f32
// PTX-SAME: add.rn.f32
// PTX-NOT: fma.rn.f32
func.func @separate(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %m = arith.mulf %v, %v : tensor<128xf32>
  %s = arith.addf %m, %v : tensor<128xf32>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}

// -----

// A sum of products: one warp, 128 elements, 4 per thread held apart
// (lane, lane + 32, ...). Within the thread the sum runs in register
// order, each add taking the next product, so the products fuse into a
// chain of three fmas after the first multiply; then the shuffles add.
// CHECK-LABEL: gpu.func @dot_sum
// CHECK: %[[P0:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: %[[P1:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: %[[P2:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: %[[P3:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: %[[S1:.*]] = arith.addf %[[P0]], %[[P1]] fastmath<contract> : f32
// CHECK: %[[S2:.*]] = arith.addf %[[S1]], %[[P2]] fastmath<contract> : f32
// CHECK: %[[S3:.*]] = arith.addf %[[S2]], %[[P3]] fastmath<contract> : f32
// CHECK: %[[X:.*]], %{{.*}} = gpu.shuffle  xor %[[S3]]
// CHECK: arith.addf %[[S3]], %[[X]] fastmath<contract> : f32
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry dot_sum
// PTX-SAME: mul.f32
// PTX-SAME: fma.rn.f32
// PTX-SAME: fma.rn.f32
// PTX-SAME: fma.rn.f32
// PTX-SAME: shfl.sync.bfly.b32
module attributes {tile.fp_fusion, tile.num_warps = 1 : i32} {
func.func @dot_sum(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %a = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %b = "tile.load"(%yp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %m = arith.mulf %a, %b : tensor<128xf32>
  %s = "tile.reduce"(%m) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<128xf32>) -> f32
  "tile.store"(%out, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}
}

// -----

// A product used both by a sum across warps and after it: the warps'
// partials go to shared memory by a predicated st.shared, not a branch, so
// the kernel stays one block and the product fuses into the fma after the
// reduction (LLVM's fusion stops at a block's end; with a branch the
// product stayed a mul.f32, its result live across the reduction).
// CHECK-LABEL: gpu.func @sum_then_use
// CHECK-NOT: scf.if
// CHECK: "@$2 st.shared.f32 [ $0 ], $1;"
// CHECK-NOT: scf.if
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry sum_then_use
// PTX-NOT: bra
// PTX-SAME: bar.sync
// PTX-SAME: @%p{{[0-9]+}} st.shared.f32
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared
// PTX-SAME: fma.rn.f32
// PTX-NOT: bra
// PTX-SAME: ret;
module attributes {tile.fp_fusion, tile.num_warps = 4 : i32} {
func.func @sum_then_use(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %a = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %b = "tile.load"(%yp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %m = arith.mulf %a, %b : tensor<128xf32>
  %s = "tile.reduce"(%m) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<128xf32>) -> f32
  %st = "tile.splat"(%s) : (f32) -> tensor<128xf32>
  %r = arith.addf %m, %st : tensor<128xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %op = "tile.addptr"(%os, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%op, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}
}

// -----

// An op that states its own fast-math flags keeps them as they are; one
// that states `none` is marked contract like an op with no flags.
// CHECK-LABEL: gpu.func @own_flags
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: gpu.return
module attributes {tile.fp_fusion} {
func.func @own_flags(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %m = arith.mulf %v, %v fastmath<reassoc> : tensor<128xf32>
  %s = arith.addf %m, %v fastmath<none> : tensor<128xf32>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}
}
