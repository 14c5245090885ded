// RUN: tile-opt %s --split-input-file --tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// scf.if and scf.while on scalar conditions in per-thread code: the
// tensors they give or carry become one scalar per register (here 2 per
// thread: 256 elements over 128 threads), the condition stays one scalar,
// and what the branches hold (a reduction with its barriers, stores) is
// lowered inside them.

// The branch's result takes the layout both branches yield.
// LAYOUT-LABEL: func.func @branch
// LAYOUT: scf.if %{{.*}} -> (tensor<256xf32, #[[L:tile.blocked<.*>]]>) {
// LAYOUT: scf.yield %{{.*}} : tensor<256xf32, #[[L]]>
// LAYOUT: } else {
// LAYOUT: scf.yield %{{.*}} : tensor<256xf32, #[[L]]>

// CHECK-LABEL: gpu.func @branch
// CHECK: %[[A:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: %[[B:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: %[[BIG:.*]] = arith.cmpi sgt, %arg2, %c1024_i32 : i32
// CHECK: %[[R:.*]]:2 = scf.if %[[BIG]] -> (f32, f32) {
// CHECK:   gpu.barrier
// CHECK:   gpu.shuffle  xor
// CHECK:   gpu.barrier
// CHECK:   %[[Q0:.*]] = arith.divf %[[A]], %[[S:.*]] : f32
// CHECK:   %[[Q1:.*]] = arith.divf %[[B]], %[[S]] : f32
// CHECK:   scf.yield %[[Q0]], %[[Q1]] : f32, f32
// CHECK: } else {
// CHECK:   %[[M0:.*]] = arith.mulf %[[A]], %cst : f32
// CHECK:   %[[M1:.*]] = arith.mulf %[[B]], %cst : f32
// CHECK:   scf.yield %[[M0]], %[[M1]] : f32, f32
// CHECK: }
// CHECK: llvm.store %[[R]]#0
// CHECK: llvm.store %[[R]]#1
// An if without results or else: the stores inside it.
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: llvm.store %[[A]]
// CHECK-NEXT: llvm.store %[[B]]
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry branch
// PTX-SAME: setp.lt.s32
// PTX-SAME: bra
// PTX-SAME: bar.sync
// PTX-SAME: div.rn.f32
// PTX-SAME: st.global
func.func @branch(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 256 : i32} : () -> tensor<256xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
  %c1024 = arith.constant 1024 : i32
  %big = arith.cmpi sgt, %n, %c1024 : i32
  %r = scf.if %big -> (tensor<256xf32>) {
    %s = "tile.reduce"(%v) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<256xf32>) -> f32
    %ss = "tile.splat"(%s) : (f32) -> tensor<256xf32>
    %d = arith.divf %v, %ss : tensor<256xf32>
    scf.yield %d : tensor<256xf32>
  } else {
    %two = arith.constant dense<2.0> : tensor<256xf32>
    %m = arith.mulf %v, %two : tensor<256xf32>
    scf.yield %m : tensor<256xf32>
  }
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %c) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  "tile.store"(%o, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  %c0 = arith.constant 0 : i32
  %first = arith.cmpi eq, %n, %c0 : i32
  scf.if %first {
    "tile.store"(%o, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  }
  return
}

// -----

// A binary search: scalars only. The load of a scalar pointer is each
// thread's own; the store is thread 0's.
// CHECK-LABEL: gpu.func @search
// CHECK: %[[R:.*]]:2 = scf.while (%[[LO:.*]] = %c0_i32, %[[HI:.*]] = %arg2) : (i32, i32) -> (i32, i32) {
// CHECK:   %[[GO:.*]] = arith.cmpi slt, %[[LO]], %[[HI]] : i32
// CHECK:   scf.condition(%[[GO]]) %[[LO]], %[[HI]] : i32, i32
// CHECK: } do {
// CHECK: ^bb0(%[[L:.*]]: i32, %[[H:.*]]: i32):
// CHECK:   llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK:   scf.yield %{{.*}}, %{{.*}} : i32, i32
// CHECK: }
// CHECK: st.global.b32 [ $0 ], $1;", "l,r,b" %arg1, %[[R]]#0
// PTX-LABEL: .entry search
// PTX-SAME: ld.global.b32
// PTX-SAME: @%p{{[0-9]+}} bra
// PTX-SAME: st.global.b32
func.func @search(%x: !tile.ptr<i32>, %out: !tile.ptr<i32>, %n: i32, %key: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r:2 = scf.while (%lo = %c0, %hi = %n) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %lo, %hi : i32
    scf.condition(%go) %lo, %hi : i32, i32
  } do {
  ^bb0(%l: i32, %h: i32):
    %s = arith.addi %l, %h : i32
    %mid = arith.divsi %s, %c2 : i32
    %p = "tile.addptr"(%x, %mid) : (!tile.ptr<i32>, i32) -> !tile.ptr<i32>
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i32>) -> i32
    %less = arith.cmpi slt, %v, %key : i32
    %m1 = arith.addi %mid, %c1 : i32
    %nl = arith.select %less, %m1, %l : i32
    %nh = arith.select %less, %h, %mid : i32
    scf.yield %nl, %nh : i32, i32
  }
  "tile.store"(%out, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> ()
  return
}

