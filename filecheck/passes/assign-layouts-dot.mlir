// RUN: tile-opt %s --split-input-file --tile-assign-layouts | FileCheck %s

// tile-assign-layouts on products: the accumulator (and what the loop
// carries and adds to it) gets a tensor-core layout, #tile.mma version 3
// (wgmma) on sm_90 for a warpgroup's 64 rows, version 2 (mma.sync)
// otherwise; the operands keep the layouts their loads move best in; the
// store converts the result back to a blocked layout, since memory is
// never moved in a tensor-core layout. Exact f32 products (ieee) stay on
// the CUDA cores, in a blocked layout.

// CHECK-LABEL: func.func @wgmma
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>
// CHECK: %[[D:.*]] = "tile.dot"(%{{.*}}, %{{.*}}, %[[ZERO]]) {input_precision = "ieee"} : (tensor<64x32xf16, #tile.blocked<{{.*}}>>, tensor<32x64xf16, #tile.blocked<{{.*}}>>, tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>) -> tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>
// CHECK: %[[C:.*]] = "tile.convert_layout"(%[[D]]) : (tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>) -> tensor<64x64xf32, #tile.blocked<
// CHECK: "tile.block_store"(%{{.*}}, %[[C]])
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @wgmma(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// sm_80: mma.sync, the warps split over the 16x8 blocks of both axes.
// CHECK-LABEL: func.func @mma_sync
// CHECK: "tile.dot"{{.*}} -> tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @mma_sync(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// Fewer than a warpgroup's 64 rows: mma.sync on sm_90 too.
// CHECK-LABEL: func.func @small_m
// CHECK: "tile.dot"{{.*}} -> tensor<32x64xf32, #tile.mma<2 : i32, array<i32: 1, 4>, 8 : i32>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @small_m(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<bf16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xbf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<bf16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xbf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xbf16>>) -> tensor<32x32xbf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xbf16>>) -> tensor<32x64xbf16>
    %z = arith.constant dense<0.0> : tensor<32x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<32x32xbf16>, tensor<32x64xbf16>, tensor<32x64xf32>) -> tensor<32x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32>) -> ()
    return
  }
}

// -----

// Eight warps on 128 rows: two warpgroups along M, one 128-wide wgmma each.
// CHECK-LABEL: func.func @two_warpgroups
// CHECK: "tile.dot"{{.*}} -> tensor<128x128xf32, #tile.mma<3 : i32, array<i32: 8, 1>, 128 : i32>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 8 : i32} {
  func.func @two_warpgroups(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x128xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x128xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128x32xf16>>) -> tensor<128x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x128xf16>>) -> tensor<32x128xf16>
    %z = arith.constant dense<0.0> : tensor<128x128xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<128x32xf16>, tensor<32x128xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128x128xf32>>, tensor<128x128xf32>) -> ()
    return
  }
}

// -----

// TF32 and i8 products are tensor-core products too (i8 accumulates in i32).
// Tensor cores read their operands only K-major, so an operand whose
// access runs along N (B, row-major) is laid out with a 16-byte run of K
// a thread (4 f32, 16 i8) for staging it K-major in whole chunks; A, whose
// access runs along K already, keeps its layout. (These block pointers
// prove no alignment: one element an access.)
// CHECK-LABEL: func.func @tf32
// CHECK: "tile.block_load"{{.*}} -> tensor<64x32xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>
// CHECK: "tile.block_load"{{.*}} -> tensor<32x64xf32, #tile.blocked<array<i32: 4, 1>, array<i32: 1, 32>
// CHECK: "tile.dot"{{.*}} {input_precision = "tf32"} {{.*}} -> tensor<64x64xf32, #tile.mma<3 : i32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @tf32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "tf32"} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// CHECK-LABEL: func.func @int8
// CHECK: "tile.block_load"{{.*}} -> tensor<64x32xi8, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>
// CHECK: "tile.block_load"{{.*}} -> tensor<32x64xi8, #tile.blocked<array<i32: 16, 1>, array<i32: 1, 32>
// CHECK: "tile.dot"{{.*}} -> tensor<64x64xi32, #tile.mma<3 : i32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @int8(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xi8>>) -> tensor<64x32xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xi8>>) -> tensor<32x64xi8>
    %z = arith.constant dense<0> : tensor<64x64xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xi8>, tensor<32x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xi32>>, tensor<64x64xi32>) -> ()
    return
  }
}

// -----

