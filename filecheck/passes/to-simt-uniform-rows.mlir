// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Two rows a program held in every thread's registers, columns walked by
// a loop: the offset `rows * stride + cols` is a uniform part (the row's)
// plus a per-thread one (the column's), so each address is built as
// `(x + row offset) + column`: one base a row, from the kernel's pointer,
// uniform across the warp, and the thread's column added to it. In PTX the
// loop computes the column's byte offset once (one `mul.wide`) and adds it
// to each row's base, computed before the loop.

// CHECK-LABEL: gpu.func @rows_in_registers
// CHECK: %[[R0:[0-9]+]] = arith.muli %{{[0-9]+}}, %arg3 : i32
// CHECK: %[[R1:[0-9]+]] = arith.muli %{{[0-9]+}}, %arg3 : i32
// CHECK: scf.for
// CHECK: %[[B0:[0-9]+]] = llvm.getelementptr %arg0[%[[R0]]]
// CHECK-NEXT: llvm.getelementptr %[[B0]][%[[COL:[0-9]+]]]
// CHECK: %[[B1:[0-9]+]] = llvm.getelementptr %arg0[%[[R1]]]
// CHECK-NEXT: llvm.getelementptr %[[B1]][%[[COL]]]
// CHECK: %[[Y0:[0-9]+]] = llvm.getelementptr %arg1[%[[R0]]]
// CHECK-NEXT: llvm.getelementptr %[[Y0]][%[[COL]]]
// PTX: .entry rows_in_registers(
// PTX-SAME: $L__BB0_2:\0A\09add.s32 \09%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};\0A\09mul.wide.s32 \09%rd[[C:[0-9]+]], %r{{[0-9]+}}, 4;\0A\09add.s64 \09%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd[[C]];\0A\09add.s64 \09%rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd[[C]];\0A\09ld.global.v4
module attributes {tile.num_warps = 4 : i32} {
func.func @rows_in_registers(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c512 = arith.constant 512 : i32
  %c2 = arith.constant 2 : i32
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %r0 = arith.muli %pid, %c2 : i32
  %rs = "tile.splat"(%r0) : (i32) -> tensor<2xi32>
  %ra = "tile.arange"() {end = 2 : i32, start = 0 : i32} : () -> tensor<2xi32>
  %rows = arith.addi %rs, %ra : tensor<2xi32>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<2xi32>
  %roff = arith.muli %rows, %ss : tensor<2xi32>
  %re = "tile.expand_dims"(%roff) {axis = 1 : i32} : (tensor<2xi32>) -> tensor<2x1xi32>
  %rb = "tile.broadcast"(%re) : (tensor<2x1xi32>) -> tensor<2x512xi32>
  %ca = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<2x512x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<2x512x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c512 : i32 {
    %is = "tile.splat"(%i) : (i32) -> tensor<512xi32>
    %cols = arith.addi %is, %ca : tensor<512xi32>
    %ce = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<512xi32>) -> tensor<1x512xi32>
    %cb = "tile.broadcast"(%ce) : (tensor<1x512xi32>) -> tensor<2x512xi32>
    %offs = arith.addi %rb, %cb : tensor<2x512xi32>
    %p = "tile.addptr"(%xs, %offs) : (tensor<2x512x!tile.ptr<f32>>, tensor<2x512xi32>) -> tensor<2x512x!tile.ptr<f32>>
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<2x512x!tile.ptr<f32>>) -> tensor<2x512xf32>
    %e = math.exp %v : tensor<2x512xf32>
    %q = "tile.addptr"(%ys, %offs) : (tensor<2x512x!tile.ptr<f32>>, tensor<2x512xi32>) -> tensor<2x512x!tile.ptr<f32>>
    "tile.store"(%q, %e) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x512x!tile.ptr<f32>>, tensor<2x512xf32>) -> ()
  }
  return
}
}

// -----

// Rows spread over lanes (64 rows, 4 warps): a row's offset differs from
// lane to lane, so the offsets stay one sum and one address each.
// CHECK-LABEL: gpu.func @rows_over_lanes
// CHECK: arith.muli %{{[0-9]+}}, %arg2 : i32
// CHECK: arith.muli %{{[0-9]+}}, %arg2 : i32
// CHECK: %[[OFF:[0-9]+]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK: llvm.getelementptr %arg0[%[[OFF]]]
// CHECK-NOT: llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}]
// CHECK: gpu.return
module attributes {tile.num_warps = 4 : i32} {
func.func @rows_over_lanes(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %ra = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<64xi32>
  %roff = arith.muli %ra, %ss : tensor<64xi32>
  %re = "tile.expand_dims"(%roff) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %rb = "tile.broadcast"(%re) : (tensor<64x1xi32>) -> tensor<64x16xi32>
  %ca = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %ce = "tile.expand_dims"(%ca) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
  %cb = "tile.broadcast"(%ce) : (tensor<1x16xi32>) -> tensor<64x16xi32>
  %offs = arith.addi %rb, %cb : tensor<64x16xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x16x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<64x16x!tile.ptr<f32>>, tensor<64x16xi32>) -> tensor<64x16x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x16x!tile.ptr<f32>>) -> tensor<64x16xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x16x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %offs) : (tensor<64x16x!tile.ptr<f32>>, tensor<64x16xi32>) -> tensor<64x16x!tile.ptr<f32>>
  "tile.store"(%q, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x16x!tile.ptr<f32>>, tensor<64x16xf32>) -> ()
  return
}
}
