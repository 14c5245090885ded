// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.program_id: the program's index along grid axis 0, 1 or 2, an i32.

// CHECK-LABEL: {{^  }}func.func @axis0
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: arith.muli %[[PID]], %{{.*}} : i32
func.func @axis0() -> i32 {
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c = arith.constant 128 : i32
  %1 = arith.muli %0, %c : i32
  return %1 : i32
}

// -----

// The last axis of the grid, and an axis attribute of another integer type.
// CHECK-LABEL: {{^  }}func.func @axes12
// CHECK: "tile.program_id"() {axis = 1 : i32} : () -> i32
// CHECK: "tile.program_id"() {axis = 2 : i64} : () -> i32
func.func @axes12() {
  %0 = "tile.program_id"() {axis = 1 : i32} : () -> i32
  %1 = "tile.program_id"() {axis = 2 : i64} : () -> i32
  return
}
