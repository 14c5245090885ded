// RUN: tile-opt %s --split-input-file --tile-assign-layouts | FileCheck %s --check-prefix=BEFORE
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions | FileCheck %s

// An index vector used along two axes (tutorial 03's offs_k: A's columns,
// B's rows) lives in two slice layouts: tile-assign-layouts converts it,
// tile-remove-conversions builds the arange again in the second layout.
// BEFORE-LABEL: func.func @index_on_two_axes
// BEFORE: tile.convert_layout
// CHECK-LABEL: func.func @index_on_two_axes
// CHECK-NOT: tile.convert_layout
// CHECK: "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32, #tile.slice<0
// CHECK: "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32, #tile.slice<1
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @index_on_two_axes(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %k = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %k0 = "tile.expand_dims"(%k) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %k0b = "tile.broadcast"(%k0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c32 = arith.constant dense<32> : tensor<64x1xi32>
    %rs = arith.muli %r1, %c32 : tensor<64x1xi32>
    %rsb = "tile.broadcast"(%rs) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %oa = arith.addi %rsb, %k0b : tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f32>) -> tensor<64x32x!tile.ptr<f32>>
    %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f32>>
    %va = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
    "tile.store"(%pa, %va) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xf32>) -> ()
    // B [32, 128]: the same index along the rows.
    %k1 = "tile.expand_dims"(%k) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %c128 = arith.constant dense<128> : tensor<32x1xi32>
    %ks = arith.muli %k1, %c128 : tensor<32x1xi32>
    %ksb = "tile.broadcast"(%ks) : (tensor<32x1xi32>) -> tensor<32x128xi32>
    %n = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %n0 = "tile.expand_dims"(%n) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
    %n0b = "tile.broadcast"(%n0) : (tensor<1x128xi32>) -> tensor<32x128xi32>
    %ob = arith.addi %ksb, %n0b : tensor<32x128xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f32>) -> tensor<32x128x!tile.ptr<f32>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x128x!tile.ptr<f32>>, tensor<32x128xi32>) -> tensor<32x128x!tile.ptr<f32>>
    %vb = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x128x!tile.ptr<f32>>) -> tensor<32x128xf32>
    "tile.store"(%pb, %vb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x128x!tile.ptr<f32>>, tensor<32x128xf32>) -> ()
    return
  }
}

// -----

// A loaded vector used along two axes inside a loop cannot be built
// again (it reads memory): its conversion moves out of the loop, which
// does not change it, to just after the load. A conversion of a value
// the loop changes stays where it is.
// BEFORE-LABEL: func.func @loaded_on_two_axes
// BEFORE: scf.for
// BEFORE: "tile.convert_layout"(%3)
// BEFORE: "tile.convert_layout"(%arg4)
// CHECK-LABEL: func.func @loaded_on_two_axes
// CHECK: %[[V:.*]] = "tile.load"
// CHECK-NEXT: "tile.convert_layout"(%[[V]])
// CHECK: scf.for
// CHECK-NOT: "tile.convert_layout"(%[[V]])
// CHECK: "tile.convert_layout"(%arg4)
// CHECK: scf.yield
module attributes {tile.num_warps = 4 : i32} {
  func.func @loaded_on_two_axes(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %xs = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<32x!tile.ptr<i32>>
    %px = "tile.addptr"(%xs, %r) : (tensor<32x!tile.ptr<i32>>, tensor<32xi32>) -> tensor<32x!tile.ptr<i32>>
    %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x!tile.ptr<i32>>) -> tensor<32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f32>) -> tensor<32x32x!tile.ptr<f32>>
    %z = arith.constant dense<0> : tensor<32xi32>
    %out = scf.for %i = %c0 to %steps step %c1 iter_args(%w = %z) -> (tensor<32xi32>) : i32 {
      %v0 = "tile.expand_dims"(%v) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %v0b = "tile.broadcast"(%v0) : (tensor<1x32xi32>) -> tensor<32x32xi32>
      %v1 = "tile.expand_dims"(%v) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %v1b = "tile.broadcast"(%v1) : (tensor<32x1xi32>) -> tensor<32x32xi32>
      %w0 = "tile.expand_dims"(%w) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %w0b = "tile.broadcast"(%w0) : (tensor<1x32xi32>) -> tensor<32x32xi32>
      %w1 = "tile.expand_dims"(%w) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
      %w1b = "tile.broadcast"(%w1) : (tensor<32x1xi32>) -> tensor<32x32xi32>
      %ov = arith.addi %v0b, %v1b : tensor<32x32xi32>
      %ow = arith.addi %w0b, %w1b : tensor<32x32xi32>
      %o = arith.addi %ov, %ow : tensor<32x32xi32>
      %pa = "tile.addptr"(%as, %o) : (tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f32>>
      %va = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x32x!tile.ptr<f32>>) -> tensor<32x32xf32>
      "tile.store"(%pa, %va) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<f32>>, tensor<32x32xf32>) -> ()
      %next = arith.addi %w, %w : tensor<32xi32>
      scf.yield %next : tensor<32xi32>
    }
    "tile.store"(%px, %out) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x!tile.ptr<i32>>, tensor<32xi32>) -> ()
    return
  }
}

