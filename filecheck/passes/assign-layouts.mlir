// RUN: tile-opt %s --split-input-file --tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-assign-layouts | FileCheck %s

// tile-assign-layouts gives every tensor a layout as its type's encoding,
// with 4 warps when the module has no tile.num_warps (the attribute is not
// added: the pass runs on kernels, nested under func.func too, and leaves
// the module alone), and leaves scalars, pointers and the kernel signature
// alone. Running it twice changes nothing more (second RUN line).

// CHECK-NOT: tile.num_warps
// CHECK-LABEL: func.func @vector(%arg0: !tile.ptr<f32> {tile.name = "x"}, %arg1: i32 {tile.name = "n"})
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: "tile.splat"(%arg1) : (i32) -> tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: arith.cmpi slt, {{.*}} : tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: "tile.load"({{.*}}) -> tensor<1024xf32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
// CHECK: arith.constant dense<1.000000e+00> : tensor<1024xf32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
func.func @vector(%x: !tile.ptr<f32> {tile.name = "x"}, %n: i32 {tile.name = "n"}) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %offs = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %w = arith.addf %v, %one : tensor<1024xf32>
  "tile.store"(%p, %w, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}

// -----

// The module's tile.num_warps sets the warps of every layout.

// CHECK-LABEL: module attributes {tile.num_warps = 8 : i32}
// CHECK: "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 8>, array<i32: 0>>>
module attributes {tile.num_warps = 8 : i32} {
  func.func @warps() attributes {tile.kernel} {
    %offs = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    return
  }
}

// -----

// 2-d: the tile gets the default blocked layout (threads along the
// contiguous axis first), and the 1-d ranges that expand_dims turns into
// its rows and columns get the matching slices, so no data moves.

// CHECK-LABEL: func.func @tile2d
// CHECK: "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32, #tile.slice<1 : i32, [[P:#tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>]]>>
// CHECK: "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32, #tile.slice<0 : i32, [[P]]>>
// CHECK: "tile.expand_dims"(%{{.*}}) {axis = 1 : i32} : (tensor<16xi32, #tile.slice<1 : i32, [[P]]>>) -> tensor<16x1xi32, [[P]]>
// CHECK: "tile.expand_dims"(%{{.*}}) {axis = 0 : i32} : (tensor<64xi32, #tile.slice<0 : i32, [[P]]>>) -> tensor<1x64xi32, [[P]]>
// CHECK: "tile.broadcast"(%{{.*}}) : (tensor<16x1xi32, [[P]]>) -> tensor<16x64xi32, [[P]]>
// CHECK: arith.addi %{{.*}}, %{{.*}} : tensor<16x64xi32, [[P]]>
// CHECK-NOT: tile.convert_layout
func.func @tile2d() attributes {tile.kernel} {
  %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %c = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %rb = "tile.broadcast"(%r2) : (tensor<16x1xi32>) -> tensor<16x64xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x64xi32>) -> tensor<16x64xi32>
  %s = arith.addi %rb, %cb : tensor<16x64xi32>
  return
}

// -----

// One range used as both rows and columns cannot be in both slices: it
// keeps the first and a tile.convert_layout gives the other.

// CHECK-LABEL: func.func @both_axes
// CHECK: %[[R:.*]] = "tile.arange"() {{.*}} -> tensor<32xi32, #tile.slice<1 : i32, [[P:#tile.blocked<[^>]*>, [^>]*>, [^>]*>, [^>]*>>]]>>
// CHECK: "tile.expand_dims"(%[[R]]) {axis = 1 : i32}
// CHECK: %[[C:.*]] = "tile.convert_layout"(%[[R]]) : (tensor<32xi32, #tile.slice<1 : i32, [[P]]>>) -> tensor<32xi32, #tile.slice<0 : i32, [[P]]>>
// CHECK: "tile.expand_dims"(%[[C]]) {axis = 0 : i32}
func.func @both_axes() attributes {tile.kernel} {
  %r = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %a = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %b = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %ab = "tile.broadcast"(%a) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %bb = "tile.broadcast"(%b) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %s = arith.addi %ab, %bb : tensor<32x32xi32>
  return
}

// -----

// A loop-carried tensor has one layout through init, argument, yield and
// result; the scalar bounds and induction variable stay as they are.

// CHECK-LABEL: func.func @carried
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32, [[L:#tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>]]>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<256xf32, [[L]]>)  : i32
// CHECK: arith.addf %[[ACC]], %{{.*}} : tensor<256xf32, [[L]]>
// CHECK: scf.yield %{{.*}} : tensor<256xf32, [[L]]>
func.func @carried(%n: i32) attributes {tile.kernel} {
  %z = arith.constant dense<0.0> : tensor<256xf32>
  %one = arith.constant dense<1.0> : tensor<256xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<256xf32>) : i32 {
    %s = arith.addf %acc, %one : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  return
}

// -----

// A tile smaller than a warp: threads left over hold copies (they are
// given to the slowest axis).

// CHECK-LABEL: func.func @tiny
// CHECK: tensor<1x4xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>
func.func @tiny() attributes {tile.kernel} {
  %z = arith.constant dense<0.0> : tensor<1x4xf32>
  return
}

// -----

// A tile reduced along its fastest axis (several rows of a softmax a
// program) spreads its warps over the rows first: 8 rows of 1024 over 8
// warps give each warp a row, so the max needs shuffles only. The vector
// and the lanes stay as the load chose them ([1, 4] of [1, 32]).
// CHECK-LABEL: func.func @rows_reduced
// CHECK: "tile.load"{{.*}} -> tensor<8x1024xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>
// CHECK: "tile.reduce"{{.*}} -> tensor<8xf32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @rows_reduced(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
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
  %m = "tile.reduce"(%v) {kind = "max", axis = 1 : i32, keep_dims = false} : (tensor<8x1024xf32>) -> tensor<8xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<8x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %r) : (tensor<8x!tile.ptr<f32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<f32>>
  "tile.store"(%o, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<8x!tile.ptr<f32>>, tensor<8xf32>) -> ()
  return
}
}

