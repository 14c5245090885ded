// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Sharing by constancy along an axis other than a thread's contiguous
// one: a masked copy of [4, 2048] tiles (`rows < m` and `cols < n`, the
// way LayerNorm and softmax of several rows a program mask), on 8 warps
// laid along the columns, so each thread holds all four rows. With `m` a
// multiple of 16 and the rows starting at `pid * 4`, the row mask is one
// value over the four rows (the axis analysis' constancy 4 along axis 0)
// and each thread computes it once: one row compare, and one combined
// predicate per 4-column vector (2), shared by the four rows' loads and
// stores. Without the fact on `m`: four row compares and eight combined
// predicates, which the SASS (7 predicate registers) keeps in general
// registers (a LayerNorm of [4, 4096] f32 on 8 warps: 138 registers
// without the sharing, 108 with it; Triton's 128).

// CHECK-LABEL: gpu.func @row_mask_known
// CHECK: arith.cmpi slt, %{{.*}}, %arg2 : i32
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg2
// CHECK-COUNT-2: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NOT: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg2
// CHECK: gpu.return
// PTX-LABEL: .entry row_mask_known(
// PTX-SAME: and.pred
// PTX-SAME: and.pred
// PTX-NOT: and.pred
// PTX-SAME: ld.global.v4.f32
// PTX-SAME: st.global.v4.f32
// PTX-SAME: ret;
module attributes {tile.num_warps = 8 : i32} {
func.func @row_mask_known(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c4 = arith.constant 4 : i32
  %base = arith.muli %pid, %c4 : i32
  %r = "tile.arange"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<4xi32>
  %rows = arith.addi %bs, %r : tensor<4xi32>
  %ms = "tile.splat"(%m) : (i32) -> tensor<4xi32>
  %rm = arith.cmpi slt, %rows, %ms : tensor<4xi32>
  %c = "tile.arange"() {end = 2048 : i32, start = 0 : i32} : () -> tensor<2048xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<2048xi32>
  %cm = arith.cmpi slt, %c, %ns : tensor<2048xi32>
  %rm2 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<4xi1>) -> tensor<4x1xi1>
  %rmb = "tile.broadcast"(%rm2) : (tensor<4x1xi1>) -> tensor<4x2048xi1>
  %cm2 = "tile.expand_dims"(%cm) {axis = 0 : i32} : (tensor<2048xi1>) -> tensor<1x2048xi1>
  %cmb = "tile.broadcast"(%cm2) : (tensor<1x2048xi1>) -> tensor<4x2048xi1>
  %mask = arith.andi %rmb, %cmb : tensor<4x2048xi1>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<4xi32>
  %ro = arith.muli %rows, %ss : tensor<4xi32>
  %ro2 = "tile.expand_dims"(%ro) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %rob = "tile.broadcast"(%ro2) : (tensor<4x1xi32>) -> tensor<4x2048xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<4x2048xi32>
  %off = arith.addi %rob, %cb : tensor<4x2048xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<4x2048x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %off) : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<4x2048xf32>
  %v = "tile.load"(%xp, %mask, %z) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xi1>, tensor<4x2048xf32>) -> tensor<4x2048xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<4x2048x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f32>>
  "tile.store"(%yp, %v, %mask) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xf32>, tensor<4x2048xi1>) -> ()
  return
}
}

// -----

