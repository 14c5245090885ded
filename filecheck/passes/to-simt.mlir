// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: not tile-opt %s --split-input-file --tile-to-simt 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// tile-to-simt turns laid-out tile IR into per-thread code in a
// gpu.module: one value a register (1024 elements over 128 threads: 8),
// masked accesses as predicated PTX with no branch, marked as having side
// effects (nothing may merge or move them across stores), the same source
// location on every op that came from one tile op.

// A kernel that needs no shared memory gets no shared buffer: the
// function comes first in the module.
// CHECK-LABEL: gpu.module @tile
// CHECK-NEXT: gpu.func @masked(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %[[N:.*]]: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id x
// CHECK-COUNT-8: arith.cmpi slt, %{{.*}}, %[[N]] : i32
// The addresses: one base, x + (pid * 1024 + thread index), then a
// constant offset a register.
// CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-COUNT-7: llvm.getelementptr %[[BASE]][{{[0-9]+}}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK-COUNT-8: llvm.inline_asm has_side_effects "mov.f32 $0, $1;\0A\09@$3 ld.global.f32 $0, [ $2 ];", "=f,f,l,b"
// CHECK-NOT: scf.if
// CHECK-NOT: cf.cond_br
// CHECK-COUNT-8: llvm.inline_asm has_side_effects "@$2 st.global.f32 [ $0 ], $1;", "l,f,b"
// CHECK: gpu.return
func.func @masked(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
  %c = arith.constant 1024 : i32
  %start = arith.muli %pid, %c : i32
  %r = "tile.arange"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
  %s = "tile.splat"(%start) : (i32) -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<1024xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %offs) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  %v = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>) -> tensor<1024xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
  %q = "tile.addptr"(%os, %offs) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>) -> tensor<1024x!tile.ptr<f32>>
  "tile.store"(%q, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
  return
}

// -----

// Cache modifiers, eviction policies and volatile reach the instruction
// (PTX with side effects; f32 in .f32 registers); unmasked accesses with
// the default policy are aligned llvm.load / llvm.store.

// CHECK-LABEL: gpu.func @qualifiers
// CHECK: llvm.inline_asm has_side_effects "ld.global.cg.L1::evict_last.f32 $0, [ $1 ];", "=f,l"
// CHECK: llvm.inline_asm has_side_effects "ld.volatile.global.f32 $0, [ $1 ];", "=f,l"
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: llvm.inline_asm has_side_effects "st.global.cs.f32 [ $0 ], $1;", "l,f"
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
func.func @qualifiers(%x: !tile.ptr<f32>, %y: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<128x!tile.ptr<f16>>
  %h = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f16>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f16>>
  %a = "tile.load"(%p) {cache_modifier = "cg", eviction_policy = "evict_last", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %b = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = true} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %c = "tile.load"(%h) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f16>>) -> tensor<128xf16>
  %s = arith.addf %a, %b : tensor<128xf32>
  "tile.store"(%p, %s) {cache_modifier = "cs", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  "tile.store"(%h, %c) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f16>>, tensor<128xf16>) -> ()
  return
}

// -----

// A tile smaller than the program (16 elements, 128 threads) is held by
// several threads; its store is predicated so that one thread writes each
// element.

// CHECK-LABEL: gpu.func @replicated
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %{{.*}}, %c16_i32 : i32
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
func.func @replicated(%x: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<16x!tile.ptr<i32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<i32>>
  "tile.store"(%p, %r) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x!tile.ptr<i32>>, tensor<16xi32>) -> ()
  return
}

// -----

// 2-d: rows and columns expanded from slices need no data movement; a
// range used on both axes is converted through shared memory (stores
// marked volatile: other threads read them after the barrier, and LLVM
// has nothing to remove there).

