// RUN: tile-opt %s --split-input-file --tile-while-to-for | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-while-to-for --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm90a | FileCheck %s --check-prefix=PTX

// tile-while-to-for: a while loop that counts (`i < n` on a carried
// integer that the body steps by a positive constant, `n` defined outside
// the loop, `i` unused after it) becomes the scf.for it is: the counter is
// the induction variable, the other carried values its iter_args, the
// body moves in unchanged. Loops of any other shape are left alone.

// Tutorial 03's K loop written as `while k < K` (pointer tensors carried
// and advanced, loads masked on what is left of K): as a for loop it is
// software-pipelined like the others, its loads copied ahead with
// cp.async while wgmma multiplies.
// CHECK-LABEL: func.func @while_k
// CHECK-NOT: scf.while
// CHECK: %[[R:.*]]:3 = scf.for %[[AT:.*]] = %c0_i32 to %arg5 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[QA:.*]] = %{{.*}}, %[[QB:.*]] = %{{.*}}) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>)  : i32 {
// CHECK-NEXT: arith.subi %arg5, %[[AT]] : i32
// CHECK: "tile.dot"({{.*}}, %[[ACC]])
// CHECK-NOT: arith.addi %[[AT]]
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
// CHECK: "tile.store"(%{{.*}}, %[[R]]#0)
// PTX-LABEL: .entry while_k(
// PTX: cp.async.cg.shared.global
// PTX: cp.async.commit_group;
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX: cp.async.wait_group 1;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: cp.async.cg.shared.global
// PTX: bra{{.*}}[[LOOP]];
// PTX-NOT: ld.global
// PTX: wgmma.wait_group.sync.aligned 0;
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @while_k(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    // A [64, 32]: rows * sa + columns.
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %rk0 = "tile.expand_dims"(%rk) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %cab = "tile.broadcast"(%rk0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %oa = arith.addi %rab, %cab : tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
    // B [32, 64]: rows (K) * sb + columns.
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r:4 = scf.while (%acc = %zero, %qa = %pa, %qb = %pb, %at = %c0) : (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>, i32) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>, i32) {
      %go = arith.cmpi slt, %at, %k : i32
      scf.condition(%go) %acc, %qa, %qb, %at : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>, i32
    } do {
    ^bb0(%acc: tensor<64x64xf32>, %qa: tensor<64x32x!tile.ptr<f16>>, %qb: tensor<32x64x!tile.ptr<f16>>, %at: i32):
      %left = arith.subi %k, %at : i32
      %la = "tile.splat"(%left) : (i32) -> tensor<1x32xi32>
      %ma = arith.cmpi slt, %rk0, %la : tensor<1x32xi32>
      %mab = "tile.broadcast"(%ma) : (tensor<1x32xi1>) -> tensor<64x32xi1>
      %x = "tile.load"(%qa, %mab) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>) -> tensor<64x32xf16>
      %lb = "tile.splat"(%left) : (i32) -> tensor<32x1xi32>
      %mb = arith.cmpi slt, %rk1, %lb : tensor<32x1xi32>
      %mbb = "tile.broadcast"(%mb) : (tensor<32x1xi1>) -> tensor<32x64xi1>
      %y = "tile.load"(%qb, %mbb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi1>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %da = "tile.splat"(%c32) : (i32) -> tensor<64x32xi32>
      %na = "tile.addptr"(%qa, %da) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %db0 = arith.muli %sb, %c32 : i32
      %db = "tile.splat"(%db0) : (i32) -> tensor<32x64xi32>
      %nb = "tile.addptr"(%qb, %db) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
      %next = arith.addi %at, %c32 : i32
      scf.yield %d, %na, %nb, %next : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>, i32
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm64 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rc = arith.muli %rm64, %c64 : tensor<64x1xi32>
    %rcb = "tile.broadcast"(%rc) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %ccb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %oc = arith.addi %rcb, %ccb : tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %oc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// `n > i` counts as well; so does `c + i`. The value computed from the
// counter in the body keeps reading the induction variable.
// CHECK-LABEL: func.func @swapped
// CHECK: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %arg1 to %arg2 step %[[C3]] iter_args(%[[S:.*]] = %arg3) -> (f32)  : i64 {
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[I]] : i64 to f32
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[S]], %[[F]] : f32
// CHECK-NEXT: scf.yield %[[T]] : f32
// CHECK: "tile.store"(%arg0, %[[R]])
func.func @swapped(%out: !tile.ptr<f32>, %lo: i64, %n: i64, %s0: f32) attributes {tile.kernel} {
  %c3 = arith.constant 3 : i64
  %r:2 = scf.while (%s = %s0, %i = %lo) : (f32, i64) -> (f32, i64) {
    %go = arith.cmpi sgt, %n, %i : i64
    scf.condition(%go) %s, %i : f32, i64
  } do {
  ^bb0(%s: f32, %i: i64):
    %f = arith.sitofp %i : i64 to f32
    %t = arith.addf %s, %f : f32
    %next = arith.addi %c3, %i : i64
    scf.yield %t, %next : f32, i64
  }
  "tile.store"(%out, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}

// -----

// Left alone: the counter is read after the loop (the for loop would
// have to compute its last value).
// CHECK-LABEL: func.func @counter_read_after
// CHECK: scf.while
// CHECK-NOT: scf.for
func.func @counter_read_after(%out: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c4 : i32
    scf.yield %next : i32
  }
  "tile.store"(%out, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> ()
  return
}

// -----

// Left alone: `i <= n` (scf.for stops below its bound), a step that is not
// a positive constant, a bound the loop computes, a condition on anything
// but the counter's comparison, a bound the loop carries (and changes), a
// condition block that also writes memory, a counter stepped by `subi`.
// CHECK-LABEL: func.func @other_shapes
// CHECK-COUNT-8: scf.while
// CHECK-NOT: scf.for
func.func @other_shapes(%out: !tile.ptr<f32>, %n: i32, %step: i32, %s0: f32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %r1:2 = scf.while (%s = %s0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpi sle, %i, %n : i32
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %s, %next : f32, i32
  }
  %r2:2 = scf.while (%s = %r1#0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.addi %i, %step : i32
    scf.yield %s, %next : f32, i32
  }
  %r3:2 = scf.while (%s = %r2#0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.addi %i, %cm1 : i32
    scf.yield %s, %next : f32, i32
  }
  %r4:2 = scf.while (%s = %r3#0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %m = arith.muli %n, %n : i32
    %go = arith.cmpi slt, %i, %m : i32
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %s, %next : f32, i32
  }
  %r5:2 = scf.while (%s = %r4#0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %z = arith.constant 0.0 : f32
    %go = arith.cmpf olt, %s, %z : f32
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %s, %next : f32, i32
  }
  %r6:2 = scf.while (%m = %n, %i = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %m : i32
    scf.condition(%go) %m, %i : i32, i32
  } do {
  ^bb0(%m: i32, %i: i32):
    %fewer = arith.subi %m, %c1 : i32
    %next = arith.addi %i, %c1 : i32
    scf.yield %fewer, %next : i32, i32
  }
  %r7:2 = scf.while (%s = %r5#0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    "tile.store"(%out, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %s, %next : f32, i32
  }
  %r8:2 = scf.while (%s = %r7#0, %i = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %s, %i : f32, i32
  } do {
  ^bb0(%s: f32, %i: i32):
    %next = arith.subi %i, %c1 : i32
    scf.yield %s, %next : f32, i32
  }
  "tile.store"(%out, %r8#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}
