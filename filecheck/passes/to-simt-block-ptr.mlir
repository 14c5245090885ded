// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s

// Block pointers become their scalars (base, i64 shape and strides, i32
// offsets). Each register's address is base + sum((offset + index) *
// stride) in 64 bits; only the axes in boundary_check are compared with the
// shape, and out-of-bounds lanes read the padding.

// CHECK-LABEL: gpu.func @check_axis_1
// Axis 1 (extent %arg2) is checked, axis 0 (extent %arg1) never is.
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg1 : i64
// CHECK: arith.cmpi sge, %{{.*}}, %c0_i64 : i64
// CHECK-NEXT: arith.cmpi slt, %{{.*}}, %arg2 : i64
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg1 : i64
// CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg1 : i64
// CHECK: llvm.inline_asm has_side_effects "mov.f32 $0, $1;\0A\09@$3 ld.global.f32 $0, [ $2 ];", "=f,f,l,b"
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg1 : i64
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.f32 [ $0 ], $1;", "l,f,b"
// CHECK-NOT: arith.cmpi slt, %{{.*}}, %arg1 : i64
// CHECK: gpu.return
func.func @check_axis_1(%base: !tile.ptr<f32>, %m: i64, %k: i64, %sm: i64, %sk: i64, %om: i32, %ok: i32) attributes {tile.kernel} {
  %bp = "tile.make_block_ptr"(%base, %m, %k, %sm, %sk, %om, %ok) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
  %t = "tile.block_load"(%bp) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
  "tile.block_store"(%bp, %t) {boundary_check = array<i32: 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
  return
}

// -----

// No boundary check: plain, aligned llvm.load and llvm.store.

// CHECK-LABEL: gpu.func @unchecked
// CHECK-NOT: arith.cmpi
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NOT: llvm.inline_asm
func.func @unchecked(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32) attributes {tile.kernel} {
  %bp = "tile.make_block_ptr"(%base, %n, %s, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<128xf32>>
  %t = "tile.block_load"(%bp) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  "tile.block_store"(%bp, %t) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128xf32>>, tensor<128xf32>) -> ()
  return
}

// -----

// Padding: nan fills with a NaN, a constant with that constant, undefined
// with nothing (the load is predicated and no value is moved in first).

// CHECK-LABEL: gpu.func @paddings
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: llvm.inline_asm has_side_effects "mov.f32 $0, $1;{{.*}}", "=f,f,l,b" %[[NAN]],
// CHECK: llvm.inline_asm has_side_effects "mov.f32 $0, $1;{{.*}}", "=f,f,l,b" %[[NEGINF]],
// CHECK: llvm.inline_asm has_side_effects "@$2 ld.global.f32 $0, [ $1 ];", "=f,l,b"
func.func @paddings(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32) attributes {tile.kernel} {
  %bp = "tile.make_block_ptr"(%base, %n, %s, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<128xf32>>
  %a = "tile.block_load"(%bp) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "nan", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  %b = "tile.block_load"(%bp) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = 0xFF800000 : f32, volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  %c = "tile.block_load"(%bp) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "undefined", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  %ab = arith.addf %a, %b : tensor<128xf32>
  %abc = arith.addf %ab, %c : tensor<128xf32>
  "tile.block_store"(%bp, %abc) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128xf32>>, tensor<128xf32>) -> ()
  return
}

// -----

// A block pointer carried through a loop and advanced every iteration is
// carried as its scalars; advance adds to the offsets.

// CHECK-LABEL: gpu.func @advance_in_loop
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %arg0, %{{.*}} = %arg1, %{{.*}} = %arg2, %[[OFF:.*]] = %arg3) -> (!llvm.ptr<1>, i64, i64, i32) : i32
// CHECK: arith.addi %[[OFF]], %c128_i32 : i32
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<1>, i64, i64, i32
func.func @advance_in_loop(%base: !tile.ptr<f32>, %n: i64, %s: i64, %o: i32, %iters: i32) attributes {tile.kernel} {
  %bp = "tile.make_block_ptr"(%base, %n, %s, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<128xf32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant 128 : i32
  %r = scf.for %i = %c0 to %iters step %c1 iter_args(%p = %bp) -> (!tile.block_ptr<tensor<128xf32>>) : i32 {
    %t = "tile.block_load"(%p) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
    "tile.block_store"(%p, %t) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128xf32>>, tensor<128xf32>) -> ()
    %q = "tile.advance"(%p, %step) : (!tile.block_ptr<tensor<128xf32>>, i32) -> !tile.block_ptr<tensor<128xf32>>
    scf.yield %q : !tile.block_ptr<tensor<128xf32>>
  }
  return
}
