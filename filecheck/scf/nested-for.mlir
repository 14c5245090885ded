// RUN: tile-opt %s | tile-opt | FileCheck %s

// Nested loops: the tile rules are checked inside every region, and values
// from the outer loop are used in the inner one.

// CHECK-LABEL: {{^  }}func.func @nested
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %arg1 step %{{.*}} iter_args(%[[OUTER:.*]] = %{{.*}}) -> (tensor<32x32xf32>)  : i32 {
// CHECK:   scf.for %{{.*}} = %{{.*}} to %arg1 step %{{.*}} iter_args(%[[INNER:.*]] = %[[OUTER]]) -> (tensor<32x32xf32>)  : i32 {
// CHECK:     %[[B:.*]] = "tile.block_load"(%arg0)
// CHECK:     %[[S:.*]] = arith.addf %[[INNER]], %[[B]] : tensor<32x32xf32>
// CHECK:     scf.yield %[[S]] : tensor<32x32xf32>
// CHECK:   }
// CHECK:   scf.yield %{{.*}} : tensor<32x32xf32>
// CHECK: }
func.func @nested(%b: !tile.block_ptr<tensor<32x32xf32>>, %n: i32) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zero) -> (tensor<32x32xf32>) : i32 {
    %q = scf.for %j = %c0 to %n step %c1 iter_args(%in = %o) -> (tensor<32x32xf32>) : i32 {
      %t = "tile.block_load"(%b) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x32xf32>>) -> tensor<32x32xf32>
      %s = arith.addf %in, %t : tensor<32x32xf32>
      scf.yield %s : tensor<32x32xf32>
    }
    scf.yield %q : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}
