// RUN: not tile-opt %s --split-input-file 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: tile-opt %s --split-input-file > %t.out 2>&1 || echo "exit code $?" >> %t.out
// RUN: FileCheck %s --check-prefix=EXIT --input-file=%t.out

// Syntax errors and unknown ops or types are reported as
// file:line:col: error: ..., parsing goes on with the next part, and the
// exit code is 1.

func.func @undeclared_value(%p: !tile.ptr<f32>) {
  // CHECK: {{.*}}parse-error.mlir:[[@LINE+1]]:21: error: use of undeclared SSA value name
  %0 = "tile.splat"(%q) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
  return
}

// -----

func.func @unterminated_type() {
  // CHECK: {{.*}}parse-error.mlir:[[@LINE+1]]:77: error: expected '>' in tensor type
  %0 = "tile.arange"() {start = 0 : i32, end = 4 : i32} : () -> tensor<4xi32
  return
}

// -----

func.func @unknown_tile_op() {
  // CHECK: {{.*}}parse-error.mlir:[[@LINE+2]]:8: error: unregistered operation 'tile.unknown_op' found in dialect ('tile') that does not allow unknown operations
  // CHECK-NEXT: {{.*}}parse-error.mlir:[[@LINE+1]]:8: note: see current operation: %0 = "tile.unknown_op"() : () -> i32
  %0 = "tile.unknown_op"() : () -> i32
  return
}

// -----

// CHECK: {{.*}}parse-error.mlir:[[@LINE+1]]:40: error: expected dynamic type
func.func @unknown_tile_type(%p: !tile.pointer<f32>) {
  return
}

// -----

// The valid last part is still printed.
// CHECK: func.func @still_printed()
func.func @still_printed() {
  return
}

// EXIT: error: use of undeclared SSA value name
// EXIT: func.func @still_printed()
// EXIT: exit code 1
