// RUN: not tile-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s --implicit-check-not=error:
// RUN: not tile-opt %s --split-input-file 2>/dev/null | FileCheck %s --check-prefix=OUT

// The limits every program is held to (crates/dialect/src/limits.rs),
// checked by the verifier on parsed IR as on built kernels: tile sizes,
// loop steps, integer division by a literal zero. What they must leave
// alone prints (OUT).

func.func @too_large() {
  // CHECK: limits.mlir:[[@LINE+1]]:8: error: 'arith.constant' op a tile of shape [2097152] has 2097152 elements; at most 1048576 (2^20, as in Triton) are allowed
  %0 = arith.constant dense<0.0> : tensor<2097152xf32>
  return
}

// -----

// OUT-LABEL: func.func @largest_tile
// OUT: tensor<1048576xi8>
func.func @largest_tile() {
  %0 = arith.constant dense<0> : tensor<1048576xi8>
  return
}

// -----

// Types no op makes are held to the same limit: a kernel's arguments
// (2^60 elements made tile-assign-layouts abort on a 2^57-byte
// allocation), a declaration's signature, the arguments of a block.
// CHECK: limits.mlir:[[@LINE+1]]:1: error: 'func.func' op a tile of shape [1152921504606846976] has
func.func @huge_argument(%a: tensor<1152921504606846976xf32>) {
  return
}

// -----

// CHECK: limits.mlir:[[@LINE+1]]:1: error: 'func.func' op a tile of shape [1073741824] has 1073741824 elements
func.func private @huge_result() -> tensor<1073741824xf16>

// -----

func.func @huge_block_argument() {
  // CHECK: limits.mlir:[[@LINE+1]]:3: error: 'scf.execute_region' op a tile of shape [4096, 4096] has 16777216 elements
  scf.execute_region {
    %c = arith.constant true
    cf.br ^next(%c : i1)
  ^next(%b : i1):
    scf.yield
  ^other(%t : tensor<4096x4096xi8>):
    scf.yield
  }
  return
}

// -----

// OUT-LABEL: func.func @largest_argument
// OUT-SAME: tensor<1024x1024xf32>
func.func @largest_argument(%a: tensor<1024x1024xf32>) {
  return
}

// -----

func.func @zero_step(%n: i32) {
  %c0 = arith.constant 0 : i32
  // CHECK: limits.mlir:[[@LINE+1]]:3: error: 'scf.for' op a loop step must be positive, got 0
  scf.for %i = %c0 to %n step %c0 : i32 {
  }
  return
}

// -----

func.func @negative_step(%n: i64) {
  %c0 = arith.constant 0 : i64
  %m1 = arith.constant -1 : i64
  // CHECK: limits.mlir:[[@LINE+1]]:3: error: 'scf.for' op a loop step must be positive, got -1
  scf.for %i = %c0 to %n step %m1 : i64 {
  }
  return
}

// -----

// A loop's own stages (tile.loop_stages) are 1 to 8, as the module's.
func.func @loop_stages_zero(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: limits.mlir:[[@LINE+1]]:3: error: 'scf.for' op a loop's num_stages must be from 1 to 8, got 0
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.loop_stages = 0 : i32}
  return
}

// -----

func.func @loop_stages_nine(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: limits.mlir:[[@LINE+1]]:3: error: 'scf.for' op a loop's num_stages must be from 1 to 8, got 9
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.loop_stages = 9 : i32}
  return
}

// -----

// The stages the pipeliner puts on a loop (tile.num_stages), in IR written
// by hand, are held to the same range: each sizes a ring of buffers.
func.func @pipelined_stages_huge(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: limits.mlir:[[@LINE+1]]:3: error: 'scf.for' op a loop's num_stages must be from 1 to 8, got 2147483647
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.num_stages = 2147483647 : i64}
  return
}

// -----

// OUT-LABEL: func.func @loop_stages_eight
// OUT: tile.loop_stages = 8
func.func @loop_stages_eight(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.loop_stages = 8 : i32}
  return
}

// -----

// A dynamic step is checked when the loop runs (by the interpreter).
// OUT-LABEL: func.func @dynamic_step
// OUT: scf.for
func.func @dynamic_step(%n: i32, %s: i32) {
  %c0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %s : i32 {
  }
  return
}

// -----

func.func @divide_by_splat_zero(%a: tensor<16xi32>) -> tensor<16xi32> {
  %z = arith.constant 0 : i32
  %s = "tile.splat"(%z) : (i32) -> tensor<16xi32>
  // CHECK: limits.mlir:[[@LINE+1]]:8: error: 'arith.divsi' op integer division or remainder by a literal zero is undefined
  %q = arith.divsi %a, %s : tensor<16xi32>
  return %q : tensor<16xi32>
}

// -----

func.func @remainder_by_zero(%a: i64) -> i64 {
  %z = arith.constant 0 : i64
  // CHECK: limits.mlir:[[@LINE+1]]:8: error: 'arith.remui' op integer division or remainder by a literal zero is undefined
  %q = arith.remui %a, %z : i64
  return %q : i64
}

// -----

// Float division by zero is IEEE's: infinity.
// OUT-LABEL: func.func @float_division_by_zero
// OUT: arith.divf
func.func @float_division_by_zero(%a: f32) -> f32 {
  %z = arith.constant 0.0 : f32
  %q = arith.divf %a, %z : f32
  return %q : f32
}

// -----

// MLIR's parser rounds a float literal to its type before anything sees
// it: 1.0e10 as f16 arrives as infinity, which is a value of f16. (The
// builder, which sees the literal, refuses it: tests/it/limits.rs.)
// OUT-LABEL: func.func @f16_literal_rounded_by_the_parser
// OUT: arith.constant 0x7C00 : f16
func.func @f16_literal_rounded_by_the_parser() {
  %0 = arith.constant 1.0e10 : f16
  return
}
