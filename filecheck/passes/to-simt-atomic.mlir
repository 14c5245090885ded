// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Atomics become one PTX atom per element with the op's ordering and
// scope, guarded by the lane's mask (masked-off lanes read 0: the output
// register starts at 0). Float max uses integer atomics on the bits: max.s
// where the sign bit is clear, min.u where it is set.

// CHECK-LABEL: gpu.func @add_masked
// CHECK: llvm.inline_asm has_side_effects "@$4 atom.relaxed.gpu.global.add.f32 $0, [ $2 ], $3;", "=r,0,l,r,b" %c0_i32
// CHECK-NOT: gpu.barrier
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry add_masked
// PTX-SAME: atom.relaxed.gpu.global.add.f32
func.func @add_masked(%x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %c, %ns : tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %old = "tile.atomic_rmw"(%p, %one, %m) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  return
}


// -----

// 16- and 64-bit elements move in registers of their width: an f16 add
// takes an h register ("h"), an i64 max an l register ("l").
// CHECK-LABEL: gpu.func @widths
// CHECK: "@$4 atom.relaxed.gpu.global.add.noftz.f16 $0, [ $2 ], $3;", "=h,0,l,h,b"
// CHECK: "@$4 atom.relaxed.gpu.global.max.s64 $0, [ $2 ], $3;", "=l,0,l,l,b"
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry widths
// PTX-SAME: atom.relaxed.gpu.global.add.noftz.f16
// PTX-SAME: atom.relaxed.gpu.global.max.s64
func.func @widths(%x: !tile.ptr<f16>, %y: !tile.ptr<i64>, %n: i32) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %c, %ns : tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %one = arith.constant dense<1.0> : tensor<128xf16>
  %old = "tile.atomic_rmw"(%p, %one, %m) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>, tensor<128xi1>) -> tensor<128xf16>
  %qs = "tile.splat"(%y) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
  %q = "tile.addptr"(%qs, %c) : (tensor<128x!tile.ptr<i64>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i64>>
  %seven = arith.constant dense<7> : tensor<128xi64>
  %old2 = "tile.atomic_rmw"(%q, %seven, %m) {kind = "max", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> tensor<128xi64>
  return
}
// -----

// An ordered atomic on a tensor of pointers whose old values are read:
// each element's atom carries the ordering.
// CHECK-LABEL: gpu.func @max_f32
// CHECK: arith.cmpi sge
// CHECK: llvm.inline_asm has_side_effects "@$4 atom.acq_rel.cta.global.max.s32 $0, [ $2 ], $3;\0A\09@$5 atom.acq_rel.cta.global.min.u32 $0, [ $2 ], $3;"
// CHECK-NOT: fence
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry max_f32
// PTX-SAME: atom.acq_rel.cta.global.max.s32
// PTX-SAME: atom.acq_rel.cta.global.min.u32
func.func @max_f32(%x: !tile.ptr<f32>, %v: f32, %y: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %vs = "tile.splat"(%v) : (f32) -> tensor<128xf32>
  %old = "tile.atomic_rmw"(%p, %vs) {kind = "max", sem = "acq_rel", scope = "cta", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  %qs = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%qs, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q, %old) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}

// -----

// The same atomic with its old values unread is a batch: one fence before
// (the release), each element a red.relaxed with no old value, one fence
// after (the acquire). A fence then a relaxed write is a release pattern
// in PTX's memory model, a relaxed read then a fence an acquire pattern.
// CHECK-LABEL: gpu.func @max_f32_unread
// CHECK: llvm.inline_asm has_side_effects "fence.acq_rel.cta;"
// CHECK: arith.cmpi sge
// CHECK: llvm.inline_asm has_side_effects "@$2 red.relaxed.cta.global.max.s32 [ $0 ], $1;\0A\09@$3 red.relaxed.cta.global.min.u32 [ $0 ], $1;"
// CHECK: llvm.inline_asm has_side_effects "fence.acq_rel.cta;"
// CHECK-NEXT: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry max_f32_unread
// PTX-SAME: fence.acq_rel.cta;
// PTX-SAME: red.relaxed.cta.global.max.s32
// PTX-SAME: red.relaxed.cta.global.min.u32
// PTX-SAME: fence.acq_rel.cta;
// PTX-NOT: atom.
func.func @max_f32_unread(%x: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %vs = "tile.splat"(%v) : (f32) -> tensor<128xf32>
  %old = "tile.atomic_rmw"(%p, %vs) {kind = "max", sem = "acq_rel", scope = "cta", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

// A compare-and-swap through a scalar pointer: thread 0 swaps, and its old
// value reaches every thread through shared memory (two barriers). An
// acquire needs no barrier before it.
// CHECK-LABEL: gpu.func @cas_scalar
// CHECK-NOT: gpu.barrier
// CHECK: "@$5 atom.acquire.sys.global.cas.b32 $0, [ $2 ], $3, $4;"
// CHECK: gpu.barrier
// CHECK: "@$2 st.shared.b32 [ $0 ], $1;", "l,r,b"
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry cas_scalar
// PTX-SAME: atom.acquire.sys.global.cas.b32
// PTX-SAME: bar.sync
// PTX-SAME: st.shared.b32
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared.b32
func.func @cas_scalar(%lock: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %z = arith.constant 0 : i32
  %o = arith.constant 1 : i32
  %old = "tile.atomic_cas"(%lock, %z, %o) {sem = "acquire", scope = "sys"} : (!tile.ptr<i32>, i32, i32) -> i32
  %t = "tile.splat"(%old) : (i32) -> tensor<128xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%out) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i32>>
  "tile.store"(%p, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> ()
  return
}

// -----

// A lock's release through a scalar pointer: a barrier first, so that
// every thread's stores before it are ordered before thread 0's release;
// nothing reads the old value, so no barrier after. A relaxed scalar
// atomic takes no barrier.
// CHECK-LABEL: gpu.func @release
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// CHECK: gpu.barrier
// CHECK-NEXT: llvm.inline_asm has_side_effects "@$4 atom.release.gpu.global.exch.b32 $0, [ $2 ], $3;"
// CHECK-NOT: gpu.barrier
// CHECK: atom.relaxed.gpu.global.add.s32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: .entry release
// PTX-SAME: st.global
// PTX-SAME: bar.sync
// PTX-SAME: atom.release.gpu.global.exch.b32
func.func @release(%lock: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%out) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i32>>
  "tile.store"(%p, %c) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> ()
  %z = arith.constant 0 : i32
  %old = "tile.atomic_rmw"(%lock, %z) {kind = "xchg", sem = "release", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> i32
  %one = arith.constant 1 : i32
  %old2 = "tile.atomic_rmw"(%lock, %one) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> i32
  return
}
