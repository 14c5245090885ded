// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Math never reaches libdevice (not linked): exact float ops become calls
// of LLVM intrinsics (which convert-gpu-to-nvvm leaves alone, unlike
// llvm.intr.sqrt and its kin), transcendentals PTX approximations (f16
// and bf16 computed in f32), integer abs the llvm.abs intrinsic. The
// second RUN line goes on to the PTX, which must hold one instruction per
// op (sqrt.rn, abs, cvt.rmi, cvt.rpi, max, min) or the approximation, and
// no call.

// CHECK-LABEL: gpu.func @f32_ops
// CHECK: llvm.call_intrinsic "llvm.fabs.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.floor.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.ceil.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.sqrt.f32"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.maxnum.f32"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK-NEXT: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[S]] : (f32) -> f32
// CHECK: %[[L:.*]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// CHECK-NEXT: arith.mulf %[[L]], %cst{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: llvm.call_intrinsic "llvm.abs.i32"(%{{.*}}, %false) : (i32, i1) -> i32
// CHECK-NOT: math.
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry f32_ops
// PTX-NOT: .extern
// PTX-SAME: abs.f32
// PTX-SAME: cvt.rmi.f32.f32
// PTX-SAME: cvt.rpi.f32.f32
// PTX-SAME: sqrt.rn.f32
// PTX-SAME: max.f32
// PTX-SAME: ex2.approx.ftz.f32
// PTX-SAME: lg2.approx.f32
// PTX-SAME: max.NaN.f32
// PTX-SAME: abs.s32
// PTX-NOT: call
func.func @f32_ops(%x: !tile.ptr<f32>, %b: f32, %o0: !tile.ptr<f32>, %o1: !tile.ptr<f32>, %o2: !tile.ptr<f32>, %o3: !tile.ptr<f32>, %o4: !tile.ptr<f32>, %o5: !tile.ptr<f32>, %o6: !tile.ptr<f32>, %o7: !tile.ptr<f32>, %n: !tile.ptr<i32>, %i: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %t = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %u = "tile.splat"(%b) : (f32) -> tensor<128xf32>
  %v0 = math.absf %t : tensor<128xf32>
  %os0 = "tile.splat"(%o0) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q0 = "tile.addptr"(%os0, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q0, %v0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v1 = math.floor %t : tensor<128xf32>
  %os1 = "tile.splat"(%o1) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q1 = "tile.addptr"(%os1, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q1, %v1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v2 = math.ceil %t : tensor<128xf32>
  %os2 = "tile.splat"(%o2) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q2 = "tile.addptr"(%os2, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q2, %v2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v3 = math.sqrt %t : tensor<128xf32>
  %os3 = "tile.splat"(%o3) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q3 = "tile.addptr"(%os3, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q3, %v3) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v4 = arith.maxnumf %t, %u : tensor<128xf32>
  %os4 = "tile.splat"(%o4) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q4 = "tile.addptr"(%os4, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q4, %v4) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v5 = math.exp %t : tensor<128xf32>
  %os5 = "tile.splat"(%o5) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q5 = "tile.addptr"(%os5, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q5, %v5) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v6 = math.log %t : tensor<128xf32>
  %os6 = "tile.splat"(%o6) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q6 = "tile.addptr"(%os6, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q6, %v6) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %v7 = arith.maximumf %t, %u : tensor<128xf32>
  %os7 = "tile.splat"(%o7) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q7 = "tile.addptr"(%os7, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q7, %v7) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %a = math.absi %i : i32
  "tile.store"(%n, %a) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<i32>, i32) -> ()
  return
}

// -----

// f16 and bf16: exact ops on the type (the backend widens where the GPU
// has no such instruction), approximations in f32.

// CHECK-LABEL: gpu.func @half
// CHECK: llvm.call_intrinsic "llvm.sqrt.f16"(%{{.*}}) : (f16) -> f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f"
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry half
// PTX-SAME: sqrt.rn.f32
// PTX-SAME: ex2.approx.ftz.f32
// PTX-NOT: call
func.func @half(%x: !tile.ptr<f16>, %b: f16, %o0: !tile.ptr<f16>, %o1: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %t = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f16>>) -> tensor<128xf16>
  %u = "tile.splat"(%b) : (f16) -> tensor<128xf16>
  %v0 = math.sqrt %t : tensor<128xf16>
  %os0 = "tile.splat"(%o0) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %q0 = "tile.addptr"(%os0, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  "tile.store"(%q0, %v0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  %v1 = math.exp2 %t : tensor<128xf16>
  %os1 = "tile.splat"(%o1) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %q1 = "tile.addptr"(%os1, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  "tile.store"(%q1, %v1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  return
}

// -----

// CHECK-LABEL: gpu.func @bfloat
// CHECK: llvm.call_intrinsic "llvm.floor.bf16"(%{{.*}}) : (bf16) -> bf16
// CHECK: llvm.call_intrinsic "llvm.sqrt.bf16"(%{{.*}}) : (bf16) -> bf16
// CHECK: llvm.call_intrinsic "llvm.fabs.bf16"(%{{.*}}) : (bf16) -> bf16
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry bfloat
// PTX-SAME: cvt.rmi.bf16.bf16
// PTX-SAME: sqrt.rn.f32
// PTX-NOT: call
func.func @bfloat(%x: !tile.ptr<bf16>, %b: bf16, %o0: !tile.ptr<bf16>, %o1: !tile.ptr<bf16>, %o2: !tile.ptr<bf16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<bf16>) -> tensor<128x!tile.ptr<bf16>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<bf16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<bf16>>
  %t = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<bf16>>) -> tensor<128xbf16>
  %u = "tile.splat"(%b) : (bf16) -> tensor<128xbf16>
  %v0 = math.floor %t : tensor<128xbf16>
  %os0 = "tile.splat"(%o0) : (!tile.ptr<bf16>) -> tensor<128x!tile.ptr<bf16>>
  %q0 = "tile.addptr"(%os0, %r) : (tensor<128x!tile.ptr<bf16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<bf16>>
  "tile.store"(%q0, %v0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<bf16>>, tensor<128xbf16>) -> ()
  %v1 = math.sqrt %t : tensor<128xbf16>
  %os1 = "tile.splat"(%o1) : (!tile.ptr<bf16>) -> tensor<128x!tile.ptr<bf16>>
  %q1 = "tile.addptr"(%os1, %r) : (tensor<128x!tile.ptr<bf16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<bf16>>
  "tile.store"(%q1, %v1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<bf16>>, tensor<128xbf16>) -> ()
  %v2 = math.absf %t : tensor<128xbf16>
  %os2 = "tile.splat"(%o2) : (!tile.ptr<bf16>) -> tensor<128x!tile.ptr<bf16>>
  %q2 = "tile.addptr"(%os2, %r) : (tensor<128x!tile.ptr<bf16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<bf16>>
  "tile.store"(%q2, %v2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<bf16>>, tensor<128xbf16>) -> ()
  return
}

// -----

// f64: the exact ops are single f64 instructions.

// CHECK-LABEL: gpu.func @double
// CHECK: llvm.call_intrinsic "llvm.sqrt.f64"(%{{.*}}) : (f64) -> f64
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry double
// PTX-SAME: abs.f64
// PTX-SAME: cvt.rpi.f64.f64
// PTX-SAME: sqrt.rn.f64
// PTX-SAME: min.f64
// PTX-NOT: call
func.func @double(%x: !tile.ptr<f64>, %b: f64, %o0: !tile.ptr<f64>, %o1: !tile.ptr<f64>, %o2: !tile.ptr<f64>, %o3: !tile.ptr<f64>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f64>) -> tensor<128x!tile.ptr<f64>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f64>>
  %t = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f64>>) -> tensor<128xf64>
  %u = "tile.splat"(%b) : (f64) -> tensor<128xf64>
  %v0 = math.absf %t : tensor<128xf64>
  %os0 = "tile.splat"(%o0) : (!tile.ptr<f64>) -> tensor<128x!tile.ptr<f64>>
  %q0 = "tile.addptr"(%os0, %r) : (tensor<128x!tile.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f64>>
  "tile.store"(%q0, %v0) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f64>>, tensor<128xf64>) -> ()
  %v1 = math.ceil %t : tensor<128xf64>
  %os1 = "tile.splat"(%o1) : (!tile.ptr<f64>) -> tensor<128x!tile.ptr<f64>>
  %q1 = "tile.addptr"(%os1, %r) : (tensor<128x!tile.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f64>>
  "tile.store"(%q1, %v1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f64>>, tensor<128xf64>) -> ()
  %v2 = math.sqrt %t : tensor<128xf64>
  %os2 = "tile.splat"(%o2) : (!tile.ptr<f64>) -> tensor<128x!tile.ptr<f64>>
  %q2 = "tile.addptr"(%os2, %r) : (tensor<128x!tile.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f64>>
  "tile.store"(%q2, %v2) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f64>>, tensor<128xf64>) -> ()
  %v3 = arith.minnumf %t, %u : tensor<128xf64>
  %os3 = "tile.splat"(%o3) : (!tile.ptr<f64>) -> tensor<128x!tile.ptr<f64>>
  %q3 = "tile.addptr"(%os3, %r) : (tensor<128x!tile.ptr<f64>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f64>>
  "tile.store"(%q3, %v3) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f64>>, tensor<128xf64>) -> ()
  return
}

// -----

// Float to integer casts saturate (NaN to 0), as the interpreter: a plain
// fptosi is poison out of range, and to i8 the NVPTX backend converts to
// 16 bits and truncates (1e30 became -1 on the GPU).

// CHECK-LABEL: gpu.func @saturating_casts
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat.i8.f32"(%{{.*}}) : (f32) -> i8
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat.i32.f16"(%{{.*}}) : (f16) -> i32
// CHECK-NOT: arith.fptosi
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry saturating_casts
// PTX-SAME: max.f32 {{[^;]*}}0fC3000000;
// PTX-SAME: min.f32 {{[^;]*}}0f42FE0000;
// PTX-SAME: cvt.rzi.s16.f32
// PTX-SAME: cvt.rzi.s32.f32
func.func @saturating_casts(%x: !tile.ptr<f32>, %y: !tile.ptr<i8>, %h: !tile.ptr<f16>, %z: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %c = arith.fptosi %v : tensor<128xf32> to tensor<128xi8>
  %ys = "tile.splat"(%y) : (!tile.ptr<i8>) -> tensor<128x!tile.ptr<i8>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<i8>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i8>>
  "tile.store"(%q, %c) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<i8>>, tensor<128xi8>) -> ()
  %hs = "tile.splat"(%h) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %hp = "tile.addptr"(%hs, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %hv = "tile.load"(%hp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f16>>) -> tensor<128xf16>
  %hc = arith.fptosi %hv : tensor<128xf16> to tensor<128xi32>
  %zs = "tile.splat"(%z) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
  %zp = "tile.addptr"(%zs, %r) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<i32>>
  "tile.store"(%zp, %hc) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>) -> ()
  return
}

// -----

// tanh and erf are sequences of f32 operations (no libdevice): a
// polynomial by fused multiply-adds for small |x|, an ex2.approx-based
// formula for the rest (|x| clamped by minnum, the sign copied back),
// chosen by |x| < 0.625 (tanh) or 0.875 (erf), and NaN passed through;
// tanh's quotient 2 / d is 2 rcp.approx(d), not the slow div.rn.
// f16 is computed in f32 and rounded back.

// CHECK-LABEL: gpu.func @tanh_erf
// CHECK: llvm.call_intrinsic "llvm.fma.f32"
// CHECK: llvm.call_intrinsic "llvm.fabs.f32"
// CHECK: llvm.call_intrinsic "llvm.minnum.f32"
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;"
// CHECK: %[[R:.*]] = llvm.inline_asm "rcp.approx.ftz.f32 $0, $1;"
// CHECK: arith.mulf %cst{{.*}}, %[[R]] : f32
// CHECK: arith.cmpf olt, %{{.*}}, %cst{{.*}} : f32
// CHECK: llvm.call_intrinsic "llvm.copysign.f32"
// CHECK: arith.cmpf uno
// CHECK: arith.select
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;"
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: math.
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry tanh_erf
// PTX-NOT: .extern
// PTX-SAME: fma.rn.f32
// PTX-SAME: ex2.approx.ftz.f32
// PTX-SAME: rcp.approx.ftz.f32
// PTX-SAME: copysign.f32
// PTX-SAME: cvt.rn.f16.f32
// PTX-NOT: call
func.func @tanh_erf(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %h: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %t = math.tanh %v : tensor<128xf32>
  "tile.store"(%p, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %e = math.erf %v : tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%q, %e) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %hs = "tile.splat"(%h) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %hp = "tile.addptr"(%hs, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %hv = "tile.load"(%hp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f16>>) -> tensor<128xf16>
  %he = math.erf %hv : tensor<128xf16>
  "tile.store"(%hp, %he) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  return
}

// -----

// Division: `/` is arith.divf, correctly rounded (div.rn.f32); an
// arith.divf marked fastmath<afn> (Tile::div_approx) is div.full.f32 (2
// ulp), which LLVM would not emit (it drops the flag). The two are not
// merged.

// CHECK-LABEL: gpu.func @division
// CHECK: llvm.inline_asm "div.full.f32 $0, $1, $2;", "=f,f,f"
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry division
// PTX-SAME: div.full.f32
// PTX-SAME: div.rn.f32
func.func @division(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %w = "tile.load"(%q) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %d = arith.divf %v, %w fastmath<afn> : tensor<128xf32>
  "tile.store"(%p, %d) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %e = arith.divf %v, %w : tensor<128xf32>
  "tile.store"(%q, %e) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}

// -----

// tanh: math.tanh marked fastmath<afn> (Tile::tanh_approx) is one
// tanh.approx.f32 (f16 widened to f32 and rounded back); the unmarked one
// beside it stays the accurate sequence (its ex2.approx), and the two are
// not merged.

// CHECK-LABEL: gpu.func @fast_tanh
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f"
// CHECK-NOT: tanh.approx
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry fast_tanh
// PTX-SAME: tanh.approx.f32
// PTX-SAME: tanh.approx.f32
// PTX-SAME: ex2.approx.ftz.f32
func.func @fast_tanh(%x: !tile.ptr<f32>, %h: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %t = math.tanh %v fastmath<afn> : tensor<128xf32>
  "tile.store"(%p, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %hs = "tile.splat"(%h) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %hp = "tile.addptr"(%hs, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %hv = "tile.load"(%hp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f16>>) -> tensor<128xf16>
  %ht = math.tanh %hv fastmath<afn> : tensor<128xf16>
  "tile.store"(%hp, %ht) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  %a = math.tanh %v : tensor<128xf32>
  "tile.store"(%p, %a) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}

// -----

// sqrt: math.sqrt marked fastmath<afn> (Tile::sqrt_approx, Triton's
// tl.sqrt) is one sqrt.approx.f32 (f16 widened to f32 and rounded back);
// the unmarked one beside it stays the correctly rounded sqrt.rn, and the
// two are not merged.

// CHECK-LABEL: gpu.func @fast_sqrt
// CHECK: llvm.inline_asm "sqrt.approx.f32 $0, $1;", "=f,f"
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: llvm.inline_asm "sqrt.approx.f32 $0, $1;", "=f,f"
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
// CHECK: llvm.call_intrinsic "llvm.sqrt.f32"
// CHECK-NOT: sqrt.approx
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry fast_sqrt
// PTX-SAME: sqrt.approx.f32
// PTX-SAME: sqrt.approx.f32
// PTX-SAME: sqrt.rn.f32
func.func @fast_sqrt(%x: !tile.ptr<f32>, %h: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %t = math.sqrt %v fastmath<afn> : tensor<128xf32>
  "tile.store"(%p, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %hs = "tile.splat"(%h) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %hp = "tile.addptr"(%hs, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %hv = "tile.load"(%hp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f16>>) -> tensor<128xf16>
  %ht = math.sqrt %hv fastmath<afn> : tensor<128xf16>
  "tile.store"(%hp, %ht) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  %a = math.sqrt %v : tensor<128xf32>
  "tile.store"(%p, %a) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}
