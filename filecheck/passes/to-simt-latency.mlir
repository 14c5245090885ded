// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-software-pipeline --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// A kernel with a loop whose loaded tile dies into a value the loop carries
// (a running sum), and no product, asks ptxas to schedule for latency
// (`.minnctapersm 1`): its loads go out together instead of one waiting for
// the next. Kernels without such a loop (the tile used again after its own
// reduction, a loop that carries nothing it loaded, no loop), or with a
// product, keep ptxas's own choice (no directive).

// CHECK-LABEL: gpu.func @sum_in_loop
// CHECK-SAME: nvvm.minctasm = 1 : i32
// PTX: .entry sum_in_loop({{.*}}.maxntid 128, 1, 1\0A.minnctapersm 1\0A{
module attributes {tile.num_warps = 4 : i32} {
func.func @sum_in_loop(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %ns = "tile.splat"(%n) : (i32) -> tensor<256xi32>
  %z = arith.constant dense<0.0> : tensor<256xf32>
  %acc = scf.for %i = %c0 to %n step %c256 iter_args(%a = %z) -> (tensor<256xf32>) : i32 {
    %s = "tile.splat"(%i) : (i32) -> tensor<256xi32>
    %offs = arith.addi %s, %r : tensor<256xi32>
    %m = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %p = "tile.addptr"(%xs, %offs) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>, tensor<256xi1>) -> tensor<256xf32>
    %b = arith.addf %a, %v : tensor<256xf32>
    scf.yield %b : tensor<256xf32>
  }
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %q = "tile.addptr"(%os, %r) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  "tile.store"(%q, %acc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  return
}
}

// -----

// A block pointer loaded in a `while` loop counts too, its tile summed
// into a running scalar (the reduction before the running value is no
// reuse of the tile).
// CHECK-LABEL: gpu.func @block_load_in_while
// CHECK-SAME: nvvm.minctasm = 1 : i32
// PTX: .entry block_load_in_while({{.*}}.maxntid 128, 1, 1\0A.minnctapersm 1\0A{
module attributes {tile.num_warps = 4 : i32} {
func.func @block_load_in_while(%base: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32, %iters: i32) attributes {tile.kernel} {
  %bp = "tile.make_block_ptr"(%base, %n, %s, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<128xf32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant 128 : i32
  %zero = arith.constant 0.0 : f32
  %r:3 = scf.while (%i = %c0, %p = %bp, %acc = %zero) : (i32, !tile.block_ptr<tensor<128xf32>>, f32) -> (i32, !tile.block_ptr<tensor<128xf32>>, f32) {
    %go = arith.cmpi slt, %i, %iters : i32
    scf.condition(%go) %i, %p, %acc : i32, !tile.block_ptr<tensor<128xf32>>, f32
  } do {
  ^bb0(%j: i32, %q: !tile.block_ptr<tensor<128xf32>>, %a: f32):
    %t = "tile.block_load"(%q) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
    %u = arith.mulf %t, %t : tensor<128xf32>
    %sum = "tile.reduce"(%u) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<128xf32>) -> f32
    %na = arith.addf %a, %sum : f32
    %nq = "tile.advance"(%q, %step) : (!tile.block_ptr<tensor<128xf32>>, i32) -> !tile.block_ptr<tensor<128xf32>>
    %nj = arith.addi %j, %c1 : i32
    scf.yield %nj, %nq, %na : i32, !tile.block_ptr<tensor<128xf32>>, f32
  }
  "tile.store"(%out, %r#2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}
}

// -----

// A running value reached through an `scf.if` in the loop counts.
// CHECK-LABEL: gpu.func @sum_through_if
// CHECK-SAME: nvvm.minctasm = 1 : i32
module attributes {tile.num_warps = 4 : i32} {
func.func @sum_through_if(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32, %flag: i1) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %z = arith.constant dense<0.0> : tensor<256xf32>
  %acc = scf.for %i = %c0 to %n step %c256 iter_args(%a = %z) -> (tensor<256xf32>) : i32 {
    %s = "tile.splat"(%i) : (i32) -> tensor<256xi32>
    %offs = arith.addi %s, %r : tensor<256xi32>
    %p = "tile.addptr"(%xs, %offs) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
    %b = scf.if %flag -> (tensor<256xf32>) {
      %c = arith.addf %a, %v : tensor<256xf32>
      scf.yield %c : tensor<256xf32>
    } else {
      scf.yield %a : tensor<256xf32>
    }
    scf.yield %b : tensor<256xf32>
  }
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %q = "tile.addptr"(%os, %r) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  "tile.store"(%q, %acc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  return
}
}

// -----

// An online maximum and sum of exponentials: the tile is used again after
// its own reduction (`exp(x - max)`), so every element stays live across
// it and ptxas issues the loads together by itself: no directive.
// CHECK-LABEL: gpu.func @online_max_sum
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.return
// PTX: .entry online_max_sum({{.*}}.maxntid 128, 1, 1\0A{
module attributes {tile.num_warps = 4 : i32} {
func.func @online_max_sum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %res:2 = scf.for %i = %c0 to %n step %c256 iter_args(%m = %ninf, %s = %zero) -> (f32, f32) : i32 {
    %si = "tile.splat"(%i) : (i32) -> tensor<256xi32>
    %offs = arith.addi %si, %r : tensor<256xi32>
    %p = "tile.addptr"(%xs, %offs) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
    %bm = "tile.reduce"(%v) {axis = 0 : i32, keep_dims = false, kind = "max"} : (tensor<256xf32>) -> f32
    %nm = arith.maximumf %m, %bm : f32
    %nms = "tile.splat"(%nm) : (f32) -> tensor<256xf32>
    %d = arith.subf %v, %nms : tensor<256xf32>
    %e = math.exp %d : tensor<256xf32>
    %es = "tile.reduce"(%e) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<256xf32>) -> f32
    %dm = arith.subf %m, %nm : f32
    %sc = math.exp %dm : f32
    %ss = arith.mulf %s, %sc : f32
    %ns = arith.addf %ss, %es : f32
    scf.yield %nm, %ns : f32, f32
  }
  %t = arith.addf %res#0, %res#1 : f32
  "tile.store"(%out, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> ()
  return
}
}

// -----

// A loop that loads, computes and stores, carrying nothing it loaded: its
// loads go out together before the stores anyway: no directive.
// CHECK-LABEL: gpu.func @load_compute_store_loop
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.return
// PTX: .entry load_compute_store_loop({{.*}}.maxntid 128, 1, 1\0A{
module attributes {tile.num_warps = 4 : i32} {
func.func @load_compute_store_loop(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c1024 : i32 {
    %s = "tile.splat"(%i) : (i32) -> tensor<1024xi32>
    %offs = arith.addi %s, %r : tensor<1024xi32>
    %p = "tile.addptr"(%xs, %offs) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
    %e = math.exp %v : tensor<1024xf32>
    %q = "tile.addptr"(%ys, %offs) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
    "tile.store"(%q, %e) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>) -> ()
  }
  return
}
}