// Exact f32 products: a blocked accumulator, nothing to convert.
// CHECK-LABEL: func.func @ieee
// CHECK: "tile.dot"{{.*}} {input_precision = "ieee"} {{.*}} -> tensor<64x64xf32, #tile.blocked<
// CHECK-NOT: tile.convert_layout
// CHECK: "tile.block_store"
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @ieee(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// Through tensors of pointers the same holds at every access: C loaded as
// the accumulator moves in a blocked layout and is converted to the
// tensor-core one; the product is converted back before it is stored and
// before it is added atomically.
// CHECK-LABEL: func.func @pointer_accesses
// CHECK: %[[L:.*]] = "tile.load"({{.*}}) -> tensor<64x64xf32, #tile.blocked<
// CHECK: "tile.convert_layout"(%[[L]]) : (tensor<64x64xf32, #tile.blocked<{{.*}}>>) -> tensor<64x64xf32, #tile.mma<3
// CHECK: %[[D:.*]] = "tile.dot"
// CHECK: %[[S:.*]] = "tile.convert_layout"(%[[D]]) : (tensor<64x64xf32, #tile.mma<3{{.*}}>>) -> tensor<64x64xf32, #tile.blocked<
// CHECK: "tile.store"(%{{.*}}, %[[S]])
// CHECK: %[[A:.*]] = "tile.convert_layout"(%[[D]]) : (tensor<64x64xf32, #tile.mma<3{{.*}}>>) -> tensor<64x64xf32, #tile.blocked<
// CHECK: "tile.atomic_rmw"(%{{.*}}, %[[A]])
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @pointer_accesses(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rows = arith.muli %r1, %c64 : tensor<64x1xi32>
    %rb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %r0 = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cb = "tile.broadcast"(%r0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rb, %cb : tensor<64x64xi32>
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %pc = "tile.addptr"(%cs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    %cin = "tile.load"(%pc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %cin) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.store"(%pc, %d) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
    %old = "tile.atomic_rmw"(%pc, %d) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return
  }
}

// -----

// A warpgroup's 64 rows by 256 columns: one wgmma instruction 256 wide for
// f16 inputs; i8's widest is 128.
// CHECK-LABEL: func.func @wide_f16
// CHECK: "tile.dot"{{.*}} -> tensor<64x256xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 256 : i32>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @wide_f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x256xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x256xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x256xf16>>) -> tensor<32x256xf16>
    %z = arith.constant dense<0.0> : tensor<64x256xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x256xf16>, tensor<64x256xf32>) -> tensor<64x256xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x256xf32>>, tensor<64x256xf32>) -> ()
    return
  }
}

// -----

// CHECK-LABEL: func.func @wide_i8
// CHECK: "tile.dot"{{.*}} -> tensor<64x256xi32, #tile.mma<3 : i32, array<i32: 4, 1>, 128 : i32>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @wide_i8(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x256xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x256xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xi8>>) -> tensor<64x32xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x256xi8>>) -> tensor<32x256xi8>
    %z = arith.constant dense<0> : tensor<64x256xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xi8>, tensor<32x256xi8>, tensor<64x256xi32>) -> tensor<64x256xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x256xi32>>, tensor<64x256xi32>) -> ()
    return
  }
}

// -----

// i8 on wgmma is read K-major only: an A stored M-major (order [0, 1])
// is loaded in 16-byte runs of K, one column a thread, so that its copy
// into shared memory still moves vectors.
// CHECK-LABEL: func.func @a_m_major_i8
// CHECK: "tile.block_load"{{.*}} -> tensor<64x32xi8, #tile.blocked<array<i32: 1, 16>, array<i32: 32, 1>, array<i32: 2, 2>, array<i32: 0, 1>>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @a_m_major_i8(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %c1, %m, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xi8>>) -> tensor<64x32xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xi8>>) -> tensor<32x64xi8>
    %z = arith.constant dense<0> : tensor<64x64xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xi8>, tensor<32x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xi32>>, tensor<64x64xi32>) -> ()
    return
  }
}

// -----

// A run of K is at most what a thread's share of the tile holds: 64x16
// i8 over 4 warps is 8 elements a thread, so A (M-major) and B (N-major)
// take runs of 8, not 16 (the 16 bytes an access could move).
// CHECK-LABEL: func.func @k_runs_by_share
// CHECK: "tile.block_load"{{.*}} -> tensor<64x16xi8, #tile.blocked<array<i32: 1, 8>, array<i32: 32, 1>, array<i32: 2, 2>, array<i32: 0, 1>>
// CHECK: "tile.block_load"{{.*}} -> tensor<16x64xi8, #tile.blocked<array<i32: 8, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @k_runs_by_share(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %c1, %m, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xi8>>) -> tensor<64x16xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xi8>>) -> tensor<16x64xi8>
    %z = arith.constant dense<0> : tensor<64x64xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x16xi8>, tensor<16x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xi32>>, tensor<64x64xi32>) -> ()
    return
  }
}

// -----

