// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// tile-to-simt turns each run of tile.vector_width consecutive registers
// into one access of 32-bit words under the predicate of the run's first
// element: a masked load moves `other` into every word, then loads them
// all under one predicate.

// Masked f32, four per access: 1024 elements over 128 threads are two
// vectors a thread.
// CHECK-LABEL: gpu.func @masked_f32
// Only the first register of each run needs an address and a predicate:
// the lowering computes all eight and drops the six nothing uses.
// CHECK-COUNT-2: arith.cmpi slt
// CHECK-COUNT-2: llvm.getelementptr
// CHECK-NOT: llvm.getelementptr
// CHECK: llvm.inline_asm has_side_effects "mov.f32 $0, $4;\0A\09mov.f32 $1, $5;\0A\09mov.f32 $2, $6;\0A\09mov.f32 $3, $7;\0A\09@$9 ld.global.v4.f32 {$0, $1, $2, $3}, [ $8 ];", "=f,=f,=f,=f,f,f,f,f,l,b" {{.*}} : (f32, f32, f32, f32, !llvm.ptr<1>, i1) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.extractvalue
// CHECK: ld.global.v4.f32
// CHECK: llvm.inline_asm has_side_effects "@$5 st.global.v4.f32 [ $0 ], {$1, $2, $3, $4};", "l,f,f,f,f,b"
// CHECK: llvm.inline_asm has_side_effects "@$5 st.global.v4.f32 [ $0 ], {$1, $2, $3, $4};", "l,f,f,f,f,b"
// CHECK-NOT: st.global
// CHECK: gpu.return
func.func @masked_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %minus = arith.constant dense<-1.0> : tensor<1024xf32>
  %v = "tile.load"(%p, %m, %minus) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}

// -----

// f16, eight per access: halves are packed two to a word through
// vector<2xf16> bitcasts (one mov.b32 of a pair in PTX, where shifts and
// masks took an instruction each); the zero `other` is packed once.
// CHECK-LABEL: gpu.func @halves
// CHECK: llvm.insertelement %{{.*}}[%c0_i32 : i32] : vector<2xf16>
// CHECK: llvm.insertelement %{{.*}}[%c1_i32 : i32] : vector<2xf16>
// CHECK: %[[Z:.*]] = llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK-NOT: llvm.bitcast
// CHECK: ld.global.v4.b32 {{.*}} %[[Z]], %[[Z]], %[[Z]], %[[Z]]
// CHECK: %[[W:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: llvm.extractelement %[[W]][%c0_i32 : i32] : vector<2xf16>
// CHECK: llvm.extractelement %[[W]][%c1_i32 : i32] : vector<2xf16>
// CHECK-NOT: arith.shrui %{{.*}}, %c16_i32
// CHECK: st.global.v4.b32
// In PTX the words go from the load to the store untouched: no shift,
// no 16-bit unpacking.
// PTX-LABEL: .entry halves
// PTX-NOT: cvt.u32.u16
// PTX-NOT: shr.u32
// PTX: ld.global.v4.b32
// PTX-NOT: cvt.u32.u16
// PTX: st.global.v4.b32
func.func @halves(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<1024x!tile.ptr<f16>>
  %p = "tile.addptr"(%xs, %r) : (tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f16>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f16>>, tensor<1024xi1>) -> tensor<1024xf16>
  "tile.store"(%p, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f16>>, tensor<1024xf16>, tensor<1024xi1>) -> ()
  return
}

// -----

// i64, two per access: each element is two words, low first. Unmasked,
// the access is a plain aligned load (and store) of four words.
// CHECK-LABEL: gpu.func @wide
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-COUNT-4: llvm.extractelement %[[V]]
// CHECK: arith.extui {{.*}} : i32 to i64
// CHECK: arith.shli
// CHECK: arith.ori {{.*}} : i64
// CHECK: arith.trunci {{.*}} : i64 to i32
// CHECK: arith.shrui {{.*}} : i64
// CHECK: llvm.mlir.poison : vector<4xi32>
// CHECK-COUNT-4: llvm.insertelement
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NOT: llvm.inline_asm
func.func @wide(%x: !tile.ptr<i64> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i64>) -> tensor<256x!tile.ptr<i64>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<i64>>, tensor<256xi32>) -> tensor<256x!tile.ptr<i64>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<i64>>) -> tensor<256xi64>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<i64>>, tensor<256xi64>) -> ()
  return
}

// -----

// A block pointer checked on both axes with nan padding: the bounds of the
// run's first element guard the whole vector, and the padding fills every
// word.
// CHECK-LABEL: gpu.func @block_nan
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: llvm.inline_asm has_side_effects "mov.f32 $0, $4;{{.*}}@$9 ld.global.v4.f32 {$0, $1, $2, $3}, [ $8 ];", "=f,=f,=f,=f,f,f,f,f,l,b" %[[NAN]], %[[NAN]], %[[NAN]], %[[NAN]],
func.func @block_nan(%a: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %m: i64, %n: i64 {tile.divisibility = 16 : i32}, %s: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = "tile.make_block_ptr"(%a, %m, %n, %s, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %v = "tile.block_load"(%bp) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  %op = "tile.make_block_ptr"(%out, %m, %n, %s, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  "tile.block_store"(%op, %v) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// An argument specialized as 1 is the constant 1 in the code (the launch
// checks it), so a unit stride costs no multiply.
// CHECK-LABEL: gpu.func @unit_stride
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[S:.*]]: i32
// CHECK-NOT: %[[S]]
// CHECK: gpu.return
func.func @unit_stride(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32 {tile.equal_to_one}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %ss = "tile.splat"(%s) : (i32) -> tensor<256xi32>
  %o = arith.muli %r, %ss : tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %o) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
  "tile.store"(%p, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  return
}

// -----

// Two i8 a thread (256 over 128 threads), 16-byte aligned: a vector would
// move 2 bytes, below the 32-bit word an access of several elements
// moves, so each byte is its own access (the vectorizer once gave these a
// width of 2, which the lowering refused).
// CHECK-LABEL: gpu.func @two_bytes
// CHECK-NOT: inline_asm
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK-NOT: inline_asm
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
// CHECK-NEXT: gpu.return
func.func @two_bytes(%x: !tile.ptr<i8> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i8>) -> tensor<256x!tile.ptr<i8>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<i8>>, tensor<256xi32>) -> tensor<256x!tile.ptr<i8>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<i8>>) -> tensor<256xi8>
  %w = arith.addi %v, %v : tensor<256xi8>
  "tile.store"(%p, %w) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<i8>>, tensor<256xi8>) -> ()
  return
}
