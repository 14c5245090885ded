// RUN: tile-opt %s --split-input-file --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-predicate --tile-vectorize --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Where the axis analysis proves an elementwise result constant over runs
// of a thread's registers, tile-to-simt computes each run's value once
// and reuses it (as Triton's lowering deduplicates by constancy). Here a
// thread holds 4 consecutive elements of `arange < n`; with `n` a
// multiple of 16, each 4 share one answer: one compare, and the 4 selects
// of the masked `where` share its predicate. Without that fact on `n`,
// every element gets its own compare.

// CHECK-LABEL: gpu.func @known_multiple
// CHECK: %[[M:.*]] = arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK-COUNT-4: arith.select %[[M]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.select
// CHECK-NOT: arith.cmpi slt
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry known_multiple
// PTX-SAME: setp.lt.s32 {{[^,]*}}%p[[P:[0-9]+]],
// PTX-NOT: setp.lt.s32
// PTX-SAME: selp.f32 {{[^;]*}}, %p[[P]];
// PTX-NOT: setp.lt.s32
// PTX-SAME: selp.f32 {{[^;]*}}, %p[[P]];
// PTX-NOT: setp.lt.s32
// PTX-SAME: selp.f32 {{[^;]*}}, %p[[P]];
// PTX-NOT: setp.lt.s32
// PTX-SAME: selp.f32 {{[^;]*}}, %p[[P]];
// PTX-NOT: setp.lt.s32
// PTX-SAME: ret;
module attributes {tile.num_warps = 4 : i32} {
func.func @known_multiple(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %ns = "tile.splat"(%n) : (i32) -> tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %z = arith.constant dense<0.0> : tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %w = arith.select %m, %v, %z : tensor<512xi1, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %op = "tile.addptr"(%os, %r) : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  "tile.store"(%op, %w) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
  return
}
}

// -----

// CHECK-LABEL: gpu.func @unknown_n
// CHECK-COUNT-4: arith.cmpi slt
// CHECK-NOT: arith.cmpi slt
// CHECK: gpu.return
module attributes {tile.num_warps = 4 : i32} {
func.func @unknown_n(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %ns = "tile.splat"(%n) : (i32) -> tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %r) : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %z = arith.constant dense<0.0> : tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %w = arith.select %m, %v, %z : tensor<512xi1, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %op = "tile.addptr"(%os, %r) : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  "tile.store"(%op, %w) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<512xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
  return
}
}
