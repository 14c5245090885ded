// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize | FileCheck %s

// The axis analysis through control flow and the arith ops it models,
// seen in the vector width each load gets (tile.vector_width; absent
// means one element an access). Each case is one the analysis must prove
// (a wider access) or must not (a narrower one).

// Both branches of an scf.if yield contiguous, 16-byte aligned pointers:
// the result is known to be so too, and the load moves four f32.
// CHECK-LABEL: func.func @if_yields_aligned
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @if_yields_aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %w: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sgt, %w, %c0 : i32
  %p = scf.if %c -> (tensor<1024x!tile.ptr<f32>>) {
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
    %px = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    scf.yield %px : tensor<1024x!tile.ptr<f32>>
  } else {
    %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
    %py = "tile.addptr"(%ys, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    scf.yield %py : tensor<1024x!tile.ptr<f32>>
  }
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// A pointer carried through an scf.for and advanced by one element each
// step is aligned only to 4 bytes after the first step: the analysis
// must reach that fixpoint, not stop at the aligned initial value.
// CHECK-LABEL: func.func @for_advances_by_one
// CHECK: scf.for
// CHECK: "tile.load"
// CHECK-NOT: tile.vector_width
// CHECK: scf.yield
func.func @for_advances_by_one(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p0 = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %one = arith.constant dense<1> : tensor<1024xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<1024x!tile.ptr<f32>>) : i32 {
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
    "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
    %q = "tile.addptr"(%p, %one) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    scf.yield %q : tensor<1024x!tile.ptr<f32>>
  }
  return
}

// -----

// The same through an scf.while: the step's pointer is 4-byte aligned.
// CHECK-LABEL: func.func @while_advances_by_one
// CHECK: scf.while
// CHECK: "tile.load"
// CHECK-NOT: tile.vector_width
// CHECK: scf.yield
func.func @while_advances_by_one(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p0 = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %one = arith.constant dense<1> : tensor<1024xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:2 = scf.while (%p = %p0, %i = %c0) : (tensor<1024x!tile.ptr<f32>>, i32) -> (tensor<1024x!tile.ptr<f32>>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %p, %i : tensor<1024x!tile.ptr<f32>>, i32
  } do {
  ^bb0(%p: tensor<1024x!tile.ptr<f32>>, %i: i32):
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
    "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
    %q = "tile.addptr"(%p, %one) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    %j = arith.addi %i, %c1 : i32
    scf.yield %q, %j : tensor<1024x!tile.ptr<f32>>, i32
  }
  return
}

// -----

