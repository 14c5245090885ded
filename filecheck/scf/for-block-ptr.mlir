// RUN: tile-opt %s | tile-opt | FileCheck %s

// An scf.for carrying two block pointers and an accumulator (the
// weighted-sum kernel's loop): block loads in the body, advances yielded.

// CHECK-LABEL: {{^  }}func.func @weighted_sum
// CHECK: %[[X0:.*]] = "tile.make_block_ptr"{{.*}} -> !tile.block_ptr<tensor<16x64xf32>>
// CHECK: %[[W0:.*]] = "tile.make_block_ptr"{{.*}} -> !tile.block_ptr<tensor<64xf32>>
// CHECK: %[[N:.*]] = arith.ceildivsi %arg3, %{{.*}} : i32
// CHECK: %[[R:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[X:.*]] = %[[X0]], %[[W:.*]] = %[[W0]]) -> (tensor<16xf32>, !tile.block_ptr<tensor<16x64xf32>>, !tile.block_ptr<tensor<64xf32>>)  : i32 {
// CHECK:   "tile.block_load"(%[[X]]) {boundary_check = array<i32: 0, 1>
// CHECK:   "tile.block_load"(%[[W]]) {boundary_check = array<i32: 0>
// CHECK:   %[[XN:.*]] = "tile.advance"(%[[X]], %{{.*}}, %{{.*}}) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
// CHECK:   %[[WN:.*]] = "tile.advance"(%[[W]], %{{.*}}) : (!tile.block_ptr<tensor<64xf32>>, i32) -> !tile.block_ptr<tensor<64xf32>>
// CHECK:   scf.yield %{{.*}}, %[[XN]], %[[WN]] : tensor<16xf32>, !tile.block_ptr<tensor<16x64xf32>>, !tile.block_ptr<tensor<64xf32>>
// CHECK: }
// CHECK: "tile.block_store"(%{{.*}}, %[[R]]#0)
func.func @weighted_sum(%x: !tile.ptr<f32>, %w: !tile.ptr<f32>, %out: !tile.ptr<f32>, %d: i32, %rows: i64, %cols: i64, %s0: i64, %s1: i64) {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c16 = arith.constant 16 : i32
  %row0 = arith.muli %pid, %c16 : i32
  %c0 = arith.constant 0 : i32
  %xb = "tile.make_block_ptr"(%x, %rows, %cols, %s0, %s1, %row0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %wb = "tile.make_block_ptr"(%w, %cols, %s1, %c0) {order = array<i32: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<64xf32>>
  %ob = "tile.make_block_ptr"(%out, %rows, %s0, %row0) {order = array<i32: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<16xf32>>
  %acc0 = arith.constant dense<0.0> : tensor<16xf32>
  %c64 = arith.constant 64 : i32
  %n = arith.ceildivsi %d, %c64 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %xp = %xb, %wp = %wb) -> (tensor<16xf32>, !tile.block_ptr<tensor<16x64xf32>>, !tile.block_ptr<tensor<64xf32>>) : i32 {
    %xt = "tile.block_load"(%xp) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
    %wt = "tile.block_load"(%wp) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64xf32>>) -> tensor<64xf32>
    %we = "tile.expand_dims"(%wt) {axis = 0 : i32} : (tensor<64xf32>) -> tensor<1x64xf32>
    %wbc = "tile.broadcast"(%we) : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %prod = arith.mulf %xt, %wbc : tensor<16x64xf32>
    %rs = "tile.reduce"(%prod) {kind = "sum", axis = 1 : i32, keep_dims = false} : (tensor<16x64xf32>) -> tensor<16xf32>
    %acc1 = arith.addf %acc, %rs : tensor<16xf32>
    %xn = "tile.advance"(%xp, %c0, %c64) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
    %wn = "tile.advance"(%wp, %c64) : (!tile.block_ptr<tensor<64xf32>>, i32) -> !tile.block_ptr<tensor<64xf32>>
    scf.yield %acc1, %xn, %wn : tensor<16xf32>, !tile.block_ptr<tensor<16x64xf32>>, !tile.block_ptr<tensor<64xf32>>
  }
  "tile.block_store"(%ob, %r#0) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16xf32>>, tensor<16xf32>) -> ()
  return
}
