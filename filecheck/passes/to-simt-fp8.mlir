// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | not tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: sed 's/tile.compute_capability = 90 : i32/tile.compute_capability = 90 : i32, tile.ptx_version = 78 : i32/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: sed 's/tile.compute_capability = 90 : i32/tile.compute_capability = 90 : i32, tile.ptx_version = 77 : i32/' %s | not tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt 2>&1 | FileCheck %s --check-prefix=SM80

// 8-bit floats travel as their bits (i8 registers, byte loads and stores)
// and convert two at a time: to f16 pairs with cvt.rn.f16x2.e4m3x2 (exact,
// then widened), and from f32 pairs with cvt.rn.satfinite.e5m2x2.f32
// (round to nearest even, saturating; the second source is the low byte).
// A masked load's `other` and a `where` constant are their bit patterns
// (-2.0 in e4m3 is 0xc0 = -64 as i8). f64 rounds to f32 to odd first.
// The conversions need sm_89 and PTX 7.8: a module naming PTX 7.8 gets
// them, one naming 7.7 the error sm_80 gets.

// CHECK-LABEL: gpu.func @convert
// CHECK: %[[OTHER:.*]] = arith.constant -64 : i8
// CHECK: ld.global
// CHECK: "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"
// CHECK: arith.bitcast %{{.*}} : i16 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f"
// CHECK: st.global
// CHECK: "cvt.rz.f32.f64 $0, $1;", "=f,d"
// CHECK: arith.cmpf one
// CHECK: "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f"
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry convert
// PTX-SAME: ld.global
// PTX-SAME: cvt.rn.f16x2.e4m3x2
// PTX-SAME: cvt.f32.f16
// PTX-SAME: cvt.rn.satfinite.e5m2x2.f32
// PTX-SAME: st.global
// PTX-SAME: cvt.rz.f32.f64
// PTX-SAME: cvt.rn.satfinite.e4m3x2.f32
// SM80: error: 'arith.extf' op converts 8-bit floats, which needs sm_89 or later and PTX 7.8 or later (cvt .e4m3x2/.e5m2x2)
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
func.func @convert(%x: !tile.ptr<f8E4M3FN>, %y: !tile.ptr<f8E5M2>, %z: !tile.ptr<f8E4M3FN>, %w: f64, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f8E4M3FN>) -> tensor<256x!tile.ptr<f8E4M3FN>>
  %xp = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f8E4M3FN>>
  %other = arith.constant dense<-2.0> : tensor<256xf8E4M3FN>
  %v = "tile.load"(%xp, %m, %other) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xi1>, tensor<256xf8E4M3FN>) -> tensor<256xf8E4M3FN>
  %f = arith.extf %v : tensor<256xf8E4M3FN> to tensor<256xf32>
  %two = arith.constant dense<2.0> : tensor<256xf32>
  %d = arith.mulf %f, %two : tensor<256xf32>
  %e = arith.truncf %d : tensor<256xf32> to tensor<256xf8E5M2>
  %ys = "tile.splat"(%y) : (!tile.ptr<f8E5M2>) -> tensor<256x!tile.ptr<f8E5M2>>
  %yp = "tile.addptr"(%ys, %r) : (tensor<256x!tile.ptr<f8E5M2>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f8E5M2>>
  "tile.store"(%yp, %e, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!tile.ptr<f8E5M2>>, tensor<256xf8E5M2>, tensor<256xi1>) -> ()
  %ws = "tile.splat"(%w) : (f64) -> tensor<256xf64>
  %q = arith.truncf %ws : tensor<256xf64> to tensor<256xf8E4M3FN>
  %zs = "tile.splat"(%z) : (!tile.ptr<f8E4M3FN>) -> tensor<256x!tile.ptr<f8E4M3FN>>
  %zp = "tile.addptr"(%zs, %r) : (tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f8E4M3FN>>
  "tile.store"(%zp, %q, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!tile.ptr<f8E4M3FN>>, tensor<256xf8E4M3FN>, tensor<256xi1>) -> ()
  return
}
}

// -----

