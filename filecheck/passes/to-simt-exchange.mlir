// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-remove-conversions --tile-predicate --tile-vectorize --tile-to-simt %to-ptx | FileCheck %s --check-prefix=PTX

// Elements that change threads go through shared memory laid out per
// exchange (simt/exchange.rs): each side moves runs of consecutive places
// as one access of up to 16 bytes, and places are padded or swizzled so
// that neither side's warp-wide accesses pile onto a few banks.
//
// A 64x64 f32 transpose, 4 warps: the load gives each thread runs of 4
// along a row ([1, 4] of [2, 16] lanes), the permute's result (stored
// row-major) wants runs of 4 along the other axis. The source writes
// scalars down columns of the result; the result reads 16-byte vectors.
// Unpadded, the 16 lanes of a column would write places 256 apart (one
// bank, 2176 wavefronts); four floats of padding after every 256 places
// spread them (384, as much as the best swizzle, which the exchange
// passes over on a tie: padded addresses are sums). Each thread maps its
// first place once and adds a constant for the others (64, 128, 192: the
// next columns), and the reads stay whole 16-byte vectors. The shared
// arange is built again per axis (tile-remove-conversions): no
// conversion between its two slices, so one barrier pair in all (the
// first lets earlier users of the buffer finish).

// CHECK-LABEL: gpu.func @transpose
// CHECK: gpu.barrier
// CHECK: %[[H:.*]] = arith.shrui %[[PLACE:.*]], %c8_i32 : i32
// CHECK: %[[S:.*]] = arith.shli %[[H]], %c2_i32 : i32
// CHECK: %[[SLOT:.*]] = arith.addi %[[PLACE]], %[[S]] : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: arith.addi %[[SLOT]], %c64_i32 : i32
// CHECK: arith.addi %[[SLOT]], %c128_i32 : i32
// CHECK: arith.addi %[[SLOT]], %c192_i32 : i32
// CHECK: llvm.store volatile %{{.*}}, %[[P]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// PTX-LABEL: .entry transpose
// PTX: bar.sync
// PTX-NOT: ld.shared
// PTX: st.volatile.shared.b32
// PTX-NOT: ld.shared
// PTX: bar.sync
// PTX-NOT: st.volatile.shared
// PTX: ld.shared.v4.b32
// PTX-NOT: bar.sync
// PTX: st.global.v4.b32
// PTX: ret;
module attributes {tile.num_warps = 4 : i32} {
func.func @transpose(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %rows = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %cols = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rm = arith.muli %rows, %c64 : tensor<64x1xi32>
  %rb = "tile.broadcast"(%rm) : (tensor<64x1xi32>) -> tensor<64x64xi32>
  %cb = "tile.broadcast"(%cols) : (tensor<1x64xi32>) -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
  %p = "tile.addptr"(%xs, %off) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %ys = "tile.splat"(%y) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
  %q = "tile.addptr"(%ys, %off) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
  "tile.store"(%q, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}
}

// -----

// The same in f16: the load's runs are 8 halves ([1, 8] of [4, 8]
// lanes), the result reads 16-byte vectors of 8, the source writes 2-byte
// scalars; eight halves of padding after every 512 places leave both
// sides free of conflicts (192 wavefronts, the least 128 writes and 64
// reads take).

// CHECK-LABEL: gpu.func @transpose_f16
// CHECK: %[[H:.*]] = arith.shrui %[[PLACE:.*]], %c9_i32 : i32
// CHECK: %[[S:.*]] = arith.shli %[[H]], %c3_i32 : i32
// CHECK: arith.addi %[[PLACE]], %[[S]] : i32
// CHECK: llvm.store volatile %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// PTX-LABEL: .entry transpose_f16
// PTX: st.volatile.shared.b16
// PTX: bar.sync
// PTX: ld.shared.v4.b32
// PTX-NOT: bar.sync
// PTX: ret;
module attributes {tile.num_warps = 4 : i32} {
func.func @transpose_f16(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %r = "tile.arange"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
  %rows = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
  %cols = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rm = arith.muli %rows, %c64 : tensor<64x1xi32>
  %rb = "tile.broadcast"(%rm) : (tensor<64x1xi32>) -> tensor<64x64xi32>
  %cb = "tile.broadcast"(%cols) : (tensor<1x64xi32>) -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %xs = "tile.splat"(%x) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
  %p = "tile.addptr"(%xs, %off) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
  %v = "tile.load"(%p) {cache_modifier = "", eviction_policy = "", volatile = false, operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
  %t = "tile.permute"(%v) {order = array<i32: 1, 0>} : (tensor<64x64xf16>) -> tensor<64x64xf16>
  %ys = "tile.splat"(%y) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
  %q = "tile.addptr"(%ys, %off) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
  "tile.store"(%q, %t) {cache_modifier = "", eviction_policy = "", operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xf16>) -> ()
  return
}
}
