// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// The ops that move elements, in per-thread code. Where each thread
// already holds what its result registers need, the registers are only
// renumbered; otherwise every thread writes its elements at their
// row-major places in shared memory and, after a barrier, reads its own.

// One warp, 64 floats, two per thread (lane and lane + 32). Reshaping to
// 8x8 keeps each element in its thread (thread (r, c) holds rows r and
// r + 4 of column c: elements 8r + c = lane and lane + 32): no shared
// memory. The transpose writes element (i, j) at place 8j + i and reads
// its own (r, c) at place 8r + c; a place p lies at slot
// p ^ ((p >> 3) & 7), an XOR swizzle the exchange picks because the
// columns lanes c and c + 4 write would otherwise share banks (6
// wavefronts against 4). The swizzle is linear over XOR, so each thread
// maps its first place once and XORs a constant for the second (4 when
// writing, place 32 = slot 36 when reading). The reshape back is in
// registers again.
// CHECK-LABEL: gpu.func @transpose
// CHECK: arith.andi %{{.*}}, %c31_i32 : i32
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32 : i32
// CHECK: %[[R:.*]] = arith.andi %{{.*}}, %c3_i32 : i32
// CHECK: %[[C:.*]] = arith.andi %{{.*}}, %c7_i32 : i32
// CHECK: %[[V0:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: %[[V1:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: gpu.barrier
// CHECK: %[[W0:.*]] = arith.muli %[[C]], %c8_i32 : i32
// CHECK: %[[A0:.*]] = arith.addi %[[R]], %[[W0]] : i32
// CHECK: %[[H0:.*]] = arith.shrui %[[A0]], %c3_i32 : i32
// CHECK: %[[M0:.*]] = arith.andi %[[H0]], %c7_i32 : i32
// CHECK: %[[S0:.*]] = arith.xori %[[A0]], %[[M0]] : i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %{{.*}}[%[[S0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[S4:.*]] = arith.xori %[[S0]], %c4_i32 : i32
// CHECK: %[[P4:.*]] = llvm.getelementptr %{{.*}}[%[[S4]]]
// CHECK: llvm.store volatile %[[V0]], %[[P0]]
// CHECK: llvm.store volatile %[[V1]], %[[P4]]
// CHECK: gpu.barrier
// CHECK: %[[B0:.*]] = arith.muli %[[R]], %c8_i32 : i32
// CHECK: %[[B1:.*]] = arith.addi %[[B0]], %[[C]] : i32
// CHECK: %[[H1:.*]] = arith.shrui %[[B1]], %c3_i32 : i32
// CHECK: %[[M1:.*]] = arith.andi %[[H1]], %c7_i32 : i32
// CHECK: %[[S1:.*]] = arith.xori %[[B1]], %[[M1]] : i32
// CHECK: %[[Q0:.*]] = llvm.getelementptr %{{.*}}[%[[S1]]]
// CHECK: %[[S36:.*]] = arith.xori %[[S1]], %c36_i32 : i32
// CHECK: %[[Q1:.*]] = llvm.getelementptr %{{.*}}[%[[S36]]]
// CHECK: %[[T0:.*]] = llvm.load %[[Q0]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: %[[T1:.*]] = llvm.load %[[Q1]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: gpu.barrier
// CHECK: %[[O:.*]] = llvm.getelementptr %arg1[%[[LANE]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: %[[O32:.*]] = llvm.getelementptr %[[O]][32]
// CHECK: llvm.store %[[T0]], %[[O]]
// CHECK: llvm.store %[[T1]], %[[O32]]
// CHECK-NEXT: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry transpose
// PTX-SAME: st.volatile.shared.b32
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared.b32
// PTX-SAME: st.global.b32
module attributes {tile.num_warps = 1 : i32} {
func.func @transpose(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %ps = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %p = "tile.addptr"(%ps, %c) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
  %m = "tile.reshape"(%v) : (tensor<64xf32>) -> tensor<8x8xf32>
  %t = "tile.permute"(%m) {order = array<i32: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %f = "tile.reshape"(%t) : (tensor<8x8xf32>) -> tensor<64xf32>
  %os = "tile.splat"(%out) : (!tile.ptr<f32>) -> tensor<64x!tile.ptr<f32>>
  %o = "tile.addptr"(%os, %c) : (tensor<64x!tile.ptr<f32>>, tensor<64xi32>) -> tensor<64x!tile.ptr<f32>>
  "tile.store"(%o, %f) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> ()
  return
}
}

// -----

// 64 bytes as 32 pairs: the reshape keeps them in their threads, the
// split moves them through shared memory (pair i to thread i), and the
// concatenation of the halves, second first, is in registers.
// CHECK-LABEL: gpu.func @halves
// CHECK: arith.andi %{{.*}}, %c31_i32 : i32
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32 : i32
// CHECK: %[[V0:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK: %[[V1:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK: gpu.barrier
// CHECK: llvm.store volatile %[[V0]]
// CHECK: llvm.store volatile %[[V1]]
// CHECK: gpu.barrier
// CHECK: %[[E:.*]] = arith.muli %[[LANE]], %c2_i32 : i32
// CHECK: %[[PE:.*]] = llvm.getelementptr %{{.*}}[%[[E]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[LO:.*]] = llvm.load %[[PE]] {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK: %[[E2:.*]] = arith.muli %[[LANE]], %c2_i32 : i32
// CHECK: %[[O:.*]] = arith.addi %[[E2]], %c1_i32 : i32
// CHECK: %[[PO:.*]] = llvm.getelementptr %{{.*}}[%[[O]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[HI:.*]] = llvm.load %[[PO]] {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NOT: gpu.barrier
// CHECK: %[[OUT:.*]] = llvm.getelementptr %arg1[%[[LANE]]]
// CHECK: %[[OUT32:.*]] = llvm.getelementptr %[[OUT]][32]
// CHECK: llvm.store %[[HI]], %[[OUT]]
// CHECK: llvm.store %[[LO]], %[[OUT32]]
// CHECK-NEXT: gpu.return
// PTX-LABEL: gpu.binary @tile
// PTX-SAME: .entry halves
// PTX-SAME: st.volatile.shared.b8
// PTX-SAME: bar.sync
// PTX-SAME: ld.shared.v2.b8
// PTX-SAME: st.global.b8
module attributes {tile.num_warps = 1 : i32} {
func.func @halves(%x: !tile.ptr<i8>, %out: !tile.ptr<i8>) attributes {tile.kernel} {
  %c = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<i8>) -> tensor<64x!tile.ptr<i8>>
  %xp = "tile.addptr"(%xs, %c) : (tensor<64x!tile.ptr<i8>>, tensor<64xi32>) -> tensor<64x!tile.ptr<i8>>
  %a = "tile.load"(%xp) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x!tile.ptr<i8>>) -> tensor<64xi8>
  %p = "tile.reshape"(%a) : (tensor<64xi8>) -> tensor<32x2xi8>
  %lo, %hi = "tile.split"(%p) : (tensor<32x2xi8>) -> (tensor<32xi8>, tensor<32xi8>)
  %s = "tile.cat"(%hi, %lo) {axis = 0 : i32} : (tensor<32xi8>, tensor<32xi8>) -> tensor<64xi8>
  %os = "tile.splat"(%out) : (!tile.ptr<i8>) -> tensor<64x!tile.ptr<i8>>
  %o = "tile.addptr"(%os, %c) : (tensor<64x!tile.ptr<i8>>, tensor<64xi32>) -> tensor<64x!tile.ptr<i8>>
  "tile.store"(%o, %s) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x!tile.ptr<i8>>, tensor<64xi8>) -> ()
  return
}
}
