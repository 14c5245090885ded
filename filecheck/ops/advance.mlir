// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.advance: one i32 offset per axis of the block pointer.

// CHECK-LABEL: {{^  }}func.func @rank2
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: "tile.advance"(%arg0, %arg1, %[[C64]]) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
func.func @rank2(%b: !tile.block_ptr<tensor<16x64xf32>>, %z: i32) -> !tile.block_ptr<tensor<16x64xf32>> {
  %c64 = arith.constant 64 : i32
  %0 = "tile.advance"(%b, %z, %c64) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  return %0 : !tile.block_ptr<tensor<16x64xf32>>
}

// -----

// Advances chain; rank 1.
// CHECK-LABEL: {{^  }}func.func @chain
// CHECK: %[[A:.*]] = "tile.advance"(%arg0, %arg1) : (!tile.block_ptr<tensor<128xf16>>, i32) -> !tile.block_ptr<tensor<128xf16>>
// CHECK: "tile.advance"(%[[A]], %arg1) : (!tile.block_ptr<tensor<128xf16>>, i32) -> !tile.block_ptr<tensor<128xf16>>
func.func @chain(%b: !tile.block_ptr<tensor<128xf16>>, %d: i32) {
  %0 = "tile.advance"(%b, %d) : (!tile.block_ptr<tensor<128xf16>>, i32) -> !tile.block_ptr<tensor<128xf16>>
  %1 = "tile.advance"(%0, %d) : (!tile.block_ptr<tensor<128xf16>>, i32) -> !tile.block_ptr<tensor<128xf16>>
  return
}
