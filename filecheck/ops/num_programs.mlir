// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.num_programs: the size of the launch grid along axis 0, 1 or 2.

// CHECK-LABEL: {{^  }}func.func @grid
// CHECK: %[[N0:.*]] = "tile.num_programs"() {axis = 0 : i32} : () -> i32
// CHECK: %[[N1:.*]] = "tile.num_programs"() {axis = 1 : i32} : () -> i32
// CHECK: %[[N2:.*]] = "tile.num_programs"() {axis = 2 : i32} : () -> i32
// CHECK: return %[[N0]], %[[N1]], %[[N2]] : i32, i32, i32
func.func @grid() -> (i32, i32, i32) {
  %0 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
  %1 = "tile.num_programs"() {axis = 1 : i32} : () -> i32
  %2 = "tile.num_programs"() {axis = 2 : i32} : () -> i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// A grid-stride loop: start at program_id, step by num_programs.
// CHECK-LABEL: {{^  }}func.func @grid_stride
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: %[[NP:.*]] = "tile.num_programs"() {axis = 0 : i32} : () -> i32
// CHECK: scf.for %{{.*}} = %[[PID]] to %{{.*}} step %[[NP]]  : i32
func.func @grid_stride(%n: i32) {
  %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %1 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
  scf.for %i = %0 to %n step %1 : i32 {
  }
  return
}
