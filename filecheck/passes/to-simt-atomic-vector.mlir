// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx-ptx81 | FileCheck %s --check-prefix=PTX
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize | FileCheck %s --check-prefix=VEC
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s --check-prefix=SM80

// An f32 atomic add through 16-byte aligned, contiguous pointers moves
// four elements per instruction (atom.add.v4.f32) where the module targets
// sm_90 with PTX 8.1; tile-vectorize gives the width, as for loads. Other
// kinds and types, and older targets, stay one element per atomic.

// 1024 f32 on 4 warps, laid out by the load (4 consecutive elements a
// thread, twice): two v4 atomics, each under the mask of its run.
// CHECK-LABEL: gpu.func @add_v4
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "@$13 atom.relaxed.gpu.global.add.v4.f32 {$0, $1, $2, $3}, [ $8 ], {$9, $10, $11, $12};"
// CHECK-NOT: atom.relaxed.gpu.global.add.f32
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .version 8.1
// PTX-SAME: .entry add_v4
// PTX-SAME: atom.relaxed.gpu.global.add.v4.f32
// PTX-NOT: atom.relaxed.gpu.global.add.f32
// PTX 8.1 alone is not enough: on sm_80 the same add is one element an
// atomic, eight a thread.
// SM80-LABEL: gpu.func @add_v4(
// SM80-NOT: add.v4.f32
// SM80-COUNT-8: atom.relaxed.gpu.global.add.f32 $0, [ $2 ], $3;
// SM80-NOT: atom.
// SM80: gpu.return
module attributes {tile.compute_capability = 90 : i32, tile.ptx_version = 81 : i32} {
func.func @add_v4(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  %old = "tile.atomic_rmw"(%p, %v, %m) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> tensor<1024xf32>
  return
}
}

// -----

// acq_rel (Triton's default) with the old values unread, as a split-K sum
// writes it: a batch, fenced once on each side, each run a red.relaxed
// with no old value.
// CHECK-LABEL: gpu.func @add_v4_acq_rel
// CHECK: "fence.acq_rel.gpu;"
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "@$5 red.relaxed.gpu.global.add.v4.f32 [ $0 ], {$1, $2, $3, $4};"
// CHECK: "fence.acq_rel.gpu;"
// CHECK-NOT: atom.
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry add_v4_acq_rel
// PTX-SAME: fence.acq_rel.gpu;
// PTX-SAME: red.relaxed.gpu.global.add.v4.f32
// PTX-SAME: fence.acq_rel.gpu;
module attributes {tile.compute_capability = 90 : i32, tile.ptx_version = 81 : i32} {
func.func @add_v4_acq_rel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  %old = "tile.atomic_rmw"(%p, %v, %m) {kind = "add", sem = "acq_rel", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> tensor<1024xf32>
  return
}
}

// -----

// The same without a PTX version on the module, and an i32 add with one:
// one element per atomic.
// CHECK-LABEL: gpu.func @add_scalar
// CHECK-NOT: .v4.f32
// CHECK: atom.relaxed.gpu.global.add.f32
// CHECK-NOT: .v4.f32
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry add_scalar
// PTX-SAME: atom.relaxed.gpu.global.add.f32
func.func @add_scalar(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  %old = "tile.atomic_rmw"(%p, %v) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> tensor<1024xf32>
  return
}

// -----

// CHECK-LABEL: gpu.func @add_i32
// CHECK-NOT: .v4
// CHECK: atom.relaxed.gpu.global.add.s32
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry add_i32
module attributes {tile.compute_capability = 90 : i32, tile.ptx_version = 81 : i32} {
func.func @add_i32(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<1024x!tile.ptr<i32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<i32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!tile.ptr<i32>>) -> tensor<1024xi32>
  %old = "tile.atomic_rmw"(%p, %v) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>) -> tensor<1024xi32>
  return
}
}

// -----

// tile-vectorize gives a width to the atomic adds only (the kinds with a
// vector form): an f32 max through the same contiguous, aligned pointers
// gets none, while its load does.
// VEC-LABEL: func.func @max_no_width
// VEC: "tile.load"({{.*}}tile.vector_width = 4 : i32
// VEC: "tile.atomic_rmw"
// VEC-NOT: tile.vector_width
// VEC-SAME: -> tensor<1024xf32
// CHECK-LABEL: gpu.func @max_no_width
// CHECK-NOT: .v4
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry max_no_width
module attributes {tile.compute_capability = 90 : i32, tile.ptx_version = 81 : i32} {
func.func @max_no_width(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  %old = "tile.atomic_rmw"(%p, %v) {kind = "max", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> tensor<1024xf32>
  return
}
}