// -----

// A scan along the fastest axis (running sums of several rows a program)
// counts as a reduction there: the warps go over the rows, as above.
// CHECK-LABEL: func.func @rows_scanned
// CHECK: "tile.load"{{.*}} -> tensor<8x1024xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>
// CHECK: "tile.scan"{{.*}} -> tensor<8x1024xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 1, 32>, array<i32: 8, 1>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @rows_scanned(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
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

// Reduced along the slow axis (a column sum), the warps stay where the
// load put them: along the rows, the reduced axis, since the columns
// leave them no room (each warp's 8 lanes of 4 already span all 32).
// CHECK-LABEL: func.func @columns_reduced
// CHECK: "tile.load"{{.*}} -> tensor<64x32xf32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 8, 1>, array<i32: 1, 0>>>
module attributes {tile.num_warps = 8 : i32} {
func.func @columns_reduced(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %c = "tile.arange"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %c2 = "tile.expand_dims"(%c) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %k = arith.constant dense<32> : tensor<64x1xi32>
  %row = arith.muli %r2, %k : tensor<64x1xi32>
  %rb = "tile.broadcast"(%row) : (tensor<64x1xi32>) -> tensor<64x32xi32>
  %cb = "tile.broadcast"(%c2) : (tensor<1x32xi32>) -> tensor<64x32xi32>
  %off = arith.addi %rb, %cb : tensor<64x32xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x32x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %off) : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
  %s = "tile.reduce"(%v) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<64x32xf32>) -> tensor<32xf32>
  %os = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<32x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %c) : (tensor<32x!tile.ptr<f32>>, tensor<32xi32>) -> tensor<32x!tile.ptr<f32>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x!tile.ptr<f32>>, tensor<32xf32>) -> ()
  return
}
}

// -----

// IR whose every tensor already has a layout is left as it is, its
// conversions included (here a conversion of a conversion to a third
// layout).
// CHECK-LABEL: func.func @chain
// CHECK: %[[A:.*]] = "tile.arange"
// CHECK: %[[B:.*]] = "tile.convert_layout"(%[[A]]) {{.*}} -> tensor<128xi32, #tile.blocked<array<i32: 1>,
// CHECK: %[[C:.*]] = "tile.convert_layout"(%[[B]]) {{.*}} -> tensor<128xi32, #tile.blocked<array<i32: 2>,
// CHECK: "tile.addptr"(%{{.*}}, %[[C]])
module attributes {tile.num_warps = 4 : i32} {
func.func @chain(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %a = "tile.convert_layout"(%r) : (tensor<128xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %b = "tile.convert_layout"(%a) : (tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128xi32, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %p = "tile.addptr"(%xs, %b) : (tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<128xi32, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<128xf32, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<128xf32, #tile.blocked<array<i32: 2>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
  return
}
}


// -----

// A tile summed along both axes, the two sums added: the sums' class has
// one layout (the first reduction's slice), so the sum along rows comes
// out of its reduction in its own slice and is converted.
// CHECK-LABEL: func.func @both_axes
// CHECK: %[[S0:.*]] = "tile.reduce"({{.*}}) {axis = 0 : i32{{.*}} -> tensor<64xf32, #tile.slice<0 : i32
// CHECK: %[[S1:.*]] = "tile.reduce"({{.*}}) {axis = 1 : i32{{.*}} -> tensor<64xf32, #tile.slice<1 : i32
// CHECK: %[[C:.*]] = "tile.convert_layout"(%[[S1]]) : (tensor<64xf32, #tile.slice<1 : i32{{.*}}) -> tensor<64xf32, #tile.slice<0 : i32
// CHECK: arith.addf %[[S0]], %[[C]]
module attributes {tile.num_warps = 4 : i32} {
  func.func @both_axes(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %r = "tile.arange"() {end = 4096 : i32, start = 0 : i32} : () -> tensor<4096xi32>
    %rr = "tile.reshape"(%r) : (tensor<4096xi32>) -> tensor<64x64xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %p = "tile.addptr"(%xs, %rr) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
    %s0 = "tile.reduce"(%v) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<64x64xf32>) -> tensor<64xf32>
    %s1 = "tile.reduce"(%v) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<64x64xf32>) -> tensor<64xf32>
    %t = arith.addf %s0, %s1 : tensor<64xf32>
    %r64 = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
    %py = "tile.addptr"(%ys, %r64) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    "tile.store"(%py, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
}