// -----

// A load before a loop that loads nothing: no directive.
// CHECK-LABEL: gpu.func @load_before_loop
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.return
// PTX: .entry load_before_loop({{.*}}.maxntid 128, 1, 1\0A{
module attributes {tile.num_warps = 4 : i32} {
func.func @load_before_loop(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %v) -> (tensor<256xf32>) : i32 {
    %b = arith.mulf %a, %a : tensor<256xf32>
    scf.yield %b : tensor<256xf32>
  }
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %q = "tile.addptr"(%os, %r) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  "tile.store"(%q, %acc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  return
}
}

// -----

// A loop that loads and multiplies on tensor cores: no directive (its
// operands are pipelined through shared memory instead).
// CHECK-LABEL: gpu.func @product_in_loop
// CHECK-NOT: nvvm.minctasm
// CHECK: gpu.return
// PTX: .entry product_in_loop({{.*}}.maxntid 128, 1, 1\0A{
module attributes {tile.num_warps = 4 : i32} {
func.func @product_in_loop(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %o: !tile.ptr<f32>, %iters: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1i = arith.constant 1 : i32
  %c32i = arith.constant 32 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i64
  %c4096 = arith.constant 4096 : i64
  %pa = "tile.make_block_ptr"(%a, %c32, %c4096, %c4096, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
  %pb = "tile.make_block_ptr"(%b, %c4096, %c32, %c32, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
  %po = "tile.make_block_ptr"(%o, %c32, %c32, %c32, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %r:3 = scf.for %i = %c0 to %iters step %c1i iter_args(%acc = %z, %qa = %pa, %qb = %pb) -> (tensor<32x32xf32>, !tile.block_ptr<tensor<32x32xf16>>, !tile.block_ptr<tensor<32x32xf16>>) : i32 {
    %xa = "tile.block_load"(%qa) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf16>>) -> tensor<32x32xf16>
    %xb = "tile.block_load"(%qb) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf16>>) -> tensor<32x32xf16>
    %s = "tile.dot"(%xa, %xb, %acc) {input_precision = "ieee"} : (tensor<32x32xf16>, tensor<32x32xf16>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %na = "tile.advance"(%qa, %c0, %c32i) : (!tile.block_ptr<tensor<32x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
    %nb = "tile.advance"(%qb, %c32i, %c0) : (!tile.block_ptr<tensor<32x32xf16>>, i32, i32) -> !tile.block_ptr<tensor<32x32xf16>>
    scf.yield %s, %na, %nb : tensor<32x32xf32>, !tile.block_ptr<tensor<32x32xf16>>, !tile.block_ptr<tensor<32x32xf16>>
  }
  "tile.block_store"(%po, %r#0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x32xf32>>, tensor<32x32xf32>) -> ()
  return
}
}
