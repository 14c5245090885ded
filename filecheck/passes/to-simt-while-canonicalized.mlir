// RUN: tile-opt %s --pass-pipeline='builtin.module(canonicalize,tile-assign-layouts,tile-predicate,tile-to-simt)' | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(canonicalize,tile-assign-layouts,tile-predicate,tile-to-simt)' %to-ptx | FileCheck %s --check-prefix=PTX

// A spin lock: canonicalization drops the while loop's result (nothing
// uses it) and the value its condition forwards, so the loop carries one
// value and forwards none. The lowering takes the two lists as they are.
// The acquire needs no barrier before it; its old value reaches every
// thread through shared memory; the release has a barrier first.

// CHECK-LABEL: gpu.func @spin
// CHECK: scf.while (%[[OLD:.*]] = %c1_i32) : (i32) -> () {
// CHECK:   %[[GO:.*]] = arith.cmpi eq, %[[OLD]], %c1_i32 : i32
// CHECK:   scf.condition(%[[GO]])
// CHECK: } do {
// CHECK:   atom.acquire.gpu.global.cas.b32
// CHECK:   gpu.barrier
// CHECK:   scf.yield %{{.*}} : i32
// CHECK: }
// CHECK: gpu.barrier
// CHECK: atom.release.gpu.global.exch.b32
// PTX-LABEL: .entry spin
// PTX-SAME: atom.acquire.gpu.global.cas.b32
// PTX-SAME: bar.sync
// PTX-SAME: bra
// PTX-SAME: st.global
// PTX-SAME: bar.sync
// PTX-SAME: atom.release.gpu.global.exch.b32
func.func @spin(%lock: !tile.ptr<i32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%old = %c1) : (i32) -> i32 {
    %go = arith.cmpi eq, %old, %c1 : i32
    scf.condition(%go) %old : i32
  } do {
  ^bb0(%x: i32):
    %got = "tile.atomic_cas"(%lock, %c0, %c1) {sem = "acquire", scope = "gpu"} : (!tile.ptr<i32>, i32, i32) -> i32
    scf.yield %got : i32
  }
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %f = arith.sitofp %c : tensor<128xi32> to tensor<128xf32>
  %ps = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%p, %f) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %old = "tile.atomic_rmw"(%lock, %c0) {kind = "xchg", sem = "release", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> i32
  return
}
