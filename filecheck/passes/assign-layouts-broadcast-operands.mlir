// RUN: tile-opt %s --split-input-file --tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Where tile-assign-layouts puts the warps of a tile reduced along its
// rows (a LayerNorm of several rows a program: two row sums) when
// operands loaded once a column are broadcast over the rows (`w` and `b`,
// `x_hat * w[None, :] + b[None, :]`). Warps over the rows make each row
// reduction cheaper, but each warp row holds its own copy of every such
// operand: the split with the least cost per thread wins, at 0.3 for
// each element a thread holds of each broadcast operand and 1 for each
// row it reduces, per reduction (`reduced_warps.rs`).

// [4, 2048] on 8 warps with `w` and `b`: [4, 2] costs 0.3 * 2 * 32 + 2 * 1
// = 21.2 a thread, [2, 4] 9.6 + 4 = 13.6, [1, 8] 4.8 + 8 = 12.8: the warps
// go along the rows, as Triton lays this tile out.
// CHECK-LABEL: func.func @two_operands
// Lowered, each thread loads its four rows of `x` and one vector of
// each of `w` and `b` (at [4, 2] it was four of each: twelve loads).
// PTX-LABEL: .entry two_operands
// PTX-COUNT-6: ld.global.v4.b32
// PTX-NOT: ld.global
// PTX-SAME: ret;
// CHECK: "tile.load"{{.*}} -> tensor<4x2048xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>
// CHECK: "tile.reduce"{{.*}} -> tensor<4xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 8>, array<i32: 1, 32>, array<i32: 1, 8>, array<i32: 1, 0>>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @two_operands(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %w: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 2048 : i32} : () -> tensor<2048xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %k = arith.constant dense<2048> : tensor<4x1xi32>
  %row = arith.muli %r2, %k : tensor<4x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<4x1xi32>) -> tensor<4x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<4x2048xi32>
  %off = arith.addi %rb, %cb : tensor<4x2048xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<4x2048x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f16>>
  %v16 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x2048x!tile.ptr<f16>>) -> tensor<4x2048xf16>
  %v = arith.extf %v16 : tensor<4x2048xf16> to tensor<4x2048xf32>
  %s = "tile.reduce"(%v) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x2048xf32>) -> tensor<4xf32>
  %s2 = "tile.expand_dims"(%s) {axis = 1 : i32} : (tensor<4xf32>) -> tensor<4x1xf32>
  %sb = "tile.broadcast"(%s2) : (tensor<4x1xf32>) -> tensor<4x2048xf32>
  %xc = arith.subf %v, %sb : tensor<4x2048xf32>
  %sq = arith.mulf %xc, %xc : tensor<4x2048xf32>
  %q = "tile.reduce"(%sq) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x2048xf32>) -> tensor<4xf32>
  %q2 = "tile.expand_dims"(%q) {axis = 1 : i32} : (tensor<4xf32>) -> tensor<4x1xf32>
  %qb = "tile.broadcast"(%q2) : (tensor<4x1xf32>) -> tensor<4x2048xf32>
  %acc0 = arith.mulf %xc, %qb : tensor<4x2048xf32>
  %ws = "tile.splat"(%w) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %wp = "tile.addptr"(%ws, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %wv = "tile.load"(%wp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %wf = arith.extf %wv : tensor<2048xf16> to tensor<2048xf32>
  %w2 = "tile.expand_dims"(%wf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %wb = "tile.broadcast"(%w2) : (tensor<1x2048xf32>) -> tensor<4x2048xf32>
  %acc1 = arith.mulf %acc0, %wb : tensor<4x2048xf32>
  %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %bp = "tile.addptr"(%bs, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %bv = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %bf = arith.extf %bv : tensor<2048xf16> to tensor<2048xf32>
  %b2 = "tile.expand_dims"(%bf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %bb = "tile.broadcast"(%b2) : (tensor<1x2048xf32>) -> tensor<4x2048xf32>
  %acc2 = arith.addf %acc1, %bb : tensor<4x2048xf32>
  %o16 = arith.truncf %acc2 : tensor<4x2048xf32> to tensor<4x2048xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<4x2048x!tile.ptr<f16>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f16>>
  "tile.store"(%yp, %o16) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xf16>) -> ()
  return
}
}

// -----

// One broadcast operand: [4, 2] costs 9.6 + 2, [2, 4] 4.8 + 4, [1, 8]
// 2.4 + 8: the split in between.
// CHECK-LABEL: func.func @one_operand
// CHECK: "tile.load"{{.*}} -> tensor<4x2048xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 1, 32>, array<i32: 2, 4>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @one_operand(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %w: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 2048 : i32} : () -> tensor<2048xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %k = arith.constant dense<2048> : tensor<4x1xi32>
  %row = arith.muli %r2, %k : tensor<4x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<4x1xi32>) -> tensor<4x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<4x2048xi32>
  %off = arith.addi %rb, %cb : tensor<4x2048xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<4x2048x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f16>>
  %v16 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x2048x!tile.ptr<f16>>) -> tensor<4x2048xf16>
  %v = arith.extf %v16 : tensor<4x2048xf16> to tensor<4x2048xf32>
  %s = "tile.reduce"(%v) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x2048xf32>) -> tensor<4xf32>
  %s2 = "tile.expand_dims"(%s) {axis = 1 : i32} : (tensor<4xf32>) -> tensor<4x1xf32>
  %sb = "tile.broadcast"(%s2) : (tensor<4x1xf32>) -> tensor<4x2048xf32>
  %xc = arith.subf %v, %sb : tensor<4x2048xf32>
  %sq = arith.mulf %xc, %xc : tensor<4x2048xf32>
  %q = "tile.reduce"(%sq) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x2048xf32>) -> tensor<4xf32>
  %q2 = "tile.expand_dims"(%q) {axis = 1 : i32} : (tensor<4xf32>) -> tensor<4x1xf32>
  %qb = "tile.broadcast"(%q2) : (tensor<4x1xf32>) -> tensor<4x2048xf32>
  %acc0 = arith.mulf %xc, %qb : tensor<4x2048xf32>
  %ws = "tile.splat"(%w) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %wp = "tile.addptr"(%ws, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %wv = "tile.load"(%wp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %wf = arith.extf %wv : tensor<2048xf16> to tensor<2048xf32>
  %w2 = "tile.expand_dims"(%wf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %wb = "tile.broadcast"(%w2) : (tensor<1x2048xf32>) -> tensor<4x2048xf32>
  %acc1 = arith.mulf %acc0, %wb : tensor<4x2048xf32>
  %o16 = arith.truncf %acc1 : tensor<4x2048xf32> to tensor<4x2048xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<4x2048x!tile.ptr<f16>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f16>>
  "tile.store"(%yp, %o16) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xf16>) -> ()
  return
}
}

