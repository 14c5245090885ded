// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// tile.print becomes one gpu.printf (vprintf) per element a thread holds,
// under the owner's guard so that each element prints once; a scalar
// prints from thread 0. Floats widen to f64, narrow integers to i32 (zero
// extended for hex), i64 prints with %lld. tile.assert becomes one
// cf.assert of the thread's registers (__assertfail with the op's file and
// line) in a module marked tile.debug, and nothing elsewhere.

// 16 f16 on 128 threads: threads 16 and up hold copies and print nothing.
// CHECK-LABEL: gpu.func @debug_build
// CHECK: %[[TID:.*]] = arith.index_cast %thread_id_x : index to i32
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %{{.*}}, %c16_i32 : i32
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: %[[W:.*]] = arith.extf %[[V]] : f16 to f64
// CHECK: scf.if %[[OWNER]] {
// CHECK-NEXT: gpu.printf "pid (%d, %d, %d) idx (%d) v 100%%: %f\0A", {{.*}}, %[[W]] : i32, i32, i32, i32, f64
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0_i32 : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: gpu.printf "pid (%d, %d, %d) n: %lld\0A", {{.*}}, %arg1 : i32, i32, i32, i64
// CHECK: scf.if
// CHECK-NEXT: gpu.printf "pid (%d, %d, %d) here\0A", {{.*}} : i32, i32, i32
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) idx (%d, %d) b: 0x%x\0A"
// CHECK: %[[OK:.*]] = arith.cmpi slt
// CHECK: cf.assert %[[OK]], "index past n"
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .extern .func __assertfail
// PTX-SAME: .extern .func  (.param .b32 func_retval0) vprintf
// PTX-SAME: .entry debug_build
// PTX-SAME: call.uni (retval0), vprintf
// PTX-SAME: call.uni __assertfail
module attributes {tile.debug} {
func.func @debug_build(%x: !tile.ptr<f16>, %n: i64, %b: !tile.ptr<i8>, %m: i32) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<16x!tile.ptr<f16>>
  %p = "tile.addptr"(%ps, %c) : (tensor<16x!tile.ptr<f16>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x!tile.ptr<f16>>) -> tensor<16xf16>
  "tile.print"(%v) {prefix = "v 100%", hex = false} : (tensor<16xf16>) -> ()
  "tile.print"(%n) {prefix = "n", hex = false} : (i64) -> ()
  "tile.print"() {prefix = "here", hex = false} : () -> ()
  %r = "tile.arange"() {start = 0 : i32, end = 32 : i32} : () -> tensor<32xi32>
  %r2 = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %cb = "tile.broadcast"(%r2) : (tensor<32x1xi32>) -> tensor<32x8xi32>
  %bs = "tile.splat"(%b) : (!tile.ptr<i8>) -> tensor<32x8x!tile.ptr<i8>>
  %bp = "tile.addptr"(%bs, %cb) : (tensor<32x8x!tile.ptr<i8>>, tensor<32x8xi32>) -> tensor<32x8x!tile.ptr<i8>>
  %bv = "tile.load"(%bp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x8x!tile.ptr<i8>>) -> tensor<32x8xi8>
  "tile.print"(%bv) {prefix = "b", hex = true} : (tensor<32x8xi8>) -> ()
  %ms = "tile.splat"(%m) : (i32) -> tensor<16xi32>
  %ok = arith.cmpi slt, %c, %ms : tensor<16xi32>
  "tile.assert"(%ok) {message = "index past n"} : (tensor<16xi1>) -> ()
  return
}
}

// -----

// Without tile.debug the assertion is dropped; the print stays.
// CHECK-LABEL: gpu.func @release_build
// CHECK-NOT: cf.assert
// CHECK: gpu.printf "pid (%d, %d, %d) m: %d\0A"
// CHECK-NOT: cf.assert
// CHECK: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-NOT: __assertfail
// PTX-SAME: .entry release_build
// PTX-SAME: vprintf
// PTX-NOT: __assertfail
func.func @release_build(%m: i32) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 16 : i32} : () -> tensor<16xi32>
  %ms = "tile.splat"(%m) : (i32) -> tensor<16xi32>
  %ok = arith.cmpi slt, %c, %ms : tensor<16xi32>
  "tile.assert"(%ok) {message = "index past n"} : (tensor<16xi1>) -> ()
  "tile.print"(%m) {prefix = "m", hex = false} : (i32) -> ()
  return
}

// -----

// Narrow integers: a signed i8 prints its sign (sign extended), a hex one
// its bits (zero extended), a boolean 0 or 1 (zero extended, never -1).
// CHECK-LABEL: gpu.func @narrow_integers
// CHECK-SAME: (%[[S:.*]]: i8, %[[H:.*]]: i16, %{{.*}}: i32)
// CHECK: %[[SW:.*]] = arith.extsi %[[S]] : i8 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) s: %d\0A", {{.*}}, %[[SW]] : i32, i32, i32, i32
// CHECK: %[[HW:.*]] = arith.extui %[[H]] : i16 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) h: 0x%x\0A", {{.*}}, %[[HW]] : i32, i32, i32, i32
// CHECK: %[[TW:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) t: %d\0A", {{.*}}, %[[TW]] : i32, i32, i32, i32
// PTX-LABEL: .entry narrow_integers
// PTX: cvt.s32.s8
module {
func.func @narrow_integers(%s: i8, %h: i16, %m: i32) attributes {tile.kernel} {
  "tile.print"(%s) {prefix = "s", hex = false} : (i8) -> ()
  "tile.print"(%h) {prefix = "h", hex = true} : (i16) -> ()
  %z = arith.constant 0 : i32
  %t = arith.cmpi slt, %m, %z : i32
  "tile.print"(%t) {prefix = "t", hex = false} : (i1) -> ()
  return
}
}
