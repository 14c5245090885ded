// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s --check-prefix=SIMT

// tile-vectorize sets tile.vector_width on each access: how many
// consecutive elements one thread moves at once, from the layout (what a
// thread holds contiguously) and the axis analysis (what the addresses
// prove: alignment, contiguity). A width of 1 is no attribute at all,
// and a width already on the op is replaced by what is proven.

// 16-byte aligned rows, four floats a thread: width 4, one 16-byte access.
// CHECK-LABEL: func.func @aligned
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
// CHECK: "tile.store"({{.*}}tile.vector_width = 4 : i32
// SIMT-LABEL: gpu.func @aligned
// SIMT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
module attributes {tile.num_warps = 1 : i32} {
func.func @aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%yp, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}
}

// -----

// Nothing known of the pointers' alignment: each element is its own
// access, and a width the input carried (here 4, which these addresses
// do not allow) is removed, not kept.
// CHECK-LABEL: func.func @stale_width
// CHECK-NOT: tile.vector_width
// CHECK: return
// SIMT-LABEL: gpu.func @stale_width
// SIMT-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// SIMT-NOT: vector<
module attributes {tile.num_warps = 1 : i32} {
func.func @stale_width(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false, tile.vector_width = 4 : i32} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%yp, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, tile.vector_width = 4 : i32} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}
}
