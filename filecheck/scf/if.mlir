// RUN: tile-opt %s | tile-opt | FileCheck %s

// scf.if yielding a tensor and a block pointer built in each branch.

// CHECK-LABEL: {{^  }}func.func @choose
// CHECK: %[[R:.*]]:2 = scf.if %arg0 -> (tensor<16xi32>, !tile.block_ptr<tensor<16xi32>>) {
// CHECK:   "tile.arange"() {end = 16 : i32, start = 0 : i32}
// CHECK:   scf.yield %{{.*}}, %arg1 : tensor<16xi32>, !tile.block_ptr<tensor<16xi32>>
// CHECK: } else {
// CHECK:   "tile.arange"() {end = 32 : i32, start = 16 : i32}
// CHECK:   %[[A:.*]] = "tile.advance"(%arg1, %{{.*}}) : (!tile.block_ptr<tensor<16xi32>>, i32) -> !tile.block_ptr<tensor<16xi32>>
// CHECK:   scf.yield %{{.*}}, %[[A]] : tensor<16xi32>, !tile.block_ptr<tensor<16xi32>>
// CHECK: }
// CHECK: "tile.block_store"(%[[R]]#1, %[[R]]#0)
func.func @choose(%c: i1, %b: !tile.block_ptr<tensor<16xi32>>) {
  %r:2 = scf.if %c -> (tensor<16xi32>, !tile.block_ptr<tensor<16xi32>>) {
    %0 = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
    scf.yield %0, %b : tensor<16xi32>, !tile.block_ptr<tensor<16xi32>>
  } else {
    %1 = "tile.arange"() {start = 16 : i32, end = 32 : i32} : () -> tensor<16xi32>
    %c16 = arith.constant 16 : i32
    %2 = "tile.advance"(%b, %c16) : (!tile.block_ptr<tensor<16xi32>>, i32) -> !tile.block_ptr<tensor<16xi32>>
    scf.yield %1, %2 : tensor<16xi32>, !tile.block_ptr<tensor<16xi32>>
  }
  "tile.block_store"(%r#1, %r#0) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16xi32>>, tensor<16xi32>) -> ()
  return
}
