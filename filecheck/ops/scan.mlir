// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.scan: the inclusive running sum, product, max or min along an
// axis, optionally from the end; the result has the source's type.

// CHECK-LABEL: {{^  }}func.func @scans
// CHECK: "tile.scan"(%arg0) {axis = 1 : i32, kind = "sum", reverse = false} : (tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: "tile.scan"(%arg0) {axis = 0 : i32, kind = "prod", reverse = true} : (tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: "tile.scan"(%arg1) {axis = 0 : i32, kind = "max", reverse = false} : (tensor<128xi8>) -> tensor<128xi8>
// CHECK: "tile.scan"(%arg1) {axis = 0 : i32, kind = "min", reverse = true} : (tensor<128xi8>) -> tensor<128xi8>
func.func @scans(%x: tensor<16x64xf32>, %y: tensor<128xi8>) {
  %0 = "tile.scan"(%x) {kind = "sum", axis = 1 : i32, reverse = false} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %1 = "tile.scan"(%x) {kind = "prod", axis = 0 : i32, reverse = true} : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %2 = "tile.scan"(%y) {kind = "max", axis = 0 : i32, reverse = false} : (tensor<128xi8>) -> tensor<128xi8>
  %3 = "tile.scan"(%y) {kind = "min", axis = 0 : i32, reverse = true} : (tensor<128xi8>) -> tensor<128xi8>
  return
}
