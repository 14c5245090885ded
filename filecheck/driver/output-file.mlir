// RUN: tile-opt %s --split-input-file -o %t | count 0
// RUN: FileCheck %s --input-file=%t
// RUN: tile-opt %s --split-input-file -o - | FileCheck %s
// RUN: sed 's/16x!tile.ptr/24x!tile.ptr/' %s | not tile-opt - --split-input-file -o %t.split 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=SPLIT --input-file=%t.split

// -o FILE writes the result to FILE and nothing to stdout; `-o -` is stdout.
// With --split-input-file and an invalid part (the second part, made
// invalid by sed), the valid parts are still written and the exit code is 1.

// CHECK: {{^}}module {
// CHECK-NEXT: func.func @out(%arg0: !tile.ptr<f32>) -> tensor<32x!tile.ptr<f32>> {
// CHECK-NEXT: "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<32x!tile.ptr<f32>>
// CHECK: {{^}}// -----
// CHECK: func.func @second(
// CHECK: {{^}}// -----
// CHECK: func.func @last(
func.func @out(%p: !tile.ptr<f32>) -> tensor<32x!tile.ptr<f32>> {
  %0 = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<32x!tile.ptr<f32>>
  return %0 : tensor<32x!tile.ptr<f32>>
}

// -----

// ERR: <stdin>:[[@LINE+2]]:8: error: 'tile.splat' op splat shape [24] has a dimension that is not a power of two
func.func @second(%p: !tile.ptr<f32>) {
  %0 = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
  return
}

// -----

// SPLIT: func.func @out(
// SPLIT-NOT: @second
// SPLIT: {{^}}// -----
// SPLIT-NEXT: module {
// SPLIT-NEXT: func.func @last()
func.func @last() {
  return
}