// CHECK-LABEL: gpu.func @row_mask_unknown
// CHECK-COUNT-4: arith.cmpi slt, %{{.*}}, %arg2 : i32
// CHECK-COUNT-8: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NOT: arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: gpu.return
module attributes {tile.num_warps = 8 : i32} {
func.func @row_mask_unknown(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c4 = arith.constant 4 : i32
  %base = arith.muli %pid, %c4 : i32
  %r = "tile.arange"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<4xi32>
  %rows = arith.addi %bs, %r : tensor<4xi32>
  %ms = "tile.splat"(%m) : (i32) -> tensor<4xi32>
  %rm = arith.cmpi slt, %rows, %ms : tensor<4xi32>
  %c = "tile.arange"() {end = 2048 : i32, start = 0 : i32} : () -> tensor<2048xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<2048xi32>
  %cm = arith.cmpi slt, %c, %ns : tensor<2048xi32>
  %rm2 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<4xi1>) -> tensor<4x1xi1>
  %rmb = "tile.broadcast"(%rm2) : (tensor<4x1xi1>) -> tensor<4x2048xi1>
  %cm2 = "tile.expand_dims"(%cm) {axis = 0 : i32} : (tensor<2048xi1>) -> tensor<1x2048xi1>
  %cmb = "tile.broadcast"(%cm2) : (tensor<1x2048xi1>) -> tensor<4x2048xi1>
  %mask = arith.andi %rmb, %cmb : tensor<4x2048xi1>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<4xi32>
  %ro = arith.muli %rows, %ss : tensor<4xi32>
  %ro2 = "tile.expand_dims"(%ro) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %rob = "tile.broadcast"(%ro2) : (tensor<4x1xi32>) -> tensor<4x2048xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<4x2048xi32>
  %off = arith.addi %rob, %cb : tensor<4x2048xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<4x2048x!tile.ptr<f32>>
  %xp = "tile.addptr"(%xs, %off) : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<4x2048xf32>
  %v = "tile.load"(%xp, %mask, %z) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xi1>, tensor<4x2048xf32>) -> tensor<4x2048xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<4x2048x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f32>>
  "tile.store"(%yp, %v, %mask) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x2048x!tile.ptr<f32>>, tensor<4x2048xf32>, tensor<4x2048xi1>) -> ()
  return
}
}

// -----

// The same copy through block pointers, both axes checked: with the
// block's row offset `pid * 4` and its extent `m` multiples of 4, a
// thread's four rows answer one bounds check, so each of the load and
// the store checks once per 4-column vector (2 each, 4 row compares in
// all before CSE; 16 without the fact on `m`), and the PTX combines
// three predicates (twelve without).

// CHECK-LABEL: gpu.func @block_rows_known
// CHECK-COUNT-4: arith.cmpi slt, %{{.*}}, %arg2 : i64
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg2 : i64
// CHECK: gpu.return
// PTX-LABEL: .entry block_rows_known(
// PTX-SAME: and.pred
// PTX-SAME: and.pred
// PTX-SAME: and.pred
// PTX-NOT: and.pred
// PTX-SAME: ret;
module attributes {tile.num_warps = 8 : i32} {
func.func @block_rows_known(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %stride: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c4 = arith.constant 4 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %row0 = arith.muli %pid, %c4 : i32
  %xb = "tile.make_block_ptr"(%x, %m, %n, %stride, %c1, %row0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<4x2048xf32>>
  %t = "tile.block_load"(%xb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<4x2048xf32>>) -> tensor<4x2048xf32>
  %yb = "tile.make_block_ptr"(%y, %m, %n, %stride, %c1, %row0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<4x2048xf32>>
  "tile.block_store"(%yb, %t) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<4x2048xf32>>, tensor<4x2048xf32>) -> ()
  return
}
}

// -----

// CHECK-LABEL: gpu.func @block_rows_unknown
// CHECK-COUNT-16: arith.cmpi slt, %{{.*}}, %arg2 : i64
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg2 : i64
// CHECK: gpu.return
module attributes {tile.num_warps = 8 : i32} {
func.func @block_rows_unknown(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64, %n: i64 {tile.divisibility = 16 : i32}, %stride: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c4 = arith.constant 4 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %row0 = arith.muli %pid, %c4 : i32
  %xb = "tile.make_block_ptr"(%x, %m, %n, %stride, %c1, %row0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<4x2048xf32>>
  %t = "tile.block_load"(%xb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<4x2048xf32>>) -> tensor<4x2048xf32>
  %yb = "tile.make_block_ptr"(%y, %m, %n, %stride, %c1, %row0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<4x2048xf32>>
  "tile.block_store"(%yb, %t) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<4x2048xf32>>, tensor<4x2048xf32>) -> ()
  return
}
}
