// RUN: tile-opt %s --split-input-file | tile-opt --split-input-file | FileCheck %s

// tile.print prints its operand (a number, scalar or tensor) or, without
// one, its prefix; tile.assert takes an i1 condition, scalar or tensor.

// CHECK-LABEL: {{^  }}func.func @prints
// CHECK: "tile.print"(%arg0) {hex = false, prefix = "x"} : (tensor<16x64xf32>) -> ()
// CHECK: "tile.print"(%arg1) {hex = true, prefix = "n"} : (i32) -> ()
// CHECK: "tile.print"() {hex = false, prefix = "here"} : () -> ()
// CHECK: "tile.assert"(%arg2) {message = "all in range"} : (tensor<16xi1>) -> ()
// CHECK: "tile.assert"(%arg3) {message = "positive"} : (i1) -> ()
func.func @prints(%x: tensor<16x64xf32>, %n: i32, %ok: tensor<16xi1>, %c: i1) {
  "tile.print"(%x) {prefix = "x", hex = false} : (tensor<16x64xf32>) -> ()
  "tile.print"(%n) {prefix = "n", hex = true} : (i32) -> ()
  "tile.print"() {prefix = "here", hex = false} : () -> ()
  "tile.assert"(%ok) {message = "all in range"} : (tensor<16xi1>) -> ()
  "tile.assert"(%c) {message = "positive"} : (i1) -> ()
  return
}