// -----

// What is broadcast is not loaded (the columns' indices as floats): the
// warps go over the rows as far as they can, each warp a row.
// CHECK-LABEL: func.func @nothing_loaded
// CHECK: "tile.load"{{.*}} -> tensor<4x2048xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 1, 32>, array<i32: 4, 2>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @nothing_loaded(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %w: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 2048 : i32} : () -> tensor<2048xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %k = arith.constant dense<2048> : tensor<4x1xi32>
  %row = arith.muli %r2, %k : tensor<4x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<4x1xi32>) -> tensor<4x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<4x2048xi32>
  %off = arith.addi %rb, %cb : tensor<4x2048xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<4x2048x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f16>>
  %v16 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x2048x!tile.ptr<f16>>) -> tensor<4x2048xf16>
  %v = arith.extf %v16 : tensor<4x2048xf16> to tensor<4x2048xf32>
  %s = "tile.reduce"(%v) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x2048xf32>) -> tensor<4xf32>
  %s2 = "tile.expand_dims"(%s) {axis = 1 : i32} : (tensor<4xf32>) -> tensor<4x1xf32>
  %sb = "tile.broadcast"(%s2) : (tensor<4x1xf32>) -> tensor<4x2048xf32>
  %xc = arith.subf %v, %sb : tensor<4x2048xf32>
  %sq = arith.mulf %xc, %xc : tensor<4x2048xf32>
  %q = "tile.reduce"(%sq) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<4x2048xf32>) -> tensor<4xf32>
  %q2 = "tile.expand_dims"(%q) {axis = 1 : i32} : (tensor<4xf32>) -> tensor<4x1xf32>
  %qb = "tile.broadcast"(%q2) : (tensor<4x1xf32>) -> tensor<4x2048xf32>
  %acc0 = arith.mulf %xc, %qb : tensor<4x2048xf32>
  %wf = arith.sitofp %c : tensor<2048xi32> to tensor<2048xf32>
  %w2 = "tile.expand_dims"(%wf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %wb = "tile.broadcast"(%w2) : (tensor<1x2048xf32>) -> tensor<4x2048xf32>
  %acc1 = arith.mulf %acc0, %wb : tensor<4x2048xf32>
  %bf = arith.sitofp %c : tensor<2048xi32> to tensor<2048xf32>
  %b2 = "tile.expand_dims"(%bf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %bb = "tile.broadcast"(%b2) : (tensor<1x2048xf32>) -> tensor<4x2048xf32>
  %acc2 = arith.addf %acc1, %bb : tensor<4x2048xf32>
  %o16 = arith.truncf %acc2 : tensor<4x2048xf32> to tensor<4x2048xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<4x2048x!tile.ptr<f16>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xi32>) -> tensor<4x2048x!tile.ptr<f16>>
  "tile.store"(%yp, %o16) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x2048x!tile.ptr<f16>>, tensor<4x2048xf16>) -> ()
  return
}
}