// -----

// A while loop carrying a tensor and a count, whose condition block holds
// a reduction (with its barriers): doubles x until its maximum reaches
// 100.
// LAYOUT-LABEL: func.func @grow
// LAYOUT: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<128xf32, #[[L:tile.blocked<.*>]]>, i32) -> (tensor<128xf32, #[[L]]>, i32)
// LAYOUT: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<128xf32, #[[L]]>, i32
// LAYOUT: ^bb0(%{{.*}}: tensor<128xf32, #[[L]]>, %{{.*}}: i32):
// CHECK-LABEL: gpu.func @grow
// CHECK: %[[R:.*]]:2 = scf.while (%[[X:.*]] = %{{.*}}, %[[N:.*]] = %c0_i32) : (f32, i32) -> (f32, i32) {
// CHECK:   gpu.shuffle  xor %[[X]]
// CHECK:   gpu.barrier
// CHECK:   %[[GO:.*]] = arith.cmpf olt, %{{.*}}, %cst : f32
// CHECK:   scf.condition(%[[GO]]) %[[X]], %[[N]] : f32, i32
// CHECK: } do {
// CHECK: ^bb0(%[[X2:.*]]: f32, %[[N2:.*]]: i32):
// CHECK:   %[[D:.*]] = arith.mulf %[[X2]], %{{.*}} : f32
// CHECK:   %[[N3:.*]] = arith.addi %[[N2]], %c1_i32 : i32
// CHECK:   scf.yield %[[D]], %[[N3]] : f32, i32
// CHECK: }
// CHECK: llvm.store %[[R]]#0
// PTX-LABEL: .entry grow
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: bar.sync
// PTX-SAME: setp.{{[a-z]+}}.f32
// PTX-SAME: bra
// PTX-SAME: add.rn.f32
// PTX-SAME: bra.uni
func.func @grow(%x: !tile.ptr<f32>, %count: !tile.ptr<i32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %hundred = arith.constant 100.0 : f32
  %two = arith.constant dense<2.0> : tensor<128xf32>
  %r:2 = scf.while (%a = %v, %n = %c0) : (tensor<128xf32>, i32) -> (tensor<128xf32>, i32) {
    %m = "tile.reduce"(%a) {kind = "max", axis = 0 : i32, keep_dims = false} : (tensor<128xf32>) -> f32
    %go = arith.cmpf olt, %m, %hundred : f32
    scf.condition(%go) %a, %n : tensor<128xf32>, i32
  } do {
  ^bb0(%a2: tensor<128xf32>, %n2: i32):
    %d = arith.mulf %a2, %two : tensor<128xf32>
    %n3 = arith.addi %n2, %c1 : i32
    scf.yield %d, %n3 : tensor<128xf32>, i32
  }
  "tile.store"(%p, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  "tile.store"(%count, %r#1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> ()
  return
}
