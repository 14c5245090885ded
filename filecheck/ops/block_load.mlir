// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.block_load: the block a block pointer points at. boundary_check lists
// distinct axes in range; padding is "zero", "nan", "undefined" or a
// constant of the element type.

// CHECK-LABEL: {{^  }}func.func @zero_padding
// CHECK: "tile.block_load"(%arg0) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
func.func @zero_padding(%b: !tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32> {
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

// No boundary check at all; nan and undefined padding.
// CHECK-LABEL: {{^  }}func.func @nan_undefined
// CHECK: "tile.block_load"(%arg0) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "undefined", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16>
// CHECK: "tile.block_load"(%arg0) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16>
func.func @nan_undefined(%b: !tile.block_ptr<tensor<16x64xf16>>) {
  %0 = "tile.block_load"(%b) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "undefined", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16>
  %1 = "tile.block_load"(%b) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16>
  return
}

// -----

// Constant padding: -inf for floats (printed in hex), any integer for ints.
// CHECK-LABEL: {{^  }}func.func @constant_padding
// CHECK: "tile.block_load"(%arg0) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = 0xFF800000 : f32, volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
// CHECK: "tile.block_load"(%arg1) {boundary_check = array<i32: 1, 0>, cache_modifier = "", eviction_policy = "", padding = -7 : i32, volatile = false} : (!tile.block_ptr<tensor<8x8xi32>>) -> tensor<8x8xi32>
func.func @constant_padding(%f: !tile.block_ptr<tensor<128xf32>>, %i: !tile.block_ptr<tensor<8x8xi32>>) {
  %0 = "tile.block_load"(%f) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = 0xFF800000 : f32, volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  %1 = "tile.block_load"(%i) {boundary_check = array<i32: 1, 0>, cache_modifier = "", eviction_policy = "", padding = -7 : i32, volatile = false} : (!tile.block_ptr<tensor<8x8xi32>>) -> tensor<8x8xi32>
  return
}

// -----

// Cache hints and volatile.
// CHECK-LABEL: {{^  }}func.func @hints
// CHECK: "tile.block_load"(%arg0) {boundary_check = array<i32: 0>, cache_modifier = "ca", eviction_policy = "evict_first", padding = "zero", volatile = true}
// CHECK: "tile.block_load"(%arg0) {boundary_check = array<i32: 0>, cache_modifier = "cg", eviction_policy = "evict_last", padding = "zero", volatile = false}
func.func @hints(%b: !tile.block_ptr<tensor<32xbf16>>) {
  %0 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "ca", eviction_policy = "evict_first", padding = "zero", volatile = true} : (!tile.block_ptr<tensor<32xbf16>>) -> tensor<32xbf16>
  %1 = "tile.block_load"(%b) {boundary_check = array<i32: 0>, cache_modifier = "cg", eviction_policy = "evict_last", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32xbf16>>) -> tensor<32xbf16>
  return
}
