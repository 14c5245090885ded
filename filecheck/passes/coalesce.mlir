// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize | FileCheck %s

// Coalescing: tile-assign-layouts gives each load and store the layout the
// axis analysis finds best (order from contiguity or the block pointer's
// order, 16 bytes per thread along the fastest axis where alignment,
// contiguity and the mask allow), and tile-vectorize records how many
// elements each access moves (tile.vector_width; absent means one).

// 1-D contiguous, 16-byte aligned pointer, n a multiple of 16: four f32 per
// thread and per access.
// CHECK-LABEL: func.func @contiguous_1d
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32{{.*}} -> tensor<1024xf32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: "tile.store"({{.*}}tile.vector_width = 4 : i32
func.func @contiguous_1d(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c1024 = arith.constant 1024 : i32
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %base = arith.muli %pid, %c1024 : i32
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}

// -----

// What it leaves alone: n of unknown divisibility may end a row inside any
// vector, so the masked accesses move one element each, one per thread
// (perfectly coalesced scalars).
// CHECK-LABEL: func.func @unaligned_mask
// CHECK: "tile.load"(
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<1024xf32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: "tile.store"(
// CHECK-NOT: tile.vector_width
// CHECK-SAME: : (
func.func @unaligned_mask(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}

// -----

// Unaligned base: a pointer known only to be a multiple of 8 bytes gives
// 8-byte (two f32) accesses; one with no divisibility fact gives scalars.
// CHECK-LABEL: func.func @unaligned_base
// CHECK: "tile.load"({{.*}}tile.vector_width = 2 : i32{{.*}} -> tensor<256xf32, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: "tile.store"(
// CHECK-NOT: tile.vector_width
// CHECK-SAME: : (
func.func @unaligned_base(%x: !tile.ptr<f32> {tile.divisibility = 8 : i32}, %y: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  "tile.store"(%q, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  return
}

// -----

// 2-D row-major: offsets rows[:, None] * stride + cols[None, :] with a
// stride that is a multiple of 16 run along axis 1, so axis 1 is fastest
// and each thread holds four f32 of a row; 16 threads span the 64 columns.
// CHECK-LABEL: func.func @row_major_2d
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32{{.*}} -> tensor<16x64xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 2, 16>, array<i32: 4, 1>, array<i32: 1, 0>>>
func.func @row_major_2d(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %rows = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %cols = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %r2 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %c2 = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<16x1xi32>
  %ro = arith.muli %r2, %ss : tensor<16x1xi32>
  %rb = "tile.broadcast"(%ro) : (tensor<16x1xi32>) -> tensor<16x64xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x64xi32>) -> tensor<16x64xi32>
  %offs = arith.addi %rb, %cb : tensor<16x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<16x64x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>) -> tensor<16x64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x64x!tile.ptr<f32>>) -> tensor<16x64xf32>
  %e = math.exp %v : tensor<16x64xf32>
  "tile.store"(%p, %e) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// Strided x[:, ::2]: the column offsets are cols * 2, so nothing runs
// consecutively along axis 1: one element per access, and threads spread
// one per column.
// CHECK-LABEL: func.func @strided_columns
// CHECK: "tile.load"(
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<16x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>
func.func @strided_columns(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %two = arith.constant dense<2> : tensor<1x64xi32>
  %rows = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %cols = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %r2 = "tile.expand_dims"(%rows) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %c2 = "tile.expand_dims"(%cols) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %cs = arith.muli %c2, %two : tensor<1x64xi32>
  %ss = "tile.splat"(%stride) : (i32) -> tensor<16x1xi32>
  %ro = arith.muli %r2, %ss : tensor<16x1xi32>
  %rb = "tile.broadcast"(%ro) : (tensor<16x1xi32>) -> tensor<16x64xi32>
  %cb = "tile.broadcast"(%cs) : (tensor<1x64xi32>) -> tensor<16x64xi32>
  %offs = arith.addi %rb, %cb : tensor<16x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<16x64x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>) -> tensor<16x64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x64x!tile.ptr<f32>>) -> tensor<16x64xf32>
  %e = math.exp %v : tensor<16x64xf32>
  "tile.store"(%p, %e) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// Virtual transpose: a block pointer with strides (1, s) and order (0, 1)
