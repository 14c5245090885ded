// RUN: tile-opt %s --pass-pipeline='builtin.module(func.func(tile-assign-layouts,tile-predicate,canonicalize),tile-vectorize,tile-to-simt,cse)' | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-assign-layouts,tile-predicate)' | FileCheck %s --check-prefix=MODULE
// RUN: not tile-opt %s --pass-pipeline='builtin.module(tile-predicate{x=1})' 2>&1 | FileCheck %s --check-prefix=OPTIONS

// Textual pipelines name our passes beside upstream ones, at any nesting:
// the kernel passes run on each function under func.func(...) or on every
// function of the module; tile-to-simt runs on the module.

// CHECK: gpu.module @tile
// CHECK: gpu.func @k(
// CHECK: llvm.inline_asm has_side_effects "mov.f32 $0, $1;\0A\09@$3 ld.global.f32 $0, [ $2 ];"
// CHECK-NOT: func.func

// MODULE: func.func @k
// MODULE: "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 1, 1>{{.*}} -> tensor<128xf32, #tile.blocked<

// OPTIONS: tile-opt: invalid pass pipeline 'builtin.module(tile-predicate{x=1})': failed to parse pass pipeline:
// OPTIONS-NEXT: pass 'tile-predicate' takes no options

func.func @k(%x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}