// -----

// As many rows as warps ([8, 2048] on 8 warps): each warp reduces whole
// rows, without shared memory or a barrier, and keeps them ([8, 1]) in
// spite of the copies of `w` and `b`.
// CHECK-LABEL: func.func @whole_rows
// Lowered, no barrier: the reductions never leave the warp.
// PTX-LABEL: .entry whole_rows
// PTX-NOT: bar.sync
// PTX-SAME: ret;
// CHECK: "tile.load"{{.*}} -> tensor<8x2048xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @whole_rows(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %w: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 2048 : i32} : () -> tensor<2048xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<8xi32>) -> tensor<8x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %k = arith.constant dense<2048> : tensor<8x1xi32>
  %row = arith.muli %r2, %k : tensor<8x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<8x1xi32>) -> tensor<8x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<8x2048xi32>
  %off = arith.addi %rb, %cb : tensor<8x2048xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<8x2048x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<8x2048x!tile.ptr<f16>>, tensor<8x2048xi32>) -> tensor<8x2048x!tile.ptr<f16>>
  %v16 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x2048x!tile.ptr<f16>>) -> tensor<8x2048xf16>
  %v = arith.extf %v16 : tensor<8x2048xf16> to tensor<8x2048xf32>
  %s = "tile.reduce"(%v) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<8x2048xf32>) -> tensor<8xf32>
  %s2 = "tile.expand_dims"(%s) {axis = 1 : i32} : (tensor<8xf32>) -> tensor<8x1xf32>
  %sb = "tile.broadcast"(%s2) : (tensor<8x1xf32>) -> tensor<8x2048xf32>
  %xc = arith.subf %v, %sb : tensor<8x2048xf32>
  %sq = arith.mulf %xc, %xc : tensor<8x2048xf32>
  %q = "tile.reduce"(%sq) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<8x2048xf32>) -> tensor<8xf32>
  %q2 = "tile.expand_dims"(%q) {axis = 1 : i32} : (tensor<8xf32>) -> tensor<8x1xf32>
  %qb = "tile.broadcast"(%q2) : (tensor<8x1xf32>) -> tensor<8x2048xf32>
  %acc0 = arith.mulf %xc, %qb : tensor<8x2048xf32>
  %ws = "tile.splat"(%w) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %wp = "tile.addptr"(%ws, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %wv = "tile.load"(%wp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %wf = arith.extf %wv : tensor<2048xf16> to tensor<2048xf32>
  %w2 = "tile.expand_dims"(%wf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %wb = "tile.broadcast"(%w2) : (tensor<1x2048xf32>) -> tensor<8x2048xf32>
  %acc1 = arith.mulf %acc0, %wb : tensor<8x2048xf32>
  %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %bp = "tile.addptr"(%bs, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %bv = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %bf = arith.extf %bv : tensor<2048xf16> to tensor<2048xf32>
  %b2 = "tile.expand_dims"(%bf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %bb = "tile.broadcast"(%b2) : (tensor<1x2048xf32>) -> tensor<8x2048xf32>
  %acc2 = arith.addf %acc1, %bb : tensor<8x2048xf32>
  %o16 = arith.truncf %acc2 : tensor<8x2048xf32> to tensor<8x2048xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<8x2048x!tile.ptr<f16>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<8x2048x!tile.ptr<f16>>, tensor<8x2048xi32>) -> tensor<8x2048x!tile.ptr<f16>>
  "tile.store"(%yp, %o16) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x2048x!tile.ptr<f16>>, tensor<8x2048xf16>) -> ()
  return
}
}

// -----

// A block of 32 warps keeps every warp row it can, operands or not
// ([8, 2048]: [8, 4]).
// CHECK-LABEL: func.func @whole_sm_block
// CHECK: "tile.load"{{.*}} -> tensor<8x2048xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 1, 32>, array<i32: 8, 4>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 32 : i32} {
func.func @whole_sm_block(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %w: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 2048 : i32} : () -> tensor<2048xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<8xi32>) -> tensor<8x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<2048xi32>) -> tensor<1x2048xi32>
  %k = arith.constant dense<2048> : tensor<8x1xi32>
  %row = arith.muli %r2, %k : tensor<8x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<8x1xi32>) -> tensor<8x2048xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x2048xi32>) -> tensor<8x2048xi32>
  %off = arith.addi %rb, %cb : tensor<8x2048xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<8x2048x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<8x2048x!tile.ptr<f16>>, tensor<8x2048xi32>) -> tensor<8x2048x!tile.ptr<f16>>
  %v16 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x2048x!tile.ptr<f16>>) -> tensor<8x2048xf16>
  %v = arith.extf %v16 : tensor<8x2048xf16> to tensor<8x2048xf32>
  %s = "tile.reduce"(%v) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<8x2048xf32>) -> tensor<8xf32>
  %s2 = "tile.expand_dims"(%s) {axis = 1 : i32} : (tensor<8xf32>) -> tensor<8x1xf32>
  %sb = "tile.broadcast"(%s2) : (tensor<8x1xf32>) -> tensor<8x2048xf32>
  %xc = arith.subf %v, %sb : tensor<8x2048xf32>
  %sq = arith.mulf %xc, %xc : tensor<8x2048xf32>
  %q = "tile.reduce"(%sq) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<8x2048xf32>) -> tensor<8xf32>
  %q2 = "tile.expand_dims"(%q) {axis = 1 : i32} : (tensor<8xf32>) -> tensor<8x1xf32>
  %qb = "tile.broadcast"(%q2) : (tensor<8x1xf32>) -> tensor<8x2048xf32>
  %acc0 = arith.mulf %xc, %qb : tensor<8x2048xf32>
  %ws = "tile.splat"(%w) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %wp = "tile.addptr"(%ws, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %wv = "tile.load"(%wp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %wf = arith.extf %wv : tensor<2048xf16> to tensor<2048xf32>
  %w2 = "tile.expand_dims"(%wf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %wb = "tile.broadcast"(%w2) : (tensor<1x2048xf32>) -> tensor<8x2048xf32>
  %acc1 = arith.mulf %acc0, %wb : tensor<8x2048xf32>
  %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<2048x!tile.ptr<f16>>
  %bp = "tile.addptr"(%bs, %c) : (tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>) -> tensor<2048x!tile.ptr<f16>>
  %bv = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2048x!tile.ptr<f16>>) -> tensor<2048xf16>
  %bf = arith.extf %bv : tensor<2048xf16> to tensor<2048xf32>
  %b2 = "tile.expand_dims"(%bf) {axis = 0 : i32} : (tensor<2048xf32>) -> tensor<1x2048xf32>
  %bb = "tile.broadcast"(%b2) : (tensor<1x2048xf32>) -> tensor<8x2048xf32>
  %acc2 = arith.addf %acc1, %bb : tensor<8x2048xf32>
  %o16 = arith.truncf %acc2 : tensor<8x2048xf32> to tensor<8x2048xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<8x2048x!tile.ptr<f16>>
  %yp = "tile.addptr"(%ys, %off) : (tensor<8x2048x!tile.ptr<f16>>, tensor<8x2048xi32>) -> tensor<8x2048x!tile.ptr<f16>>
  "tile.store"(%yp, %o16) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x2048x!tile.ptr<f16>>, tensor<8x2048xf16>) -> ()
  return
}
}
