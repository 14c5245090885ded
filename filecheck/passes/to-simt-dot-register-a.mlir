// RUN: tile-opt %s --split-input-file --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-to-simt %to-ptx-sm80 | FileCheck %s --check-prefix=PTX

// A product's left operand `p` that is the result of another product
// (rounded to f16) is read from the registers that hold it when its layout
// is the product's own kind and version, with the same warps, all along M,
// and whole blocks of 16 rows a warp; otherwise it is staged in shared
// memory like any other operand (its 2-element f16 runs stored before the
// second product). Layouts given by hand: `s = a @ b` (M x 16), `p` =
// f16(s), `d = p @ c` (M x 64).

// Same layout kind, version and warps (4 x 1), 64 rows: `p` stays in
// registers, each 32-bit word two halves (mma.sync takes f16 operands as
// vector<2xf16>; words of i32 do not verify). Only `c` is staged.
// CHECK-LABEL: gpu.func @same_warps
// CHECK: nvvm.mma.sync
// CHECK-NOT: vector<2xf16>, !llvm.ptr<3>
// CHECK: [[W:%.+]] = llvm.bitcast {{%.+}} : i32 to vector<2xf16>
// CHECK-NOT: vector<2xf16>, !llvm.ptr<3>
// CHECK: nvvm.mma.sync A[[[W]], {{.*}}]
// PTX: .entry same_warps(
// PTX-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: st.volatile.shared.b32
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @same_warps(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %w: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %px = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xf16>>
    %py = "tile.make_block_ptr"(%y, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x16xf16>>
    %pw = "tile.make_block_ptr"(%w, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf16>>
    %po = "tile.make_block_ptr"(%o, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %a = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xf16>>) -> tensor<64x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.block_load"(%py) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x16xf16>>) -> tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.block_load"(%pw) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z1 = arith.constant dense<0.0> : tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %s = "tile.dot"(%a, %b, %z1) {input_precision = "ieee"} : (tensor<64x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %p = arith.truncf %s : tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>> to tensor<64x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %z2 = arith.constant dense<0.0> : tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %d = "tile.dot"(%p, %c, %z2) {input_precision = "ieee"} : (tensor<64x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>, tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %e = "tile.convert_layout"(%d) : (tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<64x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%po, %e) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// The second product's warps are 2 x 2: staged.
// CHECK-LABEL: gpu.func @other_warps
// CHECK: nvvm.mma.sync
// CHECK-COUNT-4: llvm.store volatile {{%.+}}, {{%.+}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: nvvm.mma.sync
module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @other_warps(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %w: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %px = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xf16>>
    %py = "tile.make_block_ptr"(%y, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x16xf16>>
    %pw = "tile.make_block_ptr"(%w, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf16>>
    %po = "tile.make_block_ptr"(%o, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %a = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xf16>>) -> tensor<64x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.block_load"(%py) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x16xf16>>) -> tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.block_load"(%pw) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z1 = arith.constant dense<0.0> : tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %s = "tile.dot"(%a, %b, %z1) {input_precision = "ieee"} : (tensor<64x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %p = arith.truncf %s : tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>> to tensor<64x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %z2 = arith.constant dense<0.0> : tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %d = "tile.dot"(%p, %c, %z2) {input_precision = "ieee"} : (tensor<64x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>, tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %e = "tile.convert_layout"(%d) : (tensor<64x64xf32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<64x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%po, %e) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// 32 rows over 4 warps along M: not a whole block of 16 a warp. Staged.
// CHECK-LABEL: gpu.func @fewer_rows
// CHECK: nvvm.mma.sync
// CHECK-COUNT-4: llvm.store volatile {{%.+}}, {{%.+}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: nvvm.mma.sync
module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @fewer_rows(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %w: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %px = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x16xf16>>
    %py = "tile.make_block_ptr"(%y, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x16xf16>>
    %pw = "tile.make_block_ptr"(%w, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf16>>
    %po = "tile.make_block_ptr"(%o, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %a = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x16xf16>>) -> tensor<32x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.block_load"(%py) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x16xf16>>) -> tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.block_load"(%pw) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z1 = arith.constant dense<0.0> : tensor<32x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %s = "tile.dot"(%a, %b, %z1) {input_precision = "ieee"} : (tensor<32x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<32x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %p = arith.truncf %s : tensor<32x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>> to tensor<32x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %z2 = arith.constant dense<0.0> : tensor<32x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %d = "tile.dot"(%p, %c, %z2) {input_precision = "ieee"} : (tensor<32x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>, tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<32x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %e = "tile.convert_layout"(%d) : (tensor<32x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<32x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%po, %e) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<32x64xf32>>, tensor<32x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// `p` in mma.sync's layout (version 2) for a wgmma product (version 3):
// staged.
// CHECK-LABEL: gpu.func @other_version
// CHECK: nvvm.mma.sync
// CHECK-COUNT-4: llvm.store volatile {{%.+}}, {{%.+}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
// CHECK: wgmma.mma_async
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @other_version(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %w: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %px = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x16xf16>>
    %py = "tile.make_block_ptr"(%y, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x16xf16>>
    %pw = "tile.make_block_ptr"(%w, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf16>>
    %po = "tile.make_block_ptr"(%o, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %a = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x16xf16>>) -> tensor<64x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.block_load"(%py) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x16xf16>>) -> tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.block_load"(%pw) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z1 = arith.constant dense<0.0> : tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %s = "tile.dot"(%a, %b, %z1) {input_precision = "ieee"} : (tensor<64x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %p = arith.truncf %s : tensor<64x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>> to tensor<64x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %z2 = arith.constant dense<0.0> : tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>
    %d = "tile.dot"(%p, %c, %z2) {input_precision = "ieee"} : (tensor<64x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>, tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>) -> tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>
    %e = "tile.convert_layout"(%d) : (tensor<64x64xf32, #tile.mma<3 : i32, array<i32: 4, 1>, 64 : i32>>) -> tensor<64x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%po, %e) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}

// -----

// 128 rows: two blocks of 16 rows a warp, both read from registers (the
// second block's rows are 64 on from the first's).
// CHECK-LABEL: gpu.func @two_blocks
// CHECK-NOT: vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.return


module attributes {tile.compute_capability = 80 : i32, tile.num_warps = 4 : i32} {
  func.func @two_blocks(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %w: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %px = "tile.make_block_ptr"(%x, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x16xf16>>
    %py = "tile.make_block_ptr"(%y, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x16xf16>>
    %pw = "tile.make_block_ptr"(%w, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf16>>
    %po = "tile.make_block_ptr"(%o, %n, %n, %n, %c1, %c0, %c0) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<128x64xf32>>
    %a = "tile.block_load"(%px) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<128x16xf16>>) -> tensor<128x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %b = "tile.block_load"(%py) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x16xf16>>) -> tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %c = "tile.block_load"(%pw) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<16x64xf16>>) -> tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    %z1 = arith.constant dense<0.0> : tensor<128x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %s = "tile.dot"(%a, %b, %z1) {input_precision = "ieee"} : (tensor<128x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<16x16xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<128x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<128x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %p = arith.truncf %s : tensor<128x16xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>> to tensor<128x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %z2 = arith.constant dense<0.0> : tensor<128x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %d = "tile.dot"(%p, %c, %z2) {input_precision = "ieee"} : (tensor<128x16xf16, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>, tensor<16x64xf16, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<128x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<128x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>
    %e = "tile.convert_layout"(%d) : (tensor<128x64xf32, #tile.mma<2 : i32, array<i32: 4, 1>, 8 : i32>>) -> tensor<128x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%po, %e) {boundary_check = array<i32>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<128x64xf32>>, tensor<128x64xf32, #tile.blocked<array<i32: 1, 8>, array<i32: 16, 2>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}
