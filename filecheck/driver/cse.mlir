// RUN: tile-opt %s --cse | FileCheck %s

// Upstream cse on tile IR: duplicated pure arith ops (extsi of the same
// argument, equal constants) merge and their uses are rewired; tile ops
// stay, and two equal loads around a store are not merged.

// CHECK-LABEL: {{^  }}func.func @dedup
// CHECK: %[[EXT:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK-NOT: arith.extsi
// CHECK: %[[C:.*]] = arith.constant 1 : i64
// CHECK-NOT: arith.constant 1 : i64
// CHECK: %[[ROW:.*]] = "tile.make_block_ptr"(%arg0, %[[EXT]], %[[EXT]], %[[EXT]], %[[C]], %{{.*}}, %{{.*}}) {{.*}}order = array<i32: 1, 0>
// CHECK: %[[COL:.*]] = "tile.make_block_ptr"(%arg0, %[[EXT]], %[[EXT]], %[[C]], %[[EXT]], %{{.*}}, %{{.*}}) {{.*}}order = array<i32: 0, 1>
// CHECK: %[[T:.*]] = "tile.block_load"(%[[COL]])
// CHECK: "tile.block_store"(%[[ROW]], %[[T]])
// CHECK: return
func.func @dedup(%p: !tile.ptr<f32>, %n: i32) {
  %a = arith.extsi %n : i32 to i64
  %c1 = arith.constant 1 : i64
  %b = arith.extsi %n : i32 to i64
  %c1b = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %row = "tile.make_block_ptr"(%p, %a, %b, %a, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
  %col = "tile.make_block_ptr"(%p, %b, %a, %c1b, %b, %c0, %c0) {order = array<i32: 0, 1>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xf32>>
  %t = "tile.block_load"(%col) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32>
  "tile.block_store"(%row, %t) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x32xf32>>, tensor<32x32xf32>) -> ()
  return
}

// A store between two equal loads: merging them would read stale memory.
// CHECK-LABEL: {{^  }}func.func @load_store_load
// CHECK: %[[X:.*]] = "tile.load"(%arg0)
// CHECK: "tile.store"(%arg0, %arg1)
// CHECK: %[[Y:.*]] = "tile.load"(%arg0)
// CHECK: return %[[X]], %[[Y]] : tensor<16xf32>, tensor<16xf32>
func.func @load_store_load(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %x = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> ()
  %y = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf32>
  return %x, %y : tensor<16xf32>, tensor<16xf32>
}
