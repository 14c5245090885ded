// RUN: tile-opt %s --canonicalize | FileCheck %s

// Upstream canonicalize on tile IR: arith constants fold and are hoisted,
// dead arith ops go, tile ops stay (IRDL ops have no folders and, having no
// declared memory effects, are never removed as dead).

// CHECK-LABEL: {{^  }}func.func @fold
// CHECK-DAG: %[[C96:.*]] = arith.constant 96 : i32
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.addi
// CHECK: %[[PID:.*]] = "tile.program_id"() {axis = 0 : i32} : () -> i32
// CHECK: "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
// CHECK: %[[S:.*]] = "tile.splat"(%[[C96]]) : (i32) -> tensor<64xi32>
// CHECK: "tile.load"(%{{.*}}, %{{.*}}, %[[ZEROS]])
// CHECK-NOT: arith.subi
// CHECK: return
func.func @fold(%p: !tile.ptr<f32>) -> tensor<64xf32> {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c32 = arith.constant 32 : i32
  %c3 = arith.constant 3 : i32
  %c0 = arith.constant 0 : i32
  %m = arith.muli %c32, %c3 : i32
  %k = arith.addi %m, %c0 : i32
  %offs = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %s = "tile.splat"(%k) : (i32) -> tensor<64xi32>
  %o = arith.addi %offs, %s : tensor<64xi32>
  %n = "tile.splat"(%pid) : (i32) -> tensor<64xi32>
  %mask = arith.cmpi slt, %o, %n : tensor<64xi32>
  %base = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %ptrs = "tile.addptr"(%base, %o) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  %zeros = arith.constant dense<0.0> : tensor<64xf32>
  %x = "tile.load"(%ptrs, %mask, %zeros) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<64x!tile.ptr<f32>>, tensor<64xi1>, tensor<64xf32>) -> tensor<64xf32>
  %dead = arith.subi %pid, %c3 : i32
  return %x : tensor<64xf32>
}

// An unused tile op is kept; an unused arith op is not.
// CHECK-LABEL: {{^  }}func.func @unused
// CHECK-NEXT: "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
// CHECK-NEXT: "tile.load"(%arg0)
// CHECK-NEXT: return
func.func @unused(%p: !tile.ptr<i32>) {
  %0 = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  %1 = arith.addi %0, %0 : tensor<16xi32>
  %2 = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = true} : (!tile.ptr<i32>) -> i32
  return
}

// A loop whose carried tensor is unused is simplified; the loop that stores
// through a block pointer is kept.
// CHECK-LABEL: {{^  }}func.func @loops
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: "tile.block_store"
// CHECK-NOT: scf.for
func.func @loops(%b: !tile.block_ptr<tensor<8xf32>>, %v: tensor<8xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (tensor<8xf32>) : i32 {
    "tile.block_store"(%b, %v) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<8xf32>>, tensor<8xf32>) -> ()
    scf.yield %acc : tensor<8xf32>
  }
  return
}
