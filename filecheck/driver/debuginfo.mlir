// RUN: tile-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: tile-opt %s --split-input-file --mlir-print-debuginfo | FileCheck %s --check-prefix=SPLIT
// RUN: tile-opt %s | FileCheck %s --check-prefix=NOLOC

// --mlir-print-debuginfo prints each op's file:line:col location (through
// #loc aliases), with the real input path and the line numbers of the whole
// file, also for later parts of a split input.

// CHECK-DAG: "tile.program_id"() {axis = 0 : i32} : () -> i32 loc(#[[PID:loc[0-9]*]])
// CHECK-DAG: #[[PID]] = loc("{{.*}}debuginfo.mlir":[[@LINE+6]]:8)
// CHECK-DAG: arith.muli %{{.*}}, %{{.*}} : i32 loc(#[[MUL:loc[0-9]*]])
// CHECK-DAG: #[[MUL]] = loc("{{.*}}debuginfo.mlir":[[@LINE+6]]:8)
// Block arguments print their locations inline.
// CHECK-DAG: func.func @first(%arg0: !tile.ptr<f32> loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:18), %arg1: i32 loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:38)) -> i32 {
func.func @first(%x: !tile.ptr<f32>, %n: i32) -> i32 {
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c = arith.constant 4 : i32
  %1 = arith.muli %0, %c : i32
  return %1 : i32
}

// Explicit locations in the input are kept as they are.
// CHECK-DAG: "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32> loc(#[[AR:loc[0-9]*]])
// CHECK-DAG: #[[AR]] = loc("kernel.rs":7:11)
// CHECK-DAG: "tile.splat"(%{{.*}}) : (i32) -> tensor<64xi32> loc(#[[SPLAT:loc[0-9]*]])
// CHECK-DAG: #[[SPLAT]] = loc("fused_name"(#[[INNER:loc[0-9]*]]))
// CHECK-DAG: #[[INNER]] = loc("kernel.rs":8:3)
func.func @second(%n: i32) {
  %0 = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32> loc("kernel.rs":7:11)
  %1 = "tile.splat"(%n) : (i32) -> tensor<64xi32> loc("fused_name"("kernel.rs":8:3))
  return
}

// -----

// SPLIT: func.func @first
// SPLIT: {{^}}// -----
// SPLIT: "tile.num_programs"() {axis = 1 : i32} : () -> i32 loc(#[[NP:loc[0-9]*]])
// SPLIT: #[[NP]] = loc("{{.*}}debuginfo.mlir":[[@LINE+2]]:8)
func.func @third() -> i32 {
  %0 = "tile.num_programs"() {axis = 1 : i32} : () -> i32
  return %0 : i32
}

// NOLOC-NOT: loc(
