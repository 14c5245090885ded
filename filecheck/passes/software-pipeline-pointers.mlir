// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline | FileCheck %s --check-prefix=MARK
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx-sm90a | FileCheck %s --check-prefix=PTX

// tile-software-pipeline on loads through tensors of pointers, as Triton's
// tutorial 03 writes them, and the loops tile-to-simt makes of them.

// Tutorial 03: pointer tensors carried through the K loop and advanced by
// addptr, each load masked on what is left of K (`other` zero). Both
// loads are copied ahead: their addresses (a carried value advanced by an
// invariant) and masks (from the induction variable) are known for any
// later iteration. In the PTX the masked-off runs read nothing and fill
// zeros (cp.async's ignore-src predicate), and each run's address is
// stepped by an add-with-carry pair the loop carries.
// MARK-LABEL: func.func @carried
// MARK: scf.for
// MARK: "tile.load"{{.*}}tile.async_copy
// MARK: "tile.load"{{.*}}tile.async_copy
// MARK: "tile.dot"
// MARK: } {tile.num_stages = 3 : i64}
// PTX-LABEL: .entry carried(
// PTX: cp.async.cg.shared.global [ %r{{[0-9]+}} ], [ %rd{{[0-9]+}} ], 16, %p{{[0-9]+}};
// PTX: cp.async.commit_group;
// PTX: cp.async.commit_group;
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX: cp.async.wait_group 1;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: cp.async.cg.shared.global [ %r{{[0-9]+}} ], [ %rd{{[0-9]+}} ], 16, %p{{[0-9]+}};
// PTX: cp.async.commit_group;
// PTX: add.cc.u32
// PTX: addc.u32
// PTX: bra{{.*}}[[LOOP]];
// PTX-NOT: ld.global
// PTX: wgmma.wait_group.sync.aligned 0;
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @carried(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
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
    %steps = arith.ceildivsi %k, %c32 : i32
    %r:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
      %done = arith.muli %i, %c32 : i32
      %left = arith.subi %k, %done : i32
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
      scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
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

// A @ B^T: B stored [N, K], its tile loaded [64, 32] (K contiguous) and
// transposed before the product. The load is copied ahead as it lies; the
// transpose relabels the tile in shared memory, so the product reads it
// K-major (no transpose bit, no stores to shared memory in the loop).
// MARK-LABEL: func.func @transposed
// MARK: "tile.load"{{.*}}tile.async_copy
// MARK-NEXT: %[[Y:.*]] = "tile.load"{{.*}}tile.async_copy
// MARK-NEXT: %[[T:.*]] = "tile.permute"(%[[Y]]) {order = array<i32: 1, 0>}
// MARK: "tile.dot"(%{{.*}}, %[[T]]
// PTX-LABEL: .entry transposed(
// PTX: [[LOOP:\$L__BB[0-9_]+]]:
// PTX-NOT: st.shared
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, 1, 1, 0, 0;
// PTX-NOT: st.shared
// PTX: bra{{.*}}[[LOOP]];
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @transposed(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %ss = "tile.splat"(%s) : (i32) -> tensor<64x1xi32>
    %rows = arith.muli %rm1, %ss : tensor<64x1xi32>
    %rowsb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %rk0 = "tile.expand_dims"(%rk) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %colsb = "tile.broadcast"(%rk0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %o = arith.addi %rowsb, %colsb : tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %pa = "tile.addptr"(%as, %o) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %o) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
    %r:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>) : i32 {
      %x = "tile.load"(%qa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%qb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %t = "tile.permute"(%y) {order = array<i32: 1, 0>} : (tensor<64x32xf16>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %t, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %step = "tile.splat"(%c32) : (i32) -> tensor<64x32xi32>
      %na = "tile.addptr"(%qa, %step) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %nb = "tile.addptr"(%qb, %step) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %r64 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rc = arith.muli %r64, %c64 : tensor<64x1xi32>
    %rcb = "tile.broadcast"(%rc) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %cn = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %ccb = "tile.broadcast"(%cn) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %oc = arith.addi %rcb, %ccb : tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %oc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// A masked load whose masked-off lanes read 1.0 cannot be copied ahead
// (cp.async fills zeros): it is issued one iteration ahead into registers
// instead: the first tile before the loop, the next one after the
// product, under a branch that skips it in the last iteration.
// MARK-LABEL: func.func @nonzero_other
// MARK: "tile.load"{{.*}}tile.prefetch, tile.vector_width = 4
// MARK: } {tile.num_stages = 3 : i64}
// PTX-LABEL: .entry nonzero_other(
// PTX: ld.global.v2.b32
// PTX: wgmma.mma_async
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: @%p{{[0-9]+}} bra
// PTX: ld.global.v2.b32
// Left alone: rows no specialization proves aligned (each access moves
// one element; issued ahead they would double the kernel's loads), and a
// loop that also stores (a load moved ahead could read before a store it
// followed).
// MARK-LABEL: func.func @unaligned
// MARK-NOT: tile.prefetch
// MARK-LABEL: func.func @stores_too
// MARK-NOT: tile.prefetch
// MARK: return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @nonzero_other(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.divisibility = 16 : i32}, %k: i32, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %one = arith.constant dense<1.0> : tensor<64x64xf16>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %ss = "tile.splat"(%s) : (i32) -> tensor<64x1xi32>
    %rows = arith.muli %rm1, %ss : tensor<64x1xi32>
    %rowsb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %colsb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rowsb, %colsb : tensor<64x64xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %pa = "tile.addptr"(%as, %o) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %q = %pa) -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>) : i32 {
      %done = arith.muli %i, %c64 : i32
      %left = arith.subi %k, %done : i32
      %ls = "tile.splat"(%left) : (i32) -> tensor<64x1xi32>
      %mr = arith.cmpi slt, %rm1, %ls : tensor<64x1xi32>
      %m = "tile.broadcast"(%mr) : (tensor<64x1xi1>) -> tensor<64x64xi1>
      %x = "tile.load"(%q, %m, %one) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
      %d = "tile.dot"(%x, %x, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %step = "tile.splat"(%s) : (i32) -> tensor<64x64xi32>
      %n = "tile.addptr"(%q, %step) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
      scf.yield %d, %n : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %pc = "tile.addptr"(%cs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }

  func.func @unaligned(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %ss = "tile.splat"(%s) : (i32) -> tensor<64x1xi32>
    %rows = arith.muli %rm1, %ss : tensor<64x1xi32>
    %rowsb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %colsb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rowsb, %colsb : tensor<64x64xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %pa = "tile.addptr"(%as, %o) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %q = %pa) -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>) : i32 {
      %x = "tile.load"(%q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
      %d = "tile.dot"(%x, %x, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %step = "tile.splat"(%s) : (i32) -> tensor<64x64xi32>
      %n = "tile.addptr"(%q, %step) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
      scf.yield %d, %n : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %pc = "tile.addptr"(%cs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }

  func.func @stores_too(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %ss = "tile.splat"(%s) : (i32) -> tensor<64x1xi32>
    %rows = arith.muli %rm1, %ss : tensor<64x1xi32>
    %rowsb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %colsb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rowsb, %colsb : tensor<64x64xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %pa = "tile.addptr"(%as, %o) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %q = %pa) -> (tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>) : i32 {
      %x = "tile.load"(%q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
      "tile.store"(%q, %x) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xf16>) -> ()
      %d = "tile.dot"(%x, %x, %acc) {input_precision = "ieee"} : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %step = "tile.splat"(%s) : (i32) -> tensor<64x64xi32>
      %n = "tile.addptr"(%q, %step) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
      scf.yield %d, %n : tensor<64x64xf32>, tensor<64x64x!tile.ptr<f16>>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %pc = "tile.addptr"(%cs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}
// -----

// A masked load whose `other` is not zero is not copied ahead (cp.async
// fills zeros): it is loaded one iteration ahead into registers; B, whose
// `other` is zero, is still copied.
// MARK-LABEL: func.func @other_one
// MARK: "tile.load"{{.*}}tile.prefetch
// MARK: "tile.load"{{.*}}tile.async_copy
// MARK: } {tile.num_stages = 3 : i64}
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @other_one(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
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
    %steps = arith.ceildivsi %k, %c32 : i32
    %r:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %qa = %pa, %qb = %pb) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
      %done = arith.muli %i, %c32 : i32
      %left = arith.subi %k, %done : i32
      %la = "tile.splat"(%left) : (i32) -> tensor<1x32xi32>
      %ma = arith.cmpi slt, %rk0, %la : tensor<1x32xi32>
      %mab = "tile.broadcast"(%ma) : (tensor<1x32xi1>) -> tensor<64x32xi1>
      %ones = arith.constant dense<1.0> : tensor<64x32xf16>
      %x = "tile.load"(%qa, %mab, %ones) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>, tensor<64x32xf16>) -> tensor<64x32xf16>
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
      scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
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

