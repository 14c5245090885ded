// RUN: tile-opt %s --tile-assign-layouts | FileCheck %s

// A tensor constant used by two tiles (here the zero `other` of two loads,
// one along rows and one down columns, as `cse` leaves them) gets a copy
// per use, so each load keeps the layout its access moves best in: the
// constant is not a reason to tie them, and no 64x64 tile is converted.
// CHECK-LABEL: func.func @shared_zero
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 32, 1>, array<i32: 2, 2>, array<i32: 0, 1>>>
// CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tile.blocked<array<i32: 1, 1>, array<i32: 1, 32>, array<i32: 2, 2>, array<i32: 1, 0>>>
// CHECK-NOT: "tile.convert_layout"({{.*}}) : (tensor<64x64xf32
// CHECK: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @shared_zero(%x: !tile.ptr<f32>, %ya: !tile.ptr<f32>, %yb: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %ra = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
    %ia = "tile.expand_dims"(%ra) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %ja = "tile.expand_dims"(%ra) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %sia = arith.constant dense<64> : tensor<64x1xi32>
    %sja = arith.constant dense<1> : tensor<1x64xi32>
    %iia = arith.muli %ia, %sia : tensor<64x1xi32>
    %jja = arith.muli %ja, %sja : tensor<1x64xi32>
    %bia = "tile.broadcast"(%iia) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %bja = "tile.broadcast"(%jja) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %oa = arith.addi %bia, %bja : tensor<64x64xi32>
    %na = "tile.splat"(%n) : (i32) -> tensor<64x64xi32>
    %ma = arith.cmpi slt, %oa, %na : tensor<64x64xi32>
    %pa = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %aa = "tile.addptr"(%pa, %oa) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    %va = "tile.load"(%aa, %ma, %zero) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi1>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %qa = "tile.splat"(%ya) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %wa = "tile.addptr"(%qa, %oa) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%wa, %va, %ma) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
    %rb = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
    %ib = "tile.expand_dims"(%rb) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %jb = "tile.expand_dims"(%rb) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %sib = arith.constant dense<1> : tensor<64x1xi32>
    %sjb = arith.constant dense<64> : tensor<1x64xi32>
    %iib = arith.muli %ib, %sib : tensor<64x1xi32>
    %jjb = arith.muli %jb, %sjb : tensor<1x64xi32>
    %bib = "tile.broadcast"(%iib) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %bjb = "tile.broadcast"(%jjb) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %ob = arith.addi %bib, %bjb : tensor<64x64xi32>
    %nb = "tile.splat"(%n) : (i32) -> tensor<64x64xi32>
    %mb = arith.cmpi slt, %ob, %nb : tensor<64x64xi32>
    %pb = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %ab = "tile.addptr"(%pb, %ob) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    %vb = "tile.load"(%ab, %mb, %zero) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi1>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %qb = "tile.splat"(%yb) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %wb = "tile.addptr"(%qb, %ob) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%wb, %vb, %mb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
    return
  }
}
