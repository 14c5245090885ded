// RUN: tile-opt %s --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --tile-to-simt %to-ptx-sm80 | FileCheck %s --check-prefix=PTX --implicit-check-not=ld.shared.b16

// mma.sync reads an operand whose K runs down the rows of shared memory
// (MN-major) one element at a time and packs each 32-bit word itself.
// The pipeliner copies i8 operands only K-major, so `b` here is marked by
// hand (`tile.async_copy` on a load whose layout runs along N): each word
// of `b` is four byte loads from consecutive rows (K, K+1, K+2, K+3; 32
// bytes apart, swizzled), each zero-extended and shifted into its byte.
// (K = 16 with this form is refused: `to-simt-dot-errors.mlir`.)

// CHECK-LABEL: gpu.func @i8_k32
// CHECK:      [[B0:%.+]] = llvm.load {{%.+}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT: [[W0:%.+]] = arith.extui [[B0]] : i8 to i32
// CHECK:      [[ROW1:%.+]] = arith.addi [[K:%.+]], %c1_i32 : i32
// CHECK:      arith.muli [[ROW1]], %c32_i32 : i32
// CHECK:      [[B1:%.+]] = llvm.load {{%.+}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT: [[X1:%.+]] = arith.extui [[B1]] : i8 to i32
// CHECK-NEXT: [[S1:%.+]] = arith.shli [[X1]], %c8_i32 : i32
// CHECK-NEXT: [[W1:%.+]] = arith.ori [[W0]], [[S1]] : i32
// CHECK:      [[ROW2:%.+]] = arith.addi [[K]], %c2_i32 : i32
// CHECK:      arith.muli [[ROW2]], %c32_i32 : i32
// CHECK:      [[B2:%.+]] = llvm.load {{%.+}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT: [[X2:%.+]] = arith.extui [[B2]] : i8 to i32
// CHECK-NEXT: [[S2:%.+]] = arith.shli [[X2]], %c16_i32 : i32
// CHECK-NEXT: [[W2:%.+]] = arith.ori [[W1]], [[S2]] : i32
// CHECK:      [[B3:%.+]] = llvm.load {{%.+}} {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT: [[X3:%.+]] = arith.extui [[B3]] : i8 to i32
// CHECK-NEXT: [[S3:%.+]] = arith.shli [[X3]], %c24_i32 : i32
// CHECK-NEXT: [[WORD:%.+]] = arith.ori [[W2]], [[S3]] : i32
// CHECK:      nvvm.mma.sync A[{{.*}}]  B[[[WORD]], {{%.+}}]
// CHECK-SAME: multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>

// The PTX has one byte load for each of the 16 bytes a thread takes of
// `b` (two words for each of two instructions), no more, and the products.
// PTX-COUNT-16: ld.shared.b8
// PTX-NOT:      ld.shared.b8
// PTX-COUNT-2:  mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX-NOT:      ld.shared.b8

module attributes {tile.compute_capability = 80 : i32, tile.num_stages = 2 : i32, tile.num_warps = 4 : i32} {
  func.func @i8_k32(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64, %steps: i32) attributes {tile.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %ck_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0> : tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xi8>>
    %r:3 = scf.for %i = %c0_i32 to %steps step %c1_i32 iter_args(%acc = %acc0, %qa = %pa, %qb = %pb) -> (tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x32xi8>>, !tile.block_ptr<tensor<32x32xi8>>) : i32 {
      %x = "tile.block_load"(%qa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x32xi8>>) -> tensor<32x32xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %y = "tile.block_load"(%qb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", tile.async_copy, tile.vector_width = 4 : i32, volatile = false} : (!tile.block_ptr<tensor<32x32xi8>>) -> tensor<32x32xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
      %d = "tile.dot"(%x, %y, %acc) {input_precision = "ieee"} : (tensor<32x32xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 8, 4>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xi8, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>, tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>
      %na = "tile.advance"(%qa, %c0_i32, %ck_i32) : (!tile.block_ptr<tensor<32x32xi8>>, i32, i32) -> !tile.block_ptr<tensor<32x32xi8>>
      %nb = "tile.advance"(%qb, %ck_i32, %c0_i32) : (!tile.block_ptr<tensor<32x32xi8>>, i32, i32) -> !tile.block_ptr<tensor<32x32xi8>>
      scf.yield %d, %na, %nb : tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>, !tile.block_ptr<tensor<32x32xi8>>, !tile.block_ptr<tensor<32x32xi8>>
    } {tile.num_stages = 2 : i64}
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1_i64, %c0_i32, %c0_i32) {operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x32xi32>>
    %o = "tile.convert_layout"(%r#0) : (tensor<32x32xi32, #tile.mma<2 : i32, array<i32: 2, 2>, 8 : i32>>) -> tensor<32x32xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>
    "tile.block_store"(%pc, %o) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", tile.vector_width = 4 : i32} : (!tile.block_ptr<tensor<32x32xi32>>, tensor<32x32xi32, #tile.blocked<array<i32: 1, 4>, array<i32: 4, 8>, array<i32: 4, 1>, array<i32: 1, 0>>>) -> ()
    return
  }
}