// Over 16 warps the share is 2 elements: runs of 2 (a run of one is no
// run: the layout would stay as it was loaded).
// CHECK-LABEL: func.func @k_runs_of_two_i8
// CHECK: "tile.block_load"{{.*}} -> tensor<64x16xi8, #tile.blocked<array<i32: 1, 2>, array<i32: 32, 1>, array<i32: 2, 8>, array<i32: 0, 1>>
// CHECK: "tile.block_load"{{.*}} -> tensor<16x64xi8, #tile.blocked<array<i32: 2, 1>, array<i32: 1, 32>, array<i32: 8, 2>, array<i32: 1, 0>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 16 : i32} {
  func.func @k_runs_of_two_i8(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %c1, %m, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xi8>>) -> tensor<64x16xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xi8>>) -> tensor<16x64xi8>
    %z = arith.constant dense<0> : tensor<64x64xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x16xi8>, tensor<16x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xi32>>, tensor<64x64xi32>) -> ()
    return
  }
}

// -----

// The same in TF32 (f32 read K-major only): runs of 2.
// CHECK-LABEL: func.func @k_runs_of_two_tf32
// CHECK: "tile.block_load"{{.*}} -> tensor<64x16xf32, #tile.blocked<array<i32: 1, 2>, array<i32: 32, 1>, array<i32: 2, 8>, array<i32: 0, 1>>
// CHECK: "tile.block_load"{{.*}} -> tensor<16x64xf32, #tile.blocked<array<i32: 2, 1>, array<i32: 1, 32>, array<i32: 8, 2>, array<i32: 1, 0>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 16 : i32} {
  func.func @k_runs_of_two_tf32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %c1, %m, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xf32>>) -> tensor<64x16xf32>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "tf32"} : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// With the sizes and pointers known to be multiples of 16, the loads run
// in vectors along M and N: each thread then takes its runs of K for 4
// neighbouring columns of i8, so that a load along M or N still moves 4
// bytes; the share of 16 elements leaves runs of 4.
// CHECK-LABEL: func.func @k_runs_four_columns_i8
// CHECK: "tile.block_load"{{.*}} -> tensor<64x32xi8, #tile.blocked<array<i32: 4, 4>, array<i32: 16, 2>, array<i32: 1, 4>, array<i32: 0, 1>>
// CHECK: "tile.block_load"{{.*}} -> tensor<32x64xi8, #tile.blocked<array<i32: 4, 4>, array<i32: 2, 16>, array<i32: 4, 1>, array<i32: 1, 0>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @k_runs_four_columns_i8(%a: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %b: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %c: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %c1, %m, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xi8>>) -> tensor<64x32xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xi8>>) -> tensor<32x64xi8>
    %z = arith.constant dense<0> : tensor<64x64xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xi8>, tensor<32x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xi32>>, tensor<64x64xi32>) -> ()
    return
  }
}

// -----

// The same in TF32: 2 neighbouring columns (8 bytes a load), runs of 4
// (16 bytes).
// CHECK-LABEL: func.func @k_runs_two_columns_tf32
// CHECK: "tile.block_load"{{.*}} -> tensor<64x16xf32, #tile.blocked<array<i32: 2, 4>, array<i32: 32, 1>, array<i32: 1, 4>, array<i32: 0, 1>>
// CHECK: "tile.block_load"{{.*}} -> tensor<16x64xf32, #tile.blocked<array<i32: 4, 2>, array<i32: 1, 32>, array<i32: 4, 1>, array<i32: 1, 0>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @k_runs_two_columns_tf32(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64 {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}, %k: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %c1, %m, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xf32>>) -> tensor<64x16xf32>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "tf32"} : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// Split-K: the product is only added atomically, so the atomic's own
// access decides its pointers' layout (16-byte runs along N, C aligned),
// and the product is converted to it.
// CHECK-LABEL: func.func @split_k_atomic
// CHECK: "tile.atomic_rmw"{{.*}} : (tensor<64x64x!tile.ptr<f32>, #tile.blocked<array<i32: 1, 4>, array<i32: 2, 16>, array<i32: 4, 1>, array<i32: 1, 0>>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @split_k_atomic(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rows = arith.muli %r1, %c64 : tensor<64x1xi32>
    %rb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %r0 = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cb = "tile.broadcast"(%r0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rb, %cb : tensor<64x64xi32>
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %pc = "tile.addptr"(%cs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    %cin = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %cin) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %old = "tile.atomic_rmw"(%pc, %d) {kind = "add", sem = "relaxed", scope = "gpu", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return
  }
}

// -----

// The accumulator loaded through pointers and the product stored through
// a block pointer: the load's own access decides its pointers' layout.
// CHECK-LABEL: func.func @accumulator_loaded
// CHECK: "tile.load"{{.*}} : (tensor<64x64x!tile.ptr<f32>, #tile.blocked<array<i32: 1, 4>, array<i32: 2, 16>, array<i32: 4, 1>, array<i32: 1, 0>>>
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @accumulator_loaded(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %r1 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rows = arith.muli %r1, %c64 : tensor<64x1xi32>
    %rb = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %r0 = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %cb = "tile.broadcast"(%r0) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %o = arith.addi %rb, %cb : tensor<64x64xi32>
    %cs = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %pc = "tile.addptr"(%cs, %o) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    %cin = "tile.load"(%pc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %cin) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %pe = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    "tile.block_store"(%pe, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
