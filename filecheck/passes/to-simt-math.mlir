// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s

// Float math never reaches libdevice (not linked): exact ops become LLVM
// intrinsics, transcendentals PTX approximations; f16 is computed in f32.
// Integer abs and the other arith ops stay as they are.

// CHECK-LABEL: gpu.func @f32_ops
// CHECK: llvm.intr.fabs(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.floor(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK-NEXT: llvm.inline_asm "ex2.approx.f32 $0, $1;", "=f,f" %[[S]] : (f32) -> f32
// CHECK: %[[L:.*]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK-NEXT: arith.mulf %[[L]], %cst{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: math.absi %{{.*}} : i32
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK: gpu.return
func.func @f32_ops(%a: f32, %b: f32, %i: i32) attributes {tile.kernel} {
  %t = "tile.splat"(%a) : (f32) -> tensor<128xf32>
  %u = "tile.splat"(%b) : (f32) -> tensor<128xf32>
  %0 = math.absf %t : tensor<128xf32>
  %1 = math.floor %t : tensor<128xf32>
  %2 = math.sqrt %t : tensor<128xf32>
  %3 = arith.maxnumf %t, %u : tensor<128xf32>
  %4 = math.exp %t : tensor<128xf32>
  %5 = math.log %t : tensor<128xf32>
  %6 = arith.maximumf %t, %u : tensor<128xf32>
  %7 = math.absi %i : i32
  return
}

// -----

// CHECK-LABEL: gpu.func @half
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: llvm.inline_asm "ex2.approx.f32 $0, $1;", "=f,f"
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
func.func @half(%a: f16) attributes {tile.kernel} {
  %0 = math.exp2 %a : f16
  return
}