// CHECK-LABEL: gpu.module @tile
// CHECK: llvm.mlir.global internal @__tile_shared() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<128 x i8>
// CHECK: gpu.func @both_axes
// CHECK: llvm.mlir.addressof @__tile_shared : !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.store volatile %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
func.func @both_axes(%x: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
  %a = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  %b = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
  %ab = "tile.broadcast"(%a) : (tensor<32x1xi32>) -> tensor<32x32xi32>
  %bb = "tile.broadcast"(%b) : (tensor<1x32xi32>) -> tensor<32x32xi32>
  %s = arith.addi %ab, %bb : tensor<32x32xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<32x32x!tile.ptr<i32>>
  %p = "tile.addptr"(%xs, %s) : (tensor<32x32x!tile.ptr<i32>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<i32>>
  "tile.store"(%p, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x32x!tile.ptr<i32>>, tensor<32x32xi32>) -> ()
  return
}

// -----

// Without layouts the pass refuses, naming the op.

// ERR: error: 'tile.arange' op has a tensor without a layout (tensor<16xi32>); run tile-assign-layouts first
func.func @no_layouts() attributes {tile.kernel} {
  %r = "tile.arange"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
  return
}

// -----

// A splat constant in a slice layout (whose type holds " : ") becomes one
// scalar constant.

// CHECK-LABEL: gpu.func @sliced_constant
// CHECK: arith.constant 7 : i32
func.func @sliced_constant(%x: !tile.ptr<i32>) attributes {tile.kernel} {
  %c = arith.constant dense<7> : tensor<16xi32>
  %e = "tile.expand_dims"(%c) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
  %b = "tile.broadcast"(%e) : (tensor<16x1xi32>) -> tensor<16x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<16x64x!tile.ptr<i32>>
  %p = "tile.addptr"(%xs, %b) : (tensor<16x64x!tile.ptr<i32>>, tensor<16x64xi32>) -> tensor<16x64x!tile.ptr<i32>>
  "tile.store"(%p, %b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<16x64x!tile.ptr<i32>>, tensor<16x64xi32>) -> ()
  return
}

// -----

// A masked 16-bit load one element at a time (no divisibility known, so no
// vector): `other` moves into the register with a 16-bit mov, then the
// load under the mask; a 64-bit mov of a 16-bit register is no PTX.
// In PTX the 16-bit `other` is moved between .b16 registers, then
// loaded over under the mask.
// PTX: .entry masked_f16({{.*}}mov.b16 %rs{{[0-9]+}}, %rs{{[0-9]+}};\0A\09@%p{{[0-9]+}} ld.global.b16 %rs
// CHECK-LABEL: gpu.func @masked_f16
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "mov.b16 $0, $1;\0A\09@$3 ld.global.b16 $0, [ $2 ];", "=h,h,l,b"
// CHECK-NOT: ld.global
// CHECK: gpu.return
func.func @masked_f16(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<256x!tile.ptr<f16>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<f16>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f16>>
  %other = arith.constant dense<-1.5> : tensor<256xf16>
  %v = "tile.load"(%p, %m, %other) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<256x!tile.ptr<f16>>, tensor<256xi1>, tensor<256xf16>) -> tensor<256xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<256x!tile.ptr<f16>>
  %q = "tile.addptr"(%ys, %r) : (tensor<256x!tile.ptr<f16>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f16>>
  "tile.store"(%q, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!tile.ptr<f16>>, tensor<256xf16>, tensor<256xi1>) -> ()
  return
}

// -----

// The same for i32: a 32-bit mov.
// CHECK-LABEL: gpu.func @masked_i32
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "mov.b32 $0, $1;\0A\09@$3 ld.global.b32 $0, [ $2 ];", "=r,r,l,b"
// CHECK-NOT: ld.global
// CHECK: gpu.return
func.func @masked_i32(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i32>) -> tensor<256x!tile.ptr<i32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<i32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<i32>>
  %other = arith.constant dense<-3> : tensor<256xi32>
  %v = "tile.load"(%p, %m, %other) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<256x!tile.ptr<i32>>, tensor<256xi1>, tensor<256xi32>) -> tensor<256xi32>
  %ys = "tile.splat"(%y) : (!tile.ptr<i32>) -> tensor<256x!tile.ptr<i32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<256x!tile.ptr<i32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<i32>>
  "tile.store"(%q, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!tile.ptr<i32>>, tensor<256xi32>, tensor<256xi1>) -> ()
  return
}

// -----

// The same for i64: a 64-bit mov.
// CHECK-LABEL: gpu.func @masked_i64
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "mov.b64 $0, $1;\0A\09@$3 ld.global.b64 $0, [ $2 ];", "=l,l,l,b"
// CHECK-NOT: ld.global
// CHECK: gpu.return
func.func @masked_i64(%x: !tile.ptr<i64>, %y: !tile.ptr<i64>, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i64>) -> tensor<256x!tile.ptr<i64>>
  %p = "tile.addptr"(%xs, %r) : (tensor<256x!tile.ptr<i64>>, tensor<256xi32>) -> tensor<256x!tile.ptr<i64>>
  %other = arith.constant dense<-3> : tensor<256xi64>
  %v = "tile.load"(%p, %m, %other) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>, volatile = false} : (tensor<256x!tile.ptr<i64>>, tensor<256xi1>, tensor<256xi64>) -> tensor<256xi64>
  %ys = "tile.splat"(%y) : (!tile.ptr<i64>) -> tensor<256x!tile.ptr<i64>>
  %q = "tile.addptr"(%ys, %r) : (tensor<256x!tile.ptr<i64>>, tensor<256xi32>) -> tensor<256x!tile.ptr<i64>>
  "tile.store"(%q, %v, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!tile.ptr<i64>>, tensor<256xi64>, tensor<256xi1>) -> ()
  return
}

// -----

// A splat added to a range with two registers a thread: one shared sum
// (the splat plus the range's root), then constant offsets: the second
// register's address is the first's plus 128 elements.
// CHECK-LABEL: gpu.func @uniform_plus_two
// CHECK: %[[O:.*]] = arith.addi %arg2, %{{.*}} : i32
// CHECK-NOT: arith.addi
// CHECK: %[[P:.*]] = llvm.getelementptr %arg0[%[[O]]]
// CHECK-NEXT: llvm.getelementptr %[[P]][128]
// CHECK: gpu.return
func.func @uniform_plus_two(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %s: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = "tile.arange"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
  %ss = "tile.splat"(%s) : (i32) -> tensor<256xi32>
  %o = arith.addi %ss, %r : tensor<256xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %o) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %o) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
  "tile.store"(%q, %v) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!tile.ptr<f32>>, tensor<256xf32>) -> ()
  return
}
