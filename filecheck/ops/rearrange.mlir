// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// The ops that move elements round-trip with their attributes: reshape and
// split take their shapes from their result types, permute its order, cat
// its axis.

// CHECK-LABEL: {{^  }}func.func @moves
// CHECK: %[[R:.*]] = "tile.reshape"(%arg0) : (tensor<64xf32>) -> tensor<8x8xf32>
// CHECK: %[[P:.*]] = "tile.permute"(%[[R]]) {order = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: %[[J:.*]] = "tile.join"(%[[P]], %[[R]]) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8x2xf32>
// CHECK: %[[S:.*]]:2 = "tile.split"(%[[J]]) : (tensor<8x8x2xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: "tile.cat"(%[[S]]#0, %[[S]]#1) {axis = 1 : i32} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x16xf32>
// CHECK: "tile.cat"(%arg1, %arg1) {axis = 0 : i32} : (tensor<4x!tile.ptr<i8>>, tensor<4x!tile.ptr<i8>>) -> tensor<8x!tile.ptr<i8>>
func.func @moves(%x: tensor<64xf32>, %p: tensor<4x!tile.ptr<i8>>) {
  %r = "tile.reshape"(%x) : (tensor<64xf32>) -> tensor<8x8xf32>
  %t = "tile.permute"(%r) {order = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %j = "tile.join"(%t, %r) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8x2xf32>
  %lo, %hi = "tile.split"(%j) : (tensor<8x8x2xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %c = "tile.cat"(%lo, %hi) {axis = 1 : i32} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x16xf32>
  %q = "tile.cat"(%p, %p) {axis = 0 : i32} : (tensor<4x!tile.ptr<i8>>, tensor<4x!tile.ptr<i8>>) -> tensor<8x!tile.ptr<i8>>
  return
}
