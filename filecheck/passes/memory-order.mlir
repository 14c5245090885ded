// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt --canonicalize --cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt --canonicalize --cse %to-ptx-O0 | FileCheck %s --check-prefixes=PTX,O0
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt --canonicalize --cse %to-ptx-O1 | FileCheck %s --check-prefixes=PTX
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt --canonicalize --cse %to-ptx-O2 | FileCheck %s --check-prefixes=PTX
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt --canonicalize --cse %to-ptx-O3 | FileCheck %s --check-prefixes=PTX

// Memory order survives every pipeline: a load after a store through the
// same pointers reads what was stored, whatever upstream passes run after
// tile-to-simt (canonicalize and cse here, as the -O0 stage runs them) and
// at every LLVM optimisation level. Plain accesses are llvm.load and
// llvm.store, which LLVM orders (and may forward: x + 1 stored, then
// reloaded, may become x + 1 itself); predicated accesses are PTX with
// side effects, which nothing merges or moves across another access. One
// element per thread (128 elements, 128 threads), so each access is one
// instruction.

// Load, store, load through one pointer tensor, unmasked.

// CHECK-LABEL: gpu.func @load_store_load
// CHECK: %[[A:.*]] = llvm.load %[[P:.*]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.*}}, %[[P]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: %[[B:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %[[B]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// PTX-LABEL: .entry load_store_load
// PTX-SAME: ld.global.b32 {{[^%]*}}%r[[A:[0-9]+]], [%rd[[P:[0-9]+]]];
// PTX-SAME: add.rn.f32 {{[^%]*}}%r[[S:[0-9]+]], %r[[A]], 0f3F800000;
// PTX-SAME: st.global.b32 {{[^[]*}}[%rd[[P]]], %r[[S]];
// O0-SAME: ld.global.b32 {{[^%]*}}%r{{[0-9]+}}, [%rd[[P]]];
// PTX-NOT: st.global.b32 {{[^[]*}}[%rd{{[0-9]+}}], %r[[A]];
// PTX-SAME: st.global.{{[bf]}}32
func.func @load_store_load(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %two = arith.constant dense<2.0> : tensor<128xf32>
  %a = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  %a1 = arith.addf %a, %one : tensor<128xf32>
  "tile.store"(%p, %a1) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %b = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  "tile.store"(%q, %b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}

// -----

// The same, masked: the second load is not merged with the first.

// CHECK-LABEL: gpu.func @masked
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "mov.f32 $0, $1;\0A\09@$3 ld.global.f32 $0, [ $2 ];"
// PTX-LABEL: .entry masked
// PTX-SAME: ld.global.{{[bf]}}32
// PTX-SAME: add.rn.f32
// PTX-SAME: st.global.{{[bf]}}32
// PTX-SAME: ld.global.{{[bf]}}32
// PTX-SAME: st.global.{{[bf]}}32
func.func @masked(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %two = arith.constant dense<2.0> : tensor<128xf32>
  %a = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  %a1 = arith.addf %a, %one : tensor<128xf32>
  "tile.store"(%p, %a1, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  %b = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  "tile.store"(%q, %b, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}

// -----

// Store 1, store 2, load: the load reads 2.

// CHECK-LABEL: gpu.func @store_store_load
// CHECK: llvm.store
// CHECK: llvm.store
// CHECK: llvm.load
// PTX-LABEL: .entry store_store_load
// PTX-SAME: st.global.b32 {{[^[]*}}[%rd{{[0-9]+}}], {{0f40000000|1073741824}};
// PTX-NOT: {{0f3F800000|1065353216}}
// PTX-SAME: st.global.{{[bf]}}32
func.func @store_store_load(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %two = arith.constant dense<2.0> : tensor<128xf32>
  "tile.store"(%p, %one) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  "tile.store"(%p, %two) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %b = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 0, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
  "tile.store"(%q, %b) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  return
}

// -----

// A plain store, then a masked load of the same elements: the load stays
// after the store.

// CHECK-LABEL: gpu.func @store_then_masked_load
// CHECK: llvm.store %{{.*}}, %[[P:.*]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: llvm.inline_asm has_side_effects {{.*}}ld.global.f32{{.*}}%[[P]]
// PTX-LABEL: .entry store_then_masked_load
// PTX-SAME: st.global.b32 {{[^[]*}}[%rd{{[0-9]+}}], {{0f40000000|1073741824}};
// PTX-SAME: ld.global.f32 %{{r|f}}{{[0-9]+}}, [ %rd{{[0-9]+}} ];
// PTX-SAME: st.global.{{[bf]}}32
func.func @store_then_masked_load(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = "tile.arange"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
  %ns = "tile.splat"(%n) : (i32) -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %r) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %two = arith.constant dense<2.0> : tensor<128xf32>
  "tile.store"(%p, %two) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()
  %b = "tile.load"(%p, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>, volatile = false} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
  "tile.store"(%q, %b, %m) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}

// -----

// Block pointers with a bounds check: load, store, load.

// CHECK-LABEL: gpu.func @block_load_store_load
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "mov.f32 $0, $1;\0A\09@$3 ld.global.f32 $0, [ $2 ];"
// PTX-LABEL: .entry block_load_store_load
// PTX-SAME: ld.global.{{[bf]}}32
// PTX-SAME: add.rn.f32
// PTX-SAME: st.global.{{[bf]}}32
// PTX-SAME: ld.global.{{[bf]}}32
// PTX-SAME: st.global.{{[bf]}}32
func.func @block_load_store_load(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i64, %o: i32) attributes {tile.kernel} {
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %c1 = arith.constant 1 : i64
  %bx = "tile.make_block_ptr"(%x, %n, %c1, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<128xf32>>
  %by = "tile.make_block_ptr"(%y, %n, %c1, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>} : (!tile.ptr<f32>, i64, i64, i32) -> !tile.block_ptr<tensor<128xf32>>
  %a = "tile.block_load"(%bx) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  %a1 = arith.addf %a, %one : tensor<128xf32>
  "tile.block_store"(%bx, %a1) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128xf32>>, tensor<128xf32>) -> ()
  %b = "tile.block_load"(%bx) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128xf32>>) -> tensor<128xf32>
  "tile.block_store"(%by, %b) {boundary_check = array<i32: 0>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128xf32>>, tensor<128xf32>) -> ()
  return
}
