// RUN: tile-opt %s | tile-opt | FileCheck %s

// The 2-d masked tile kernel: row and column offsets expanded to 16x1 and
// 1x64, pointers and masks broadcast to 16x64, masks combined with andi.

// CHECK-LABEL: {{^  }}func.func @masked_tile_2d(
// CHECK-SAME: {tile.name = "x_ptr"}
// CHECK-SAME: {tile.name = "stride_ok"}) attributes {tile.kernel}
// CHECK-DAG: %[[PID0:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK-DAG: %[[PID1:.*]] = "tile.program_id"() {axis = 1 : i32} : () -> i32
// CHECK: %[[ROWS:.*]] = "tile.expand_dims"(%{{.*}}) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
// CHECK: %[[COLS:.*]] = "tile.expand_dims"(%{{.*}}) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
// CHECK: %[[PB:.*]] = "tile.broadcast"(%{{.*}}) : (tensor<16x1x!tile.ptr<f32>>) -> tensor<16x64x!tile.ptr<f32>>
// CHECK: %[[OB:.*]] = "tile.broadcast"(%{{.*}}) : (tensor<1x64xi32>) -> tensor<16x64xi32>
// CHECK: %[[PTRS:.*]] = "tile.addptr"(%[[PB]], %[[OB]]) : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>) -> tensor<16x64x!tile.ptr<f32>>
// CHECK: %[[RM:.*]] = arith.cmpi slt, %[[ROWS]], %{{.*}} : tensor<16x1xi32>
// CHECK: %[[CM:.*]] = arith.cmpi slt, %[[COLS]], %{{.*}} : tensor<1x64xi32>
// CHECK: %[[RMB:.*]] = "tile.broadcast"(%[[RM]]) : (tensor<16x1xi1>) -> tensor<16x64xi1>
// CHECK: %[[CMB:.*]] = "tile.broadcast"(%[[CM]]) : (tensor<1x64xi1>) -> tensor<16x64xi1>
// CHECK: %[[MASK:.*]] = arith.andi %[[RMB]], %[[CMB]] : tensor<16x64xi1>
// CHECK: %[[X:.*]] = "tile.load"(%[[PTRS]], %[[MASK]], %{{.*}})
// CHECK: "tile.store"(%{{.*}}, %[[X]], %[[MASK]])

module {
  func.func @masked_tile_2d(%arg0: !tile.ptr<f32> {tile.name = "x_ptr"}, %arg1: !tile.ptr<f32> {tile.name = "out_ptr"}, %arg2: i32 {tile.name = "m"}, %arg3: i32 {tile.name = "k"}, %arg4: i32 {tile.name = "stride_xm"}, %arg5: i32 {tile.name = "stride_xk"}, %arg6: i32 {tile.name = "stride_om"}, %arg7: i32 {tile.name = "stride_ok"}) attributes {tile.kernel} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %1 = "tile.program_id"() {axis = 1 : i32} : () -> i32
    %c16_i32 = arith.constant 16 : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %4 = "tile.splat"(%2) : (i32) -> tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %c64_i32 = arith.constant 64 : i32
    %6 = arith.muli %1, %c64_i32 : i32
    %7 = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
    %8 = "tile.splat"(%6) : (i32) -> tensor<64xi32>
    %9 = arith.addi %8, %7 : tensor<64xi32>
    %10 = "tile.expand_dims"(%5) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
    %11 = "tile.expand_dims"(%9) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %12 = "tile.splat"(%arg4) : (i32) -> tensor<16x1xi32>
    %13 = arith.muli %10, %12 : tensor<16x1xi32>
    %14 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<16x1x!tile.ptr<f32>>
    %15 = "tile.addptr"(%14, %13) : (tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>) -> tensor<16x1x!tile.ptr<f32>>
    %16 = "tile.splat"(%arg5) : (i32) -> tensor<1x64xi32>
    %17 = arith.muli %11, %16 : tensor<1x64xi32>
    %18 = "tile.broadcast"(%15) : (tensor<16x1x!tile.ptr<f32>>) -> tensor<16x64x!tile.ptr<f32>>
    %19 = "tile.broadcast"(%17) : (tensor<1x64xi32>) -> tensor<16x64xi32>
    %20 = "tile.addptr"(%18, %19) : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>) -> tensor<16x64x!tile.ptr<f32>>
    %21 = "tile.splat"(%arg2) : (i32) -> tensor<16x1xi32>
    %22 = arith.cmpi slt, %10, %21 : tensor<16x1xi32>
    %23 = "tile.splat"(%arg3) : (i32) -> tensor<1x64xi32>
    %24 = arith.cmpi slt, %11, %23 : tensor<1x64xi32>
    %25 = "tile.broadcast"(%22) : (tensor<16x1xi1>) -> tensor<16x64xi1>
    %26 = "tile.broadcast"(%24) : (tensor<1x64xi1>) -> tensor<16x64xi1>
    %27 = arith.andi %25, %26 : tensor<16x64xi1>
    %cst = arith.constant dense<0.000000e+00> : tensor<16x64xf32>
    %28 = "tile.load"(%20, %27, %cst) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi1>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %29 = "tile.splat"(%arg6) : (i32) -> tensor<16x1xi32>
    %30 = arith.muli %10, %29 : tensor<16x1xi32>
    %31 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<16x1x!tile.ptr<f32>>
    %32 = "tile.addptr"(%31, %30) : (tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>) -> tensor<16x1x!tile.ptr<f32>>
    %33 = "tile.splat"(%arg7) : (i32) -> tensor<1x64xi32>
    %34 = arith.muli %11, %33 : tensor<1x64xi32>
    %35 = "tile.broadcast"(%32) : (tensor<16x1x!tile.ptr<f32>>) -> tensor<16x64x!tile.ptr<f32>>
    %36 = "tile.broadcast"(%34) : (tensor<1x64xi32>) -> tensor<16x64xi32>
    %37 = "tile.addptr"(%35, %36) : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>) -> tensor<16x64x!tile.ptr<f32>>
    "tile.store"(%37, %28, %27) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<16x64x!tile.ptr<f32>>, tensor<16x64xf32>, tensor<16x64xi1>) -> ()
    return
  }
}
