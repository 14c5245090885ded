// RUN: tile-opt %s --split-input-file --tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s --check-prefix=SIMT
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// tile-assign-layouts on tiles scanned along an axis other than their
// fastest (flash-linear-attention's chunked prefix sums: tl.cumsum(axis=0)
// of a loaded [BM, BN] tile). Two refinements of the accesses' layout:
// lanes along the scan axis move to the fastest axis while the vectors
// there stay at least 8 bytes (each is a shuffle step less), and the
// layout's repetitions along the scan axis go into each thread as
// consecutive elements, so that the scan has one chunk (each thread's run
// in registers, the lanes' and warps' totals combined once) where each
// repetition would be a chunk with its own warp totals through shared
// memory. Warps stay, and the fastest axis covers what it did.

// [64, 64] f32 on 4 warps: the loads' vectors of 4, 2x16 lanes, the warps
// down the rows cover 8 rows. The 2 lanes along the rows move to the
// columns (vectors of 2: 8 bytes, 32 lanes cover the 64 columns), and the
// 16 repetitions become 16 consecutive rows a thread. Load, scan and
// store share the layout (no conversion). In per-thread code: no
// shuffles; each thread stores its warp's totals of its 2 columns to
// shared memory, one barrier pair, and reads the 4 warps' totals of its 2
// columns (with 8 chunks and 2 lanes along the rows: 32 stores, 128
// loads and 36 shuffles).
// CHECK-LABEL: func.func @chunk_rows
// CHECK: "tile.load"{{.*}} -> tensor<64x64xf32, #tile.blocked<array<i32: 16, 2>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
// CHECK: "tile.scan"{{.*}} -> tensor<64x64xf32, #tile.blocked<array<i32: 16, 2>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
// CHECK-NOT: tile.convert_layout
// CHECK: "tile.store"
// SIMT-LABEL: gpu.func @chunk_rows
// SIMT-NOT: gpu.shuffle
// SIMT: gpu.barrier
// SIMT-COUNT-2: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// SIMT-NOT: !llvm.ptr<3>
// SIMT: gpu.barrier
// SIMT-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// SIMT-NOT: !llvm.ptr<3> -> f32
// SIMT-NOT: gpu.barrier
// SIMT-NOT: gpu.shuffle
// SIMT: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry chunk_rows
// PTX-SAME: ld.global
// PTX-SAME: bar.sync
// PTX-SAME: bar.sync
// PTX-SAME: st.global
module attributes {tile.num_warps = 4 : i32} {
func.func @chunk_rows(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %k = arith.constant dense<64> : tensor<64x1xi32>
  %row = arith.muli %r2, %k : tensor<64x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<64x1xi32>) -> tensor<64x64xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x64xi32>) -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}
}

// -----

// Reversed, bf16, [128, 32] on 8 warps: vectors of 8, 8x4 lanes, the
// warps cover 64 rows. Half the vector (8 bytes) frees 2 of the 8 lanes
// along the rows: 4x8 lanes and 8 warps cover 32 rows, 4 repetitions
// become 4 rows a thread. The 4 lanes left along the rows still shuffle
// (down, in reverse).
// CHECK-LABEL: func.func @chunk_rows_reverse
// CHECK: "tile.scan"{{.*}}reverse = true{{.*}} -> tensor<128x32xbf16, #tile.blocked<array<i32: 4, 4>, array<i32: 4, 8>, array<i32: 8, 1>, array<i32: 1, 0>>>
// SIMT-LABEL: gpu.func @chunk_rows_reverse
// SIMT-NOT: gpu.shuffle  up
// SIMT: gpu.shuffle  down
// SIMT: gpu.return
module attributes {tile.num_warps = 8 : i32} {
func.func @chunk_rows_reverse(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<128xi32>) -> tensor<128x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %k = arith.constant dense<32> : tensor<128x1xi32>
  %row = arith.muli %r2, %k : tensor<128x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<128x1xi32>) -> tensor<128x32xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x32xi32>) -> tensor<128x32xi32>
  %off = arith.addi %rb, %cb : tensor<128x32xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<bf16>) -> tensor<128x32x!tile.ptr<bf16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<128x32x!tile.ptr<bf16>>, tensor<128x32xi32>) -> tensor<128x32x!tile.ptr<bf16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x32x!tile.ptr<bf16>>) -> tensor<128x32xbf16>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = true} : (tensor<128x32xbf16>) -> tensor<128x32xbf16>
  %os = "tile.splat"(%y) : (!tile.ptr<bf16>) -> tensor<128x32x!tile.ptr<bf16>>
  %o = "tile.addptr"(%os, %off) : (tensor<128x32x!tile.ptr<bf16>>, tensor<128x32xi32>) -> tensor<128x32x!tile.ptr<bf16>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x32x!tile.ptr<bf16>>, tensor<128x32xbf16>) -> ()
  return
}
}

