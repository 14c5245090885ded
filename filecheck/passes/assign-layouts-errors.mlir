// RUN: not tile-opt %s --split-input-file --tile-assign-layouts 2>&1 >/dev/null | FileCheck %s --implicit-check-not=error:
// RUN: not tile-opt %s --split-input-file --tile-assign-layouts 2>/dev/null | FileCheck %s --check-prefix=OK

// What tile-assign-layouts refuses: a module asking for warps other than
// a power of two from 1 to 32 (the verifier leaves the attribute to the
// passes), and a kernel whose tensors are partly laid out. 1 and 32 warps
// are laid out (OK).

// CHECK: assign-layouts-errors.mlir:{{[0-9]+}}:1: error: 'builtin.module' op tile.num_warps must be a power of two from 1 to 32, got 0
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 0 : i32} {
  func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    return
  }
}

// -----

// CHECK: assign-layouts-errors.mlir:{{[0-9]+}}:1: error: 'builtin.module' op tile.num_warps must be a power of two from 1 to 32, got 3
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 3 : i32} {
  func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    return
  }
}

// -----

// CHECK: assign-layouts-errors.mlir:{{[0-9]+}}:1: error: 'builtin.module' op tile.num_warps must be a power of two from 1 to 32, got 64
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 64 : i32} {
  func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    return
  }
}

// -----

// CHECK: assign-layouts-errors.mlir:[[@LINE+3]]:3: error: 'func.func' op has some tensors with layouts and others without; tile-assign-layouts wants all or none
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 4 : i32} {
  func.func @mixed(%x: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32, #tile.blocked<array<i32: 1>, array<i32: 32>, array<i32: 4>, array<i32: 0>>>
    %s = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    return
  }
}

// -----

// OK: tile.num_warps = 1 : i32
// OK: #tile.blocked
module attributes {tile.num_warps = 1 : i32} {
  func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    return
  }
}

// -----

// OK: tile.num_warps = 32 : i32
// OK: #tile.blocked
module attributes {tile.num_warps = 32 : i32} {
  func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    return
  }
}
