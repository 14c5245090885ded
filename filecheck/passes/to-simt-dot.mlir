// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx-sm90a | FileCheck %s --check-prefix=WGMMA
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt %to-ptx-sm80 | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s --check-prefix=ARCH
// RUN: sed 's/tile.compute_capability = 90/tile.compute_capability = 80/' %s | tile-opt --split-input-file --tile-assign-layouts --tile-predicate --tile-vectorize --tile-to-simt | FileCheck %s --check-prefix=NOARCH

// tile.dot down to PTX. Both operands are staged in shared memory,
// swizzled: `a` K-major, `b` (whose layout runs along N) MN-major, read
// with wgmma's transpose bit; on sm_90 (compute capability 90 in the module) a warpgroup
// multiplies them with wgmma through matrix descriptors, after the staged
// writes are fenced for the async proxy; on sm_80 each warp loads
// fragments and issues mma.sync. tile-to-simt marks the module
// tile.arch_specific when it uses wgmma, for which the compiler picks
// sm_90a. The second kernel of each file is TF32, the third i8, the last
// exact f32 on the CUDA cores.
// ARCH: module attributes {gpu.container_module, tile.arch_specific,
// ARCH: gpu.func @f16(
// ARCH: module attributes {gpu.container_module, tile.arch_specific,
// ARCH: gpu.func @tf32(
// ARCH: module attributes {gpu.container_module, tile.arch_specific,
// ARCH: gpu.func @int8(
// ARCH-NOT: tile.arch_specific
// ARCH: gpu.func @ieee(
// NOARCH-NOT: tile.arch_specific

// WGMMA: .target sm_90a
// WGMMA-SAME: .entry f16(
// The buffer holds the staged operands (8 KiB), then the 64x64 f32
// result on its way to the store's layout: 4096 floats with two of
// padding after every 16 (the exchange's choice), 18424 bytes, rounded up
// to whole 16-byte chunks (a load LLVM widens stays inside): 18432.
// WGMMA-SAME: .shared .align 1024 .b8 __tile_shared[18432];
// WGMMA-SAME: st.volatile.shared.b16
// WGMMA-SAME: fence.proxy.async.shared::cta;
// WGMMA-SAME: bar.sync
// WGMMA-SAME: wgmma.fence.sync.aligned;
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{[{]}}%r{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// WGMMA-SAME: wgmma.commit_group.sync.aligned;
// WGMMA-SAME: wgmma.wait_group.sync.aligned 0;
// WGMMA-NOT: mma.sync

// MMA: .target sm_80
// MMA-SAME: .entry f16(
// MMA-NOT: wgmma
// MMA-SAME: ld.shared.b32
// MMA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf16>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f16>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf16>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf16>>) -> tensor<64x32xf16>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf16>>) -> tensor<32x64xf16>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// WGMMA: .target sm_90a
// tf32 stages f32 inputs as they are (tensor cores drop the low 13 bits of
// an f32 operand: tf32's definition), without rounding them.
// WGMMA-SAME: .entry tf32(
// WGMMA-NOT: cvt.rna
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{[{]}}%r{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// MMA: .target sm_80
// MMA-SAME: .entry tf32(
// MMA-NOT: cvt.rna
// MMA-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @tf32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "tf32"} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}

// -----

// WGMMA: .target sm_90a
// WGMMA-SAME: .entry int8(
// WGMMA-SAME: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {{[{]}}%r{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p;
// MMA: .target sm_80
// MMA-SAME: .entry int8(
// MMA-SAME: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @int8(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xi8>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i8>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xi8>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<i32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xi32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xi8>>) -> tensor<64x32xi8>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xi8>>) -> tensor<32x64xi8>
    %z = arith.constant dense<0> : tensor<64x64xi32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xi8>, tensor<32x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xi32>>, tensor<64x64xi32>) -> ()
    return
  }
}

// -----

// Exact f32 products: no tensor cores, so no arch-specific target.
// WGMMA: .target sm_90a
// WGMMA-SAME: .entry ieee(
// WGMMA-NOT: mma
// WGMMA-SAME: fma.rn.f32
// MMA: .target sm_80
// MMA-SAME: .entry ieee(
// MMA-NOT: mma
// MMA-SAME: fma.rn.f32
module attributes {tile.compute_capability = 90 : i32, tile.num_warps = 4 : i32} {
  func.func @ieee(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %m: i64, %n: i64, %k: i64) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %pa = "tile.make_block_ptr"(%a, %m, %k, %k, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x32xf32>>
    %pb = "tile.make_block_ptr"(%b, %k, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<32x64xf32>>
    %pc = "tile.make_block_ptr"(%c, %m, %n, %n, %c1, %c0, %c0) {order = array<i32: 1, 0>, operandSegmentSizes = array<i32: 1, 2, 2, 2>} : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<64x64xf32>>
    %x = "tile.block_load"(%pa) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<64x32xf32>>) -> tensor<64x32xf32>
    %y = "tile.block_load"(%pb) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = "", padding = "zero", volatile = false} : (!tile.block_ptr<tensor<32x64xf32>>) -> tensor<32x64xf32>
    %z = arith.constant dense<0.0> : tensor<64x64xf32>
    %d = "tile.dot"(%x, %y, %z) {input_precision = "ieee"} : (tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    "tile.block_store"(%pc, %d) {boundary_check = array<i32: 0, 1>, cache_modifier = "", eviction_policy = ""} : (!tile.block_ptr<tensor<64x64xf32>>, tensor<64x64xf32>) -> ()
    return
  }
}
