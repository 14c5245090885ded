// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.arange: the i32 tensor start, ..., end - 1; the length is a power of
// two, and the start need not be zero.

// CHECK-LABEL: {{^  }}func.func @from_zero
// CHECK: "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
func.func @from_zero() -> tensor<1024xi32> {
  %0 = "tile.arange"() {start = 0 : i32, end = 1024 : i32} : () -> tensor<1024xi32>
  return %0 : tensor<1024xi32>
}

// -----

// CHECK-LABEL: {{^  }}func.func @offset_start
// CHECK: "tile.arange"() {end = 12 : i32, start = 4 : i32} : () -> tensor<8xi32>
// CHECK: "tile.arange"() {end = 0 : i32, start = -16 : i32} : () -> tensor<16xi32>
func.func @offset_start() {
  %0 = "tile.arange"() {start = 4 : i32, end = 12 : i32} : () -> tensor<8xi32>
  %1 = "tile.arange"() {start = -16 : i32, end = 0 : i32} : () -> tensor<16xi32>
  return
}

// -----

// A single element is a power-of-two length too.
// CHECK-LABEL: {{^  }}func.func @one
// CHECK: "tile.arange"() {end = 8 : i32, start = 7 : i32} : () -> tensor<1xi32>
func.func @one() {
  %0 = "tile.arange"() {start = 7 : i32, end = 8 : i32} : () -> tensor<1xi32>
  return
}
