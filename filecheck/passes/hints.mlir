// RUN: tile-opt %s --split-input-file --tile-verify --canonicalize --cse --tile-assign-layouts --tile-predicate --tile-vectorize | FileCheck %s

// Hints (`tile.multiple_of`, `tile.max_contiguous`, `tile.max_constancy`,
// from the builder's methods of the same names): facts the axis analysis
// cannot prove, stated by the user. The hinted result gets, per axis, the
// larger of what is proven and what is stated; loads and stores through it
// are then laid out and vectorized from those facts. The hints survive
// canonicalize and cse, which run before the analysis.

// Row starts gathered from memory: nothing is known of a loaded value, so
// without a hint each f16 element is its own access; stating that each
// start is a multiple of 8 elements gives 16-byte accesses along the rows.
// CHECK-LABEL: func.func @gathered_rows
// CHECK: "tile.load"(%{{.*}}) {{{.*}}tile.multiple_of = array<i32: 8>
// CHECK: "tile.load"({{.*}}tile.vector_width = 8 : i32{{.*}} -> tensor<32x64xf16
func.func @gathered_rows(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %rows: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %m = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rs = "tile.splat"(%rows) : (!tile.ptr<i32>) -> tensor<32x!tile.ptr<i32>>
  %rp = "tile.addptr"(%rs, %m) : (tensor<32x!tile.ptr<i32>>, tensor<32xi32>) -> tensor<32x!tile.ptr<i32>>
  %start = "tile.load"(%rp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false, tile.multiple_of = array<i32: 8>} : (tensor<32x!tile.ptr<i32>>) -> tensor<32xi32>
  %s2 = "tile.expand_dims"(%start) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %sb = "tile.broadcast"(%s2) : (tensor<32x1xi32>) -> tensor<32x64xi32>
  %k = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %k2 = "tile.expand_dims"(%k) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %kb = "tile.broadcast"(%k2) : (tensor<1x64xi32>) -> tensor<32x64xi32>
  %offs = arith.addi %sb, %kb : tensor<32x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
  %os = "tile.splat"(%out) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
  %q = "tile.addptr"(%os, %offs) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
  "tile.store"(%q, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xf16>) -> ()
  return
}

// -----

// The same without the hint: one element an access.
// CHECK-LABEL: func.func @gathered_rows_unhinted
// CHECK: "tile.load"(
// CHECK: "tile.load"(
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<32x64xf16
func.func @gathered_rows_unhinted(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %rows: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %m = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %rs = "tile.splat"(%rows) : (!tile.ptr<i32>) -> tensor<32x!tile.ptr<i32>>
  %rp = "tile.addptr"(%rs, %m) : (tensor<32x!tile.ptr<i32>>, tensor<32xi32>) -> tensor<32x!tile.ptr<i32>>
  %start = "tile.load"(%rp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x!tile.ptr<i32>>) -> tensor<32xi32>
  %s2 = "tile.expand_dims"(%start) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %sb = "tile.broadcast"(%s2) : (tensor<32x1xi32>) -> tensor<32x64xi32>
  %k = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %k2 = "tile.expand_dims"(%k) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %kb = "tile.broadcast"(%k2) : (tensor<1x64xi32>) -> tensor<32x64xi32>
  %offs = arith.addi %sb, %kb : tensor<32x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xf16>) -> ()
  return
}

// -----

// Triton's persistent-matmul tutorial clamps out-of-range columns with
// `where(offs < n, offs, 0)`, which keeps no contiguity; its
// `max_contiguous(multiple_of(offs, 512), 512)` restores runs of 512
// starting at multiples of 512: four f32 an access.
// CHECK-LABEL: func.func @clamped_columns
// CHECK: arith.select {{.*}}tile.max_contiguous = array<i32: 512>, tile.multiple_of = array<i32: 512>
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @clamped_columns(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %c512 = arith.constant 512 : i32
  %c0 = arith.constant dense<0> : tensor<512xi32>
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %base = arith.muli %pid, %c512 : i32
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<512xi32>
  %offs = arith.addi %bs, %r : tensor<512xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<512xi32>
  %in = arith.cmpi slt, %offs, %ns : tensor<512xi32>
  %clamped = arith.select %in, %offs, %c0 {tile.max_contiguous = array<i32: 512>, tile.multiple_of = array<i32: 512>} : tensor<512xi1>, tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %clamped) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>>) -> tensor<512xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> ()
  return
}

// -----

// The same without the hints: one element an access.
// CHECK-LABEL: func.func @clamped_columns_unhinted
// CHECK: "tile.load"(
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<512xf32
func.func @clamped_columns_unhinted(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %c512 = arith.constant 512 : i32
  %c0 = arith.constant dense<0> : tensor<512xi32>
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %base = arith.muli %pid, %c512 : i32
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32} : () -> tensor<512xi32>
  %bs = "tile.splat"(%base) : (i32) -> tensor<512xi32>
  %offs = arith.addi %bs, %r : tensor<512xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<512xi32>
  %in = arith.cmpi slt, %offs, %ns : tensor<512xi32>
  %clamped = arith.select %in, %offs, %c0 : tensor<512xi1>, tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %clamped) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>>) -> tensor<512xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> ()
  return
}

// -----

// A hint weaker than what is proven changes nothing: the arange's runs of
// 512 and the 16-byte aligned base still give four f32 an access.
// CHECK-LABEL: func.func @weaker_than_proven
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @weaker_than_proven(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 512 : i32, start = 0 : i32, tile.max_contiguous = array<i32: 1>, tile.multiple_of = array<i32: 1>} : () -> tensor<512xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<512x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<512x!tile.ptr<f32>>, tensor<512xi32>) -> tensor<512x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<512x!tile.ptr<f32>>) -> tensor<512xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<512x!tile.ptr<f32>>, tensor<512xf32>) -> ()
  return
}
