// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.block_store: a value of exactly the block's tensor type; elements out
// of bounds along the boundary_check axes are not written.

// CHECK-LABEL: {{^  }}func.func @store
// CHECK: "tile.block_store"(%arg0, %arg1) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
func.func @store(%b: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<16x64xf32>) {
  "tile.block_store"(%b, %v) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// Load, then store the same block back unchecked with hints.
// CHECK-LABEL: {{^  }}func.func @copy
// CHECK: %[[V:.*]] = "tile.block_load"(%arg0)
// CHECK: "tile.block_store"(%arg1, %[[V]]) {boundary_check = array<i32>, cache_modifier = "cs", eviction_policy = "evict_last"} : (!tile.block_ptr<tensor<256xi16>>, tensor<256xi16>) -> ()
// CHECK: "tile.block_store"(%arg1, %[[V]]) {boundary_check = array<i32: 0>, cache_modifier = "wt", eviction_policy = "evict_first"} : (!tile.block_ptr<tensor<256xi16>>, tensor<256xi16>) -> ()
func.func @copy(%src: !tile.block_ptr<tensor<256xi16>>, %dst: !tile.block_ptr<tensor<256xi16>>) {
  %0 = "tile.block_load"(%src) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<256xi16>>) -> tensor<256xi16>
  "tile.block_store"(%dst, %0) {boundary_check = array<i32>, cache_modifier = "cs", eviction_policy = "evict_last"} : (!tile.block_ptr<tensor<256xi16>>, tensor<256xi16>) -> ()
  "tile.block_store"(%dst, %0) {boundary_check = array<i32: 0>, cache_modifier = "wt", eviction_policy = "evict_first"} : (!tile.block_ptr<tensor<256xi16>>, tensor<256xi16>) -> ()
  return
}