// -----

// Narrow rows, [128, 16] f32 on 2 warps: vectors of 4, 8x4 lanes, 2 warps
// cover 16 rows. Vectors of 2 (8 bytes, no narrower) take 2 of the lanes
// along the rows: 4x8 lanes and 2 warps cover 8 rows, 16 repetitions
// become 16 rows a thread.
// CHECK-LABEL: func.func @chunk_rows_narrow
// CHECK: "tile.scan"{{.*}} -> tensor<128x16xf32, #tile.blocked<array<i32: 16, 2>, array<i32: 4, 8>, array<i32: 2, 1>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 2 : i32} {
func.func @chunk_rows_narrow(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<128xi32>) -> tensor<128x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
  %k = arith.constant dense<16> : tensor<128x1xi32>
  %row = arith.muli %r2, %k : tensor<128x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<128x1xi32>) -> tensor<128x16xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x16xi32>) -> tensor<128x16xi32>
  %off = arith.addi %rb, %cb : tensor<128x16xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x16x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<128x16x!tile.ptr<f32>>, tensor<128x16xi32>) -> tensor<128x16x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x16x!tile.ptr<f32>>) -> tensor<128x16xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<128x16xf32>) -> tensor<128x16xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x16x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<128x16x!tile.ptr<f32>>, tensor<128x16xi32>) -> tensor<128x16x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x16x!tile.ptr<f32>>, tensor<128x16xf32>) -> ()
  return
}
}

// -----

// Left alone: a tile the layout covers along the scan axis without
// repetitions, with one element a thread along its rows ([16, 8] i16: 4x8
// lanes and 4 warps cover the 16 rows; no vector to narrow).
// CHECK-LABEL: func.func @rows_fit
// CHECK: "tile.scan"{{.*}} -> tensor<16x8xi16, #tile.blocked<array<i32: 1, 1>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 4 : i32} {
func.func @rows_fit(%x: !tile.ptr<i16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<i16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<8xi32>) -> tensor<1x8xi32>
  %k = arith.constant dense<8> : tensor<16x1xi32>
  %row = arith.muli %r2, %k : tensor<16x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<16x1xi32>) -> tensor<16x8xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x8xi32>) -> tensor<16x8xi32>
  %off = arith.addi %rb, %cb : tensor<16x8xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<i16>) -> tensor<16x8x!tile.ptr<i16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<16x8x!tile.ptr<i16>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<i16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x8x!tile.ptr<i16>>) -> tensor<16x8xi16>
  %s = "tile.scan"(%v) {kind = "max", axis = 0 : i32, reverse = true} : (tensor<16x8xi16>) -> tensor<16x8xi16>
  %os = "tile.splat"(%y) : (!tile.ptr<i16>) -> tensor<16x8x!tile.ptr<i16>>
  %o = "tile.addptr"(%os, %off) : (tensor<16x8x!tile.ptr<i16>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<i16>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x8x!tile.ptr<i16>>, tensor<16x8xi16>) -> ()
  return
}
}

// -----

// Left alone: a scan along the fastest axis keeps its vectors of 4 and
// its repetitions (8 of 128 along each row of 1024): runs of 32 there
// would split each warp's accesses into strided pieces.
// CHECK-LABEL: func.func @along_fastest
// CHECK: "tile.scan"{{.*}} -> tensor<8x1024xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @along_fastest(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<8xi32>) -> tensor<8x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<1024xi32>) -> tensor<1x1024xi32>
  %k = arith.constant dense<1024> : tensor<8x1xi32>
  %row = arith.muli %r2, %k : tensor<8x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<8x1xi32>) -> tensor<8x1024xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x1024xi32>) -> tensor<8x1024xi32>
  %off = arith.addi %rb, %cb : tensor<8x1024xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<8x1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<8x1024x!tile.ptr<f32>>, tensor<8x1024xi32>) -> tensor<8x1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x1024x!tile.ptr<f32>>) -> tensor<8x1024xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 1 : i32, reverse = false} : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<8x1024x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<8x1024x!tile.ptr<f32>>, tensor<8x1024xi32>) -> tensor<8x1024x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x1024x!tile.ptr<f32>>, tensor<8x1024xf32>) -> ()
  return
}
}

// -----

