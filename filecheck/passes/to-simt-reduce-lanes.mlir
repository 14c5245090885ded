// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Warps' partials combined by lanes: where each thread would read more
// than 16 partials (its output elements times the warps along the axis),
// thread t reads the one partial [t % warps][t / warps], a butterfly over
// the warps' lanes combines each element's partials, the first lane of each
// group writes the total (a predicated st.shared), and after a second
// barrier each thread reads one total an element it holds.

// 4x1024 f32 along axis 1, threads [1, 32], warps [1, 8]: 4 rows a thread
// over 8 warps, 32 partials; 32 of the 256 threads combine them, 3 steps.
// CHECK-LABEL: gpu.func @rows_by_lanes
// CHECK: gpu.barrier
// CHECK-COUNT-4: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-COUNT-4: "@$2 st.shared.f32 [ $0 ], $1;", "l,f,b"
// CHECK: gpu.barrier
// CHECK-COUNT-1: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: "@$2 st.shared.f32 [ $0 ], $1;", "l,f,b"
// CHECK-NOT: st.shared
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry rows_by_lanes
// PTX-SAME: bar.sync
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: @%p{{[0-9]+}} st.shared.f32
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared.b32
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: @%p{{[0-9]+}} st.shared.f32
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared
// PTX-SAME: st.global
module attributes {tile.num_warps = 8 : i32} {
func.func @rows_by_lanes(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<4x1024xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x1024xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>) -> tensor<4xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  %r = "tile.arange"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  %ps = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  %p = "tile.addptr"(%ps, %r) : (tensor<4x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>, tensor<4xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>) -> tensor<4x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>, tensor<4xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>) -> ()
  return
}
}

// -----

// 2x1024 on the same spread: 2 rows a thread over 8 warps, 16 partials,
// which each thread reads itself (one barrier pair, no second butterfly).
// CHECK-LABEL: gpu.func @rows_by_threads
// CHECK: gpu.barrier
// CHECK-COUNT-2: "@$2 st.shared.f32 [ $0 ], $1;", "l,f,b"
// CHECK: gpu.barrier
// CHECK-COUNT-16: llvm.load %{{.*}}  {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
module attributes {tile.num_warps = 8 : i32} {
func.func @rows_by_threads(%v: f32, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %t = "tile.splat"(%v) : (f32) -> tensor<2x1024xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>
  %s = "tile.reduce"(%t) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<2x1024xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>) -> tensor<2xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  %r = "tile.arange"() {end = 2 : i32, start = 0 : i32} : () -> tensor<2xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  %ps = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<2x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  %p = "tile.addptr"(%ps, %r) : (tensor<2x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>, tensor<2xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>) -> tensor<2x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x!tile.ptr<f32>, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>, tensor<2xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>) -> ()
  return
}
}
