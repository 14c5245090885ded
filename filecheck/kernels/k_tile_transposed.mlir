// RUN: tile-opt %s --canonicalize --cse -o %t
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --input-file=%t --check-prefix=C64
// RUN: FileCheck %s --input-file=%t --check-prefix=EXT
// RUN: tile-opt %s | FileCheck %s --check-prefix=INPUT-EXT
// RUN: tile-opt %s | FileCheck %s --check-prefix=INPUT-C64

// The transposed K-tile copy through two block pointers (order [0, 1] in,
// [1, 0] out), as the builder writes it, with repeated constants and
// repeated arith.extsi of the same kernel arguments. canonicalize + cse
// leave one of each; every tile op stays.

// INPUT-EXT-COUNT-2: arith.extsi %arg4 : i32 to i64
// INPUT-C64-COUNT-2: arith.constant 64 : i32

// C64: arith.constant 64 : i32
// C64-NOT: arith.constant 64 : i32

// EXT: arith.extsi %arg4 : i32 to i64
// EXT-NOT: arith.extsi %arg4

// CHECK-LABEL: {{^  }}func.func @k_tile_load_transposed(
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[PID0:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK-DAG: %[[PID1:.*]] = "tile.program_id"() {axis = 1 : i32} : () -> i32
// CHECK: %[[ROW0:.*]] = arith.muli %[[PID0]], %{{.*}} : i32
// CHECK: %[[K:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK: %[[T:.*]] = arith.extsi %arg2 : i32 to i64
// CHECK: %[[IN:.*]] = "tile.make_block_ptr"(%{{.*}}, %[[K]], %[[T]], %[[C1]], %{{.*}}, %{{.*}}, %[[ROW0]]) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 0, 1>}
// CHECK: %[[TILE:.*]] = "tile.block_load"(%[[IN]]) {boundary_check = array<i32: 0, 1>
// CHECK: %[[OUT:.*]] = "tile.make_block_ptr"(%{{.*}}, %[[K]], %[[T]], %[[T]], %[[C1]], %{{.*}}, %[[ROW0]]) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>}
// CHECK: "tile.block_store"(%[[OUT]], %[[TILE]])

module {
  func.func @k_tile_load_transposed(%arg0: !tile.ptr<f32> {tile.name = "k_ptr"}, %arg1: !tile.ptr<f32> {tile.name = "kt_ptr"}, %arg2: i32 {tile.name = "t"}, %arg3: i32 {tile.name = "h"}, %arg4: i32 {tile.name = "k"}) attributes {tile.kernel} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %1 = "tile.program_id"() {axis = 1 : i32} : () -> i32
    %2 = arith.divsi %1, %arg3 : i32
    %3 = arith.remsi %1, %arg3 : i32
    %4 = arith.muli %2, %arg2 : i32
    %5 = arith.muli %4, %arg3 : i32
    %6 = arith.addi %5, %3 : i32
    %7 = arith.muli %6, %arg4 : i32
    %8 = "tile.addptr"(%arg0, %7) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
    %c1_i32 = arith.constant 1 : i32
    %9 = arith.muli %arg3, %arg4 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %10 = arith.muli %0, %c64_i32 : i32
    %11 = arith.extsi %arg4 : i32 to i64
    %12 = arith.extsi %arg2 : i32 to i64
    %13 = arith.extsi %c1_i32 : i32 to i64
    %14 = arith.extsi %9 : i32 to i64
    %15 = "tile.make_block_ptr"(%8, %11, %12, %13, %14, %c0_i32, %10) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 0, 1>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %16 = "tile.block_load"(%15) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x64xf32>>) -> tensor<64x64xf32>
    %17 = arith.muli %1, %arg4 : i32
    %18 = arith.muli %17, %arg2 : i32
    %19 = "tile.addptr"(%arg1, %18) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
    %c1_i32_0 = arith.constant 1 : i32
    %c0_i32_1 = arith.constant 0 : i32
    %c64_i32_2 = arith.constant 64 : i32
    %20 = arith.muli %0, %c64_i32_2 : i32
    %21 = arith.extsi %arg4 : i32 to i64
    %22 = arith.extsi %arg2 : i32 to i64
    %23 = arith.extsi %arg2 : i32 to i64
    %24 = arith.extsi %c1_i32_0 : i32 to i64
    %25 = "tile.make_block_ptr"(%19, %21, %22, %23, %24, %c0_i32_1, %20) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    "tile.block_store"(%25, %16) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