// An 8-bit float argument travels as its bits too: an i8 parameter,
// stored as a byte.
// CHECK: gpu.func @scalar_arg(%[[V:.*]]: i8, %{{.*}}: !llvm.ptr<1>)
// CHECK: llvm.store %[[V]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
// CHECK: gpu.return
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
func.func @scalar_arg(%v: f8E4M3FN, %y: !tile.ptr<f8E4M3FN>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %vs = "tile.splat"(%v) : (f8E4M3FN) -> tensor<128xf8E4M3FN>
  %ys = "tile.splat"(%y) : (!tile.ptr<f8E4M3FN>) -> tensor<128x!tile.ptr<f8E4M3FN>>
  %yp = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f8E4M3FN>>
  "tile.store"(%yp, %vs) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xf8E4M3FN>) -> ()
  return
}
}

// -----

// A scalar converts as a pair of itself: the byte both halves of the
// e4m3x2 operand, the f32 both sources of the e5m2x2 one; the low half
// is the result.
// CHECK-LABEL: gpu.func @scalar_convert
// CHECK-SAME: (%[[V:.*]]: i8, %[[W:.*]]: f32, %[[Y:.*]]: !llvm.ptr<1>, %[[Z:.*]]: !llvm.ptr<1>)
// CHECK: %[[LO:.*]] = arith.extui %[[V]] : i8 to i16
// CHECK: %[[HI:.*]] = arith.extui %[[V]] : i8 to i16
// CHECK: %[[UP:.*]] = arith.shli %[[HI]], %c8_i16 : i16
// CHECK: %[[PAIR:.*]] = arith.ori %[[UP]], %[[LO]] : i16
// CHECK: %[[H2:.*]] = llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %[[PAIR]] : (i16) -> i32
// CHECK: %[[H:.*]] = arith.trunci %[[H2]] : i32 to i16
// CHECK: %[[F16:.*]] = arith.bitcast %[[H]] : i16 to f16
// CHECK: %[[F:.*]] = arith.extf %[[F16]] : f16 to f32
// CHECK: %[[Q2:.*]] = llvm.inline_asm "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f" %[[W]], %[[W]] : (f32, f32) -> i16
// CHECK: %[[Q:.*]] = arith.trunci %[[Q2]] : i16 to i8
// CHECK: llvm.store %[[F]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: llvm.store %[[Q]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
// PTX-LABEL: .entry scalar_convert
// PTX: cvt.rn.f16x2.e4m3x2
// PTX: cvt.rn.satfinite.e5m2x2.f32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
func.func @scalar_convert(%v: f8E4M3FN, %w: f32, %y: !tile.ptr<f32>, %z: !tile.ptr<f8E5M2>) attributes {tile.kernel} {
  %f = arith.extf %v : f8E4M3FN to f32
  %q = arith.truncf %w : f32 to f8E5M2
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %fs = "tile.splat"(%f) : (f32) -> tensor<128xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %yp = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  "tile.store"(%yp, %fs) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %qs = "tile.splat"(%q) : (f8E5M2) -> tensor<128xf8E5M2>
  %zs = "tile.splat"(%z) : (!tile.ptr<f8E5M2>) -> tensor<128x!tile.ptr<f8E5M2>>
  %zp = "tile.addptr"(%zs, %r) : (tensor<128x!tile.ptr<f8E5M2>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f8E5M2>>
  "tile.store"(%zp, %qs) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f8E5M2>>, tensor<128xf8E5M2>) -> ()
  return
}
}

// -----

