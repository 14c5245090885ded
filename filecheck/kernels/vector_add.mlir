// RUN: tile-opt %s | tile-opt | FileCheck %s

// A whole masked vector-add kernel as the builder produces it: a `tile.kernel`
// function whose arguments carry their Python-side names in `tile.name`.

// CHECK-LABEL: {{^  }}func.func @add_kernel(
// CHECK-SAME: %arg0: !tile.ptr<f32> {tile.name = "x_ptr"}, %arg1: !tile.ptr<f32> {tile.name = "y_ptr"}, %arg2: !tile.ptr<f32> {tile.name = "out_ptr"}, %arg3: i32 {tile.name = "n"})
// CHECK-SAME: attributes {tile.kernel}
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: %[[START:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[AR:.*]] = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
// CHECK: %[[STARTS:.*]] = "tile.splat"(%[[START]]) : (i32) -> tensor<1024xi32>
// CHECK: %[[OFFS:.*]] = arith.addi %[[STARTS]], %[[AR]] : tensor<1024xi32>
// CHECK: %[[NS:.*]] = "tile.splat"(%arg3) : (i32) -> tensor<1024xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %[[NS]] : tensor<1024xi32>
// CHECK: %[[XB:.*]] = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
// CHECK: %[[XP:.*]] = "tile.addptr"(%[[XB]], %[[OFFS]])
// CHECK: %[[X:.*]] = "tile.load"(%[[XP]], %[[MASK]], %{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 1, 1>
// CHECK: %[[YP:.*]] = "tile.addptr"(%{{.*}}, %[[OFFS]])
// CHECK: %[[Y:.*]] = "tile.load"(%[[YP]], %[[MASK]], %{{.*}})
// CHECK: %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : tensor<1024xf32>
// CHECK: %[[OP:.*]] = "tile.addptr"(%{{.*}}, %[[OFFS]])
// CHECK: "tile.store"(%[[OP]], %[[SUM]], %[[MASK]]) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>}
// CHECK-NEXT: return
func.func @add_kernel(%arg0: !tile.ptr<f32> {tile.name = "x_ptr"}, %arg1: !tile.ptr<f32> {tile.name = "y_ptr"}, %arg2: !tile.ptr<f32> {tile.name = "out_ptr"}, %arg3: i32 {tile.name = "n"}) attributes {tile.kernel} {
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c1024_i32 = arith.constant 1024 : i32
  %1 = arith.muli %0, %c1024_i32 : i32
  %2 = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %3 = "tile.splat"(%1) : (i32) -> tensor<1024xi32>
  %4 = arith.addi %3, %2 : tensor<1024xi32>
  %5 = "tile.splat"(%arg3) : (i32) -> tensor<1024xi32>
  %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
  %7 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %8 = "tile.addptr"(%7, %4) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %9 = "tile.load"(%8, %6, %cst) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
  %10 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %11 = "tile.addptr"(%10, %4) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %12 = "tile.load"(%11, %6, %cst_0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
  %13 = arith.addf %9, %12 : tensor<1024xf32>
  %14 = "tile.splat"(%arg2) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %15 = "tile.addptr"(%14, %4) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  "tile.store"(%15, %13, %6) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}