// is read with axis 0 fastest, four f32 per access down a column; the
// store through a row-major block pointer (order (1, 0)) keeps its own
// layout, and the tile is converted between the two.
// CHECK-LABEL: func.func @virtual_transpose
// CHECK: %[[T:.*]] = "tile.block_load"({{.*}}tile.vector_width = 4 : i32{{.*}} -> tensor<64x32xf32, #tile.blocked<array<i32: 4, 1>, array<i32: 16, 2>, array<i32: 1, 4>, array<i32: 0, 1>>>
// CHECK: %[[C:.*]] = "tile.convert_layout"(%[[T]]) {{.*}} -> tensor<64x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
// CHECK: "tile.block_store"(%{{.*}}, %[[C]]) {{.*}}tile.vector_width = 4 : i32
func.func @virtual_transpose(%k: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %kt: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %src = "tile.make_block_ptr"(%k, %n, %n, %c1, %s, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 0, 1>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
  %t = "tile.block_load"(%src) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
  %dst = "tile.make_block_ptr"(%kt, %n, %n, %s, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
  "tile.block_store"(%dst, %t) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x32xf32>>, tensor<64x32xf32>) -> ()
  return
}

// -----

// A block pointer advanced in a loop keeps its alignment when the step is
// a multiple of the vector (the offsets are iterated to a fixed point).
// CHECK-LABEL: func.func @advanced_in_loop
// CHECK: scf.for
// CHECK: "tile.block_load"({{.*}}tile.vector_width = 4 : i32{{.*}} -> tensor<1x1024xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 1, 32>, array<i32: 1, 4>, array<i32: 1, 0>>>
func.func @advanced_in_loop(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32>, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %sx: i64 {tile.divisibility = 16 : i32}, %sy: i64 {tile.equal_to_one}) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %m64 = arith.extsi %m : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %bp = "tile.make_block_ptr"(%a, %m64, %n64, %sx, %sy, %pid, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<1x1024xf32>>
  %zero = arith.constant dense<0.0> : tensor<1x1024xf32>
  %acc, %end = scf.for %i = %c0 to %n step %c1024 iter_args(%s = %zero, %p = %bp) -> (tensor<1x1024xf32>, !tile.block_ptr<tensor<1x1024xf32>>) : i32 {
    %v = "tile.block_load"(%p) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<1x1024xf32>>) -> tensor<1x1024xf32>
    %s2 = arith.addf %s, %v : tensor<1x1024xf32>
    %p2 = "tile.advance"(%p, %c0, %c1024) : (!tile.block_ptr<tensor<1x1024xf32>>, i32, i32) -> !tile.block_ptr<tensor<1x1024xf32>>
    scf.yield %s2, %p2 : tensor<1x1024xf32>, !tile.block_ptr<tensor<1x1024xf32>>
  }
  %outp = "tile.make_block_ptr"(%out, %m64, %n64, %sx, %sy, %pid, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<1x1024xf32>>
  "tile.block_store"(%outp, %acc) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<1x1024xf32>>, tensor<1x1024xf32>) -> ()
  return
}

// -----

// Rows wrapped with `%` (tutorial 03's `(pid * 512 + arange) % n`): with n
// a multiple of 16 the remainder restarts only at multiples of 16, so runs
// of 16 stay contiguous and 16-byte aligned: four f32 per access. With n
// of unknown divisibility nothing is claimed: one element each.
// CHECK-LABEL: func.func @wrapped_rows
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
// CHECK-LABEL: func.func @wrapped_rows_unknown
// CHECK: "tile.load"(
// CHECK-NOT: tile.vector_width
// CHECK: return
func.func @wrapped_rows(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c128 = arith.constant 512 : i32
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %base = arith.muli %pid, %c128 : i32
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<512xi32>
  %offs = arith.addi %bs, %r : tensor<512xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<512xi32>
  %w = arith.remsi %offs, %ns : tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %w) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>>) -> tensor<512xf32>
  %q = "tile.addptr"(%xs, %offs) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  "tile.store"(%q, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> ()
  return
}
func.func @wrapped_rows_unknown(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %c128 = arith.constant 512 : i32
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %base = arith.muli %pid, %c128 : i32
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<512xi32>
  %offs = arith.addi %bs, %r : tensor<512xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<512xi32>
  %w = arith.remsi %offs, %ns : tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %w) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>>) -> tensor<512xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> ()
  return
}

// -----

// A pointer carried through an scf.while and advanced by 512 elements:
// the analysis iterates the while's carried values to a fixed point as a
// for loop's, so the loads in its body move 16 bytes each.
// CHECK-LABEL: func.func @while_carried
// CHECK: scf.while
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @while_carried(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 512 : i32
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %p0 = "tile.addptr"(%xs, %r) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<512xf32>
  %res:3 = scf.while (%p = %p0, %acc = %zero, %i = %c0) : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>, i32) -> (tensor<512x!tile.ptr<f32>>, tensor<512xf32>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %p, %acc, %i : tensor<512x!tile.ptr<f32>>, tensor<512xf32>, i32
  } do {
  ^bb0(%p: tensor<512x!tile.ptr<f32>>, %acc: tensor<512xf32>, %i: i32):
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>>) -> tensor<512xf32>
    %a = arith.addf %acc, %v : tensor<512xf32>
    %s = "tile.splat"(%c128) : (i32) -> tensor<512xi32>
    %q = "tile.addptr"(%p, %s) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
    %j = arith.addi %i, %c128 : i32
    scf.yield %q, %a, %j : tensor<512x!tile.ptr<f32>>, tensor<512xf32>, i32
  }
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %py = "tile.addptr"(%ys, %r) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  "tile.store"(%py, %res#1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> ()
  return
}