// To and from the 16-bit floats: an 8-bit float's f16 is exact and kept
// as it is; its bf16 goes through f32 (exact too); an f16 or bf16 is
// widened to f32 before it rounds to 8 bits.
// CHECK-LABEL: gpu.func @halves
// CHECK: "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"
// CHECK: %[[H0:.*]] = arith.bitcast %{{.*}} : i16 to f16
// CHECK: %[[H1:.*]] = arith.bitcast %{{.*}} : i16 to f16
// CHECK: "cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h"
// CHECK: %[[G0:.*]] = arith.bitcast %{{.*}} : i16 to f16
// CHECK: %[[G1:.*]] = arith.bitcast %{{.*}} : i16 to f16
// CHECK: %[[W0:.*]] = arith.extf %[[G0]] : f16 to f32
// CHECK: %[[B0:.*]] = arith.truncf %[[W0]] : f32 to bf16
// CHECK: %[[W1:.*]] = arith.extf %[[G1]] : f16 to f32
// CHECK: %[[B1:.*]] = arith.truncf %[[W1]] : f32 to bf16
// CHECK: llvm.store %[[H0]], %{{.*}} : f16, !llvm.ptr<1>
// CHECK: llvm.store %[[H1]], %{{.*}} : f16, !llvm.ptr<1>
// CHECK: llvm.store %[[B0]], %{{.*}} : bf16, !llvm.ptr<1>
// CHECK: llvm.store %[[B1]], %{{.*}} : bf16, !llvm.ptr<1>
// CHECK: %[[L0:.*]] = llvm.load %{{.*}} -> f16
// CHECK: %[[L1:.*]] = llvm.load %{{.*}} -> f16
// CHECK: %[[L2:.*]] = llvm.load %{{.*}} -> bf16
// CHECK: %[[L3:.*]] = llvm.load %{{.*}} -> bf16
// CHECK: %[[E0:.*]] = arith.extf %[[L0]] : f16 to f32
// CHECK: %[[E1:.*]] = arith.extf %[[L1]] : f16 to f32
// CHECK: "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %[[E1]], %[[E0]]
// CHECK: %[[E2:.*]] = arith.extf %[[L2]] : bf16 to f32
// CHECK: %[[E3:.*]] = arith.extf %[[L3]] : bf16 to f32
// CHECK: "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f" %[[E3]], %[[E2]]
// PTX-LABEL: .entry halves
// PTX: cvt.rn.f16x2.e4m3x2
// PTX: cvt.rn.f16x2.e5m2x2
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX: cvt.rn.satfinite.e5m2x2.f32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 1 : i32} {
func.func @halves(%x: !tile.ptr<f8E4M3FN>, %y: !tile.ptr<f8E5M2>, %h: !tile.ptr<f16>, %b: !tile.ptr<bf16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f8E4M3FN>) -> tensor<64x!tile.ptr<f8E4M3FN>>
  %xp = "tile.addptr"(%xs, %r) : (tensor<64x!tile.ptr<f8E4M3FN>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f8E4M3FN>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f8E5M2>) -> tensor<64x!tile.ptr<f8E5M2>>
  %yp = "tile.addptr"(%ys, %r) : (tensor<64x!tile.ptr<f8E5M2>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f8E5M2>>
  %hs = "tile.splat"(%h) : (!tile.ptr<f16>) -> tensor<64x!tile.ptr<f16>>
  %hp = "tile.addptr"(%hs, %r) : (tensor<64x!tile.ptr<f16>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f16>>
  %bs = "tile.splat"(%b) : (!tile.ptr<bf16>) -> tensor<64x!tile.ptr<bf16>>
  %bp = "tile.addptr"(%bs, %r) : (tensor<64x!tile.ptr<bf16>>, tensor<64xi32>) -> tensor<64x!tile.ptr<bf16>>
  %a = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f8E4M3FN>>) -> tensor<64xf8E4M3FN>
  %c = "tile.load"(%yp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f8E5M2>>) -> tensor<64xf8E5M2>
  %af = arith.extf %a : tensor<64xf8E4M3FN> to tensor<64xf16>
  %cb = arith.extf %c : tensor<64xf8E5M2> to tensor<64xbf16>
  "tile.store"(%hp, %af) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f16>>, tensor<64xf16>) -> ()
  "tile.store"(%bp, %cb) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<bf16>>, tensor<64xbf16>) -> ()
  %hv = "tile.load"(%hp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<f16>>) -> tensor<64xf16>
  %bv = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<64x!tile.ptr<bf16>>) -> tensor<64xbf16>
  %h8 = arith.truncf %hv : tensor<64xf16> to tensor<64xf8E4M3FN>
  %b8 = arith.truncf %bv : tensor<64xbf16> to tensor<64xf8E5M2>
  "tile.store"(%xp, %h8) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f8E4M3FN>>, tensor<64xf8E4M3FN>) -> ()
  "tile.store"(%yp, %b8) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f8E5M2>>, tensor<64xf8E5M2>) -> ()
  return
}
}
