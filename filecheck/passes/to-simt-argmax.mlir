// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// argmax / argmin carry (value, index) pairs through the reduction's three
// steps: a pair wins when its value is strictly better, or as good with a
// smaller index; a float NaN beats every number (cmpf uno). Across lanes
// both halves of the pair are shuffled; across warps each has its own
// shared array (values first, then the i32 indices, aligned).

// 2x256 f32 along axis 1 with 4 warps: lanes and two warps a row along
// the axis (rows take warps first: four rows would give each warp its own).
// CHECK-LABEL: gpu.func @argmax_rows
// CHECK: gpu.barrier
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ord
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : i32
// CHECK-NOT: gpu.barrier
// CHECK: "@$2 st.shared.f32 [ $0 ], $1;", "l,f,b"
// CHECK: "@$2 st.shared.b32 [ $0 ], $1;", "l,r,b"
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry argmax_rows
// PTX-SAME: ld.global
// PTX-SAME: bar.sync
// PTX-SAME: setp.gt.f32
// PTX-SAME: setp.nan.f32
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: setp.lt.s32
// PTX-SAME: @%p{{[0-9]+}} st.shared.f32
// PTX-SAME: @%p{{[0-9]+}} st.shared.b32
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared
// PTX-SAME: st.global.b32
func.func @argmax_rows(%x: !tile.ptr<f32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 2 : i32} : () -> tensor<2xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 256 : i32} : () -> tensor<256xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<2xi32>) -> tensor<2x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<256xi32>) -> tensor<1x256xi32>
  %k = arith.constant dense<256> : tensor<2x1xi32>
  %row = arith.muli %r2, %k : tensor<2x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<2x1xi32>) -> tensor<2x256xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x256xi32>) -> tensor<2x256xi32>
  %off = arith.addi %rb, %cb : tensor<2x256xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<2x256x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<2x256x!tile.ptr<f32>>, tensor<2x256xi32>) -> tensor<2x256x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x256x!tile.ptr<f32>>) -> tensor<2x256xf32>
  %i = "tile.reduce"(%v) {kind = "argmax", axis = 1 : i32, keep_dims = false} : (tensor<2x256xf32>) -> tensor<2xi32>
  %os = "tile.splat"(%out) : (!tile.ptr<i32>) -> tensor<2x!tile.ptr<i32>>
  %o = "tile.addptr"(%os, %r) : (tensor<2x!tile.ptr<i32>>, tensor<2xi32>) -> tensor<2x!tile.ptr<i32>>
  "tile.store"(%o, %i) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x!tile.ptr<i32>>, tensor<2xi32>) -> ()
  return
}

// -----

// argmin of i8 to a scalar: signed compares, no NaN test; the i8 values
// go through the shuffle widened to i32 and back.
// CHECK-LABEL: gpu.func @argmin_i8
// CHECK-NOT: arith.cmpf
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi eq
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: gpu.shuffle  xor
// CHECK-NOT: arith.cmpf
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry argmin_i8
// PTX-NOT: .f32
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: setp.lt.s32
// PTX-SAME: st.shared.b8
// PTX-SAME: st.shared.b32
// PTX-SAME: st.global.b32
func.func @argmin_i8(%x: !tile.ptr<i8>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<i8>) -> tensor<128x!tile.ptr<i8>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<i8>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i8>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<i8>>) -> tensor<128xi8>
  %i = "tile.reduce"(%v) {kind = "argmin", axis = 0 : i32, keep_dims = false} : (tensor<128xi8>) -> i32
  "tile.store"(%out, %i) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> ()
  return
}
