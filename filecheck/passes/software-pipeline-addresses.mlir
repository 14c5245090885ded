// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline | FileCheck %s --check-prefix=MARK
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s --check-prefix=SIMT

// How a pipelined loop finds the addresses of the tiles it copies ahead
// (crates/passes/src/loop_slice.rs): an address that changes by the same
// amount each iteration is carried and stepped (one add-with-carry pair a
// run, `add.cc.u32`); any other is computed again for the iteration ahead
// from the loop's address slice; one that depends on a load in the loop
// cannot be known ahead, and its load is not copied. A's K offset is
// computed in the body from the induction variable each way below; B's
// pointers are loop-invariant (stepped by nothing: two runs, two pairs).

// `i * 32`: affine (a product of the induction variable and an invariant,
// splatted, added to invariant offsets), so stepped.
// MARK-LABEL: func.func @affine_offsets
// MARK: "tile.load"{{.*}}tile.async_copy
// MARK: "tile.load"{{.*}}tile.async_copy
// Two runs of A and two of B, each stepped.
// SIMT-LABEL: gpu.func @affine_offsets
// SIMT: scf.for
// SIMT-COUNT-4: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @affine_offsets(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
      %koff = arith.muli %i, %c32 : i32
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// `(i % 2) * 32`: the same two K blocks in turn, not affine, so the
// addresses of the tile two iterations ahead are computed again in the
// loop (the remainder among them), and nothing is stepped.
// MARK-LABEL: func.func @alternating_offsets
// MARK: "tile.load"{{.*}}tile.async_copy
// SIMT-LABEL: gpu.func @alternating_offsets
// SIMT: scf.for
// SIMT: arith.remsi
// SIMT-COUNT-2: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @alternating_offsets(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
      %c2 = arith.constant 2 : i32
      %par = arith.remsi %i, %c2 : i32
      %koff = arith.muli %par, %c32 : i32
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// An offset read from memory in the loop (`ks[i] * 32`) cannot be known
// ahead: A's load is not copied (B's still is).
// MARK-LABEL: func.func @loaded_offsets
// MARK: "tile.load"{{.*}} -> i32
// MARK: "tile.load"
// MARK-NOT: tile.async_copy
// MARK-SAME: -> tensor<64x32xf16
// MARK: "tile.load"{{.*}}tile.async_copy
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @loaded_offsets(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32, %ks_ptr: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
      %kp = "tile.addptr"(%ks_ptr, %i) : (!tile.ptr<i32>, i32) -> !tile.ptr<i32>
      %kv = "tile.load"(%kp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (!tile.ptr<i32>) -> i32
      %koff = arith.muli %kv, %c32 : i32
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// Invariants computed in the body (constants, their maximum, a product of
// them) keep `i * step` affine: stepped, as @affine_offsets.
// SIMT-LABEL: gpu.func @invariants_in_body
// SIMT: scf.for
// SIMT-COUNT-4: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @invariants_in_body(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
      %c32b = arith.constant 32 : i32
      %c16b = arith.constant 16 : i32
      %big = arith.maxsi %c32b, %c16b : i32
      %one = arith.constant 1 : i32
      %step = arith.muli %big, %one : i32
      %koff = arith.muli %i, %step : i32
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}


// -----

// A base the loop carries and yields unchanged is invariant: A's
// addresses from it are stepped too.
// SIMT-LABEL: gpu.func @carried_base
// SIMT: scf.for
// SIMT-COUNT-4: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @carried_base(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %base = %as) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>) : i32 {
      %koff = arith.muli %i, %c32 : i32
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%base, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %d, %base : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// Tutorial 03's form: A's pointers carried and advanced by `addptr` of an
// invariant each iteration: stepped.
// SIMT-LABEL: gpu.func @carried_advanced
// SIMT: scf.for
// SIMT-COUNT-4: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @carried_advanced(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %rk00 = "tile.expand_dims"(%rk) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %rkb = "tile.broadcast"(%rk00) : (tensor<1x32xi32>) -> tensor<64x32xi32>
    %oa0 = arith.addi %rab, %rkb : tensor<64x32xi32>
    %pa0 = "tile.addptr"(%as, %oa0) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
    %c32t = arith.constant dense<32> : tensor<64x32xi32>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %pa = %pa0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>) : i32 {
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %next = "tile.addptr"(%pa, %c32t) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      scf.yield %d, %next : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// A K offset the loop carries as an integer and advances by `32 + k`
// (the invariant on the left): affine, stepped.
// SIMT-LABEL: gpu.func @carried_offset
// SIMT: scf.for
// SIMT-COUNT-4: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @carried_offset(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %koff = %c0) -> (tensor<64x64xf32>, i32) : i32 {
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %knext = arith.addi %c32, %koff : i32
      scf.yield %d, %knext : tensor<64x64xf32>, i32
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// A carried offset replaced each iteration by `32 + (i % 2) * 32`: not a
// running sum of itself, not affine; only B's runs are stepped.
// SIMT-LABEL: gpu.func @carried_alternating
// SIMT: scf.for
// SIMT-COUNT-2: "add.cc.u32
// SIMT-NOT: "add.cc.u32
// SIMT: gpu.return
module attributes {tile.num_stages = 3 : i32, tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @carried_alternating(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sa: i32 {tile.divisibility = 16 : i32}, %sb: i32 {tile.divisibility = 16 : i32}, %steps: i32) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %rm = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %rk = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %rm1 = "tile.expand_dims"(%rm) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %sas = "tile.splat"(%sa) : (i32) -> tensor<64x1xi32>
    %ra = arith.muli %rm1, %sas : tensor<64x1xi32>
    %rab = "tile.broadcast"(%ra) : (tensor<64x1xi32>) -> tensor<64x32xi32>
    %as = "tile.splat"(%a) : (!tile.ptr<f16>) -> tensor<64x32x!tile.ptr<f16>>
    %rk1 = "tile.expand_dims"(%rk) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %sbs = "tile.splat"(%sb) : (i32) -> tensor<32x1xi32>
    %rb = arith.muli %rk1, %sbs : tensor<32x1xi32>
    %rbb = "tile.broadcast"(%rb) : (tensor<32x1xi32>) -> tensor<32x64xi32>
    %rn0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cbb = "tile.broadcast"(%rn0) : (tensor<1x64xi32>) -> tensor<32x64xi32>
    %ob = arith.addi %rbb, %cbb : tensor<32x64xi32>
    %bs = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<32x64x!tile.ptr<f16>>
    %pb = "tile.addptr"(%bs, %ob) : (tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>) -> tensor<32x64x!tile.ptr<f16>>
    %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %zero, %koff = %c0) -> (tensor<64x64xf32>, i32) : i32 {
      %ks = "tile.splat"(%koff) : (i32) -> tensor<32xi32>
      %kc = arith.addi %ks, %rk : tensor<32xi32>
      %kc0 = "tile.expand_dims"(%kc) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
      %kcb = "tile.broadcast"(%kc0) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %oa = arith.addi %rab, %kcb : tensor<64x32xi32>
      %pa = "tile.addptr"(%as, %oa) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>) -> tensor<64x32x!tile.ptr<f16>>
      %x = "tile.load"(%pa) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
      %y = "tile.load"(%pb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %c2 = arith.constant 2 : i32
      %par = arith.remsi %i, %c2 : i32
      %alt = arith.muli %par, %c32 : i32
      %knext = arith.addi %c32, %alt : i32
      scf.yield %d, %knext : tensor<64x64xf32>, i32
    }
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %rm0 = "tile.expand_dims"(%rm) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cc = "tile.broadcast"(%rm0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %pc = "tile.addptr"(%cs, %cc) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%pc, %r#0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}