// Advanced by 1024 elements a step, the carried pointer stays aligned,
// and so does what the loop forwards when it ends: the load after it
// moves four f32.
// CHECK-LABEL: func.func @while_forwards_aligned
// CHECK: scf.while
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
// CHECK: scf.yield
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @while_forwards_aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p0 = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %step = arith.constant dense<1024> : tensor<1024xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res:2 = scf.while (%p = %p0, %i = %c0) : (tensor<1024x!tile.ptr<f32>>, i32) -> (tensor<1024x!tile.ptr<f32>>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %p, %i : tensor<1024x!tile.ptr<f32>>, i32
  } do {
  ^bb0(%p: tensor<1024x!tile.ptr<f32>>, %i: i32):
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
    "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
    %q = "tile.addptr"(%p, %step) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    %j = arith.addi %i, %c1 : i32
    scf.yield %q, %j : tensor<1024x!tile.ptr<f32>>, i32
  }
  %w = "tile.load"(%res#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  "tile.store"(%res#0, %w) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// arith.select of two aligned, contiguous offset tensors by a scalar
// condition is aligned and contiguous (the condition is one value for the
// whole tile): the load moves four.
// CHECK-LABEL: func.func @select_of_aligned
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @select_of_aligned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %w: i32, %n: i32 {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %k = arith.constant dense<2048> : tensor<1024xi32>
  %far = arith.addi %r, %k : tensor<1024xi32>
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sgt, %w, %c0 : i32
  %o = arith.select %c, %r, %far : tensor<1024xi32>
  %p = "tile.addptr"(%xs, %o) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// A multiple of 2048 divided by 2 is a multiple of 1024: the base it
// gives the tile keeps the load 16-byte aligned.
// CHECK-LABEL: func.func @quotient_base
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @quotient_base(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %w: i32, %n: i32 {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c2048 = arith.constant 2048 : i32
  %c2 = arith.constant 2 : i32
  %big = arith.muli %pid, %c2048 : i32
  %half = arith.divsi %big, %c2 : i32
  %hs = "tile.splat"(%half) : (i32) -> tensor<1024xi32>
  %o = arith.addi %hs, %r : tensor<1024xi32>
  %p = "tile.addptr"(%xs, %o) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// A bound that is the elementwise minimum of two splats is uniform, so
// the mask is constant over each vector.
// CHECK-LABEL: func.func @minimum_bound
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @minimum_bound(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %w: i32, %n: i32 {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %ms = "tile.splat"(%m) : (i32) -> tensor<1024xi32>
  %bound = arith.minsi %ns, %ms : tensor<1024xi32>
  %in = arith.cmpi slt, %r, %bound : tensor<1024xi32>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %in) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// A block pointer whose row stride nothing is known of: each row starts
// wherever it starts, so the 16-byte alignment of the base and of the
// column offset does not make a row's run aligned; one f32 an access.
// With a row stride of 16 elements the runs are aligned: four an access.
// CHECK-LABEL: func.func @block_rows_unknown_stride
// CHECK: "tile.block_load"
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<16x64xf32
// CHECK: "tile.block_load"({{.*}}tile.vector_width = 4 : i32
func.func @block_rows_unknown_stride(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i64, %t: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %odd = "tile.make_block_ptr"(%x, %n, %n, %s, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %a = "tile.block_load"(%odd) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  "tile.block_store"(%odd, %a) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  %even = "tile.make_block_ptr"(%x, %n, %n, %t, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %b = "tile.block_load"(%even) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  "tile.block_store"(%even, %b) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// A select by a tensor condition that changes every element takes one
// element from each side in turn: no run survives, one f32 an access.
// CHECK-LABEL: func.func @select_alternating
// CHECK: "tile.load"
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<1024xf32
func.func @select_alternating(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %k = arith.constant dense<2048> : tensor<1024xi32>
  %far = arith.addi %r, %k : tensor<1024xi32>
  %two = arith.constant dense<2> : tensor<1024xi32>
  %zero = arith.constant dense<0> : tensor<1024xi32>
  %parity = arith.remsi %r, %two : tensor<1024xi32>
  %even = arith.cmpi eq, %parity, %zero : tensor<1024xi32>
  %o = arith.select %even, %r, %far : tensor<1024xi1>, tensor<1024xi32>
  %p = "tile.addptr"(%xs, %o) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// A mask built by an op the analysis has no rule of its own for (here
// `arith.xori` of two uniform masks, through the generic `arith`/`math`
// rule: uniform where every operand is) stays uniform, so the masked
// load still moves four f32. A float constant is uniform too: a mask
// comparing it with a splat (`arith.cmpf`, the same generic rule) lets
// the second load move four.
// CHECK-LABEL: func.func @generic_uniform_mask
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @generic_uniform_mask(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %a: i32, %b: i32, %f: f32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %ca = arith.cmpi sgt, %a, %c0 : i32
  %cb = arith.cmpi sgt, %b, %c0 : i32
  %ma = "tile.splat"(%ca) : (i1) -> tensor<1024xi1>
  %mb = "tile.splat"(%cb) : (i1) -> tensor<1024xi1>
  %m = arith.xori %ma, %mb : tensor<1024xi1>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  %half = arith.constant dense<0.5> : tensor<1024xf32>
  %fs = "tile.splat"(%f) : (f32) -> tensor<1024xf32>
  %mf = arith.cmpf olt, %half, %fs : tensor<1024xf32>
  %w = "tile.load"(%p, %mf) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  %s = arith.addf %v, %w : tensor<1024xf32>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}

// -----

// Block pointers of two orders joined by an scf.if: a row-major one and a
// column-major one over the same rows (strides n and 1 in both, `order`
// telling which axis the layout runs along first). Nothing is known of
// the result's order, so the load after the branch moves one element an
// access; each pointer loaded in its own branch keeps its width.
// CHECK-LABEL: func.func @if_joins_orders
// CHECK: "tile.block_load"({{.*}}tile.vector_width = 4 : i32
// CHECK: "tile.block_load"
// CHECK: "tile.block_load"
// CHECK-NOT: tile.vector_width
// CHECK-SAME: -> tensor<16x64xf32
func.func @if_joins_orders(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %w: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %cz = arith.constant 0 : i32
  %c = arith.cmpi sgt, %w, %cz : i32
  %rows = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %cols = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 0, 1>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %a = "tile.block_load"(%rows) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  %b = "tile.block_load"(%cols) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  %p = scf.if %c -> (!tile.block_ptr<tensor<16x64xf32>>) {
    scf.yield %rows : !tile.block_ptr<tensor<16x64xf32>>
  } else {
    scf.yield %cols : !tile.block_ptr<tensor<16x64xf32>>
  }
  %v = "tile.block_load"(%p) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  %s = arith.addf %a, %b : tensor<16x64xf32>
  %t = arith.addf %s, %v : tensor<16x64xf32>
  "tile.block_store"(%rows, %t) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// Facts pass through a layout conversion: pointers converted before the
// load are still contiguous and aligned, four f32 an access.
// CHECK-LABEL: func.func @through_conversion
// CHECK: "tile.convert_layout"
// CHECK: "tile.load"({{.*}}tile.vector_width = 4 : i32
func.func @through_conversion(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %q = "tile.convert_layout"(%p) : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  "tile.store"(%q, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  return
}