// -----

// What a rebuild leaves unused goes: `k + 1`, used only along the other
// axis, is built again there (the constant with its new layout in its
// value too), and the first addition and its constant are erased.
// CHECK-LABEL: func.func @dead_after_rebuild
// CHECK-NOT: tile.convert_layout
// CHECK-NOT: dense<1>
// CHECK-NOT: arith.addi %{{.*}} : tensor<32xi32
// CHECK: arith.constant dense<1> : tensor<32xi32, #tile.slice<1
// CHECK-NEXT: arith.addi %{{.*}} : tensor<32xi32, #tile.slice<1
// CHECK-NOT: dense<1>
// CHECK-NOT: arith.addi %{{.*}} : tensor<32xi32
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @dead_after_rebuild(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %k = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %one = arith.constant dense<1> : tensor<32xi32>
    %kk = arith.addi %k, %one : tensor<32xi32>
    %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %k0 = "tile.expand_dims"(%k) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %k0b = "tile.broadcast"(%k0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c32 = arith.constant dense<32> : tensor<64x1xi32>
    %rs = arith.muli %r1, %c32 : tensor<64x1xi32>
    %rsb = "tile.broadcast"(%rs) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %oa = arith.addi %rsb, %k0b : tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f32>) -> tensor<64x32x!tile.ptr<f32>>
    %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f32>>
    %va = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
    "tile.store"(%pa, %va) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xf32>) -> ()
    %k1 = "tile.expand_dims"(%kk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %c128 = arith.constant dense<128> : tensor<32x1xi32>
    %ks = arith.muli %k1, %c128 : tensor<32x1xi32>
    %ksb = "tile.broadcast"(%ks) : (tensor<32x1xi32>) -> tensor<32x128xi32>
    %n = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
    %n0 = "tile.expand_dims"(%n) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<1x128xi32>
    %n0b = "tile.broadcast"(%n0) : (tensor<1x128xi32>) -> tensor<32x128xi32>
    %ob = arith.addi %ksb, %n0b : tensor<32x128xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f32>) -> tensor<32x128x!tile.ptr<f32>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x128x!tile.ptr<f32>>, tensor<32x128xi32>) -> tensor<32x128x!tile.ptr<f32>>
    %vb = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x128x!tile.ptr<f32>>) -> tensor<32x128xf32>
    "tile.store"(%pb, %vb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x128x!tile.ptr<f32>>, tensor<32x128xf32>) -> ()
    return
  }
}

// -----

