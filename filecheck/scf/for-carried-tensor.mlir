// RUN: tile-opt %s | tile-opt | FileCheck %s

// An scf.for with i32 bounds carrying an accumulator tensor and a tensor of
// pointers, the shape of a row-sum loop over column blocks.

// CHECK-LABEL: {{^  }}func.func @row_sum
// CHECK: %[[ACC0:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK: %[[PTRS0:.*]] = "tile.addptr"
// CHECK: %[[RES:.*]]:2 = scf.for %[[IV:.*]] = %{{.*}} to %arg1 step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]], %[[PTRS:.*]] = %[[PTRS0]]) -> (tensor<64xf32>, tensor<64x!tile.ptr<f32>>)  : i32 {
// CHECK:   %[[X:.*]] = "tile.load"(%[[PTRS]]) {{.*}} : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
// CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]] : tensor<64xf32>
// CHECK:   %[[NEXT:.*]] = "tile.addptr"(%[[PTRS]], %{{.*}}) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
// CHECK:   scf.yield %[[SUM]], %[[NEXT]] : tensor<64xf32>, tensor<64x!tile.ptr<f32>>
// CHECK: }
// CHECK: "tile.reduce"(%[[RES]]#0) {axis = 0 : i32, keep_dims = false, kind = "sum"} : (tensor<64xf32>) -> f32
func.func @row_sum(%p: !tile.ptr<f32>, %n: i32) -> f32 {
  %acc0 = arith.constant dense<0.0> : tensor<64xf32>
  %offs = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %base = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %ptrs0 = "tile.addptr"(%base, %offs) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %step = "tile.splat"(%c64) : (i32) -> tensor<64xi32>
  %r:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %acc0, %ptrs = %ptrs0) -> (tensor<64xf32>, tensor<64x!tile.ptr<f32>>) : i32 {
    %x = "tile.load"(%ptrs) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
    %s = arith.addf %acc, %x : tensor<64xf32>
    %next = "tile.addptr"(%ptrs, %step) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
    scf.yield %s, %next : tensor<64xf32>, tensor<64x!tile.ptr<f32>>
  }
  %total = "tile.reduce"(%r#0) {kind = "sum", axis = 0 : i32, keep_dims = false} : (tensor<64xf32>) -> f32
  return %total : f32
}
