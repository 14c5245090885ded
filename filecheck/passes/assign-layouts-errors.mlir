// RUN: not tile-opt %s --split-input-file --tile-assign-layouts 2>&1 >/dev/null | FileCheck %s --implicit-check-not=error:
// RUN: not tile-opt %s --split-input-file --tile-assign-layouts 2>/dev/null | FileCheck %s --check-prefix=OK

// What tile-assign-layouts refuses: a module asking for warps other than
// a power of two from 1 to 32 (the verifier leaves the attribute to the
// passes), a kernel whose tensors are partly laid out, a tile that needs
// more than 1024 registers a thread (i64 takes two each), and a loop whose
// carried tiles take more than that together. 1 and 32 warps, and exactly
// 1024 registers (a tile, or a loop's two), are laid out (OK).

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

// A kernel's arguments are scalars and pointers: a tensor argument has no
// layout to start from.
// CHECK: assign-layouts-errors.mlir:[[@LINE+2]]:1: error: 'func.func' op takes a tensor argument; kernel arguments are scalars and pointers
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
func.func @tensor_argument(%t: tensor<16xf32>, %p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %ps = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
  %pp = "tile.addptr"(%ps, %r) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
  "tile.store"(%pp, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> ()
  return
}

// -----

// An op of another dialect on tensors (here a region that yields one) has
// no rule for its layouts.
// CHECK: assign-layouts-errors.mlir:[[@LINE+3]]:8: error: 'scf.execute_region' op on tensors is not supported by tile-assign-layouts
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
func.func @region_on_tensors(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  %t = scf.execute_region -> tensor<16xi32> {
    %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    scf.yield %r : tensor<16xi32>
  }
  %ps = "tile.splat"(%p) : (!tile.ptr<i32>) -> tensor<16x!tile.ptr<i32>>
  %pp = "tile.addptr"(%ps, %t) : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<i32>>
  "tile.store"(%pp, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> ()
  return
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

// -----

// CHECK: assign-layouts-errors.mlir:[[@LINE+4]]:10: error: 'tile.arange' op a tile of shape [262144] of i32 spread over 1 warps takes 8192 registers in each thread, above the limit of 1024: use more warps or a smaller tile
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 1 : i32} {
  func.func @too_many_registers() attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 262144 : i32} : () -> tensor<262144xi32>
    return
  }
}

// -----

// CHECK: assign-layouts-errors.mlir:[[@LINE+5]]:10: error: 'arith.extsi' op a tile of shape [32768] of i64 spread over 1 warps takes 2048 registers in each thread, above the limit of 1024: use more warps or a smaller tile
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 1 : i32} {
  func.func @wide_elements() attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 32768 : i32} : () -> tensor<32768xi32>
    %w = arith.extsi %r : tensor<32768xi32> to tensor<32768xi64>
    return
  }
}

// -----

// OK-LABEL: func.func @at_the_limit
// OK: tensor<32768xi32, #tile.blocked
module attributes {tile.num_warps = 1 : i32} {
  func.func @at_the_limit() attributes {tile.kernel} {
    %r = "tile.arange"() {start = 0 : i32, end = 32768 : i32} : () -> tensor<32768xi32>
    return
  }
}

// -----

// An op of another dialect on scalars alone (a region that yields an
// i32, fed by one) has no tensors to lay out and stays as it is.
// OK-LABEL: func.func @region_on_scalars
// OK: scf.execute_region -> i32
// OK: tensor<16xi32, #tile.blocked
func.func @region_on_scalars(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %s = scf.execute_region -> i32 {
    %one = arith.constant 1 : i32
    %m = arith.addi %n, %one : i32
    scf.yield %m : i32
  }
  %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %ss = "tile.splat"(%s) : (i32) -> tensor<16xi32>
  %v = arith.addi %r, %ss : tensor<16xi32>
  %ps = "tile.splat"(%p) : (!tile.ptr<i32>) -> tensor<16x!tile.ptr<i32>>
  %pp = "tile.addptr"(%ps, %r) : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<i32>>
  "tile.store"(%pp, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> ()
  return
}

// -----

// A loop carrying two tiles of 512 i32 a thread and one of 4: 1028
// registers in each thread, refused at the loop.
// CHECK: assign-layouts-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'scf.for' op the loop carries tiles that take 1028 registers in each thread over 1 warps, above the limit of 1024: use more warps or smaller tiles
// CHECK-NEXT: assign-layouts-errors.mlir: error: pass 'tile-assign-layouts' failed
module attributes {tile.num_warps = 1 : i32} {
  func.func @carries_too_much(%n: i32) attributes {tile.kernel} {
    %a = "tile.arange"() {start = 0 : i32, end = 16384 : i32} : () -> tensor<16384xi32>
    %b = "tile.arange"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %a, %z = %b) -> (tensor<16384xi32>, tensor<16384xi32>, tensor<128xi32>) : i32 {
      scf.yield %y, %x, %z : tensor<16384xi32>, tensor<16384xi32>, tensor<128xi32>
    }
    return
  }
}

// -----

// Two such tiles alone are 1024 registers: the loop is laid out.
// OK-LABEL: func.func @carries_the_limit
// OK: scf.for
module attributes {tile.num_warps = 1 : i32} {
  func.func @carries_the_limit(%n: i32) attributes {tile.kernel} {
    %a = "tile.arange"() {start = 0 : i32, end = 16384 : i32} : () -> tensor<16384xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %a) -> (tensor<16384xi32>, tensor<16384xi32>) : i32 {
      scf.yield %y, %x : tensor<16384xi32>, tensor<16384xi32>
    }
    return
  }
}