// Only single-result ops are built again: the high half of an
// arith.mului_extended used along two axes keeps its conversion (a copy
// of the op would give its first result, the low half).
// CHECK-LABEL: func.func @high_half_on_two_axes
// CHECK: %{{.*}}, %[[HI:.*]] = arith.mului_extended
// CHECK: "tile.convert_layout"(%[[HI]])
// CHECK-NOT: arith.mului_extended
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @high_half_on_two_axes(%a: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %k = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %c7 = arith.constant dense<123456789> : tensor<32xi32>
    %lo, %hi = arith.mului_extended %k, %c7 : tensor<32xi32>
    %k0 = "tile.expand_dims"(%hi) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %k0b = "tile.broadcast"(%k0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %k1 = "tile.expand_dims"(%hi) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %k1b = "tile.broadcast"(%k1) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %r = "tile.arange"() {end = 2048 : i32, start = 0 : i32} : () -> tensor<2048xi32>
    %rr = "tile.reshape"(%r) : (tensor<2048xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<i32>) -> tensor<64x32x!tile.ptr<i32>>
    %pa = "tile.addptr"(%as, %rr) : (tensor<64x32x!tile.ptr<i32>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<i32>>
    "tile.store"(%pa, %k0b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x32x!tile.ptr<i32>>, tensor<64x32xi32>) -> ()
    %rr2 = "tile.reshape"(%r) : (tensor<2048xi32>) -> tensor<32x64xi32>
    %as2 = "tile.splat"(%a) : (!tile.ptr<i32>) -> tensor<32x64x!tile.ptr<i32>>
    %pa2 = "tile.addptr"(%as2, %rr2) : (tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<i32>>
    "tile.store"(%pa2, %k1b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!tile.ptr<i32>>, tensor<32x64xi32>) -> ()
    return
  }
}

// -----

// Arithmetic is built again, transcendental functions are not: an index
// vector's exp used along two axes keeps its conversion, and exp runs
// once.
// CHECK-LABEL: func.func @exp_on_two_axes
// CHECK: %[[E:.*]] = math.exp
// CHECK: "tile.convert_layout"(%[[E]])
// CHECK-NOT: math.exp
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @exp_on_two_axes(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %k = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %kf = arith.sitofp %k : tensor<32xi32> to tensor<32xf32>
    %e = math.exp %kf : tensor<32xf32>
    %k0 = "tile.expand_dims"(%e) {axis = 0 : i32} : (tensor<32xf32>) -> tensor<1x32xf32>
    %k0b = "tile.broadcast"(%k0) : (tensor<1x32xf32>) -> tensor<64x32xf32>
    %k1 = "tile.expand_dims"(%e) {axis = 1 : i32} : (tensor<32xf32>) -> tensor<32x1xf32>
    %k1b = "tile.broadcast"(%k1) : (tensor<32x1xf32>) -> tensor<32x64xf32>
    %r = "tile.arange"() {end = 2048 : i32, start = 0 : i32} : () -> tensor<2048xi32>
    %rr = "tile.reshape"(%r) : (tensor<2048xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f32>) -> tensor<64x32x!tile.ptr<f32>>
    %pa = "tile.addptr"(%as, %rr) : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f32>>
    "tile.store"(%pa, %k0b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x32x!tile.ptr<f32>>, tensor<64x32xf32>) -> ()
    %rr2 = "tile.reshape"(%r) : (tensor<2048xi32>) -> tensor<32x64xi32>
    %as2 = "tile.splat"(%a) : (!tile.ptr<f32>) -> tensor<32x64x!tile.ptr<f32>>
    %pa2 = "tile.addptr"(%as2, %rr2) : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f32>>
    "tile.store"(%pa2, %k1b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!tile.ptr<f32>>, tensor<32x64xf32>) -> ()
    return
  }
}

// -----

// A value rebuilt in a second layout whose slice goes through an
// expand_dims: the copy of the expand_dims takes the arange built again
// in the slice of the second layout.
// CHECK-LABEL: func.func @rows_in_a_second_layout
// CHECK-NOT: tile.convert_layout
// CHECK: %[[R:.*]] = "tile.arange"() {{.*}} -> tensor<32xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>>
// CHECK: "tile.expand_dims"(%[[R]]) {axis = 1 : i32} : (tensor<32xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>>)
// CHECK-NOT: tile.convert_layout
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @rows_in_a_second_layout(%y: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %r = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<32xi32, #tile.slice<1 : i32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>>) -> tensor<32x1xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.broadcast"(%r1) : (tensor<32x1xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<32x32xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.convert_layout"(%b) : (tensor<32x32xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> tensor<32x32xi32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %ys = "tile.splat"(%y) : (!tile.ptr<i32>) -> tensor<32x32x!tile.ptr<i32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    %py = "tile.addptr"(%ys, %c) : (tensor<32x32x!tile.ptr<i32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>, tensor<32x32xi32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>) -> tensor<32x32x!tile.ptr<i32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>
    "tile.store"(%py, %c) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<i32>, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>, tensor<32x32xi32, #tile.blocked<array<i32: 4, 1>, array<i32: 8, 4>, array<i32: 1, 4>, array<i32: 0, 1>>>) -> ()
    return
  }
}

// -----

// A conversion back to the layout of a loaded value: the loaded value
// cannot be built again, but it already has the layout wanted, so the sum
// is computed in it and neither conversion is left.
// CHECK-LABEL: func.func @back_through_a_load
// CHECK-NOT: tile.convert_layout
// CHECK: %[[V:.*]] = "tile.load"
// CHECK-NOT: tile.convert_layout
// CHECK: arith.addi %[[V]]
// CHECK-NOT: tile.convert_layout
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @back_through_a_load(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %z = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %xs = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<1024x!tile.ptr<i32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %px = "tile.addptr"(%xs, %z) : (tensor<1024x!tile.ptr<i32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024x!tile.ptr<i32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %v = "tile.load"(%px) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<i32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %w = "tile.convert_layout"(%v) : (tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %one = arith.constant dense<1> : tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %b = arith.addi %w, %one : tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %c = "tile.convert_layout"(%b) : (tensor<1024xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    "tile.store"(%px, %c) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<i32>, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>, tensor<1024xi32, #tile.blocked<array<i32: 4>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>) -> ()
    return
  }
}