// Lanes move off the axis even where the layout had no repetitions:
// [8, 128] bf16 on 4 warps (vectors of 8, 2x16 lanes, 4 warps cover the 8
// rows) takes vectors of 4 and 32 lanes along the columns; its 4 warps
// then cover 4 rows, 2 a thread. No shuffles remain.
// CHECK-LABEL: func.func @lanes_only
// CHECK: "tile.scan"{{.*}} -> tensor<8x128xbf16, #tile.blocked<array<i32: 2, 4>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
// SIMT-LABEL: gpu.func @lanes_only
// SIMT-NOT: gpu.shuffle
// SIMT: gpu.return
module attributes {tile.num_warps = 4 : i32} {
func.func @lanes_only(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 8 : i32} : () -> tensor<8xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<8xi32>) -> tensor<8x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
  %k = arith.constant dense<128> : tensor<8x1xi32>
  %row = arith.muli %r2, %k : tensor<8x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<8x1xi32>) -> tensor<8x128xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x128xi32>) -> tensor<8x128xi32>
  %off = arith.addi %rb, %cb : tensor<8x128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<bf16>) -> tensor<8x128x!tile.ptr<bf16>>
  %p = "tile.addptr"(%ps, %off) : (tensor<8x128x!tile.ptr<bf16>>, tensor<8x128xi32>) -> tensor<8x128x!tile.ptr<bf16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x128x!tile.ptr<bf16>>) -> tensor<8x128xbf16>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<8x128xbf16>) -> tensor<8x128xbf16>
  %os = "tile.splat"(%y) : (!tile.ptr<bf16>) -> tensor<8x128x!tile.ptr<bf16>>
  %o = "tile.addptr"(%os, %off) : (tensor<8x128x!tile.ptr<bf16>>, tensor<8x128xi32>) -> tensor<8x128x!tile.ptr<bf16>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x128x!tile.ptr<bf16>>, tensor<8x128xbf16>) -> ()
  return
}
}

// -----

// A tile the lanes and warps cover twice along the scan axis ([4, 64] f32
// on 4 warps: 2 lanes and 4 warps for 4 rows, each row held by two
// threads) loses the copies when its 2 lanes move to the columns (vectors
// of 2): 4 warps, one row each. Nothing to take in a thread.
// CHECK-LABEL: func.func @copies_along_axis
// CHECK: "tile.scan"{{.*}} -> tensor<4x64xf32, #tile.blocked<array<i32: 1, 2>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>>
// SIMT-LABEL: gpu.func @copies_along_axis
// SIMT-NOT: gpu.shuffle
// SIMT: gpu.return
module attributes {tile.num_warps = 4 : i32} {
func.func @copies_along_axis(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %k = arith.constant dense<64> : tensor<4x1xi32>
  %row = arith.muli %r2, %k : tensor<4x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<4x1xi32>) -> tensor<4x64xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x64xi32>) -> tensor<4x64xi32>
  %off = arith.addi %rb, %cb : tensor<4x64xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<4x64x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<4x64x!tile.ptr<f32>>, tensor<4x64xi32>) -> tensor<4x64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x64x!tile.ptr<f32>>) -> tensor<4x64xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<4x64x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<4x64x!tile.ptr<f32>>, tensor<4x64xi32>) -> tensor<4x64x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4x64x!tile.ptr<f32>>, tensor<4x64xf32>) -> ()
  return
}
}

// -----

// Left alone: copies with no vector to narrow. [2, 64] f32 on 8 warps has
// one element a thread and its warps 4 along the 2 rows (each row held by
// two warps); nothing moves and nothing is taken in.
// CHECK-LABEL: func.func @copies_stay
// CHECK: "tile.scan"{{.*}} -> tensor<2x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 4, 2>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @copies_stay(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 2 : i32} : () -> tensor<2xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<2xi32>) -> tensor<2x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %k = arith.constant dense<64> : tensor<2x1xi32>
  %row = arith.muli %r2, %k : tensor<2x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<2x1xi32>) -> tensor<2x64xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x64xi32>) -> tensor<2x64xi32>
  %off = arith.addi %rb, %cb : tensor<2x64xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<2x64x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<2x64x!tile.ptr<f32>>, tensor<2x64xi32>) -> tensor<2x64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x64x!tile.ptr<f32>>) -> tensor<2x64xf32>
  %s = "tile.scan"(%v) {kind = "sum", axis = 0 : i32, reverse = false} : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<2x64x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %off) : (tensor<2x64x!tile.ptr<f32>>, tensor<2x64xi32>) -> tensor<2x64x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x64x!tile.ptr<f32>>, tensor<2x64xf32>) -> ()
  return
}
}
